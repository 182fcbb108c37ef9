//! The measured backoff after the c-th collision of a frame, beside theory.

use serde::Serialize;

/// Collision counts tracked individually; larger ones share the last entry.
pub const MAX_TRACKED: usize = 64;

/// Sums of the backoffs (slots) drawn after the c-th collision, c = 1..=64.
#[derive(Clone, Debug)]
pub struct BackoffStats {
    n: Vec<u64>,
    sum: Vec<u64>,
    sum_sq: Vec<u128>,
}

impl Default for BackoffStats {
    fn default() -> Self {
        Self::new()
    }
}

/// Mean backoff after c collisions, with its standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BackoffRow {
    /// c.
    pub collisions: u32,
    /// Backoffs drawn after a c-th collision.
    pub draws: u64,
    /// Their mean, slots.
    pub mean_slots: f64,
    /// Standard error of the mean, slots (sample s.d. / √n).
    pub std_error: f64,
    /// The algorithm's expected value, slots (`E(c) = (2^min(c,10) − 1)/2` for BEB).
    pub expected_slots: f64,
}

impl BackoffStats {
    /// Empty.
    pub fn new() -> Self {
        Self {
            n: vec![0; MAX_TRACKED + 1],
            sum: vec![0; MAX_TRACKED + 1],
            sum_sq: vec![0; MAX_TRACKED + 1],
        }
    }

    /// A backoff of `slots` after the `c`-th collision.
    #[inline]
    pub fn record(&mut self, c: u32, slots: u32) {
        let i = (c as usize).min(MAX_TRACKED);
        if let (Some(n), Some(s), Some(q)) = (
            self.n.get_mut(i),
            self.sum.get_mut(i),
            self.sum_sq.get_mut(i),
        ) {
            *n += 1;
            *s += u64::from(slots);
            *q += u128::from(slots) * u128::from(slots);
        }
    }

    /// Rows for c = 1..=`upto`, with `expected(c)` beside each.
    pub fn rows(&self, upto: u32, expected: impl Fn(u32) -> f64) -> Vec<BackoffRow> {
        (1..=upto.min(MAX_TRACKED as u32))
            .map(|c| {
                let i = c as usize;
                let n = self.n[i];
                let (mean, se) = if n == 0 {
                    (0.0, 0.0)
                } else {
                    let nf = n as f64;
                    let mean = self.sum[i] as f64 / nf;
                    let var = if n > 1 {
                        ((self.sum_sq[i] as f64 - self.sum[i] as f64 * mean) / (nf - 1.0)).max(0.0)
                    } else {
                        0.0
                    };
                    (mean, (var / nf).sqrt())
                };
                BackoffRow {
                    collisions: c,
                    draws: n,
                    mean_slots: mean,
                    std_error: se,
                    expected_slots: expected(c),
                }
            })
            .collect()
    }
}
