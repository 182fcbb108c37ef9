//! The exact CSMA/CD model: conservation, determinism, the single-station bound,
//! propagation, and the measured backoff against E(c).

use csma_cd::config::{
    BackoffAlgorithm, FrameSizes, IfgRule, JamRule, Placement, RunConfig, Traffic,
};
use csma_cd::ethernet::EthernetMedium;
use csma_cd::exact::{self, CsmaCd};
use csma_cd::theory;
use sim_kit::engine::Engine;
use sim_kit::time::Time;

/// One picosecond, the clock's resolution.
const PS: Time = Time::from_ps(1);
/// One bit time at 10 Mb/s.
const BIT: Time = Time::from_ps(100_000);

fn cfg(stations: u32, duration_ms: u64) -> RunConfig {
    RunConfig {
        stations,
        duration: Time::from_ms(duration_ms),
        ..RunConfig::default()
    }
}

#[test]
fn conservation_holds_in_every_regime() {
    let cases = [
        cfg(32, 2000),
        RunConfig {
            placement: Placement::Point,
            frames: FrameSizes::Fixed(64),
            ..cfg(200, 500)
        },
        RunConfig {
            placement: Placement::Random,
            frames: FrameSizes::Mix(vec![(64, 7), (594, 4), (1518, 1)]),
            traffic: Traffic::Poisson { load: 0.5 },
            ..cfg(20, 2000)
        },
        // Overload with short queues: overflow must be counted, not lost.
        RunConfig {
            frames: FrameSizes::Uniform { min: 64, max: 1518 },
            traffic: Traffic::Poisson { load: 2.0 },
            queue_limit: 3,
            ..cfg(10, 2000)
        },
        RunConfig {
            backoff: BackoffAlgorithm::Fixed { window: 64 },
            ..cfg(50, 500)
        },
        RunConfig {
            backoff: BackoffAlgorithm::Polynomial { degree: 2 },
            attempt_limit: 8,
            ..cfg(50, 500)
        },
    ];
    for (i, c) in cases.iter().enumerate() {
        let r = exact::run(c).unwrap();
        let k = r.conservation;
        assert!(k.holds, "case {i}: {k:?}");
        assert_eq!(
            k.generated,
            k.delivered + k.dropped_excessive + k.dropped_overflow + k.in_system,
            "case {i}"
        );
        assert!(k.delivered > 0, "case {i}");
        assert_eq!(
            r.attempts_histogram.iter().sum::<u64>(),
            k.delivered,
            "case {i}"
        );
    }
    // The overload case really overflowed, and quadratic backoff with 8 attempts for
    // 50 saturated stations really dropped frames: the counters are exercised.
    assert!(exact::run(&cases[3]).unwrap().conservation.dropped_overflow > 0);
    assert!(
        exact::run(&cases[5])
            .unwrap()
            .conservation
            .dropped_excessive
            > 0
    );
}

#[test]
fn same_seed_same_result_other_seed_other_result() {
    let c = RunConfig {
        placement: Placement::Random,
        traffic: Traffic::Poisson { load: 0.9 },
        frames: FrameSizes::Uniform { min: 64, max: 1518 },
        ..cfg(40, 1000)
    };
    let a = sim_kit::output::json::to_string(&exact::run(&c).unwrap());
    let b = sim_kit::output::json::to_string(&exact::run(&c).unwrap());
    assert_eq!(a, b);
    let other = RunConfig { seed: 2, ..c };
    let d = sim_kit::output::json::to_string(&exact::run(&other).unwrap());
    assert_ne!(a, d);
}

/// One station never collides and sends back to back: preamble + frame + gap per
/// frame, so over a whole number of cycles the utilisation is exactly
/// frame / (frame + preamble + gap).
#[test]
fn single_station_reaches_the_wire_bound_exactly() {
    for bytes in [64u32, 512, 1518] {
        let bits = u64::from(bytes) * 8;
        let cycle_bits = 64 + bits + 96;
        let cycles = 1000;
        let c = RunConfig {
            frames: FrameSizes::Fixed(bytes),
            duration: cycles * cycle_bits * BIT,
            ..cfg(1, 0)
        };
        let r = exact::run(&c).unwrap();
        assert_eq!(r.collided_attempts, 0);
        assert_eq!(r.conservation.dropped_excessive, 0);
        assert_eq!(r.conservation.delivered, cycles);
        // delivered_bits / duration_bits == bits / cycle_bits, in integers.
        assert_eq!(r.delivered_bits * cycle_bits, bits * cycles * cycle_bits);
        let expect = bits as f64 / cycle_bits as f64;
        assert!(
            (r.utilisation - expect).abs() < 1e-12,
            "{bytes}: {}",
            r.utilisation
        );
        assert_eq!(r.attempts_histogram[0], cycles);
    }
}

/// Two stations at the two ends of a 2500 m bus (12.5 µs apart at 2e8 m/s). The
/// second starts `delta` after the first. It senses the first one's carrier only once
/// the signal has arrived (strictly before it starts), so they collide exactly when
/// `delta <= 12.5 µs`, and never otherwise.
#[test]
fn propagation_decides_collisions_at_2500_m() {
    let c = RunConfig {
        placement: Placement::Even,
        bus_length_m: 2500.0,
        ..cfg(2, 10)
    };
    let prop = Time::from_ns(12_500);
    let frame_end = (64 + 1518 * 8) * BIT;
    let cases: Vec<(Time, bool)> = vec![
        (Time::ZERO, true),
        (PS, true),
        (prop / 2, true),
        (prop - PS, true),
        (prop, true),
        (prop + PS, false),
        (prop + BIT, false),
        (2 * prop, false),
        (frame_end / 2, false),
    ];
    for (delta, collide) in cases {
        for swap in [false, true] {
            let starts = if swap {
                [delta, Time::ZERO]
            } else {
                [Time::ZERO, delta]
            };
            let (m, q) = CsmaCd::new_with_start_times(&c, &starts).unwrap();
            let mut e = Engine::with_queue(m, q);
            if collide {
                // Both jams have ended by 2·prop + preamble + jam; the earliest retry
                // is a gap later.
                e.run_until(delta + 2 * prop + 96 * BIT);
                let m = e.model();
                assert_eq!(m.collided_attempts(), 2, "delta {delta} swap {swap}");
                assert_eq!(m.attempts(), 2, "delta {delta} swap {swap}");
                assert_eq!(m.delivered(), 0, "delta {delta}");
            } else {
                // Up to just after the first frame ended, before the next contention.
                e.run_until(frame_end + PS);
                let m = e.model();
                assert_eq!(m.collided_attempts(), 0, "delta {delta} swap {swap}");
                assert_eq!(
                    m.attempts(),
                    1,
                    "delta {delta}: the second station deferred"
                );
                assert_eq!(m.delivered(), 1, "delta {delta}");
            }
        }
    }
    // The positions really are 12.5 µs apart.
    let (m, _) = CsmaCd::new(&c).unwrap();
    assert_eq!(m.positions(), vec![Time::ZERO, prop]);
}

/// When the first station's signal reaches the second only after it started, both
/// detect the collision when the other's signal arrives, finish the preamble, jam 32
/// bits and stop: the jam ends are exact.
#[test]
fn collision_detection_timing_is_exact() {
    let c = RunConfig {
        bus_length_m: 2500.0,
        ..cfg(2, 10)
    };
    let bit = BIT;
    let prop = 125 * bit;
    let delta = 40 * bit;
    let (m, q) = CsmaCd::new_with_start_times(&c, &[Time::ZERO, delta]).unwrap();
    let mut e = Engine::with_queue(m, q);
    // Station 0 hears station 1 at delta + prop = 165 bits, jams to 197 bits.
    // Station 1 hears station 0 at prop = 125 bits; its preamble ends at 40 + 64 =
    // 104 bits, so it jams 125..157 bits.
    e.run_until(157 * bit - PS);
    assert_eq!(e.model().collided_attempts(), 0);
    e.run_until(157 * bit);
    assert_eq!(e.model().collided_attempts(), 1);
    e.run_until(197 * bit - PS);
    assert_eq!(e.model().collided_attempts(), 1);
    e.run_until(197 * bit);
    assert_eq!(e.model().collided_attempts(), 2);
    let _ = prop;
}

/// The mean backoff measured after the c-th collision is within 4.5 standard errors of
/// E(c) = (2^min(c,10) − 1)/2, using the exact standard deviation of the uniform
/// draw. With a fixed seed the test is deterministic; for a fresh seed a false
/// failure would have probability below 15 × 7e-6 ≈ 1e-4.
#[test]
fn measured_backoff_matches_e_of_c() {
    let c = RunConfig {
        frames: FrameSizes::Fixed(64),
        ..cfg(64, 4000)
    };
    let r = exact::run(&c).unwrap();
    let beb = c.beb().unwrap();
    let mut checked = 0;
    for row in &r.backoff {
        let e = theory::beb_expected_backoff(&beb, row.collisions);
        assert_eq!(row.expected_slots, e);
        if row.draws < 100 {
            continue;
        }
        let se = theory::beb_backoff_sd(&beb, row.collisions) / (row.draws as f64).sqrt();
        let z = (row.mean_slots - e) / se;
        assert!(
            z.abs() < 4.5,
            "c = {}: mean {} vs E(c) {e}, z = {z}",
            row.collisions,
            row.mean_slots
        );
        checked += 1;
    }
    assert!(checked >= 12, "only {checked} rows had enough draws");
}

/// At low offered load the channel carries what is
/// offered: utilisation within 5 % of G = 0.3 over 20 simulated seconds (about 12 000
/// frames, so the Poisson count alone has a relative s.d. below 1 %).
#[test]
fn light_poisson_load_is_carried() {
    let c = RunConfig {
        traffic: Traffic::Poisson { load: 0.3 },
        frames: FrameSizes::Fixed(512),
        ..cfg(10, 20_000)
    };
    let r = exact::run(&c).unwrap();
    assert!((r.utilisation - 0.3).abs() < 0.015, "{}", r.utilisation);
    // 1-persistence still makes stations that deferred behind the same frame collide.
    assert!(
        r.collisions_per_attempt < 0.25,
        "{}",
        r.collisions_per_attempt
    );
    assert_eq!(r.conservation.dropped_overflow, 0);
    assert!(r.total_delay.mean_us >= r.access_delay.mean_us);
}

/// The carrier-sense and collision-detection methods (neighbour walk, segment tree,
/// and a brute-force scan over every signal on the cable that does not rely on the
/// nearest-neighbour argument) compute the same thing: whole runs with bursts of
/// simultaneous starts must agree to the last counter.
#[test]
fn indexed_and_walked_carrier_sense_agree() {
    let cases = [
        RunConfig {
            placement: Placement::Random,
            ..cfg(300, 300)
        },
        RunConfig {
            placement: Placement::Point,
            frames: FrameSizes::Fixed(64),
            ..cfg(500, 100)
        },
        RunConfig {
            traffic: Traffic::Poisson { load: 1.5 },
            frames: FrameSizes::Uniform { min: 64, max: 300 },
            ..cfg(100, 500)
        },
        RunConfig {
            placement: Placement::Random,
            frames: FrameSizes::Fixed(64),
            bus_length_m: 3800.0,
            seed: 5,
            ..cfg(400, 200)
        },
        // 1000BASE-T: carrier extension and frame bursting (signals that grow).
        RunConfig {
            placement: Placement::Random,
            frames: FrameSizes::Uniform { min: 64, max: 600 },
            duration: Time::from_ms(20),
            ..RunConfig::default().with_medium(EthernetMedium::Base1000T)
        },
        RunConfig {
            traffic: Traffic::Poisson { load: 0.9 },
            frames: FrameSizes::Fixed(64),
            stations: 200,
            duration: Time::from_ms(20),
            ..RunConfig::default().with_medium(EthernetMedium::Base1000T)
        },
    ];
    let rules = [
        (IfgRule::Ieee8023, JamRule::Preamble),
        (IfgRule::Restart, JamRule::Preamble),
        (IfgRule::None, JamRule::Preamble),
        (IfgRule::Ieee8023, JamRule::Immediate),
    ];
    for (c, (ifg_rule, jam_rule)) in cases
        .iter()
        .flat_map(|c| rules.iter().map(move |r| (c, *r)))
    {
        let c = RunConfig {
            ifg_rule,
            jam_rule,
            ..c.clone()
        };
        let run = |method: u8| {
            let (m, q) = CsmaCd::new(&c).unwrap();
            let m = match method {
                0 => m.with_indexed_sense(false),
                1 => m.with_indexed_sense(true),
                _ => m.with_sense_method(csma_cd::exact::medium::SenseMethod::BruteForce),
            };
            let mut e = Engine::with_queue(m, q);
            e.run_until(c.duration);
            let r = e.model().result(c.duration, e.events(), e.stale_events());
            sim_kit::output::json::to_string(&r)
        };
        let walk = run(0);
        assert_eq!(
            walk,
            run(1),
            "segment tree differs from the walk ({ifg_rule:?}, {jam_rule:?})"
        );
        assert_eq!(
            walk,
            run(2),
            "the walk differs from the brute-force reference ({ifg_rule:?}, {jam_rule:?}, {c:?})"
        );
    }
}

/// The comparison algorithms draw what they claim: after c collisions a fixed window
/// W gives a mean of (W − 1)/2 slots and quadratic backoff (window c² + 1) a mean of
/// c²/2 slots, each within 4.5 (sample) standard errors.
#[test]
fn comparison_algorithms_draw_their_windows() {
    for (algo, expect) in [
        (
            BackoffAlgorithm::Fixed { window: 16 },
            Box::new(|_c: u32| 7.5) as Box<dyn Fn(u32) -> f64>,
        ),
        (
            BackoffAlgorithm::Polynomial { degree: 2 },
            Box::new(|c: u32| f64::from(c * c) / 2.0),
        ),
    ] {
        let c = RunConfig {
            backoff: algo,
            frames: FrameSizes::Fixed(64),
            ..cfg(16, 2000)
        };
        let r = exact::run(&c).unwrap();
        let mut checked = 0;
        for row in &r.backoff {
            assert_eq!(row.expected_slots, expect(row.collisions), "{algo:?}");
            if row.draws < 100 {
                continue;
            }
            let z = (row.mean_slots - row.expected_slots) / row.std_error;
            assert!(z.abs() < 4.5, "{algo:?} c = {}: z = {z}", row.collisions);
            checked += 1;
        }
        assert!(checked >= 3, "{algo:?}: only {checked} rows");
    }
}

/// Beyond the nearest-neighbour range (here 5000 m: a one-way delay of 250 bit times,
/// more than preamble + jam + gap) the model scans every signal on the cable, where a
/// station may have two signals in flight. Propagation still decides collisions
/// exactly, and busy runs still balance.
#[test]
fn long_bus_beyond_the_neighbour_range() {
    let c = RunConfig {
        bus_length_m: 5000.0,
        ..cfg(2, 10)
    };
    let prop = Time::from_us(25);
    let frame_end = (64 + 1518 * 8) * BIT;
    for (delta, collide) in [
        (Time::ZERO, true),
        (prop - PS, true),
        (prop, true),
        (prop + PS, false),
    ] {
        let (m, q) = CsmaCd::new_with_start_times(&c, &[Time::ZERO, delta]).unwrap();
        let mut e = Engine::with_queue(m, q);
        if collide {
            e.run_until(delta + 2 * prop + 96 * BIT);
            assert_eq!(e.model().collided_attempts(), 2, "delta {delta}");
        } else {
            e.run_until(frame_end + PS);
            assert_eq!(e.model().collided_attempts(), 0, "delta {delta}");
            assert_eq!(e.model().delivered(), 1);
        }
    }
    for (n, placement, frames) in [
        (32, Placement::Even, FrameSizes::Fixed(1518)),
        (100, Placement::Random, FrameSizes::Fixed(64)),
    ] {
        let c = RunConfig {
            bus_length_m: 5000.0,
            placement,
            frames,
            ..cfg(n, 500)
        };
        let r = exact::run(&c).unwrap();
        assert!(r.conservation.holds, "{n}");
        assert!(r.conservation.delivered > 0, "{n}");
        assert_eq!(exact::run(&c).unwrap(), r, "deterministic");
    }
}
