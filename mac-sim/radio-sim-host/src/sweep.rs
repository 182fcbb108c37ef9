//! A radio sweep's points on every core: the kit's deterministic runner
//! (`sim_host::runner::grid`) over the points of [`radio_sim::sweep::points`], one
//! run per point, on the current rayon pool. Each point's run is seeded by its own
//! configuration, and the results come back in the points' order, so a sweep's output
//! is the same on one thread or many.

use std::sync::atomic::AtomicBool;

use radio_sim::ConfigError;
use radio_sim::sweep::{Point, PointResult};
use sim_host::store::{CampaignError, Job, run_campaign};
use sim_kit::progress::Progress;
use sim_kit::shard::Shard;

use crate::store::{Store, run_key};

/// Where a sweep keeps its runs: nowhere, or a results database, whole or one shard
/// of the sweep's runs.
#[derive(Clone, Copy, Default)]
pub struct Campaign<'a> {
    /// The database: runs it holds are read, not run again, and every finished run
    /// is stored in it at once.
    pub store: Option<&'a Store>,
    /// Run only this shard's share of the points, into `store`; no results are
    /// returned.
    pub shard: Option<Shard>,
}

/// What a sweep gave.
#[derive(Debug)]
pub struct Outcome {
    /// Every point's result, in the points' order (none for a shard).
    pub points: Vec<PointResult>,
    /// The runs of the sweep (of the shard).
    pub runs: usize,
    /// Of those, how many the database held already.
    pub stored: usize,
    /// The events of every run (stored ones included).
    pub events: u64,
}

/// Why a sweep gave no results: [`CampaignError::Run`] holds a point's
/// [`ConfigError`], with the point's values.
pub type SweepError = CampaignError<ConfigError>;

/// The expected cost of a point's run, for dealing runs out to shards: stations
/// times simulated time, times the offered load when it is not saturated. Only the
/// ratios between runs matter.
fn expected_cost(p: &Point) -> f64 {
    let c = &p.config;
    let share = match c.traffic {
        radio_sim::Traffic::Saturated => 1.0,
        _ => c.load.min(1.0) + 0.1,
    };
    f64::from(c.stations) * (c.warmup + c.duration).as_secs_f64() * share
}

/// Check every point before any runs (so that a point that cannot run fails the
/// sweep at once), then run those the campaign's database does not hold (all of
/// them without one; a shard's share with a shard) in parallel, each stored as it
/// finishes.
///
/// # Errors
///
/// [`CampaignError::Run`] with the first point's error, [`CampaignError::Store`] if
/// the database refuses the sweep or a run cannot be stored,
/// [`CampaignError::Interrupted`] if `cancel` was raised (nothing is returned of an
/// interrupted sweep).
pub fn run(
    points: &[Point],
    campaign: Campaign<'_>,
    cancel: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Outcome, SweepError> {
    radio_sim::sweep::check(points).map_err(CampaignError::Run)?;
    let jobs: Vec<Job<'_, Point>> = points
        .iter()
        .map(|p| Job {
            key: run_key(&p.config),
            point: p,
            replication: 0,
            cost: expected_cost(p),
        })
        .collect();
    let ran = run_campaign(
        &jobs,
        campaign.store,
        campaign.shard,
        cancel,
        progress,
        |job| {
            // A run stopped by `cancel` gives nothing; the grid then reports the
            // sweep interrupted, as it sees the flag raised.
            radio_sim::run_with(&job.point.config, cancel)
                .map(|r| {
                    r.map(|r| {
                        let events = r.events;
                        (r, events)
                    })
                })
                .map_err(|e| radio_sim::sweep::at_point(job.point, e))
        },
    )?;
    let events = ran.records.iter().map(|r| r.events).sum();
    let points = if campaign.shard.is_some() {
        Vec::new()
    } else {
        points
            .iter()
            .zip(ran.records)
            .map(|(p, mut result)| {
                // A stored record holds no configuration: it is the point's.
                result.config = p.config.clone();
                PointResult {
                    values: p.values.clone(),
                    result,
                }
            })
            .collect()
    };
    Ok(Outcome {
        points,
        runs: ran.runs,
        stored: ran.stored,
        events,
    })
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
            let parallel = pool
                .install(|| run(&pts, Campaign::default(), &stop, &Quiet))
                .unwrap()
                .points;
            // As JSON: an undefined figure (the sink's delay) is NaN, unequal to itself.
            let json = |r: &[PointResult]| radio_sim::report::sweep_json(&[], r);
            assert_eq!(json(&parallel), json(&sequential), "{threads} threads");
        }
    }

    #[test]
    fn a_raised_flag_returns_nothing_and_a_bad_point_names_itself() {
        let base = RadioConfig::default();
        let pts = points(&base, &[Axis::parse_spec("stations=2,3").unwrap()]).unwrap();
        let stop = AtomicBool::new(true);
        assert!(matches!(
            run(&pts, Campaign::default(), &stop, &Quiet),
            Err(SweepError::Interrupted { .. })
        ));
        let bad = points(&base, &[Axis::parse_spec("stations=2,300").unwrap()]).unwrap();
        let e = run(&bad, Campaign::default(), &AtomicBool::new(false), &Quiet).unwrap_err();
        assert!(
            e.to_string().contains("(at sweep point stations=300)"),
            "{e}"
        );
    }
}
