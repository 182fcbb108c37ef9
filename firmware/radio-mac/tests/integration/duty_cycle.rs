//! The duty cycle (EU868, `radio_mac::region`): after each transmission a MAC with a
//! duty cycle waits out the off-time before its next data frame; ACKs go on time and
//! lengthen the off-time. Two stations on the simulated channel, LoRa SF7 timing,
//! every frame acknowledged: the share of time each is on the air stays within the
//! limit, and the frames still get through.

use radio_mac::region::DutyCycle;
use radio_mac::sim::Channel;
use radio_mac::{Address, Event, LoRa, MacConfig, MacCore};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

const STEP: u64 = 100_000;

/// `frames` frames each way between two stations that always have one waiting;
/// returns per station (delivered, air time, the counters' off-time waits) and the
/// elapsed time, and the frames dropped.
fn exchange(duty: DutyCycle, frames: u32) -> ([(u32, u64, u32); 2], u64, u32) {
    let air = MacConfig::lora(Address(1), LoRa::SF7_BW125)
        .unwrap()
        .with_duty_cycle(duty);
    let mut channel = Channel::<2>::new(air, 3);
    channel.link(0, 1, -80);
    let rng = |s| XorShiftRng::seed_from_u64(s);
    let mut macs: [MacCore<_, 32, 4>; 2] = [
        MacCore::new(air.with_address(Address(1)).unwrap(), rng(1)),
        MacCore::new(air.with_address(Address(2)).unwrap(), rng(2)),
    ];
    let mut delivered = [0u32; 2];
    let mut dropped = 0;
    let mut sent = [0u32; 2];
    let mut t = 0u64;
    while (0..2).any(|i| sent[i] < frames || !macs[i].is_idle()) {
        assert!(t < 3_600_000_000_000, "not done in an hour: {delivered:?}");
        channel.set_now(t);
        for i in 0..2 {
            if macs[i].is_idle() && sent[i] < frames {
                let to = Address(2 - i as u8);
                macs[i].enqueue(to, b"ping 0001").unwrap();
                sent[i] += 1;
            }
            match macs[i].poll(&mut channel.radio(i), t) {
                Some(Event::Delivered { .. }) => delivered[i] += 1,
                Some(Event::Dropped { .. }) => dropped += 1,
                _ => {}
            }
            while macs[i].take_received().is_some() {}
        }
        channel.resolve();
        t += STEP;
    }
    let report = |i: usize| {
        let c = macs[i].counters().medium;
        (delivered[i], c.air_time_ns, c.duty_cycle_waits)
    };
    ([report(0), report(1)], t, dropped)
}

#[test]
fn each_station_stays_within_one_percent_and_delivers() {
    let frames = 40;
    let (stations, elapsed, dropped) = exchange(DutyCycle::ONE_PERCENT, frames);
    // Paced by their off-times, the two rarely contend: nothing is lost.
    assert_eq!(dropped, 0);
    for (i, &(delivered, air_ns, waits)) in stations.iter().enumerate() {
        assert_eq!(delivered, frames);
        // Each station's frames (51.456 ms) and ACKs (41.216 ms): at least 40 of
        // each, at most 1 % of the time.
        assert!(air_ns >= u64::from(frames) * (51_456_000 + 41_216_000));
        // The off-time bounds the air time up to the end of each off-time by 1 % of
        // that time; the run ends before the last off-time does, so the bound over
        // the run is 1 % of it plus the last transmissions (a frame and an ACK).
        assert!(
            air_ns <= elapsed / 100 + 51_456_000 + 41_216_000,
            "station {i}: {air_ns} ns on the air in {elapsed} ns"
        );
        let share = air_ns as f64 / elapsed as f64;
        // The off-time is what paces them: above 0.9 % (a frame waits only its own
        // off-time and a poll step, so the share is just under 1 %).
        assert!(share > 0.009, "station {i}: {share:.5}");
        assert!(waits >= frames - 1, "station {i}: {waits} waits");
    }
}

#[test]
fn without_a_duty_cycle_nothing_waits() {
    let (stations, elapsed, dropped) = exchange(DutyCycle::UNLIMITED, 40);
    // Saturated, the two contend, and 802.15.4's channel access gives up on a few.
    assert_eq!(stations[0].0 + stations[1].0 + dropped, 80);
    assert!(dropped < 8, "{dropped} dropped");
    for &(_, air_ns, waits) in &stations {
        assert_eq!(waits, 0);
        assert!(air_ns as f64 / elapsed as f64 > 0.3);
    }
}

#[test]
fn off_times_follow_the_share() {
    assert_eq!(DutyCycle::ONE_PERCENT.off_time_ns(1_000), 99_000);
    assert_eq!(DutyCycle::TENTH_PERCENT.off_time_ns(1_000), 999_000);
    assert_eq!(DutyCycle::TEN_PERCENT.off_time_ns(1_000), 9_000);
    assert_eq!(DutyCycle::UNLIMITED.off_time_ns(1_000), 0);
    assert_eq!(
        DutyCycle::from_ppm(3_333).unwrap().off_time_ns(3_333),
        996_667
    );
    assert!(DutyCycle::from_ppm(0).is_err());
    assert!(DutyCycle::from_ppm(1_000_001).is_err());
    assert_eq!(DutyCycle::from_ppm(10_000), Ok(DutyCycle::ONE_PERCENT));
}
