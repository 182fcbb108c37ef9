//! `backoff_core::retry::retry_async` on tokio: the async retry loop awaits its delays
//! through `embedded_hal_async::delay::DelayNs`, implemented here over
//! `tokio::time::sleep`. The runtime's clock is paused, so the test takes no real time
//! and tokio's clock must have advanced by exactly the delays the policy chose.

use std::cell::RefCell;
use std::time::Duration;

use backoff_core::retry::{Failure, GiveUpReason, retry_async};
use backoff_core::{Policy, Ratio, Schedule, Stop, StopReason};
use embedded_hal_async::delay::DelayNs;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

/// `DelayNs` for tokio: each wait is a `tokio::time::sleep`.
struct TokioDelay;

impl DelayNs for TokioDelay {
    async fn delay_ns(&mut self, ns: u32) {
        tokio::time::sleep(Duration::from_nanos(u64::from(ns))).await;
    }
}

/// 100 ms, 200 ms, 400 ms ... no jitter, four attempts.
fn policy() -> Policy {
    Policy::new(
        Schedule::exponential(
            Duration::from_millis(100),
            Ratio::TWO,
            Duration::from_secs(10),
        )
        .unwrap(),
    )
    .with_stop(Stop::NEVER.with_max_attempts(4).unwrap())
}

#[tokio::test(start_paused = true)]
async fn retries_on_tokio_time_until_success() {
    let start = tokio::time::Instant::now();
    let mut rng = XorShiftRng::seed_from_u64(1);
    let calls = RefCell::new(Vec::new());
    let mut delays = Vec::new();
    let r = retry_async(
        &policy(),
        &mut rng,
        &mut TokioDelay,
        |attempt| {
            calls.borrow_mut().push((attempt, start.elapsed()));
            async move {
                tokio::task::yield_now().await; // a real await point in the operation
                if attempt < 3 {
                    Err(Failure::Transient("busy"))
                } else {
                    Ok(attempt * 10)
                }
            }
        },
        |_, delay| delays.push(delay),
    )
    .await;
    assert_eq!(r, Ok(30));
    assert_eq!(delays, [Some(100_000_000), Some(200_000_000)]);
    // Each attempt started after the previous delays, on tokio's clock.
    assert_eq!(
        calls.into_inner(),
        [
            (1, Duration::ZERO),
            (2, Duration::from_millis(100)),
            (3, Duration::from_millis(300)),
        ]
    );
    assert_eq!(start.elapsed(), Duration::from_millis(300));
}

#[tokio::test(start_paused = true)]
async fn gives_up_after_max_attempts_and_waits_longer_than_u32_nanos() {
    // 5 s delays do not fit one `delay_ns(u32)` call (4.29 s): paid out in pieces.
    let policy = Policy::new(Schedule::constant(Duration::from_secs(5)))
        .with_stop(Stop::NEVER.with_max_attempts(3).unwrap());
    let start = tokio::time::Instant::now();
    let mut rng = XorShiftRng::seed_from_u64(2);
    let r: Result<(), _> = retry_async(
        &policy,
        &mut rng,
        &mut TokioDelay,
        |_| async { Err(Failure::Transient("down")) },
        |_, _| {},
    )
    .await;
    let gave_up = r.unwrap_err();
    assert_eq!(gave_up.attempts, 3);
    assert_eq!(
        gave_up.reason,
        GiveUpReason::Policy(StopReason::MaxAttempts)
    );
    // Two 5 s waits, each paid as 4.294967295 s + 0.705032705 s: tokio's timer has a
    // 1 ms resolution and rounds every sleep up, so each of the four pieces may add
    // up to 1 ms.
    let elapsed = start.elapsed();
    assert!(
        elapsed >= Duration::from_secs(10) && elapsed <= Duration::from_millis(10_004),
        "{elapsed:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_permanent_error_stops_at_once() {
    let start = tokio::time::Instant::now();
    let mut rng = XorShiftRng::seed_from_u64(3);
    let r: Result<(), _> = retry_async(
        &policy(),
        &mut rng,
        &mut TokioDelay,
        |_| async { Err(Failure::Permanent("bad request")) },
        |_, _| {},
    )
    .await;
    let gave_up = r.unwrap_err();
    assert_eq!(
        (gave_up.attempts, gave_up.reason),
        (1, GiveUpReason::Permanent)
    );
    assert_eq!(start.elapsed(), Duration::ZERO);
}
