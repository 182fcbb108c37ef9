//! The names of the shipped scenarios, in the order `mac-sim storm --list` prints
//! them: the retry-storm presets ([`crate::presets`]) and the contention experiment
//! ([`crate::contention`]).

/// The retry-storm presets.
pub const PRESETS: [&str; 19] = [
    "pause",
    "outage-open",
    "waves",
    "budget",
    "partial",
    "shard",
    "deadline",
    "layers",
    "budget-scope",
    "metastable",
    "shedding",
    "reevaluated",
    "reevaluated-uncapped",
    "at-start",
    "overload",
    "outage-cpu",
    "hedging",
    "backlog",
    "backlog-cap",
];

/// The optimistic-concurrency contention experiment.
pub const CONTENTION: &str = "contention";

/// The contention experiment's kinds, in report order: retrying at once, then
/// exponential backoff with each jitter (`crate::contention::KINDS`; here so that the
/// error messages name them without depending on the experiment).
pub const CONTENTION_KINDS: [&str; 5] = ["immediate", "no-jitter", "full", "equal", "decorrelated"];
