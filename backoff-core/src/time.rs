//! Time as the crate sees it: integer nanoseconds (`u64`, 584 years), converted from
//! and to [`Duration`] without ever truncating to milliseconds.
//!
//! Every answer that is a length of time comes in two forms: the plain name returns a
//! [`Duration`] (`delay()`, `times()`, `remaining()`), the name ending in `_nanos`
//! returns `u64` nanoseconds (`delay_nanos()`, `times_nanos()`, `remaining_nanos()`).
//! Arguments that are instants or lengths on the caller's clock are `u64` nanoseconds
//! and end in `_ns`.

use core::time::Duration;

const NANOS_PER_SEC: u128 = 1_000_000_000;

/// A [`Duration`] in whole nanoseconds, saturating at `u64::MAX` (about 584 years).
///
/// ```
/// use backoff_core::policy::duration_to_nanos;
/// use core::time::Duration;
/// assert_eq!(duration_to_nanos(Duration::from_micros(1_500)), 1_500_000);
/// assert_eq!(duration_to_nanos(Duration::MAX), u64::MAX);
/// ```
pub const fn duration_to_nanos(d: Duration) -> u64 {
    let n = d.as_nanos();
    if n > u64::MAX as u128 {
        u64::MAX
    } else {
        n as u64
    }
}

/// Nanoseconds as a [`Duration`] (exact).
pub const fn nanos_to_duration(ns: u64) -> Duration {
    Duration::from_nanos(ns)
}

/// A count of nanoseconds too large for `u64` as a [`Duration`], exact up to
/// [`Duration::MAX`] and saturating there.
#[inline]
pub(crate) const fn wide_nanos_to_duration(ns: u128) -> Duration {
    if ns <= u64::MAX as u128 {
        return Duration::from_nanos(ns as u64);
    }
    let (secs, sub) = match (ns.checked_div(NANOS_PER_SEC), ns.checked_rem(NANOS_PER_SEC)) {
        (Some(secs), Some(sub)) => (secs, sub),
        _ => return Duration::MAX, // not reached: the divisor is a non-zero constant
    };
    if secs > u64::MAX as u128 {
        return Duration::MAX;
    }
    // secs fits u64 (checked above) and sub < 1e9 fits u32: both casts are exact.
    Duration::new(secs as u64, sub as u32)
}

/// `ns` nanoseconds as pieces of at most `u32::MAX` (4.29 s), the most that
/// `DelayNs::delay_ns` takes in one call.
#[cfg(any(feature = "embedded-hal", feature = "embedded-hal-async"))]
#[inline]
pub(crate) fn u32_pieces(ns: u128) -> impl Iterator<Item = u32> {
    let mut left = ns;
    core::iter::from_fn(move || {
        if left == 0 {
            return None;
        }
        let piece = u32::try_from(left).unwrap_or(u32::MAX);
        left = left.saturating_sub(u128::from(piece));
        Some(piece)
    })
}
