//! The scenario file as TOML sees it: one struct per table, every key optional where
//! it has a default, unknown keys refused (`deny_unknown_fields`), and values checked
//! as they are read so that toml's error points at the value.

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};

use sim_kit::time::Time;

/// A duration with its unit (`"100ms"`); positive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duration(pub Time);

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Time::parse(&s).map(Duration).map_err(D::Error::custom)
    }
}

/// An instant with its unit (`"20s"`); `"0s"` is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instant(pub Time);

impl<'de> Deserialize<'de> for Instant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let t = s.trim();
        let num = ["ms", "us", "µs", "ns", "s"]
            .iter()
            .find_map(|u| t.strip_suffix(u));
        if num.is_some_and(|n| n.trim().parse::<f64>() == Ok(0.0)) {
            return Ok(Instant(Time::ZERO));
        }
        Time::parse(&s).map(Instant).map_err(D::Error::custom)
    }
}

/// `experiment`: what a scenario file describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExperimentName {
    Storm,
    Contention,
}

/// The one key read before the rest, which says which schema the file follows; every
/// other key is left to that schema.
#[derive(Debug, Deserialize)]
pub struct Head {
    pub experiment: Option<ExperimentName>,
}

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// Checked before the rest is read ([`Head`]); here so that it is a key.
    #[serde(rename = "experiment")]
    pub _experiment: Option<ExperimentName>,
    pub name: Option<String>,
    pub title: Option<String>,
    pub expectation: Option<String>,
    pub horizon: Duration,
    pub bin: Option<Duration>,
    pub warmup: Option<Instant>,
    pub seed: Option<u64>,
    pub users: Option<u32>,
    pub timeouts: Option<Vec<Duration>>,
    pub load: LoadTable,
    pub server: ServerTable,
    #[serde(default)]
    pub trigger: Vec<TriggerTable>,
    pub recovery: Option<RecoveryTable>,
    pub strategy: Vec<StrategyTable>,
    #[serde(default)]
    pub chain: Vec<ChainTable>,
}

/// `[[chain]]`: a service between the clients and the server.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChainTable {
    pub name: String,
    pub spec: String,
    pub timeout: Duration,
    pub overloaded: Option<bool>,
}

/// `kind` of `[load]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoadKind {
    Open,
    Closed,
    Capped,
}

/// `when_busy` of a capped `[load]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WhenBusyName {
    TurnAway,
    Wait,
}

/// `[load]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadTable {
    pub kind: LoadKind,
    pub clients: u32,
    pub rate: Option<f64>,
    pub think: Option<Duration>,
    pub when_busy: Option<WhenBusyName>,
    pub wait_limit: Option<u32>,
}

/// `service` of `[server]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ServiceKind {
    Fixed,
    Exponential,
    #[serde(rename = "lognormal")]
    LogNormal,
}

/// `[server]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerTable {
    pub workers: Option<u32>,
    pub service: ServiceKind,
    pub mean: Duration,
    /// The σ of the underlying normal of a lognormal service time.
    pub sigma: Option<f64>,
    pub error_time: Option<Duration>,
    /// The server time an error answer holds a worker, for every trigger that does
    /// not set its own (default: none, the error takes `error_time` and no worker).
    pub error_work: Option<Duration>,
    /// Or the fraction of a drawn service time it holds a worker.
    pub error_work_fraction: Option<f64>,
    /// The network round trip to the server, half each way (default 0s).
    pub rtt: Option<Instant>,
    pub slowdown: Option<SlowdownTable>,
    pub queue_limit: Option<u32>,
    pub rate_limit: Option<RateLimitTable>,
    pub retry_after: Option<Duration>,
    pub reject_answer: Option<RejectAnswerName>,
    pub latency: Option<LatencyName>,
}

/// `reject_answer` of `[server]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RejectAnswerName {
    Error,
    RetryAfter,
    DoNotRetry,
}

/// `latency` of `[server]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LatencyName {
    AtStart,
    ReEvaluated,
}

/// `[server.rate_limit]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimitTable {
    pub per_s: f64,
    pub burst: u32,
}

/// `[server.slowdown]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlowdownTable {
    pub limit: u32,
    pub factor: f64,
    pub step: f64,
    pub max: Duration,
}

/// `kind` of a `[[trigger]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TriggerKindName {
    Outage,
    Pause,
    Partial,
    Shard,
    CapacityLoss,
    LoadSpike,
    Overloaded,
}

/// `[[trigger]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriggerTable {
    pub kind: TriggerKindName,
    pub start: Instant,
    pub end: Instant,
    pub fraction: Option<f64>,
    pub shards: Option<u32>,
    pub failing: Option<u32>,
    pub factor: Option<f64>,
    /// The server time this trigger's error answers hold a worker (default: the
    /// server's `error_work`, or none).
    pub error_work: Option<Duration>,
    /// Or the fraction of a drawn service time they hold a worker.
    pub error_work_fraction: Option<f64>,
}

/// `[recovery]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecoveryTable {
    pub success_fraction: Option<f64>,
    pub concurrency_factor: Option<f64>,
    pub concurrency_slack: Option<f64>,
    pub sustain: Option<Duration>,
}

/// `[[strategy]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyTable {
    pub name: Option<String>,
    pub spec: String,
    pub timeouts: Option<Vec<Duration>>,
}

/// A contention experiment's file (`experiment = "contention"`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentionFile {
    /// Checked before the rest is read ([`Head`]); required here.
    #[serde(rename = "experiment")]
    pub _experiment: ExperimentName,
    pub name: Option<String>,
    pub title: Option<String>,
    pub expectation: Option<String>,
    pub seed: Option<u64>,
    pub contention: Option<ContentionTable>,
}

/// `[contention]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentionTable {
    pub clients: Option<Vec<u32>>,
    pub call: Option<ServiceKind>,
    pub mean: Option<Duration>,
    pub sigma: Option<f64>,
    pub kinds: Option<Vec<crate::contention::Kind>>,
    pub base: Option<Duration>,
    pub cap: Option<Duration>,
}
