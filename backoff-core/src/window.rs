//! A sliding time window of successes and failures, in `N` fixed buckets (no `alloc`).
//!
//! The window covers the last `N` buckets of `bucket_ns` each, the current one
//! included; older outcomes drop out as time moves on. Time is passed in by the caller
//! and expected not to go backwards; if it does, outcomes older than what a bucket
//! already holds are ignored, and nothing panics.

use crate::error::{ConfigError, ConfigErrorKind};

/// Successes and failures seen in a window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Counts {
    /// Calls that succeeded.
    pub successes: u64,
    /// Calls that failed.
    pub failures: u64,
}

impl Counts {
    /// All calls.
    pub const fn total(&self) -> u64 {
        self.successes.saturating_add(self.failures)
    }

    /// Whether `failures / total` is at least `num / den` (false when there are no
    /// failures, so a zero threshold means "any failure").
    pub const fn failure_ratio_at_least(&self, num: u32, den: u32) -> bool {
        self.failures > 0
            && (self.failures as u128).saturating_mul(den as u128)
                >= (self.total() as u128).saturating_mul(num as u128)
    }

    /// Whether `failures / total` is above `num / den`.
    pub const fn failure_ratio_above(&self, num: u32, den: u32) -> bool {
        (self.failures as u128).saturating_mul(den as u128)
            > (self.total() as u128).saturating_mul(num as u128)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Bucket {
    /// `now / bucket_ns + 1` of the bucket's period; 0 = never used.
    epoch: u64,
    successes: u32,
    failures: u32,
}

/// Outcomes over the last `N` periods of `bucket_ns` nanoseconds.
///
/// ```
/// use backoff_core::window::OutcomeWindow;
/// let mut w = OutcomeWindow::<10>::new(10_000_000_000).unwrap(); // 10 s in 1 s buckets
/// w.record(0, false);
/// w.record(500_000_000, true);
/// assert_eq!(w.counts(9_999_999_999).total(), 2);
/// assert_eq!(w.counts(10_000_000_000).total(), 0); // the first second has dropped out
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct OutcomeWindow<const N: usize> {
    bucket_ns: u64,
    buckets: [Bucket; N],
}

impl<const N: usize> OutcomeWindow<N> {
    /// A window of `window_ns` split into `N` buckets. Rejected with
    /// [`ConfigErrorKind::OutOfRange`] when `N` is 0 or a bucket would be shorter than
    /// one nanosecond.
    pub const fn new(window_ns: u64) -> Result<Self, ConfigError> {
        let bucket_ns = match window_ns.checked_div(N as u64) {
            Some(b) if b > 0 => b,
            _ => return Err(ConfigError::new(ConfigErrorKind::OutOfRange)),
        };
        Ok(Self {
            bucket_ns,
            buckets: [Bucket {
                epoch: 0,
                successes: 0,
                failures: 0,
            }; N],
        })
    }

    /// The length of one bucket in nanoseconds (the window is `N` of them).
    pub const fn bucket_nanos(&self) -> u64 {
        self.bucket_ns
    }

    #[inline]
    fn epoch(&self, now_ns: u64) -> u64 {
        now_ns
            .checked_div(self.bucket_ns)
            .unwrap_or(0)
            .saturating_add(1)
    }

    /// Record one outcome at `now_ns`.
    #[inline]
    pub fn record(&mut self, now_ns: u64, success: bool) {
        let epoch = self.epoch(now_ns);
        let index = usize::try_from(epoch.checked_rem(N as u64).unwrap_or(0)).unwrap_or(0);
        let Some(b) = self.buckets.get_mut(index) else {
            return;
        };
        if b.epoch != epoch {
            if b.epoch > epoch {
                return; // older than what this bucket already holds
            }
            *b = Bucket {
                epoch,
                successes: 0,
                failures: 0,
            };
        }
        if success {
            b.successes = b.successes.saturating_add(1);
        } else {
            b.failures = b.failures.saturating_add(1);
        }
    }

    /// The outcomes inside the window that ends at `now_ns`.
    #[inline]
    pub fn counts(&self, now_ns: u64) -> Counts {
        let current = self.epoch(now_ns);
        let oldest = current.saturating_sub(N as u64); // exclusive
        let mut c = Counts::default();
        for b in &self.buckets {
            if b.epoch > oldest && b.epoch <= current {
                c.successes = c.successes.saturating_add(u64::from(b.successes));
                c.failures = c.failures.saturating_add(u64::from(b.failures));
            }
        }
        c
    }

    /// Forget every outcome.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
    }
}
