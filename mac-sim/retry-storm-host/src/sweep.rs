//! A storm sweep on every core: the engine's plan ([`retry_storm::sweep::plan`]: every
//! strategy at every value) in one grid on the shared parallel runner, each run over
//! several seeds, summarised per point by the engine ([`retry_storm::sweep::points`]).
//!
//! ```
//! use retry_storm::presets::{Options, Source};
//! use retry_storm::sweep::SweepSpec;
//! use retry_storm_host::sweep::run_sweep;
//! let src = Source::preset("metastable").unwrap();
//! let spec = SweepSpec::parse("utilisation=0.4,0.93").unwrap();
//! let stop = std::sync::atomic::AtomicBool::new(false);
//! let quiet = sim_kit::progress::Quiet;
//! let (_, points) = run_sweep(&src, &Options::default(), &spec, 2, &quiet, &stop).unwrap();
//! assert_eq!(points.len(), 2);
//! let retrying = |p: &retry_storm::sweep::SweepPoint| p.strategies[1].recovered;
//! assert!(retrying(&points[0]) > retrying(&points[1])); // 40 % recovers, 93 % does not
//! ```

use std::sync::atomic::AtomicBool;

use retry_storm::presets::{Options, Source};
use retry_storm::replicate::check_seeds;
use retry_storm::sweep::{SweepPoint, SweepSpec, plan, points};
use retry_storm::{Scenario, StormError};
use sim_kit::progress::Progress;

use crate::scenario::run_all_with;

/// Every strategy of the scenario of `source` with `opts` at every value of `spec`,
/// `seeds` seeds each, in one grid on the shared runner: the scenario, and the points
/// in the values' order.
///
/// # Errors
///
/// [`StormError::Param`] for seeds outside 1..=1000, the errors of
/// [`retry_storm::sweep::plan`] for the scenario or the first value that does not
/// fit, the first run's [`StormError`], and [`StormError::Interrupted`] if `cancel`
/// was raised.
pub fn run_sweep(
    source: &Source,
    opts: &Options,
    spec: &SweepSpec,
    seeds: u32,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<(Scenario, Vec<SweepPoint>), StormError> {
    check_seeds(seeds)?;
    let (sc, runs) = plan(source, opts, spec)?;
    let grid = run_all_with(&runs, seeds, progress, cancel)?;
    let points = points(&sc, spec, &grid);
    Ok((sc, points))
}
