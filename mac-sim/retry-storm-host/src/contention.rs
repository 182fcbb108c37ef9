//! The contention experiment over several seeds on every core: one run of
//! [`run_contention`](retry_storm::contention::run_contention) per seed on the shared parallel runner, summarised by the
//! engine ([`retry_storm::contention::over_seeds`]).

use std::sync::atomic::AtomicBool;

use retry_storm::StormError;
use retry_storm::contention::{
    ContentionConfig, ContentionOverSeeds, over_seeds, run_contention_with,
};
use retry_storm::error::Param;
use retry_storm::replicate::check_seeds;
use sim_host::runner::grid::{Done, RunError, run_grid};
use sim_kit::progress::Quiet;

/// [`run_contention`](retry_storm::contention::run_contention) with `seeds` seeds (`cfg.seed`, then the next ones:
/// [`ContentionConfig::replication`]), in parallel: one estimate per kind and client
/// count, in report order.
///
/// ```
/// use retry_storm::contention::ContentionConfig;
/// use retry_storm_host::contention::run_contention_seeds;
/// let cfg = ContentionConfig { clients: vec![20], ..ContentionConfig::default() };
/// let rows = run_contention_seeds(&cfg, 3).unwrap();
/// assert_eq!(rows.len(), 5);
/// assert_eq!(rows[0].seeds, [1, 2, 3]);
/// ```
///
/// # Errors
///
/// [`StormError::Param`] for seeds outside 1..=1000, and the errors of
/// [`run_contention`](retry_storm::contention::run_contention).
pub fn run_contention_seeds(
    cfg: &ContentionConfig,
    seeds: u32,
) -> Result<Vec<ContentionOverSeeds>, StormError> {
    run_contention_seeds_with(cfg, seeds, &AtomicBool::new(false))
}

/// [`run_contention_seeds`], stopping with [`StormError::Interrupted`] once `cancel`
/// is seen raised (no partial result).
///
/// # Errors
///
/// As [`run_contention_seeds`], and [`StormError::Interrupted`].
pub fn run_contention_seeds_with(
    cfg: &ContentionConfig,
    seeds: u32,
    cancel: &AtomicBool,
) -> Result<Vec<ContentionOverSeeds>, StormError> {
    check_seeds(seeds)?;
    let configs = [cfg.clone()];
    let grid = run_grid(&configs, seeds, cancel, &Quiet, |c, job| {
        let one = c.replication(job.replication);
        run_contention_with(&one, cancel).map(|rows| Done {
            work: rows.iter().map(|r| r.calls).sum(),
            value: (one.seed, rows),
        })
    })
    .map_err(|e| match e {
        RunError::Job { error, .. } => error,
        RunError::Interrupted { .. } => StormError::Interrupted,
        _ => StormError::param(Param::Seeds, seeds),
    })?;
    let runs: Vec<_> = grid.into_iter().flatten().collect();
    over_seeds(&runs).ok_or_else(|| StormError::param(Param::Seeds, seeds))
}
