//! Deadline propagation: will one more attempt still finish in time?
//!
//! A request carries an absolute deadline (on the caller's clock, in nanoseconds). Before
//! a retry, the client asks whether `now + delay + the attempt's expected duration` is
//! still within it, and passes what is left on to the server as the attempt's own
//! timeout, so the server does not work on answers nobody will wait for.

use core::time::Duration;

use crate::time::duration_to_nanos;

/// An absolute deadline in nanoseconds on the caller's clock.
///
/// ```
/// use backoff_core::Deadline;
/// use core::time::Duration;
/// let d = Deadline::after(1_000, 10_000); // at t = 11 000 ns
/// assert!(d.allows_attempt(5_000, 2_000, 4_000)); // ends at 11 000: just in time
/// assert!(!d.allows_attempt(5_000, 2_000, 4_001));
/// assert_eq!(d.attempt_timeout_nanos(5_000, 2_000, 60_000), Some(4_000)); // propagate 4 µs
/// assert_eq!(d.attempt_timeout_nanos(11_000, 0, 60_000), None); // nothing left
/// assert_eq!(d.attempt_timeout_nanos(5_000, 0, 0), None); // a zero per-attempt timeout
/// assert_eq!(d.attempt_timeout(5_000, 2_000, 60_000), Some(Duration::from_micros(4)));
/// assert_eq!(d.remaining(6_000), Duration::from_micros(5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Deadline {
    at_ns: u64,
}

impl Deadline {
    /// No deadline (the end of `u64` time, 584 years).
    pub const NONE: Self = Self { at_ns: u64::MAX };

    /// The deadline at `at_ns`.
    pub const fn at(at_ns: u64) -> Self {
        Self { at_ns }
    }

    /// The deadline `budget_ns` after `now_ns` (saturating).
    pub const fn after(now_ns: u64, budget_ns: u64) -> Self {
        Self {
            at_ns: now_ns.saturating_add(budget_ns),
        }
    }

    /// [`Deadline::after`] with a [`Duration`].
    pub const fn after_duration(now_ns: u64, budget: Duration) -> Self {
        Self::after(now_ns, duration_to_nanos(budget))
    }

    /// When it expires, in nanoseconds.
    pub const fn at_nanos(&self) -> u64 {
        self.at_ns
    }

    /// Time left at `now_ns`, in nanoseconds (0 once expired).
    pub const fn remaining_nanos(&self, now_ns: u64) -> u64 {
        self.at_ns.saturating_sub(now_ns)
    }

    /// Time left at `now_ns` (zero once expired).
    pub const fn remaining(&self, now_ns: u64) -> Duration {
        Duration::from_nanos(self.remaining_nanos(now_ns))
    }

    /// Whether the deadline has passed at `now_ns` (the deadline instant itself counts
    /// as passed).
    pub const fn is_expired(&self, now_ns: u64) -> bool {
        now_ns >= self.at_ns
    }

    /// Can an attempt that starts after waiting `delay_ns` and takes `attempt_ns` end by
    /// the deadline? (`now + delay + attempt <= deadline`, without overflow.)
    pub const fn allows_attempt(&self, now_ns: u64, delay_ns: u64, attempt_ns: u64) -> bool {
        match now_ns.checked_add(delay_ns) {
            Some(start) => match start.checked_add(attempt_ns) {
                Some(end) => end <= self.at_ns,
                None => false,
            },
            None => false,
        }
    }

    /// The timeout to give an attempt that starts after waiting `delay_ns`, in
    /// nanoseconds: what is left of the deadline then, at most `per_attempt_ns`
    /// (`u64::MAX` for no per-attempt limit).
    ///
    /// Never `Some(0)`: `None` means no attempt should be made, because nothing is left
    /// of the deadline or because `per_attempt_ns` is zero (an attempt that must finish
    /// in no time cannot succeed; pass `u64::MAX`, not 0, for "no per-attempt limit").
    pub const fn attempt_timeout_nanos(
        &self,
        now_ns: u64,
        delay_ns: u64,
        per_attempt_ns: u64,
    ) -> Option<u64> {
        let left = self.remaining_nanos(now_ns.saturating_add(delay_ns));
        let timeout = if left < per_attempt_ns {
            left
        } else {
            per_attempt_ns
        };
        if timeout == 0 { None } else { Some(timeout) }
    }

    /// [`Deadline::attempt_timeout_nanos`] as a [`Duration`]: `None` under the same
    /// conditions, never `Some(Duration::ZERO)`.
    pub const fn attempt_timeout(
        &self,
        now_ns: u64,
        delay_ns: u64,
        per_attempt_ns: u64,
    ) -> Option<Duration> {
        match self.attempt_timeout_nanos(now_ns, delay_ns, per_attempt_ns) {
            Some(ns) => Some(Duration::from_nanos(ns)),
            None => None,
        }
    }
}
