//! Hedging: send a copy of a request when the first has not answered in time, and
//! take the first answer (gRFC A6, *Hedging Policy*; Dean and Barroso, "The Tail at
//! Scale", CACM 56(2), 2013).
//!
//! gRPC's `hedgingPolicy` is [`HedgingPolicy`]: `maxAttempts` (the original and
//! every hedge, at least 2, at most the client's cap, 5 by default) and
//! `hedgingDelay`. Its `nonFatalStatusCodes` are the caller's to classify: each
//! attempt's end is a [`HedgeResponse`]. One call is a [`HedgedCall`], a state
//! machine on the caller's clock that says when to send the next attempt
//! ([`HedgedCall::poll`]) and takes each attempt's response
//! ([`HedgedCall::on_response`]), following A6's *Summary of Retry and Hedging
//! Logic*:
//!
//! | response | what the call does |
//! |---|---|
//! | OK | done: the answer is the call's (cancel the others) |
//! | non-fatal status | the next hedge is sent at once; later ones resume at `hedgingDelay` |
//! | fatal status | done: the error is the call's (cancel the others) |
//! | pushback "do not retry" | no more hedges; the outstanding ones may still answer |
//! | pushback of *n* ms | the next hedge is sent *n* ms later, later ones at `n + hedgingDelay` |
//!
//! The original is always sent; every hedge after it asks a [`HedgeGate`] first.
//! gRPC's `retryThrottling` ([`TokenBudget`]) is one: a hedge is sent only while
//! its tokens are above half, and each failure that counts (a non-fatal status or a
//! pushback refusing) takes a token, as A6's *Throttling Retry Attempts and Hedged
//! RPCs* says, so retries and hedges share one budget.
//!
//! **The hazard, and the guard.** When a slowdown hits every request (a partial outage
//! adding 200 ms to every answer), every request waits out `hedgingDelay` and hedges,
//! and the hedge is no faster: the load multiplies by `maxAttempts` exactly when the
//! server is weakest. [`HedgeGuard`] is a gate that keeps hedges a bounded share of
//! requests (a token bucket filled by each original request: 10 % by default, twice the
//! 5 % that "The Tail at Scale" expects from a hedging delay at the 95th percentile of
//! latency, so that the bound holds a slowdown but not normal hedging) and
//! backs hedging off when it does not help: every 20 hedged calls it looks at how many
//! a hedge won, and below one in five it doubles the hedging delay (up to 64 times),
//! while unhedged calls and hedges that win bring it back.
//!
//! ```
//! use backoff_core::hedge::{HedgeResponse, HedgeStep, HedgedCall, HedgingPolicy, HedgeEnd};
//! use core::time::Duration;
//!
//! // gRFC A6's example: an original, then up to three hedges 500 ms apart.
//! let policy = HedgingPolicy::new(4, Duration::from_millis(500)).unwrap();
//! let ms = 1_000_000;
//! let mut call = HedgedCall::new(policy, 0);
//! assert_eq!(call.poll(0, &mut ()), HedgeStep::Send { attempt: 1 });
//! assert_eq!(call.poll(0, &mut ()), HedgeStep::WaitUntil { at_ns: 500 * ms });
//! assert_eq!(call.poll(500 * ms, &mut ()), HedgeStep::Send { attempt: 2 });
//! // The original fails with a non-fatal status at 700 ms: the third goes at once.
//! call.on_response(1, 700 * ms, HedgeResponse::NON_FATAL, &mut ());
//! assert_eq!(call.poll(700 * ms, &mut ()), HedgeStep::Send { attempt: 3 });
//! assert_eq!(call.poll(700 * ms, &mut ()), HedgeStep::WaitUntil { at_ns: 1_200 * ms });
//! // The first hedge answers at 900 ms: the call is done, the third is cancelled.
//! call.on_response(2, 900 * ms, HedgeResponse::Ok, &mut ());
//! assert_eq!(call.poll(900 * ms, &mut ()), HedgeStep::Done(HedgeEnd::Succeeded { attempt: 2 }));
//! ```

use core::time::Duration;

use crate::answer::ServerAnswer;
use crate::budget::{RatioBudget, TokenBudget};
use crate::error::{ConfigError, ConfigErrorKind};
use crate::observe::{Event, Observer};
use crate::policy::{Ratio, StopReason};
use crate::retry::GiveUpReason;
use crate::time::duration_to_nanos;

/// gRPC's client-side cap on `maxAttempts` (A6, *Limits on Retries and Hedges*), the
/// same for hedging as for retries: a service config asking for more gets 5.
pub use crate::policy::presets::GRPC_MAX_ATTEMPTS_CAP;

/// gRFC A6's `hedgingPolicy`: how many attempts, how far apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HedgingPolicy {
    max_attempts: u32,
    delay_ns: u64,
}

impl HedgingPolicy {
    /// `maxAttempts` (the original and every hedge) and `hedgingDelay` (0: every
    /// attempt at once), with gRPC's client cap: above [`GRPC_MAX_ATTEMPTS_CAP`] is
    /// taken as 5, as gRPC takes it.
    ///
    /// ```
    /// use backoff_core::hedge::HedgingPolicy;
    /// use core::time::Duration;
    /// assert_eq!(HedgingPolicy::new(9, Duration::ZERO).unwrap().max_attempts(), 5);
    /// assert!(HedgingPolicy::new(1, Duration::ZERO).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] for `max_attempts` below 2 (A6: "must be two or
    /// greater").
    pub const fn new(max_attempts: u32, hedging_delay: Duration) -> Result<Self, ConfigError> {
        Self::with_cap(
            max_attempts,
            duration_to_nanos(hedging_delay),
            GRPC_MAX_ATTEMPTS_CAP,
        )
    }

    /// [`HedgingPolicy::new`] in nanoseconds, with the client's own cap on attempts
    /// (gRPC's channel argument that changes the 5).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] for `max_attempts` or `cap` below 2.
    pub const fn with_cap(max_attempts: u32, delay_ns: u64, cap: u32) -> Result<Self, ConfigError> {
        if max_attempts < 2 || cap < 2 {
            return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
        }
        Ok(Self {
            max_attempts: if max_attempts < cap {
                max_attempts
            } else {
                cap
            },
            delay_ns,
        })
    }

    /// Attempts at most, the original included (after the cap).
    pub const fn max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// `hedgingDelay` in nanoseconds.
    pub const fn delay_nanos(&self) -> u64 {
        self.delay_ns
    }

    /// `hedgingDelay`.
    pub const fn delay(&self) -> Duration {
        Duration::from_nanos(self.delay_ns)
    }
}

/// How one attempt of a hedged call ended, as the caller classifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum HedgeResponse {
    /// A valid response: the call's answer.
    Ok,
    /// A status among `nonFatalStatusCodes`, with what the server said about retrying
    /// (a gRPC pushback; a `Retry-After` is read the same way, as a delay).
    NonFatal(ServerAnswer),
    /// Any other status: the call's error.
    Fatal,
}

impl HedgeResponse {
    /// A non-fatal status with no pushback.
    pub const NON_FATAL: Self = Self::NonFatal(ServerAnswer::None);
}

/// Why a hedged call ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum HedgeFailure {
    /// An attempt ended with a fatal status.
    Fatal,
    /// All `maxAttempts` were sent and every one failed.
    AllFailed,
    /// A pushback said not to retry, and every attempt sent has failed since.
    ServerRefused,
    /// The gate refused a hedge (throttled, or the guard's share spent), and every
    /// attempt sent has failed.
    Throttled,
    /// The call's deadline passed ([`HedgedCall::with_deadline`]).
    Deadline,
}

/// How a hedged call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum HedgeEnd {
    /// This attempt answered (1 is the original): cancel the others.
    Succeeded {
        /// The attempt that answered.
        attempt: u32,
    },
    /// No answer: cancel the others and return the error.
    Failed(HedgeFailure),
}

/// What the caller does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum HedgeStep {
    /// Send this attempt now (1 is the original), then poll again.
    Send {
        /// The attempt's number.
        attempt: u32,
    },
    /// Wait for a response or this instant, whichever comes first, then poll again.
    WaitUntil {
        /// When the next hedge is due, on the caller's clock.
        at_ns: u64,
    },
    /// No more hedges: wait for the outstanding attempts' responses.
    AwaitOutstanding,
    /// The call is over.
    Done(HedgeEnd),
}

/// What a gate learns of a call that ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CallSummary {
    /// Hedges sent (attempts after the original).
    pub hedges: u32,
    /// Whether a hedge gave the call's answer.
    pub hedge_won: bool,
    /// Whether a gate refused a hedge the policy had due.
    pub hedge_refused: bool,
}

/// Whether a hedge may be sent: gRPC's retry throttling, a [`HedgeGuard`], or both
/// (a pair is a gate that both must allow). The original request is never asked
/// about. `()` allows every hedge.
pub trait HedgeGate {
    /// May a hedge be sent at `now_ns`? Changes nothing.
    fn allows_hedge(&self, now_ns: u64) -> bool;

    /// An original request was sent.
    fn on_original(&mut self, _now_ns: u64) {}

    /// A hedge was sent (after [`HedgeGate::allows_hedge`] allowed it).
    fn on_hedge(&mut self, _now_ns: u64) {}

    /// An attempt ended: a success, or a failure that counts against throttling (a
    /// non-fatal status, with or without pushback). Fatal statuses are not counted
    /// (A6: they are the request's fault, not the server's).
    fn on_attempt(&mut self, _now_ns: u64, _success: bool) {}

    /// A call ended.
    fn on_call(&mut self, _now_ns: u64, _call: CallSummary) {}

    /// The delay before the next hedge, given the policy's: the gate may lengthen it.
    fn hedge_delay_ns(&self, policy_delay_ns: u64) -> u64 {
        policy_delay_ns
    }
}

impl HedgeGate for () {
    #[inline]
    fn allows_hedge(&self, _now_ns: u64) -> bool {
        true
    }
}

impl<G: HedgeGate + ?Sized> HedgeGate for &mut G {
    fn allows_hedge(&self, now_ns: u64) -> bool {
        (**self).allows_hedge(now_ns)
    }
    fn on_original(&mut self, now_ns: u64) {
        (**self).on_original(now_ns);
    }
    fn on_hedge(&mut self, now_ns: u64) {
        (**self).on_hedge(now_ns);
    }
    fn on_attempt(&mut self, now_ns: u64, success: bool) {
        (**self).on_attempt(now_ns, success);
    }
    fn on_call(&mut self, now_ns: u64, call: CallSummary) {
        (**self).on_call(now_ns, call);
    }
    fn hedge_delay_ns(&self, policy_delay_ns: u64) -> u64 {
        (**self).hedge_delay_ns(policy_delay_ns)
    }
}

impl<A: HedgeGate, B: HedgeGate> HedgeGate for (A, B) {
    fn allows_hedge(&self, now_ns: u64) -> bool {
        self.0.allows_hedge(now_ns) && self.1.allows_hedge(now_ns)
    }
    fn on_original(&mut self, now_ns: u64) {
        self.0.on_original(now_ns);
        self.1.on_original(now_ns);
    }
    fn on_hedge(&mut self, now_ns: u64) {
        self.0.on_hedge(now_ns);
        self.1.on_hedge(now_ns);
    }
    fn on_attempt(&mut self, now_ns: u64, success: bool) {
        self.0.on_attempt(now_ns, success);
        self.1.on_attempt(now_ns, success);
    }
    fn on_call(&mut self, now_ns: u64, call: CallSummary) {
        self.0.on_call(now_ns, call);
        self.1.on_call(now_ns, call);
    }
    fn hedge_delay_ns(&self, policy_delay_ns: u64) -> u64 {
        self.1
            .hedge_delay_ns(self.0.hedge_delay_ns(policy_delay_ns))
    }
}

/// gRPC's `retryThrottling` applied to hedges (A6): a hedge only while the tokens
/// are above half; every counted failure takes one, every success adds the ratio.
impl HedgeGate for TokenBudget {
    fn allows_hedge(&self, _now_ns: u64) -> bool {
        self.allows_retry()
    }
    fn on_attempt(&mut self, _now_ns: u64, success: bool) {
        self.record(success);
    }
}

/// One hedged call (see the [module](self) for the rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HedgedCall {
    policy: HedgingPolicy,
    sent: u32,
    outstanding: u32,
    next_at_ns: u64,
    deadline_ns: u64,
    /// Why no more attempts will be sent, if something stopped them early.
    stopped: Option<HedgeFailure>,
    end: Option<HedgeEnd>,
    /// Whether an observer was told of the failed end.
    reported: bool,
}

impl HedgedCall {
    /// A call whose original is due at `now_ns`.
    pub const fn new(policy: HedgingPolicy, now_ns: u64) -> Self {
        Self {
            policy,
            sent: 0,
            outstanding: 0,
            next_at_ns: now_ns,
            deadline_ns: u64::MAX,
            stopped: None,
            end: None,
            reported: false,
        }
    }

    /// The same, failing with [`HedgeFailure::Deadline`] once `deadline_ns` is reached
    /// (A6: the call's deadline applies to the whole chain of hedges).
    pub const fn with_deadline(mut self, deadline_ns: u64) -> Self {
        self.deadline_ns = deadline_ns;
        self
    }

    /// Attempts sent so far, the original included.
    pub const fn sent(&self) -> u32 {
        self.sent
    }

    /// Attempts sent and not yet answered.
    pub const fn outstanding(&self) -> u32 {
        self.outstanding
    }

    /// Hedges sent so far (attempts after the original).
    pub const fn hedges(&self) -> u32 {
        self.sent.saturating_sub(1)
    }

    /// What to do at `now_ns`: send an attempt, wait, or stop. Call it after every
    /// [`HedgeStep::Send`], every response and every wake-up; each `Send` is one
    /// attempt to send now.
    pub fn poll<G: HedgeGate + ?Sized>(&mut self, now_ns: u64, gate: &mut G) -> HedgeStep {
        self.poll_observed(now_ns, gate, &mut ())
    }

    /// [`HedgedCall::poll`], telling `observer` of each hedge sent
    /// ([`Event::HedgeSent`]) and of a call that ends without an answer
    /// ([`Event::GaveUp`]: a fatal status is [`GiveUpReason::Permanent`], all attempts
    /// failed [`StopReason::MaxAttempts`], a refusing pushback
    /// [`StopReason::ServerRefused`], a refused hedge [`GiveUpReason::Budget`], the
    /// deadline [`StopReason::MaxElapsed`]).
    pub fn poll_observed<G: HedgeGate + ?Sized, O: Observer + ?Sized>(
        &mut self,
        now_ns: u64,
        gate: &mut G,
        observer: &mut O,
    ) -> HedgeStep {
        let step = self.step(now_ns, gate);
        match step {
            HedgeStep::Send { attempt } if attempt > 1 => {
                observer.on_event(&Event::HedgeSent { attempt });
            }
            HedgeStep::Done(HedgeEnd::Failed(why)) if !self.reported => {
                self.reported = true;
                let reason = match why {
                    HedgeFailure::Fatal => GiveUpReason::Permanent,
                    HedgeFailure::AllFailed => GiveUpReason::Policy(StopReason::MaxAttempts),
                    HedgeFailure::ServerRefused => GiveUpReason::Policy(StopReason::ServerRefused),
                    HedgeFailure::Throttled => GiveUpReason::Budget,
                    HedgeFailure::Deadline => GiveUpReason::Policy(StopReason::MaxElapsed),
                };
                observer.on_event(&Event::GaveUp {
                    attempts: self.sent,
                    reason,
                });
            }
            _ => {}
        }
        step
    }

    fn step<G: HedgeGate + ?Sized>(&mut self, now_ns: u64, gate: &mut G) -> HedgeStep {
        if let Some(end) = self.end {
            return HedgeStep::Done(end);
        }
        if now_ns >= self.deadline_ns {
            return self.finish(now_ns, HedgeEnd::Failed(HedgeFailure::Deadline), gate);
        }
        if self.stopped.is_none()
            && self.sent < self.policy.max_attempts
            && now_ns >= self.next_at_ns
        {
            if self.sent == 0 {
                gate.on_original(now_ns);
            } else if gate.allows_hedge(now_ns) {
                gate.on_hedge(now_ns);
            } else {
                self.stopped = Some(HedgeFailure::Throttled);
            }
            if self.stopped.is_none() {
                self.sent = self.sent.saturating_add(1);
                self.outstanding = self.outstanding.saturating_add(1);
                self.next_at_ns = now_ns.saturating_add(gate.hedge_delay_ns(self.policy.delay_ns));
                return HedgeStep::Send { attempt: self.sent };
            }
        }
        let more = self.stopped.is_none() && self.sent < self.policy.max_attempts;
        match (more, self.outstanding) {
            (true, _) => HedgeStep::WaitUntil {
                at_ns: self.next_at_ns.min(self.deadline_ns),
            },
            (false, 0) => {
                let why = self.stopped.unwrap_or(HedgeFailure::AllFailed);
                self.finish(now_ns, HedgeEnd::Failed(why), gate)
            }
            (false, _) => HedgeStep::AwaitOutstanding,
        }
    }

    /// Attempt `attempt` ended at `now_ns` with `response`. A response to an attempt
    /// never sent, or after the call ended, is ignored.
    pub fn on_response<G: HedgeGate + ?Sized>(
        &mut self,
        attempt: u32,
        now_ns: u64,
        response: HedgeResponse,
        gate: &mut G,
    ) {
        if self.end.is_some() || attempt == 0 || attempt > self.sent || self.outstanding == 0 {
            return;
        }
        self.outstanding = self.outstanding.saturating_sub(1);
        match response {
            HedgeResponse::Ok => {
                gate.on_attempt(now_ns, true);
                self.finish(now_ns, HedgeEnd::Succeeded { attempt }, gate);
            }
            HedgeResponse::Fatal => {
                self.finish(now_ns, HedgeEnd::Failed(HedgeFailure::Fatal), gate);
            }
            HedgeResponse::NonFatal(answer) => {
                gate.on_attempt(now_ns, false);
                match answer {
                    ServerAnswer::DoNotRetry => {
                        if self.stopped.is_none() {
                            self.stopped = Some(HedgeFailure::ServerRefused);
                        }
                    }
                    ServerAnswer::Pushback { delay_ns } | ServerAnswer::RetryAfter { delay_ns } => {
                        self.next_at_ns = now_ns.saturating_add(delay_ns);
                    }
                    ServerAnswer::None => self.next_at_ns = now_ns,
                }
            }
        }
    }

    fn finish<G: HedgeGate + ?Sized>(
        &mut self,
        now_ns: u64,
        end: HedgeEnd,
        gate: &mut G,
    ) -> HedgeStep {
        let summary = CallSummary {
            hedges: self.hedges(),
            hedge_won: matches!(end, HedgeEnd::Succeeded { attempt } if attempt > 1),
            hedge_refused: self.stopped == Some(HedgeFailure::Throttled),
        };
        gate.on_call(now_ns, summary);
        self.end = Some(end);
        HedgeStep::Done(end)
    }
}

/// Hedged calls a [`HedgeGuard`] looks at before it judges whether hedging helps.
pub const GUARD_WINDOW_CALLS: u32 = 20;
/// The guard backs off when hedges won fewer than this share of the hedged calls.
pub const GUARD_MIN_WIN: Ratio = Ratio::ONE_FIFTH;
/// The guard lengthens the hedging delay at most `2^GUARD_MAX_SHIFT` times (64).
pub const GUARD_MAX_SHIFT: u32 = 6;
/// Calls that end without a hedge, at a lengthened delay, after which the guard
/// shortens it one step (hedging is tried again, at most one call in this many).
pub const GUARD_PROBE_CALLS: u32 = 100;

/// A gate that bounds hedges to a share of requests and backs hedging off when it
/// does not help (see the [module](self)).
///
/// ```
/// use backoff_core::hedge::{CallSummary, HedgeGate, HedgeGuard};
/// use backoff_core::Ratio;
/// let mut g = HedgeGuard::new(Ratio::from_percent(5), 10).unwrap();
/// // 20 hedged calls that no hedge won (a slowdown that every copy shares):
/// let lost = CallSummary { hedges: 1, hedge_won: false, hedge_refused: false };
/// for _ in 0..20 { g.on_original(0); g.on_call(0, lost); }
/// assert_eq!(g.hedge_delay_ns(500), 1_000); // the delay doubled
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HedgeGuard {
    share: RatioBudget,
    shift: u32,
    hedged: u32,
    won: u32,
    unhedged: u32,
}

impl HedgeGuard {
    /// Hedges at most `share` of requests, with at most `burst` hedges banked (the
    /// bucket starts empty: hedging is earned by requests).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] for a `share` above one or a `burst` of 0.
    pub const fn new(share: Ratio, burst: u32) -> Result<Self, ConfigError> {
        match core::num::NonZeroU32::new(burst) {
            Some(burst) if share.is_at_most_one() => Ok(Self::with_burst(share, burst)),
            _ => Err(ConfigError::new(ConfigErrorKind::OutOfRange)),
        }
    }

    /// The default bound: hedges at most 10 % of requests (twice the 5 % that "The
    /// Tail at Scale" expects from a hedging delay at the 95th percentile), 10 banked.
    pub const fn tail_at_scale() -> Self {
        Self::with_burst(
            Ratio::from_percent(10),
            core::num::NonZeroU32::MIN.saturating_add(9),
        )
    }

    const fn with_burst(share: Ratio, burst: core::num::NonZeroU32) -> Self {
        Self {
            share: RatioBudget::with_cap(share, 0, burst),
            shift: 0,
            hedged: 0,
            won: 0,
            unhedged: 0,
        }
    }

    /// How many times the policy's hedging delay is doubled now (0 to
    /// [`GUARD_MAX_SHIFT`]).
    pub const fn backoff_shift(&self) -> u32 {
        self.shift
    }
}

impl HedgeGate for HedgeGuard {
    fn allows_hedge(&self, now_ns: u64) -> bool {
        self.share.allows_retry_at(now_ns)
    }

    fn on_original(&mut self, now_ns: u64) {
        self.share.on_request(now_ns);
    }

    fn on_hedge(&mut self, now_ns: u64) {
        // Allowed just before, at the same instant: the withdrawal succeeds.
        let _ = self.share.try_retry(now_ns);
    }

    fn on_call(&mut self, _now_ns: u64, call: CallSummary) {
        if call.hedges == 0 {
            // A call that ended before its hedge was due says hedging was not needed;
            // one whose hedge was refused (the share spent) says nothing.
            if self.shift > 0 && !call.hedge_refused {
                self.unhedged = self.unhedged.saturating_add(1);
                if self.unhedged >= GUARD_PROBE_CALLS {
                    self.shift = self.shift.saturating_sub(1);
                    self.unhedged = 0;
                }
            }
            return;
        }
        self.hedged = self.hedged.saturating_add(1);
        if call.hedge_won {
            self.won = self.won.saturating_add(1);
        }
        if self.hedged >= GUARD_WINDOW_CALLS {
            let min_won = GUARD_MIN_WIN.mul_floor(u64::from(self.hedged));
            if u64::from(self.won) < min_won {
                self.shift = self.shift.saturating_add(1).min(GUARD_MAX_SHIFT);
            } else {
                self.shift = self.shift.saturating_sub(1);
            }
            self.hedged = 0;
            self.won = 0;
            self.unhedged = 0;
        }
    }

    fn hedge_delay_ns(&self, policy_delay_ns: u64) -> u64 {
        policy_delay_ns.saturating_mul(1u64.checked_shl(self.shift).unwrap_or(u64::MAX))
    }
}
