//! Warm-up: the statistics of a warmed-up run are those of the whole run minus those
//! of the warm-up, exactly (the model is deterministic, and running to the warm-up
//! instant and on gives the same trajectory as running straight through).

use csma_cd::config::{FrameSizes, RunConfig, Traffic};
use csma_cd::exact::run;
use csma_cd_host::job::run_cancellable;
use sim_kit::time::Time;
use std::sync::atomic::AtomicBool;

#[test]
fn warmed_up_counters_are_whole_run_minus_warm_up() {
    for traffic in [Traffic::Poisson { load: 0.95 }, Traffic::Saturated] {
        let whole = RunConfig {
            stations: 16,
            frames: FrameSizes::Mix(vec![(64, 7), (594, 4), (1518, 1)]),
            traffic,
            duration: Time::from_ms(300),
            seed: 5,
            ..RunConfig::default()
        };
        let first = RunConfig {
            duration: Time::from_ms(100),
            ..whole.clone()
        };
        let warm = RunConfig {
            warmup: Time::from_ms(100),
            ..whole.clone()
        };
        let (a, b, c) = (
            run(&whole).unwrap(),
            run(&first).unwrap(),
            run(&warm).unwrap(),
        );
        assert!(c.conservation.holds, "{:?}", c.conservation);
        assert_eq!(c.simulated_s, 0.2);
        assert_eq!(c.events, a.events);
        // The frames in the system at the warm-up instant count as generated.
        assert_eq!(
            c.conservation.generated,
            a.conservation.generated - b.conservation.generated + b.conservation.in_system
        );
        assert_eq!(c.conservation.in_system, a.conservation.in_system);
        for (x, y, z, what) in [
            (
                c.conservation.delivered,
                a.conservation.delivered,
                b.conservation.delivered,
                "delivered",
            ),
            (
                c.conservation.dropped_excessive,
                a.conservation.dropped_excessive,
                b.conservation.dropped_excessive,
                "dropped",
            ),
            (c.attempts, a.attempts, b.attempts, "attempts"),
            (
                c.collided_attempts,
                a.collided_attempts,
                b.collided_attempts,
                "collided",
            ),
            (
                c.collision_events,
                a.collision_events,
                b.collision_events,
                "collisions",
            ),
            (c.delivered_bits, a.delivered_bits, b.delivered_bits, "bits"),
            (
                c.access_delay.count,
                a.access_delay.count,
                b.access_delay.count,
                "access",
            ),
            (
                c.total_delay.count,
                a.total_delay.count,
                b.total_delay.count,
                "total",
            ),
        ] {
            assert_eq!(x, y - z, "{what}");
            assert!(
                z > 0 || what == "dropped",
                "{what}: the warm-up measured something"
            );
        }
        for (i, n) in c.attempts_histogram.iter().enumerate() {
            assert_eq!(*n, a.attempts_histogram[i] - b.attempts_histogram[i]);
        }
        // The sliced runner (run, sweep) warms up the same way.
        let sliced = run_cancellable(&warm, &AtomicBool::new(false))
            .unwrap()
            .unwrap();
        assert_eq!(sliced, c);
    }
}

#[test]
fn warm_up_must_be_shorter_than_the_run() {
    let cfg = RunConfig {
        warmup: Time::from_secs(10),
        ..RunConfig::default()
    };
    assert!(run(&cfg).is_err());
}
