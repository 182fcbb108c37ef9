//! The parameters of a storm run and their one-line errors.
//!
//! Times are simulated picoseconds ([`Time`]), like the rest of the simulator; the
//! retry policies of `backoff-core` take nanoseconds, and the conversion happens only
//! where a client asks them for a decision ([`crate::strategy`]).

use serde::Serialize;

use crate::error::{Param, StormError};
use crate::strategy::Strategy;
use sim_kit::time::{PS_PER_SEC, Time};

/// How logical requests are offered.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Load {
    /// Open loop: logical requests arrive as a Poisson stream of `rate_per_s`,
    /// whatever the server's health, each from one of `clients` client processes
    /// (drawn uniformly), which own the budgets and breakers.
    Open {
        /// Logical requests per second.
        rate_per_s: f64,
        /// Client processes sharing the stream.
        clients: u32,
    },
    /// Closed loop: `clients` clients, each thinking for an exponentially distributed
    /// time (mean `think_ps`), then issuing one logical request and retrying it until
    /// it succeeds or is given up, then thinking again.
    Closed {
        /// Clients.
        clients: u32,
        /// Mean think time, picoseconds.
        think_ps: Time,
    },
    /// Open-loop arrivals with at most `max_active` clients active at once (waiting
    /// for a reply or sleeping between retries); what happens to an arrival finding
    /// them all active is `when_busy`'s.
    Capped {
        /// Logical requests per second.
        rate_per_s: f64,
        /// Active clients at most.
        max_active: u32,
        /// An arrival that finds every client active is turned away (the default) or
        /// waits for a free one.
        #[serde(skip_serializing_if = "WhenBusy::is_turn_away")]
        when_busy: WhenBusy,
    },
}

/// What a capped load does with an arrival that finds every client active.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum WhenBusy {
    /// It is turned away at the client and counted as a failed logical request.
    #[default]
    TurnAway,
    /// It waits in a first-in first-out line for a free client; its latency (and
    /// its total deadline) counts from its arrival. An arrival that finds `limit`
    /// already waiting is turned away.
    Wait {
        /// Arrivals waiting at most.
        limit: u32,
    },
}

impl WhenBusy {
    /// The waiting line's length when none is given: 10 000 arrivals.
    pub const DEFAULT_LIMIT: u32 = 10_000;

    /// Whether arrivals are turned away (today's default, left out of the JSON).
    pub fn is_turn_away(&self) -> bool {
        *self == WhenBusy::TurnAway
    }
}

impl Load {
    /// Client processes (each with its own budget and breakers).
    pub fn clients(&self) -> u32 {
        match *self {
            Load::Open { clients, .. } => clients,
            Load::Closed { clients, .. } => clients,
            Load::Capped { max_active, .. } => max_active,
        }
    }
}

/// The service-time distribution of one request on one worker.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum ServiceTime {
    /// Always this long, picoseconds.
    Fixed(Time),
    /// Exponentially distributed with this mean, picoseconds.
    Exponential(Time),
}

impl ServiceTime {
    /// The mean, picoseconds.
    pub fn mean_ps(&self) -> Time {
        match *self {
            ServiceTime::Fixed(t) | ServiceTime::Exponential(t) => t,
        }
    }
}

/// Load-dependent latency: above `limit` concurrent requests, a request takes
/// `service · factor^((concurrency − limit) / k)`, at most `max_ps`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Slowdown {
    /// Concurrency up to which the service time is unchanged.
    pub limit: u32,
    /// Growth factor (> 1).
    pub factor: f64,
    /// Extra concurrent requests per factor (> 0).
    pub k: f64,
    /// The longest a request can take, picoseconds.
    pub max_ps: Time,
}

fn no_time(t: &Time) -> bool {
    t.is_zero()
}

/// The server.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServerConfig {
    /// Workers; `None` serves every request at once (a pure latency model, the
    /// concurrency then only sets the latency through [`Slowdown`]).
    pub workers: Option<u32>,
    /// Service time of a request on a worker.
    pub service: ServiceTime,
    /// Optional load-dependent latency.
    pub slowdown: Option<Slowdown>,
    /// How long an error response (a failing trigger) takes, picoseconds.
    pub error_ps: Time,
    /// Load shedding: attempts that would wait behind this many queued ones are
    /// rejected at once (needs workers); `None`: the queue is unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_limit: Option<u32>,
    /// Rate limiting: attempts beyond the bucket are rejected at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<crate::shedding::RateLimit>,
    /// The Retry-After delay a rejection carries, picoseconds.
    #[serde(skip_serializing_if = "no_time")]
    pub retry_after_ps: Time,
}

/// What goes wrong, and when.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum TriggerKind {
    /// Every request fails with a fast error.
    Outage,
    /// The server stops: no request is started or finished; work in progress resumes
    /// when the pause ends (its time is frozen meanwhile).
    Pause,
    /// Each request fails with this probability (0..=1), at once.
    Partial {
        /// Fraction of requests that fail.
        fraction: f64,
    },
    /// Users are spread over `shards` shards (user mod shards); every request of a
    /// user on shard `failing` fails.
    Shard {
        /// Shards.
        shards: u32,
        /// The failing shard.
        failing: u32,
    },
    /// The server loses this fraction (0..=1) of its workers, rounded; work in
    /// service finishes, new work waits for the workers left.
    CapacityLoss {
        /// Fraction of the workers lost.
        fraction: f64,
    },
    /// The offered load is multiplied by `factor`: an open-loop rate, or the rate at
    /// which closed-loop clients start requests (their think time divided by it).
    LoadSpike {
        /// The load's factor (above 1 a spike, below 1 a drop).
        factor: f64,
    },
}

/// A trigger in the window `[start_ps, end_ps)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Trigger {
    /// Start, picoseconds.
    pub start_ps: Time,
    /// End (exclusive), picoseconds.
    pub end_ps: Time,
    /// What happens.
    pub kind: TriggerKind,
}

/// A service between the clients and the server in a call chain: it passes each
/// call it receives down to the next service (or the server), retrying by its own
/// strategy, and answers the caller when that call ends. It adds no service time of
/// its own (a simplification: the chain's cost is the load it sends down).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChainLayer {
    /// Its name in reports.
    pub name: String,
    /// Its retry strategy towards the next service.
    #[serde(skip)]
    pub strategy: Strategy,
    /// The strategy's specification, for the record.
    pub spec: String,
    /// Its per-attempt timeout towards the next service, picoseconds.
    pub timeout_ps: Time,
}

/// How "time to recover" is judged (see the module docs of [`super`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RecoveryRule {
    /// Success ratio must be at least this fraction of the pre-trigger one (0.95).
    pub success_fraction: f64,
    /// Mean concurrency must be at most `conc_factor ×` the pre-trigger mean ...
    pub conc_factor: f64,
    /// ... plus this many requests.
    pub conc_slack: f64,
    /// For this long without a break, picoseconds.
    pub sustain_ps: Time,
}

impl Default for RecoveryRule {
    fn default() -> Self {
        Self {
            success_fraction: 0.95,
            conc_factor: 2.0,
            conc_slack: 5.0,
            sustain_ps: Time::from_secs(5),
        }
    }
}

/// One storm run: a load, a server, a trigger and one client strategy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StormConfig {
    /// The offered load.
    pub load: Load,
    /// The server.
    pub server: ServerConfig,
    /// Per-attempt client timeouts, picoseconds: one is drawn uniformly per logical
    /// request (a single value makes it fixed).
    pub timeouts_ps: Vec<Time>,
    /// Users (for the shard trigger; a logical request picks one uniformly).
    pub users: u32,
    /// The triggers, in any order; their windows may overlap.
    pub triggers: Vec<Trigger>,
    /// The client strategy (every retry decision comes from `backoff-core`).
    #[serde(skip)]
    pub strategy: Strategy,
    /// The services between the clients and the server, the clients' side first
    /// (empty: the clients call the server).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<ChainLayer>,
    /// Simulated time, picoseconds.
    pub horizon_ps: Time,
    /// Width of a time-series bin, picoseconds.
    pub bin_ps: Time,
    /// Bins before this are left out of the pre-trigger baseline (start-up).
    pub warmup_ps: Time,
    /// The recovery rule.
    pub recovery: RecoveryRule,
    /// Seed of every random choice.
    pub seed: u64,
}

pub use crate::limits::{MAX_CHAIN, MAX_CLIENTS, MAX_REQUESTS, MAX_WAITING};

fn positive_rate(r: f64) -> Result<(), StormError> {
    if r.is_finite() && r > 0.0 && r <= 1e8 {
        Ok(())
    } else {
        Err(StormError::param(Param::RequestRate, r))
    }
}

impl StormConfig {
    /// From the first trigger's start to the last one's end: "before", "during" and
    /// "after" in the summary and the recovery verdict; `None` without a trigger.
    pub fn trigger_window(&self) -> Option<(Time, Time)> {
        let start = self.triggers.iter().map(|t| t.start_ps).min()?;
        let end = self.triggers.iter().map(|t| t.end_ps).max()?;
        Some((start, end))
    }

    /// Check every parameter; the model runs only on a validated configuration.
    ///
    /// # Errors
    ///
    /// The first [`StormError::Param`] found (rates, clients, server, timeouts, horizon
    /// and bins, trigger, recovery rule), [`StormError::Warmup`] for a warm-up that
    /// leaves no baseline before the first trigger (or lasts past the horizon), or the
    /// strategy's [`StormError::Strategy`].
    pub fn validate(&self) -> Result<(), StormError> {
        match self.load {
            Load::Open {
                rate_per_s,
                clients,
            } => {
                positive_rate(rate_per_s)?;
                check_clients(clients)?;
            }
            Load::Closed { clients, think_ps } => {
                check_clients(clients)?;
                if think_ps.is_zero() {
                    return Err(StormError::param(Param::ThinkTime, think_ps));
                }
            }
            Load::Capped {
                rate_per_s,
                max_active,
                when_busy,
            } => {
                positive_rate(rate_per_s)?;
                check_clients(max_active)?;
                if let WhenBusy::Wait { limit } = when_busy {
                    if limit == 0 || limit > MAX_WAITING {
                        return Err(StormError::param(Param::WaitLimit, limit));
                    }
                }
            }
        }
        let horizon_s = self.horizon_ps.as_ps_f64() / PS_PER_SEC as f64;
        let expected = match self.load {
            Load::Open { rate_per_s, .. } | Load::Capped { rate_per_s, .. } => {
                rate_per_s * horizon_s
            }
            Load::Closed { clients, think_ps } => {
                f64::from(clients) * self.horizon_ps.as_ps_f64() / think_ps.as_ps_f64()
            }
        };
        if expected > MAX_REQUESTS {
            return Err(StormError::param(Param::Requests, format!("{expected:.0}")));
        }
        let s = &self.server;
        if s.workers == Some(0) {
            return Err(StormError::param(Param::Workers, 0));
        }
        if s.service.mean_ps().is_zero() {
            return Err(StormError::param(Param::ServiceTime, s.service.mean_ps()));
        }
        if let Some(sl) = s.slowdown {
            if !(sl.factor.is_finite() && sl.factor > 1.0 && sl.factor <= 1e6) {
                return Err(StormError::param(Param::SlowdownFactor, sl.factor));
            }
            if !(sl.k.is_finite() && sl.k > 0.0) {
                return Err(StormError::param(Param::SlowdownStep, sl.k));
            }
            if sl.max_ps < s.service.mean_ps() {
                return Err(StormError::param(Param::SlowdownMax, sl.max_ps));
            }
        }
        if s.queue_limit.is_some() && s.workers.is_none() {
            return Err(StormError::param(Param::QueueLimit, ""));
        }
        if let Some(r) = s.rate_limit {
            if !(r.per_s.is_finite() && r.per_s > 0.0 && r.per_s <= 1e8) {
                return Err(StormError::param(Param::RateLimitRate, r.per_s));
            }
            if r.burst == 0 {
                return Err(StormError::param(Param::RateLimitBurst, r.burst));
            }
        }
        if self.timeouts_ps.is_empty() || self.timeouts_ps.contains(&Time::ZERO) {
            return Err(StormError::param(Param::Timeout, ""));
        }
        if self.users == 0 {
            return Err(StormError::param(Param::Users, self.users));
        }
        if self.bin_ps.is_zero() || self.horizon_ps.is_zero() {
            return Err(StormError::param(Param::HorizonOrBin, ""));
        }
        if self.horizon_ps / self.bin_ps > 1_000_000 {
            return Err(StormError::param(
                Param::Bins,
                self.horizon_ps.div_ceil(self.bin_ps),
            ));
        }
        if self.horizon_ps > Time::from_secs(1_000_000) {
            return Err(StormError::param(Param::Horizon, self.horizon_ps));
        }
        for t in &self.triggers {
            if t.start_ps >= t.end_ps {
                return Err(StormError::param(Param::TriggerWindow, ""));
            }
            if t.end_ps > self.horizon_ps {
                return Err(StormError::param(Param::TriggerEnd, t.end_ps));
            }
            match t.kind {
                TriggerKind::Partial { fraction } => {
                    if !(0.0..=1.0).contains(&fraction) {
                        return Err(StormError::param(Param::FailureFraction, fraction));
                    }
                }
                TriggerKind::Shard { shards, failing } => {
                    if shards == 0 {
                        return Err(StormError::param(Param::Shards, shards));
                    }
                    if failing >= shards {
                        return Err(StormError::param(
                            Param::FailingShard,
                            format!("{failing} of {shards}"),
                        ));
                    }
                }
                TriggerKind::CapacityLoss { fraction } => {
                    if !(0.0..=1.0).contains(&fraction) {
                        return Err(StormError::param(Param::FailureFraction, fraction));
                    }
                    if s.workers.is_none() {
                        return Err(StormError::param(Param::CapacityLossWorkers, ""));
                    }
                }
                TriggerKind::LoadSpike { factor } => {
                    if !(factor.is_finite() && factor > 0.0 && factor <= 1000.0) {
                        return Err(StormError::param(Param::SpikeFactor, factor));
                    }
                }
                TriggerKind::Outage | TriggerKind::Pause => {}
            }
        }
        self.check_warmup()?;
        let r = &self.recovery;
        if !(0.0..=1.0).contains(&r.success_fraction) {
            return Err(StormError::param(
                Param::RecoverySuccess,
                r.success_fraction,
            ));
        }
        if !(r.conc_factor.is_finite() && r.conc_factor >= 1.0) {
            return Err(StormError::param(
                Param::RecoveryConcurrencyFactor,
                r.conc_factor,
            ));
        }
        if !(r.conc_slack.is_finite() && r.conc_slack >= 0.0) {
            return Err(StormError::param(
                Param::RecoveryConcurrencySlack,
                r.conc_slack,
            ));
        }
        if r.sustain_ps.is_zero() {
            return Err(StormError::param(Param::RecoverySustain, r.sustain_ps));
        }
        if self.chain.len() > MAX_CHAIN {
            return Err(StormError::param(Param::Chain, self.chain.len()));
        }
        for l in &self.chain {
            if l.timeout_ps.is_zero() {
                return Err(StormError::param(Param::Timeout, ""));
            }
            l.strategy.validate()?;
        }
        self.strategy.validate()
    }

    /// The warm-up must leave a baseline: it ends before the first trigger starts,
    /// and, without a trigger, within the horizon.
    fn check_warmup(&self) -> Result<(), StormError> {
        let covered = match self.trigger_window() {
            Some((start, _)) => (self.warmup_ps >= start).then_some((start, true)),
            None => (self.warmup_ps > self.horizon_ps).then_some((self.horizon_ps, false)),
        };
        match covered {
            Some((limit, trigger)) => Err(StormError::Warmup {
                warmup: self.warmup_ps,
                limit,
                trigger,
            }),
            None => Ok(()),
        }
    }
}

fn check_clients(n: u32) -> Result<(), StormError> {
    if n == 0 || n > MAX_CLIENTS {
        Err(StormError::param(Param::Clients, n))
    } else {
        Ok(())
    }
}
