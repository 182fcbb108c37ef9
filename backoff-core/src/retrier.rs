//! [`Retrier`]: a policy, a gate and an observer joined.

use rand_core::Rng;

use crate::gate::{Admit, AttemptOutcome, RetryGate};
use crate::observe::{Event, Observer};
use crate::policy::{Policy, RetryDecision, RetryState};
use crate::retry::{Failure, GaveUp, GiveUpReason, Timer};

/// What to do after a failed attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Verdict {
    /// Wait this many nanoseconds, then (after [`Retrier::admit`]) attempt again.
    Retry {
        /// The wait, in nanoseconds.
        delay_ns: u64,
    },
    /// Stop: the request has failed.
    GiveUp(GiveUpReason),
}

/// A client's retry decisions in one place: a [`Policy`], a [`RetryGate`] (budgets,
/// breakers, a rate limiter) and an [`Observer`] that sees every decision.
///
/// One [`Retrier`] serves every request of a client; each request keeps its own
/// [`RetryState`]. Per attempt: [`Retrier::admit`] before it is sent (a breaker may
/// refuse, a rate limiter may ask for a wait), then [`Retrier::on_success`] or
/// [`Retrier::on_failure`], which says whether to retry and after how long: the
/// policy's delay (or the server's, when the policy honours server answers), unless
/// the policy's stop rules or the budget end the request. [`Retrier::retry`] is the
/// blocking loop over these on any [`Timer`]; the `tower` feature's `RetryLayer`
/// drives the same calls from a tower stack.
///
/// ```
/// use backoff_core::{Policy, Retrier, Schedule, Stop, TokenBudget, Ratio, ServerAnswer};
/// use backoff_core::observe::EventCounts;
/// use backoff_core::retry::{Failure, GiveUpReason};
/// use backoff_core::retry::Timer;
/// use rand_core::SeedableRng;
///
/// struct Sim(u64); // simulated time (with feature `std`, `clock::ManualClock` is one)
/// impl Timer for Sim {
///     fn elapsed_ns(&mut self) -> u64 { self.0 }
///     fn sleep_ns(&mut self, ns: u64) { self.0 += ns; }
/// }
///
/// // gRPC: 4 attempts, pushback honoured, retryThrottling 10 tokens at 0.1.
/// let policy = Policy::new(Schedule::constant_nanos(100_000_000))
///     .with_stop(Stop::NEVER.with_max_attempts(4).unwrap())
///     .with_server_answers(true);
/// let budget = TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap();
/// let mut retrier = Retrier::new(policy).with_gate(budget).with_observer(EventCounts::default());
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
/// let mut clock = Sim(0);
/// let r = retrier.retry(&mut rng, &mut clock, |attempt| match attempt {
///     1 => Err(Failure::Answered("unavailable", ServerAnswer::pushback_millis(250))),
///     _ => Ok("done"),
/// });
/// assert_eq!(r, Ok("done"));
/// assert_eq!(clock.0, 250_000_000); // the pushback, exactly; no real sleep
/// assert_eq!(retrier.observer().answers_honoured, 1);
/// assert_eq!(retrier.gate().tokens_milli(), 9_100); // -1 for the failure, +0.1
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Retrier<G = (), O = ()> {
    policy: Policy,
    gate: G,
    observer: O,
}

impl Retrier {
    /// The policy alone: no gate, no observer.
    pub const fn new(policy: Policy) -> Self {
        Self {
            policy,
            gate: (),
            observer: (),
        }
    }
}

impl<G, O> Retrier<G, O> {
    /// The same with this gate instead (a pair `(A, B)` for two).
    pub fn with_gate<H>(self, gate: H) -> Retrier<H, O> {
        Retrier {
            policy: self.policy,
            gate,
            observer: self.observer,
        }
    }

    /// The same with this observer instead.
    pub fn with_observer<P>(self, observer: P) -> Retrier<G, P> {
        Retrier {
            policy: self.policy,
            gate: self.gate,
            observer,
        }
    }

    /// The policy.
    pub const fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The gate.
    pub const fn gate(&self) -> &G {
        &self.gate
    }

    /// The gate, to change.
    pub fn gate_mut(&mut self) -> &mut G {
        &mut self.gate
    }

    /// The observer.
    pub const fn observer(&self) -> &O {
        &self.observer
    }

    /// The observer, to change or read out.
    pub fn observer_mut(&mut self) -> &mut O {
        &mut self.observer
    }
}

impl<G: RetryGate, O: Observer> Retrier<G, O> {
    /// May the request's next attempt (`call.attempt()`) start at `now_ns`?
    pub fn admit(&mut self, call: &RetryState, now_ns: u64) -> Admit {
        let admit = self
            .gate
            .admit(now_ns, call.failures() == 0, &mut self.observer);
        if let Admit::Refuse(reason) = admit {
            self.observer.on_event(&Event::GaveUp {
                attempts: call.failures(),
                reason,
            });
        }
        admit
    }

    /// The attempt succeeded at `now_ns`: the request is done (`call` is reset for
    /// the next one).
    pub fn on_success(&mut self, call: &mut RetryState, now_ns: u64) {
        self.gate
            .on_result(now_ns, AttemptOutcome::Success, &mut self.observer);
        call.reset();
    }

    /// Attempt `call.attempt()` failed at `now_ns`, `elapsed_ns` after the request's
    /// first attempt began: retry after a delay, or give up. The gate learns the
    /// outcome first, then the policy decides (following the server's answer if it
    /// honours them), then the budget is asked for the retry.
    pub fn on_failure<E, R: Rng + ?Sized>(
        &mut self,
        call: &mut RetryState,
        failure: &Failure<E>,
        now_ns: u64,
        elapsed_ns: u64,
        rng: &mut R,
    ) -> Verdict {
        let outcome = match failure {
            Failure::Permanent(_) => AttemptOutcome::Permanent,
            Failure::Throttled(_) => AttemptOutcome::Failure { throttled: true },
            _ => AttemptOutcome::Failure { throttled: false },
        };
        self.gate.on_result(now_ns, outcome, &mut self.observer);
        if outcome == AttemptOutcome::Permanent {
            let attempts = call.attempt();
            return self.give_up(attempts, GiveUpReason::Permanent);
        }
        let answer = failure.answer();
        if answer != crate::ServerAnswer::None {
            self.observer.on_event(&Event::ServerAnswer {
                answer,
                honoured: self.policy.honours_server_answers(),
            });
        }
        match call.on_failure_with(&self.policy, elapsed_ns, answer, rng) {
            RetryDecision::Retry { delay_ns } => {
                if !self.gate.allow_retry(now_ns) {
                    return self.give_up(call.failures(), GiveUpReason::Budget);
                }
                self.observer.on_event(&Event::Retry {
                    attempt: call.failures(),
                    delay_ns,
                });
                Verdict::Retry { delay_ns }
            }
            RetryDecision::GiveUp(reason) => {
                self.give_up(call.failures(), GiveUpReason::Policy(reason))
            }
        }
    }

    fn give_up(&mut self, attempts: u32, reason: GiveUpReason) -> Verdict {
        self.observer.on_event(&Event::GaveUp { attempts, reason });
        Verdict::GiveUp(reason)
    }

    /// Call `op(attempt)` (1, 2, ...) until it succeeds or the request is given up,
    /// on `timer`'s clock: every attempt admitted by the gate first (waiting out a
    /// rate limiter), every failure judged by [`Retrier::on_failure`], every wait on
    /// the timer.
    ///
    /// # Errors
    ///
    /// [`GaveUp`] with the last error (`None` if the gate refused the first attempt),
    /// the attempts made and why.
    pub fn retry<T, E, R, Tm, Op>(
        &mut self,
        rng: &mut R,
        timer: &mut Tm,
        mut op: Op,
    ) -> Result<T, GaveUp<Option<E>>>
    where
        R: Rng + ?Sized,
        Tm: Timer + ?Sized,
        Op: FnMut(u32) -> Result<T, Failure<E>>,
    {
        let mut call = RetryState::new();
        let mut last: Option<E> = None;
        let start_ns = timer.elapsed_ns();
        loop {
            let now_ns = timer.elapsed_ns();
            match self.admit(&call, now_ns) {
                Admit::Go => {}
                Admit::Wait { wait_ns } => {
                    timer.sleep_ns(wait_ns.max(1));
                    continue;
                }
                Admit::Refuse(reason) => {
                    return Err(GaveUp {
                        error: last,
                        attempts: call.failures(),
                        reason,
                    });
                }
            }
            let outcome = op(call.attempt());
            let now_ns = timer.elapsed_ns();
            let failure = match outcome {
                Ok(v) => {
                    self.on_success(&mut call, now_ns);
                    return Ok(v);
                }
                Err(f) => f,
            };
            let attempts = call.attempt();
            let elapsed_ns = now_ns.saturating_sub(start_ns);
            let verdict = self.on_failure(&mut call, &failure, now_ns, elapsed_ns, rng);
            last = Some(failure.into_inner());
            match verdict {
                Verdict::Retry { delay_ns } => timer.sleep_ns(delay_ns),
                Verdict::GiveUp(reason) => {
                    return Err(GaveUp {
                        error: last,
                        attempts: if reason == GiveUpReason::Permanent {
                            attempts
                        } else {
                            call.failures()
                        },
                        reason,
                    });
                }
            }
        }
    }
}
