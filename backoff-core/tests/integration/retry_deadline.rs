//! The retry loop on a simulated clock, and deadline propagation.

use std::cell::RefCell;

use backoff_core::retry::{Failure, GaveUp, GiveUpReason, Timer, retry};
use backoff_core::{Deadline, Jitter, Policy, Ratio, Schedule, Stop, StopReason};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

/// Simulated time: sleeping advances the clock; each attempt takes `attempt_ns`.
struct Sim {
    now: u64,
    sleeps: Vec<u64>,
}

impl Timer for Sim {
    fn elapsed_ns(&mut self) -> u64 {
        self.now
    }
    fn sleep_ns(&mut self, ns: u64) {
        self.now += ns;
        self.sleeps.push(ns);
    }
}

fn sim() -> Sim {
    Sim {
        now: 0,
        sleeps: Vec::new(),
    }
}

fn doubling(attempts: u32) -> Policy {
    Policy::new(Schedule::exponential_nanos(1_000, Ratio::TWO, 1_000_000).unwrap())
        .with_stop(Stop::NEVER.with_max_attempts(attempts).unwrap())
}

#[test]
fn retries_transient_errors_until_success() {
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut t = sim();
    let mut notified = Vec::new();
    let r = retry(
        &doubling(10),
        &mut rng,
        &mut t,
        |n| {
            if n <= 3 {
                Err(Failure::Transient(n))
            } else {
                Ok(n * 100)
            }
        },
        |e, d| notified.push((*e, d)),
    );
    assert_eq!(r, Ok(400));
    assert_eq!(
        notified,
        [(1, Some(1_000)), (2, Some(2_000)), (3, Some(4_000))]
    );
    assert_eq!(t.sleeps, [1_000, 2_000, 4_000]);
}

#[test]
fn permanent_error_stops_at_once() {
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut t = sim();
    let mut notified = Vec::new();
    let r: Result<(), _> = retry(
        &doubling(10),
        &mut rng,
        &mut t,
        |n| {
            if n < 2 {
                Err(Failure::Transient("busy"))
            } else {
                Err(Failure::Permanent("denied"))
            }
        },
        |e, d| notified.push((*e, d)),
    );
    assert_eq!(
        r,
        Err(GaveUp {
            error: "denied",
            attempts: 2,
            reason: GiveUpReason::Permanent
        })
    );
    assert_eq!(notified, [("busy", Some(1_000)), ("denied", None)]);
}

#[test]
fn policy_limits_end_the_loop() {
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut t = sim();
    let calls = RefCell::new(0u32);
    let r: Result<(), _> = retry(
        &doubling(4),
        &mut rng,
        &mut t,
        |_| {
            *calls.borrow_mut() += 1;
            Err(Failure::Transient(()))
        },
        |_, _| {},
    );
    assert_eq!(
        r.unwrap_err().reason,
        GiveUpReason::Policy(StopReason::MaxAttempts)
    );
    assert_eq!(*calls.borrow(), 4);
    assert_eq!(t.sleeps, [1_000, 2_000, 4_000]);

    // Elapsed-time limit on the simulated clock: 1 + 2 + 4 µs fit in 10 µs, 8 more do not.
    let p = Policy::new(Schedule::exponential_nanos(1_000, Ratio::TWO, 1_000_000).unwrap())
        .with_stop(Stop::NEVER.with_max_elapsed_nanos(10_000));
    let mut t = sim();
    let r: Result<(), _> = retry(
        &p,
        &mut rng,
        &mut t,
        |_| Err(Failure::Transient(())),
        |_, _| {},
    );
    let e = r.unwrap_err();
    assert_eq!(
        (e.reason, e.attempts),
        (GiveUpReason::Policy(StopReason::MaxElapsed), 4)
    );
    assert_eq!(t.now, 7_000);
}

#[test]
fn same_seed_same_run() {
    let p = Policy::new(Schedule::exponential_nanos(1_000, Ratio::TWO, 1 << 30).unwrap())
        .with_jitter(Jitter::Full)
        .with_stop(Stop::NEVER.with_max_attempts(12).unwrap());
    let run = |seed| {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        let mut t = sim();
        let _: Result<(), _> = retry(
            &p,
            &mut rng,
            &mut t,
            |_| Err(Failure::Transient(())),
            |_, _| {},
        );
        t.sleeps
    };
    assert_eq!(run(5), run(5));
    assert_eq!(run(5).len(), 11);
}

#[test]
fn deadline_decides_whether_one_more_attempt_fits() {
    // A 2 s budget from t = 0; each attempt takes 300 ms; delays double from 100 ms.
    let deadline = Deadline::after(0, 2_000_000_000);
    let policy =
        Policy::new(Schedule::exponential_nanos(100_000_000, Ratio::TWO, 10_000_000_000).unwrap());
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut st = backoff_core::RetryState::new();
    let attempt = 300_000_000u64;
    let mut now = attempt; // the first attempt has run and failed
    let mut timeouts = Vec::new();
    loop {
        let delay = st.on_failure(&policy, now, &mut rng).delay_nanos().unwrap();
        if !deadline.allows_attempt(now, delay, attempt) {
            break;
        }
        timeouts.push(deadline.attempt_timeout_nanos(now, delay, attempt).unwrap());
        now += delay + attempt;
    }
    // Attempts end at 0.3, 0.7, 1.2 (0.7 + 0.2 + 0.3), then 1.2 + 0.4 + 0.3 = 1.9 s, then
    // 1.9 + 0.8 + 0.3 = 3.0 s > 2 s: three retries fit.
    assert_eq!(timeouts.len(), 3);
    assert_eq!(now, 1_900_000_000);
    assert_eq!(st.failures(), 4);
    // What is left to propagate is shorter than the per-attempt timeout near the end.
    assert_eq!(
        deadline.attempt_timeout_nanos(1_900_000_000, 0, attempt),
        Some(100_000_000)
    );
    assert_eq!(
        deadline.attempt_timeout_nanos(2_000_000_000, 0, attempt),
        None
    );
    assert!(deadline.is_expired(2_000_000_000) && !deadline.is_expired(1_999_999_999));
    assert!(!Deadline::at(10).allows_attempt(u64::MAX, 1, 1));
    assert!(Deadline::NONE.allows_attempt(0, u64::MAX, 0));
}
