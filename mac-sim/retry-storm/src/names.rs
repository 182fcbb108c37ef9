//! The names of the shipped scenarios, in the order `mac-sim storm --list` prints
//! them: the retry-storm presets ([`crate::presets`]) and the contention experiment
//! ([`crate::contention`]).

/// The retry-storm presets.
pub const PRESETS: [&str; 18] = [
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
    "backlog",
    "backlog-cap",
];

/// The optimistic-concurrency contention experiment.
pub const CONTENTION: &str = "contention";
