//! What [`Histogram`](super::Histogram) and [`CompactHistogram`](super::CompactHistogram)
//! share: log-linear buckets (values below `2^sub_bits` one each, then every power
//! of two split into `2^sub_bits` equal buckets), the exact count, sum and maximum,
//! and the nearest-rank percentile over bucket counts.

/// The bucket of `v` with `2^sub_bits` buckets per power of two.
#[inline]
pub(super) fn bucket(v: u64, sub_bits: u32) -> usize {
    let sub = 1u64 << sub_bits;
    if v < sub {
        return v as usize;
    }
    let e = 63 - v.leading_zeros();
    let m = (v >> (e - sub_bits)) - sub;
    (sub + u64::from(e - sub_bits) * sub + m) as usize
}

/// The midpoint of bucket `b` (see [`bucket`]).
pub(super) fn value_of(b: usize, sub_bits: u32) -> u64 {
    let sub = 1usize << sub_bits;
    if b < sub {
        return b as u64;
    }
    let e = ((b - sub) / sub) as u32 + sub_bits;
    let m = ((b - sub) % sub) as u64;
    let lo = ((sub as u64) + m) << (e - sub_bits);
    let width = 1u64 << (e - sub_bits);
    lo + (width - 1) / 2
}

/// Exact count, sum and maximum of the values recorded.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Moments {
    pub(super) count: u64,
    pub(super) sum: u128,
    pub(super) max: u64,
}

impl Moments {
    #[inline]
    pub(super) fn record(&mut self, v: u64) {
        self.count += 1;
        self.sum += u128::from(v);
        self.max = self.max.max(v);
    }

    /// The exact mean (0 if empty).
    pub(super) fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// The nearest-rank `q`-quantile of the values whose bucket counts are `counts`
    /// (in order of value, bucket `i` of value `value(i)`): 0 if empty, never above
    /// the maximum.
    pub(super) fn percentile(
        &self,
        q: f64,
        counts: impl Iterator<Item = u64>,
        value: impl Fn(usize) -> u64,
    ) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (b, c) in counts.enumerate() {
            seen += c;
            if seen >= rank {
                return value(b).min(self.max);
            }
        }
        self.max
    }
}
