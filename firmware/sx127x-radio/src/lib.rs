//! # sx127x-radio
//!
//! The Semtech SX1276/77/78/79 (RFM95W, RFM96W and other modules) in LoRa mode,
//! bound to [`radio_mac::Radio`] at register level over an `embedded-hal` 1.0
//! [`SpiDevice`]. The driver knows nothing of the board: it takes an SPI device
//! (chip select included) and nothing else; the reset line is the board's business.
//! It polls the chip's IRQ flags over SPI, so DIO0 need not be wired.
//!
//! Register addresses and bit fields are those of the SX1276/77/78/79 datasheet
//! (Semtech, rev. 7, section 6.4 "LoRa mode register map"). Existing crates were
//! not used: `sx127x_lora` is written for embedded-hal 0.2, and `lora-phy` is
//! async-only; the four operations the MAC needs are a few registers each.
//!
//! * [`Radio::transmit`]: standby, the packet into the FIFO at 0, `RegPayloadLength`,
//!   mode TX.
//! * [`Radio::is_transmitting`]: until `TxDone` in `RegIrqFlags`; then back to RX
//!   continuous.
//! * [`Radio::receive`]: on `RxDone`, the packet from `RegFifoRxCurrentAddr`
//!   (`RegRxNbBytes` bytes); packets with `PayloadCrcError` are discarded here.
//! * [`Radio::channel_clear`]: LoRa signals lie below the noise floor, so energy
//!   (RSSI) detection does not see them; the modem's own detector does:
//!   `RegModemStat` bit 0 "signal detected" (a preamble is being received) or bit 1
//!   "signal synchronised" means busy.
//!
//! ```
//! use sx127x_radio::Settings;
//! let s = Settings::EU868_SF7_BW125;
//! assert_eq!(s.frf(), 0xD9_06_66); // 868.1 MHz * 2^19 / 32 MHz = 0xD90666.4
//! ```
#![no_std]

use embedded_hal::spi::{Operation, SpiDevice};
use radio_mac::{DutyCycle, LoRa, Radio};

/// Register addresses (datasheet section 6.4).
pub mod reg {
    /// FIFO read/write access.
    pub const FIFO: u8 = 0x00;
    /// Operating mode and LoRa mode bit.
    pub const OP_MODE: u8 = 0x01;
    /// Carrier frequency, most significant byte.
    pub const FRF_MSB: u8 = 0x06;
    /// Power amplifier selection and output power.
    pub const PA_CONFIG: u8 = 0x09;
    /// FIFO SPI pointer.
    pub const FIFO_ADDR_PTR: u8 = 0x0D;
    /// Start of the TX data in the FIFO.
    pub const FIFO_TX_BASE_ADDR: u8 = 0x0E;
    /// Start of the RX data in the FIFO.
    pub const FIFO_RX_BASE_ADDR: u8 = 0x0F;
    /// Start of the last packet received.
    pub const FIFO_RX_CURRENT_ADDR: u8 = 0x10;
    /// Interrupt flags (write 1 to clear).
    pub const IRQ_FLAGS: u8 = 0x12;
    /// Bytes of the last packet received.
    pub const RX_NB_BYTES: u8 = 0x13;
    /// Modem status.
    pub const MODEM_STAT: u8 = 0x18;
    /// Bandwidth, coding rate, header mode.
    pub const MODEM_CONFIG_1: u8 = 0x1D;
    /// Spreading factor, payload CRC.
    pub const MODEM_CONFIG_2: u8 = 0x1E;
    /// Preamble length, most significant byte.
    pub const PREAMBLE_MSB: u8 = 0x20;
    /// Preamble length, least significant byte.
    pub const PREAMBLE_LSB: u8 = 0x21;
    /// Payload length (TX).
    pub const PAYLOAD_LENGTH: u8 = 0x22;
    /// Low data rate optimisation, AGC.
    pub const MODEM_CONFIG_3: u8 = 0x26;
    /// LoRa sync word.
    pub const SYNC_WORD: u8 = 0x39;
    /// Silicon version: 0x12 for the SX1276/77/78/79.
    pub const VERSION: u8 = 0x42;
}

/// `RegOpMode` values: LoRa mode (bit 7) with the mode in bits 2..0.
pub mod mode {
    /// Sleep (the only mode in which LoRa mode can be switched on).
    pub const SLEEP: u8 = 0x80;
    /// Standby.
    pub const STANDBY: u8 = 0x81;
    /// Transmit.
    pub const TX: u8 = 0x83;
    /// Receive continuously.
    pub const RX_CONTINUOUS: u8 = 0x85;
}

/// `RegIrqFlags` bits.
pub mod irq {
    /// A packet was received.
    pub const RX_DONE: u8 = 0x40;
    /// The received packet's CRC was wrong.
    pub const PAYLOAD_CRC_ERROR: u8 = 0x20;
    /// The packet was sent.
    pub const TX_DONE: u8 = 0x08;
}

/// The `RegVersion` of the SX1276/77/78/79.
pub const SILICON_VERSION: u8 = 0x12;

/// Radio settings: frequency, LoRa modulation and packet format, output power, and
/// the duty cycle of the frequency's sub-band. The one place they are written: the
/// driver programs the chip from them ([`Sx127x::new`]) and the MAC takes its timing
/// from the same values ([`Settings::mac_config`]), so the ACK timeout always matches
/// the air time the chip produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Settings {
    /// Carrier frequency in Hz.
    pub frequency_hz: u32,
    /// Spreading factor (7 to 12: SF6 needs an implicit header, which the MAC's
    /// variable-length frames cannot use), bandwidth, coding rate, preamble, header,
    /// CRC, low data rate optimisation.
    pub lora: LoRa,
    /// Output power on PA_BOOST, 2..=17 dBm.
    pub power_dbm: u8,
    /// The duty cycle the MAC keeps (the EU868 sub-band's, [`radio_mac::region`]).
    pub duty_cycle: DutyCycle,
}

impl Settings {
    /// 868.1 MHz (EU868 channel 1, in the 868.0-868.6 MHz sub-band: 1 % duty cycle),
    /// SF7, 125 kHz, coding rate 4/5, 8 preamble symbols, explicit header, payload
    /// CRC, +14 dBm: a 1.024 ms symbol, about 5.5 kb/s.
    pub const EU868_SF7_BW125: Self = Self {
        frequency_hz: 868_100_000,
        lora: LoRa::SF7_BW125,
        power_dbm: 14,
        duty_cycle: DutyCycle::ONE_PERCENT,
    };

    /// The `RegFrf` value: `f * 2^19 / 32 MHz`, rounded to the nearest step of
    /// 61 Hz (datasheet section 4.1.4).
    pub const fn frf(&self) -> u32 {
        ((((self.frequency_hz as u64) << 19) + 16_000_000) / 32_000_000) as u32
    }

    /// `RegModemConfig1`: bandwidth, coding rate, implicit header bit.
    pub const fn modem_config_1(&self) -> u8 {
        let implicit = if self.lora.explicit_header() { 0 } else { 1 };
        (self.lora.bandwidth().code() << 4) | (self.lora.coding_rate().cr() << 1) | implicit
    }

    /// `RegModemConfig2`: spreading factor, payload CRC bit.
    pub const fn modem_config_2(&self) -> u8 {
        let crc = if self.lora.crc() { 0x04 } else { 0 };
        (self.lora.spreading_factor() << 4) | crc
    }

    /// `RegModemConfig3`: AGC on, and the low data rate optimisation where
    /// [`LoRa::low_data_rate_on`] says (a symbol over 16 ms, by default).
    pub const fn modem_config_3(&self) -> u8 {
        0x04 | if self.lora.low_data_rate_on() {
            0x08
        } else {
            0
        }
    }

    /// The MAC's view of this PHY: Semtech's time on air of these settings
    /// ([`radio_mac::phy::LoRa::air_time_ns`]); a turnaround of one symbol (1.024 ms
    /// at SF7/125 kHz, well above the chip's mode-switch times of datasheet table 7);
    /// a CCA of two symbols, the time the modem needs to report a preamble (Semtech
    /// AN1200.21 gives about 1.75 symbols for channel activity detection), so a slot
    /// of three symbols (3.072 ms at SF7); the duty cycle of [`Self::duty_cycle`].
    /// The channel-access rule is the radio MAC's default, IEEE 802.15.4 unslotted
    /// CSMA-CA, its backoff periods being this slot.
    ///
    /// ```
    /// use sx127x_radio::Settings;
    /// use mac_base::Address;
    /// let c = Settings::EU868_SF7_BW125.mac_config(Address(1)).unwrap();
    /// assert_eq!(c.slot().as_nanos(), 3_072_000);
    /// assert_eq!(c.air_time_ns(9), 41_216_000); // the ACK
    /// assert_eq!(c.ack_timeout_ns(), 45_312_000);
    /// ```
    ///
    /// # Errors
    ///
    /// [`radio_mac::config::ConfigErrorKind::BroadcastAddress`] for a broadcast address.
    pub const fn mac_config(
        &self,
        address: mac_base::Address,
    ) -> Result<radio_mac::MacConfig, radio_mac::config::ConfigError> {
        match radio_mac::MacConfig::lora(address, self.lora) {
            Ok(c) => Ok(c.with_duty_cycle(self.duty_cycle)),
            Err(e) => Err(e),
        }
    }
}

/// What went wrong on the SPI side, or with the chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ErrorKind {
    /// The SPI transfer failed.
    Spi,
    /// `RegVersion` is not the SX1276's: no chip, or another one.
    WrongChip {
        /// The version read.
        version: u8,
    },
    /// A packet longer than the FIFO (255 bytes), or settings out of range.
    InvalidArgument,
}

/// A driver error (see [`Error::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Error {
    kind: ErrorKind,
}

impl Error {
    const fn new(kind: ErrorKind) -> Self {
        Self { kind }
    }

    /// What went wrong.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.kind {
            ErrorKind::Spi => f.write_str("SPI transfer failed"),
            ErrorKind::WrongChip { version } => {
                write!(
                    f,
                    "RegVersion {version:#04x}, expected {SILICON_VERSION:#04x}"
                )
            }
            ErrorKind::InvalidArgument => f.write_str("argument out of range"),
        }
    }
}

impl core::error::Error for Error {}

/// The SX127x on an SPI device.
#[derive(Debug)]
pub struct Sx127x<SPI> {
    spi: SPI,
    transmitting: bool,
}

impl<SPI: SpiDevice> Sx127x<SPI> {
    /// Check the chip, configure LoRa mode with `settings` and start receiving. The
    /// board resets the chip (NRESET low for 100 µs, then 5 ms) before.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::WrongChip`] if `RegVersion` is not 0x12,
    /// [`ErrorKind::InvalidArgument`] for an implicit header (the MAC's frames vary
    /// in length, so SF6 too) or a power outside 2..=17 dBm, [`ErrorKind::Spi`] on an
    /// SPI failure.
    pub fn new(spi: SPI, settings: Settings) -> Result<Self, Error> {
        let power_ok = matches!(settings.power_dbm, 2..=17);
        if !settings.lora.explicit_header() || !power_ok {
            return Err(Error::new(ErrorKind::InvalidArgument));
        }
        let mut radio = Self {
            spi,
            transmitting: false,
        };
        let version = radio.read(reg::VERSION)?;
        if version != SILICON_VERSION {
            return Err(Error::new(ErrorKind::WrongChip { version }));
        }
        radio.write(reg::OP_MODE, mode::SLEEP)?;
        let [_, msb, mid, lsb] = settings.frf().to_be_bytes();
        radio.write_burst(reg::FRF_MSB, &[msb, mid, lsb])?;
        // PA_BOOST, Pout = 17 - (15 - OutputPower) dBm.
        radio.write(reg::PA_CONFIG, 0x80 | (settings.power_dbm - 2))?;
        radio.write(reg::FIFO_TX_BASE_ADDR, 0)?;
        radio.write(reg::FIFO_RX_BASE_ADDR, 0)?;
        radio.write(reg::MODEM_CONFIG_1, settings.modem_config_1())?;
        radio.write(reg::MODEM_CONFIG_2, settings.modem_config_2())?;
        radio.write(reg::MODEM_CONFIG_3, settings.modem_config_3())?;
        let [msb, lsb] = settings.lora.preamble_symbols().to_be_bytes();
        radio.write_burst(reg::PREAMBLE_MSB, &[msb, lsb])?;
        // A private network's sync word, not LoRaWAN's 0x34.
        radio.write(reg::SYNC_WORD, 0x12)?;
        radio.write(reg::OP_MODE, mode::STANDBY)?;
        radio.write(reg::IRQ_FLAGS, 0xFF)?;
        radio.write(reg::OP_MODE, mode::RX_CONTINUOUS)?;
        Ok(radio)
    }

    /// Give the SPI device back.
    pub fn release(self) -> SPI {
        self.spi
    }

    /// Read one register.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Spi`].
    pub fn read(&mut self, addr: u8) -> Result<u8, Error> {
        let mut value = [0u8];
        self.spi
            .transaction(&mut [
                Operation::Write(&[addr & 0x7F]),
                Operation::Read(&mut value),
            ])
            .map_err(|_| Error::new(ErrorKind::Spi))?;
        Ok(value[0])
    }

    /// Write one register.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Spi`].
    pub fn write(&mut self, addr: u8, value: u8) -> Result<(), Error> {
        self.write_burst(addr, &[value])
    }

    fn write_burst(&mut self, addr: u8, values: &[u8]) -> Result<(), Error> {
        self.spi
            .transaction(&mut [Operation::Write(&[addr | 0x80]), Operation::Write(values)])
            .map_err(|_| Error::new(ErrorKind::Spi))
    }

    fn read_burst(&mut self, addr: u8, values: &mut [u8]) -> Result<(), Error> {
        self.spi
            .transaction(&mut [Operation::Write(&[addr & 0x7F]), Operation::Read(values)])
            .map_err(|_| Error::new(ErrorKind::Spi))
    }
}

impl<SPI: SpiDevice> Radio for Sx127x<SPI> {
    type Error = Error;

    fn transmit(&mut self, packet: &[u8]) -> Result<(), Error> {
        let len = u8::try_from(packet.len()).map_err(|_| Error::new(ErrorKind::InvalidArgument))?;
        self.write(reg::OP_MODE, mode::STANDBY)?;
        self.write(reg::FIFO_ADDR_PTR, 0)?;
        self.write_burst(reg::FIFO, packet)?;
        self.write(reg::PAYLOAD_LENGTH, len)?;
        self.write(reg::IRQ_FLAGS, irq::TX_DONE)?;
        self.write(reg::OP_MODE, mode::TX)?;
        self.transmitting = true;
        Ok(())
    }

    fn is_transmitting(&mut self) -> Result<bool, Error> {
        if !self.transmitting {
            return Ok(false);
        }
        if self.read(reg::IRQ_FLAGS)? & irq::TX_DONE == 0 {
            return Ok(true);
        }
        self.write(reg::IRQ_FLAGS, irq::TX_DONE)?;
        self.write(reg::OP_MODE, mode::RX_CONTINUOUS)?;
        self.transmitting = false;
        Ok(false)
    }

    fn receive(&mut self, buf: &mut [u8]) -> Result<Option<usize>, Error> {
        if self.transmitting {
            return Ok(None);
        }
        let flags = self.read(reg::IRQ_FLAGS)?;
        if flags & irq::RX_DONE == 0 {
            return Ok(None);
        }
        self.write(reg::IRQ_FLAGS, irq::RX_DONE | irq::PAYLOAD_CRC_ERROR)?;
        if flags & irq::PAYLOAD_CRC_ERROR != 0 {
            return Ok(None);
        }
        let len = usize::from(self.read(reg::RX_NB_BYTES)?).min(buf.len());
        let start = self.read(reg::FIFO_RX_CURRENT_ADDR)?;
        self.write(reg::FIFO_ADDR_PTR, start)?;
        let dst = buf.get_mut(..len).unwrap_or_default();
        self.read_burst(reg::FIFO, dst)?;
        Ok(Some(len))
    }

    fn channel_clear(&mut self) -> Result<bool, Error> {
        if self.transmitting {
            return Ok(false);
        }
        Ok(self.read(reg::MODEM_STAT)? & 0x03 == 0)
    }
}
