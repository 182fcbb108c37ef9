//! The Ethernet presets, and the 1000 Mb/s half-duplex rules they turn on: carrier
//! extension (IEEE 802.3 clause 4.2.3.4) and frame bursting (clause 4.2.3.2.7, with
//! the `BurstTimer` of clause 4.2.8), on hand-computed timelines.
//!
//! At 1000 Mb/s one bit time is 1 ns; slotTime is 4096 bits, burstLimit 65 536
//! bits; preamble and SFD 64 bits, the gap 96 bits; a 64-byte frame is 512 bits.

use csma_cd::ConfigError;
use csma_cd::config::{FrameSizes, RunConfig};
use csma_cd::ethernet::EthernetMedium;
use csma_cd::exact::{self, CsmaCd};
use csma_cd::exact::{EventKind, Observer, TraceEvent};
use sim_kit::engine::Engine;
use sim_kit::time::Time;

const PS: Time = Time::from_ps(1);
/// One bit time at 1000 Mb/s.
const NS: Time = Time::from_ns(1);

#[test]
fn each_preset_has_the_standard_parameters_and_its_length_limit() {
    let want = [
        ("10BASE5", 10_000_000, 512, 2500.0, 2500.0, false, 0),
        ("10BASE2", 10_000_000, 512, 185.0, 925.0, false, 0),
        ("10BASE-T", 10_000_000, 512, 200.0, 500.0, false, 0),
        ("100BASE-TX", 100_000_000, 512, 200.0, 205.0, false, 0),
        (
            "1000BASE-T",
            1_000_000_000,
            4096,
            200.0,
            200.0,
            true,
            65_536,
        ),
    ];
    for (m, (name, rate, slot, len, max, ext, burst)) in EthernetMedium::ALL.into_iter().zip(want) {
        assert_eq!(m.name(), name);
        assert_eq!(name.to_lowercase().parse::<EthernetMedium>().unwrap(), m);
        let p = m.params();
        assert_eq!(
            (p.bit_rate, p.slot_bits, p.default_length_m, p.max_length_m),
            (rate, slot, len, max)
        );
        assert_eq!((p.carrier_extension, p.burst_limit_bits), (ext, burst));
        let mut cfg = RunConfig::default().with_medium(m);
        assert_eq!(cfg.medium, Some(m));
        assert_eq!(cfg.bus_length_m, len);
        cfg.validate().unwrap();
        // The longest bus the standard allows validates; a metre more does not.
        cfg.bus_length_m = max;
        cfg.validate().unwrap();
        cfg.bus_length_m = max + 1.0;
        let e = cfg.validate().unwrap_err();
        assert!(matches!(e, ConfigError::MediumLength { .. }), "{e}");
        assert!(
            e.to_string().contains(&format!("--length-m {max} or less")),
            "{e}"
        );
    }
    let e = "10BASE-X".parse::<EthernetMedium>().unwrap_err();
    assert_eq!(e, ConfigError::Medium("10BASE-X".into()));
    assert!(e.to_string().contains("100BASE-TX"), "{e}");
}

#[test]
fn a_preset_refuses_the_bit_rate_or_slot_of_another_medium() {
    let mut cfg = RunConfig::default().with_medium(EthernetMedium::BaseTx);
    cfg.phy.bit_rate = 10_000_000;
    let e = cfg.validate().unwrap_err();
    assert!(
        e.to_string()
            .contains("bit rate of 100000000 b/s, not 10000000 b/s"),
        "{e}"
    );
    let mut cfg = RunConfig::default().with_medium(EthernetMedium::Base1000T);
    cfg.phy.slot_bits = 512;
    assert!(matches!(
        cfg.validate(),
        Err(ConfigError::MediumMismatch { what: "slot", .. })
    ));
    let mut cfg = RunConfig::default().with_medium(EthernetMedium::Base1000T);
    cfg.phy.carrier_extension = false;
    assert!(matches!(
        cfg.validate(),
        Err(ConfigError::MediumMismatch {
            what: "carrier extension",
            ..
        })
    ));
    // Frame bursting is optional in the standard: turning it off keeps the preset.
    let mut cfg = RunConfig::default().with_medium(EthernetMedium::Base1000T);
    cfg.phy.burst_limit_bits = 0;
    cfg.validate().unwrap();
}

/// Without a preset, a round trip longer than the slot names the longest bus that
/// fits: at 100 Mb/s the slot is 5.12 µs, so 512 m at 2·10⁸ m/s; at 1000 Mb/s
/// without carrier extension the shortest frame (preamble + 512 bits = 576 ns)
/// limits it to 57.6 m, and with extension the slot (4.096 µs) to 409.6 m.
#[test]
fn a_bus_too_long_for_the_slot_names_the_longest_that_fits() {
    let at = |rate: u64, ext: bool, metres: f64| {
        let mut c = RunConfig {
            bus_length_m: metres,
            frames: FrameSizes::Fixed(64),
            ..RunConfig::default()
        };
        c.phy.bit_rate = rate;
        c.phy.carrier_extension = ext;
        if rate == 1_000_000_000 {
            c.phy.slot_bits = 4096;
        }
        c.validate().map(|_| ()).map_err(|e| e.to_string())
    };
    let e = at(100_000_000, false, 2500.0).unwrap_err();
    assert!(
        e.contains("the longest bus that fits is 512 m (change --length-m"),
        "{e}"
    );
    at(100_000_000, false, 512.0).unwrap();
    assert!(at(100_000_000, false, 512.1).is_err());
    let e = at(1_000_000_000, false, 200.0).unwrap_err();
    assert!(e.contains("the longest bus that fits is 57.6 m"), "{e}");
    let e = at(1_000_000_000, true, 500.0).unwrap_err();
    assert!(e.contains("the longest bus that fits is 409.6 m"), "{e}");
    at(1_000_000_000, true, 409.6).unwrap();
}

/// Every step of station 0: (time in ns, kind).
#[derive(Default)]
struct Steps(Vec<(u64, EventKind)>);

impl Observer for Steps {
    fn observe(&mut self, e: &TraceEvent) {
        if e.station == 0 && self.0.len() < 400 {
            self.0.push((e.time.as_ps() / 1000, e.kind));
        }
    }
}

fn one_station(burst_limit_bits: u32, duration: Time) -> (exact::RunResult, Steps) {
    let mut cfg = RunConfig {
        stations: 1,
        frames: FrameSizes::Fixed(64),
        duration,
        ..RunConfig::default().with_medium(EthernetMedium::Base1000T)
    };
    cfg.phy.burst_limit_bits = burst_limit_bits;
    exact::run_with_observer(&cfg, Steps::default()).unwrap()
}

/// One saturated station, 64-byte frames. The first frame of a burst is extended to
/// the slot: it ends at 64 + 4096 = 4160 ns. Each later frame follows a gap of
/// extension bits: it starts at 4160 + 96 = 4256 and every 96 + 64 + 512 = 672 ns
/// after, ending 576 ns after its start. The last frame to start before burstLimit
/// (65 536 ns after the burst began at 0) starts at 4256 + 91·672 = 65 408 and ends
/// at 65 984: 93 frames. The carrier then drops, the station times its gap blind and
/// starts the next burst at 66 080. In 10 bursts (660.8 µs) it delivers exactly 930
/// frames; without bursting, one every 4160 + 96 = 4256 ns, 155.
#[test]
fn a_burst_sends_frames_back_to_back_until_the_burst_limit() {
    let (r, steps) = one_station(65_536, Time::from_ns(660_800));
    let mut want = vec![(0, EventKind::Transmit), (4160, EventKind::Success)];
    for j in 0..92 {
        let start = 4256 + 672 * j;
        want.push((start, EventKind::Transmit));
        want.push((start + 576, EventKind::Success));
    }
    want.push((66_080, EventKind::Transmit));
    want.push((66_080 + 4160, EventKind::Success));
    want.push((66_080 + 4256, EventKind::Transmit));
    assert_eq!(&steps.0[..want.len()], &want[..]);
    assert_eq!(r.conservation.delivered, 930);
    assert_eq!(r.collided_attempts, 0);

    let (r, steps) = one_station(0, Time::from_ns(660_800));
    assert_eq!(
        &steps.0[..4],
        &[
            (0, EventKind::Transmit),
            (4160, EventKind::Success),
            (4256, EventKind::Transmit),
            (8416, EventKind::Success)
        ]
    );
    assert_eq!(r.conservation.delivered, 155);
}

/// Two saturated 1000BASE-T stations with 64-byte frames: A at position 0 with its
/// first frame at 0, B at `b_at` with its first frame at `b_starts`.
fn two_stations(b_at: Time, b_starts: Time) -> Engine<CsmaCd> {
    let cfg = RunConfig {
        stations: 2,
        frames: FrameSizes::Fixed(64),
        duration: Time::from_ms(1),
        ..RunConfig::default().with_medium(EthernetMedium::Base1000T)
    };
    let (m, q) = CsmaCd::new_staged(&cfg, &[Time::ZERO, b_at], &[Time::ZERO, b_starts]).unwrap();
    Engine::with_queue(m, q)
}

/// Two stations 100 m apart (500 ns). A starts a burst at 0; B gets its frame at
/// 2000 ns, when A's carrier is there, and defers through the whole burst: A's
/// tail passes B at 65 984 + 500 = 66 484, B times its gap (part 1 to 66 548) and
/// transmits at 66 580, just as the front of A's next burst (started at 66 080 after
/// A's blind gap) reaches it.
#[test]
fn other_stations_defer_through_a_whole_burst() {
    let mut e = two_stations(500 * NS, 2000 * NS);
    let mut at = |t: Time| {
        e.run_until(t);
        (e.model().attempts(), e.model().delivered())
    };
    assert_eq!(at(65_984 * NS - PS), (93, 92));
    assert_eq!(at(65_984 * NS), (93, 93));
    assert_eq!(
        at(66_580 * NS - PS),
        (94, 93),
        "only A's next burst before 66 580"
    );
    assert_eq!(at(66_580 * NS), (95, 93), "B transmits at 66 580");
}

/// Carrier extension makes a collision in the extension a collision. A at 0 sends a
/// 64-byte frame at 0: 576 ns of preamble and frame, extended to 4160. B, 200 m away
/// (1000 ns), starts at 900 ns, before A's front reaches it. B detects A at 1000 and
/// stops at 1032 (preamble to 964, then 32 bits of jam); B's front reaches A at 1900,
/// inside A's extension: A jams and stops at 1932, and its frame is not delivered
/// (without extension it would have ended at 576, before the collision reached it).
#[test]
fn a_collision_in_the_extension_is_a_collision() {
    let mut e = two_stations(1000 * NS, 900 * NS);
    let mut at = |t: Time| {
        e.run_until(t);
        let m = e.model();
        (m.attempts(), m.collided_attempts(), m.delivered())
    };
    assert_eq!(at(577 * NS), (1, 0, 0), "A's frame is still being extended");
    assert_eq!(at(900 * NS), (2, 0, 0), "B starts at 900");
    assert_eq!(at(1032 * NS), (2, 1, 0), "B stops at 1032");
    assert_eq!(at(1932 * NS - PS), (2, 1, 0));
    assert_eq!(at(1932 * NS), (2, 2, 0), "A collided in its extension");
}

/// Frames flow and balance with bursting under Poisson load, and a burst holds the
/// medium: at 1000 Mb/s with 64-byte frames, bursting carries far more than
/// extension alone, which spends at least 4160 + 96 ns per 512-bit frame, so carries
/// less than 512/4256 = 0.12 of the bit rate. (Seed 1 gives 0.27 against 0.096 at an
/// offered 0.5: the stations that lose contentions back off for up to 1024 slots of
/// 4.096 µs while their queues overflow. The test asks for twice, a wide margin.)
#[test]
fn bursting_carries_short_frames_that_extension_alone_cannot() {
    let run = |burst: u32| {
        let mut cfg = RunConfig {
            stations: 16,
            frames: FrameSizes::Fixed(64),
            traffic: csma_cd::config::Traffic::Poisson { load: 0.5 },
            duration: Time::from_ms(20),
            ..RunConfig::default().with_medium(EthernetMedium::Base1000T)
        };
        cfg.phy.burst_limit_bits = burst;
        exact::run(&cfg).unwrap()
    };
    let (with, without) = (run(65_536), run(0));
    assert!(with.conservation.holds && without.conservation.holds);
    assert!(
        without.utilisation < 512.0 / 4256.0,
        "{}",
        without.utilisation
    );
    assert!(
        with.utilisation > 2.0 * without.utilisation,
        "{} against {}",
        with.utilisation,
        without.utilisation
    );
}
