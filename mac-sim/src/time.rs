//! Simulated time: integer picoseconds, never floating point.
//!
//! One picosecond resolves every Ethernet bit time exactly (100 000 ps at 10 Mb/s,
//! 10 000 ps at 100 Mb/s, 1 000 ps at 1 Gb/s) and the propagation delay of one
//! millimetre of cable at 2·10⁸ m/s (5 ps). A `u64` of picoseconds spans 213 days of
//! simulated time.

/// A point in simulated time, or a span of it, in picoseconds.
pub type Time = u64;

/// Picoseconds per second.
pub const PS_PER_SEC: u64 = 1_000_000_000_000;

/// Picoseconds per microsecond.
pub const PS_PER_US: u64 = 1_000_000;

/// `t` picoseconds as (floating-point) microseconds, for reports only.
pub fn as_micros(t: Time) -> f64 {
    t as f64 / PS_PER_US as f64
}

/// `t` picoseconds as (floating-point) seconds, for reports only.
pub fn as_secs(t: Time) -> f64 {
    t as f64 / PS_PER_SEC as f64
}
