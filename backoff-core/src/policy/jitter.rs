//! Jitter kinds: how a delay is randomized.

use rand_core::Rng;

use super::exponential::Schedule;
use super::ratio::{Fraction, Ratio};
use crate::error::ConfigError;
use crate::uniform::uniform_inclusive_u64;

/// A named way to randomize a delay, so that clients that failed together do not
/// retry together.
///
/// Every kind is a pure function of the un-jittered delay `d` (from the [`Schedule`]),
/// the previous delay (for decorrelated jitter) and an injected RNG. Draws are exact and
/// unbiased ([`crate::uniform`]), ranges are inclusive, and nothing overflows: sums
/// saturate at `u64::MAX` nanoseconds.
///
/// | kind | delay | range | mean |
/// |---|---|---|---|
/// | [`Jitter::None`] | `d` | `d` | `d` |
/// | [`Jitter::Full`] | `U(0, d)` | `[0, d]` | `d/2` |
/// | [`Jitter::Equal`] | `⌈d/2⌉ + U(0, ⌊d/2⌋)` | `[⌈d/2⌉, d]` | `3d/4` |
/// | [`Jitter::Decorrelated`] | `min(max, U(initial, 3·prev))` | `[initial, max]` | — |
/// | [`Jitter::Factor`]`(f)` | `U(d − ⌊fd⌋, d + ⌊fd⌋)` | `[d(1−f), d(1+f)]` | `d` |
/// | [`Jitter::Additive`]`{a}` | `d + U(0, a)` | `[d, d + a]` | `d + a/2` |
/// | [`Jitter::Normal`]`(j)` | `max(0, d + N(0, (jd)²))` | `[d − 6jd, d + 6jd]`, `≥ 0` | `d` if `j ≤ 1/6` |
/// | [`Jitter::AbsoluteNormal`]`{σ}` | `max(0, d + N(0, σ²))` | `[d − 6σ, d + 6σ]`, `≥ 0` | `d` if `σ ≤ d/6` |
///
/// `Normal` and `AbsoluteNormal` draw their variate as the sum of twelve 32-bit
/// uniforms minus their mean (the Irwin–Hall approximation of a normal deviate, not
/// an exact one): mean and variance are exact, the tails stop at `±6σ`, and it costs
/// six 64-bit RNG steps, no floating point.
///
/// ```
/// use backoff_core::{Fraction, Jitter, Schedule};
/// use rand_core::SeedableRng;
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(3);
/// let s = Schedule::constant_nanos(1_000);
/// let d = Jitter::Factor(Fraction::HALF).apply_nanos(1_000, 0, &s, &mut rng);
/// assert!((500..=1_500).contains(&d));
/// let d = Jitter::Additive { max_ns: 1_000_000_000 }.apply_nanos(2_000_000_000, 0, &s, &mut rng);
/// assert!((2_000_000_000..=3_000_000_000).contains(&d));
/// ```
///
/// `#[non_exhaustive]`: more published ways to randomize a delay may be added (0.2
/// added `Factor`), so a `match` outside this crate needs a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Jitter {
    /// No randomness: exactly `d`.
    None,
    /// "Full jitter": `U(0, d)`.
    Full,
    /// "Equal jitter": `⌈d/2⌉ + U(0, ⌊d/2⌋)`, never below half of `d`.
    Equal,
    /// "Decorrelated jitter": `min(max, U(initial, 3 · previous))`, where `initial` and
    /// `max` are the schedule's and `previous` is the last delay (the schedule's initial
    /// delay before the first retry). The schedule's multiplier is not used.
    Decorrelated,
    /// `d · U(1 − f, 1 + f)`: Go's cenkalti/backoff randomization factor (`f = 1/2`),
    /// gRPC's jitter factor `U(0.8, 1.2)` (`f = 1/5`). The factor is a [`Fraction`],
    /// so it is never above one.
    Factor(Fraction),
    /// `d + U(0, max_ns)`: "2^n seconds plus up to 1000 random milliseconds".
    Additive {
        /// The largest amount added, in nanoseconds.
        max_ns: u64,
    },
    /// `d + N(0, (j·d)²)` clamped at zero: the normal variate of the seed articles'
    /// pseudo-code, with standard deviation `j · d`.
    Normal(Ratio),
    /// `d + N(0, σ²)` clamped at zero, `σ` a fixed time: the absolute normal noise
    /// that service code commonly adds (`delay + random.gauss(0, sigma)`), whatever
    /// the delay. Its deviate is Irwin–Hall's approximation, as `Normal`'s.
    AbsoluteNormal {
        /// The standard deviation `σ`, in nanoseconds.
        sigma_ns: u64,
    },
}

impl Jitter {
    /// [`Jitter::Factor`] from a [`Ratio`], rejecting a factor above one with
    /// [`ConfigErrorKind::OutOfRange`](crate::ConfigErrorKind::OutOfRange).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`](crate::ConfigErrorKind::OutOfRange) when
    /// `factor > 1`.
    pub const fn proportional(factor: Ratio) -> Result<Self, ConfigError> {
        match Fraction::from_ratio(factor) {
            Ok(f) => Ok(Self::Factor(f)),
            Err(e) => Err(e),
        }
    }

    /// Randomize the un-jittered delay `base_ns` (from `schedule`), in nanoseconds;
    /// `prev_ns` is the previous delay returned (0 if none), used only by
    /// [`Jitter::Decorrelated`].
    #[inline]
    pub fn apply_nanos<R: Rng + ?Sized>(
        &self,
        base_ns: u64,
        prev_ns: u64,
        schedule: &Schedule,
        rng: &mut R,
    ) -> u64 {
        let d = base_ns;
        match *self {
            Jitter::None => d,
            Jitter::Full => uniform_inclusive_u64(rng, 0, d),
            Jitter::Equal => {
                let half = d / 2;
                d.saturating_sub(half)
                    .saturating_add(uniform_inclusive_u64(rng, 0, half))
            }
            Jitter::Decorrelated => {
                let lo = schedule.initial_nanos();
                let hi = prev_ns.max(lo).saturating_mul(3);
                uniform_inclusive_u64(rng, lo, hi).min(schedule.max_nanos())
            }
            Jitter::Factor(f) => spread(rng, d, f.ratio().mul_floor(d)),
            Jitter::Additive { max_ns } => d.saturating_add(uniform_inclusive_u64(rng, 0, max_ns)),
            Jitter::Normal(j) => add_normal(rng, d, j.mul_floor(d)),
            Jitter::AbsoluteNormal { sigma_ns } => add_normal(rng, d, sigma_ns),
        }
    }
}

/// `max(0, d + sd · Z)`, `Z` as [`normal_scaled`] draws it, saturating at `u64::MAX`.
#[inline]
fn add_normal<R: Rng + ?Sized>(rng: &mut R, d: u64, sd: u64) -> u64 {
    let v = i128::from(d).saturating_add(normal_scaled(rng, sd));
    u64::try_from(v.max(0)).unwrap_or(u64::MAX)
}

/// `U(d − spread, d + spread)`, `spread <= d`.
#[inline]
fn spread<R: Rng + ?Sized>(rng: &mut R, d: u64, spread: u64) -> u64 {
    uniform_inclusive_u64(rng, d.saturating_sub(spread), d.saturating_add(spread))
}

/// `sd · Z` with `Z` approximately standard normal (Irwin–Hall of order 12), rounded
/// toward zero.
#[inline]
fn normal_scaled<R: Rng + ?Sized>(rng: &mut R, sd: u64) -> i128 {
    // Twelve uniforms on {0, ..., 2^32 - 1}: mean 6 (2^32 - 1), variance 2^64 - 1, so
    // (sum - mean) / 2^32 has mean 0 and variance (2^64 - 1) / 2^64.
    let mut sum: i64 = 0;
    for _ in 0..6 {
        let w = rng.next_u64();
        sum = sum
            .saturating_add(i64::from(w as u32))
            .saturating_add(i64::from((w >> 32) as u32));
    }
    const MEAN: i64 = 6 * u32::MAX as i64;
    let centred = sum.saturating_sub(MEAN); // |centred| < 6 · 2^32
    // |sd · centred| < 2^64 · 6 · 2^32 < 2^99: no overflow in i128.
    i128::from(sd)
        .saturating_mul(i128::from(centred))
        .checked_div(1 << 32)
        .unwrap_or(0)
}

#[cfg(test)]
#[allow(clippy::float_arithmetic, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    /// `AbsoluteNormal { σ }` adds `N(0, σ²)` whatever the delay: with `d` = 1 s and
    /// `σ` = 50 ms (never clamped: the tails stop at `d ± 6σ`), 100 000 draws of seed 7
    /// have a mean within 1 ms of `d` and a standard deviation within 2 % of `σ`. The
    /// standard error of the mean is `σ / √n` = 0.16 ms, so 1 ms is over 6 of them;
    /// that of the sample standard deviation about `σ / √(2n)` = 0.11 ms, 0.22 %, so
    /// 2 % is about 9 of them. The same seed gives the same draws.
    #[test]
    fn absolute_normal_has_mean_d_and_sd_sigma() {
        const D: u64 = 1_000_000_000;
        const SIGMA: u64 = 50_000_000;
        const N: u32 = 100_000;
        let j = Jitter::AbsoluteNormal { sigma_ns: SIGMA };
        let s = Schedule::constant_nanos(D);
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
        let (mut sum, mut sq) = (0f64, 0f64);
        for _ in 0..N {
            let v = j.apply_nanos(D, 0, &s, &mut rng);
            assert!((D - 6 * SIGMA..=D + 6 * SIGMA).contains(&v), "{v}");
            let x = v as f64 - D as f64;
            sum += x;
            sq += x * x;
        }
        let n = f64::from(N);
        let mean = sum / n;
        let sd = (sq / n - mean * mean).sqrt();
        assert!(mean.abs() < 1e6, "mean off d by {mean} ns");
        assert!((sd / SIGMA as f64 - 1.0).abs() < 0.02, "sd {sd} ns");
        let again = |seed| {
            let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(seed);
            j.apply_nanos(D, 0, &s, &mut rng)
        };
        assert_eq!(again(3), again(3));
    }

    /// The noise does not scale with the delay, and a delay below it is clamped at 0,
    /// never wrapped.
    #[test]
    fn absolute_normal_is_absolute_and_clamped_at_zero() {
        let j = Jitter::AbsoluteNormal { sigma_ns: 1_000 };
        let s = Schedule::constant_nanos(1);
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(11);
        let mut zeros = 0u32;
        for _ in 0..10_000 {
            let v = j.apply_nanos(10, 0, &s, &mut rng);
            assert!(v <= 10 + 6_000, "{v}");
            zeros += u32::from(v == 0);
        }
        // P(10 + 1000 Z < 0) = P(Z < -0.01) ≈ 0.496.
        assert!((4_600..=5_300).contains(&zeros), "{zeros}");
        assert_eq!(
            Jitter::AbsoluteNormal { sigma_ns: 0 }.apply_nanos(5, 0, &s, &mut rng),
            5
        );
    }
}
