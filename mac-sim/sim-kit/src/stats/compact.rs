//! A small log-linear histogram of delays for when there are many of them (one per
//! station): 32 buckets per power of two, allocated only between the smallest and the
//! largest value seen.
//!
//! [`Histogram`](super::Histogram) keeps 7 424 fixed buckets (58 KiB) for percentiles
//! within 0.4 %; this one trades precision for size: a percentile is within 1/64
//! (1.6 %) of a value actually seen, and it holds 4 bytes per bucket from the lowest
//! to the highest bucket used, so `4 × 32 × log2(max / min)` bytes (about 1.8 KiB for
//! delays from 50 µs to 1 s) and never more than 8 KiB. Count, sum and maximum are
//! exact.
//!
//! ```
//! use sim_kit::stats::CompactHistogram;
//! use sim_kit::time::Time;
//! let mut h = CompactHistogram::new();
//! for v in 1..=1000u64 { h.record(Time::from_us(v)); }
//! let p99 = h.percentile(0.99).as_ps() as f64;
//! assert!((p99 - 990e6).abs() / 990e6 < 1.0 / 64.0);
//! assert_eq!(h.mean_ps(), 500.5e6);
//! assert!(h.buckets() <= 32 * 10 + 1);
//! ```

use super::log_linear::{self, Moments};
use crate::time::Time;

const SUB_BITS: u32 = 5;

/// The bucket of `v`: values below 32 have one each; above, each power of two is
/// split into 32 equal buckets.
fn bucket(v: u64) -> u32 {
    log_linear::bucket(v, SUB_BITS) as u32
}

/// The midpoint of bucket `b`.
fn value_of(b: u32) -> u64 {
    log_linear::value_of(b as usize, SUB_BITS)
}

/// A streaming histogram of delays sized by the spread of its values (see the module
/// docs).
#[derive(Clone, Debug, Default)]
pub struct CompactHistogram {
    /// The bucket of `counts[0]`.
    first: u32,
    /// Counts of buckets `first..first + counts.len()` (saturating: a bucket would
    /// need 4 × 10⁹ values to fill).
    counts: Vec<u32>,
    moments: Moments,
}

impl CompactHistogram {
    /// An empty histogram (no buckets allocated).
    pub fn new() -> Self {
        Self::default()
    }

    /// Record one delay.
    #[inline]
    pub fn record(&mut self, d: Time) {
        let v = d.as_ps();
        let b = bucket(v);
        if self.counts.is_empty() {
            self.first = b;
            self.counts.push(0);
        } else if b < self.first {
            let grow = (self.first - b) as usize;
            self.counts.splice(0..0, std::iter::repeat_n(0, grow));
            self.first = b;
        }
        let i = (b - self.first) as usize;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] = self.counts[i].saturating_add(1);
        self.moments.record(v);
    }

    /// Values recorded.
    pub fn count(&self) -> u64 {
        self.moments.count
    }

    /// Buckets allocated (memory is 4 bytes each).
    pub fn buckets(&self) -> usize {
        self.counts.len()
    }

    /// The exact mean in picoseconds (0 if empty).
    pub fn mean_ps(&self) -> f64 {
        self.moments.mean()
    }

    /// The exact maximum (zero if empty).
    pub fn max(&self) -> Time {
        Time::from_ps(self.moments.max)
    }

    /// The `q`-quantile (`0 < q <= 1`), nearest-rank, to within 1.6 %; never above
    /// the maximum. Zero if empty.
    pub fn percentile(&self, q: f64) -> Time {
        Time::from_ps(
            self.moments
                .percentile(q, self.counts.iter().map(|&c| u64::from(c)), |i| {
                    value_of(self.first + i as u32)
                }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_round_trip_within_a_64th() {
        for v in [
            0u64,
            1,
            31,
            32,
            33,
            63,
            64,
            1000,
            51_200_000,
            1 << 40,
            u64::MAX,
        ] {
            let m = value_of(bucket(v));
            let err = (m as f64 - v as f64).abs();
            assert!(err <= v as f64 / 64.0 + 0.5, "{v} -> {m}");
        }
        // Buckets are in order of value.
        let mut last = 0;
        for v in (0..100_000u64).map(|i| i * 97) {
            let b = bucket(v);
            assert!(b >= last);
            last = b;
        }
    }

    #[test]
    fn grows_both_ways_and_stays_small() {
        let mut h = CompactHistogram::new();
        h.record(Time::from_ms(1));
        assert_eq!(h.buckets(), 1);
        h.record(Time::from_us(10));
        h.record(Time::from_ms(100));
        // 10 µs to 100 ms is log2(10⁴) ≈ 13.3 octaves: at most 14 × 32 + 1 buckets.
        assert!(h.buckets() <= 14 * 32 + 1, "{}", h.buckets());
        assert_eq!(h.count(), 3);
        let p = |q| h.percentile(q).as_ps() as f64;
        assert!((p(0.3) - 10e6).abs() <= 10e6 / 64.0);
        assert!((p(0.5) - 1e9).abs() <= 1e9 / 64.0);
        assert!((p(1.0) - 1e11).abs() <= 1e11 / 64.0 && p(1.0) <= 1e11);
        assert_eq!(h.max(), Time::from_ms(100));
        assert_eq!(CompactHistogram::new().percentile(0.99), Time::ZERO);
    }

    #[test]
    fn agrees_with_the_full_histogram_to_a_64th() {
        let mut full = super::super::Histogram::new();
        let mut small = CompactHistogram::new();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let d = Time::from_ps(50_000_000 + x % 200_000_000_000);
            full.record(d);
            small.record(d);
        }
        assert_eq!(full.mean_ps(), small.mean_ps());
        for q in [0.5, 0.9, 0.99] {
            let a = full.percentile(q).as_ps() as f64;
            let b = small.percentile(q).as_ps() as f64;
            assert!((a - b).abs() / a < 1.0 / 64.0 + 1.0 / 256.0, "{q}: {a} {b}");
        }
    }
}
