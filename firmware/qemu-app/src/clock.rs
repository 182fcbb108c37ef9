//! Time from SysTick, the Cortex-M core timer, which QEMU models in real time (its
//! UART has no baud-rate timing, so byte times are measured here).
//!
//! SysTick is a down-counter at the core clock; [`SysTickClock`] extends it to 64
//! bits by noting how far it moved since the last reading. That needs a reading at
//! least once per counter period, which the MAC's polling loop gives many times over
//! (a missed period would make the clock slow, never fast: waits only get longer).
//! No interrupt is used.
//!
//! The period is 2^16 cycles (2.6 ms), not the 2^24 the counter allows, for QEMU's
//! sake: its main loop, which moves the socket's bytes into the emulated UART, may
//! sleep until its next timer event once the UART's one-byte buffer has been full,
//! and SysTick's reload is such an event. With 2^24 cycles a received frame could
//! stall for 0.67 s between two bytes; with 2^16 the stall is at most 2.6 ms.

use cortex_m::peripheral::SYST;
use cortex_m::peripheral::syst::SystClkSource;

const PERIOD_MASK: u32 = 0x0000_FFFF;

/// Start SysTick free-running at the core clock.
pub fn start(mut syst: SYST) {
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(PERIOD_MASK);
    syst.clear_current();
    syst.enable_counter();
}

/// Ticks the counter has moved since `last`, and the new reading.
fn advance(last: u32) -> (u32, u32) {
    let now = SYST::get_current();
    (last.wrapping_sub(now) & PERIOD_MASK, now)
}

/// A 64-bit nanosecond clock on SysTick.
pub struct SysTickClock {
    ns_per_tick: u32,
    last: u32,
    ticks: u64,
}

impl SysTickClock {
    /// A clock for a core running at `core_hz` (a whole number of nanoseconds per tick).
    pub fn new(core_hz: u32) -> Self {
        Self {
            ns_per_tick: 1_000_000_000 / core_hz.max(1),
            last: SYST::get_current(),
            ticks: 0,
        }
    }
}

impl serial_mac::TimeSource for SysTickClock {
    fn now_ns(&mut self) -> u64 {
        let (moved, now) = advance(self.last);
        self.last = now;
        self.ticks += u64::from(moved);
        self.ticks * u64::from(self.ns_per_tick)
    }
}

/// A busy-wait delay on SysTick.
pub struct SysTickDelay {
    ns_per_tick: u32,
}

impl SysTickDelay {
    /// A delay for a core running at `core_hz`.
    pub fn new(core_hz: u32) -> Self {
        Self {
            ns_per_tick: 1_000_000_000 / core_hz.max(1),
        }
    }
}

impl embedded_hal::delay::DelayNs for SysTickDelay {
    fn delay_ns(&mut self, ns: u32) {
        let wanted = u64::from(ns).div_ceil(u64::from(self.ns_per_tick.max(1)));
        let mut last = SYST::get_current();
        let mut waited = 0u64;
        while waited < wanted {
            let (moved, now) = advance(last);
            last = now;
            waited += u64::from(moved);
        }
    }
}
