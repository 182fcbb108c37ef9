//! Policies that reproduce the documented behaviour of well-known systems.
//!
//! | system | preset | delays |
//! |---|---|---|
//! | IEEE 802.3 Ethernet (CSMA/CD) | [`BebConfig::IEEE_802_3`](crate::BebConfig::IEEE_802_3) | `U{0, …, 2^min(n,10) − 1}` slots, 16 attempts |
//! | Go `cenkalti/backoff` defaults | [`cenkalti`] | `0.5 s · 1.5^n` ≤ 60 s, `× U(0.5, 1.5)`, stop at 15 min elapsed |
//! | gRPC `retryPolicy` (gRFC A6) | [`grpc_retry`] | `min(initialBackoff · backoffMultiplier^n, maxBackoff) × U(0.8, 1.2)`, `maxAttempts ≤ 5` |
//! | Celery `retry_backoff` | [`celery`], [`CELERY_DEFAULT`] | `U(0, min(factor · 2^n, 600 s))`, `max_retries` 3 |
//! | APUE `connect_retry` | [`apue_connect_retry`] | 1, 2, 4, …, 64 s, then a last attempt and give up |
//! | AWS "Exponential Backoff and Jitter" | [`aws_full_jitter`], [`aws_equal_jitter`], [`aws_decorrelated_jitter`] | `U(0, min(cap, base · 2^n))`, …, `min(cap, U(base, 3 · prev))` |
//! | Google Cloud "2^n s + random ms" | [`google_cloud`] | `min(2^n s + U(0, 1000 ms), maximum_backoff)` |
//!
//! Each preset has a test that checks the documented sequence or ranges. Where the
//! original draws in coarser units (Celery in whole seconds, Go in float64 nanoseconds)
//! the preset draws whole nanoseconds over the same range.

use core::time::Duration;

use super::Policy;
use super::exponential::Schedule;
use super::jitter::Jitter;
use super::ratio::Ratio;
use super::stop::Stop;
use crate::error::{ConfigError, ConfigErrorKind};

const SECOND: u64 = 1_000_000_000;

/// cenkalti/backoff (Go) `NewExponentialBackOff()` defaults: initial interval 500 ms,
/// randomization factor 0.5, multiplier 1.5, max interval 60 s, max elapsed time
/// 15 min (give up when `elapsed + next > 15 min`).
///
/// Intervals 0.5, 0.75, 1.125, 1.6875, 2.53125 s, ..., each drawn from
/// `[0.5 x, 1.5 x]`: `[0.25, 0.75]`, `[0.375, 1.125]`, ...
///
/// ```
/// use backoff_core::policy::presets;
/// use rand_core::SeedableRng;
/// let p = presets::cenkalti();
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
/// let d = p.decide(1, 0, 0, &mut rng).delay_nanos().unwrap();
/// assert!((250_000_000..=750_000_000).contains(&d));
/// ```
pub const fn cenkalti() -> Policy {
    Policy::new(Schedule::exponential_clamped_nanos(
        500_000_000,
        Ratio::THREE_HALVES,
        60 * SECOND,
    ))
    .with_jitter(Jitter::Proportional(Ratio::HALF))
    .with_stop(Stop::NEVER.with_max_elapsed_nanos(15 * 60 * SECOND))
}

/// The largest `maxAttempts` gRPC honours: larger values are treated as 5.
pub const GRPC_MAX_ATTEMPTS_CAP: u32 = 5;

/// A gRPC `retryPolicy` (gRFC A6): `maxAttempts` (the original RPC included; at least
/// 2, values above 5 treated as 5), `initialBackoff`, `maxBackoff` and
/// `backoffMultiplier` (all greater than zero). The `n`-th retry waits
/// `min(initialBackoff · backoffMultiplier^n, maxBackoff) · U(0.8, 1.2)`, the jitter of
/// grpc-go and grpc-core. (The gRFC's text writes the draw as `random(0, ...)`; the
/// implementations use ±20 %.)
///
/// Rejected with [`ConfigErrorKind::OutOfRange`]: `max_attempts < 2`, a zero backoff
/// or multiplier, `initial > max`.
///
/// ```
/// use backoff_core::{Ratio, policy::presets::grpc_retry};
/// use core::time::Duration;
/// let p = grpc_retry(10, Duration::from_millis(100), Duration::from_secs(1), Ratio::TWO).unwrap();
/// assert_eq!(p.stop().max_attempts(), 5);
/// assert!(grpc_retry(1, Duration::from_millis(100), Duration::from_secs(1), Ratio::TWO).is_err());
/// ```
pub const fn grpc_retry(
    max_attempts: u32,
    initial_backoff: Duration,
    max_backoff: Duration,
    backoff_multiplier: Ratio,
) -> Result<Policy, ConfigError> {
    if max_attempts < 2 || initial_backoff.is_zero() || backoff_multiplier.is_zero() {
        return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
    }
    let attempts = if max_attempts > GRPC_MAX_ATTEMPTS_CAP {
        GRPC_MAX_ATTEMPTS_CAP
    } else {
        max_attempts
    };
    let schedule = match Schedule::exponential(initial_backoff, backoff_multiplier, max_backoff) {
        Ok(s) => s,
        Err(e) => return Err(e),
    };
    Ok(Policy::new(schedule)
        .with_jitter(Jitter::Proportional(Ratio::ONE_FIFTH))
        .with_stop(Stop::NEVER.with_max_retries(attempts.saturating_sub(1))))
}

/// Celery's defaults for a task with `retry_backoff=True`: factor 1 s,
/// `retry_backoff_max` 600 s, `retry_jitter` True, `max_retries` 3.
pub const CELERY_DEFAULT: Policy = celery(1, 600, true, 3);

/// Celery `retry_backoff`: the `n`-th retry (`n = 0` first) waits
/// `min(factor · 2^n, retry_backoff_max)` seconds, or with `retry_jitter` a uniform
/// draw in `[0, that]` (full jitter); at most `max_retries` retries.
///
/// ```
/// use backoff_core::policy::presets;
/// use rand_core::SeedableRng;
/// let p = presets::celery(5, 600, false, 10);
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
/// let secs: Vec<u64> = (1..=9).map(|a| p.decide(a, 0, 0, &mut rng).delay_nanos().unwrap() / 1_000_000_000).collect();
/// assert_eq!(secs, [5, 10, 20, 40, 80, 160, 320, 600, 600]);
/// ```
pub const fn celery(
    factor_secs: u32,
    retry_backoff_max_secs: u32,
    retry_jitter: bool,
    max_retries: u32,
) -> Policy {
    let max = (retry_backoff_max_secs as u64).saturating_mul(SECOND);
    let initial = (factor_secs as u64).saturating_mul(SECOND);
    // Celery computes min(maximum, factor * 2**retries): a factor above the maximum is
    // capped from the first retry on.
    let initial = if initial > max { max } else { initial };
    Policy::new(Schedule::exponential_clamped_nanos(
        initial,
        Ratio::TWO,
        max,
    ))
    .with_jitter(if retry_jitter {
        Jitter::Full
    } else {
        Jitter::None
    })
    .with_stop(Stop::NEVER.with_max_retries(max_retries))
}

/// `connect_retry` of *Advanced Programming in the UNIX Environment* (figure 16.10):
/// `for (numsec = 1; numsec <= MAXSLEEP; numsec <<= 1)` with `MAXSLEEP = 128`, sleeping
/// `numsec` after a failure while `numsec <= MAXSLEEP / 2`: delays 1, 2, 4, ..., 64 s
/// (127 s in all), eight attempts, then give up.
///
/// ```
/// use backoff_core::{RetryState, policy::presets};
/// use rand_core::SeedableRng;
/// let p = presets::apue_connect_retry();
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(0);
/// let mut st = RetryState::new();
/// let secs: Vec<u64> = core::iter::from_fn(|| st.on_failure(&p, 0, &mut rng).delay_nanos())
///     .map(|ns| ns / 1_000_000_000)
///     .collect();
/// assert_eq!(secs, [1, 2, 4, 8, 16, 32, 64]);
/// ```
pub const fn apue_connect_retry() -> Policy {
    Policy::new(Schedule::exponential_clamped_nanos(
        SECOND,
        Ratio::TWO,
        64 * SECOND,
    ))
    .with_stop(Stop::NEVER.with_max_retries(7))
}

/// AWS "full jitter": `U(0, min(cap, base · 2^n))`.
///
/// ```
/// use backoff_core::policy::presets;
/// use core::time::Duration;
/// use rand_core::SeedableRng;
/// let (base, cap) = (Duration::from_millis(10), Duration::from_secs(1));
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(0);
/// let full = presets::aws_full_jitter(base, cap).unwrap();
/// let equal = presets::aws_equal_jitter(base, cap).unwrap();
/// let deco = presets::aws_decorrelated_jitter(base, cap).unwrap();
/// // After the third failure: t = min(1 s, 10 ms · 2^2) = 40 ms.
/// assert!(full.decide(3, 0, 0, &mut rng).delay_nanos().unwrap() <= 40_000_000);
/// assert!(equal.decide(3, 0, 0, &mut rng).delay_nanos().unwrap() >= 20_000_000);
/// // Decorrelated: from a previous sleep of 50 ms, U(10 ms, 150 ms).
/// let d = deco.decide(3, 50_000_000, 0, &mut rng).delay_nanos().unwrap();
/// assert!((10_000_000..=150_000_000).contains(&d));
/// ```
pub const fn aws_full_jitter(base: Duration, cap: Duration) -> Result<Policy, ConfigError> {
    match Schedule::exponential(base, Ratio::TWO, cap) {
        Ok(s) => Ok(Policy::new(s).with_jitter(Jitter::Full)),
        Err(e) => Err(e),
    }
}

/// AWS "equal jitter": `t/2 + U(0, t/2)` with `t = min(cap, base · 2^n)`.
pub const fn aws_equal_jitter(base: Duration, cap: Duration) -> Result<Policy, ConfigError> {
    match Schedule::exponential(base, Ratio::TWO, cap) {
        Ok(s) => Ok(Policy::new(s).with_jitter(Jitter::Equal)),
        Err(e) => Err(e),
    }
}

/// AWS "decorrelated jitter": `sleep = min(cap, U(base, 3 · sleep))`, starting from
/// `sleep = base`.
pub const fn aws_decorrelated_jitter(base: Duration, cap: Duration) -> Result<Policy, ConfigError> {
    match Schedule::exponential(base, Ratio::ONE, cap) {
        Ok(s) => Ok(Policy::new(s).with_jitter(Jitter::Decorrelated)),
        Err(e) => Err(e),
    }
}

/// Google Cloud's truncated exponential backoff: wait
/// `min(2^n s + random_number_milliseconds, maximum_backoff)` with the random part
/// uniform up to 1000 ms and `maximum_backoff` typically 32 or 64 s. No attempt limit:
/// add one with [`Policy::with_stop`].
///
/// ```
/// use backoff_core::policy::presets;
/// use core::time::Duration;
/// use rand_core::SeedableRng;
/// let p = presets::google_cloud(Duration::from_secs(32));
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(0);
/// let d = p.decide(3, 0, 0, &mut rng).delay_nanos().unwrap(); // 4 s + up to 1 s
/// assert!((4_000_000_000..=5_000_000_000).contains(&d));
/// assert_eq!(p.decide(9, 0, 0, &mut rng).delay_nanos(), Some(32_000_000_000));
/// ```
pub const fn google_cloud(maximum_backoff: Duration) -> Policy {
    let max = super::time::duration_to_nanos(maximum_backoff);
    let initial = if max < SECOND { max } else { SECOND };
    Policy::new(Schedule::exponential_clamped_nanos(
        initial,
        Ratio::TWO,
        max,
    ))
    .with_jitter(Jitter::Additive {
        max_ns: 1_000_000_000,
    })
    .with_ceiling_nanos(max)
}
