//! The scenario file as TOML sees it: one struct per table, every key optional where
//! it has a default, unknown keys refused (`deny_unknown_fields`), and values checked
//! as they are read so that toml's error points at the value; and beside it the
//! reference of every key ([`TABLES`], printed by [`super::keys::reference`]). A key
//! is added here twice, a field and its line of reference, and once where
//! `super::parse` maps the file into the model's configuration.

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
        Time::parse_or_zero(&s)
            .map(Instant)
            .map_err(D::Error::custom)
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
    pub listen_backlog: Option<u32>,
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

/// One key of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyDoc {
    /// The key as written in the file.
    pub key: &'static str,
    /// The values it takes, with the unit.
    pub value: &'static str,
    /// Its default, or `required` (with the kinds that require it in parentheses).
    pub default: &'static str,
    /// What it means.
    pub meaning: &'static str,
}

/// One table of the file and its keys (its sub-tables are tables of their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableDoc {
    /// The header as written (`[server]`, `[[trigger]]`), empty for the top level.
    pub header: &'static str,
    /// What the table is.
    pub about: &'static str,
    /// Its keys, in the order the reference lists them.
    pub keys: &'static [KeyDoc],
}

const fn k(
    key: &'static str,
    value: &'static str,
    default: &'static str,
    meaning: &'static str,
) -> KeyDoc {
    KeyDoc {
        key,
        value,
        default,
        meaning,
    }
}

/// Every table and key of a scenario file.
pub const TABLES: &[TableDoc] = &[
    TableDoc {
        header: "",
        about: "the scenario",
        keys: &[
            k(
                "experiment",
                "\"storm\" or \"contention\"",
                "\"storm\"",
                "what the file describes: a storm (these tables) or the contention experiment \
                 (the [contention] table)",
            ),
            k(
                "name",
                "text",
                "the file's stem",
                "the scenario's name in reports and in the files of --out",
            ),
            k(
                "title",
                "text",
                "none",
                "one line under the report's heading",
            ),
            k(
                "expectation",
                "text",
                "none",
                "what the scenario should show, printed with the title",
            ),
            k(
                "horizon",
                "duration",
                "required",
                "simulated time; every trigger ends within it (-d, --horizon sets it)",
            ),
            k(
                "bin",
                "duration",
                "1s",
                "width of a time-series bin (--bin sets it)",
            ),
            k(
                "warmup",
                "instant",
                "5s",
                "left out of the pre-trigger baseline; must end before the first trigger",
            ),
            k(
                "seed",
                "integer",
                "1",
                "seed of every random choice (-s, --seed sets it)",
            ),
            k(
                "users",
                "integer, 1 or more",
                "1000",
                "users; a request picks one uniformly (the shard trigger fails some)",
            ),
            k(
                "timeouts",
                "list of durations",
                "[\"1s\"]",
                "the clients' per-attempt timeout, one drawn uniformly per request (--timeouts sets it)",
            ),
        ],
    },
    TableDoc {
        header: "[load]",
        about: "the offered load",
        keys: &[
            k(
                "kind",
                "\"open\", \"closed\" or \"capped\"",
                "required",
                "open: Poisson arrivals at rate; closed: clients that think, then call; \
                 capped: open arrivals, at most clients active",
            ),
            k(
                "clients",
                "integer, 1 to 1000000",
                "required",
                "open: client processes sharing the arrivals (each with its own budget and \
                 breakers); closed: clients; capped: most clients active at once",
            ),
            k(
                "rate",
                "requests per second",
                "required (open, capped)",
                "new logical requests per second",
            ),
            k(
                "think",
                "duration",
                "required (closed)",
                "mean of a closed-loop client's exponential think time",
            ),
            k(
                "when_busy",
                "\"turn-away\" or \"wait\"",
                "\"turn-away\" (capped only)",
                "what becomes of an arrival that finds every client active: it fails at once, \
                 or it waits in a first-in first-out line (its latency counts from its arrival)",
            ),
            k(
                "wait_limit",
                "integer, 1 to 10000000",
                "10000 (capped, \"wait\" only)",
                "the longest the line of waiting arrivals grows; beyond it they are turned away",
            ),
        ],
    },
    TableDoc {
        header: "[server]",
        about: "the server at the bottom of the call chain",
        keys: &[
            k(
                "workers",
                "integer, 1 or more",
                "unlimited",
                "requests served at once; left out, every request at once (a pure latency \
                 model)",
            ),
            k(
                "service",
                "\"fixed\", \"exponential\" or \"lognormal\"",
                "required",
                "distribution of a request's service time",
            ),
            k("mean", "duration", "required", "mean service time"),
            k(
                "sigma",
                "number above 0, at most 3",
                "required (lognormal)",
                "the standard deviation of the lognormal's underlying normal (its mean stays \
                 mean)",
            ),
            k(
                "error_time",
                "duration",
                "1ms",
                "how long an error answer (a failing trigger) or a rejection takes when \
                 it holds no worker",
            ),
            k(
                "error_work",
                "duration",
                "none",
                "an error answer of a failing trigger queues for a worker and holds it this \
                 long (for every trigger without its own); none: it holds no worker",
            ),
            k(
                "error_work_fraction",
                "number above 0, at most 1",
                "none",
                "or it holds a worker for this share of a drawn service time (not with \
                 error_work)",
            ),
            k(
                "rtt",
                "instant",
                "0s",
                "the network round trip, half on the way to the server and half back, inside \
                 the client's timeout",
            ),
            k(
                "queue_limit",
                "integer",
                "unbounded",
                "load shedding: an attempt that would wait behind this many queued ones is \
                 rejected at once (needs workers)",
            ),
            k(
                "listen_backlog",
                "integer, 0 or more",
                "none",
                "the listen backlog: an attempt that would wait behind this many queued ones \
                 is dropped without an answer, as a full accept queue drops a connection, \
                 and its client learns of it only by its timeout (needs workers; compare \
                 queue_limit, which rejects with an answer)",
            ),
            k(
                "retry_after",
                "duration",
                "none",
                "the Retry-After a rejection carries, honoured by strategies with retry-after \
                 (needs reject_answer \"retry-after\")",
            ),
            k(
                "reject_answer",
                "\"retry-after\", \"error\" or \"do-not-retry\"",
                "\"retry-after\"",
                "what a rejection (queue_limit, rate_limit) tells the client: a Retry-After, a \
                 plain error, or \"overloaded, do not retry\" (honoured by honour-overload)",
            ),
            k(
                "latency",
                "\"at-start\" or \"re-evaluated\"",
                "\"at-start\"",
                "when the slowdown applies: fixed from the concurrency when a request starts, \
                 or re-evaluated whenever the concurrency changes (processor sharing; needs \
                 [server.slowdown])",
            ),
        ],
    },
    TableDoc {
        header: "[server.slowdown]",
        about: "latency that grows with the load",
        keys: &[
            k(
                "limit",
                "integer",
                "required",
                "concurrent requests up to which the service time is unchanged",
            ),
            k(
                "factor",
                "number above 1",
                "required",
                "above limit, a request takes service x factor^((concurrency - limit) / step)",
            ),
            k(
                "step",
                "number above 0",
                "required",
                "extra concurrent requests per factor",
            ),
            k(
                "max",
                "duration",
                "required",
                "the longest a request can take",
            ),
        ],
    },
    TableDoc {
        header: "[server.rate_limit]",
        about: "a token bucket in front of the server",
        keys: &[
            k(
                "per_s",
                "attempts per second",
                "required",
                "tokens added per second; an attempt without a token is rejected at once",
            ),
            k(
                "burst",
                "integer, 1 or more",
                "required",
                "the bucket's size",
            ),
        ],
    },
    TableDoc {
        header: "[[trigger]]",
        about: "what goes wrong, and when (any number; windows may overlap; the report's \"during\" spans from the first start to the last end)",
        keys: &[
            k(
                "kind",
                "\"outage\", \"pause\", \"partial\", \"shard\", \"capacity-loss\", \
                 \"load-spike\" or \"overloaded\"",
                "required",
                "outage: every request fails at once; pause: the server stops, work in \
                 progress resumes; partial: requests fail with a probability; shard: one \
                 shard's users fail; capacity-loss: workers are lost; load-spike: the \
                 offered load is multiplied; overloaded: every request is answered \
                 \"overloaded, do not retry\" at once",
            ),
            k("start", "instant", "required", "the window's start"),
            k(
                "end",
                "instant",
                "required",
                "the window's end (exclusive), after start and within the horizon",
            ),
            k(
                "fraction",
                "0 to 1",
                "required (partial, capacity-loss)",
                "partial: the probability that a request fails; capacity-loss: the share \
                 of the workers lost",
            ),
            k(
                "shards",
                "integer, 1 or more",
                "required (shard)",
                "users are spread over this many shards (user mod shards)",
            ),
            k(
                "failing",
                "integer below shards",
                "required (shard)",
                "the failing shard",
            ),
            k(
                "factor",
                "number above 0, at most 1000",
                "required (load-spike)",
                "the offered load's factor (below 1: a drop)",
            ),
            k(
                "error_work",
                "duration",
                "the server's (outage, partial, shard)",
                "this trigger's error answers hold a worker this long",
            ),
            k(
                "error_work_fraction",
                "number above 0, at most 1",
                "the server's (outage, partial, shard)",
                "or this share of a drawn service time (not with error_work)",
            ),
        ],
    },
    TableDoc {
        header: "[recovery]",
        about: "the rule for \"time to recover\"",
        keys: &[
            k(
                "success_fraction",
                "0 to 1",
                "0.95",
                "a healthy bin's success ratio is at least this share of the pre-trigger one",
            ),
            k(
                "concurrency_factor",
                "number, 1 or more",
                "2.0",
                "a healthy bin's mean concurrency is at most this times the pre-trigger mean",
            ),
            k(
                "concurrency_slack",
                "number, 0 or more",
                "5.0",
                "... plus this many requests",
            ),
            k(
                "sustain",
                "duration",
                "5s",
                "recovered once healthy bins last this long",
            ),
        ],
    },
    TableDoc {
        header: "[[strategy]]",
        about: "the clients' retry strategy; one run per strategy (at least one)",
        keys: &[
            k("name", "text", "the spec", "its name in reports"),
            k(
                "spec",
                "strategy",
                "required",
                "parts joined by +, as --strategy (see mac-sim storm --help)",
            ),
            k(
                "timeouts",
                "list of durations",
                "the file's timeouts",
                "this strategy's per-attempt timeouts",
            ),
        ],
    },
    TableDoc {
        header: "[[chain]]",
        about: "a service between the clients and the server, the clients' side first",
        keys: &[
            k("name", "text", "required", "its name in reports"),
            k(
                "spec",
                "strategy",
                "required",
                "its retries towards the next service, as --strategy",
            ),
            k(
                "timeout",
                "duration",
                "required",
                "its per-attempt timeout towards the next service",
            ),
            k(
                "overloaded",
                "true or false",
                "false",
                "every call it fails (\"do not retry\" from below, its own retries given up \
                 or refused) is answered \"overloaded, do not retry\" instead of an error",
            ),
        ],
    },
    TableDoc {
        header: "[contention]",
        about: "with experiment = \"contention\" (and only name, title, expectation and seed \
                at the top level): clients under optimistic concurrency, each retrying its \
                conflicting write",
        keys: &[
            k(
                "clients",
                "list of integers, 1 to 10000",
                "[10, 25, 50, 75, 100]",
                "the client counts measured",
            ),
            k(
                "call",
                "\"fixed\", \"exponential\" or \"lognormal\"",
                "\"fixed\"",
                "distribution of a read-modify-write call's duration",
            ),
            k("mean", "duration", "1ms", "mean call time"),
            k(
                "sigma",
                "number above 0, at most 3",
                "required (lognormal)",
                "the lognormal's sigma, as in [server]",
            ),
            k(
                "kinds",
                "list of \"immediate\", \"none\", \"full\", \"equal\", \"decorrelated\"",
                "all five",
                "the retry rules compared: at once, or backoff with that jitter",
            ),
            k("base", "duration", "5ms", "the exponential backoff's base"),
            k("cap", "duration", "2s", "the exponential backoff's cap"),
        ],
    },
];
