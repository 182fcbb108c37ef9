//! The named scenarios of `mac-sim storm --scenario NAME`: the retry-storm experiments
//! of the seed articles, each a set of runs that differ only in the client strategy.
//! Each is a scenario file of the crate's `scenarios/` folder ([`crate::file`]),
//! built into the binary, so that nothing is read at run time.

use crate::config::StormConfig;
use crate::error::{Param, StormError};
use crate::file::{ContentionScenario, Experiment};
use crate::strategy::Strategy;
use sim_kit::time::Time;

pub use crate::scenario::Scenario;

pub use crate::names::PRESETS as NAMES;

/// Changes to a preset from the command line.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Seed (default 1).
    pub seed: Option<u64>,
    /// Clients: the closed-loop population, or the open-loop rate scaled by the same
    /// factor; the server's capacity (workers, concurrency limit) scales with it, so
    /// the load per worker is the preset's.
    pub clients: Option<u32>,
    /// Simulated time (the trigger must still end within it).
    pub horizon_ps: Option<Time>,
    /// Replace the preset's strategies.
    pub strategies: Option<Vec<Strategy>>,
    /// Replace the per-attempt timeouts (one is drawn per logical request).
    pub timeouts_ps: Option<Vec<Time>>,
    /// Replace the width of the time-series bins.
    pub bin_ps: Option<Time>,
}

/// The shipped scenario files, built into the binary: (name, text).
pub const FILES: [(&str, &str); 18] = [
    ("pause", include_str!("../scenarios/pause.toml")),
    ("outage-open", include_str!("../scenarios/outage-open.toml")),
    ("waves", include_str!("../scenarios/waves.toml")),
    ("budget", include_str!("../scenarios/budget.toml")),
    ("partial", include_str!("../scenarios/partial.toml")),
    ("shard", include_str!("../scenarios/shard.toml")),
    ("deadline", include_str!("../scenarios/deadline.toml")),
    ("layers", include_str!("../scenarios/layers.toml")),
    (
        "budget-scope",
        include_str!("../scenarios/budget-scope.toml"),
    ),
    ("metastable", include_str!("../scenarios/metastable.toml")),
    ("shedding", include_str!("../scenarios/shedding.toml")),
    ("reevaluated", include_str!("../scenarios/reevaluated.toml")),
    (
        "reevaluated-uncapped",
        include_str!("../scenarios/reevaluated-uncapped.toml"),
    ),
    ("at-start", include_str!("../scenarios/at-start.toml")),
    ("overload", include_str!("../scenarios/overload.toml")),
    ("outage-cpu", include_str!("../scenarios/outage-cpu.toml")),
    ("backlog", include_str!("../scenarios/backlog.toml")),
    ("backlog-cap", include_str!("../scenarios/backlog-cap.toml")),
];

/// The contention experiment's file ([`crate::contention`]), built into the binary.
pub const CONTENTION_FILE: &str = include_str!("../scenarios/contention.toml");

/// The preset `name`, a storm scenario or the contention experiment, with `opts`
/// applied ([`contention_with_options`] for the experiment).
///
/// # Errors
///
/// As [`scenario`]; for the contention experiment, those of
/// [`contention_with_options`].
pub fn experiment(name: &str, opts: &Options) -> Result<Experiment, StormError> {
    if name == crate::contention::NAME {
        let c = crate::file::parse_contention(CONTENTION_FILE, name)?;
        return contention_with_options(c, opts).map(Experiment::Contention);
    }
    scenario(name, opts).map(Experiment::Storm)
}

/// The scenario file `file` of either kind, whose text is `text`, with `opts`
/// applied: [`from_file_text`] for a storm scenario, [`contention_with_options`] for
/// a contention experiment.
///
/// # Errors
///
/// [`StormError::File`] for a file that cannot be used; the errors of applying
/// `opts`.
pub fn experiment_from_file_text(
    text: &str,
    file: &str,
    opts: &Options,
) -> Result<Experiment, StormError> {
    match crate::file::parse_experiment(text, file)? {
        Experiment::Storm(sc) => with_options(sc, opts).map(Experiment::Storm),
        Experiment::Contention(c) => contention_with_options(c, opts).map(Experiment::Contention),
    }
}

/// Apply to a contention experiment the options it takes: the seed, and the clients
/// (one client count in place of its list). The other options are a storm's; the
/// command line refuses them for the experiment.
///
/// # Errors
///
/// The [`StormError::Param`] of [`ContentionConfig::validate`](crate::contention::ContentionConfig::validate)
/// (a client count out of range).
pub fn contention_with_options(
    mut c: ContentionScenario,
    opts: &Options,
) -> Result<ContentionScenario, StormError> {
    if let Some(seed) = opts.seed {
        c.config.seed = seed;
    }
    if let Some(n) = opts.clients {
        c.config.clients = vec![n];
    }
    c.config.validate().map(|()| c)
}

/// The text of the preset `name`'s scenario file.
pub fn text(name: &str) -> Option<&'static str> {
    FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The preset `name`, with `opts` applied.
///
/// # Errors
///
/// [`StormError::UnknownScenario`] for a name that is not a preset; the
/// [`StormError`] of [`StormConfig::validate`] for options that do not fit it.
pub fn scenario(name: &str, opts: &Options) -> Result<Scenario, StormError> {
    let text = text(name).ok_or_else(|| StormError::UnknownScenario(name.to_string()))?;
    with_options(crate::file::parse(text, name)?, opts)
}

/// The scenario file `file` (its name, for the messages and the scenario's name),
/// whose text is `text`, with `opts` applied. Reading a file from disk, and choosing
/// between a preset's name and a path, is the host layer's
/// (`retry_storm_host::scenario_file::load`).
///
/// # Errors
///
/// [`StormError::File`] for a file that cannot be used; the [`StormError`] of
/// [`StormConfig::validate`] for options that do not fit the scenario.
pub fn from_file_text(text: &str, file: &str, opts: &Options) -> Result<Scenario, StormError> {
    with_options(crate::file::parse(text, file)?, opts)
}

/// Apply `opts` to every run of `sc`.
fn with_options(mut sc: Scenario, opts: &Options) -> Result<Scenario, StormError> {
    if let Some(strategies) = &opts.strategies {
        let Some(first) = sc.runs.first().cloned() else {
            return Err(StormError::param(Param::Strategies, 0));
        };
        sc.runs = strategies
            .iter()
            .map(|st| StormConfig {
                strategy: st.clone(),
                ..first.clone()
            })
            .collect();
    }
    if sc.runs.is_empty() {
        return Err(StormError::param(Param::Strategies, 0));
    }
    for r in &mut sc.runs {
        *r = apply(r.clone(), opts)?;
    }
    Ok(sc)
}

fn apply(mut c: StormConfig, o: &Options) -> Result<StormConfig, StormError> {
    if let Some(seed) = o.seed {
        c.seed = seed;
    }
    if let Some(h) = o.horizon_ps {
        c.horizon_ps = h;
    }
    if let Some(t) = &o.timeouts_ps {
        c.timeouts_ps = t.clone();
    }
    if let Some(b) = o.bin_ps {
        c.bin_ps = b;
    }
    if let Some(n) = o.clients {
        c = crate::sweep::with_clients(c, n)?;
    }
    c.validate().map(|()| c)
}
