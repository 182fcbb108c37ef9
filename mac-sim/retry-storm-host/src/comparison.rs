//! A scenario's runs on every core: every configuration over one or more seeds on the
//! shared parallel runner ([`run_grid`]). Which runs a grid has and how
//! they combine is the engine's ([`retry_storm::comparison`]); the results equal
//! [`retry_storm::run_sequential`]'s, whatever the number of threads.

use std::sync::atomic::AtomicBool;

use retry_storm::comparison::{Comparison, ComparisonResult, check_grid, replication};
use retry_storm::error::Param;
use retry_storm::{StormConfig, StormError, StormResult, run_with};
use sim_host::runner::{Done, RunError, run_grid};
use sim_kit::progress::{Progress, Quiet};

/// Run every configuration of `runs` with `seeds` seeds each (its own seed, then the
/// next ones: [`replication`]) on the shared parallel runner. Returns
/// `results[run][seed]`, in order, whatever the number of threads.
///
/// # Errors
///
/// The first run's [`StormError`] in `[run][seed]` order; [`StormError::Param`] when
/// there is nothing to run ([`check_grid`]).
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
    check_grid(runs, seeds)?;
    run_grid(runs, seeds, cancel, progress, |cfg, job| {
        // A run stopped by `cancel` is an error the grid reports as the interruption.
        run_with(&replication(cfg, job.replication), cancel).map(|r| Done {
            work: r.events,
            value: r,
        })
    })
    .map_err(|e| match e {
        RunError::Job { error, .. } => error,
        RunError::Interrupted { .. } => StormError::Interrupted,
        // Not reached: check_grid refused an empty grid.
        RunError::Empty => StormError::param(Param::Seeds, seeds),
    })
}

/// Run every strategy of `sc` once, in parallel ([`run_all`]); the results come back
/// in the scenario's order.
///
/// # Errors
///
/// The first run's [`StormError`].
pub fn run_comparison(sc: &Comparison) -> Result<ComparisonResult, StormError> {
    run_comparison_with(sc, &Quiet, &AtomicBool::new(false))
}

/// [`run_comparison`], reporting each finished run to `progress` and stopping when
/// `cancel` is raised.
///
/// # Errors
///
/// The first run's [`StormError`]; [`StormError::Interrupted`] if `cancel` was raised.
pub fn run_comparison_with(
    sc: &Comparison,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<ComparisonResult, StormError> {
    let runs = run_all_with(&sc.runs, 1, progress, cancel)?;
    Ok(sc.result(runs.into_iter().flatten().collect()))
}
