//! What a storm scenario compares, a [`Comparison`] (one run per strategy under the
//! same load, server and trigger; the word `Scenario` is kept, in every model, for one
//! run's parameters), and its runs as data: which runs a grid of configurations × seeds has
//! ([`replication`], [`check_grid`]) and how one run per strategy makes a
//! [`ComparisonResult`] ([`Comparison::result`]). Running them in parallel is the host
//! layer's (`retry_storm_host::comparison`); [`run_sequential`] runs them one after the
//! other on the calling thread, with the same results.

use crate::config::StormConfig;
use crate::error::{Param, StormError};
use crate::sim::{StormResult, run};

/// What a scenario (a preset or a file) compares: one run per strategy, and what the
/// runs are expected to show.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Its name.
    pub name: String,
    /// One line on what it is.
    pub title: String,
    /// The qualitative outcome the seed articles report (and the tests check).
    pub expectation: String,
    /// One configuration per strategy.
    pub runs: Vec<StormConfig>,
}

/// The results of every run of a scenario.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ComparisonResult {
    /// The scenario's name.
    pub name: String,
    /// What it is.
    pub title: String,
    /// What it is expected to show.
    pub expectation: String,
    /// One result per strategy, in the scenario's order.
    pub runs: Vec<StormResult>,
}

impl Comparison {
    /// The scenario's result from `runs`, one per strategy in the scenario's order.
    pub fn result(&self, runs: Vec<StormResult>) -> ComparisonResult {
        ComparisonResult {
            name: self.name.clone(),
            title: self.title.clone(),
            expectation: self.expectation.clone(),
            runs,
        }
    }
}

/// Replication `replication` of `cfg`: the same run with its seed advanced by
/// `replication` (so replication 0 is `cfg` itself, and seeds run `seed, seed + 1, …`).
pub fn replication(cfg: &StormConfig, replication: u32) -> StormConfig {
    let mut c = cfg.clone();
    c.seed = cfg.seed.wrapping_add(u64::from(replication));
    c
}

/// Checks that a grid of `runs` × `seeds` has something to run.
///
/// # Errors
///
/// [`StormError::Param`]: [`Param::Strategies`] with no runs, else [`Param::Seeds`]
/// with zero seeds.
pub fn check_grid(runs: &[StormConfig], seeds: u32) -> Result<(), StormError> {
    if runs.is_empty() {
        Err(StormError::param(Param::Strategies, 0))
    } else if seeds == 0 {
        Err(StormError::param(Param::Seeds, seeds))
    } else {
        Ok(())
    }
}

/// Run every strategy of `sc` once, one after the other on the calling thread; the
/// results equal those of the host's parallel runner, byte for byte.
///
/// # Errors
///
/// The first run's [`StormError`]; [`StormError::Param`] when the scenario has no
/// runs.
pub fn run_sequential(sc: &Comparison) -> Result<ComparisonResult, StormError> {
    check_grid(&sc.runs, 1)?;
    let runs = sc.runs.iter().map(run).collect::<Result<_, _>>()?;
    Ok(sc.result(runs))
}
