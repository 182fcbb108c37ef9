//! The duty cycle (EU868, `radio_mac::region`): LoRaMac-node's time credits. Each
//! transmission pays `air / d` from an account that fills with time up to one hour;
//! a data frame waits for its price, an ACK the account cannot pay is withheld.
//! Saturated stations on the simulated channel with LoRa SF7 timing, for two
//! simulated hours: each station's time on the air stays within `d` of the time plus
//! the hour's credit it started with, and uses nearly all of it.

use radio_mac::region::{Credits, DutyCycle, PERIOD_NS};
use radio_mac::sim::Channel;
use radio_mac::{Address, Event, LoRa, MacConfig, MacCore};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

/// The simulation step while something is due: 250 µs, a quarter of an SF7 symbol.
/// When nothing is, time jumps to the next deadline of any MAC (every MAC's wait for
/// credit, backoff and ACK timeout is one).
const STEP: u64 = 250_000;
/// Two hours.
const RUN_NS: u64 = 2 * PERIOD_NS;
/// Air times at SF7/125 kHz: the 9-byte ping frame (18 bytes) and the ACK (9 bytes).
const PING_NS: u64 = 51_456_000;
const ACK_NS: u64 = 41_216_000;

#[derive(Debug, Default)]
struct Station {
    delivered: u32,
    dropped: u32,
    air_ns: u64,
    waits: u32,
    acks_withheld: u32,
}

/// `senders` saturated stations (1..) sending to station 0 (`to_sink`) or stations
/// 0 and 1 to each other, for `run_ns`.
fn run<const S: usize>(duty: DutyCycle, to_sink: bool, run_ns: u64) -> [Station; S] {
    let air = MacConfig::lora(Address(1), LoRa::SF7_BW125)
        .unwrap()
        .with_duty_cycle(duty);
    let mut channel = Channel::<S>::new(air, 3);
    for a in 0..S {
        for b in a + 1..S {
            channel.link(a, b, -80);
        }
    }
    let mut macs: Vec<MacCore<XorShiftRng, 32, 4>> = (0..S)
        .map(|i| {
            let cfg = air.with_address(Address(i as u8 + 1)).unwrap();
            MacCore::new(cfg, XorShiftRng::seed_from_u64(i as u64 + 1))
        })
        .collect();
    let mut stations: [Station; S] = core::array::from_fn(|_| Station::default());
    let mut t = 0u64;
    while t < run_ns {
        channel.set_now(t);
        // Something due now (a transmission ending among it): the next poll comes a
        // step later, when its packet has reached the receivers.
        let due = macs
            .iter()
            .any(|m| m.next_deadline_ns().is_some_and(|d| d <= t));
        for i in 0..S {
            let sends = if to_sink { i > 0 } else { true };
            if sends && macs[i].is_idle() {
                let to = if to_sink || i == 1 {
                    Address(1)
                } else {
                    Address(2)
                };
                macs[i].enqueue(to, b"ping 0001").unwrap();
            }
            match macs[i].poll(&mut channel.radio(i), t) {
                Some(Event::Delivered { .. }) => stations[i].delivered += 1,
                Some(Event::Dropped { .. }) => stations[i].dropped += 1,
                _ => {}
            }
            while macs[i].take_received().is_some() {}
        }
        channel.resolve();
        let next = macs.iter().filter_map(|m| m.next_deadline_ns()).min();
        t = match next {
            Some(d) if !due && d > t + STEP => d,
            _ => t + STEP,
        };
    }
    for (s, m) in stations.iter_mut().zip(&macs) {
        let c = m.counters().medium;
        (s.air_ns, s.waits, s.acks_withheld) = (c.air_time_ns, c.duty_cycle_waits, c.acks_withheld);
    }
    stations
}

/// The most a station may be on the air over the run: `d` of the run plus the hour
/// of credit it starts with, plus the ACK that may start the run's last instant.
fn bound(duty: DutyCycle) -> u64 {
    let d = |ns: u64| ns / 1_000_000 * u64::from(duty.ppm());
    d(RUN_NS) + d(PERIOD_NS) + ACK_NS
}

#[test]
fn two_stations_exchanging_frames_stay_within_one_percent() {
    let [a, b] = run::<2>(DutyCycle::ONE_PERCENT, false, RUN_NS);
    let bound = bound(DutyCycle::ONE_PERCENT);
    for (i, s) in [&a, &b].into_iter().enumerate() {
        assert!(s.air_ns <= bound, "station {i}: {s:?}, bound {bound} ns");
        // Saturated, each uses at least 95 % of what it may.
        assert!(
            s.air_ns * 100 >= bound * 95,
            "station {i}: {s:?}, bound {bound} ns"
        );
        assert!(s.waits > 0, "station {i}: {s:?}");
        // Each pays for its frames and the ACKs of the other's: about half each.
        assert!(
            s.delivered > 0
                && s.air_ns / (PING_NS + ACK_NS) < u64::from(s.delivered) * 11 / 10 + 10,
            "{s:?}"
        );
    }
}

#[test]
fn a_sink_that_cannot_pay_for_its_acks_withholds_them() {
    // Two saturated senders to one sink: the sink's ACKs alone would need 2 x 4.12 s
    // of credit for every 5.1 s, so once its hour of credit is spent it withholds
    // ACKs, the senders retry, and still no station exceeds its share.
    let stations = run::<3>(DutyCycle::ONE_PERCENT, true, RUN_NS);
    let bound = bound(DutyCycle::ONE_PERCENT);
    for (i, s) in stations.iter().enumerate() {
        assert!(s.air_ns <= bound, "station {i}: {s:?}, bound {bound} ns");
    }
    let sink = &stations[0];
    assert!(sink.acks_withheld > 100, "{sink:?}");
    assert!(
        stations[1].dropped + stations[2].dropped > 0,
        "{stations:?}"
    );
}

#[test]
fn without_a_duty_cycle_nothing_waits() {
    let minute = 60_000_000_000;
    let [a, b] = run::<2>(DutyCycle::UNLIMITED, false, minute);
    for s in [&a, &b] {
        assert_eq!((s.waits, s.acks_withheld), (0, 0), "{s:?}");
        assert!(s.air_ns > minute / 4, "{s:?}");
    }
}

#[test]
fn credits_fill_with_time_up_to_an_hour_and_pay_air_over_d() {
    assert_eq!(DutyCycle::ONE_PERCENT.price_ns(1_000), 100_000);
    assert_eq!(DutyCycle::TENTH_PERCENT.price_ns(1_000), 1_000_000);
    assert_eq!(DutyCycle::TEN_PERCENT.price_ns(1_000), 10_000);
    assert_eq!(DutyCycle::from_ppm(3_333).unwrap().price_ns(1), 301);
    assert!(DutyCycle::from_ppm(0).is_err());
    assert!(DutyCycle::from_ppm(1_000_001).is_err());
    assert_eq!(DutyCycle::from_ppm(10_000), Ok(DutyCycle::ONE_PERCENT));
    let mut c = Credits::full(DutyCycle::ONE_PERCENT);
    // An hour of credit pays for 36 s on the air, then it is empty.
    assert!(c.pay(0, 36_000_000_000));
    assert_eq!(c.credit_ns(0), 0);
    assert!(!c.pay(0, 1));
    // It fills at one nanosecond a nanosecond: 10 s pay for 100 ms on the air.
    assert_eq!(c.wait_ns(0, 100_000_000), 10_000_000_000);
    assert!(c.pay(10_000_000_000, 100_000_000));
    // Never above one hour, however long the station is quiet.
    assert_eq!(c.credit_ns(100 * PERIOD_NS), PERIOD_NS);
    assert!(Credits::full(DutyCycle::UNLIMITED).pay(0, u64::MAX));
}
