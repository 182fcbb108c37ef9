//! The contention experiment of the AWS Architecture Blog's "Exponential Backoff And
//! Jitter": `N` clients start together and each must update one record under
//! optimistic concurrency. A call reads the record's version, works for `call` time
//! and writes back; the write succeeds only if no other write committed meanwhile, and
//! a conflicting client backs off (the delay from `backoff-core`) and tries again. The
//! measures are the total calls (the work the record's server sees) and the time until
//! the last client has succeeded, per jitter kind.

use std::sync::atomic::{AtomicBool, Ordering};

use backoff_core::{Jitter, Policy, Ratio, RetryDecision, RetryState, Schedule};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serde::Serialize;

use crate::config::ServiceTime;
use crate::error::{Param, StormError};
use sim_kit::engine::{Engine, EventQueue, Model};
use sim_kit::maths::split_seed;
use sim_kit::time::Time;

/// The name under which `mac-sim storm --scenario` runs this experiment.
pub use crate::names::CONTENTION as NAME;

/// The parameters of the contention experiment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContentionConfig {
    /// Client counts to measure.
    pub clients: Vec<u32>,
    /// Duration of one read-modify-write call: fixed (every round then has exactly
    /// one winner) or drawn for each call.
    pub call: ServiceTime,
    /// The kinds compared, in report order (each at most once).
    pub kinds: Vec<Kind>,
    /// Exponential backoff base, nanoseconds.
    pub base_ns: u64,
    /// Exponential backoff cap, nanoseconds.
    pub cap_ns: u64,
    /// Seed.
    pub seed: u64,
}

impl Default for ContentionConfig {
    /// 10 to 100 clients, fixed 1 ms calls, every kind, backoff from 5 ms up to 2 s
    /// (×2).
    fn default() -> Self {
        Self {
            clients: vec![10, 25, 50, 75, 100],
            call: ServiceTime::Fixed(Time::from_ms(1)),
            kinds: Kind::ALL.to_vec(),
            base_ns: 5_000_000,
            cap_ns: 2_000_000_000,
            seed: 1,
        }
    }
}

/// A kind compared: the immediate-retry baseline or exponential backoff with one
/// jitter kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Retry at once after a conflict (the baseline).
    Immediate,
    /// Exponential backoff without jitter (`no-jitter`; `none` means no retries in
    /// `--strategy`, so it is not this kind's word).
    NoJitter,
    /// Full jitter.
    Full,
    /// Equal jitter.
    Equal,
    /// Decorrelated jitter.
    Decorrelated,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 5] = [
        Kind::Immediate,
        Kind::NoJitter,
        Kind::Full,
        Kind::Equal,
        Kind::Decorrelated,
    ];

    /// Its name in reports and files (one of [`KINDS`]).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Immediate => IMMEDIATE,
            Kind::NoJitter => "no-jitter",
            Kind::Full => "full",
            Kind::Equal => "equal",
            Kind::Decorrelated => "decorrelated",
        }
    }

    /// The kind named `name`, if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Its jitter; `None` for the immediate baseline, which does not back off.
    pub fn jitter(self) -> Option<Jitter> {
        match self {
            Kind::Immediate => Option::None,
            Kind::NoJitter => Some(Jitter::None),
            Kind::Full => Some(Jitter::Full),
            Kind::Equal => Some(Jitter::Equal),
            Kind::Decorrelated => Some(Jitter::Decorrelated),
        }
    }
}

/// The baseline compared with the jitter kinds: retrying at once after a conflict.
pub const IMMEDIATE: &str = KINDS[0];

/// Every kind compared, in report order: the immediate-retry baseline, then
/// [`JITTERS`].
pub use crate::names::CONTENTION_KINDS as KINDS;

/// The jitter kinds compared, with their names.
pub const JITTERS: [(&str, Jitter); 4] = [
    ("no-jitter", Jitter::None),
    ("full", Jitter::Full),
    ("equal", Jitter::Equal),
    ("decorrelated", Jitter::Decorrelated),
];

/// One measurement: a jitter kind at one client count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContentionRow {
    /// The jitter kind.
    pub jitter: String,
    /// Clients.
    pub clients: u32,
    /// Calls made in all (successes and conflicts).
    pub calls: u64,
    /// Calls per client.
    pub calls_per_client: f64,
    /// When the last client succeeded, milliseconds.
    pub completion_ms: f64,
}

#[derive(Clone, Copy)]
enum Ev {
    Start(u32),
    End(u32),
}

struct Record {
    policy: Policy,
    call: ServiceTime,
    version: u64,
    read: Vec<u64>,
    state: Vec<RetryState>,
    calls: u64,
    done: u32,
    last_done: Time,
    rng: XorShiftRng,
}

impl Model for Record {
    type Event = Ev;
    fn handle(&mut self, now: Time, ev: Ev, q: &mut EventQueue<Ev>) -> bool {
        match ev {
            Ev::Start(c) => {
                self.calls += 1;
                self.read[c as usize] = self.version;
                let call = call_time(&self.call, &mut self.rng);
                q.schedule(now.saturating_add(call), Ev::End(c));
            }
            Ev::End(c) => {
                if self.read[c as usize] == self.version {
                    self.version += 1;
                    self.done += 1;
                    self.last_done = now;
                } else {
                    let st = &mut self.state[c as usize];
                    match st.on_failure(&self.policy, now.as_ns(), &mut self.rng) {
                        RetryDecision::Retry { delay_ns } => {
                            q.schedule(now.saturating_add(Time::from_ns(delay_ns)), Ev::Start(c));
                        }
                        RetryDecision::GiveUp(_) => {} // not reached: no stop rule
                    }
                }
            }
        }
        true
    }
}

/// The duration of one call: `call`'s fixed time, or one drawn from its
/// distribution ([`ServiceTime::sample`]; a fixed time draws nothing from `rng`).
fn call_time<R: rand_core::Rng + ?Sized>(call: &ServiceTime, rng: &mut R) -> Time {
    call.sample(rng)
}

/// Simulated time run between two looks at the cancel flag.
const SLICE: Time = Time::from_ms(1);

/// Run one jitter kind with `clients` clients; `None` retries at once (the baseline).
///
/// # Errors
///
/// [`StormError::Param`] if the backoff base exceeds the cap.
pub fn run_one(
    cfg: &ContentionConfig,
    jitter: Option<Jitter>,
    clients: u32,
) -> Result<(u64, Time), StormError> {
    run_one_with(cfg, jitter, clients, &AtomicBool::new(false))
}

/// [`run_one`], stopping with [`StormError::Interrupted`] once `cancel` is seen
/// raised (it is looked at after every millisecond of simulated time). Run in
/// slices or at once, the events and the result are the same.
///
/// # Errors
///
/// As [`run_one`], and [`StormError::Interrupted`].
pub fn run_one_with(
    cfg: &ContentionConfig,
    jitter: Option<Jitter>,
    clients: u32,
    cancel: &AtomicBool,
) -> Result<(u64, Time), StormError> {
    let (schedule, jitter) = match jitter {
        Some(j) => (
            Schedule::exponential_nanos(cfg.base_ns, Ratio::TWO, cfg.cap_ns)
                .map_err(|_| StormError::param(Param::ContentionBase, cfg.base_ns))?,
            j,
        ),
        None => (Schedule::constant_nanos(0), Jitter::None),
    };
    let n = clients as usize;
    let model = Record {
        policy: Policy::new(schedule).with_jitter(jitter),
        call: cfg.call,
        version: 0,
        read: vec![0; n],
        state: vec![RetryState::new(); n],
        calls: 0,
        done: 0,
        last_done: Time::ZERO,
        rng: XorShiftRng::seed_from_u64(split_seed(cfg.seed, u64::from(clients))),
    };
    let mut engine = Engine::new(model);
    for c in 0..clients {
        engine.queue_mut().schedule(Time::ZERO, Ev::Start(c));
    }
    while let Some(next) = engine.queue().peek_time() {
        if cancel.load(Ordering::Relaxed) {
            return Err(StormError::Interrupted);
        }
        engine.run_until(next.saturating_add(SLICE));
    }
    let m = engine.into_model();
    Ok((m.calls, m.last_done))
}

/// Every jitter kind at every client count.
///
/// ```
/// use retry_storm::contention::{ContentionConfig, run_contention};
/// let cfg = ContentionConfig { clients: vec![20], ..ContentionConfig::default() };
/// let rows = run_contention(&cfg).unwrap();
/// let calls = |j: &str| rows.iter().find(|r| r.jitter == j).unwrap().calls;
/// assert_eq!(calls("no-jitter"), 20 * 21 / 2); // one winner per synchronised round
/// assert!(calls("full") < calls("no-jitter"));
/// assert_eq!(calls("immediate"), 20 * 21 / 2); // the baseline: the same rounds at once
/// ```
///
/// # Errors
///
/// [`StormError::Param`] for client counts outside 1..=10000, a zero call time or
/// backoff base, a base above the cap, or no kind (or one twice) to compare.
pub fn run_contention(cfg: &ContentionConfig) -> Result<Vec<ContentionRow>, StormError> {
    run_contention_with(cfg, &AtomicBool::new(false))
}

/// [`run_contention`], stopping with [`StormError::Interrupted`] once `cancel` is
/// seen raised.
///
/// # Errors
///
/// As [`run_contention`], and [`StormError::Interrupted`].
pub fn run_contention_with(
    cfg: &ContentionConfig,
    cancel: &AtomicBool,
) -> Result<Vec<ContentionRow>, StormError> {
    cfg.validate()?;
    let mut rows = Vec::new();
    for &kind in &cfg.kinds {
        for &n in &cfg.clients {
            let (calls, last) = run_one_with(cfg, kind.jitter(), n, cancel)?;
            rows.push(ContentionRow {
                jitter: kind.name().to_string(),
                clients: n,
                calls,
                calls_per_client: calls as f64 / f64::from(n),
                completion_ms: last.as_millis_f64(),
            });
        }
    }
    Ok(rows)
}

/// One kind at one client count over several seeds: means with 95 % intervals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContentionOverSeeds {
    /// `immediate` or the jitter kind.
    pub jitter: String,
    /// Clients.
    pub clients: u32,
    /// The seeds.
    pub seeds: Vec<u64>,
    /// Calls in all.
    pub calls: sim_kit::stats::Estimate,
    /// Until the last client succeeded, milliseconds.
    pub completion_ms: sim_kit::stats::Estimate,
}

impl ContentionConfig {
    /// Check every parameter; the experiment runs only on a valid configuration.
    ///
    /// # Errors
    ///
    /// [`StormError::Param`]: [`Param::ContentionClients`] for client counts outside
    /// 1..=10000 (or none), [`Param::ContentionTimes`] for a zero call time or
    /// backoff base, [`Param::ContentionBase`] for a base above the cap,
    /// [`Param::ContentionKinds`] for no kind or one named twice.
    pub fn validate(&self) -> Result<(), StormError> {
        if self.clients.is_empty() || self.clients.iter().any(|&c| c == 0 || c > 10_000) {
            return Err(StormError::param(
                Param::ContentionClients,
                format!("{:?}", self.clients),
            ));
        }
        if self.call.mean_ps().is_zero() || self.base_ns == 0 {
            return Err(StormError::param(Param::ContentionTimes, ""));
        }
        if let ServiceTime::LogNormal { sigma, .. } = self.call {
            if !(sigma > 0.0 && sigma <= crate::limits::MAX_SIGMA) {
                return Err(StormError::param(Param::ServiceSigma, sigma));
            }
        }
        if self.base_ns > self.cap_ns {
            return Err(StormError::param(Param::ContentionBase, self.base_ns));
        }
        let twice = self
            .kinds
            .iter()
            .enumerate()
            .find(|(i, k)| self.kinds[..*i].contains(k));
        if self.kinds.is_empty() || twice.is_some() {
            let names: Vec<&str> = self.kinds.iter().map(|k| k.name()).collect();
            return Err(StormError::param(Param::ContentionKinds, names.join(", ")));
        }
        Ok(())
    }

    /// Replication `replication` of the experiment: its seed advanced by
    /// `replication` (seeds `seed, seed + 1, …`).
    pub fn replication(&self, replication: u32) -> Self {
        Self {
            seed: self.seed.wrapping_add(u64::from(replication)),
            ..self.clone()
        }
    }
}

/// The experiment over several seeds from `runs`, one `(seed, rows)` per seed in
/// order, each the [`run_contention`] of that seed: one estimate per kind and client
/// count, in report order; `None` without runs. Running the seeds in parallel is the
/// host layer's (`retry_storm_host::contention`).
///
/// ```
/// use retry_storm::contention::{ContentionConfig, over_seeds, run_contention};
/// let cfg = ContentionConfig { clients: vec![20], ..ContentionConfig::default() };
/// let runs: Vec<_> = (0..3)
///     .map(|k| cfg.replication(k))
///     .map(|c| (c.seed, run_contention(&c).unwrap()))
///     .collect();
/// let rows = over_seeds(&runs).unwrap();
/// assert_eq!(rows.len(), 5); // every kind at 20 clients
/// assert_eq!(rows[0].seeds, [1, 2, 3]);
/// assert_eq!(rows[0].calls.n, 3);
/// ```
pub fn over_seeds(runs: &[(u64, Vec<ContentionRow>)]) -> Option<Vec<ContentionOverSeeds>> {
    let (_, first) = runs.first()?;
    let est = |v: Vec<f64>| sim_kit::stats::mean_ci95(&v);
    Some(
        first
            .iter()
            .enumerate()
            .map(|(i, row)| ContentionOverSeeds {
                jitter: row.jitter.clone(),
                clients: row.clients,
                seeds: runs.iter().map(|(s, _)| *s).collect(),
                calls: est(runs.iter().map(|(_, r)| r[i].calls as f64).collect()),
                completion_ms: est(runs.iter().map(|(_, r)| r[i].completion_ms).collect()),
            })
            .collect(),
    )
}
