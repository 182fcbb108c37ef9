//! Helpers shared by the `beb_*` test modules: RNGs that count or script their outputs,
//! and the chi-square goodness-of-fit statistic with its critical value.

use core::convert::Infallible;

use rand_core::{SeedableRng, TryRng};
use rand_xorshift::XorShiftRng;

/// A seeded xorshift generator: the one every statistical test uses.
pub fn rng(seed: u64) -> XorShiftRng {
    XorShiftRng::seed_from_u64(seed)
}

/// Wraps a generator and counts the words it hands out.
#[derive(Debug)]
pub struct CountingRng<R> {
    pub inner: R,
    pub u32_steps: u64,
    pub u64_steps: u64,
}

impl<R> CountingRng<R> {
    pub fn new(inner: R) -> Self {
        Self {
            inner,
            u32_steps: 0,
            u64_steps: 0,
        }
    }

    pub fn steps(&self) -> u64 {
        self.u32_steps + self.u64_steps
    }
}

impl<R: TryRng<Error = Infallible>> TryRng for CountingRng<R> {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.u32_steps += 1;
        self.inner.try_next_u32()
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.u64_steps += 1;
        self.inner.try_next_u64()
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.inner.try_fill_bytes(dst)
    }
}

/// Hands out a fixed list of words in order, then repeats it: lets a test choose the
/// exact bits a draw sees.
#[derive(Debug)]
pub struct ScriptedRng {
    words: Vec<u64>,
    next: usize,
}

impl ScriptedRng {
    pub fn new(words: &[u64]) -> Self {
        assert!(!words.is_empty());
        Self {
            words: words.to_vec(),
            next: 0,
        }
    }

    fn word(&mut self) -> u64 {
        let w = self.words[self.next % self.words.len()];
        self.next += 1;
        w
    }

    /// Words consumed so far.
    pub fn consumed(&self) -> usize {
        self.next
    }
}

impl TryRng for ScriptedRng {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.word() as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.word())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for b in dst {
            *b = self.word() as u8;
        }
        Ok(())
    }
}

/// Pearson's statistic `Σ (O - E)² / E` of `counts` against the uniform distribution
/// over `counts.len()` cells.
pub fn chi_square_uniform(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&o| {
            let d = o as f64 - expected;
            d * d / expected
        })
        .sum()
}

/// Pearson's statistic against arbitrary cell probabilities (they must sum to 1).
pub fn chi_square(counts: &[u64], probabilities: &[f64]) -> f64 {
    assert_eq!(counts.len(), probabilities.len());
    let total: u64 = counts.iter().sum();
    counts
        .iter()
        .zip(probabilities)
        .map(|(&o, &p)| {
            let e = total as f64 * p;
            let d = o as f64 - e;
            d * d / e
        })
        .sum()
}

/// The standard normal quantile for an upper tail of 0.001.
pub const Z_0_001: f64 = 3.090_232_306;

/// The chi-square critical value for `df` degrees of freedom at upper-tail probability
/// p = 0.001, by the Wilson–Hilferty cube-root normal approximation:
/// `df · (1 - 2/(9 df) + z · sqrt(2/(9 df)))³`.
///
/// It is within 0.1 % of the exact value from df ≈ 30 up, and errs high (conservative:
/// a sound sample is accepted a little more readily, never less) below: 3 % high at
/// df = 1. `wilson_hilferty_matches_published_table` checks it against the tables.
pub fn chi_square_critical_p001(df: usize) -> f64 {
    let df = df as f64;
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + Z_0_001 * a.sqrt()).powi(3)
}

/// A `Slots` value as a count of half slots (exact in `u128`).
pub fn half_slots(s: backoff_core::theory::Slots) -> u128 {
    2 * u128::from(s.floor()) + u128::from(s.has_half())
}
