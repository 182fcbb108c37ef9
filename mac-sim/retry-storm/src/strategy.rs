//! Client strategies, every one made of `backoff-core` parts: a [`Policy`] (schedule,
//! jitter, stop rules) with a per-request [`RetryState`](backoff_core::RetryState), retry budgets
//! ([`RatioBudget`], [`TokenBudget`]), the [`RetryBreaker`], the [`CircuitBreaker`] and
//! [`Deadline`](backoff_core::Deadline) propagation. The simulator only asks them; it has no backoff of its
//! own.
//!
//! Strategies are written as parts joined by `+`:
//!
//! | part | meaning |
//! |---|---|
//! | `none` | no retries |
//! | `immediate` | retry at once (3 retries unless `retries=N`) |
//! | `fixed=DUR` | retry after a constant delay |
//! | `exp`, `exp-full`, `exp-equal`, `exp-decorrelated`, `exp-proportional`, `exp-additive`, `exp-normal` | exponential backoff ×2 from `base` to `cap`, with that [`Jitter`] (proportional ±50 %, additive up to `base`, normal with σ = d/6) |
//! | `base=DUR`, `cap=DUR` | exponential base (100ms) and cap (10s) |
//! | `retries=N` | at most N retries (N + 1 attempts) |
//! | `budget=PCT` | retry budget: retries ≤ PCT % of requests + 1 per second, 10 banked |
//! | `tokens=MAX/RATIO` | gRPC retry throttling: `maxTokens`, `tokenRatio` |
//! | `retry-breaker=PCT` | no retries while more than PCT % of calls failed in the last 10 s |
//! | `breaker=PCT` | circuit breaker opening at PCT % failures (20 calls, 10 s window, 5 s open, 5 probes) |
//! | `deadline` | propagate each attempt's deadline to the server |
//! | `deadline=DUR` | also give each logical request this total deadline |
//!
//! ```
//! use retry_storm::strategy::Strategy;
//! let s = Strategy::parse("exp-full+retries=3+budget=10").unwrap();
//! assert_eq!(s.name, "exp-full+retries=3+budget=10");
//! assert!(s.policy.is_some() && s.budget.is_some());
//! assert!(Strategy::parse("exp+budget=250").is_err());
//! ```

use backoff_core::{
    BreakerConfig, CircuitBreaker, Fraction, Jitter, Policy, Ratio, RatioBudget, RetryBreaker,
    Schedule, Stop, TokenBudget,
};

use crate::error::{StormError, StrategyProblem};
use sim_kit::time::Time;

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
}

impl Default for Strategy {
    fn default() -> Self {
        Self::none()
    }
}

const DEFAULT_BASE_NS: u64 = 100_000_000;
const DEFAULT_CAP_NS: u64 = 10_000_000_000;

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
        }
    }

    /// Parse a specification (see the module docs).
    ///
    /// # Errors
    ///
    /// [`StormError::Strategy`] with the [`StrategyProblem`]
    /// of the first part that cannot be used.
    pub fn parse(spec: &str) -> Result<Self, StormError> {
        let err = |problem: StrategyProblem| StormError::Strategy {
            spec: spec.to_string(),
            problem,
        };
        let mut s = Self::none();
        s.name = spec.trim().to_string();
        let (mut base, mut cap) = (DEFAULT_BASE_NS, DEFAULT_CAP_NS);
        let mut kind: Option<(&str, u64)> = None;
        let mut retries: Option<u32> = None;
        for part in spec.split('+').map(str::trim) {
            let (key, value) = match part.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (part, None),
            };
            let need = || value.ok_or_else(|| err(StrategyProblem::NeedsValue(key.to_string())));
            match key {
                "none" | "immediate" | "exp" | "exp-full" | "exp-equal" | "exp-decorrelated"
                | "exp-proportional" | "exp-additive" | "exp-normal" => {
                    if value.is_some() {
                        return Err(err(StrategyProblem::TakesNoValue(key.to_string())));
                    }
                    if kind.is_some() {
                        return Err(err(StrategyProblem::TwoSchedules));
                    }
                    kind = Some((key, 0));
                }
                "fixed" => {
                    if kind.is_some() {
                        return Err(err(StrategyProblem::TwoSchedules));
                    }
                    kind = Some(("fixed", duration_ns(need()?).map_err(&err)?));
                }
                "base" => base = duration_ns(need()?).map_err(&err)?,
                "cap" => cap = duration_ns(need()?).map_err(&err)?,
                "retries" => {
                    let v = need()?;
                    let n: u32 = v
                        .parse()
                        .ok()
                        .filter(|&n| n <= 1_000_000)
                        .ok_or_else(|| err(StrategyProblem::Retries(v.to_string())))?;
                    retries = Some(n);
                }
                "budget" => {
                    s.budget = Some(BudgetSpec::Ratio {
                        ratio: percent(need()?).map_err(&err)?,
                        min_per_sec: 1,
                        max_tokens: 10,
                    });
                }
                "tokens" => {
                    let v = need()?;
                    let bad = || err(StrategyProblem::Tokens(v.to_string()));
                    let (m, r) = v.split_once('/').ok_or_else(bad)?;
                    let max_tokens: u32 = m
                        .trim()
                        .parse()
                        .ok()
                        .filter(|&m| (1..=1_000_000).contains(&m))
                        .ok_or_else(bad)?;
                    let r: f64 = r.trim().parse().map_err(|_| bad())?;
                    if !(r.is_finite() && (0.0..=1000.0).contains(&r)) {
                        return Err(bad());
                    }
                    s.budget = Some(BudgetSpec::Token {
                        max_tokens,
                        ratio_milli: (r * 1000.0).round() as u32,
                    });
                }
                "retry-breaker" => {
                    s.retry_breaker = Some(RetryBreakerSpec {
                        threshold: percent(need()?).map_err(&err)?,
                        min_calls: 10,
                        window_ns: 10_000_000_000,
                    });
                }
                "breaker" => s.breaker = Some(breaker_config(percent(need()?).map_err(&err)?)),
                "deadline" => {
                    s.propagate = true;
                    if let Some(v) = value {
                        s.request_deadline_ns = Some(duration_ns(v).map_err(&err)?);
                    }
                }
                "" => return Err(err(StrategyProblem::EmptyPart)),
                other => return Err(err(StrategyProblem::UnknownPart(other.to_string()))),
            }
        }
        let jitter = |k: &str| match k {
            "exp-full" => Jitter::Full,
            "exp-equal" => Jitter::Equal,
            "exp-decorrelated" => Jitter::Decorrelated,
            "exp-proportional" => Jitter::Factor(Fraction::HALF),
            "exp-additive" => Jitter::Additive { max_ns: base },
            "exp-normal" => Jitter::Normal(Ratio::new(1, 6).unwrap_or(Ratio::ZERO)),
            _ => Jitter::None,
        };
        let (k, fixed) = kind.unwrap_or(("none", 0));
        let schedule = match k {
            "none" => None,
            "immediate" => Some(Schedule::constant_nanos(0)),
            "fixed" => Some(Schedule::constant_nanos(fixed)),
            _ => Some(
                Schedule::exponential_nanos(base, Ratio::TWO, cap)
                    .map_err(|_| err(StrategyProblem::BaseAboveCap))?,
            ),
        };
        s.policy = match (schedule, k) {
            (None, _) => {
                if retries.is_some_and(|r| r > 0) {
                    return Err(err(StrategyProblem::NoneWithRetries));
                }
                None
            }
            (Some(sch), _) => {
                let retries = retries.or(if k == "immediate" { Some(3) } else { None });
                let stop = match retries {
                    Some(r) => Stop::NEVER.with_max_retries(r),
                    None => Stop::NEVER,
                };
                Some(Policy::new(sch).with_jitter(jitter(k)).with_stop(stop))
            }
        };
        s.validate()?;
        Ok(s)
    }

    /// The same strategy under another name.
    pub fn named(mut self, name: &str) -> Self {
        self.name = name.into();
        self
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

fn duration_ns(v: &str) -> Result<u64, StrategyProblem> {
    Time::parse(v)
        .map(Time::as_ns)
        .ok()
        .filter(|&ns| ns > 0)
        .ok_or_else(|| StrategyProblem::Duration(v.to_string()))
}

fn percent(v: &str) -> Result<Ratio, StrategyProblem> {
    let bad = || StrategyProblem::Percentage(v.to_string());
    let t = v.trim().trim_end_matches('%');
    let p: f64 = t.parse().map_err(|_| bad())?;
    if !(p.is_finite() && (0.0..=100.0).contains(&p)) {
        return Err(bad());
    }
    Ratio::new((p * 10.0).round() as u32, 1000).map_err(|_| bad())
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
}

/// One client's budgets and breakers, built from a [`Strategy`].
#[derive(Clone, Debug)]
pub struct Guards {
    ratio: Option<RatioBudget>,
    token: Option<TokenBudget>,
    retry_breaker: Option<RetryBreaker<WINDOW_BUCKETS>>,
    breaker: Option<CircuitBreaker<WINDOW_BUCKETS>>,
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
        let (mut ratio, mut token) = (None, None);
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
            retry_breaker,
            breaker,
        })
    }

    /// Whether there is nothing to guard with (no budget, no breaker).
    pub fn is_empty(&self) -> bool {
        self.ratio.is_none()
            && self.token.is_none()
            && self.retry_breaker.is_none()
            && self.breaker.is_none()
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

    /// May the retry go out at `now_ns`? Charged to the ratio budget if so (checked
    /// last, so a refusal elsewhere costs no budget).
    ///
    /// # Errors
    ///
    /// The [`Refusal`] that stops the retry: the deadline, the budget or the retry breaker.
    #[inline]
    pub fn permit_retry(&mut self, now_ns: u64, token_ok: bool) -> Result<(), Refusal> {
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
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use backoff_core::StopReason;
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
            ("exp-proportional", Jitter::Factor(Fraction::HALF)),
            (
                "exp-additive+base=1s+cap=8s",
                Jitter::Additive {
                    max_ns: 1_000_000_000,
                },
            ),
            ("exp-normal", Jitter::Normal(Ratio::new(1, 6).unwrap())),
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
        ] {
            assert!(Strategy::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn guards_refuse_in_order_and_charge_the_budget_last() {
        let s = Strategy::parse("exp+budget=50+retry-breaker=10").unwrap();
        let mut g = Guards::new(&s).unwrap();
        // 1 retry/s minimum starts the balance at one token.
        g.on_request(0);
        assert_eq!(g.permit_retry(0, true), Ok(()));
        assert_eq!(g.permit_retry(0, true), Err(Refusal::Budget));
        for _ in 0..10 {
            g.on_outcome(0, false);
        }
        assert_eq!(g.permit_retry(0, true), Err(Refusal::RetryBreaker));
        assert!(g.acquire(0)); // no circuit breaker
    }
}
