//! The feature-gated retry loops: `retry_std` (feature `std`) and `retry_delay`
//! (feature `embedded-hal`). Run with `cargo test -p backoff-core --all-features`.

#[cfg(any(feature = "std", feature = "embedded-hal"))]
use backoff_core::retry::Failure;
#[cfg(feature = "std")]
use backoff_core::retry::GiveUpReason;
#[cfg(any(feature = "std", feature = "embedded-hal"))]
use backoff_core::{Policy, Schedule, Stop};
#[cfg(feature = "std")]
use backoff_core::{Ratio, StopReason};
#[cfg(any(feature = "std", feature = "embedded-hal"))]
use rand_core::SeedableRng;
#[cfg(any(feature = "std", feature = "embedded-hal"))]
use rand_xorshift::XorShiftRng;

#[cfg(feature = "std")]
#[test]
fn retry_std_sleeps_at_least_the_delays() {
    use backoff_core::retry::retry_std;
    use std::time::{Duration, Instant};
    // 200 µs, 400 µs, 800 µs: the thread sleeps at least 1.4 ms in all (a lower bound,
    // which sleep guarantees; no upper bound is asserted).
    let p = Policy::new(Schedule::exponential_nanos(200_000, Ratio::TWO, 10_000_000).unwrap())
        .with_stop(Stop::NEVER.with_max_attempts(4).unwrap());
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut delays = Vec::new();
    let t0 = Instant::now();
    let r: Result<(), _> = retry_std(
        &p,
        &mut rng,
        |n| Err(Failure::Transient(n)),
        |_, d| delays.push(d),
    );
    assert!(t0.elapsed() >= Duration::from_micros(1_400));
    let e = r.unwrap_err();
    assert_eq!((e.error, e.attempts), (4, 4));
    assert_eq!(e.reason, GiveUpReason::Policy(StopReason::MaxAttempts));
    assert_eq!(delays, [Some(200_000), Some(400_000), Some(800_000), None]);
}

#[cfg(feature = "std")]
#[test]
fn retry_std_elapsed_limit_uses_the_real_clock() {
    use backoff_core::retry::retry_std;
    // 1 ms delays, give up once 5 ms have passed: at most 5 retries.
    let p = Policy::new(Schedule::constant_nanos(1_000_000))
        .with_stop(Stop::NEVER.with_max_elapsed_nanos(5_000_000));
    let mut rng = XorShiftRng::seed_from_u64(1);
    let r: Result<(), _> = retry_std(&p, &mut rng, |_| Err(Failure::Transient(())), |_, _| {});
    let e = r.unwrap_err();
    assert_eq!(e.reason, GiveUpReason::Policy(StopReason::MaxElapsed));
    assert!((1..=5).contains(&e.attempts), "{}", e.attempts);
}

#[cfg(feature = "embedded-hal")]
#[test]
fn retry_delay_pays_long_waits_in_u32_pieces() {
    use backoff_core::retry::{DelayTimer, Timer, retry_delay};
    struct Log(Vec<u32>);
    impl embedded_hal::delay::DelayNs for Log {
        fn delay_ns(&mut self, ns: u32) {
            self.0.push(ns);
        }
    }
    // 10 s = 2 · (2^32 - 1) + 1_410_065_410 ns.
    let p = Policy::new(Schedule::constant_nanos(10_000_000_000))
        .with_stop(Stop::NEVER.with_max_attempts(2).unwrap());
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut d = Log(Vec::new());
    let r = retry_delay(
        &p,
        &mut rng,
        &mut d,
        |n| {
            if n == 1 {
                Err(Failure::Transient(()))
            } else {
                Ok(n)
            }
        },
        |_, _| {},
    );
    assert_eq!(r, Ok(2));
    assert_eq!(d.0, [u32::MAX, u32::MAX, 1_410_065_410]);
    assert_eq!(
        d.0.iter().map(|&x| u64::from(x)).sum::<u64>(),
        10_000_000_000
    );
    // Elapsed time is the sum of the waits.
    let mut log = Log(Vec::new());
    let mut t = DelayTimer::new(&mut log);
    t.sleep_ns(7);
    t.sleep_ns(5_000_000_000);
    assert_eq!(t.elapsed_ns(), 5_000_000_007);
}
