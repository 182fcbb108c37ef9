//! [`StormError`]: a storm parameter the simulator cannot accept, as a kind and the
//! offending value; the words are only in `Display`.

use std::fmt;

use sim_kit::time::Time;

use crate::limits::{MAX_CLIENTS, MAX_REQUESTS, MAX_WAITING};

/// A storm parameter the simulator cannot accept. `Display` is one line.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StormError {
    /// A scenario name that is not a preset.
    UnknownScenario(String),
    /// A strategy specification that cannot be used: the specification and why.
    Strategy {
        /// The specification as given (e.g. `exp+budget=250`).
        spec: String,
        /// What is wrong with it.
        problem: StrategyProblem,
    },
    /// The cancel flag was raised (Ctrl-C): the runs stopped and no result is given.
    Interrupted,
    /// A scenario file that cannot be used: where, and why.
    File(Box<FileError>),
    /// A warm-up that leaves no pre-trigger baseline: it does not end before the first
    /// trigger starts (or, without a trigger, it lasts past the horizon).
    Warmup {
        /// The warm-up.
        warmup: Time,
        /// What it must end before: the first trigger's start, or the horizon.
        limit: Time,
        /// Whether `limit` is the first trigger's start (else the horizon).
        trigger: bool,
    },
    /// A recovery sustain window longer than the bins after the last trigger: the
    /// verdict could only be "metastable".
    Sustain {
        /// The sustain window.
        sustain: Time,
        /// The time from the first bin after the triggers to the horizon.
        room: Time,
    },
    /// A parameter out of its range: which, and the value given (empty where the
    /// parameter has no single value, e.g. a pair that contradicts itself).
    Param {
        /// The parameter and the rule it breaks.
        param: Param,
        /// The offending value, as text.
        value: String,
    },
}

impl StormError {
    /// A [`StormError::Param`].
    pub fn param(param: Param, value: impl fmt::Display) -> Self {
        StormError::Param {
            param,
            value: value.to_string(),
        }
    }
}

/// A storm parameter, for [`StormError::Param`]; its `Display` is the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Param {
    /// An open-loop request rate.
    RequestRate,
    /// The closed-loop mean think time.
    ThinkTime,
    /// Clients (or the cap on active clients).
    Clients,
    /// The longest line of arrivals waiting for a free capped client.
    WaitLimit,
    /// The logical requests one run would issue.
    Requests,
    /// The server's workers.
    Workers,
    /// The server's service time.
    ServiceTime,
    /// The slowdown's factor.
    SlowdownFactor,
    /// The slowdown's step.
    SlowdownStep,
    /// The slowdown's longest latency against the service time.
    SlowdownMax,
    /// A client timeout.
    Timeout,
    /// The number of users.
    Users,
    /// The horizon or the bin width.
    HorizonOrBin,
    /// The number of time-series bins.
    Bins,
    /// The horizon.
    Horizon,
    /// The trigger's start and end.
    TriggerWindow,
    /// The trigger's end against the horizon.
    TriggerEnd,
    /// The failing fraction of a partial failure.
    FailureFraction,
    /// The number of shards.
    Shards,
    /// The failing shard (`failing of shards`).
    FailingShard,
    /// A sweep specification (`PARAM=VALUES`).
    Sweep,
    /// A setting that is not `KEY=VALUE`.
    Set,
    /// A sweep's list of values that the range grammar refuses (`PARAM=VALUES: why`).
    SweepValues,
    /// A swept value that does not fit the scenario (`PARAM=VALUE`).
    SweepValue,
    /// The number of services in a call chain.
    Chain,
    /// A hedging strategy in a call chain.
    HedgeChain,
    /// A limit on the queue (`queue_limit`, `listen_backlog`: the value) of a server
    /// without workers, where nothing queues.
    NeedsWorkers,
    /// Re-evaluated latency without a slowdown.
    Latency,
    /// A Retry-After on rejections that answer something else.
    RetryAfter,
    /// A rate limit's rate, per second.
    RateLimitRate,
    /// A rate limit's burst.
    RateLimitBurst,
    /// A capacity loss on a server without workers.
    CapacityLossWorkers,
    /// A load spike's factor.
    SpikeFactor,
    /// The recovery rule's success fraction.
    RecoverySuccess,
    /// The recovery rule's concurrency factor.
    RecoveryConcurrencyFactor,
    /// The recovery rule's concurrency slack.
    RecoveryConcurrencySlack,
    /// The recovery rule's sustain time.
    RecoverySustain,
    /// The list of strategies to run.
    Strategies,
    /// Seeds per strategy.
    Seeds,
    /// The contention experiment's client counts.
    ContentionClients,
    /// The contention experiment's call time and backoff base.
    ContentionTimes,
    /// The contention experiment's backoff base against its cap.
    ContentionBase,
    /// The σ of a lognormal service time.
    ServiceSigma,
    /// The server time of an error answer.
    ErrorWorkTime,
    /// The fraction of a service time an error answer costs.
    ErrorWorkFraction,
    /// Both forms of error work given in one table.
    ErrorWorkBoth,
    /// The contention experiment's kinds (none, or one twice).
    ContentionKinds,
}

impl fmt::Display for StormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StormError::UnknownScenario(s) => write!(
                f,
                "unknown scenario '{s}': use one of {}, {} (or --list), or the path of a scenario file",
                crate::names::PRESETS.join(", "),
                crate::names::CONTENTION
            ),
            StormError::Strategy { spec, problem } => write!(f, "strategy: '{spec}': {problem}"),
            StormError::Interrupted => write!(f, "interrupted; nothing was written"),
            StormError::File(e) => write!(f, "{e}"),
            StormError::Warmup {
                warmup,
                limit,
                trigger: true,
            } => write!(
                f,
                "warm-up {} s leaves no baseline before the first trigger at {} s: set warmup at least a bin below the first trigger's start, leave it out (the default is then fitted), or start the trigger later",
                warmup.as_secs_f64(),
                limit.as_secs_f64()
            ),
            StormError::Warmup { warmup, limit, .. } => write!(
                f,
                "warm-up {} s is longer than the horizon {} s: set warmup shorter, leave it out (the default is then fitted), or the horizon longer (-d/--horizon)",
                warmup.as_secs_f64(),
                limit.as_secs_f64()
            ),
            StormError::Sustain { sustain, room } => write!(
                f,
                "recovery sustain {} s is longer than the {} s from the first bin after the last trigger to the horizon, so no run could recover: set sustain to at most that, leave it out (the default is then fitted), or the horizon longer (-d/--horizon)",
                sustain.as_secs_f64(),
                room.as_secs_f64()
            ),
            StormError::Param { param, value: v } => {
                use Param::*;
                match param {
                    RequestRate => write!(
                        f,
                        "request rate {v} must be a positive number of requests per second (at most 1e8)"
                    ),
                    ThinkTime => write!(f, "the mean think time must be positive"),
                    Clients => write!(f, "{v} clients: between 1 and {MAX_CLIENTS} are supported"),
                    WaitLimit => write!(
                        f,
                        "wait limit {v}: between 1 and {MAX_WAITING} waiting arrivals are supported"
                    ),
                    Requests => write!(
                        f,
                        "about {v} requests in one run: at most {MAX_REQUESTS:.0} are supported (fewer clients or a shorter horizon)"
                    ),
                    Workers => write!(f, "the server needs at least 1 worker"),
                    ServiceTime => write!(f, "the service time must be positive"),
                    SlowdownFactor => {
                        write!(f, "slowdown factor {v} must be above 1 (and at most 1e6)")
                    }
                    SlowdownStep => write!(f, "slowdown step {v} must be positive"),
                    SlowdownMax => write!(
                        f,
                        "the slowdown's longest latency must be at least the service time"
                    ),
                    Timeout => write!(f, "every client timeout must be positive"),
                    Users => write!(f, "there must be at least 1 user"),
                    HorizonOrBin => write!(f, "the horizon and the bin width must be positive"),
                    Bins => write!(
                        f,
                        "{v} time-series bins: at most 1000000 are supported (use a wider --bin)"
                    ),
                    Horizon => write!(f, "the horizon is limited to 1000000 s"),
                    TriggerWindow => write!(f, "the trigger must end after it starts"),
                    TriggerEnd => write!(f, "the trigger must end within the horizon"),
                    FailureFraction => {
                        write!(f, "failure fraction {v} must be between 0 and 1")
                    }
                    Shards => write!(f, "{v} shards: there must be at least 1"),
                    FailingShard => write!(
                        f,
                        "failing shard {v}: the failing shard must be below the number of shards"
                    ),
                    Sweep => write!(
                        f,
                        "sweep '{v}': use PARAM=VALUES with PARAM one of utilisation, rate, clients, retries, timeout or a key of mac-sim storm --keys, and VALUES like 0.5..=0.95:0.05, 0,1,2 or 1s,2s (at most 1000)"
                    ),
                    SweepValues => write!(f, "sweep {v}"),
                    Set => write!(
                        f,
                        "--set '{v}': use KEY=VALUE with a key of mac-sim storm --keys, e.g. server.workers=8"
                    ),
                    SweepValue => write!(
                        f,
                        "sweep {v} does not fit the scenario: utilisation needs workers and rate an open or capped load; clients a closed or capped load, whole; retries a strategy that retries, whole; timeout positive seconds"
                    ),
                    NeedsWorkers => write!(
                        f,
                        "{v} needs a server with workers: without them nothing queues (set workers, or remove {v})"
                    ),
                    Latency => write!(
                        f,
                        "re-evaluated latency needs a slowdown ([server.slowdown]): without one the latency never changes"
                    ),
                    RetryAfter => write!(
                        f,
                        "a Retry-After of {v} needs rejections that carry it (reject_answer = \"retry-after\", the default)"
                    ),
                    RateLimitRate => write!(
                        f,
                        "rate limit {v} per second must be positive (at most 1e8)"
                    ),
                    RateLimitBurst => {
                        write!(f, "rate limit burst {v} must be at least 1")
                    }
                    HedgeChain => write!(
                        f,
                        "hedging is modelled for the clients of one server, not in a call chain"
                    ),
                    Chain => write!(
                        f,
                        "{v} services in the call chain: at most {} are supported",
                        crate::limits::MAX_CHAIN
                    ),
                    CapacityLossWorkers => write!(
                        f,
                        "a capacity loss needs a server with workers (set workers)"
                    ),
                    SpikeFactor => {
                        write!(
                            f,
                            "load spike factor {v} must be above 0 (and at most 1000)"
                        )
                    }
                    RecoverySuccess => {
                        write!(f, "recovery success fraction {v} must be between 0 and 1")
                    }
                    RecoveryConcurrencyFactor => {
                        write!(f, "recovery concurrency factor {v} must be at least 1")
                    }
                    RecoveryConcurrencySlack => {
                        write!(f, "recovery concurrency slack {v} must be 0 or more")
                    }
                    RecoverySustain => write!(f, "the recovery's sustain time must be positive"),
                    Strategies => write!(f, "no strategy to run"),
                    Seeds => write!(f, "{v} seeds: between 1 and 1000 are supported"),
                    ContentionClients => write!(
                        f,
                        "contention: client counts must be between 1 and 10000 (without jitter N clients make N(N+1)/2 calls)"
                    ),
                    ContentionTimes => write!(
                        f,
                        "contention: the call time and the backoff base must be positive"
                    ),
                    ContentionBase => write!(f, "the backoff base must not exceed the cap"),
                    ServiceSigma => write!(
                        f,
                        "lognormal sigma {v} must be above 0 and at most {}",
                        crate::limits::MAX_SIGMA
                    ),
                    ErrorWorkTime => write!(f, "the error work must be a positive time"),
                    ErrorWorkFraction => write!(
                        f,
                        "error work fraction {v} must be above 0 and at most 1 (of a service time)"
                    ),
                    ErrorWorkBoth => write!(
                        f,
                        "error_work and error_work_fraction exclude each other: give one"
                    ),
                    ContentionKinds => write!(
                        f,
                        "contention: kinds [{v}]: name each of {} at most once, and at least one",
                        crate::names::CONTENTION_KINDS.join(", ")
                    ),
                }
            }
        }
    }
}

impl std::error::Error for StormError {}

impl From<FileError> for StormError {
    fn from(e: FileError) -> Self {
        StormError::File(Box::new(e))
    }
}

/// A scenario file that cannot be used: the kit's one file error
/// ([`sim_kit::locate::FileError`]: the file, the line and the key), with the storm's
/// kinds of problem. `Display` is one line, `FILE:LINE: KEY: PROBLEM`.
pub type FileError = sim_kit::locate::FileError<FileProblem>;

/// What is wrong in a scenario file.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FileProblem {
    /// The file could not be read.
    Read(std::io::ErrorKind),
    /// TOML that cannot be read into a scenario: toml's message (syntax, an unknown
    /// key, a value of the wrong type or not a time).
    Toml(String),
    /// A key the scenario's kinds need is not there.
    Missing,
    /// A key that the table's `kind` does not use.
    NotForKind,
    /// A word a file may no longer use: it was renamed, and means something else
    /// elsewhere.
    Renamed {
        /// The old word.
        old: &'static str,
        /// The word to write instead.
        new: &'static str,
        /// Why.
        why: &'static str,
    },
    /// A key that has an effect only with another setting, which the file lacks:
    /// that setting.
    OnlyWith(&'static str),
    /// A value the model cannot accept.
    Invalid(Box<StormError>),
    /// A setting (`--set KEY=VALUE`) that cannot be applied to the file: why.
    Setting(String),
    /// A problem at a key of the file that settings may have caused (a key the set
    /// `kind` does not use): the problem, and the settings as given.
    WithSettings(Box<FileProblem>, String),
    /// A retry configuration (the report card's `--policy`) that the model cannot
    /// read or express: why.
    Policy(String),
    /// The file describes another experiment than the one asked for.
    OtherExperiment {
        /// What the file describes (`contention experiment`).
        is: &'static str,
        /// What was asked for (`storm scenario`).
        wanted: &'static str,
    },
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::Read(kind) => write!(f, "cannot read the scenario file: {kind}"),
            // toml's messages may span lines; the error is one line.
            FileProblem::Toml(m) => write!(f, "{}", m.trim().replace('\n', "; ")),
            FileProblem::Missing => write!(f, "missing: this kind needs it"),
            FileProblem::NotForKind => write!(f, "not used by this kind: remove it"),
            FileProblem::Renamed { old, new, why } => {
                write!(f, "\"{old}\" is now \"{new}\": {why}")
            }
            FileProblem::OnlyWith(what) => {
                write!(f, "has no effect without {what}: remove it, or add that")
            }
            FileProblem::Invalid(e) => write!(f, "{e}"),
            FileProblem::Setting(m) | FileProblem::Policy(m) => write!(f, "{m}"),
            FileProblem::WithSettings(p, settings) => write!(f, "{p} (with {settings})"),
            FileProblem::OtherExperiment { is, wanted } => {
                write!(f, "this file is a {is}, not a {wanted}")
            }
        }
    }
}

/// What is wrong with a strategy specification.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StrategyProblem {
    /// A part that needs `=VALUE` has none (the part's key).
    NeedsValue(String),
    /// A part that takes no value was given one (the part's key).
    TakesNoValue(String),
    /// Two retry schedules (`exp`, `fixed=…`, …) in one specification.
    TwoSchedules,
    /// A duration that is not a positive time with a unit (the text given).
    Duration(String),
    /// A retry count outside 0..=1000000 (the text given).
    Retries(String),
    /// A count (calls, probes, tokens) that is not a whole number in range (the text
    /// given).
    Count(String),
    /// A ratio that is not `A/B` or a decimal (the text given).
    Ratio(String),
    /// A parameter given without the part it belongs to.
    Orphan {
        /// The parameter (`budget-floor`).
        part: String,
        /// The part it needs (`budget`).
        needs: String,
    },
    /// A percentage outside 0..=100 (the text given).
    Percentage(String),
    /// A token budget that is not `MAX/RATIO` in range (the text given).
    Tokens(String),
    /// An empty part (`exp++retries=3`).
    EmptyPart,
    /// A part that is not known (the part).
    UnknownPart(String),
    /// The exponential base above its cap.
    BaseAboveCap,
    /// `none` with retries.
    NoneWithRetries,
    /// Hedging with a retry schedule: gRFC A6 gives a method one or the other.
    HedgeWithRetries,
    /// Hedging with a part that does not apply to hedges (the part): only gRPC's
    /// retry throttling (`tokens=`) and the breaker govern them.
    HedgeWith(&'static str),
    /// More than one of `budget`, `tokens` and `quota`: they are alternatives.
    TwoBudgets,
    /// Both `spread` (σ proportional to the delay) and `sigma` (σ fixed).
    SpreadAndSigma,
    /// `backoff-core` refused a budget or breaker: which part, and its error.
    Rejected(&'static str, backoff_core::ConfigError),
}

impl fmt::Display for StrategyProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use StrategyProblem::*;
        match self {
            NeedsValue(k) => write!(f, "'{k}' needs a value ({k}=...)"),
            TakesNoValue(k) => write!(f, "'{k}' takes no value"),
            TwoSchedules => write!(f, "more than one retry schedule"),
            Duration(v) => write!(
                f,
                "duration '{v}' must be positive with a unit: s, ms, us or ns"
            ),
            Retries(v) => write!(f, "retries '{v}' must be 0..=1000000"),
            Count(v) => write!(f, "count '{v}' must be a whole number up to 1000000"),
            Ratio(v) => write!(f, "ratio '{v}' must be A/B or a decimal, e.g. 3/2 or 1.5"),
            Orphan { part, needs } => write!(f, "'{part}' needs '{needs}'"),
            Percentage(v) => write!(f, "percentage '{v}' must be a number from 0 to 100"),
            Tokens(v) => write!(f, "tokens '{v}' must be MAX/RATIO, e.g. 10/0.1"),
            EmptyPart => write!(f, "empty part"),
            UnknownPart(p) => write!(f, "unknown part '{p}'"),
            BaseAboveCap => write!(f, "the base must not exceed the cap"),
            NoneWithRetries => write!(f, "'none' cannot have retries"),
            HedgeWithRetries => write!(
                f,
                "hedge and a retry schedule are alternatives (gRFC A6: a method has a retryPolicy or a hedgingPolicy): give one of them"
            ),
            HedgeWith(part) => write!(
                f,
                "'{part}' does not apply to hedging: hedges are throttled by tokens=MAX/RATIO (gRFC A6) and hedge-guard"
            ),
            TwoBudgets => write!(
                f,
                "budget, tokens and quota are alternatives: give one of them"
            ),
            SpreadAndSigma => write!(
                f,
                "spread (a sigma proportional to the delay) and sigma (a fixed one) are alternatives: give one of them"
            ),
            Rejected(what, e) => write!(f, "{what}: {e}"),
        }
    }
}
