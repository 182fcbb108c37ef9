//! A log-linear histogram of delays ([`Time`]).
//!
//! Values below 128 have a bucket each; above, each power of two is split into 128
//! buckets, so a reported percentile is within 1/256 (0.4 %) of a value actually seen.
//! Count, sum, minimum and maximum are exact.
//!
//! ```
//! use sim_kit::stats::Histogram;
//! use sim_kit::time::Time;
//! let mut h = Histogram::new();
//! for v in 1..=1000u64 { h.record(Time::from_ns(v)); }
//! let p50 = h.percentile(0.5).as_ps();
//! assert!((p50 as f64 - 500_000.0).abs() / 500_000.0 < 0.005);
//! assert_eq!(h.max(), Time::from_us(1));
//! assert_eq!(h.mean_ps(), 500_500.0);
//! ```

use serde::Serialize;

use crate::time::{PS_PER_US, Time};

use super::log_linear::{self, Moments};

const SUB_BITS: u32 = 7;
const SUB: usize = 1 << SUB_BITS;
const BUCKETS: usize = SUB + (64 - SUB_BITS as usize) * SUB;

/// A streaming histogram.
#[derive(Clone, Debug)]
pub struct Histogram {
    counts: Vec<u64>,
    moments: Moments,
}

impl Default for Histogram {
    fn default() -> Self {
        Self::new()
    }
}

fn bucket(v: u64) -> usize {
    log_linear::bucket(v, SUB_BITS)
}

/// The midpoint of bucket `b`.
fn value_of(b: usize) -> u64 {
    log_linear::value_of(b, SUB_BITS)
}

impl Histogram {
    /// An empty histogram.
    pub fn new() -> Self {
        Self {
            counts: vec![0; BUCKETS],
            moments: Moments::default(),
        }
    }

    /// Record one delay.
    #[inline]
    pub fn record(&mut self, d: Time) {
        let v = d.as_ps();
        if let Some(c) = self.counts.get_mut(bucket(v)) {
            *c += 1;
        }
        self.moments.record(v);
    }

    /// Values recorded.
    pub fn count(&self) -> u64 {
        self.moments.count
    }

    /// The exact mean in picoseconds (0 if empty).
    pub fn mean_ps(&self) -> f64 {
        self.moments.mean()
    }

    /// The exact maximum (zero if empty).
    pub fn max(&self) -> Time {
        Time::from_ps(self.moments.max)
    }

    /// The `q`-quantile (`0 < q <= 1`), nearest-rank, to within 0.4 %; never above the
    /// maximum. 0 if empty.
    pub fn percentile(&self, q: f64) -> Time {
        Time::from_ps(self.percentile_ps(q))
    }

    fn percentile_ps(&self, q: f64) -> u64 {
        self.moments
            .percentile(q, self.counts.iter().copied(), value_of)
    }

    /// Mean, p50, p95, p99 and max in microseconds; each undefined (NaN) when
    /// nothing was recorded.
    pub fn summary_us(&self) -> Summary {
        let empty = self.moments.count == 0;
        let us = |v: f64| {
            if empty {
                f64::NAN
            } else {
                v / PS_PER_US as f64
            }
        };
        Summary {
            count: self.moments.count,
            mean_us: us(self.mean_ps()),
            p50_us: us(self.percentile_ps(0.50) as f64),
            p95_us: us(self.percentile_ps(0.95) as f64),
            p99_us: us(self.percentile_ps(0.99) as f64),
            max_us: us(self.moments.max as f64),
        }
    }
}

/// A delay distribution, microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Frames measured.
    pub count: u64,
    /// Mean.
    pub mean_us: f64,
    /// Median.
    pub p50_us: f64,
    /// 95th percentile.
    pub p95_us: f64,
    /// 99th percentile.
    pub p99_us: f64,
    /// Maximum.
    pub max_us: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_monotone_and_tight() {
        let mut prev = 0;
        let mut v = 0u64;
        while v < u64::MAX / 3 {
            let b = bucket(v);
            assert!(b >= prev);
            prev = b;
            let mid = value_of(b);
            assert!(
                mid.abs_diff(v) as f64 <= v as f64 / 128.0 + 1.0,
                "{v} {mid}"
            );
            v = v + v / 4 + 1;
        }
        assert!(bucket(u64::MAX) < BUCKETS);
    }
}
