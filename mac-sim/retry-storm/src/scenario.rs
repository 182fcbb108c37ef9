//! A scenario and its running: every strategy of it, each over one or more seeds, on
//! the kit's parallel runner.

use crate::config::StormConfig;
use std::sync::atomic::AtomicBool;

use sim_host::runner::grid::{Done, RunError, run_grid};
use sim_kit::progress::{Progress, Quiet};

use crate::error::{Param, StormError};
use crate::sim::{StormResult, run};

/// A scenario: the runs to compare and what they are expected to show.
#[derive(Clone, Debug)]
pub struct Scenario {
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
#[derive(Clone, Debug, serde::Serialize)]
pub struct ScenarioResult {
    /// The scenario's name.
    pub name: String,
    /// What it is.
    pub title: String,
    /// What it is expected to show.
    pub expectation: String,
    /// One result per strategy, in the scenario's order.
    pub runs: Vec<StormResult>,
}

/// Run every configuration of `runs` with `seeds` seeds each (its own seed, then the
/// next ones) on the shared parallel runner ([`sim_host::runner::grid`]). Returns
/// `results[run][seed]`, in order, whatever the number of threads.
///
/// # Errors
///
/// The first run's [`StormError`] in `[run][seed]` order; [`StormError::Param`] when
/// there is nothing to run.
pub fn run_all(runs: &[StormConfig], seeds: u32) -> Result<Vec<Vec<StormResult>>, StormError> {
    run_all_with(runs, seeds, &Quiet, &AtomicBool::new(false))
}

/// [`run_all`], reporting each finished run to `progress` and stopping when `cancel`
/// is raised.
///
/// # Errors
///
/// As [`run_all`], and [`StormError::Interrupted`] if `cancel` was raised.
pub fn run_all_with(
    runs: &[StormConfig],
    seeds: u32,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<Vec<Vec<StormResult>>, StormError> {
    run_grid(runs, seeds, cancel, progress, |cfg, job| {
        let mut c = cfg.clone();
        c.seed = cfg.seed.wrapping_add(u64::from(job.replication));
        run(&c).map(|r| Done {
            work: r.events,
            value: r,
        })
    })
    .map_err(|e| match e {
        RunError::Job { error, .. } => error,
        RunError::Interrupted { .. } => StormError::Interrupted,
        RunError::Empty if runs.is_empty() => StormError::param(Param::Strategies, 0),
        RunError::Empty => StormError::param(Param::Seeds, seeds),
    })
}

/// Run every strategy of `sc` once, in parallel ([`run_all`]); the results come back
/// in the scenario's order.
///
/// # Errors
///
/// The first run's [`StormError`].
pub fn run_scenario(sc: &Scenario) -> Result<ScenarioResult, StormError> {
    run_scenario_with(sc, &Quiet, &AtomicBool::new(false))
}

/// [`run_scenario`], reporting each finished run to `progress` and stopping when
/// `cancel` is raised.
///
/// # Errors
///
/// The first run's [`StormError`]; [`StormError::Interrupted`] if `cancel` was raised.
pub fn run_scenario_with(
    sc: &Scenario,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<ScenarioResult, StormError> {
    Ok(ScenarioResult {
        name: sc.name.clone(),
        title: sc.title.clone(),
        expectation: sc.expectation.clone(),
        runs: run_all_with(&sc.runs, 1, progress, cancel)?
            .into_iter()
            .flatten()
            .collect(),
    })
}
