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

/// Two sums per period of `bucket_ns`, over the last `N` periods: the storage of
/// [`OutcomeWindow`] (successes, failures) and of the TTL retry budget (deposits,
/// withdrawals).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct BucketRing<const N: usize> {
    bucket_ns: u64,
    buckets: [Bucket; N],
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Bucket {
    /// `now / bucket_ns + 1` of the bucket's period; 0 = never used.
    epoch: u64,
    sums: [u64; 2],
}

impl<const N: usize> BucketRing<N> {
    /// A ring of `N` buckets covering `window_ns`. `None` when `N` is 0 or a bucket
    /// would be shorter than one nanosecond.
    pub(crate) const fn new(window_ns: u64) -> Option<Self> {
        let bucket_ns = match window_ns.checked_div(N as u64) {
            Some(b) if b > 0 => b,
            _ => return None,
        };
        Some(Self {
            bucket_ns,
            buckets: [Bucket {
                epoch: 0,
                sums: [0, 0],
            }; N],
        })
    }

    pub(crate) const fn bucket_nanos(&self) -> u64 {
        self.bucket_ns
    }

    #[inline]
    fn epoch(&self, now_ns: u64) -> u64 {
        now_ns
            .checked_div(self.bucket_ns)
            .unwrap_or(0)
            .saturating_add(1)
    }

    /// Add `amounts` to the bucket of `now_ns` (saturating).
    #[inline]
    pub(crate) fn add(&mut self, now_ns: u64, amounts: [u64; 2]) {
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
                sums: [0, 0],
            };
        }
        for (sum, amount) in b.sums.iter_mut().zip(amounts) {
            *sum = sum.saturating_add(amount);
        }
    }

    /// The sums inside the window that ends at `now_ns`.
    #[inline]
    pub(crate) fn sums(&self, now_ns: u64) -> [u64; 2] {
        let current = self.epoch(now_ns);
        let oldest = current.saturating_sub(N as u64); // exclusive
        let mut total = [0u64; 2];
        for b in &self.buckets {
            if b.epoch > oldest && b.epoch <= current {
                for (t, s) in total.iter_mut().zip(b.sums) {
                    *t = t.saturating_add(s);
                }
            }
        }
        total
    }

    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
    }
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
    ring: BucketRing<N>,
}

impl<const N: usize> OutcomeWindow<N> {
    /// A window of `window_ns` split into `N` buckets.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] when `N` is 0 or a bucket would be shorter than
    /// one nanosecond.
    pub const fn new(window_ns: u64) -> Result<Self, ConfigError> {
        match BucketRing::new(window_ns) {
            Some(ring) => Ok(Self { ring }),
            None => Err(ConfigError::new(ConfigErrorKind::OutOfRange)),
        }
    }

    /// The length of one bucket in nanoseconds (the window is `N` of them).
    pub const fn bucket_nanos(&self) -> u64 {
        self.ring.bucket_nanos()
    }

    /// Record one outcome at `now_ns`.
    #[inline]
    pub fn record(&mut self, now_ns: u64, success: bool) {
        let amounts = if success { [1, 0] } else { [0, 1] };
        self.ring.add(now_ns, amounts);
    }

    /// The outcomes inside the window that ends at `now_ns`.
    #[inline]
    pub fn counts(&self, now_ns: u64) -> Counts {
        let [successes, failures] = self.ring.sums(now_ns);
        Counts {
            successes,
            failures,
        }
    }

    /// Forget every outcome.
    pub fn clear(&mut self) {
        self.ring.clear();
    }
}
