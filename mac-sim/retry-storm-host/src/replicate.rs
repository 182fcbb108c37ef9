//! A scenario over several seeds on every core: each strategy with seeds `seed,
//! seed + 1, …` on the shared parallel runner ([`crate::comparison::run_all_with`]),
//! summarised by the engine ([`retry_storm::replicate::Replicated::from_grid`]).

use std::sync::atomic::AtomicBool;

use retry_storm::replicate::{Replicated, check_seeds};
use retry_storm::{Comparison, StormError};
use sim_kit::progress::{Progress, Quiet};

use crate::comparison::run_all_with;

/// Run every strategy of `sc` with `seeds` consecutive seeds from each run's own seed.
///
/// ```
/// use retry_storm::presets;
/// use retry_storm_host::replicate::run_seeds;
/// let sc = presets::scenario("partial", &presets::Options::default()).unwrap();
/// let r = run_seeds(&sc, 2).unwrap();
/// assert_eq!(r.strategies.len(), 3);
/// assert_eq!(r.strategies[0].seeds, [1, 2]);
/// assert_eq!(r.strategies[0].during_success_ratio.n, 2);
/// ```
///
/// # Errors
///
/// [`StormError::Param`] for seeds outside 1..=1000; the first run's
/// [`StormError`].
pub fn run_seeds(sc: &Comparison, seeds: u32) -> Result<Replicated, StormError> {
    run_seeds_with(sc, seeds, &Quiet, &AtomicBool::new(false))
}

/// [`run_seeds`], reporting each finished run to `progress` and stopping when
/// `cancel` is raised.
///
/// # Errors
///
/// As [`run_seeds`], and [`StormError::Interrupted`] if `cancel` was raised.
pub fn run_seeds_with(
    sc: &Comparison,
    seeds: u32,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<Replicated, StormError> {
    check_seeds(seeds)?;
    let grid = run_all_with(&sc.runs, seeds, progress, cancel)?;
    Ok(Replicated::from_grid(sc, &grid))
}
