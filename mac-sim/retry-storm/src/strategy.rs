//! Client strategies, every one made of `backoff-core` parts: a [`Policy`] (schedule,
//! jitter, stop rules) with a per-request [`RetryState`](backoff_core::RetryState), retry budgets
//! ([`RatioBudget`], [`TokenBudget`]), the [`RetryBreaker`], the [`CircuitBreaker`] and
//! [`Deadline`](backoff_core::Deadline) propagation. The simulator only asks them; it has no backoff of its
//! own.
//!
//! Strategies are written as parts joined by `+` ([`crate::spec`] lists them):
//!
//! ```
//! use retry_storm::strategy::Strategy;
//! let s = Strategy::parse("exp-full+retries=3+budget=10").unwrap();
//! assert_eq!(s.name, "exp-full+retries=3+budget=10");
//! assert!(s.policy.is_some() && s.budget.is_some());
//! assert!(Strategy::parse("exp+budget=250").is_err());
//! ```

use backoff_core::hedge::{CallSummary, HedgeGate};
use backoff_core::{
    AdaptiveRateLimiter, BreakerConfig, CircuitBreaker, HedgeGuard, HedgingPolicy, Policy,
    QuotaFailure, Ratio, RatioBudget, RetryBreaker, RetryQuota, ServerAnswer, TokenBudget,
};

use crate::error::{StormError, StrategyProblem};

/// Buckets of the breakers' sliding windows.
pub const WINDOW_BUCKETS: usize = 10;

/// A retry budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetSpec {
    /// [`RatioBudget`]: retries ≤ `ratio` of requests + `min_per_sec` per second.
    Ratio {
        /// Retries per request.
        ratio: Ratio,
        /// Retries per second always allowed.
        min_per_sec: u32,
        /// Retries banked at most.
        max_tokens: u32,
    },
    /// [`TokenBudget`]: gRPC `retryThrottling`.
    Token {
        /// `maxTokens`.
        max_tokens: u32,
        /// `tokenRatio` in thousandths.
        ratio_milli: u32,
    },
    /// [`RetryQuota`]: the AWS SDKs' standard retry quota with this many tokens (the
    /// SDKs' 500), their costs (5 per retry, 10 after a timeout) and refunds.
    Quota {
        /// Tokens in the full bucket.
        capacity: u32,
    },
}

/// Hedging (gRFC A6's `hedgingPolicy`): the clients send a copy of a request that has
/// not been answered after `delay_ns`, up to `max_attempts` in all, and take the first
/// answer; the attempt timeout is the whole call's deadline, as gRPC's is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HedgeSpec {
    /// The hedging policy (attempts capped at 5, as gRPC caps them).
    pub policy: HedgingPolicy,
    /// Bound hedges to 10 % of requests and back hedging off when copies do not win
    /// ([`HedgeGuard::tail_at_scale`]).
    pub guard: bool,
}

/// A [`RetryBreaker`]'s parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryBreakerSpec {
    /// Retries stop while the failure ratio is above this.
    pub threshold: Ratio,
    /// Calls in the window before it judges.
    pub min_calls: u32,
    /// Window, nanoseconds.
    pub window_ns: u64,
}

/// One client strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// The name in reports and plots (the specification it was parsed from).
    pub name: String,
    /// The retry policy; `None` never retries.
    pub policy: Option<Policy>,
    /// A retry budget, per client.
    pub budget: Option<BudgetSpec>,
    /// A retry circuit breaker, per client.
    pub retry_breaker: Option<RetryBreakerSpec>,
    /// A circuit breaker on every call, per client.
    pub breaker: Option<BreakerConfig>,
    /// Propagate each attempt's deadline to the server, which then drops queued work
    /// past its deadline and stops work in progress at the deadline.
    pub propagate: bool,
    /// A total deadline per logical request, nanoseconds: no retry is started that
    /// could not finish before it (judged with the nominal service time).
    pub request_deadline_ns: Option<u64>,
    /// One set of budgets and breakers shared by every client, instead of one per
    /// client.
    pub shared: bool,
    /// Wait at least the Retry-After delay of a rejection before retrying
    /// (`backoff-core`'s rule for [`ServerAnswer::RetryAfter`]: `max(own delay,
    /// Retry-After)`; see [`Strategy::retry_policy`]).
    pub retry_after: bool,
    /// Give up when the server answers "overloaded, do not retry" (`backoff-core`'s
    /// rule for [`ServerAnswer::DoNotRetry`]: `StopReason::ServerRefused`).
    pub honour_overload: bool,
    /// The AWS SDKs' adaptive retry mode's client-side rate limiter
    /// ([`AdaptiveRateLimiter`]), per client (or shared): every attempt waits for its
    /// token once the server has throttled (rejected, or said "overloaded").
    pub adaptive: bool,
    /// Hedging instead of retries.
    pub hedge: Option<HedgeSpec>,
}

impl Default for Strategy {
    fn default() -> Self {
        Self::none()
    }
}

/// The circuit breaker of `breaker=PCT`.
pub const fn breaker_config(threshold: Ratio) -> BreakerConfig {
    BreakerConfig {
        failure_threshold: threshold,
        min_calls: 20,
        window_ns: 10_000_000_000,
        open_ns: 5_000_000_000,
        half_open_probes: 5,
    }
}

impl Strategy {
    /// No retries at all.
    pub fn none() -> Self {
        Self {
            name: "none".into(),
            policy: None,
            budget: None,
            retry_breaker: None,
            breaker: None,
            propagate: false,
            request_deadline_ns: None,
            shared: false,
            retry_after: false,
            honour_overload: false,
            adaptive: false,
            hedge: None,
        }
    }

    /// The same strategy under another name.
    pub fn named(mut self, name: &str) -> Self {
        self.name = name.into();
        self
    }

    /// The policy the clients ask: [`Strategy::policy`], honouring the server's answers
    /// ([`Policy::with_server_answers`]) when the strategy honours Retry-After or
    /// "overloaded, do not retry" ([`Strategy::server_answer`] passes on only the
    /// answers it honours).
    pub fn retry_policy(&self) -> Option<Policy> {
        self.policy
            .map(|p| p.with_server_answers(self.retry_after || self.honour_overload))
    }

    /// What the server `said` with a failed attempt, as this strategy's policy hears
    /// it: a Retry-After (RFC 9110 section 10.2.3) if the strategy honours Retry-After,
    /// "do not retry" if it honours overload; anything else is nothing.
    ///
    /// ```
    /// use backoff_core::ServerAnswer;
    /// use retry_storm::strategy::Strategy;
    /// let after = ServerAnswer::RetryAfter { delay_ns: 5 };
    /// let s = Strategy::parse("exp+retry-after").unwrap();
    /// assert_eq!(s.server_answer(after), after);
    /// assert_eq!(s.server_answer(ServerAnswer::DoNotRetry), ServerAnswer::None);
    /// let o = Strategy::parse("exp+honour-overload").unwrap();
    /// assert_eq!(o.server_answer(after), ServerAnswer::None);
    /// assert_eq!(o.server_answer(ServerAnswer::DoNotRetry), ServerAnswer::DoNotRetry);
    /// ```
    pub const fn server_answer(&self, said: ServerAnswer) -> ServerAnswer {
        match said {
            ServerAnswer::RetryAfter { .. } if self.retry_after => said,
            ServerAnswer::DoNotRetry if self.honour_overload => said,
            _ => ServerAnswer::None,
        }
    }

    /// Whether every part can be built.
    ///
    /// # Errors
    ///
    /// [`StormError::Strategy`] if `backoff-core` refuses a budget or breaker.
    pub fn validate(&self) -> Result<(), StormError> {
        Guards::new(self).map(|_| ())
    }
}

/// Why a failed logical request was not retried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The policy gave up (attempts, delay or elapsed-time limit), or never retries.
    Policy,
    /// The request's deadline would pass before another attempt could finish.
    Deadline,
    /// The retry budget is spent.
    Budget,
    /// The retry circuit breaker is open.
    RetryBreaker,
    /// The server said not to retry ("overloaded, do not retry"), and the strategy
    /// honours it.
    Server,
}

/// One client's budgets and breakers, built from a [`Strategy`].
#[derive(Clone, Debug)]
pub struct Guards {
    ratio: Option<RatioBudget>,
    token: Option<TokenBudget>,
    quota: Option<RetryQuota>,
    retry_breaker: Option<RetryBreaker<WINDOW_BUCKETS>>,
    breaker: Option<CircuitBreaker<WINDOW_BUCKETS>>,
    limiter: Option<AdaptiveRateLimiter>,
    hedge_guard: Option<HedgeGuard>,
}

impl Guards {
    /// Fresh budgets and closed breakers.
    ///
    /// # Errors
    ///
    /// [`StormError::Strategy`] if `backoff-core` refuses a budget or breaker.
    pub fn new(s: &Strategy) -> Result<Self, StormError> {
        let bad = |what: &'static str, e: backoff_core::ConfigError| StormError::Strategy {
            spec: s.name.clone(),
            problem: StrategyProblem::Rejected(what, e),
        };
        let (mut ratio, mut token, mut quota) = (None, None, None);
        match s.budget {
            Some(BudgetSpec::Ratio {
                ratio: r,
                min_per_sec,
                max_tokens,
            }) => {
                ratio = Some(
                    RatioBudget::new(r, min_per_sec, max_tokens).map_err(|e| bad("budget", e))?,
                )
            }
            Some(BudgetSpec::Token {
                max_tokens,
                ratio_milli,
            }) => {
                token = Some(
                    TokenBudget::with_ratio(max_tokens, Ratio::from_thousandths(ratio_milli))
                        .map_err(|e| bad("tokens", e))?,
                )
            }
            Some(BudgetSpec::Quota { capacity }) => {
                let aws = RetryQuota::AWS_STANDARD;
                quota = Some(
                    RetryQuota::new(
                        capacity,
                        aws.cost(QuotaFailure::Retryable),
                        aws.cost(QuotaFailure::Timeout),
                        1,
                    )
                    .map_err(|e| bad("quota", e))?,
                )
            }
            None => {}
        }
        let retry_breaker = match s.retry_breaker {
            Some(r) => Some(
                RetryBreaker::new(r.threshold, r.min_calls, r.window_ns)
                    .map_err(|e| bad("retry breaker", e))?,
            ),
            None => None,
        };
        let breaker = match s.breaker {
            Some(c) => Some(CircuitBreaker::new(c).map_err(|e| bad("breaker", e))?),
            None => None,
        };
        Ok(Self {
            ratio,
            token,
            quota,
            retry_breaker,
            breaker,
            limiter: s.adaptive.then(|| AdaptiveRateLimiter::new(0)),
            hedge_guard: s
                .hedge
                .filter(|h| h.guard)
                .map(|_| HedgeGuard::tail_at_scale()),
        })
    }

    /// Whether there is nothing to guard with (no budget, no breaker).
    pub fn is_empty(&self) -> bool {
        self.ratio.is_none()
            && self.token.is_none()
            && self.quota.is_none()
            && self.retry_breaker.is_none()
            && self.breaker.is_none()
            && self.limiter.is_none()
            && self.hedge_guard.is_none()
    }

    /// How long an attempt due at `now_ns` must wait for the adaptive rate limiter's
    /// token (`None`: it may go now, and has taken its token).
    #[inline]
    pub fn rate_wait(&mut self, now_ns: u64) -> Option<u64> {
        let l = self.limiter.as_mut()?;
        l.acquire(now_ns).err().map(|t| t.wait_ns.max(1))
    }

    /// An attempt's answer (or timeout) at `now_ns`, for the adaptive rate limiter:
    /// `throttled` if the server throttled it.
    #[inline]
    pub fn on_response(&mut self, now_ns: u64, throttled: bool) {
        if let Some(l) = &mut self.limiter {
            l.on_response(now_ns, throttled);
        }
    }

    /// A logical request starts at `now_ns` (its first attempt).
    #[inline]
    pub fn on_request(&mut self, now_ns: u64) {
        if let Some(b) = &mut self.ratio {
            b.on_request(now_ns);
        }
    }

    /// May a call (first attempt or retry) go out at `now_ns`? Only the circuit
    /// breaker can refuse.
    #[inline]
    pub fn acquire(&mut self, now_ns: u64) -> bool {
        self.breaker.as_mut().is_none_or(|b| b.acquire(now_ns))
    }

    /// A call finished at `now_ns`. Returns the token budget's verdict on a retry
    /// after a failure (`true` without a token budget).
    #[inline]
    pub fn on_outcome(&mut self, now_ns: u64, success: bool) -> bool {
        if let Some(b) = &mut self.retry_breaker {
            b.record(now_ns, success);
        }
        if let Some(b) = &mut self.breaker {
            b.on_result(now_ns, success);
        }
        match &mut self.token {
            Some(t) => {
                t.record(success);
                success || t.allows_retry()
            }
            None => true,
        }
    }

    /// May the retry after a failure of kind `failure` go out at `now_ns`? Charged to
    /// the ratio budget or the retry quota if so (checked last, so a refusal elsewhere
    /// costs nothing). Returns the quota's tokens it took (0 without a quota), to be
    /// given back by [`Guards::on_request_success`] if the request then succeeds.
    ///
    /// # Errors
    ///
    /// The [`Refusal`] that stops the retry: the budget (or quota) or the retry breaker.
    #[inline]
    pub fn permit_retry(
        &mut self,
        now_ns: u64,
        token_ok: bool,
        failure: QuotaFailure,
    ) -> Result<u32, Refusal> {
        if let Some(b) = &self.retry_breaker {
            if !b.allows_retry(now_ns) {
                return Err(Refusal::RetryBreaker);
            }
        }
        if !token_ok {
            return Err(Refusal::Budget);
        }
        if let Some(b) = &mut self.ratio {
            if !b.try_retry(now_ns) {
                return Err(Refusal::Budget);
            }
        }
        match &mut self.quota {
            Some(q) => q.try_acquire(failure).ok_or(Refusal::Budget),
            None => Ok(0),
        }
    }

    /// A logical request succeeded; its last retry took `acquired` tokens of the retry
    /// quota (0 if it had none): they go back, or the quota's increment without a
    /// retry ([`RetryQuota::on_success`]). Nothing without a quota.
    #[inline]
    pub fn on_request_success(&mut self, acquired: u32) {
        if let Some(q) = &mut self.quota {
            q.on_success(acquired);
        }
    }
}

/// A client's guards as the gate of its hedges: gRPC's retry throttling (`tokens=`)
/// and the [`HedgeGuard`] must both allow a hedge; every answer is an outcome for the
/// breakers and the token budget, as for retries.
impl HedgeGate for Guards {
    fn allows_hedge(&self, now_ns: u64) -> bool {
        self.token.as_ref().is_none_or(TokenBudget::allows_retry)
            && self
                .hedge_guard
                .as_ref()
                .is_none_or(|g| g.allows_hedge(now_ns))
    }
    fn on_original(&mut self, now_ns: u64) {
        if let Some(g) = &mut self.hedge_guard {
            g.on_original(now_ns);
        }
    }
    fn on_hedge(&mut self, now_ns: u64) {
        if let Some(g) = &mut self.hedge_guard {
            g.on_hedge(now_ns);
        }
    }
    fn on_attempt(&mut self, now_ns: u64, success: bool) {
        let _ = self.on_outcome(now_ns, success);
    }
    fn on_call(&mut self, now_ns: u64, call: CallSummary) {
        if let Some(g) = &mut self.hedge_guard {
            g.on_call(now_ns, call);
        }
    }
    fn hedge_delay_ns(&self, policy_delay_ns: u64) -> u64 {
        self.hedge_guard
            .as_ref()
            .map_or(policy_delay_ns, |g| g.hedge_delay_ns(policy_delay_ns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use backoff_core::{Jitter, StopReason};
    use rand_core::SeedableRng;

    #[test]
    fn parts_build_backoff_core_values() {
        let s = Strategy::parse("exp-equal+base=10ms+cap=1s+retries=2").unwrap();
        let p = s.policy.unwrap();
        assert_eq!(p.jitter(), Jitter::Equal);
        assert_eq!(p.schedule().initial_nanos(), 10_000_000);
        assert_eq!(p.schedule().max_nanos(), 1_000_000_000);
        assert_eq!(p.stop().max_attempts(), 3);
        let imm = Strategy::parse("immediate").unwrap().policy.unwrap();
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
        assert_eq!(imm.decide(1, 0, 0, &mut rng).delay_nanos(), Some(0));
        assert_eq!(
            imm.decide(4, 0, 0, &mut rng),
            backoff_core::RetryDecision::GiveUp(StopReason::MaxAttempts)
        );
        let f = Strategy::parse("fixed=250ms").unwrap().policy.unwrap();
        assert_eq!(f.decide(9, 0, 0, &mut rng).delay_nanos(), Some(250_000_000));
        let all =
            Strategy::parse("exp-full+budget=10%+retry-breaker=10+breaker=50+deadline=2s").unwrap();
        assert!(all.budget.is_some() && all.retry_breaker.is_some() && all.breaker.is_some());
        assert!(all.propagate);
        assert_eq!(all.request_deadline_ns, Some(2_000_000_000));
        assert!(Strategy::parse("none").unwrap().policy.is_none());
        for (spec, j) in [
            ("exp", Jitter::None),
            ("exp-full", Jitter::Full),
            ("exp-decorrelated", Jitter::Decorrelated),
            (
                "exp-proportional",
                Jitter::Factor(backoff_core::Fraction::HALF),
            ),
            (
                "exp-additive+base=1s+cap=8s",
                Jitter::Additive {
                    max_ns: 1_000_000_000,
                },
            ),
            ("exp-normal", Jitter::Normal(Ratio::new(1, 6).unwrap())),
            (
                "exp+sigma=50ms",
                Jitter::AbsoluteNormal {
                    sigma_ns: 50_000_000,
                },
            ),
            (
                "exp-normal+sigma=1s",
                Jitter::AbsoluteNormal {
                    sigma_ns: 1_000_000_000,
                },
            ),
        ] {
            assert_eq!(Strategy::parse(spec).unwrap().policy.unwrap().jitter(), j);
        }
        assert!(
            Strategy::parse("deadline")
                .unwrap()
                .request_deadline_ns
                .is_none()
        );
    }

    #[test]
    fn bad_parts_are_rejected() {
        for bad in [
            "",
            "x",
            "exp+",
            "fixed",
            "fixed=abc",
            "retries=-1",
            "budget=101",
            "budget=x",
            "tokens=10",
            "tokens=a/b",
            "tokens=10/-1",
            "breaker",
            "exp=3",
            "deadline=0s",
            "exp+fixed=1s",
            "exp+base=2s+cap=1s",
            "exp-full+sigma=50ms",
            "fixed=1s+sigma=50ms",
            "exp-normal+sigma=50ms+spread=1/6",
            "exp+sigma=0s",
        ] {
            assert!(Strategy::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn retry_after_is_backoff_cores_floor() {
        let s = Strategy::parse("exp+base=10ms+cap=1s+retry-after").unwrap();
        let p = s.retry_policy().unwrap();
        assert!(p.honours_server_answers());
        let plain = Strategy::parse("exp+base=10ms+cap=1s").unwrap();
        assert!(!plain.retry_policy().unwrap().honours_server_answers());
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
        let mut st = backoff_core::RetryState::new();
        // Own delay 10 ms, Retry-After 50 ms: 50 ms; then a timeout: the own 20 ms.
        let after = ServerAnswer::RetryAfter {
            delay_ns: 50_000_000,
        };
        let d = st.on_failure_with(&p, 0, s.server_answer(after), &mut rng);
        assert_eq!(d.delay_nanos(), Some(50_000_000));
        let d = st.on_failure_with(&p, 0, s.server_answer(ServerAnswer::None), &mut rng);
        assert_eq!(d.delay_nanos(), Some(20_000_000));
        // "Do not retry" is not honoured without honour-overload: the own 40 ms.
        let d = st.on_failure_with(&p, 0, s.server_answer(ServerAnswer::DoNotRetry), &mut rng);
        assert_eq!(d.delay_nanos(), Some(40_000_000));
    }

    #[test]
    fn honour_overload_gives_up_on_do_not_retry_only() {
        let s = Strategy::parse("exp+base=10ms+cap=1s+honour-overload").unwrap();
        let p = s.retry_policy().unwrap();
        assert!(p.honours_server_answers());
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
        let mut st = backoff_core::RetryState::new();
        // A Retry-After is not honoured: the own 10 ms.
        let after = ServerAnswer::RetryAfter {
            delay_ns: 50_000_000,
        };
        let d = st.on_failure_with(&p, 0, s.server_answer(after), &mut rng);
        assert_eq!(d.delay_nanos(), Some(10_000_000));
        let d = st.on_failure_with(&p, 0, s.server_answer(ServerAnswer::DoNotRetry), &mut rng);
        assert_eq!(
            d,
            backoff_core::RetryDecision::GiveUp(StopReason::ServerRefused)
        );
    }

    #[test]
    fn guards_refuse_in_order_and_charge_the_budget_last() {
        let s = Strategy::parse("exp+budget=50+retry-breaker=10").unwrap();
        let mut g = Guards::new(&s).unwrap();
        // 1 retry/s minimum starts the balance at one token.
        g.on_request(0);
        let other = QuotaFailure::Retryable;
        assert_eq!(g.permit_retry(0, true, other), Ok(0));
        assert_eq!(g.permit_retry(0, true, other), Err(Refusal::Budget));
        for _ in 0..10 {
            g.on_outcome(0, false);
        }
        assert_eq!(g.permit_retry(0, true, other), Err(Refusal::RetryBreaker));
        assert!(g.acquire(0)); // no circuit breaker
    }

    /// `quota`: the AWS SDKs' standard retry quota from backoff-core, 500 tokens: 50
    /// retries after timeouts empty it (10 each), then another error finds 0 < 5;
    /// a success gives back what its retry took, and one without a retry adds 1.
    #[test]
    fn quota_is_the_aws_standard_retry_quota() {
        let s = Strategy::parse("exp+quota").unwrap();
        assert_eq!(s.budget, Some(BudgetSpec::Quota { capacity: 500 }));
        let mut g = Guards::new(&s).unwrap();
        for _ in 0..50 {
            assert_eq!(g.permit_retry(0, true, QuotaFailure::Timeout), Ok(10));
        }
        assert_eq!(
            g.permit_retry(0, true, QuotaFailure::Retryable),
            Err(Refusal::Budget)
        );
        g.on_request_success(10);
        assert_eq!(g.permit_retry(0, true, QuotaFailure::Retryable), Ok(5));
        assert_eq!(g.permit_retry(0, true, QuotaFailure::Retryable), Ok(5));
        assert_eq!(
            g.permit_retry(0, true, QuotaFailure::Retryable),
            Err(Refusal::Budget)
        );
        for _ in 0..5 {
            g.on_request_success(0);
        }
        assert_eq!(g.permit_retry(0, true, QuotaFailure::Retryable), Ok(5));
        let small = Strategy::parse("exp+quota=12").unwrap();
        let mut g = Guards::new(&small).unwrap();
        assert_eq!(g.permit_retry(0, true, QuotaFailure::Timeout), Ok(10));
        assert_eq!(
            g.permit_retry(0, true, QuotaFailure::Retryable),
            Err(Refusal::Budget)
        );
        for two in [
            "exp+quota+budget=10",
            "exp+quota+tokens=10/0.1",
            "exp+budget=10+tokens=10/0.1",
        ] {
            assert!(Strategy::parse(two).is_err(), "{two}");
        }
        assert!(Strategy::parse("exp+quota=0").is_err());
    }
}
