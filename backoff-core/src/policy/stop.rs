//! Stopping rules: when to give up instead of retrying.

use core::num::NonZeroU32;
use core::time::Duration;

use crate::time::duration_to_nanos;

/// Why a policy gave up.
///
/// `#[non_exhaustive]`: each variant but [`StopReason::ServerRefused`] is one of
/// [`Stop`]'s limits, and new limits may be added, so a `match` outside this crate needs a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum StopReason {
    /// The maximum number of attempts (the first one included) has been made.
    MaxAttempts,
    /// The next delay would be longer than the maximum single delay.
    DelayTooLong,
    /// Waiting the next delay would take the elapsed time past the maximum.
    MaxElapsed,
    /// The server said not to retry ([`ServerAnswer::DoNotRetry`](crate::ServerAnswer::DoNotRetry),
    /// to a policy that honours server answers): gRFC A6's negative or unparseable
    /// pushback, a non-retryable status, an overload refusal.
    ServerRefused,
}

/// The limits after which a policy gives up. Each is off until set.
///
/// * **Attempts** count every call of the operation, **the first one included**:
///   `max_attempts = 1` never retries, `max_attempts = 3` allows two retries.
///   [`Stop::with_max_retries`] takes the number of retries instead (`r` retries =
///   `r + 1` attempts). Only the first can fail, and that is deliberate, not an
///   inconsistency: zero retries is a valid limit (try once), zero attempts is not (the
///   operation would never run), so [`Stop::with_max_attempts`] rejects 0 with an error
///   while every `u32` is a valid retry count. ([`Stop::with_max_attempts_nonzero`]
///   takes a `NonZeroU32` and cannot fail.) `u32::MAX` retries saturates to `u32::MAX`
///   attempts, which is the same as no limit.
/// * **Maximum single delay**: give up rather than wait longer than this once.
/// * **Maximum elapsed time**: give up when `elapsed + next delay` would exceed it
///   (cenkalti/backoff's rule); the caller supplies `elapsed`, measured from the start
///   of the first attempt on whatever clock it uses (real or simulated).
///
/// ```
/// use backoff_core::{Stop, StopReason};
/// use core::time::Duration;
/// let stop = Stop::NEVER.with_max_attempts(3).unwrap().with_max_elapsed(Duration::from_secs(10));
/// assert_eq!(stop.check(2, 1_000, 0), None); // a third attempt is allowed
/// assert_eq!(stop.check(3, 1_000, 0), Some(StopReason::MaxAttempts));
/// assert_eq!(stop.check(1, 2_000_000_000, 9_000_000_000), Some(StopReason::MaxElapsed));
/// assert_eq!(Stop::NEVER.with_max_retries(2).max_attempts(), 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Stop {
    max_attempts: u32,
    max_delay_ns: u64,
    max_elapsed_ns: u64,
}

impl Default for Stop {
    fn default() -> Self {
        Self::NEVER
    }
}

impl Stop {
    /// No limit at all: retry forever.
    pub const NEVER: Self = Self {
        max_attempts: u32::MAX,
        max_delay_ns: u64::MAX,
        max_elapsed_ns: u64::MAX,
    };

    /// Give up after `attempts` attempts, the first one included.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::ZeroAttemptLimit`](crate::ConfigErrorKind::ZeroAttemptLimit)
    /// for zero attempts.
    pub const fn with_max_attempts(self, attempts: u32) -> Result<Self, crate::ConfigError> {
        match NonZeroU32::new(attempts) {
            Some(n) => Ok(self.with_max_attempts_nonzero(n)),
            None => Err(crate::ConfigError::new(
                crate::ConfigErrorKind::ZeroAttemptLimit,
            )),
        }
    }

    /// [`Stop::with_max_attempts`] without the error case.
    pub const fn with_max_attempts_nonzero(mut self, attempts: NonZeroU32) -> Self {
        self.max_attempts = attempts.get();
        self
    }

    /// Give up after `retries` retries, i.e. `retries + 1` attempts (saturating).
    pub const fn with_max_retries(mut self, retries: u32) -> Self {
        self.max_attempts = retries.saturating_add(1);
        self
    }

    /// Give up rather than wait longer than `max` once.
    pub const fn with_max_delay(self, max: Duration) -> Self {
        self.with_max_delay_nanos(duration_to_nanos(max))
    }

    /// [`Stop::with_max_delay`] in nanoseconds.
    pub const fn with_max_delay_nanos(mut self, max_ns: u64) -> Self {
        self.max_delay_ns = max_ns;
        self
    }

    /// Give up when the elapsed time plus the next delay would exceed `max`.
    pub const fn with_max_elapsed(self, max: Duration) -> Self {
        self.with_max_elapsed_nanos(duration_to_nanos(max))
    }

    /// [`Stop::with_max_elapsed`] in nanoseconds.
    pub const fn with_max_elapsed_nanos(mut self, max_ns: u64) -> Self {
        self.max_elapsed_ns = max_ns;
        self
    }

    /// The attempt limit, the first attempt included (`u32::MAX` when unlimited).
    pub const fn max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// The longest single delay accepted, in nanoseconds (`u64::MAX` when unlimited).
    pub const fn max_delay_nanos(&self) -> u64 {
        self.max_delay_ns
    }

    /// The elapsed-time limit, in nanoseconds (`u64::MAX` when unlimited).
    pub const fn max_elapsed_nanos(&self) -> u64 {
        self.max_elapsed_ns
    }

    /// The longest single delay accepted (`u64::MAX` ns when unlimited).
    pub const fn max_delay(&self) -> Duration {
        Duration::from_nanos(self.max_delay_ns)
    }

    /// The elapsed-time limit (`u64::MAX` ns when unlimited).
    pub const fn max_elapsed(&self) -> Duration {
        Duration::from_nanos(self.max_elapsed_ns)
    }

    /// Whether `failures` failed attempts exhaust the attempt limit; checked before a
    /// delay is drawn.
    pub const fn attempts_exhausted(&self, failures: u32) -> bool {
        failures >= self.max_attempts
    }

    /// The rule: after `failures` failed attempts, `elapsed_ns` after the first began,
    /// may we wait `delay_ns` and try again? `None` means yes.
    pub const fn check(&self, failures: u32, delay_ns: u64, elapsed_ns: u64) -> Option<StopReason> {
        if self.attempts_exhausted(failures) {
            Some(StopReason::MaxAttempts)
        } else if delay_ns > self.max_delay_ns {
            Some(StopReason::DelayTooLong)
        } else if elapsed_ns.saturating_add(delay_ns) > self.max_elapsed_ns {
            Some(StopReason::MaxElapsed)
        } else {
            None
        }
    }
}
