//! Exact ratios: multipliers and fractions without floating point.

use crate::error::{ConfigError, ConfigErrorKind};

/// A non-negative rational number `num / den` (the denominator is never zero).
///
/// Multipliers (`2`, `3/2`, `8/5`, `e ≈ 2.71828`) and fractions (a randomization factor
/// of `1/2`, gRPC's jitter of `1/5`) are given as ratios so that every computation is
/// exact integer arithmetic.
///
/// ```
/// use backoff_core::Ratio;
/// let one_and_a_half = Ratio::new(3, 2).unwrap();
/// assert_eq!(one_and_a_half.mul_floor(1_000), 1_500);
/// assert_eq!(Ratio::from_thousandths(1_600), Ratio::new(8, 5).unwrap());
/// assert!(Ratio::new(1, 0).is_err());
/// ```
///
/// Ratios are kept in lowest terms, so equal numbers compare equal (`6/4 == 3/2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Ratio {
    num: u32,
    den: u32,
}

const fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        let r = match a.checked_rem(b) {
            Some(r) => r,
            None => 0,
        };
        a = b;
        b = r;
    }
    a
}

impl Ratio {
    /// Zero.
    pub const ZERO: Self = Self { num: 0, den: 1 };
    /// One: a constant schedule, or no change.
    pub const ONE: Self = Self { num: 1, den: 1 };
    /// Two: binary exponential backoff.
    pub const TWO: Self = Self { num: 2, den: 1 };
    /// One half.
    pub const HALF: Self = Self { num: 1, den: 2 };
    /// `1/5`: gRPC's jitter, `U(0.8, 1.2)`.
    pub const ONE_FIFTH: Self = Self { num: 1, den: 5 };
    /// `3/2`: the multiplier of cenkalti/backoff.
    pub const THREE_HALVES: Self = Self { num: 3, den: 2 };
    /// `8/5 = 1.6`: the multiplier of gRPC connection backoff.
    pub const EIGHT_FIFTHS: Self = Self { num: 8, den: 5 };
    /// `e` to six significant digits: `271828/100000` (reduced: `67957/25000`), within
    /// `1.9e-6` of the true value.
    pub const E: Self = Self {
        num: 67_957,
        den: 25_000,
    };

    /// `num / den`, reduced to lowest terms.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] for a zero denominator.
    pub const fn new(num: u32, den: u32) -> Result<Self, ConfigError> {
        if den == 0 {
            return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
        }
        let g = gcd(num, den);
        // g >= 1 because den != 0.
        match (num.checked_div(g), den.checked_div(g)) {
            (Some(num), Some(den)) => Ok(Self { num, den }),
            _ => Err(ConfigError::new(ConfigErrorKind::OutOfRange)),
        }
    }

    /// `n / 1`.
    pub const fn integer(n: u32) -> Self {
        Self { num: n, den: 1 }
    }

    /// `thousandths / 1000`: the way service configurations write decimals with up to
    /// three places (`1.6` is `from_thousandths(1600)`, gRPC's `tokenRatio` `0.1` is
    /// `from_thousandths(100)`).
    pub const fn from_thousandths(thousandths: u32) -> Self {
        match Self::new(thousandths, 1000) {
            Ok(r) => r,
            Err(_) => Self::ZERO, // not reached: the denominator is 1000
        }
    }

    /// `percent / 100`.
    pub const fn from_percent(percent: u32) -> Self {
        match Self::new(percent, 100) {
            Ok(r) => r,
            Err(_) => Self::ZERO, // not reached: the denominator is 100
        }
    }

    /// The numerator (lowest terms).
    pub const fn numer(self) -> u32 {
        self.num
    }

    /// The denominator (lowest terms, never zero).
    pub const fn denom(self) -> u32 {
        self.den
    }

    /// Whether the ratio is zero.
    pub const fn is_zero(self) -> bool {
        self.num == 0
    }

    /// Whether the ratio is at most one (a fraction).
    pub const fn is_at_most_one(self) -> bool {
        self.num <= self.den
    }

    /// `floor(x · num / den)`, saturating at `u64::MAX`.
    #[inline]
    pub const fn mul_floor(self, x: u64) -> u64 {
        let wide = (x as u128).saturating_mul(self.num as u128);
        let q = match wide.checked_div(self.den as u128) {
            Some(q) => q,
            None => 0, // not reached: den != 0
        };
        if q > u64::MAX as u128 {
            u64::MAX
        } else {
            q as u64
        }
    }
}

/// A [`Ratio`] between zero and one, both included: a fraction of a delay (a jitter
/// factor) that cannot be out of range, because every constructor checks it.
///
/// ```
/// use backoff_core::{ConfigErrorKind, Fraction, Ratio};
/// assert_eq!(Fraction::new(1, 2).unwrap(), Fraction::HALF);
/// assert_eq!(Fraction::try_from(Ratio::new(3, 2).unwrap()).unwrap_err().kind(), ConfigErrorKind::OutOfRange);
/// assert_eq!(Fraction::from_percent(20).unwrap(), Fraction::ONE_FIFTH);
/// assert_eq!(Fraction::HALF.ratio(), Ratio::HALF);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Fraction(Ratio);

impl Fraction {
    /// Zero.
    pub const ZERO: Self = Self(Ratio::ZERO);
    /// One half: cenkalti/backoff's randomization factor, `U(0.5, 1.5)`.
    pub const HALF: Self = Self(Ratio::HALF);
    /// `1/5`: gRPC's jitter, `U(0.8, 1.2)`.
    pub const ONE_FIFTH: Self = Self(Ratio::ONE_FIFTH);
    /// One.
    pub const ONE: Self = Self(Ratio::ONE);

    /// `num / den`, in lowest terms.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`]: a zero denominator, or `num > den`.
    pub const fn new(num: u32, den: u32) -> Result<Self, ConfigError> {
        match Ratio::new(num, den) {
            Ok(r) => Self::from_ratio(r),
            Err(e) => Err(e),
        }
    }

    /// The ratio as a fraction.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] for a ratio above one.
    pub const fn from_ratio(ratio: Ratio) -> Result<Self, ConfigError> {
        if ratio.is_at_most_one() {
            Ok(Self(ratio))
        } else {
            Err(ConfigError::new(ConfigErrorKind::OutOfRange))
        }
    }

    /// `percent / 100`.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] above 100.
    pub const fn from_percent(percent: u32) -> Result<Self, ConfigError> {
        Self::from_ratio(Ratio::from_percent(percent))
    }

    /// The fraction as a [`Ratio`].
    pub const fn ratio(self) -> Ratio {
        self.0
    }
}

impl TryFrom<Ratio> for Fraction {
    type Error = ConfigError;
    fn try_from(ratio: Ratio) -> Result<Self, ConfigError> {
        Self::from_ratio(ratio)
    }
}

impl From<Fraction> for Ratio {
    fn from(f: Fraction) -> Ratio {
        f.0
    }
}
