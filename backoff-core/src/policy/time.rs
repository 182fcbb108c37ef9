//! Time as the policies see it: integer nanoseconds (`u64`, 584 years), converted from
//! and to [`Duration`] without ever truncating to milliseconds.

use core::time::Duration;

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
