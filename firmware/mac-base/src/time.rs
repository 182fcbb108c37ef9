//! The clock a MAC's driver measures its gaps, timeouts and backoff with.

/// A monotonic clock in nanoseconds. It must not go backwards; its origin is
/// arbitrary. On a microcontroller this is typically a timer (SysTick, a 32-bit
/// timer) extended to 64 bits; in tests, a counter the test advances.
pub trait TimeSource {
    /// Nanoseconds since an arbitrary origin.
    fn now_ns(&mut self) -> u64;
}

impl<T: TimeSource + ?Sized> TimeSource for &mut T {
    fn now_ns(&mut self) -> u64 {
        (**self).now_ns()
    }
}
