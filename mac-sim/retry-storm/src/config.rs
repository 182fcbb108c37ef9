//! The parameters of a storm run and their one-line errors.
//!
//! Times are simulated picoseconds ([`Time`]), like the rest of the simulator; the
//! retry policies of `backoff-core` take nanoseconds, and the conversion happens only
//! where a client asks them for a decision ([`crate::strategy`]).

use serde::{Deserialize, Serialize};

use rand_core::Rng;

use crate::error::{Param, StormError};
use crate::strategy::Strategy;
use sim_kit::maths;
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
    /// It waits in a first-in first-out line for a free client; its total deadline
    /// counts from its arrival, its latency from when a client takes it up (the wait
    /// is measured apart: `wait_p50_ms`). An arrival that finds `limit` already
    /// waiting is turned away.
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
    /// Lognormal with this mean: `e^(μ + σZ)` with `Z` standard normal and `μ` chosen
    /// so that the mean is `mean` (`μ = ln mean − σ²/2`); its median is
    /// `mean · e^(−σ²/2)` and its p99 `mean · e^(2.326σ − σ²/2)`.
    LogNormal {
        /// The mean, picoseconds.
        mean: Time,
        /// The standard deviation σ of the underlying normal (0 < σ ≤ 3).
        sigma: f64,
    },
}

impl ServiceTime {
    /// The mean, picoseconds.
    pub fn mean_ps(&self) -> Time {
        match *self {
            ServiceTime::Fixed(t) | ServiceTime::Exponential(t) => t,
            ServiceTime::LogNormal { mean, .. } => mean,
        }
    }

    /// One service time drawn from the distribution (at least 1 ps); identical on
    /// every machine for the same `rng` (only `sim_kit::maths`, `sqrt` and `+ − × ÷`).
    /// A fixed time draws nothing.
    ///
    /// ```
    /// use rand_core::SeedableRng;
    /// use retry_storm::config::ServiceTime;
    /// use sim_kit::time::Time;
    /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
    /// let s = ServiceTime::LogNormal { mean: Time::from_ms(50), sigma: 0.5 };
    /// let n = 20_000;
    /// let total: f64 = (0..n).map(|_| s.sample(&mut rng).as_ps_f64()).sum();
    /// let mean_ms = total / f64::from(n) / 1e9;
    /// assert!((mean_ms - 50.0).abs() < 1.0, "{mean_ms}");
    /// ```
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Time {
        let ps = match *self {
            ServiceTime::Fixed(t) => return t,
            ServiceTime::Exponential(mean) => maths::exponential(rng, mean.as_ps_f64()),
            ServiceTime::LogNormal { mean, sigma } => {
                let mu = maths::ln(mean.as_ps_f64()) - sigma * sigma / 2.0;
                maths::exp(mu + sigma * maths::standard_normal(rng))
            }
        };
        Time::from_ps_f64(ps.round()).max(Time::from_ps(1))
    }
}

/// The server work an error answer costs: it queues for a worker like any request,
/// holds it this long, then answers the error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum ErrorWork {
    /// This long on a worker, picoseconds.
    Time(Time),
    /// This fraction (0 < f ≤ 1) of a service time drawn from the service
    /// distribution (slowed down like a request's, under a slowdown).
    Fraction(f64),
}

impl ErrorWork {
    /// Check the work: a positive time, or a fraction above 0 and at most 1.
    ///
    /// # Errors
    ///
    /// [`StormError::Param`] with [`Param::ErrorWorkTime`] or
    /// [`Param::ErrorWorkFraction`].
    pub fn check(&self) -> Result<(), StormError> {
        match *self {
            ErrorWork::Time(t) if t.is_zero() => Err(StormError::param(Param::ErrorWorkTime, t)),
            ErrorWork::Fraction(f) if !(f > 0.0 && f <= 1.0) => {
                Err(StormError::param(Param::ErrorWorkFraction, f))
            }
            _ => Ok(()),
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

/// The listen backlog a paused server has when none is set: Linux's default
/// `net.core.somaxconn` since kernel 5.4 (it was 128 before), the most connections
/// a stopped process's accept queue holds.
pub const DEFAULT_LISTEN_BACKLOG: u32 = 4096;

/// What a paused server takes in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum PauseIntake {
    /// At most its listen backlog ([`ServerConfig::listen_backlog`], else
    /// [`DEFAULT_LISTEN_BACKLOG`]) of the attempts that arrive while it is paused;
    /// the rest are dropped unanswered, as a stopped process's full accept queue
    /// drops connections.
    #[default]
    Backlog,
    /// Every attempt of the pause (a simplification: no admission bound).
    Unbounded,
}

impl PauseIntake {
    fn is_backlog(&self) -> bool {
        *self == PauseIntake::Backlog
    }
}

/// When a request's latency under a [`Slowdown`] is decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Latency {
    /// From the concurrency when the request starts: it keeps that latency to its end,
    /// whatever happens to the concurrency meanwhile.
    #[default]
    AtStart,
    /// Re-evaluated whenever the concurrency changes (processor sharing): every
    /// request in service does its work at the rate `1 / slowdown(concurrency now)`,
    /// the slowdown being `factor^((concurrency − limit) / k)` above the limit, at most
    /// `max / service mean`.
    ReEvaluated,
}

impl Latency {
    fn is_at_start(&self) -> bool {
        *self == Latency::AtStart
    }
}

/// What a rejection by load shedding or the rate limiter tells the client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum RejectAnswer {
    /// A plain error: nothing the client's policy can use.
    Error,
    /// HTTP `Retry-After` of [`ServerConfig::retry_after_ps`] (RFC 9110 section
    /// 10.2.3; zero without one).
    #[default]
    RetryAfter,
    /// "Overloaded, do not retry" (`backoff_core::ServerAnswer::DoNotRetry`).
    DoNotRetry,
}

impl RejectAnswer {
    fn is_retry_after(&self) -> bool {
        *self == RejectAnswer::RetryAfter
    }
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
    /// How long an error response (a failing trigger) takes, picoseconds: without
    /// error work, the time from its arrival to its answer, with no worker taken.
    pub error_ps: Time,
    /// The server work an error answer costs, for the triggers that do not set
    /// their own; `None` (the default): none, the error is answered after
    /// `error_ps` without a worker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_work: Option<ErrorWork>,
    /// The network round trip between the last caller and the server, picoseconds:
    /// half of it on the way to the server, half on the way back (the caller's
    /// timeout runs over both); zero by default.
    #[serde(skip_serializing_if = "no_time")]
    pub rtt_ps: Time,
    /// Load shedding: attempts that would wait behind this many queued ones are
    /// rejected at once (needs workers); `None`: the queue is unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_limit: Option<u32>,
    /// A listen backlog: attempts that would wait behind this many queued ones are
    /// dropped without an answer, as a full accept queue drops a connection, so the
    /// client learns of it only by its timeout (with workers); and a paused server
    /// takes in at most this many attempts of the pause ([`PauseIntake`]). `None`:
    /// no backlog while the server runs, [`DEFAULT_LISTEN_BACKLOG`] while it is
    /// paused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen_backlog: Option<u32>,
    /// What a paused server takes in: at most its listen backlog (the default), or
    /// every attempt.
    #[serde(skip_serializing_if = "PauseIntake::is_backlog")]
    pub pause_intake: PauseIntake,
    /// Rate limiting: attempts beyond the bucket are rejected at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<crate::shedding::RateLimit>,
    /// The Retry-After delay a rejection carries, picoseconds.
    #[serde(skip_serializing_if = "no_time")]
    pub retry_after_ps: Time,
    /// What a rejection tells the client.
    #[serde(skip_serializing_if = "RejectAnswer::is_retry_after")]
    pub reject_answer: RejectAnswer,
    /// When the [`Slowdown`] decides a request's latency.
    #[serde(skip_serializing_if = "Latency::is_at_start")]
    pub latency: Latency,
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
    /// Every request is answered "overloaded, do not retry" at once (as fast as an
    /// error). Where its window overlaps another failing trigger's, it answers first.
    Overloaded,
    /// Requests that start service in the window take `added` longer, each with
    /// probability `fraction` (1: every request, a slowdown that no copy of a request
    /// escapes; below 1, a share of slow backends or a partial slowdown).
    Slow {
        /// The time added to a slowed request's service.
        added: Time,
        /// The probability that a request is slowed.
        fraction: f64,
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
    /// The server work this trigger's error answers cost (outage, partial, shard);
    /// `None`: the server's `error_work`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_work: Option<ErrorWork>,
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
    /// Answer the caller "overloaded, do not retry" (instead of a plain error) for
    /// every call it fails: "do not retry" from below, or its own retries given up or
    /// refused.
    #[serde(skip_serializing_if = "is_false")]
    pub overloaded: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
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

/// Which of the warm-up and the recovery's sustain window were left at their
/// defaults, so that they are scaled to fit the run ([`StormConfig::fitted`]) rather
/// than refused. A value the user wrote is never changed: one that does not fit is an
/// error naming it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Defaulted {
    /// The warm-up is the default (5 s).
    pub warmup: bool,
    /// The sustain window is the default (5 s).
    pub sustain: bool,
}

/// A default scaled to fit a run, for the record (the report says so in a line).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fitted {
    /// The scenario file's key: `warmup` or `recovery.sustain`.
    pub key: &'static str,
    /// The default.
    pub default: Time,
    /// What it became.
    pub fitted: Time,
    /// The time it had to fit in: before the first trigger starts (the warm-up; the
    /// horizon without a trigger), or from the first bin after the triggers to the
    /// horizon (the sustain window).
    pub room: Time,
}

/// A [`Fitted`] read back (a stored run's record): its key is one of those a default
/// is fitted for.
impl<'de> Deserialize<'de> for Fitted {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Read {
            key: String,
            default: Time,
            fitted: Time,
            room: Time,
        }
        let r = Read::deserialize(d)?;
        let key = ["warmup", "recovery.sustain"]
            .into_iter()
            .find(|k| *k == r.key)
            .ok_or_else(|| serde::de::Error::custom(format!("no default {} is fitted", r.key)))?;
        Ok(Self {
            key,
            default: r.default,
            fitted: r.fitted,
            room: r.room,
        })
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
    /// Which of the warm-up and the sustain window are defaults, scaled to fit.
    #[serde(skip)]
    pub defaulted: Defaulted,
    /// Seed of every random choice.
    pub seed: u64,
}

pub use crate::limits::{MAX_CHAIN, MAX_CLIENTS, MAX_REQUESTS, MAX_SIGMA, MAX_WAITING};

fn positive_rate(r: f64) -> Result<(), StormError> {
    if r.is_finite() && r > 0.0 && r <= 1e8 {
        Ok(())
    } else {
        Err(StormError::param(Param::RequestRate, r))
    }
}

impl StormConfig {
    /// The logical requests a run is expected to issue: the arrival rate × the horizon
    /// (open and capped loops), or the clients × the horizon / the think time (a
    /// closed loop, at most: each client thinks between its requests).
    pub fn expected_requests(&self) -> f64 {
        let horizon_s = self.horizon_ps.as_ps_f64() / PS_PER_SEC as f64;
        match self.load {
            Load::Open { rate_per_s, .. } | Load::Capped { rate_per_s, .. } => {
                rate_per_s * horizon_s
            }
            Load::Closed { clients, think_ps } => {
                f64::from(clients) * self.horizon_ps.as_ps_f64() / think_ps.as_ps_f64()
            }
        }
    }

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
    /// and bins, trigger, recovery rule), [`StormError::Warmup`] for a warm-up the
    /// user wrote that leaves no baseline before the first trigger (or lasts past the
    /// horizon), [`StormError::Sustain`] for a sustain window the user wrote that does
    /// not fit after the triggers, or the strategy's [`StormError::Strategy`].
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
        let expected = self.expected_requests();
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
        if let ServiceTime::LogNormal { sigma, .. } = s.service {
            if !(sigma > 0.0 && sigma <= MAX_SIGMA) {
                return Err(StormError::param(Param::ServiceSigma, sigma));
            }
        }
        s.error_work.as_ref().map_or(Ok(()), ErrorWork::check)?;
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
        if s.latency == Latency::ReEvaluated && s.slowdown.is_none() {
            return Err(StormError::param(Param::Latency, ""));
        }
        if !s.retry_after_ps.is_zero() && s.reject_answer != RejectAnswer::RetryAfter {
            return Err(StormError::param(
                Param::RetryAfter,
                format!("{} s", s.retry_after_ps.as_secs_f64()),
            ));
        }
        // Without workers a listen backlog bounds only what a pause takes in.
        for (key, set) in [("queue_limit", s.queue_limit.is_some())] {
            if set && s.workers.is_none() {
                return Err(StormError::param(Param::NeedsWorkers, key));
            }
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
            t.error_work.as_ref().map_or(Ok(()), ErrorWork::check)?;
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
                TriggerKind::Slow { fraction, .. } => {
                    if !(0.0..=1.0).contains(&fraction) {
                        return Err(StormError::param(Param::FailureFraction, fraction));
                    }
                }
                TriggerKind::Outage | TriggerKind::Pause | TriggerKind::Overloaded => {}
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
        if !self.chain.is_empty()
            && (self.strategy.hedge.is_some()
                || self.chain.iter().any(|l| l.strategy.hedge.is_some()))
        {
            return Err(StormError::param(Param::HedgeChain, ""));
        }
        for l in &self.chain {
            if l.timeout_ps.is_zero() {
                return Err(StormError::param(Param::Timeout, ""));
            }
            l.strategy.validate()?;
        }
        self.strategy.validate()
    }

    /// The warm-up must leave a baseline: a whole bin after it ends before the first
    /// trigger starts, and, without a trigger, it ends within the horizon. The sustain
    /// window must fit in the bins after the triggers. A default that does not fit is
    /// no error: [`StormConfig::fitted`] scales it.
    fn check_warmup(&self) -> Result<(), StormError> {
        if !self.defaulted.warmup && !self.warmup_fits(self.warmup_ps) {
            let (limit, trigger) = match self.trigger_window() {
                Some((start, _)) => (start, true),
                None => (self.horizon_ps, false),
            };
            return Err(StormError::Warmup {
                warmup: self.warmup_ps,
                limit,
                trigger,
            });
        }
        if !self.defaulted.sustain
            && self.trigger_window().is_some()
            && self.recovery.sustain_ps > self.room_after()
        {
            return Err(StormError::Sustain {
                sustain: self.recovery.sustain_ps,
                room: self.room_after(),
            });
        }
        Ok(())
    }

    /// Whether a warm-up of `w` leaves a baseline: a whole bin between it and the
    /// first trigger's start (without a trigger: it ends within the horizon).
    fn warmup_fits(&self, w: Time) -> bool {
        match self.trigger_window() {
            Some((start, _)) => {
                let first = w.div_ceil(self.bin_ps);
                (first + 1).saturating_mul(self.bin_ps.as_ps()) <= start.as_ps()
            }
            None => w <= self.horizon_ps,
        }
    }

    /// The time the recovery verdict can look at: from the first bin that starts at
    /// or after the triggers' end to the end of the last bin (zero without trigger).
    fn room_after(&self) -> Time {
        let Some((_, end)) = self.trigger_window() else {
            return Time::ZERO;
        };
        let bins = self.horizon_ps.div_ceil(self.bin_ps);
        let first = end.div_ceil(self.bin_ps);
        Time::from_ps(bins.saturating_sub(first) * self.bin_ps.as_ps())
    }

    /// This run with its defaulted warm-up and sustain window scaled to fit, and
    /// which were. A default that fits is kept. A warm-up that does not becomes
    /// half the time before the first trigger (half the horizon without one),
    /// rounded down to whole bins; a sustain window that does not becomes half the
    /// bins left after the triggers, rounded down, at least one bin.
    pub fn fitted(&self) -> (StormConfig, Vec<Fitted>) {
        let mut c = self.clone();
        let mut notes = Vec::new();
        let bin = self.bin_ps.as_ps();
        if self.defaulted.warmup && !self.warmup_fits(self.warmup_ps) {
            let room = self
                .trigger_window()
                .map_or(self.horizon_ps, |(start, _)| start);
            c.warmup_ps = Time::from_ps(room.as_ps() / 2 / bin * bin);
            notes.push(Fitted {
                key: "warmup",
                default: self.warmup_ps,
                fitted: c.warmup_ps,
                room,
            });
        }
        let room = self.room_after();
        if self.defaulted.sustain
            && self.trigger_window().is_some()
            && self.recovery.sustain_ps > room
        {
            c.recovery.sustain_ps = Time::from_ps((room.as_ps() / 2 / bin).max(1) * bin);
            notes.push(Fitted {
                key: "recovery.sustain",
                default: self.recovery.sustain_ps,
                fitted: c.recovery.sustain_ps,
                room,
            });
        }
        (c, notes)
    }
}

fn check_clients(n: u32) -> Result<(), StormError> {
    if n == 0 || n > MAX_CLIENTS {
        Err(StormError::param(Param::Clients, n))
    } else {
        Ok(())
    }
}

/// `c` with `n` clients, as `--clients N` and `--sweep clients=N` both mean: the
/// closed-loop population, the open loop's client processes or the cap on active
/// clients becomes `n`, and the offered load (an open or capped rate) and the
/// server's capacity (workers, the slowdown's limit and step) and the users scale by
/// the same factor, so that the load per worker is the scenario's.
///
/// # Errors
///
/// [`StormError::Param`] ([`Param::Clients`]) for 0 or more than
/// [`MAX_CLIENTS`] clients.
pub fn with_clients(mut c: StormConfig, n: u32) -> Result<StormConfig, StormError> {
    check_clients(n)?;
    let f = match &mut c.load {
        Load::Closed { clients, .. } => {
            let f = f64::from(n) / f64::from(*clients);
            *clients = n;
            f
        }
        Load::Open {
            rate_per_s,
            clients,
        } => {
            let f = f64::from(n) / f64::from(*clients);
            *rate_per_s *= f;
            *clients = n;
            f
        }
        Load::Capped {
            rate_per_s,
            max_active,
            ..
        } => {
            let f = f64::from(n) / f64::from(*max_active);
            *rate_per_s *= f;
            *max_active = n;
            f
        }
    };
    let scale = |x: u32| ((f64::from(x) * f).round() as u32).max(1);
    c.server.workers = c.server.workers.map(scale);
    if let Some(sl) = &mut c.server.slowdown {
        sl.limit = scale(sl.limit);
        sl.k *= f;
    }
    c.users = scale(c.users).max(5);
    Ok(c)
}
