//! Hooks for a service's metrics and logs: one [`Observer`] that sees every decision
//! a [`Retrier`](crate::Retrier) makes, each a typed [`Event`].
//!
//! `()` is the observer that sees nothing: with it every call to
//! [`Observer::on_event`] is an empty inline function, so an unobserved retrier costs
//! nothing. A closure `FnMut(&Event)` is an observer, and so is `&mut O`.
//!
//! ```
//! use backoff_core::observe::Event;
//! use backoff_core::{Policy, Retrier, Schedule, Stop};
//! use backoff_core::retry::{Failure, GiveUpReason};
//! use backoff_core::retry::Timer;
//! use rand_core::SeedableRng;
//!
//! struct Sim(u64); // simulated time (with feature `std`, `clock::ManualClock` is one)
//! impl Timer for Sim {
//!     fn elapsed_ns(&mut self) -> u64 { self.0 }
//!     fn sleep_ns(&mut self, ns: u64) { self.0 += ns; }
//! }
//!
//! let policy = Policy::new(Schedule::constant_nanos(1_000))
//!     .with_stop(Stop::NEVER.with_max_attempts(3).unwrap());
//! let mut seen = Vec::new();
//! let mut retrier = Retrier::new(policy).with_observer(|e: &Event| seen.push(*e));
//! let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
//! let r: Result<(), _> = retrier.retry(&mut rng, &mut Sim(0), |_| Err(Failure::Transient("busy")));
//! assert_eq!(r.unwrap_err().attempts, 3);
//! drop(retrier);
//! assert_eq!(seen[0], Event::Retry { attempt: 1, delay_ns: 1_000 });
//! assert!(matches!(seen[2], Event::GaveUp { attempts: 3, reason: GiveUpReason::Policy(_) }));
//! ```

use crate::answer::ServerAnswer;
use crate::breaker::BreakerState;
use crate::retry::GiveUpReason;

/// One decision, as an observer sees it.
///
/// `#[non_exhaustive]`: new decisions may be added, so a `match` outside this crate
/// needs a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Event {
    /// Attempt `attempt` failed and will be retried after `delay_ns`.
    Retry {
        /// The attempt that failed (1 is the first).
        attempt: u32,
        /// The wait before the next attempt, in nanoseconds.
        delay_ns: u64,
    },
    /// A hedge was sent (attempt 2 is the first hedge).
    HedgeSent {
        /// The attempt's number.
        attempt: u32,
    },
    /// The request was given up after `attempts` attempts (0: refused before the
    /// first), with the reason: a permanent error, the policy's stop rules, a retry
    /// budget exhausted ([`GiveUpReason::Budget`]), the breaker open
    /// ([`GiveUpReason::BreakerOpen`]).
    GaveUp {
        /// Attempts made.
        attempts: u32,
        /// Why.
        reason: GiveUpReason,
    },
    /// A client-side rate limiter held an attempt back for `wait_ns`.
    Throttled {
        /// How long the attempt must wait, in nanoseconds.
        wait_ns: u64,
    },
    /// The circuit breaker moved from one state to another.
    BreakerChanged {
        /// The state before.
        from: BreakerState,
        /// The state now.
        to: BreakerState,
    },
    /// The server said when (or whether) to retry, and the policy `honoured` it or
    /// not ([`Policy::with_server_answers`](crate::Policy::with_server_answers)).
    ServerAnswer {
        /// What the server said.
        answer: ServerAnswer,
        /// Whether the policy followed it.
        honoured: bool,
    },
}

/// Sees every [`Event`]. Implement it for a metrics registry or a logger.
pub trait Observer {
    /// One decision was made.
    fn on_event(&mut self, event: &Event);
}

impl Observer for () {
    #[inline(always)]
    fn on_event(&mut self, _event: &Event) {}
}

impl<F: FnMut(&Event)> Observer for F {
    #[inline]
    fn on_event(&mut self, event: &Event) {
        self(event);
    }
}

/// Counts of each kind of event: a ready-made observer for tests and summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct EventCounts {
    /// [`Event::Retry`].
    pub retries: u64,
    /// [`Event::HedgeSent`].
    pub hedges: u64,
    /// [`Event::GaveUp`].
    pub gave_up: u64,
    /// [`Event::GaveUp`] for [`GiveUpReason::Budget`].
    pub budget_exhausted: u64,
    /// [`Event::Throttled`].
    pub throttled: u64,
    /// [`Event::BreakerChanged`].
    pub breaker_changes: u64,
    /// [`Event::ServerAnswer`] that the policy honoured.
    pub answers_honoured: u64,
}

impl Observer for EventCounts {
    fn on_event(&mut self, event: &Event) {
        let n = match *event {
            Event::Retry { .. } => &mut self.retries,
            Event::HedgeSent { .. } => &mut self.hedges,
            Event::GaveUp { reason, .. } => {
                if reason == GiveUpReason::Budget {
                    self.budget_exhausted = self.budget_exhausted.saturating_add(1);
                }
                &mut self.gave_up
            }
            Event::Throttled { .. } => &mut self.throttled,
            Event::BreakerChanged { .. } => &mut self.breaker_changes,
            Event::ServerAnswer { honoured: true, .. } => &mut self.answers_honoured,
            Event::ServerAnswer {
                honoured: false, ..
            } => return,
        };
        *n = n.saturating_add(1);
    }
}
