//! A 64-bit nanosecond clock on the DWT cycle counter, extended by polling (the
//! 32-bit counter wraps every 44.7 s at 96 MHz; the MAC reads the clock thousands of
//! times per second).

use cortex_m::peripheral::{DCB, DWT};

/// The clock. Create it once the cycle counter runs.
pub struct CycleClock {
    core_hz: u64,
    last: u32,
    cycles: u64,
}

impl CycleClock {
    /// Start the cycle counter and a clock on it for a core at `core_hz`.
    pub fn start(dcb: &mut DCB, dwt: &mut DWT, core_hz: u32) -> Self {
        dcb.enable_trace();
        dwt.enable_cycle_counter();
        Self {
            core_hz: u64::from(core_hz.max(1)),
            last: DWT::cycle_count(),
            cycles: 0,
        }
    }
}

impl mac_base::TimeSource for CycleClock {
    fn now_ns(&mut self) -> u64 {
        let now = DWT::cycle_count();
        self.cycles += u64::from(now.wrapping_sub(self.last));
        self.last = now;
        // cycles * 1e9 / hz without overflow for 500 years at 96 MHz.
        (self.cycles / self.core_hz) * 1_000_000_000
            + (self.cycles % self.core_hz) * 1_000_000_000 / self.core_hz
    }
}
