//! What a [`Retrier`](crate::Retrier) asks besides its policy: a [`RetryGate`] is a
//! retry budget, a breaker or a client-side rate limiter, shared by every request of
//! a client.
//!
//! | gate | admits an attempt | allows a retry | learns of each attempt |
//! |---|---|---|---|
//! | `()` | always | always | nothing |
//! | [`TokenBudget`] (gRPC `retryThrottling`) | always | tokens above half | success +ratio, counted failure −1 |
//! | [`RatioBudget`], [`TtlBudget`] | counts a request's first attempt | a token withdrawn | nothing |
//! | [`RetryBreaker`] | always | failure ratio not above the threshold | success or failure |
//! | [`CircuitBreaker`] | closed, or a half-open probe | always | success or failure |
//! | [`AdaptiveRateLimiter`] (AWS adaptive mode) | a token, or wait for one | always | throttled or not |
//! | `(A, B)` | both, `A` first | both, `A` first | both |
//!
//! A permanent failure (a bad request) is the request's fault, not the server's: the
//! token budget does not count it (gRFC A6) and the breakers count it as an answer.

use crate::adaptive::AdaptiveRateLimiter;
use crate::breaker::{CircuitBreaker, RetryBreaker};
use crate::budget::{RatioBudget, TokenBudget, TtlBudget};
use crate::observe::{Event, Observer};
use crate::retry::GiveUpReason;

/// May an attempt start now?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Admit {
    /// Send it now.
    Go,
    /// Wait this many nanoseconds, then ask again (a rate limiter's token).
    Wait {
        /// The wait, in nanoseconds.
        wait_ns: u64,
    },
    /// Do not send it: give up with this reason.
    Refuse(GiveUpReason),
}

/// How an attempt ended, as a gate counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AttemptOutcome {
    /// It succeeded.
    Success,
    /// It failed and may be retried; `throttled` if the server said it was throttling
    /// the client (the AWS SDKs' throttling error codes, HTTP 429).
    Failure {
        /// Whether the server throttled it.
        throttled: bool,
    },
    /// It failed for good (the request's fault).
    Permanent,
}

impl AttemptOutcome {
    /// Whether the server answered in a way that speaks for its health (a success or
    /// a permanent error).
    const fn answered(self) -> bool {
        !matches!(self, AttemptOutcome::Failure { .. })
    }
}

/// A retry budget, a breaker or a rate limiter (see the [module](self) table).
pub trait RetryGate {
    /// May an attempt start at `now_ns`? `first` for a request's first attempt.
    fn admit<O: Observer + ?Sized>(
        &mut self,
        _now_ns: u64,
        _first: bool,
        _observer: &mut O,
    ) -> Admit {
        Admit::Go
    }

    /// May a failed request be retried at `now_ns`? A budget charges the retry when it
    /// allows it.
    fn allow_retry(&mut self, _now_ns: u64) -> bool {
        true
    }

    /// An attempt ended at `now_ns`.
    fn on_result<O: Observer + ?Sized>(
        &mut self,
        _now_ns: u64,
        _outcome: AttemptOutcome,
        _observer: &mut O,
    ) {
    }
}

impl RetryGate for () {}

impl<G: RetryGate + ?Sized> RetryGate for &mut G {
    fn admit<O: Observer + ?Sized>(&mut self, now_ns: u64, first: bool, observer: &mut O) -> Admit {
        (**self).admit(now_ns, first, observer)
    }
    fn allow_retry(&mut self, now_ns: u64) -> bool {
        (**self).allow_retry(now_ns)
    }
    fn on_result<O: Observer + ?Sized>(
        &mut self,
        now_ns: u64,
        outcome: AttemptOutcome,
        observer: &mut O,
    ) {
        (**self).on_result(now_ns, outcome, observer);
    }
}

/// Both gates, asked in order: the first that does not say [`Admit::Go`] (or does not
/// allow a retry) decides, so put a rate limiter before a breaker (a refused attempt
/// then spends no probe) and a budget last (a refused retry then spends no token).
impl<A: RetryGate, B: RetryGate> RetryGate for (A, B) {
    fn admit<O: Observer + ?Sized>(&mut self, now_ns: u64, first: bool, observer: &mut O) -> Admit {
        match self.0.admit(now_ns, first, observer) {
            Admit::Go => self.1.admit(now_ns, first, observer),
            other => other,
        }
    }
    fn allow_retry(&mut self, now_ns: u64) -> bool {
        self.0.allow_retry(now_ns) && self.1.allow_retry(now_ns)
    }
    fn on_result<O: Observer + ?Sized>(
        &mut self,
        now_ns: u64,
        outcome: AttemptOutcome,
        observer: &mut O,
    ) {
        self.0.on_result(now_ns, outcome, observer);
        self.1.on_result(now_ns, outcome, observer);
    }
}

impl RetryGate for TokenBudget {
    fn allow_retry(&mut self, _now_ns: u64) -> bool {
        self.allows_retry()
    }
    fn on_result<O: Observer + ?Sized>(
        &mut self,
        _now_ns: u64,
        outcome: AttemptOutcome,
        _observer: &mut O,
    ) {
        match outcome {
            AttemptOutcome::Success => self.record(true),
            AttemptOutcome::Failure { .. } => self.record(false),
            AttemptOutcome::Permanent => {}
        }
    }
}

/// A budget that every request's first attempt fills and every retry draws on.
macro_rules! request_budget_gate {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> RetryGate for $t {
            fn admit<O: Observer + ?Sized>(&mut self, now_ns: u64, first: bool, _observer: &mut O) -> Admit {
                if first {
                    self.on_request(now_ns);
                }
                Admit::Go
            }
            fn allow_retry(&mut self, now_ns: u64) -> bool {
                self.try_retry(now_ns)
            }
        }
    )*};
}
request_budget_gate!([] RatioBudget, [const N: usize] TtlBudget<N>);

impl<const N: usize> RetryGate for RetryBreaker<N> {
    fn allow_retry(&mut self, now_ns: u64) -> bool {
        self.allows_retry(now_ns)
    }
    fn on_result<O: Observer + ?Sized>(
        &mut self,
        now_ns: u64,
        outcome: AttemptOutcome,
        _observer: &mut O,
    ) {
        self.record(now_ns, outcome.answered());
    }
}

impl<const N: usize> RetryGate for CircuitBreaker<N> {
    fn admit<O: Observer + ?Sized>(
        &mut self,
        now_ns: u64,
        _first: bool,
        observer: &mut O,
    ) -> Admit {
        let from = self.state();
        let go = self.acquire(now_ns);
        changed(from, self.state(), observer);
        if go {
            Admit::Go
        } else {
            Admit::Refuse(GiveUpReason::BreakerOpen)
        }
    }
    fn on_result<O: Observer + ?Sized>(
        &mut self,
        now_ns: u64,
        outcome: AttemptOutcome,
        observer: &mut O,
    ) {
        let from = self.state();
        CircuitBreaker::on_result(self, now_ns, outcome.answered());
        changed(from, self.state(), observer);
    }
}

/// Tell the observer of a breaker's move between states (counts within a state are
/// not a move).
fn changed<O: Observer + ?Sized>(
    from: crate::BreakerState,
    to: crate::BreakerState,
    observer: &mut O,
) {
    if core::mem::discriminant(&from) != core::mem::discriminant(&to) {
        observer.on_event(&Event::BreakerChanged { from, to });
    }
}

impl RetryGate for AdaptiveRateLimiter {
    fn admit<O: Observer + ?Sized>(
        &mut self,
        now_ns: u64,
        _first: bool,
        observer: &mut O,
    ) -> Admit {
        match self.acquire(now_ns) {
            Ok(()) => Admit::Go,
            Err(t) => {
                observer.on_event(&Event::Throttled { wait_ns: t.wait_ns });
                Admit::Wait { wait_ns: t.wait_ns }
            }
        }
    }
    fn on_result<O: Observer + ?Sized>(
        &mut self,
        now_ns: u64,
        outcome: AttemptOutcome,
        _observer: &mut O,
    ) {
        let throttled = matches!(outcome, AttemptOutcome::Failure { throttled: true });
        self.on_response(now_ns, throttled);
    }
}
