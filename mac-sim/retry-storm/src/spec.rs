//! The strategy specification syntax: parts joined by `+`, each setting one parameter
//! of a [`Strategy`], with the defaults the seed articles use. The same text is read
//! from `--strategy` and from a scenario file's `spec` key.
//!
//! | part | meaning |
//! |---|---|
//! | `none` | no retries |
//! | `immediate` | retry at once (3 retries unless `retries=N`) |
//! | `fixed=DUR` | retry after a constant delay |
//! | `exp`, `exp-full`, `exp-equal`, `exp-decorrelated`, `exp-proportional`, `exp-additive`, `exp-normal` | exponential backoff from `base` to `cap`, with that [`Jitter`] |
//! | `base=DUR`, `cap=DUR` | exponential base (100ms) and cap (10s) |
//! | `mult=RATIO` | exponential multiplier, `3/2` or `1.5` (2) |
//! | `spread=RATIO` | the jitter's parameter: ±`spread` for `exp-proportional` (1/2), σ = `spread` · d for `exp-normal` (1/6) |
//! | `sigma=DUR` | with `exp` or `exp-normal`: absolute normal jitter, each delay `max(0, d + N(0, σ²))` whatever `d` (backoff-core's `Jitter::AbsoluteNormal`; not with `spread`) |
//! | `jitter-max=DUR` | the most `exp-additive` adds (the base) |
//! | `retries=N` | at most N retries (N + 1 attempts) |
//! | `budget=PCT` | retry budget: retries ≤ PCT % of requests + `budget-floor` per second, `budget-bank` banked |
//! | `budget-floor=N`, `budget-bank=N` | the budget's retries per second always allowed (1) and most banked (10) |
//! | `tokens=MAX/RATIO` | gRPC retry throttling: `maxTokens`, `tokenRatio` |
//! | `quota[=N]` | the AWS SDKs' standard retry quota: a bucket of N tokens (500); a retry takes 5, or 10 after a timeout; a success gives back its retry's tokens, or 1 without a retry |
//! | `adaptive` | the AWS SDKs' adaptive retry mode's client-side rate limiter (backoff-core's `AdaptiveRateLimiter`): after a throttling answer (a rejection, "overloaded"), every attempt waits for a token of a bucket whose rate CUBIC sets |
//! | `hedge=DUR` | hedging (gRFC A6 `hedgingPolicy`) instead of retries: a copy of a request not answered after DUR (`hedgingDelay`), the first answer taken; the timeout is the whole call's |
//! | `hedge-attempts=N` | `maxAttempts`, the original included (2; at most 5, as gRPC caps it) |
//! | `hedge-guard` | hedges at most 10 % of requests, and the delay doubled while copies do not win (backoff-core's `HedgeGuard`) |
//! | `retry-breaker=PCT` | no retries while more than PCT % of calls failed in the window |
//! | `retry-breaker-calls=N`, `retry-breaker-window=DUR` | calls before it judges (10), its window (10s) |
//! | `breaker=PCT` | circuit breaker opening at PCT % failures |
//! | `breaker-calls=N`, `breaker-window=DUR`, `breaker-open=DUR`, `breaker-probes=N` | its calls before judging (20), window (10s), time open (5s), half-open probes (5) |
//! | `shared` | one budget and one set of breakers for all clients (default: one per client) |
//! | `retry-after` | honour a rejection's Retry-After: wait at least that long before retrying |
//! | `honour-overload` | give up when the answer is "overloaded, do not retry" |
//! | `deadline` | propagate each attempt's deadline to the server |
//! | `deadline=DUR` | also give each logical request this total deadline |
//!
//! ```
//! use retry_storm::strategy::Strategy;
//! let s = Strategy::parse("exp-normal+mult=3/2+spread=1/4+budget=10+budget-floor=0+shared").unwrap();
//! assert!(s.shared && s.budget.is_some());
//! assert!(Strategy::parse("exp+mult=1/2").is_err());
//! assert!(Strategy::parse("budget-floor=3").is_err()); // a budget's parameter without one
//! ```

use backoff_core::{BreakerConfig, Jitter, Policy, Ratio, Schedule, Stop};

use crate::error::{StormError, StrategyProblem};
use crate::strategy::{BudgetSpec, RetryBreakerSpec, Strategy};
use sim_kit::time::Time;

const DEFAULT_BASE_NS: u64 = 100_000_000;
const DEFAULT_CAP_NS: u64 = 10_000_000_000;
const SECOND_NS: u64 = 1_000_000_000;

/// The parts of a specification read so far; [`Parts::build`] makes the strategy.
#[derive(Clone, Debug, Default)]
struct Parts<'a> {
    schedule: Option<(&'a str, u64)>,
    base: Option<u64>,
    cap: Option<u64>,
    mult: Option<Ratio>,
    spread: Option<Ratio>,
    sigma: Option<u64>,
    jitter_max: Option<u64>,
    retries: Option<u32>,
    budget: Option<Ratio>,
    budget_floor: Option<u32>,
    budget_bank: Option<u32>,
    tokens: Option<(u32, u32)>,
    quota: Option<u32>,
    retry_breaker: Option<Ratio>,
    retry_breaker_calls: Option<u32>,
    retry_breaker_window: Option<u64>,
    breaker: Option<Ratio>,
    breaker_calls: Option<u32>,
    breaker_window: Option<u64>,
    breaker_open: Option<u64>,
    breaker_probes: Option<u32>,
    shared: bool,
    retry_after: bool,
    honour_overload: bool,
    propagate: bool,
    request_deadline: Option<u64>,
    adaptive: bool,
    hedge: Option<u64>,
    hedge_attempts: Option<u32>,
    hedge_guard: bool,
}

/// Every part of the syntax as a user writes it, with a placeholder for its value
/// (`DUR`, `N`, `PCT`, `RATIO`, `MAX/RATIO`): the list `mac-sim storm --help` shows (a
/// test checks that it shows each, and another that each parses).
pub const PARTS: &[&str] = &[
    "none",
    "immediate",
    "fixed=DUR",
    "exp",
    "exp-full",
    "exp-equal",
    "exp-decorrelated",
    "exp-proportional",
    "exp-additive",
    "exp-normal",
    "base=DUR",
    "cap=DUR",
    "mult=RATIO",
    "spread=RATIO",
    "sigma=DUR",
    "jitter-max=DUR",
    "retries=N",
    "budget=PCT",
    "budget-floor=N",
    "budget-bank=N",
    "tokens=MAX/RATIO",
    "quota[=N]",
    "adaptive",
    "hedge=DUR",
    "hedge-attempts=N",
    "hedge-guard",
    "retry-breaker=PCT",
    "retry-breaker-calls=N",
    "retry-breaker-window=DUR",
    "breaker=PCT",
    "breaker-calls=N",
    "breaker-window=DUR",
    "breaker-open=DUR",
    "breaker-probes=N",
    "shared",
    "retry-after",
    "honour-overload",
    "deadline[=DUR]",
];

const SCHEDULES: [&str; 9] = [
    "none",
    "immediate",
    "exp",
    "exp-full",
    "exp-equal",
    "exp-decorrelated",
    "exp-proportional",
    "exp-additive",
    "exp-normal",
];

impl<'a> Parts<'a> {
    /// Read one part.
    fn set(&mut self, key: &'a str, value: Option<&'a str>) -> Result<(), StrategyProblem> {
        let need = || value.ok_or_else(|| StrategyProblem::NeedsValue(key.to_string()));
        let flag = || match value {
            Some(_) => Err(StrategyProblem::TakesNoValue(key.to_string())),
            None => Ok(()),
        };
        match key {
            k if SCHEDULES.contains(&k) => {
                flag()?;
                self.schedule(k, 0)?;
            }
            "fixed" => self.schedule("fixed", duration_ns(need()?)?)?,
            "base" => self.base = Some(duration_ns(need()?)?),
            "cap" => self.cap = Some(duration_ns(need()?)?),
            "mult" => {
                let v = need()?;
                let m = ratio(v)?;
                // Below one the "backoff" would shrink: not a backoff.
                if m.numer() < m.denom() {
                    return Err(StrategyProblem::Ratio(v.to_string()));
                }
                self.mult = Some(m);
            }
            "spread" => self.spread = Some(ratio(need()?)?),
            "sigma" => self.sigma = Some(duration_ns(need()?)?),
            "jitter-max" => self.jitter_max = Some(duration_ns(need()?)?),
            "retries" => self.retries = Some(count(need()?, 0)?),
            "budget" => self.budget = Some(percent(need()?)?),
            "budget-floor" => self.budget_floor = Some(count(need()?, 0)?),
            "budget-bank" => self.budget_bank = Some(count(need()?, 1)?),
            "tokens" => self.tokens = Some(tokens(need()?)?),
            "quota" => {
                self.quota = Some(match value {
                    Some(v) => count(v, 1)?,
                    None => backoff_core::RetryQuota::AWS_STANDARD.capacity(),
                })
            }
            "adaptive" => {
                flag()?;
                self.adaptive = true;
            }
            "hedge" => self.hedge = Some(duration_ns(need()?)?),
            "hedge-attempts" => self.hedge_attempts = Some(count(need()?, 2)?),
            "hedge-guard" => {
                flag()?;
                self.hedge_guard = true;
            }
            "retry-breaker" => self.retry_breaker = Some(percent(need()?)?),
            "retry-breaker-calls" => self.retry_breaker_calls = Some(count(need()?, 1)?),
            "retry-breaker-window" => self.retry_breaker_window = Some(duration_ns(need()?)?),
            "breaker" => self.breaker = Some(percent(need()?)?),
            "breaker-calls" => self.breaker_calls = Some(count(need()?, 1)?),
            "breaker-window" => self.breaker_window = Some(duration_ns(need()?)?),
            "breaker-open" => self.breaker_open = Some(duration_ns(need()?)?),
            "breaker-probes" => self.breaker_probes = Some(count(need()?, 1)?),
            "shared" => {
                flag()?;
                self.shared = true;
            }
            "retry-after" => {
                flag()?;
                self.retry_after = true;
            }
            "honour-overload" => {
                flag()?;
                self.honour_overload = true;
            }
            "deadline" => {
                self.propagate = true;
                if let Some(v) = value {
                    self.request_deadline = Some(duration_ns(v)?);
                }
            }
            "" => return Err(StrategyProblem::EmptyPart),
            other => return Err(StrategyProblem::UnknownPart(other.to_string())),
        }
        Ok(())
    }

    fn schedule(&mut self, kind: &'a str, delay_ns: u64) -> Result<(), StrategyProblem> {
        if self.schedule.is_some() {
            return Err(StrategyProblem::TwoSchedules);
        }
        self.schedule = Some((kind, delay_ns));
        Ok(())
    }

    /// The jitter of the schedule `kind` (without `sigma`), `base` its base.
    fn jitter(&self, kind: &str, base: u64) -> Result<Jitter, StrategyProblem> {
        Ok(match kind {
            "exp-full" => Jitter::Full,
            "exp-equal" => Jitter::Equal,
            "exp-decorrelated" => Jitter::Decorrelated,
            "exp-proportional" => Jitter::proportional(self.spread.unwrap_or(Ratio::HALF))
                .map_err(|e| StrategyProblem::Rejected("spread", e))?,
            "exp-additive" => Jitter::Additive {
                max_ns: self.jitter_max.unwrap_or(base),
            },
            "exp-normal" => Jitter::Normal(match self.spread {
                Some(r) => r,
                None => Ratio::new(1, 6).map_err(|e| StrategyProblem::Rejected("spread", e))?,
            }),
            _ => Jitter::None,
        })
    }

    /// The strategy the parts describe, named `none` (the caller names it).
    fn build(&self) -> Result<Strategy, StrategyProblem> {
        let orphan = |part: &str, needs: &str| {
            Err(StrategyProblem::Orphan {
                part: part.to_string(),
                needs: needs.to_string(),
            })
        };
        let (kind, fixed) = self.schedule.unwrap_or(("none", 0));
        let exp = kind.starts_with("exp");
        for (set, part) in [
            (self.base.is_some() && !exp, "base"),
            (self.cap.is_some() && !exp, "cap"),
            (self.mult.is_some() && !exp, "mult"),
        ] {
            if set {
                return orphan(part, "exp...");
            }
        }
        if self.spread.is_some() && !matches!(kind, "exp-proportional" | "exp-normal") {
            return orphan("spread", "exp-proportional or exp-normal");
        }
        if self.sigma.is_some() && !matches!(kind, "exp" | "exp-normal") {
            return orphan("sigma", "exp or exp-normal");
        }
        if self.sigma.is_some() && self.spread.is_some() {
            return Err(StrategyProblem::SpreadAndSigma);
        }
        if self.jitter_max.is_some() && kind != "exp-additive" {
            return orphan("jitter-max", "exp-additive");
        }
        if (self.budget_floor.is_some() || self.budget_bank.is_some()) && self.budget.is_none() {
            return orphan("budget-floor/budget-bank", "budget");
        }
        if (self.retry_breaker_calls.is_some() || self.retry_breaker_window.is_some())
            && self.retry_breaker.is_none()
        {
            return orphan("retry-breaker-calls/window", "retry-breaker");
        }
        let breaker_parts = [
            self.breaker_calls.is_some(),
            self.breaker_window.is_some(),
            self.breaker_open.is_some(),
            self.breaker_probes.is_some(),
        ];
        if breaker_parts.contains(&true) && self.breaker.is_none() {
            return orphan("breaker-calls/window/open/probes", "breaker");
        }
        if (self.hedge_attempts.is_some() || self.hedge_guard) && self.hedge.is_none() {
            return orphan("hedge-attempts/hedge-guard", "hedge");
        }
        if self.hedge.is_some() && (kind != "none" || self.retries.is_some()) {
            return Err(StrategyProblem::HedgeWithRetries);
        }
        if self.hedge.is_some() {
            for (set, part) in [
                (self.adaptive, "adaptive"),
                (self.budget.is_some(), "budget"),
                (self.quota.is_some(), "quota"),
                (self.retry_breaker.is_some(), "retry-breaker"),
                (self.retry_after, "retry-after"),
                (self.honour_overload, "honour-overload"),
                (self.request_deadline.is_some(), "deadline=DUR"),
            ] {
                if set {
                    return Err(StrategyProblem::HedgeWith(part));
                }
            }
        }
        let base = self.base.unwrap_or(DEFAULT_BASE_NS);
        let cap = self.cap.unwrap_or(DEFAULT_CAP_NS);
        let jitter = match (kind, self.sigma) {
            ("exp" | "exp-normal", Some(sigma_ns)) => Jitter::AbsoluteNormal { sigma_ns },
            _ => self.jitter(kind, base)?,
        };
        let schedule = match kind {
            "none" => None,
            "immediate" => Some(Schedule::constant_nanos(0)),
            "fixed" => Some(Schedule::constant_nanos(fixed)),
            _ if base > cap => return Err(StrategyProblem::BaseAboveCap),
            _ => Some(
                Schedule::exponential_nanos(base, self.mult.unwrap_or(Ratio::TWO), cap)
                    .map_err(|e| StrategyProblem::Rejected("mult", e))?,
            ),
        };
        let mut s = Strategy::none();
        s.policy = match schedule {
            None if self.retries.is_some_and(|r| r > 0) => {
                return Err(StrategyProblem::NoneWithRetries);
            }
            None => None,
            Some(sch) => {
                let retries = self
                    .retries
                    .or(if kind == "immediate" { Some(3) } else { None });
                let stop = match retries {
                    Some(r) => Stop::NEVER.with_max_retries(r),
                    None => Stop::NEVER,
                };
                Some(Policy::new(sch).with_jitter(jitter).with_stop(stop))
            }
        };
        s.budget = match (self.budget, self.tokens, self.quota) {
            (Some(ratio), None, None) => Some(BudgetSpec::Ratio {
                ratio,
                min_per_sec: self.budget_floor.unwrap_or(1),
                max_tokens: self.budget_bank.unwrap_or(10),
            }),
            (None, Some((max_tokens, ratio_milli)), None) => Some(BudgetSpec::Token {
                max_tokens,
                ratio_milli,
            }),
            (None, None, Some(capacity)) => Some(BudgetSpec::Quota { capacity }),
            (None, None, None) => None,
            _ => return Err(StrategyProblem::TwoBudgets),
        };
        s.retry_breaker = self.retry_breaker.map(|threshold| RetryBreakerSpec {
            threshold,
            min_calls: self.retry_breaker_calls.unwrap_or(10),
            window_ns: self.retry_breaker_window.unwrap_or(10 * SECOND_NS),
        });
        s.breaker = self.breaker.map(|failure_threshold| BreakerConfig {
            failure_threshold,
            min_calls: self.breaker_calls.unwrap_or(20),
            window_ns: self.breaker_window.unwrap_or(10 * SECOND_NS),
            open_ns: self.breaker_open.unwrap_or(5 * SECOND_NS),
            half_open_probes: self.breaker_probes.unwrap_or(5),
        });
        s.shared = self.shared;
        s.retry_after = self.retry_after;
        s.honour_overload = self.honour_overload;
        s.propagate = self.propagate;
        s.request_deadline_ns = self.request_deadline;
        s.adaptive = self.adaptive;
        s.hedge = match self.hedge {
            Some(delay_ns) => Some(crate::strategy::HedgeSpec {
                policy: backoff_core::HedgingPolicy::with_cap(
                    self.hedge_attempts.unwrap_or(2),
                    delay_ns,
                    backoff_core::hedge::GRPC_MAX_ATTEMPTS_CAP,
                )
                .map_err(|e| StrategyProblem::Rejected("hedge-attempts", e))?,
                guard: self.hedge_guard,
            }),
            None => None,
        };
        Ok(s)
    }
}

impl Strategy {
    /// Parse a specification (see the module docs).
    ///
    /// # Errors
    ///
    /// [`StormError::Strategy`] with the [`StrategyProblem`] of the first part that
    /// cannot be used, or of a part that needs another one missing.
    pub fn parse(spec: &str) -> Result<Self, StormError> {
        let err = |problem: StrategyProblem| StormError::Strategy {
            spec: spec.to_string(),
            problem,
        };
        let mut p = Parts::default();
        for part in spec.split('+').map(str::trim) {
            let (key, value) = match part.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (part, None),
            };
            p.set(key, value).map_err(&err)?;
        }
        let s = p.build().map_err(&err)?.named(spec.trim());
        s.validate()?;
        Ok(s)
    }
}

fn duration_ns(v: &str) -> Result<u64, StrategyProblem> {
    Time::parse(v)
        .map(Time::as_ns)
        .ok()
        .filter(|&ns| ns > 0)
        .ok_or_else(|| StrategyProblem::Duration(v.to_string()))
}

fn count(v: &str, min: u32) -> Result<u32, StrategyProblem> {
    v.parse()
        .ok()
        .filter(|n| (min..=1_000_000).contains(n))
        .ok_or_else(|| StrategyProblem::Count(v.to_string()))
}

/// `A/B` or a decimal with at most three places (`1.5` is 1500/1000).
fn ratio(v: &str) -> Result<Ratio, StrategyProblem> {
    let bad = || StrategyProblem::Ratio(v.to_string());
    let (num, den) = match v.split_once('/') {
        Some((a, b)) => (
            a.trim().parse::<u32>().map_err(|_| bad())?,
            b.trim().parse::<u32>().map_err(|_| bad())?,
        ),
        None => {
            let x: f64 = v.parse().map_err(|_| bad())?;
            if !(x.is_finite() && (0.0..=1000.0).contains(&x)) {
                return Err(bad());
            }
            ((x * 1000.0).round() as u32, 1000)
        }
    };
    Ratio::new(num, den).map_err(|_| bad())
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

fn tokens(v: &str) -> Result<(u32, u32), StrategyProblem> {
    let bad = || StrategyProblem::Tokens(v.to_string());
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
    Ok((max_tokens, (r * 1000.0).round() as u32))
}

#[cfg(test)]
mod tests {

    #[test]
    fn every_listed_part_parses() {
        // Each part with a value for its placeholder, after the parts it needs.
        for part in PARTS {
            let written = part
                .replace("[=DUR]", "=2s")
                .replace("[=N]", "=3")
                .replace("MAX/RATIO", "10/1")
                .replace("DUR", "1s")
                .replace("RATIO", "3/2")
                .replace("PCT", "10")
                .replace("=N", "=3");
            let before = match *part {
                p if p.starts_with("budget-") => "exp+budget=10+",
                p if p.starts_with("retry-breaker-") => "exp+retry-breaker=50+",
                p if p.starts_with("breaker-") => "exp+breaker=50+",
                p if p.starts_with("spread") => "exp-normal+",
                p if p.starts_with("jitter-max") => "exp-additive+",
                p if p.starts_with("hedge-") => "hedge=1s+",
                p if p.starts_with("hedge") => "",
                p if SCHEDULES.contains(&p) || p.starts_with("fixed") => "",
                _ => "exp+",
            };
            let spec = format!("{before}{written}");
            assert!(
                Strategy::parse(&spec).is_ok(),
                "{spec}: {:?}",
                Strategy::parse(&spec)
            );
        }
    }

    use super::*;

    #[test]
    fn every_parameter_reaches_backoff_core() {
        let s = Strategy::parse(
            "exp-proportional+base=10ms+cap=1s+mult=3/2+spread=1/5+retries=2+budget=20+budget-floor=0+budget-bank=4+retry-breaker=30+retry-breaker-calls=7+retry-breaker-window=2s+breaker=50+breaker-calls=9+breaker-window=3s+breaker-open=1s+breaker-probes=2+shared",
        )
        .unwrap();
        let p = s.policy.unwrap();
        assert_eq!(
            p.jitter(),
            Jitter::Factor(backoff_core::Fraction::new(1, 5).unwrap())
        );
        assert_eq!(p.stop().max_attempts(), 3);
        assert_eq!(
            s.budget,
            Some(BudgetSpec::Ratio {
                ratio: Ratio::new(200, 1000).unwrap(),
                min_per_sec: 0,
                max_tokens: 4
            })
        );
        let rb = s.retry_breaker.unwrap();
        assert_eq!((rb.min_calls, rb.window_ns), (7, 2 * SECOND_NS));
        let b = s.breaker.unwrap();
        assert_eq!(
            (b.min_calls, b.window_ns, b.open_ns, b.half_open_probes),
            (9, 3 * SECOND_NS, SECOND_NS, 2)
        );
        assert!(s.shared);
        let add = Strategy::parse("exp-additive+jitter-max=250ms").unwrap();
        assert_eq!(
            add.policy.unwrap().jitter(),
            Jitter::Additive {
                max_ns: 250_000_000
            }
        );
        assert_eq!(ratio("1.5").ok(), Ratio::new(1500, 1000).ok());
    }

    #[test]
    fn parameters_need_their_part() {
        for bad in [
            "fixed=1s+base=1s",
            "exp+spread=1/2",
            "exp-full+jitter-max=1s",
            "budget-bank=3",
            "retry-breaker-window=1s",
            "breaker-probes=1",
            "exp+mult=x",
            "exp+mult=1/0",
            "exp-proportional+spread=3/2",
            "shared=1",
            "budget=10+budget-bank=0",
        ] {
            assert!(Strategy::parse(bad).is_err(), "{bad:?}");
        }
    }
}
