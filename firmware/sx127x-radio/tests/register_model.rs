//! The driver against a register-level model of the SX1276 (the radio cannot be
//! emulated: QEMU models no SX127x), then two modelled chips carrying the radio MAC.
//!
//! The model implements what the driver relies on, from the datasheet: SPI address
//! byte with bit 7 for write, burst access with auto-increment, the FIFO behind
//! register 0x00 through `RegFifoAddrPtr`, `RegIrqFlags` cleared by writing ones,
//! `RegOpMode`, and `RegVersion` = 0x12. A packet "sent" in TX mode is handed to the
//! test, which can deliver it to the other model as `RxDone`.
// The crate's lints forbid panics in the MAC; a test fails by panicking.
#![allow(
    clippy::panic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::cell::RefCell;
use std::rc::Rc;

use embedded_hal::spi::{ErrorKind, ErrorType, Operation, SpiDevice};
use mac_base::Address;
use radio_mac::phy::LowDataRate;
use radio_mac::region::eu868;
use radio_mac::{Bandwidth, CodingRate, DutyCycle, LoRa};
use radio_mac::{Event, MacCore, Radio};
use rand_core::SeedableRng;
use sx127x_radio::{ErrorKind as DriverError, Settings, Sx127x, irq, mode, reg};

#[derive(Debug)]
struct Chip {
    regs: [u8; 0x80],
    fifo: Vec<u8>,
    sent: Vec<Vec<u8>>,
    writes: Vec<(u8, u8)>,
}

impl Chip {
    fn new() -> Self {
        let mut c = Self {
            regs: [0; 0x80],
            fifo: vec![0; 256],
            sent: Vec::new(),
            writes: Vec::new(),
        };
        c.regs[usize::from(reg::VERSION)] = 0x12;
        c
    }

    fn access(&mut self, addr: u8, write: bool, data: &mut [u8]) {
        let a = addr & 0x7F;
        for (i, byte) in data.iter_mut().enumerate() {
            if a == reg::FIFO {
                let ptr = usize::from(self.regs[usize::from(reg::FIFO_ADDR_PTR)]);
                if write {
                    self.fifo[ptr] = *byte;
                } else {
                    *byte = self.fifo[ptr];
                }
                self.regs[usize::from(reg::FIFO_ADDR_PTR)] = ptr.wrapping_add(1) as u8;
                continue;
            }
            let r = usize::from(a) + i;
            if write {
                self.writes.push((r as u8, *byte));
                self.write_reg(r as u8, *byte);
            } else {
                *byte = self.regs[r];
            }
        }
    }

    fn write_reg(&mut self, r: u8, v: u8) {
        match r {
            reg::IRQ_FLAGS => self.regs[usize::from(r)] &= !v,
            reg::OP_MODE => {
                self.regs[usize::from(r)] = v;
                if v == mode::TX {
                    let len = usize::from(self.regs[usize::from(reg::PAYLOAD_LENGTH)]);
                    self.sent.push(self.fifo[..len].to_vec());
                    self.regs[usize::from(reg::IRQ_FLAGS)] |= irq::TX_DONE;
                }
            }
            _ => self.regs[usize::from(r)] = v,
        }
    }

    /// A packet arrives (only in RX continuous mode, as on the chip).
    fn arrive(&mut self, packet: &[u8], crc_error: bool) -> bool {
        if self.regs[usize::from(reg::OP_MODE)] != mode::RX_CONTINUOUS {
            return false;
        }
        let start = 0x40;
        self.fifo[start..start + packet.len()].copy_from_slice(packet);
        self.regs[usize::from(reg::FIFO_RX_CURRENT_ADDR)] = start as u8;
        self.regs[usize::from(reg::RX_NB_BYTES)] = packet.len() as u8;
        self.regs[usize::from(reg::IRQ_FLAGS)] |=
            irq::RX_DONE | if crc_error { irq::PAYLOAD_CRC_ERROR } else { 0 };
        true
    }
}

#[derive(Clone, Debug)]
struct Spi(Rc<RefCell<Chip>>);

impl ErrorType for Spi {
    type Error = ErrorKind;
}

impl SpiDevice for Spi {
    fn transaction(&mut self, ops: &mut [Operation<'_, u8>]) -> Result<(), ErrorKind> {
        let mut chip = self.0.borrow_mut();
        let mut addr = None;
        for op in ops {
            match (op, addr) {
                (Operation::Write(bytes), None) => {
                    let (&first, rest) = bytes.split_first().ok_or(ErrorKind::Other)?;
                    addr = Some(first);
                    if !rest.is_empty() {
                        let mut rest = rest.to_vec();
                        chip.access(first, first & 0x80 != 0, &mut rest);
                    }
                }
                (Operation::Write(bytes), Some(a)) => {
                    let mut data = bytes.to_vec();
                    chip.access(a, a & 0x80 != 0, &mut data);
                }
                (Operation::Read(buf), Some(a)) => chip.access(a, false, buf),
                _ => return Err(ErrorKind::Other),
            }
        }
        Ok(())
    }
}

fn chip() -> (Rc<RefCell<Chip>>, Sx127x<Spi>) {
    let model = Rc::new(RefCell::new(Chip::new()));
    let radio = Sx127x::new(Spi(model.clone()), Settings::EU868_SF7_BW125).unwrap();
    (model, radio)
}

#[test]
fn configuration_follows_the_datasheet() {
    let (model, _radio) = chip();
    let m = model.borrow();
    let get = |r: u8| m.regs[usize::from(r)];
    assert_eq!(
        [
            get(reg::FRF_MSB),
            get(reg::FRF_MSB + 1),
            get(reg::FRF_MSB + 2)
        ],
        [0xD9, 0x06, 0x66]
    );
    assert_eq!(get(reg::MODEM_CONFIG_1), 0x72); // 125 kHz, 4/5, explicit header
    assert_eq!(get(reg::MODEM_CONFIG_2), 0x74); // SF7, payload CRC on
    assert_eq!(get(reg::PA_CONFIG), 0x8C); // PA_BOOST, 14 dBm
    assert_eq!(get(reg::OP_MODE), mode::RX_CONTINUOUS);
    // LoRa mode is switched on in sleep mode, before anything else.
    assert_eq!(m.writes.first(), Some(&(reg::OP_MODE, mode::SLEEP)));
}

#[test]
fn wrong_chip_and_bad_settings_are_refused() {
    let model = Rc::new(RefCell::new(Chip::new()));
    model.borrow_mut().regs[usize::from(reg::VERSION)] = 0x22;
    let err = Sx127x::new(Spi(model.clone()), Settings::EU868_SF7_BW125).unwrap_err();
    assert_eq!(err.kind(), DriverError::WrongChip { version: 0x22 });
    model.borrow_mut().regs[usize::from(reg::VERSION)] = 0x12;
    // SF6 works with an implicit header only, which the MAC's frames cannot use.
    let sf6 = Settings {
        lora: LoRa::new(6, Bandwidth::Khz125, CodingRate::Cr4_5).unwrap(),
        ..Settings::EU868_SF7_BW125
    };
    assert!(!sf6.lora.explicit_header());
    let loud = Settings {
        power_dbm: 20,
        ..Settings::EU868_SF7_BW125
    };
    for bad in [sf6, loud] {
        assert_eq!(
            Sx127x::new(Spi(model.clone()), bad).unwrap_err().kind(),
            DriverError::InvalidArgument
        );
    }
}

/// The chip is programmed from the same settings the MAC is timed by: read the
/// modem registers back, decode them as the datasheet does (section 6.4), and the
/// MAC's air time is that of the decoded setting; and the ACK timeout covers the
/// ACK's air time plus the receiver's turnaround at every setting.
#[test]
fn the_mac_is_timed_by_what_the_chip_is_programmed_with() {
    let mut settings = vec![Settings::EU868_SF7_BW125];
    for sf in 7..=12 {
        for bw in [
            Bandwidth::Khz62_5,
            Bandwidth::Khz125,
            Bandwidth::Khz250,
            Bandwidth::Khz500,
        ] {
            for cr in CodingRate::ALL {
                let lora = LoRa::new(sf, bw, cr)
                    .unwrap()
                    .with_preamble_symbols(6 + u16::from(sf))
                    .unwrap();
                settings.push(Settings {
                    lora: lora.with_crc(sf % 2 == 0),
                    ..Settings::EU868_SF7_BW125
                });
            }
        }
    }
    for s in settings {
        let model = Rc::new(RefCell::new(Chip::new()));
        Sx127x::new(Spi(model.clone()), s).unwrap();
        let m = model.borrow();
        let get = |r: u8| m.regs[usize::from(r)];
        let (c1, c2, c3) = (
            get(reg::MODEM_CONFIG_1),
            get(reg::MODEM_CONFIG_2),
            get(reg::MODEM_CONFIG_3),
        );
        let cr = CodingRate::ALL[usize::from((c1 >> 1) & 0x07) - 1];
        let decoded = LoRa::new(c2 >> 4, Bandwidth::from_code(c1 >> 4).unwrap(), cr)
            .unwrap()
            .with_preamble_symbols(u16::from_be_bytes([
                get(reg::PREAMBLE_MSB),
                get(reg::PREAMBLE_LSB),
            ]))
            .unwrap()
            .with_crc(c2 & 0x04 != 0)
            .with_explicit_header(c1 & 0x01 == 0)
            .unwrap()
            .with_low_data_rate(if c3 & 0x08 != 0 {
                LowDataRate::On
            } else {
                LowDataRate::Off
            });
        let mac = s.mac_config(Address(1)).unwrap();
        for bytes in [9, 20, 64, 255] {
            assert_eq!(
                mac.air_time_ns(bytes),
                decoded.air_time_ns(bytes),
                "{s:?}, {bytes} bytes"
            );
        }
        // The ACK goes a turnaround (SIFS) after the data frame and must end before
        // the sender's timeout.
        assert!(
            mac.ack_timeout_ns() > mac.sifs_ns() + mac.air_time_ns(radio_mac::frame::ACK_LEN),
            "{s:?}"
        );
        assert_eq!(mac.duty_cycle(), DutyCycle::ONE_PERCENT);
    }
}

#[test]
fn the_board_setting_keeps_its_sub_bands_duty_cycle() {
    let s = Settings::EU868_SF7_BW125;
    assert_eq!(
        eu868::sub_band(s.frequency_hz).map(|b| b.duty_cycle),
        Some(s.duty_cycle)
    );
    // Low data rate optimisation exactly where a symbol exceeds 16 ms.
    let ldro = |sf, bw| {
        Settings {
            lora: LoRa::new(sf, bw, CodingRate::Cr4_5).unwrap(),
            ..s
        }
        .modem_config_3()
            & 0x08
            != 0
    };
    assert!(!ldro(10, Bandwidth::Khz125)); // 8.192 ms
    assert!(ldro(11, Bandwidth::Khz125)); // 16.384 ms
    assert!(ldro(10, Bandwidth::Khz62_5)); // 16.384 ms
    assert!(ldro(12, Bandwidth::Khz250)); // 16.384 ms
    assert!(!ldro(9, Bandwidth::Khz62_5)); // 8.192 ms
}

#[test]
fn transmit_receive_and_carrier_sense() {
    let (model, mut radio) = chip();
    radio.transmit(b"abc").unwrap();
    assert_eq!(model.borrow().sent, vec![b"abc".to_vec()]);
    assert_eq!(model.borrow().regs[usize::from(reg::PAYLOAD_LENGTH)], 3);
    assert!(!radio.channel_clear().unwrap()); // never clear while sending
    assert!(!radio.is_transmitting().unwrap()); // TxDone seen: back to RX
    assert_eq!(
        model.borrow().regs[usize::from(reg::OP_MODE)],
        mode::RX_CONTINUOUS
    );

    let mut buf = [0u8; 16];
    assert_eq!(radio.receive(&mut buf).unwrap(), None);
    assert!(model.borrow_mut().arrive(b"hello", false));
    assert_eq!(radio.receive(&mut buf).unwrap(), Some(5));
    assert_eq!(&buf[..5], b"hello");
    assert_eq!(radio.receive(&mut buf).unwrap(), None); // RxDone cleared
    assert!(model.borrow_mut().arrive(b"bad", true));
    assert_eq!(radio.receive(&mut buf).unwrap(), None); // the chip's CRC failed

    assert!(radio.channel_clear().unwrap());
    model.borrow_mut().regs[usize::from(reg::MODEM_STAT)] = 0x01; // preamble detected
    assert!(!radio.channel_clear().unwrap());
}

#[test]
fn two_modelled_chips_carry_the_mac() {
    let (ma, mut ra) = chip();
    let (mb, mut rb) = chip();
    let cfg = |a| Settings::EU868_SF7_BW125.mac_config(Address(a)).unwrap();
    let rng = |s| rand_xorshift::XorShiftRng::seed_from_u64(s);
    let mut a: MacCore<_, 32, 4> = MacCore::new(cfg(1), rng(1));
    let mut b: MacCore<_, 32, 4> = MacCore::new(cfg(2), rng(2));
    a.enqueue(Address(2), b"over the air").unwrap();
    let mut now = 0u64;
    let delivered = loop {
        assert!(now < 2_000_000_000, "not delivered in 2 s");
        let ev = a.poll(&mut ra, now);
        b.poll(&mut rb, now);
        // Whatever one chip sent arrives at the other (air time ignored: the MAC's
        // timeouts are checked against the clock of its own polls).
        for (from, to) in [(&ma, &mb), (&mb, &ma)] {
            let sent: Vec<_> = from.borrow_mut().sent.drain(..).collect();
            for p in sent {
                to.borrow_mut().arrive(&p, false);
            }
        }
        if let Some(Event::Delivered { attempts }) = ev {
            break attempts;
        }
        now += 500_000;
    };
    assert_eq!(delivered, 1);
    assert_eq!(b.take_received().unwrap().payload(), b"over the air");
    assert_eq!(b.counters().medium.acks_sent, 1);
}
