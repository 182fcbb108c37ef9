//! The PHYs' air time: LoRa's against Semtech's time-on-air formula (SX1276/77/78/79
//! datasheet rev. 7, section 4.1.1.7), computed here a second way, in floating point
//! as the datasheet writes it, over every spreading factor, bandwidth and coding rate
//! and a range of payloads, preambles, headers and CRC settings: equal to the
//! microsecond. The integer implementation is exact in nanoseconds (a quarter symbol
//! is a whole number of them), so the only difference is the reference's rounding.

use radio_mac::phy::{Bandwidth, CodingRate, LoRa, LowDataRate, Phy};
use radio_mac::{Address, MacConfig};

/// The datasheet's formula, in seconds.
fn semtech_time_on_air_s(l: &LoRa, payload: usize) -> f64 {
    let sf = f64::from(l.spreading_factor());
    let bw = 500_000.0 / f64::from(l.bandwidth().divisor_of_500khz());
    let t_sym = 2f64.powf(sf) / bw;
    let de = if t_sym > 0.016 && l.low_data_rate() == LowDataRate::Auto
        || l.low_data_rate() == LowDataRate::On
    {
        1.0
    } else {
        0.0
    };
    let ih = if l.explicit_header() { 0.0 } else { 1.0 };
    let crc = if l.crc() { 1.0 } else { 0.0 };
    let cr = f64::from(l.coding_rate().cr());
    let t_preamble = (f64::from(l.preamble_symbols()) + 4.25) * t_sym;
    let blocks = ((8.0 * payload as f64 - 4.0 * sf + 28.0 + 16.0 * crc - 20.0 * ih)
        / (4.0 * (sf - 2.0 * de)))
        .ceil();
    let payload_symbols = 8.0 + (blocks * (cr + 4.0)).max(0.0);
    t_preamble + payload_symbols * t_sym
}

#[test]
fn lora_air_time_is_semtechs_formula_to_the_microsecond() {
    let mut checked = 0;
    for sf in 6..=12u8 {
        for bw in Bandwidth::ALL {
            for cr in CodingRate::ALL {
                let base = LoRa::new(sf, bw, cr).unwrap();
                for (preamble, crc, ldro) in [
                    (8, true, LowDataRate::Auto),
                    (6, false, LowDataRate::Auto),
                    (12, true, LowDataRate::On),
                    (16, false, LowDataRate::Off),
                ] {
                    let l = base
                        .with_preamble_symbols(preamble)
                        .unwrap()
                        .with_crc(crc)
                        .with_low_data_rate(ldro);
                    let headers: &[bool] = if sf == 6 { &[false] } else { &[true, false] };
                    for &explicit in headers {
                        let l = l.with_explicit_header(explicit).unwrap();
                        for payload in [0, 1, 9, 10, 18, 51, 64, 100, 222, 255] {
                            let ours_us = l.air_time_ns(payload) as f64 / 1e3;
                            let reference_us = semtech_time_on_air_s(&l, payload) * 1e6;
                            assert!(
                                (ours_us - reference_us).abs() < 0.5,
                                "{l:?}, {payload} bytes: {ours_us} µs, formula {reference_us} µs"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 7 * 10 * 4 * 4 * 10 * 2 - 10 * 4 * 4 * 10);
}

/// Figures worked by hand from the formula (payload bits, blocks, symbols), the
/// radio board's ACK among them.
#[test]
fn lora_air_times_worked_by_hand() {
    let sf7 = LoRa::SF7_BW125;
    // ACK, 9 bytes: (72 - 28 + 28 + 16) / 28 = 3.14 -> 4 blocks of 5 symbols, + 8 =
    // 28 symbols; + 12.25 of preamble = 40.25 symbols of 1.024 ms.
    assert_eq!(sf7.payload_symbols(9), 28);
    assert_eq!(sf7.air_time_ns(9), 41_216_000);
    // The board's ping, 18 bytes: (144 - 28 + 28 + 16) / 28 = 5.71 -> 6 blocks: 38
    // symbols, 50.25 in all.
    assert_eq!(sf7.air_time_ns(18), 51_456_000);
    // EU868 DR0 (SF12/125 kHz, low data rate optimisation on: 32.768 ms symbols),
    // 64 bytes: (512 - 48 + 28 + 16) / 40 = 12.7 -> 13 blocks: 73 symbols, 85.25 in
    // all = 2793.472 ms.
    let sf12 = LoRa::new(12, Bandwidth::Khz125, CodingRate::Cr4_5).unwrap();
    assert!(sf12.low_data_rate_on());
    assert_eq!(sf12.air_time_ns(64), 2_793_472_000);
    // Without the optimisation the blocks are 48 bits: 508 / 48 = 10.6 -> 11: 63
    // symbols, 75.25 in all.
    let sf12_off = sf12.with_low_data_rate(LowDataRate::Off);
    assert_eq!(sf12_off.air_time_ns(64), 2_465_792_000);
    // SF6 (implicit header), 500 kHz, 0 bytes: 0 - 24 + 28 + 16 - 20 = 0 bits, no
    // block: 8 symbols + 12.25 of 128 µs.
    let sf6 = LoRa::new(6, Bandwidth::Khz500, CodingRate::Cr4_5).unwrap();
    assert!(!sf6.explicit_header());
    assert_eq!(sf6.air_time_ns(0), 2_592_000);
}

#[test]
fn lora_settings_out_of_range_are_refused() {
    use radio_mac::config::ConfigErrorKind;
    let kind = |r: Result<LoRa, radio_mac::config::ConfigError>| r.unwrap_err().kind();
    for sf in [0, 5, 13] {
        assert_eq!(
            kind(LoRa::new(sf, Bandwidth::Khz125, CodingRate::Cr4_5)),
            ConfigErrorKind::LoRaSpreadingFactor
        );
    }
    let sf6 = LoRa::new(6, Bandwidth::Khz125, CodingRate::Cr4_5).unwrap();
    assert_eq!(
        kind(sf6.with_explicit_header(true)),
        ConfigErrorKind::LoRaSpreadingFactor
    );
    assert_eq!(
        kind(LoRa::SF7_BW125.with_preamble_symbols(5)),
        ConfigErrorKind::LoRaPreamble
    );
    for (code, bw) in Bandwidth::ALL.iter().enumerate() {
        assert_eq!(Bandwidth::from_code(code as u8), Some(*bw));
        assert_eq!(bw.code(), code as u8);
    }
    assert_eq!(Bandwidth::from_code(10), None);
}

/// The ACK timeout covers the ACK: the receiver's turnaround (SIFS) plus the ACK's
/// air time, at every LoRa setting and on 802.15.4.
#[test]
fn the_ack_timeout_exceeds_the_acks_air_time_and_turnaround_on_every_phy() {
    let ack = radio_mac::frame::ACK_LEN;
    let mut configs = vec![MacConfig::IEEE_802_15_4_2450];
    for sf in 7..=12 {
        for bw in Bandwidth::ALL {
            for cr in CodingRate::ALL {
                let l = LoRa::new(sf, bw, cr).unwrap();
                configs.push(MacConfig::lora(Address(1), l).unwrap());
            }
        }
    }
    for c in configs {
        assert!(
            c.ack_timeout_ns() > c.sifs_ns() + c.air_time_ns(ack),
            "{:?}",
            c.phy()
        );
        assert_eq!(c.air_time_ns(ack), c.phy().air_time_ns(ack));
    }
    assert_eq!(Phy::LoRa(LoRa::SF7_BW125).max_packet(), 255);
    assert_eq!(Phy::IEEE_802_15_4_2450.max_packet(), 127);
}
