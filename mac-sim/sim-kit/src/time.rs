//! Simulated time: [`Time`], an integer number of picoseconds that carries its unit,
//! and [`SignedTime`], its signed counterpart for coordinates that may lie before
//! time zero.
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
//!
//! [`Time`] is unsigned. Where a model needs differences that may be negative (a
//! signal's front measured back from a position along a cable, `t − x`), it uses
//! [`SignedTime`], converted from and to [`Time`] by functions that say what happens
//! at the edge of the other's range, never by wrapping:
//!
//! ```
//! use sim_kit::time::{SignedTime, Time};
//! let (t, x) = (Time::from_ns(5), Time::from_ns(8));
//! let u = SignedTime::from_time(t) - SignedTime::from_time(x);
//! assert_eq!(u, SignedTime::from_ps(-3_000));
//! assert_eq!(u.to_time(), Time::ZERO);               // before time zero: zero
//! assert!(Time::try_from(u).is_err());
//! assert_eq!(SignedTime::from_time(Time::MAX), SignedTime::MAX);
//! ```

use std::fmt;
use std::num::TryFromIntError;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Rem, Sub, SubAssign};

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

    /// A time that may be zero: zero written as `0` or with a unit (`0s`, `0ms`),
    /// else [`Time::parse`]'s duration. An instant (a window that starts at once) and
    /// a delay that may be none are written so.
    ///
    /// ```
    /// use sim_kit::time::Time;
    /// assert_eq!(Time::parse_or_zero("0s"), Ok(Time::ZERO));
    /// assert_eq!(Time::parse_or_zero("0"), Ok(Time::ZERO));
    /// assert_eq!(Time::parse_or_zero("20ms"), Ok(Time::from_ms(20)));
    /// assert!(Time::parse_or_zero("0abc").is_err() && Time::parse_or_zero("-1s").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Time::parse`], but for zero.
    pub fn parse_or_zero(s: &str) -> Result<Time, TimeParseError> {
        let t = s.trim();
        let num = ["ms", "us", "µs", "ns", "s"]
            .iter()
            .find_map(|u| t.strip_suffix(u))
            .unwrap_or(t);
        if num.trim().parse::<f64>() == Ok(0.0) {
            return Ok(Time::ZERO);
        }
        Time::parse(s)
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

/// A signed number of picoseconds: an instant that may lie before time zero, or a
/// difference of two [`Time`]s that may be negative.
///
/// The exact CSMA/CD model measures along a cable in it: a position is the
/// propagation delay from the cable's start, and a signal's front and tail are
/// compared across positions through `t − x` and `t + x`. Arithmetic is that of
/// `i64` (it panics on overflow in debug builds). It converts from [`Time`]
/// saturating at [`SignedTime::MAX`] (about 106 days) and to [`Time`] clamped at
/// zero, or fallibly through `TryFrom` either way: never by wrapping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct SignedTime(i64);

impl SignedTime {
    /// Zero: time zero, or no difference.
    pub const ZERO: SignedTime = SignedTime(0);
    /// The earliest representable value (about 106 days before time zero).
    pub const MIN: SignedTime = SignedTime(i64::MIN);
    /// The latest representable value (about 106 days).
    pub const MAX: SignedTime = SignedTime(i64::MAX);

    /// `ps` picoseconds.
    #[inline]
    pub const fn from_ps(ps: i64) -> SignedTime {
        SignedTime(ps)
    }

    /// Whole picoseconds.
    #[inline]
    pub const fn as_ps(self) -> i64 {
        self.0
    }

    /// `t`, or [`SignedTime::MAX`] if `t` is later.
    #[inline]
    pub const fn from_time(t: Time) -> SignedTime {
        let ps = t.as_ps();
        if ps > i64::MAX as u64 {
            SignedTime::MAX
        } else {
            SignedTime(ps as i64)
        }
    }

    /// This as a [`Time`], or [`Time::ZERO`] if it is negative.
    #[inline]
    pub const fn to_time(self) -> Time {
        if self.0 < 0 {
            Time::ZERO
        } else {
            Time::from_ps(self.0 as u64)
        }
    }

    /// The distance between `self` and `other`, whichever is later.
    #[inline]
    pub const fn abs_diff(self, other: SignedTime) -> Time {
        Time::from_ps(self.0.abs_diff(other.0))
    }

    /// The magnitude, as a difference that is never negative.
    #[inline]
    pub const fn abs(self) -> SignedTime {
        SignedTime(self.0.abs())
    }

    /// `self + rhs`, clamped to [`SignedTime::MIN`]..=[`SignedTime::MAX`].
    #[inline]
    pub const fn saturating_add(self, rhs: SignedTime) -> SignedTime {
        SignedTime(self.0.saturating_add(rhs.0))
    }

    /// `self - rhs`, clamped to [`SignedTime::MIN`]..=[`SignedTime::MAX`].
    #[inline]
    pub const fn saturating_sub(self, rhs: SignedTime) -> SignedTime {
        SignedTime(self.0.saturating_sub(rhs.0))
    }
}

/// A [`Time`] within [`SignedTime::MAX`].
impl TryFrom<Time> for SignedTime {
    type Error = TryFromIntError;
    #[inline]
    fn try_from(t: Time) -> Result<SignedTime, TryFromIntError> {
        i64::try_from(t.as_ps()).map(SignedTime)
    }
}

/// A [`SignedTime`] that is not negative.
impl TryFrom<SignedTime> for Time {
    type Error = TryFromIntError;
    #[inline]
    fn try_from(s: SignedTime) -> Result<Time, TryFromIntError> {
        u64::try_from(s.0).map(Time::from_ps)
    }
}

/// The number of picoseconds with the unit, e.g. `-3000 ps`.
impl fmt::Display for SignedTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ps", self.0)
    }
}

impl Add for SignedTime {
    type Output = SignedTime;
    #[inline]
    fn add(self, rhs: SignedTime) -> SignedTime {
        SignedTime(self.0 + rhs.0)
    }
}

impl AddAssign for SignedTime {
    #[inline]
    fn add_assign(&mut self, rhs: SignedTime) {
        self.0 += rhs.0;
    }
}

impl Sub for SignedTime {
    type Output = SignedTime;
    #[inline]
    fn sub(self, rhs: SignedTime) -> SignedTime {
        SignedTime(self.0 - rhs.0)
    }
}

impl SubAssign for SignedTime {
    #[inline]
    fn sub_assign(&mut self, rhs: SignedTime) {
        self.0 -= rhs.0;
    }
}

impl Neg for SignedTime {
    type Output = SignedTime;
    #[inline]
    fn neg(self) -> SignedTime {
        SignedTime(-self.0)
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

    #[test]
    fn signed_time_converts_without_wrapping() {
        let a = SignedTime::from_time(Time::from_ns(2));
        let b = SignedTime::from_ps(5_000);
        assert_eq!(a - b, SignedTime::from_ps(-3_000));
        assert_eq!((a - b).abs(), SignedTime::from_ps(3_000));
        assert_eq!(a.abs_diff(b), Time::from_ns(3));
        assert_eq!(b.abs_diff(a), Time::from_ns(3));
        assert_eq!(-(a - b), b - a);
        assert_eq!((a - b).to_time(), Time::ZERO);
        assert_eq!((b - a).to_time(), Time::from_ns(3));
        assert_eq!(SignedTime::from_time(Time::MAX), SignedTime::MAX);
        assert!(SignedTime::try_from(Time::MAX).is_err());
        assert_eq!(
            SignedTime::try_from(Time::from_ps(7)),
            Ok(SignedTime::from_ps(7))
        );
        assert!(Time::try_from(SignedTime::from_ps(-1)).is_err());
        assert_eq!(Time::try_from(SignedTime::ZERO), Ok(Time::ZERO));
        assert_eq!(SignedTime::MAX.saturating_add(b), SignedTime::MAX);
        assert_eq!(SignedTime::MIN.saturating_sub(b), SignedTime::MIN);
        assert!(SignedTime::MIN < a - b && a - b < SignedTime::ZERO);
        assert_eq!((a - b).to_string(), "-3000 ps");
    }
}
