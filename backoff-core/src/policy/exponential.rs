//! The un-jittered delay schedule.

use core::time::Duration;

use super::ratio::Ratio;
use crate::error::{ConfigError, ConfigErrorKind};
use crate::time::duration_to_nanos;

/// `min(initial · multiplier^n, max)` in nanoseconds (a constant delay is multiplier 1).
///
/// After the `f`-th failure (`f = 1` for the first failed attempt, the count
/// [`Policy::decide`](crate::Policy::decide) takes) the delay before jitter is
/// `min(initial · multiplier^(f-1), max)`: [`Schedule::base_after`]. The multiplier is an exact
/// [`Ratio`], and the power is computed without overflow for every `n` up to
/// `u32::MAX`:
///
/// * **exactly** (the floor of the exact rational value) whenever `initial · num^n` and
///   `den^n` fit in 128 bits, which for the usual multipliers (2, 3/2, 8/5, ...) covers
///   every delay below the cap;
/// * otherwise in 64.64 fixed point by repeated squaring, with an error of about
///   `(n + 64) · 2^-64` of the larger of `initial` and the result (below `2^-50` for
///   `n < 16 000`; checked against the exact path by the tests).
///
/// The cost is `O(log n)` multiplications, and no state is needed: the schedule is a
/// pure function of `n`.
///
/// ```
/// use backoff_core::{Ratio, Schedule};
/// use core::time::Duration;
/// let s = Schedule::exponential(
///     Duration::from_millis(500), Ratio::THREE_HALVES, Duration::from_secs(60)).unwrap();
/// let ms: Vec<u64> = (1..=5).map(|f| s.base_after_nanos(f) / 1_000_000).collect();
/// assert_eq!(ms, [500, 750, 1125, 1687, 2531]); // 1687.5 and 2531.25 ms, exact in ns
/// assert_eq!(s.base_after(3), Duration::from_micros(1_125_000));
/// assert_eq!(s.base_after(u32::MAX), Duration::from_secs(60)); // capped, never overflows
///
/// let c = Schedule::constant(Duration::from_micros(250));
/// assert_eq!(c.base_after_nanos(1_000), 250_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Schedule {
    initial_ns: u64,
    multiplier: Ratio,
    max_ns: u64,
}

impl Schedule {
    /// The same delay before every retry.
    pub const fn constant(delay: Duration) -> Self {
        Self::constant_nanos(duration_to_nanos(delay))
    }

    /// [`Schedule::constant`] in nanoseconds.
    pub const fn constant_nanos(delay_ns: u64) -> Self {
        Self {
            initial_ns: delay_ns,
            multiplier: Ratio::ONE,
            max_ns: delay_ns,
        }
    }

    /// `min(initial · multiplier^n, max)`. An `initial` above `max` is rejected with
    /// [`ConfigErrorKind::OutOfRange`]; any multiplier is accepted (0 gives zero delays
    /// after the first, below 1 shrinking ones).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] when `initial > max`.
    pub const fn exponential(
        initial: Duration,
        multiplier: Ratio,
        max: Duration,
    ) -> Result<Self, ConfigError> {
        Self::exponential_nanos(
            duration_to_nanos(initial),
            multiplier,
            duration_to_nanos(max),
        )
    }

    /// [`Schedule::exponential`] in nanoseconds (or any other integer tick).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] when `initial_ns > max_ns`.
    pub const fn exponential_nanos(
        initial_ns: u64,
        multiplier: Ratio,
        max_ns: u64,
    ) -> Result<Self, ConfigError> {
        if initial_ns > max_ns {
            return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
        }
        Ok(Self {
            initial_ns,
            multiplier,
            max_ns,
        })
    }

    /// [`Schedule::exponential_nanos`] without the error case: an `initial` above `max`
    /// is lowered to `max`.
    pub const fn exponential_clamped_nanos(
        initial_ns: u64,
        multiplier: Ratio,
        max_ns: u64,
    ) -> Self {
        Self {
            initial_ns: if initial_ns > max_ns {
                max_ns
            } else {
                initial_ns
            },
            multiplier,
            max_ns,
        }
    }

    /// The first delay, in nanoseconds.
    pub const fn initial_nanos(&self) -> u64 {
        self.initial_ns
    }

    /// The first delay.
    pub const fn initial(&self) -> Duration {
        Duration::from_nanos(self.initial_ns)
    }

    /// The cap on the un-jittered delay.
    pub const fn max(&self) -> Duration {
        Duration::from_nanos(self.max_ns)
    }

    /// The multiplier.
    pub const fn multiplier(&self) -> Ratio {
        self.multiplier
    }

    /// The cap on the un-jittered delay, in nanoseconds.
    pub const fn max_nanos(&self) -> u64 {
        self.max_ns
    }

    /// The delay after the `failures`-th failure (1 for the first), before jitter:
    /// `min(initial · multiplier^(failures-1), max)` nanoseconds. Zero failures give
    /// zero (nothing to wait for).
    #[inline]
    pub fn base_after_nanos(&self, failures: u32) -> u64 {
        match failures.checked_sub(1) {
            Some(n) => scaled_power(self.initial_ns, self.multiplier, n).min(self.max_ns),
            None => 0,
        }
    }

    /// [`Schedule::base_after_nanos`] as a [`Duration`].
    #[inline]
    pub fn base_after(&self, failures: u32) -> Duration {
        Duration::from_nanos(self.base_after_nanos(failures))
    }
}

/// `floor(x · (num/den)^n)`, saturating at `u64::MAX`.
#[inline]
pub(crate) fn scaled_power(x: u64, m: Ratio, n: u32) -> u64 {
    let (num, den) = (m.numer(), m.denom());
    if n == 0 || num == den || x == 0 {
        return x;
    }
    if num == 0 {
        return 0;
    }
    match scaled_power_exact(x, m, n) {
        Some(exact) => exact,
        None => scaled_power_fixed(x, m, n),
    }
}

/// The exact path of [`scaled_power`]: `None` when `x · num^n` or `den^n` does not fit
/// 128 bits.
#[inline]
fn scaled_power_exact(x: u64, m: Ratio, n: u32) -> Option<u64> {
    // The common case in 64 bits: no 128-bit multiply, a shift for dyadic ratios.
    if let (Some(np), Some(dp)) = (
        u64::from(m.numer()).checked_pow(n),
        u64::from(m.denom()).checked_pow(n),
    ) {
        if let Some(prod) = x.checked_mul(np) {
            return Some(if dp.is_power_of_two() {
                prod.checked_shr(dp.trailing_zeros()).unwrap_or(0)
            } else {
                prod.checked_div(dp).unwrap_or(u64::MAX)
            });
        }
    }
    let np = u128::from(m.numer()).checked_pow(n)?;
    let dp = u128::from(m.denom()).checked_pow(n)?;
    let prod = u128::from(x).checked_mul(np)?;
    Some(saturate_u64(div_u128(prod, dp)))
}

/// The 64.64 fixed-point path of [`scaled_power`], used when the exact one would not
/// fit 128 bits.
fn scaled_power_fixed(x: u64, m: Ratio, n: u32) -> u64 {
    const ONE: u128 = 1 << 64;
    let num = u128::from(m.numer()) << 64; // < 2^96
    let mut base = num.checked_div(u128::from(m.denom())).unwrap_or(0);
    let mut acc = ONE;
    let mut e = n;
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_q64(acc, base);
        }
        e >>= 1;
        if e > 0 {
            base = mul_q64(base, base);
        }
        if acc == 0 || acc == u128::MAX {
            break; // nothing can change it any more
        }
    }
    saturate_u64(mul_q64(u128::from(x), acc))
}

/// `floor(a · b / 2^64)` with a 256-bit intermediate, saturating at `u128::MAX`.
#[inline]
fn mul_q64(a: u128, b: u128) -> u128 {
    const LOW: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & LOW);
    let (b1, b0) = (b >> 64, b & LOW);
    // Each partial product of two 64-bit halves fits u128.
    let high = a1.wrapping_mul(b1);
    let mid1 = a1.wrapping_mul(b0);
    let mid2 = a0.wrapping_mul(b1);
    let low = a0.wrapping_mul(b0) >> 64;
    let r = high
        .checked_mul(1 << 64)
        .and_then(|h| h.checked_add(mid1))
        .and_then(|s| s.checked_add(mid2))
        .and_then(|s| s.checked_add(low));
    r.unwrap_or(u128::MAX)
}

/// `a / b` (b > 0), in 64-bit arithmetic when both fit.
#[inline]
fn div_u128(a: u128, b: u128) -> u128 {
    match (u64::try_from(a), u64::try_from(b)) {
        (Ok(a), Ok(b)) => u128::from(a.checked_div(b).unwrap_or(u64::MAX)),
        _ => a.checked_div(b).unwrap_or(u128::MAX),
    }
}

#[inline]
fn saturate_u64(x: u128) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed-point path agrees with the exact one, within 2^-50 of the larger of
    /// `x` and the result, wherever the exact one applies.
    #[test]
    fn fixed_point_matches_exact() {
        let ratios = [
            Ratio::TWO,
            Ratio::THREE_HALVES,
            Ratio::EIGHT_FIFTHS,
            Ratio::E,
            Ratio::HALF,
            Ratio::from_thousandths(1_001),
            Ratio::from_thousandths(999),
            Ratio::new(7, 3).unwrap_or(Ratio::ONE),
        ];
        let xs = [
            1u64,
            3,
            1_000,
            500_000_000,
            123_456_789_012,
            1 << 40,
            u64::MAX,
        ];
        let mut checked = 0u32;
        for m in ratios {
            for x in xs {
                for n in 0..200u32 {
                    let Some(exact) = scaled_power_exact(x, m, n) else {
                        continue;
                    };
                    checked += 1;
                    let fixed = scaled_power_fixed(x, m, n);
                    let diff = exact.abs_diff(fixed);
                    assert!(
                        diff <= (exact.max(x) >> 50) + 1,
                        "{x} * {m:?}^{n}: exact {exact}, fixed {fixed}"
                    );
                }
            }
        }
        assert!(checked > 1_000, "only {checked} cases compared");
    }
}
