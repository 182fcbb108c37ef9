//! Time from SysTick, the Cortex-M core timer, which QEMU models in real time (its
//! UART has no baud-rate timing, so byte times are measured here).
//!
//! SysTick counts down at the core clock and interrupts every [`PERIOD`] cycles
//! (164 µs at 25 MHz); the interrupt counts the periods, and a reading combines the
//! count with the counter. Waiting is done asleep (`WFI`) until the next interrupt.
//!
//! Sleeping matters on QEMU: every register read takes the emulator's global lock,
//! and a guest that polls registers back to back starves the thread that moves the
//! socket's bytes into the UART, stalling received frames for hundreds of
//! milliseconds on a busy host. A halted core leaves that thread free.

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m::peripheral::SYST;
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m_rt::exception;

/// Cycles per SysTick period.
pub const PERIOD: u32 = 1 << 12;

/// Periods elapsed (wraps after 2^32 periods: 8 days at 25 MHz).
static PERIODS: AtomicU32 = AtomicU32::new(0);

#[exception]
fn SysTick() {
    PERIODS.fetch_add(1, Ordering::Relaxed);
}

/// Start SysTick at the core clock, interrupting once per period.
pub fn start(mut syst: SYST) {
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(PERIOD - 1);
    syst.clear_current();
    syst.enable_interrupt();
    syst.enable_counter();
}

/// Cycles since `start`, from a consistent pair (periods, counter).
fn cycles() -> u64 {
    loop {
        let before = PERIODS.load(Ordering::Acquire);
        let counter = SYST::get_current();
        let after = PERIODS.load(Ordering::Acquire);
        if before == after {
            return u64::from(before) * u64::from(PERIOD)
                + u64::from(PERIOD - 1 - counter.min(PERIOD - 1));
        }
    }
}

/// A 64-bit nanosecond clock on SysTick.
pub struct SysTickClock {
    ns_per_cycle: u32,
    last: u64,
}

impl SysTickClock {
    /// A clock for a core running at `core_hz` (a whole number of nanoseconds per cycle).
    pub fn new(core_hz: u32) -> Self {
        Self {
            ns_per_cycle: 1_000_000_000 / core_hz.max(1),
            last: 0,
        }
    }
}

impl serial_mac::TimeSource for SysTickClock {
    fn now_ns(&mut self) -> u64 {
        let mut now = cycles();
        if now < self.last {
            // The counter wrapped and its interrupt has not run yet.
            now += u64::from(PERIOD);
        }
        self.last = now;
        now * u64::from(self.ns_per_cycle)
    }
}

/// A delay that sleeps until enough SysTick interrupts have passed. It may last up to
/// one period longer than asked, never shorter.
pub struct SysTickDelay {
    ns_per_cycle: u32,
}

impl SysTickDelay {
    /// A delay for a core running at `core_hz`.
    pub fn new(core_hz: u32) -> Self {
        Self {
            ns_per_cycle: 1_000_000_000 / core_hz.max(1),
        }
    }
}

impl embedded_hal::delay::DelayNs for SysTickDelay {
    fn delay_ns(&mut self, ns: u32) {
        let wanted = u64::from(ns).div_ceil(u64::from(self.ns_per_cycle.max(1)));
        let start = cycles();
        while cycles().saturating_sub(start) < wanted {
            cortex_m::asm::wfi();
        }
    }
}
