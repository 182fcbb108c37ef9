//! A radio sweep's points on every core: the kit's deterministic runner
//! (`sim_host::runner::grid`) over the points of [`radio_sim::sweep::points`], one
//! run per point, on the current rayon pool. Each point's run is seeded by its own
//! configuration, and the results come back in the points' order, so a sweep's output
//! is the same on one thread or many.

use std::sync::atomic::AtomicBool;

use radio_sim::ConfigError;
use radio_sim::sweep::{Point, PointResult};
use sim_host::runner::grid::{Done, RunError, run_grid};
use sim_kit::progress::Progress;

/// Check every point before any runs (so that a point that cannot run fails the
/// sweep at once), then run them all in parallel; `None` if `cancel` was raised
/// (nothing is returned of an interrupted sweep).
///
/// # Errors
///
/// The first point's [`ConfigError`], with the point's values.
pub fn run(
    points: &[Point],
    cancel: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Option<Vec<PointResult>>, ConfigError> {
    radio_sim::sweep::check(points)?;
    if points.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let out = run_grid(points, 1, cancel, progress, |p, _| {
        // A run stopped by `cancel` gives nothing; the grid then reports the sweep
        // interrupted, as it sees the flag raised.
        let result =
            radio_sim::run_with(&p.config, cancel).map_err(|e| radio_sim::sweep::at_point(p, e))?;
        Ok(Done {
            work: result.as_ref().map_or(0, |r| r.events),
            value: result.map(|result| PointResult {
                values: p.values.clone(),
                result,
            }),
        })
    });
    match out {
        Ok(rows) => Ok(rows.into_iter().flatten().collect::<Option<Vec<_>>>()),
        Err(RunError::Interrupted { .. }) => Ok(None),
        Err(RunError::Job { error, .. }) => Err(error),
        Err(RunError::Empty) => Ok(Some(Vec::new())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radio_sim::RadioConfig;
    use radio_sim::sweep::{Axis, points};
    use sim_kit::progress::Quiet;

    /// On one thread and on four, point by point the same results as the engine's
    /// own sequential sweep, byte for byte.
    #[test]
    fn the_same_results_on_any_number_of_threads() {
        let mut base = RadioConfig::default();
        base.set("duration", "100ms").unwrap();
        base.set("warmup", "0s").unwrap();
        let axes = [
            Axis::parse_spec("stations=2..=5").unwrap(),
            Axis::parse_spec("rule=beb,dcf").unwrap(),
        ];
        let pts = points(&base, &axes).unwrap();
        let stop = AtomicBool::new(false);
        let sequential = radio_sim::sweep::run(&pts, &stop).unwrap().unwrap();
        for threads in [1, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let parallel = pool.install(|| run(&pts, &stop, &Quiet)).unwrap().unwrap();
            // As JSON: an undefined figure (the sink's delay) is NaN, unequal to itself.
            let json = |r: &[PointResult]| radio_sim::report::sweep_json(&[], r);
            assert_eq!(json(&parallel), json(&sequential), "{threads} threads");
        }
    }

    #[test]
    fn a_raised_flag_returns_nothing_and_a_bad_point_names_itself() {
        let base = RadioConfig::default();
        let pts = points(&base, &[Axis::parse_spec("stations=2,3").unwrap()]).unwrap();
        assert_eq!(run(&pts, &AtomicBool::new(true), &Quiet), Ok(None));
        let bad = points(&base, &[Axis::parse_spec("stations=2,300").unwrap()]).unwrap();
        let e = run(&bad, &AtomicBool::new(false), &Quiet).unwrap_err();
        assert!(
            e.to_string().contains("(at sweep point stations=300)"),
            "{e}"
        );
    }
}
