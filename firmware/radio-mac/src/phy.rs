//! The PHY's air time: how long a packet of `n` bytes occupies the channel.
//!
//! Every timing of the MAC (the ACK timeout, the slot's share of a frame, when its
//! own transmission ends) comes from [`Phy::air_time_ns`], so it is right at every
//! setting of the radio:
//!
//! * [`Phy::Constant`]: a constant-rate PHY (O-QPSK, FSK, the nRF52840's modes):
//!   `(n + overhead) * 8 / bit rate`, the overhead being preamble, sync word and PHY
//!   header. IEEE 802.15.4's 2.4 GHz PHY is one: 250 kb/s and 6 bytes.
//! * [`Phy::LoRa`]: Semtech's time-on-air formula (SX1276/77/78/79 datasheet, rev. 7,
//!   section 4.1.1.7), which is not linear in `n`: the payload is sent in blocks of
//!   `4 (SF - 2 DE)` bits, each `CR + 4` symbols long, after `preamble + 4.25`
//!   symbols of preamble and sync word:
//!
//!   `T = (n_preamble + 4.25 + 8 + max(ceil((8 PL - 4 SF + 28 + 16 CRC - 20 IH) /
//!   (4 (SF - 2 DE))) (CR + 4), 0)) 2^SF / BW`
//!
//!   with `PL` the payload bytes, `IH` 1 for an implicit header, `DE` 1 with the low
//!   data rate optimisation, `CR` 1 to 4 for coding rates 4/5 to 4/8. The SX127x's
//!   bandwidths are 500 kHz divided by 1, 2, 4, 8, 12, 16, 24, 32, 48 or 64, so a
//!   quarter symbol is `2^SF * divisor * 500` ns exactly and the formula is computed
//!   in integers, to the nanosecond.
//!
//! ```
//! use radio_mac::phy::{Bandwidth, CodingRate, LoRa};
//! // The radio board: SF7, 125 kHz, CR 4/5, 8 preamble symbols, explicit header, CRC.
//! let lora = LoRa::new(7, Bandwidth::Khz125, CodingRate::Cr4_5).unwrap();
//! assert_eq!(lora.symbol_ns(), 1_024_000);
//! // A 9-byte ACK: 12.25 symbols of preamble, 28 of payload.
//! assert_eq!(lora.payload_symbols(9), 28);
//! assert_eq!(lora.air_time_ns(9), 41_216_000);
//! ```

use crate::error::{ConfigError, ConfigErrorKind};

/// A PHY, by how its air time is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Phy {
    /// A constant bit rate after a fixed overhead.
    Constant(ConstantRate),
    /// LoRa chirp spread spectrum (Semtech SX127x).
    LoRa(LoRa),
}

impl Phy {
    /// IEEE 802.15.4-2020 O-QPSK at 2.4 GHz (clause 12): 250 kb/s after 6 bytes
    /// (preamble 4, SFD 1, PHR 1).
    pub const IEEE_802_15_4_2450: Self = Self::Constant(ConstantRate {
        bit_rate: 250_000,
        overhead_bytes: 6,
    });

    /// Air time of a packet of `bytes` bytes (the PHY payload), in nanoseconds.
    pub const fn air_time_ns(&self, bytes: usize) -> u64 {
        match self {
            Self::Constant(c) => c.air_time_ns(bytes),
            Self::LoRa(l) => l.air_time_ns(bytes),
        }
    }

    /// The longest PHY payload, in bytes: 127 for IEEE 802.15.4 (`aMaxPhyPacketSize`)
    /// and other constant-rate PHYs, 255 for LoRa (the SX127x's FIFO and length byte).
    pub const fn max_packet(&self) -> usize {
        match self {
            Self::Constant(_) => 127,
            Self::LoRa(_) => 255,
        }
    }
}

/// A constant-rate PHY.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ConstantRate {
    bit_rate: u32,
    overhead_bytes: u16,
}

impl ConstantRate {
    /// `bit_rate` bits per second after `overhead_bytes` of preamble, sync word and
    /// PHY header.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::ZeroBitRate`] for a bit rate of 0.
    pub const fn new(bit_rate: u32, overhead_bytes: u16) -> Result<Self, ConfigError> {
        if bit_rate == 0 {
            return Err(ConfigError::new(ConfigErrorKind::ZeroBitRate));
        }
        Ok(Self {
            bit_rate,
            overhead_bytes,
        })
    }

    /// Bits per second.
    pub const fn bit_rate(&self) -> u32 {
        self.bit_rate
    }

    /// Bytes sent before the packet.
    pub const fn overhead_bytes(&self) -> u16 {
        self.overhead_bytes
    }

    /// Air time of `bytes` bytes, overhead included, rounded up to the nanosecond.
    pub const fn air_time_ns(&self, bytes: usize) -> u64 {
        let bits = (bytes as u64 + self.overhead_bytes as u64).saturating_mul(8);
        bits.saturating_mul(1_000_000_000)
            .div_ceil(self.bit_rate as u64)
    }
}

/// The SX127x's LoRa bandwidths (`RegModemConfig1` bits 7..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Bandwidth {
    /// 7.8 kHz (500/64).
    Khz7_8,
    /// 10.4 kHz (500/48).
    Khz10_4,
    /// 15.6 kHz (500/32).
    Khz15_6,
    /// 20.8 kHz (500/24).
    Khz20_8,
    /// 31.25 kHz (500/16).
    Khz31_25,
    /// 41.7 kHz (500/12).
    Khz41_7,
    /// 62.5 kHz (500/8).
    Khz62_5,
    /// 125 kHz (500/4): LoRaWAN's and the radio board's.
    Khz125,
    /// 250 kHz (500/2).
    Khz250,
    /// 500 kHz.
    Khz500,
}

impl Bandwidth {
    /// Every bandwidth, narrowest first (index = register code).
    pub const ALL: [Self; 10] = [
        Self::Khz7_8,
        Self::Khz10_4,
        Self::Khz15_6,
        Self::Khz20_8,
        Self::Khz31_25,
        Self::Khz41_7,
        Self::Khz62_5,
        Self::Khz125,
        Self::Khz250,
        Self::Khz500,
    ];

    /// The `RegModemConfig1` code, 0 to 9.
    pub const fn code(self) -> u8 {
        match self {
            Self::Khz7_8 => 0,
            Self::Khz10_4 => 1,
            Self::Khz15_6 => 2,
            Self::Khz20_8 => 3,
            Self::Khz31_25 => 4,
            Self::Khz41_7 => 5,
            Self::Khz62_5 => 6,
            Self::Khz125 => 7,
            Self::Khz250 => 8,
            Self::Khz500 => 9,
        }
    }

    /// The bandwidth of a register code, `None` above 9.
    pub const fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Self::Khz7_8),
            1 => Some(Self::Khz10_4),
            2 => Some(Self::Khz15_6),
            3 => Some(Self::Khz20_8),
            4 => Some(Self::Khz31_25),
            5 => Some(Self::Khz41_7),
            6 => Some(Self::Khz62_5),
            7 => Some(Self::Khz125),
            8 => Some(Self::Khz250),
            9 => Some(Self::Khz500),
            _ => None,
        }
    }

    /// 500 kHz divided by this.
    pub const fn divisor_of_500khz(self) -> u32 {
        match self {
            Self::Khz7_8 => 64,
            Self::Khz10_4 => 48,
            Self::Khz15_6 => 32,
            Self::Khz20_8 => 24,
            Self::Khz31_25 => 16,
            Self::Khz41_7 => 12,
            Self::Khz62_5 => 8,
            Self::Khz125 => 4,
            Self::Khz250 => 2,
            Self::Khz500 => 1,
        }
    }

    /// The bandwidth in hertz, rounded down (7812 for 7.8 kHz).
    pub const fn hz(self) -> u32 {
        500_000 / self.divisor_of_500khz()
    }
}

/// The LoRa forward error correction rate, 4/5 to 4/8 (`CR` 1 to 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CodingRate {
    /// 4/5.
    Cr4_5,
    /// 4/6.
    Cr4_6,
    /// 4/7.
    Cr4_7,
    /// 4/8.
    Cr4_8,
}

impl CodingRate {
    /// Every coding rate.
    pub const ALL: [Self; 4] = [Self::Cr4_5, Self::Cr4_6, Self::Cr4_7, Self::Cr4_8];

    /// `CR` of the time-on-air formula and of `RegModemConfig1` bits 3..1: 1 to 4.
    pub const fn cr(self) -> u8 {
        match self {
            Self::Cr4_5 => 1,
            Self::Cr4_6 => 2,
            Self::Cr4_7 => 3,
            Self::Cr4_8 => 4,
        }
    }
}

/// The low data rate optimisation (`DE`): the datasheet mandates it where a symbol
/// lasts more than 16 ms (section 4.1.1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LowDataRate {
    /// On exactly where the symbol exceeds 16 ms (the default).
    Auto,
    /// Always on.
    On,
    /// Always off.
    Off,
}

/// A LoRa modulation and packet format, with the SX127x's time on air.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LoRa {
    spreading_factor: u8,
    bandwidth: Bandwidth,
    coding_rate: CodingRate,
    preamble_symbols: u16,
    explicit_header: bool,
    crc: bool,
    low_data_rate: LowDataRate,
}

impl LoRa {
    /// SF7, 125 kHz, coding rate 4/5 with the SX127x's defaults (see [`Self::new`]):
    /// LoRaWAN EU868's DR5 and the radio board's setting.
    pub const SF7_BW125: Self = Self {
        spreading_factor: 7,
        bandwidth: Bandwidth::Khz125,
        coding_rate: CodingRate::Cr4_5,
        preamble_symbols: 8,
        explicit_header: true,
        crc: true,
        low_data_rate: LowDataRate::Auto,
    };

    /// Spreading factor `sf` (6 to 12), `bandwidth` and `coding_rate`, with the
    /// SX127x's defaults for the rest: 8 programmed preamble symbols
    /// (`RegPreambleLength`, 12.25 on the air), explicit header, payload CRC on,
    /// low data rate optimisation [`LowDataRate::Auto`]. At SF6, which the SX127x
    /// supports only with an implicit header, the header is implicit.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::LoRaSpreadingFactor`] for `sf` outside 6 to 12.
    pub const fn new(
        sf: u8,
        bandwidth: Bandwidth,
        coding_rate: CodingRate,
    ) -> Result<Self, ConfigError> {
        if sf < 6 || sf > 12 {
            return Err(ConfigError::new(ConfigErrorKind::LoRaSpreadingFactor));
        }
        Ok(Self {
            spreading_factor: sf,
            bandwidth,
            coding_rate,
            preamble_symbols: 8,
            explicit_header: sf != 6,
            crc: true,
            low_data_rate: LowDataRate::Auto,
        })
    }

    /// The programmed preamble length (`RegPreambleLength`; 4.25 symbols of sync
    /// word follow on the air).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::LoRaPreamble`] below 6, the SX127x's minimum.
    pub const fn with_preamble_symbols(mut self, symbols: u16) -> Result<Self, ConfigError> {
        if symbols < 6 {
            return Err(ConfigError::new(ConfigErrorKind::LoRaPreamble));
        }
        self.preamble_symbols = symbols;
        Ok(self)
    }

    /// Explicit (`true`, the default) or implicit header. The MAC's frames carry
    /// their own length, but a receiver in implicit mode must be told the length:
    /// the MAC's variable-length frames need the explicit header.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::LoRaSpreadingFactor`] for an explicit header at SF6, which
    /// the SX127x does not support.
    pub const fn with_explicit_header(mut self, explicit: bool) -> Result<Self, ConfigError> {
        if explicit && self.spreading_factor == 6 {
            return Err(ConfigError::new(ConfigErrorKind::LoRaSpreadingFactor));
        }
        self.explicit_header = explicit;
        Ok(self)
    }

    /// The payload CRC on (the default) or off.
    pub const fn with_crc(mut self, crc: bool) -> Self {
        self.crc = crc;
        self
    }

    /// The low data rate optimisation.
    pub const fn with_low_data_rate(mut self, mode: LowDataRate) -> Self {
        self.low_data_rate = mode;
        self
    }

    /// The spreading factor, 6 to 12.
    pub const fn spreading_factor(&self) -> u8 {
        self.spreading_factor
    }

    /// The bandwidth.
    pub const fn bandwidth(&self) -> Bandwidth {
        self.bandwidth
    }

    /// The coding rate.
    pub const fn coding_rate(&self) -> CodingRate {
        self.coding_rate
    }

    /// The programmed preamble length, symbols.
    pub const fn preamble_symbols(&self) -> u16 {
        self.preamble_symbols
    }

    /// Whether the header is explicit.
    pub const fn explicit_header(&self) -> bool {
        self.explicit_header
    }

    /// Whether the payload CRC is on.
    pub const fn crc(&self) -> bool {
        self.crc
    }

    /// The low data rate optimisation setting.
    pub const fn low_data_rate(&self) -> LowDataRate {
        self.low_data_rate
    }

    /// A quarter symbol in nanoseconds: `2^SF / BW / 4`, exact.
    const fn quarter_symbol_ns(&self) -> u64 {
        (1u64 << self.spreading_factor) * self.bandwidth.divisor_of_500khz() as u64 * 500
    }

    /// One symbol, `2^SF / BW`, in nanoseconds (exact).
    pub const fn symbol_ns(&self) -> u64 {
        self.quarter_symbol_ns() * 4
    }

    /// Whether the low data rate optimisation is on (`DE` = 1): as set, or under
    /// [`LowDataRate::Auto`] where a symbol lasts more than 16 ms.
    pub const fn low_data_rate_on(&self) -> bool {
        match self.low_data_rate {
            LowDataRate::On => true,
            LowDataRate::Off => false,
            LowDataRate::Auto => self.symbol_ns() > 16_000_000,
        }
    }

    /// Symbols of the payload part (header, payload and CRC): `8 + max(ceil((8 PL -
    /// 4 SF + 28 + 16 CRC - 20 IH) / (4 (SF - 2 DE))) (CR + 4), 0)`.
    pub const fn payload_symbols(&self, bytes: usize) -> u32 {
        // In 32 bits (a packet is at most 255 bytes), the subtracted terms apart so
        // that nothing goes below zero: a Cortex-M divides these in one instruction.
        let sf = self.spreading_factor as u32;
        let bytes = if bytes > 0xFFFF { 0xFFFF } else { bytes as u32 };
        let added = 8 * bytes + 28 + if self.crc { 16 } else { 0 };
        let taken = 4 * sf + if self.explicit_header { 0 } else { 20 };
        let per_block = 4 * (sf - if self.low_data_rate_on() { 2 } else { 0 });
        let blocks = if added > taken {
            (added - taken).div_ceil(per_block)
        } else {
            0
        };
        8 + blocks * (self.coding_rate.cr() as u32 + 4)
    }

    /// The preamble on the air (programmed symbols + 4.25), in nanoseconds.
    pub const fn preamble_ns(&self) -> u64 {
        (self.preamble_symbols as u64 * 4 + 17) * self.quarter_symbol_ns()
    }

    /// Time on air of a packet of `bytes` payload bytes, in nanoseconds (exact).
    pub const fn air_time_ns(&self, bytes: usize) -> u64 {
        self.preamble_ns() + self.payload_symbols(bytes) as u64 * self.symbol_ns()
    }
}
