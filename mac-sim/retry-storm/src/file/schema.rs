//! The scenario file as TOML sees it: one struct per table, every key optional where
//! it has a default, unknown keys refused, and values checked as they are read so
//! that toml's error points at the value. Each table is written once with the kit's
//! [`sim_kit::file_table!`]: a field and its line of reference (values with the unit,
//! default, meaning) side by side, so the reference of every key ([`TABLES`], printed
//! by [`super::keys::reference`]) is the schema's own. A key is added here once, and
//! once where `super::parse` maps the file into the model's configuration.

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use sim_kit::schema::TableDoc;

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

sim_kit::file_table! {
    /// The whole file.
    pub struct File, header "", about "the scenario" {
        /// Checked before the rest is read ([`Head`]); here so that it is a key.
        _experiment as "experiment": Option<ExperimentName> => (
            "\"storm\" or \"contention\"",
            "\"storm\"",
            "what the file describes: a storm (these tables) or the contention experiment \
                 (the [contention] table)",
        ),
        name: Option<String> => (
            "text",
            "the file's stem",
            "the scenario's name in reports and in the files of --out",
        ),
        title: Option<String> => (
            "text",
            "none",
            "one line under the report's heading",
        ),
        expectation: Option<String> => (
            "text",
            "none",
            "what the scenario should show, printed with the title",
        ),
        horizon: Duration => (
            "duration",
            "required",
            "simulated time; every trigger ends within it (-d, --horizon sets it)",
        ),
        bin: Option<Duration> => (
            "duration",
            "1s",
            "width of a time-series bin (--bin sets it)",
        ),
        warmup: Option<Instant> => (
            "instant",
            "5s",
            "left out of the pre-trigger baseline; must end before the first trigger",
        ),
        seed: Option<u64> => (
            "integer",
            "1",
            "seed of every random choice (-s, --seed sets it)",
        ),
        users: Option<u32> => (
            "integer, 1 or more",
            "1000",
            "users; a request picks one uniformly (the shard trigger fails some)",
        ),
        timeouts: Option<Vec<Duration>> => (
            "list of durations",
            "[\"1s\"]",
            "the clients' per-attempt timeout, one drawn uniformly per request (--timeouts sets it)",
        ),
        load: LoadTable,
        server: ServerTable,
        #[serde(default)]
        trigger: Vec<TriggerTable>,
        recovery: Option<RecoveryTable>,
        strategy: Vec<StrategyTable>,
        #[serde(default)]
        chain: Vec<ChainTable>,
    }
}

sim_kit::file_table! {
    /// `[[chain]]`: a service between the clients and the server.
    pub struct ChainTable, header "[[chain]]", about "a service between the clients and the server, the clients' side first" {
        name: String => (
            "text",
            "required",
            "its name in reports",
        ),
        spec: String => (
            "strategy",
            "required",
            "its retries towards the next service, as --strategy",
        ),
        timeout: Duration => (
            "duration",
            "required",
            "its per-attempt timeout towards the next service",
        ),
        overloaded: Option<bool> => (
            "true or false",
            "false",
            "every call it fails (\"do not retry\" from below, its own retries given up \
                 or refused) is answered \"overloaded, do not retry\" instead of an error",
        ),
    }
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

sim_kit::file_table! {
    /// `[load]`.
    pub struct LoadTable, header "[load]", about "the offered load" {
        kind: LoadKind => (
            "\"open\", \"closed\" or \"capped\"",
            "required",
            "open: Poisson arrivals at rate; closed: clients that think, then call; \
                 capped: open arrivals, at most clients active",
        ),
        clients: u32 => (
            "integer, 1 to 1000000",
            "required",
            "open: client processes sharing the arrivals (each with its own budget and \
                 breakers); closed: clients; capped: most clients active at once",
        ),
        rate: Option<f64> => (
            "requests per second",
            "required (open, capped)",
            "new logical requests per second",
        ),
        think: Option<Duration> => (
            "duration",
            "required (closed)",
            "mean of a closed-loop client's exponential think time",
        ),
        when_busy: Option<WhenBusyName> => (
            "\"turn-away\" or \"wait\"",
            "\"turn-away\" (capped only)",
            "what becomes of an arrival that finds every client active: it fails at once, \
                 or it waits in a first-in first-out line (its wait for a client is measured \
                 apart from its latency; its total deadline counts from its arrival)",
        ),
        wait_limit: Option<u32> => (
            "integer, 1 to 10000000",
            "10000 (capped, \"wait\" only)",
            "the longest the line of waiting arrivals grows; beyond it they are turned away",
        ),
    }
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

sim_kit::file_table! {
    /// `[server]`.
    pub struct ServerTable, header "[server]", about "the server at the bottom of the call chain" {
        workers: Option<u32> => (
            "integer, 1 or more",
            "unlimited",
            "requests served at once; left out, every request at once (a pure latency \
                 model)",
        ),
        service: ServiceKind => (
            "\"fixed\", \"exponential\" or \"lognormal\"",
            "required",
            "distribution of a request's service time",
        ),
        mean: Duration => (
            "duration",
            "required",
            "mean service time",
        ),
        /// The σ of the underlying normal of a lognormal service time.
        sigma: Option<f64> => (
            "number above 0, at most 3",
            "required (lognormal)",
            "the standard deviation of the lognormal's underlying normal (its mean stays \
                 mean)",
        ),
        error_time: Option<Duration> => (
            "duration",
            "1ms",
            "how long an error answer (a failing trigger) or a rejection takes when \
                 it holds no worker",
        ),
        /// The server time an error answer holds a worker, for every trigger that does
        /// not set its own (default: none, the error takes `error_time` and no worker).
        error_work: Option<Duration> => (
            "duration",
            "none",
            "an error answer of a failing trigger queues for a worker and holds it this \
                 long (for every trigger without its own); none: it holds no worker",
        ),
        /// Or the fraction of a drawn service time it holds a worker.
        error_work_fraction: Option<f64> => (
            "number above 0, at most 1",
            "none",
            "or it holds a worker for this share of a drawn service time (not with \
                 error_work)",
        ),
        /// The network round trip to the server, half each way (default 0s).
        rtt: Option<Instant> => (
            "instant",
            "0s",
            "the network round trip, half on the way to the server and half back, inside \
                 the client's timeout",
        ),
        slowdown: Option<SlowdownTable>,
        queue_limit: Option<u32> => (
            "integer",
            "unbounded",
            "load shedding: an attempt that would wait behind this many queued ones is \
                 rejected at once (needs workers)",
        ),
        listen_backlog: Option<u32> => (
            "integer, 0 or more",
            "none (4096 while paused)",
            "the listen backlog: an attempt that would wait behind this many queued ones \
                 is dropped without an answer, as a full accept queue drops a connection, \
                 and its client learns of it only by its timeout (with workers; compare \
                 queue_limit, which rejects with an answer); a paused server takes in at \
                 most this many attempts of the pause, 4096 (Linux's somaxconn) when not set",
        ),
        pause_intake: Option<PauseIntakeName> => (
            "\"backlog\" or \"unbounded\"",
            "\"backlog\"",
            "what a paused server takes in: at most its listen backlog (a stopped process's \
                 accept queue), or every attempt of the pause (a simplification)",
        ),
        rate_limit: Option<RateLimitTable>,
        retry_after: Option<Duration> => (
            "duration",
            "none",
            "the Retry-After a rejection carries, honoured by strategies with retry-after \
                 (needs reject_answer \"retry-after\" and something that rejects: queue_limit \
                 or [server.rate_limit])",
        ),
        reject_answer: Option<RejectAnswerName> => (
            "\"retry-after\", \"error\" or \"do-not-retry\"",
            "\"retry-after\"",
            "what a rejection (queue_limit, rate_limit) tells the client: a Retry-After, a \
                 plain error, or \"overloaded, do not retry\" (honoured by honour-overload)",
        ),
        latency: Option<LatencyName> => (
            "\"at-start\" or \"re-evaluated\"",
            "\"at-start\"",
            "when the slowdown applies: fixed from the concurrency when a request starts, \
                 or re-evaluated whenever the concurrency changes (processor sharing; needs \
                 [server.slowdown])",
        ),
    }
}

/// `reject_answer` of `[server]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RejectAnswerName {
    Error,
    RetryAfter,
    DoNotRetry,
}

/// `pause_intake` of `[server]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PauseIntakeName {
    Backlog,
    Unbounded,
}

/// `latency` of `[server]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LatencyName {
    AtStart,
    ReEvaluated,
}

sim_kit::file_table! {
    /// `[server.rate_limit]`.
    pub struct RateLimitTable, header "[server.rate_limit]", about "a token bucket in front of the server" {
        per_s: f64 => (
            "attempts per second",
            "required",
            "tokens added per second; an attempt without a token is rejected at once",
        ),
        burst: u32 => (
            "integer, 1 or more",
            "required",
            "the bucket's size",
        ),
    }
}

sim_kit::file_table! {
    /// `[server.slowdown]`.
    pub struct SlowdownTable, header "[server.slowdown]", about "latency that grows with the load" {
        limit: u32 => (
            "integer",
            "required",
            "concurrent requests up to which the service time is unchanged",
        ),
        factor: f64 => (
            "number above 1",
            "required",
            "above limit, a request takes service x factor^((concurrency - limit) / step)",
        ),
        step: f64 => (
            "number above 0",
            "required",
            "extra concurrent requests per factor",
        ),
        max: Duration => (
            "duration",
            "required",
            "the longest a request can take",
        ),
    }
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
    Slow,
}

sim_kit::file_table! {
    /// `[[trigger]]`.
    pub struct TriggerTable, header "[[trigger]]", about "what goes wrong, and when (any number; windows may overlap; the report's \"during\" spans from the first start to the last end)" {
        kind: TriggerKindName => (
            "\"outage\", \"pause\", \"partial\", \"shard\", \"capacity-loss\", \
                 \"load-spike\", \"overloaded\" or \"slow\"",
            "required",
            "outage: every request fails at once; pause: the server stops, work in \
                 progress resumes, and it takes in at most its listen backlog meanwhile; partial: requests fail with a probability; shard: one \
                 shard's users fail; capacity-loss: workers are lost; load-spike: the \
                 offered load is multiplied; overloaded: every request is answered \
                 \"overloaded, do not retry\" at once; slow: requests take longer",
        ),
        start: Instant => (
            "instant",
            "required",
            "the window's start",
        ),
        end: Instant => (
            "instant",
            "required",
            "the window's end (exclusive), after start and within the horizon",
        ),
        fraction: Option<f64> => (
            "0 to 1",
            "required (partial, capacity-loss); 1 (slow)",
            "partial: the probability that a request fails; capacity-loss: the share \
                 of the workers lost; slow: the probability that a request is slowed",
        ),
        added: Option<Duration> => (
            "duration",
            "required (slow)",
            "slow: the time added to a slowed request's service",
        ),
        shards: Option<u32> => (
            "integer, 1 or more",
            "required (shard)",
            "users are spread over this many shards (user mod shards)",
        ),
        failing: Option<u32> => (
            "integer below shards",
            "required (shard)",
            "the failing shard",
        ),
        factor: Option<f64> => (
            "number above 0, at most 1000",
            "required (load-spike)",
            "the offered load's factor (below 1: a drop)",
        ),
        /// The server time this trigger's error answers hold a worker (default: the
        /// server's `error_work`, or none).
        error_work: Option<Duration> => (
            "duration",
            "the server's (outage, partial, shard)",
            "this trigger's error answers hold a worker this long",
        ),
        /// Or the fraction of a drawn service time they hold a worker.
        error_work_fraction: Option<f64> => (
            "number above 0, at most 1",
            "the server's (outage, partial, shard)",
            "or this share of a drawn service time (not with error_work)",
        ),
    }
}

sim_kit::file_table! {
    /// `[recovery]`.
    pub struct RecoveryTable, header "[recovery]", about "the rule for \"time to recover\" (the server's) and \"time to drain\" (the clients' backlog of retrying requests)" {
        success_fraction: Option<f64> => (
            "0 to 1",
            "0.95",
            "a healthy bin's success ratio is at least this share of the pre-trigger one",
        ),
        concurrency_factor: Option<f64> => (
            "number, 1 or more",
            "2.0",
            "a healthy bin's mean concurrency, and a drained bin's mean backlog of retrying requests, is at most this times the pre-trigger mean",
        ),
        concurrency_slack: Option<f64> => (
            "number, 0 or more",
            "5.0",
            "... plus this many requests",
        ),
        sustain: Option<Duration> => (
            "duration",
            "5s",
            "recovered once healthy bins last this long, drained once drained bins do",
        ),
    }
}

sim_kit::file_table! {
    /// `[[strategy]]`.
    pub struct StrategyTable, header "[[strategy]]", about "the clients' retry strategy; one run per strategy (at least one)" {
        name: Option<String> => (
            "text",
            "the spec",
            "its name in reports",
        ),
        spec: String => (
            "strategy",
            "required",
            "parts joined by +, as --strategy (see mac-sim storm --help)",
        ),
        jitter_sigma: Option<Duration> => (
            "duration",
            "none",
            "absolute normal jitter: each delay of the spec's exponential backoff becomes \
                 max(0, d + N(0, sigma^2)), sigma this time whatever d (as +sigma=DUR; the \
                 spec is exp or exp-normal without spread)",
        ),
        timeouts: Option<Vec<Duration>> => (
            "list of durations",
            "the file's timeouts",
            "this strategy's per-attempt timeouts",
        ),
    }
}

sim_kit::file_table! {
    /// A contention experiment's file (`experiment = "contention"`).
    pub struct ContentionFile, header "", about "the top level of a contention experiment's file (its keys are the top level's)" {
        /// Checked before the rest is read ([`Head`]); required here.
        _experiment as "experiment": ExperimentName,
        name: Option<String>,
        title: Option<String>,
        expectation: Option<String>,
        seed: Option<u64>,
        contention: Option<ContentionTable>,
    }
}

sim_kit::file_table! {
    /// `[contention]`.
    pub struct ContentionTable, header "[contention]", about "with experiment = \"contention\" (and only name, title, expectation and seed \
                at the top level): clients under optimistic concurrency, each retrying its \
                conflicting write" {
        clients: Option<Vec<u32>> => (
            "list of integers, 1 to 10000",
            "[10, 25, 50, 75, 100]",
            "the client counts measured",
        ),
        call: Option<ServiceKind> => (
            "\"fixed\", \"exponential\" or \"lognormal\"",
            "\"fixed\"",
            "distribution of a read-modify-write call's duration",
        ),
        mean: Option<Duration> => (
            "duration",
            "1ms",
            "mean call time",
        ),
        sigma: Option<f64> => (
            "number above 0, at most 3",
            "required (lognormal)",
            "the lognormal's sigma, as in [server]",
        ),
        kinds: Option<Vec<crate::contention::Kind>> => (
            "list of \"immediate\", \"no-jitter\", \"full\", \"equal\", \"decorrelated\"",
            "all five",
            "the retry rules compared: at once, or backoff with that jitter",
        ),
        base: Option<Duration> => (
            "duration",
            "5ms",
            "the exponential backoff's base",
        ),
        cap: Option<Duration> => (
            "duration",
            "2s",
            "the exponential backoff's cap",
        ),
    }
}

/// Every table and key of a scenario file, in the order the reference lists them.
pub const TABLES: &[TableDoc] = &[
    File::DOC,
    LoadTable::DOC,
    ServerTable::DOC,
    SlowdownTable::DOC,
    RateLimitTable::DOC,
    TriggerTable::DOC,
    RecoveryTable::DOC,
    StrategyTable::DOC,
    ChainTable::DOC,
    ContentionTable::DOC,
];
