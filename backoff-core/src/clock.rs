//! A clock for tests (feature `std`): time that moves only when told to, so a test
//! walks a request through its retries without sleeping.
//!
//! A [`ManualClock`] is shared (clones see the same time); its [`ManualTimer`] is a
//! [`Timer`] for [`retry`](crate::retry::retry) and [`Retrier::retry`](crate::Retrier::retry)
//! (and, with the `embedded-hal` or `embedded-hal-async` features, a `DelayNs` for
//! the firmware loops): a wait advances the clock at once and is written down, so the
//! test can read back every delay the policy chose.
//!
//! ```
//! use backoff_core::clock::ManualClock;
//! use backoff_core::retry::{retry, Failure};
//! use backoff_core::{Policy, Schedule, Stop};
//! use core::time::Duration;
//! use rand_core::SeedableRng;
//!
//! let s = Duration::from_secs;
//! let policy = Policy::new(Schedule::exponential(s(1), backoff_core::Ratio::TWO, s(60)).unwrap())
//!     .with_stop(Stop::NEVER.with_max_attempts(4).unwrap());
//! let clock = ManualClock::new();
//! let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(3);
//! let r = retry(&policy, &mut rng, &mut clock.timer(),
//!     |n| if n < 4 { Err(Failure::Transient(n)) } else { Ok(n) }, |_, _| {});
//! assert_eq!(r, Ok(4));
//! assert_eq!(clock.sleeps(), [s(1), s(2), s(4)]); // seven seconds, none of them real
//! assert_eq!(clock.now(), s(7));
//! ```

use std::sync::{Arc, Mutex, PoisonError};
use std::vec::Vec;

use core::time::Duration;

use crate::retry::Timer;
use crate::time::duration_to_nanos;

#[derive(Debug, Default)]
struct State {
    now_ns: u64,
    sleeps_ns: Vec<u64>,
}

/// Time that moves only when told to (see the [module](self)). Clones share it.
#[derive(Clone, Debug, Default)]
pub struct ManualClock {
    state: Arc<Mutex<State>>,
}

impl ManualClock {
    /// A clock at zero, with no waits written down.
    pub fn new() -> Self {
        Self::default()
    }

    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        // A test that panicked while holding the lock left a consistent state:
        // every change below is one assignment or one push.
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut s)
    }

    /// The time now, since the clock was made.
    pub fn now(&self) -> Duration {
        Duration::from_nanos(self.now_nanos())
    }

    /// The time now, in nanoseconds.
    pub fn now_nanos(&self) -> u64 {
        self.with(|s| s.now_ns)
    }

    /// Move the clock on by `by` (saturating), as time passing outside any wait (an
    /// attempt's own duration, say). Not written down as a wait.
    pub fn advance(&self, by: Duration) {
        let by = duration_to_nanos(by);
        self.with(|s| s.now_ns = s.now_ns.saturating_add(by));
    }

    /// Every wait of its timers so far, in order.
    pub fn sleeps(&self) -> Vec<Duration> {
        self.with(|s| {
            s.sleeps_ns
                .iter()
                .copied()
                .map(Duration::from_nanos)
                .collect()
        })
    }

    /// A timer on this clock: its waits advance it.
    pub fn timer(&self) -> ManualTimer {
        ManualTimer {
            clock: self.clone(),
        }
    }

    fn sleep_ns(&self, ns: u64) {
        self.with(|s| {
            s.now_ns = s.now_ns.saturating_add(ns);
            s.sleeps_ns.push(ns);
        });
    }
}

/// A [`Timer`] on a [`ManualClock`]: elapsed time is the clock's, a wait advances it.
#[derive(Clone, Debug)]
pub struct ManualTimer {
    clock: ManualClock,
}

impl Timer for ManualTimer {
    fn elapsed_ns(&mut self) -> u64 {
        self.clock.now_nanos()
    }
    fn sleep_ns(&mut self, ns: u64) {
        self.clock.sleep_ns(ns);
    }
}

#[cfg(feature = "embedded-hal")]
impl embedded_hal::delay::DelayNs for ManualTimer {
    fn delay_ns(&mut self, ns: u32) {
        self.clock.sleep_ns(u64::from(ns));
    }
}

#[cfg(feature = "embedded-hal-async")]
impl embedded_hal_async::delay::DelayNs for ManualTimer {
    async fn delay_ns(&mut self, ns: u32) {
        self.clock.sleep_ns(u64::from(ns));
    }
}
