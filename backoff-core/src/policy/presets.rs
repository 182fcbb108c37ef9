//! Policies that reproduce the documented behaviour of well-known systems.
//!
//! | system | preset | delays |
//! |---|---|---|
//! | IEEE 802.3 Ethernet (CSMA/CD) | [`BebConfig::IEEE_802_3`](crate::BebConfig::IEEE_802_3) | `U{0, …, 2^min(n,10) − 1}` slots, 16 attempts |
//! | Go `cenkalti/backoff` defaults | [`CENKALTI`] | `0.5 s · 1.5^n` ≤ 60 s, `× U(0.5, 1.5)`, stop at 15 min elapsed |
//! | gRPC `retryPolicy` (gRFC A6) | [`grpc_retry`] | `min(initialBackoff · backoffMultiplier^n, maxBackoff) × U(0.8, 1.2)`, `maxAttempts ≤ 5` |
//! | gRPC connection backoff | [`GRPC_CONNECTION_BACKOFF`] | 1 s exactly, then `min(1 s · 1.6^n, 120 s) × U(0.8, 1.2)`, never stops |
//! | Celery `retry_backoff` | [`celery`], [`CELERY_DEFAULT`] | `U(0, min(factor · 2^n, 600 s))`, `max_retries` 3 |
//! | APUE `connect_retry` | [`APUE_CONNECT_RETRY`] | 1, 2, 4, …, 64 s, then a last attempt and give up |
//! | AWS "Exponential Backoff and Jitter" | [`aws_full_jitter`], [`aws_equal_jitter`], [`aws_decorrelated_jitter`] | `U(0, min(cap, base · 2^n))`, …, `min(cap, U(base, 3 · prev))`, `max_attempts` |
//! | Google Cloud "2^n s + random ms" | [`google_cloud`] | `min(2^n s + U(0, 1000 ms), maximum_backoff)`, `max_attempts` |
//!
//! **One shape.** A system's documented defaults are a constant ([`CENKALTI`],
//! [`GRPC_CONNECTION_BACKOFF`], [`CELERY_DEFAULT`], [`APUE_CONNECT_RETRY`]). A preset
//! built from the caller's parameters is a `const fn` returning
//! `Result<Policy, ConfigError>`, which rejects what the system itself would reject
//! ([`grpc_retry`], [`celery`], the AWS presets, [`google_cloud`]). Every preset that
//! takes parameters takes a stop rule too: the AWS post and Google's page describe the
//! delays and leave the number of attempts to the caller, so the caller must give one
//! ([`AWS_SDK_MAX_ATTEMPTS`] is the AWS SDKs' default).
//!
//! **Counting.** `n` in the table counts retries from 0; the policies count failures
//! from 1 ([`Policy::decide`]), so the delay after the `f`-th failure uses `n = f - 1`.
//! The AWS post's `attempt` and Celery's `retries` are that `n`.
//!
//! Each preset has a test that checks the documented sequence or ranges. Where the
//! original draws in coarser units (Celery in whole seconds, Go in float64 nanoseconds)
//! the preset draws whole nanoseconds over the same range.
//!
//! The first delays of each preset, in milliseconds (over 200 seeds, every draw falls in
//! the documented range):
//!
//! ```
//! use backoff_core::{Policy, RetryState, presets};
//! use core::time::Duration;
//! use rand_core::SeedableRng;
//!
//! /// Every seed's first delays (ms) fall in the given inclusive ranges, and the policy
//! /// gives up right after them when `then_stop`.
//! fn first_delays(policy: &Policy, ranges: &[(u64, u64)], then_stop: bool) {
//!     for seed in 0..200 {
//!         let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(seed);
//!         let mut state = RetryState::new();
//!         for &(lo, hi) in ranges {
//!             let ns = state.on_failure(policy, 0, &mut rng).delay_nanos().unwrap();
//!             assert!((lo * 1_000_000..=hi * 1_000_000).contains(&ns), "{ns} ns not in [{lo}, {hi}] ms");
//!         }
//!         assert_eq!(state.on_failure(policy, 0, &mut rng).delay_nanos().is_none(), then_stop);
//!     }
//! }
//! let ms = Duration::from_millis;
//!
//! // IEEE 802.3 at 10 Mb/s: after collision n, U{0, ..., 2^min(n,10) - 1} slots of 51.2 µs:
//! // [0, 51.2 µs], [0, 153.6 µs], [0, 358.4 µs], [0, 768 µs]; discard after 16 attempts.
//! let beb = backoff_core::BebConfig::IEEE_802_3;
//! let slot = backoff_core::SlotTime::ETHERNET_10M;
//! let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
//! for (n, max_ns) in [(1, 51_200), (2, 153_600), (3, 358_400), (4, 768_000)] {
//!     let ns = beb.decide(n, &mut rng).delay_nanos(slot).unwrap();
//!     assert!(ns <= max_ns);
//! }
//! assert_eq!(beb.decide(16, &mut rng), backoff_core::Decision::Discard);
//!
//! // cenkalti: 500 ms · 1.5^n × U(0.5, 1.5)
//! first_delays(&presets::CENKALTI, &[(250, 750), (375, 1125), (562, 1688), (843, 2532)], false);
//! // gRPC retryPolicy, 4 attempts, 100 ms · 2^n ≤ 1 s, × U(0.8, 1.2): three retries
//! let grpc = presets::grpc_retry(4, ms(100), ms(1_000), backoff_core::Ratio::TWO).unwrap();
//! first_delays(&grpc, &[(80, 120), (160, 240), (320, 480)], true);
//! // gRPC connection backoff: exactly 1 s, then 1.6 s, 2.56 s, 4.096 s ± 20 %
//! first_delays(&presets::GRPC_CONNECTION_BACKOFF, &[(1_000, 1_000), (1_280, 1_920), (2_048, 3_072), (3_276, 4_916)], false);
//! // Celery defaults: U(0, 1 s), U(0, 2 s), U(0, 4 s), then give up (max_retries 3)
//! first_delays(&presets::CELERY_DEFAULT, &[(0, 1_000), (0, 2_000), (0, 4_000)], true);
//! // APUE connect_retry: 1, 2, 4, ..., 64 s, then give up
//! first_delays(&presets::APUE_CONNECT_RETRY,
//!     &[(1_000, 1_000), (2_000, 2_000), (4_000, 4_000), (8_000, 8_000), (16_000, 16_000), (32_000, 32_000), (64_000, 64_000)], true);
//! // AWS, base 100 ms, cap 10 s, the SDKs' 3 attempts: two retries each
//! let (base, cap, n) = (ms(100), ms(10_000), presets::AWS_SDK_MAX_ATTEMPTS);
//! first_delays(&presets::aws_full_jitter(n, base, cap).unwrap(), &[(0, 100), (0, 200)], true);
//! first_delays(&presets::aws_equal_jitter(n, base, cap).unwrap(), &[(50, 100), (100, 200)], true);
//! first_delays(&presets::aws_decorrelated_jitter(n, base, cap).unwrap(), &[(100, 300), (100, 900)], true);
//! // Google Cloud, 5 attempts, maximum 32 s: 1 s, 2 s, 4 s, 8 s + U(0, 1 s)
//! let google = presets::google_cloud(5, Duration::from_secs(32)).unwrap();
//! first_delays(&google, &[(1_000, 2_000), (2_000, 3_000), (4_000, 5_000), (8_000, 9_000)], true);
//! ```

use core::time::Duration;

use super::Policy;
use super::exponential::Schedule;
use super::jitter::Jitter;
use super::ratio::{Fraction, Ratio};
use super::stop::Stop;
use crate::error::{ConfigError, ConfigErrorKind};
use crate::time::duration_to_nanos;

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
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
/// let d = presets::CENKALTI.decide(1, 0, 0, &mut rng).delay_nanos().unwrap();
/// assert!((250_000_000..=750_000_000).contains(&d));
/// ```
pub const CENKALTI: Policy = Policy::new(Schedule::exponential_clamped_nanos(
    500_000_000,
    Ratio::THREE_HALVES,
    60 * SECOND,
))
.with_jitter(Jitter::Factor(Fraction::HALF))
.with_stop(Stop::NEVER.with_max_elapsed_nanos(15 * 60 * SECOND));

/// The largest `maxAttempts` gRPC honours: larger values are treated as 5.
pub const GRPC_MAX_ATTEMPTS_CAP: u32 = 5;

/// A gRPC `retryPolicy` (gRFC A6): `maxAttempts` (the original RPC included; at least
/// 2, values above 5 treated as 5), `initialBackoff`, `maxBackoff` and
/// `backoffMultiplier` (all greater than zero). The `n`-th retry waits
/// `min(initialBackoff · backoffMultiplier^n, maxBackoff) · U(0.8, 1.2)`, the jitter of
/// grpc-go and grpc-core. (The gRFC's text writes the draw as `random(0, ...)`; the
/// implementations use ±20 %.)
///
/// The policy honours the server's answers ([`Policy::with_server_answers`]): a
/// `grpc-retry-pushback-ms` handed in as a
/// [`ServerAnswer::Pushback`](crate::ServerAnswer::Pushback) replaces the next delay
/// and restarts the backoff, a negative or unparseable one stops (gRFC A6, *Pushback*).
///
/// ```
/// use backoff_core::{Ratio, policy::presets::grpc_retry};
/// use core::time::Duration;
/// let p = grpc_retry(10, Duration::from_millis(100), Duration::from_secs(1), Ratio::TWO).unwrap();
/// assert_eq!(p.stop().max_attempts(), 5);
/// assert!(p.honours_server_answers());
/// assert!(grpc_retry(1, Duration::from_millis(100), Duration::from_secs(1), Ratio::TWO).is_err());
/// ```
///
/// # Errors
///
/// [`ConfigErrorKind::OutOfRange`]: `max_attempts < 2`, a zero backoff or multiplier,
/// `initial > max`.
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
        .with_jitter(Jitter::Factor(Fraction::ONE_FIFTH))
        .with_stop(Stop::NEVER.with_max_retries(attempts.saturating_sub(1)))
        .with_server_answers(true))
}

/// gRPC connection backoff (gRPC's `connection-backoff.md`): `INITIAL_BACKOFF` 1 s,
/// `MULTIPLIER` 1.6, `JITTER` 0.2, `MAX_BACKOFF` 120 s.
///
/// The first wait is exactly `INITIAL_BACKOFF` (the algorithm sets
/// `current_deadline = now() + INITIAL_BACKOFF` before the first attempt, with no
/// jitter); each later one is `min(backoff · 1.6, 120 s)` with a uniform ±20 % added:
/// 1 s, then 1.6, 2.56, 4.096, ... s ± 20 %. A channel never gives up reconnecting, so
/// there is no stop rule. The delays are measured between the *starts* of consecutive
/// attempts, as in the gRFC (`SleepUntil(current_deadline)`): a caller that measures
/// from the failure subtracts the attempt's own duration. Each attempt gets a
/// connect timeout of at least [`GRPC_MIN_CONNECT_TIMEOUT`].
///
/// ```
/// use backoff_core::{RetryState, policy::presets::GRPC_CONNECTION_BACKOFF};
/// use rand_core::SeedableRng;
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(9);
/// let mut st = RetryState::new();
/// assert_eq!(st.on_failure(&GRPC_CONNECTION_BACKOFF, 0, &mut rng).delay_nanos(), Some(1_000_000_000));
/// let second = st.on_failure(&GRPC_CONNECTION_BACKOFF, 0, &mut rng).delay_nanos().unwrap();
/// assert!((1_280_000_000..=1_920_000_000).contains(&second));
/// ```
pub const GRPC_CONNECTION_BACKOFF: Policy = Policy::new(Schedule::exponential_clamped_nanos(
    SECOND,
    Ratio::EIGHT_FIFTHS,
    120 * SECOND,
))
.with_jitter(Jitter::Factor(Fraction::ONE_FIFTH))
.with_first_delay_unjittered();

/// gRPC connection backoff's `MIN_CONNECT_TIMEOUT`: every connection attempt may take at
/// least this long (`TryConnect(Max(current_deadline, now() + MIN_CONNECT_TIMEOUT))`).
pub const GRPC_MIN_CONNECT_TIMEOUT: Duration = Duration::from_secs(20);

/// Celery's defaults for a task with `retry_backoff=True`: factor 1 s,
/// `retry_backoff_max` 600 s, `retry_jitter` True, `max_retries` 3.
pub const CELERY_DEFAULT: Policy = celery_policy(1, 600, true, 3);

/// Celery `retry_backoff`: the `n`-th retry (`n = 0` first) waits
/// `min(factor · 2^n, retry_backoff_max)` seconds, or with `retry_jitter` a uniform
/// draw in `[0, that]` (full jitter); at most `max_retries` retries. A factor above the
/// maximum is capped from the first retry on, as Celery's `min(maximum, factor · 2^n)`
/// does.
///
/// ```
/// use backoff_core::policy::presets;
/// use rand_core::SeedableRng;
/// let p = presets::celery(5, 600, false, 10).unwrap();
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
/// let secs: Vec<u64> = (1..=9).map(|f| p.decide(f, 0, 0, &mut rng).delay_nanos().unwrap() / 1_000_000_000).collect();
/// assert_eq!(secs, [5, 10, 20, 40, 80, 160, 320, 600, 600]);
/// assert!(presets::celery(0, 600, false, 10).is_err());
/// ```
///
/// # Errors
///
/// [`ConfigErrorKind::OutOfRange`] for `factor_secs = 0`: in Celery `retry_backoff=0`
/// is false and turns exponential backoff off (a fixed `default_retry_delay` is used
/// instead, which is [`Schedule::constant`]).
pub const fn celery(
    factor_secs: u32,
    retry_backoff_max_secs: u32,
    retry_jitter: bool,
    max_retries: u32,
) -> Result<Policy, ConfigError> {
    if factor_secs == 0 {
        return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
    }
    Ok(celery_policy(
        factor_secs,
        retry_backoff_max_secs,
        retry_jitter,
        max_retries,
    ))
}

const fn celery_policy(
    factor_secs: u32,
    retry_backoff_max_secs: u32,
    retry_jitter: bool,
    max_retries: u32,
) -> Policy {
    let max = (retry_backoff_max_secs as u64).saturating_mul(SECOND);
    let initial = (factor_secs as u64).saturating_mul(SECOND);
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
/// let p = presets::APUE_CONNECT_RETRY;
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(0);
/// let mut st = RetryState::new();
/// let secs: Vec<u64> = core::iter::from_fn(|| st.on_failure(&p, 0, &mut rng).delay_nanos())
///     .map(|ns| ns / 1_000_000_000)
///     .collect();
/// assert_eq!(secs, [1, 2, 4, 8, 16, 32, 64]);
/// ```
pub const APUE_CONNECT_RETRY: Policy = Policy::new(Schedule::exponential_clamped_nanos(
    SECOND,
    Ratio::TWO,
    64 * SECOND,
))
.with_stop(Stop::NEVER.with_max_retries(7));

/// The AWS SDKs' default `max_attempts` in their "standard" retry mode (the first
/// attempt included): a documented stop rule to pair with the AWS jitter presets.
pub const AWS_SDK_MAX_ATTEMPTS: u32 = 3;

/// The schedule and stop rule shared by the AWS presets.
const fn aws(
    max_attempts: u32,
    base: Duration,
    cap: Duration,
    multiplier: Ratio,
    jitter: Jitter,
) -> Result<Policy, ConfigError> {
    if base.is_zero() {
        return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
    }
    let stop = match Stop::NEVER.with_max_attempts(max_attempts) {
        Ok(s) => s,
        Err(e) => return Err(e),
    };
    match Schedule::exponential(base, multiplier, cap) {
        Ok(s) => Ok(Policy::new(s).with_jitter(jitter).with_stop(stop)),
        Err(e) => Err(e),
    }
}

/// AWS "full jitter": `U(0, min(cap, base · 2^attempt))`, where the post's `attempt`
/// is the failure count minus one, and at most `max_attempts` attempts (the first
/// included; [`AWS_SDK_MAX_ATTEMPTS`] is the SDKs' default).
///
/// ```
/// use backoff_core::policy::presets;
/// use core::time::Duration;
/// use rand_core::SeedableRng;
/// let (base, cap) = (Duration::from_millis(10), Duration::from_secs(1));
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(0);
/// let full = presets::aws_full_jitter(5, base, cap).unwrap();
/// let equal = presets::aws_equal_jitter(5, base, cap).unwrap();
/// let deco = presets::aws_decorrelated_jitter(5, base, cap).unwrap();
/// // After the third failure: t = min(1 s, 10 ms · 2^2) = 40 ms.
/// assert!(full.decide(3, 0, 0, &mut rng).delay_nanos().unwrap() <= 40_000_000);
/// assert!(equal.decide(3, 0, 0, &mut rng).delay_nanos().unwrap() >= 20_000_000);
/// // Decorrelated: from a previous sleep of 50 ms, U(10 ms, 150 ms).
/// let d = deco.decide(3, 50_000_000, 0, &mut rng).delay_nanos().unwrap();
/// assert!((10_000_000..=150_000_000).contains(&d));
/// // The fifth failure is the last attempt: give up.
/// assert_eq!(full.decide(5, 0, 0, &mut rng).delay_nanos(), None);
/// ```
///
/// # Errors
///
/// [`ConfigErrorKind::ZeroAttemptLimit`] for `max_attempts = 0`;
/// [`ConfigErrorKind::OutOfRange`] for a zero `base` or `base > cap`.
pub const fn aws_full_jitter(
    max_attempts: u32,
    base: Duration,
    cap: Duration,
) -> Result<Policy, ConfigError> {
    aws(max_attempts, base, cap, Ratio::TWO, Jitter::Full)
}

/// AWS "equal jitter": `t/2 + U(0, t/2)` with `t = min(cap, base · 2^attempt)`, at most
/// `max_attempts` attempts.
///
/// # Errors
///
/// As [`aws_full_jitter`].
pub const fn aws_equal_jitter(
    max_attempts: u32,
    base: Duration,
    cap: Duration,
) -> Result<Policy, ConfigError> {
    aws(max_attempts, base, cap, Ratio::TWO, Jitter::Equal)
}

/// AWS "decorrelated jitter": `sleep = min(cap, U(base, 3 · sleep))`, starting from
/// `sleep = base`, at most `max_attempts` attempts.
///
/// # Errors
///
/// As [`aws_full_jitter`].
pub const fn aws_decorrelated_jitter(
    max_attempts: u32,
    base: Duration,
    cap: Duration,
) -> Result<Policy, ConfigError> {
    aws(max_attempts, base, cap, Ratio::ONE, Jitter::Decorrelated)
}

/// Google Cloud's truncated exponential backoff: wait
/// `min(2^n s + random_number_milliseconds, maximum_backoff)` with the random part
/// uniform up to 1000 ms and `maximum_backoff` typically 32 or 64 s, for at most
/// `max_attempts` attempts (the first included). Google's page says to "continue
/// waiting and retrying up to some maximum number of retries" without a number, so the
/// caller gives it. A `maximum_backoff` below 1 s caps every delay, the first included.
///
/// ```
/// use backoff_core::policy::presets;
/// use core::time::Duration;
/// use rand_core::SeedableRng;
/// let p = presets::google_cloud(10, Duration::from_secs(32)).unwrap();
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(0);
/// let d = p.decide(3, 0, 0, &mut rng).delay_nanos().unwrap(); // 4 s + up to 1 s
/// assert!((4_000_000_000..=5_000_000_000).contains(&d));
/// assert_eq!(p.decide(9, 0, 0, &mut rng).delay_nanos(), Some(32_000_000_000));
/// assert_eq!(p.decide(10, 0, 0, &mut rng).delay_nanos(), None); // the tenth attempt was the last
/// ```
///
/// # Errors
///
/// [`ConfigErrorKind::ZeroAttemptLimit`] for `max_attempts = 0`.
pub const fn google_cloud(
    max_attempts: u32,
    maximum_backoff: Duration,
) -> Result<Policy, ConfigError> {
    let stop = match Stop::NEVER.with_max_attempts(max_attempts) {
        Ok(s) => s,
        Err(e) => return Err(e),
    };
    let max = duration_to_nanos(maximum_backoff);
    let initial = if max < SECOND { max } else { SECOND };
    Ok(Policy::new(Schedule::exponential_clamped_nanos(
        initial,
        Ratio::TWO,
        max,
    ))
    .with_jitter(Jitter::Additive {
        max_ns: 1_000_000_000,
    })
    .with_ceiling_nanos(max)
    .with_stop(stop))
}
