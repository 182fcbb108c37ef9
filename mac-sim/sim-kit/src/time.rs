//! Simulated time: [`Time`], an integer number of picoseconds that carries its unit.
//!
//! One picosecond resolves every Ethernet bit time exactly (100 000 ps at 10 Mb/s,
//! 10 000 ps at 100 Mb/s, 1 000 ps at 1 Gb/s) and the propagation delay of one
//! millimetre of cable at 2·10⁸ m/s (5 ps). 64 bits of picoseconds span 213 days of
//! simulated time. No decision depends on floating-point time: the `f64` accessors are
//! for reports only.
//!
//! A value is built from a named unit and read back in a named unit, so picoseconds
//! and nanoseconds cannot be mixed by accident:
//!
//! ```
//! use sim_kit::time::Time;
//! let slot = Time::from_ns(51_200);                  // 512 bit times at 10 Mb/s
//! assert_eq!(slot.as_ps(), 51_200_000);
//! assert_eq!((slot * 3).as_ns(), 153_600);
//! assert_eq!(Time::parse("1.5ms").unwrap(), Time::from_us(1_500));
//! assert!(Time::parse("10").is_err());              // a time needs a unit
//! ```

use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, Rem, Sub, SubAssign};

use serde::{Deserialize, Serialize};

/// Picoseconds per nanosecond.
pub const PS_PER_NS: u64 = 1_000;
/// Picoseconds per microsecond.
pub const PS_PER_US: u64 = 1_000_000;
/// Picoseconds per millisecond.
pub const PS_PER_MS: u64 = 1_000_000_000;
/// Picoseconds per second.
pub const PS_PER_SEC: u64 = 1_000_000_000_000;

/// A point in simulated time, or a span of it, in whole picoseconds.
///
/// Arithmetic between times (`+`, `-`) and with counts (`* n`, `/ n`) is that of
/// `u64`: it panics on overflow in debug builds, so a model adds through
/// [`Time::saturating_add`] or [`Time::checked_add`] wherever a sum can be near
/// [`Time::MAX`]. Serialised as the bare number of picoseconds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
#[repr(transparent)]
pub struct Time(u64);

impl Time {
    /// Time zero, the start of every run.
    pub const ZERO: Time = Time(0);
    /// The largest representable time (about 213 days).
    pub const MAX: Time = Time(u64::MAX);

    /// `ps` picoseconds.
    #[inline]
    pub const fn from_ps(ps: u64) -> Time {
        Time(ps)
    }

    /// `ns` nanoseconds (saturating at [`Time::MAX`]).
    #[inline]
    pub const fn from_ns(ns: u64) -> Time {
        Time(ns.saturating_mul(PS_PER_NS))
    }

    /// `us` microseconds (saturating at [`Time::MAX`]).
    #[inline]
    pub const fn from_us(us: u64) -> Time {
        Time(us.saturating_mul(PS_PER_US))
    }

    /// `ms` milliseconds (saturating at [`Time::MAX`]).
    #[inline]
    pub const fn from_ms(ms: u64) -> Time {
        Time(ms.saturating_mul(PS_PER_MS))
    }

    /// `s` seconds (saturating at [`Time::MAX`]).
    #[inline]
    pub const fn from_secs(s: u64) -> Time {
        Time(s.saturating_mul(PS_PER_SEC))
    }

    /// `s` seconds rounded to the nearest picosecond, or `None` if `s` is negative,
    /// not finite or beyond [`Time::MAX`].
    pub fn from_secs_f64(s: f64) -> Option<Time> {
        let ps = (s * PS_PER_SEC as f64).round();
        (ps.is_finite() && ps >= 0.0 && ps < u64::MAX as f64).then_some(Time(ps as u64))
    }

    /// Whole picoseconds.
    #[inline]
    pub const fn as_ps(self) -> u64 {
        self.0
    }

    /// Whole nanoseconds (rounded down).
    #[inline]
    pub const fn as_ns(self) -> u64 {
        self.0 / PS_PER_NS
    }

    /// Seconds as a floating-point number, for reports.
    #[inline]
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_SEC as f64
    }

    /// Milliseconds as a floating-point number, for reports.
    #[inline]
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / PS_PER_MS as f64
    }

    /// Microseconds as a floating-point number, for reports.
    #[inline]
    pub fn as_micros_f64(self) -> f64 {
        self.0 as f64 / PS_PER_US as f64
    }

    /// `self + rhs`, or `None` on overflow.
    #[inline]
    pub const fn checked_add(self, rhs: Time) -> Option<Time> {
        match self.0.checked_add(rhs.0) {
            Some(t) => Some(Time(t)),
            None => None,
        }
    }

    /// `self - rhs`, or `None` if `rhs` is later.
    #[inline]
    pub const fn checked_sub(self, rhs: Time) -> Option<Time> {
        match self.0.checked_sub(rhs.0) {
            Some(t) => Some(Time(t)),
            None => None,
        }
    }

    /// `self × n`, or `None` on overflow.
    #[inline]
    pub const fn checked_mul(self, n: u64) -> Option<Time> {
        match self.0.checked_mul(n) {
            Some(t) => Some(Time(t)),
            None => None,
        }
    }

    /// `self + rhs`, at most [`Time::MAX`].
    #[inline]
    pub const fn saturating_add(self, rhs: Time) -> Time {
        Time(self.0.saturating_add(rhs.0))
    }

    /// `self - rhs`, at least zero.
    #[inline]
    pub const fn saturating_sub(self, rhs: Time) -> Time {
        Time(self.0.saturating_sub(rhs.0))
    }

    /// `self × n`, at most [`Time::MAX`].
    #[inline]
    pub const fn saturating_mul(self, n: u64) -> Time {
        Time(self.0.saturating_mul(n))
    }

    /// Picoseconds as a floating-point number, for rates and means.
    #[inline]
    pub fn as_ps_f64(self) -> f64 {
        self.0 as f64
    }

    /// `ps` picoseconds, truncated toward zero like `as u64` (negative and NaN give
    /// zero, values beyond the range [`Time::MAX`]).
    #[inline]
    pub fn from_ps_f64(ps: f64) -> Time {
        Time(ps as u64)
    }

    /// How many `rhs` cover `self`, rounding up (`rhs` must not be zero).
    #[inline]
    pub const fn div_ceil(self, rhs: Time) -> u64 {
        self.0.div_ceil(rhs.0)
    }

    /// Whether this is time zero.
    #[inline]
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// A duration with a unit (`s`, `ms`, `us` or `µs`, `ns`), e.g. `10s` or `2.5ms`,
    /// rounded to whole picoseconds.
    ///
    /// # Errors
    ///
    /// [`TimeParseError`] if the text has no unit, is not a number, is zero or
    /// negative, or is above 10⁶ s.
    pub fn parse(s: &str) -> Result<Time, TimeParseError> {
        let err = || TimeParseError(s.to_string());
        let t = s.trim();
        let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
            (n, 1e9)
        } else if let Some(n) = t.strip_suffix("us") {
            (n, 1e6)
        } else if let Some(n) = t.strip_suffix("µs") {
            (n, 1e6)
        } else if let Some(n) = t.strip_suffix("ns") {
            (n, 1e3)
        } else if let Some(n) = t.strip_suffix('s') {
            (n, 1e12)
        } else {
            return Err(err());
        };
        let v: f64 = num.trim().parse().map_err(|_| err())?;
        if !(v.is_finite() && v > 0.0) {
            return Err(err());
        }
        let ps = (v * scale).round();
        if !(1.0..=1e18).contains(&ps) {
            return Err(err());
        }
        Ok(Time(ps as u64))
    }
}

/// A duration that [`Time::parse`] could not read; holds the text as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeParseError(pub String);

impl fmt::Display for TimeParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' must be a positive time with a unit: s, ms, us or ns (e.g. 10s)",
            self.0
        )
    }
}

impl std::error::Error for TimeParseError {}

/// The number of picoseconds with the unit, e.g. `51200000 ps`.
impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ps", self.0)
    }
}

impl Add for Time {
    type Output = Time;
    #[inline]
    fn add(self, rhs: Time) -> Time {
        Time(self.0 + rhs.0)
    }
}

impl AddAssign for Time {
    #[inline]
    fn add_assign(&mut self, rhs: Time) {
        self.0 += rhs.0;
    }
}

impl Sub for Time {
    type Output = Time;
    #[inline]
    fn sub(self, rhs: Time) -> Time {
        Time(self.0 - rhs.0)
    }
}

impl SubAssign for Time {
    #[inline]
    fn sub_assign(&mut self, rhs: Time) {
        self.0 -= rhs.0;
    }
}

impl Mul<u64> for Time {
    type Output = Time;
    #[inline]
    fn mul(self, n: u64) -> Time {
        Time(self.0 * n)
    }
}

/// `n × t`, as `t × n`.
impl Mul<Time> for u64 {
    type Output = Time;
    #[inline]
    fn mul(self, t: Time) -> Time {
        Time(self * t.0)
    }
}

impl Div<u64> for Time {
    type Output = Time;
    #[inline]
    fn div(self, n: u64) -> Time {
        Time(self.0 / n)
    }
}

/// How many whole `rhs` fit in `self`.
impl Div for Time {
    type Output = u64;
    #[inline]
    fn div(self, rhs: Time) -> u64 {
        self.0 / rhs.0
    }
}

impl Rem for Time {
    type Output = Time;
    #[inline]
    fn rem(self, rhs: Time) -> Time {
        Time(self.0 % rhs.0)
    }
}

impl std::iter::Sum for Time {
    fn sum<I: Iterator<Item = Time>>(iter: I) -> Time {
        iter.fold(Time::ZERO, Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_convert_exactly() {
        assert_eq!(Time::from_secs(1).as_ps(), PS_PER_SEC);
        assert_eq!(Time::from_ms(3), Time::from_us(3_000));
        assert_eq!(Time::from_ns(7).as_ps(), 7_000);
        assert_eq!(Time::from_ps(1_999).as_ns(), 1);
        assert_eq!(Time::from_secs(u64::MAX), Time::MAX);
        assert_eq!(Time::from_secs_f64(0.5), Some(Time::from_ms(500)));
        assert_eq!(Time::from_secs_f64(-1.0), None);
        assert_eq!(Time::from_secs_f64(f64::NAN), None);
        assert_eq!(Time::from_secs_f64(1e9), None);
    }

    #[test]
    fn durations_parse_with_their_unit() {
        assert_eq!(Time::parse("1us").unwrap(), Time::from_us(1));
        assert_eq!(Time::parse("3ns").unwrap(), Time::from_ns(3));
        assert_eq!(Time::parse("10s").unwrap(), Time::from_secs(10));
        assert_eq!(Time::parse(" 2.5 ms").unwrap(), Time::from_us(2_500));
        for bad in [
            "0s", "-1s", "10", "NaNs", "infs", "s", "1e30s", "", "0.0001ns",
        ] {
            let e = Time::parse(bad).unwrap_err();
            assert!(e.to_string().contains(bad.trim()), "{bad}: {e}");
        }
    }

    #[test]
    fn arithmetic_keeps_the_unit() {
        let a = Time::from_us(5);
        assert_eq!(a + a, Time::from_us(10));
        assert_eq!(a * 4 / 2, Time::from_us(10));
        assert_eq!(Time::from_us(11) / a, 2);
        assert_eq!(Time::from_us(11) % a, Time::from_us(1));
        assert_eq!(Time::ZERO.saturating_sub(a), Time::ZERO);
        assert_eq!(Time::MAX.checked_add(a), None);
        assert_eq!([a, a, a].into_iter().sum::<Time>(), Time::from_us(15));
    }
}
