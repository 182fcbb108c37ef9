//! A storm sweep on every core: the engine's plan ([`retry_storm::sweep::plan`]: every
//! strategy at every value) in one grid on the shared parallel runner, each run over
//! several seeds, summarised per point by the engine ([`retry_storm::sweep::points`]);
//! or the same runs kept in a results database ([`run_stored_sweep`]: resumed, grown,
//! one shard of them), with the same points.
//!
//! ```
//! use retry_storm::presets::{Options, Source};
//! use retry_storm::sweep::parse_axis;
//! use retry_storm_host::sweep::run_sweep;
//! let src = Source::preset("metastable").unwrap();
//! let spec = parse_axis("utilisation=0.4,0.93").unwrap();
//! let stop = std::sync::atomic::AtomicBool::new(false);
//! let quiet = sim_kit::progress::Quiet;
//! let (_, points) = run_sweep(&src, &Options::default(), &spec, 2, &quiet, &stop).unwrap();
//! assert_eq!(points.len(), 2);
//! let retrying = |p: &retry_storm::sweep::SweepPoint| p.strategies[1].recovered;
//! assert!(retrying(&points[0]) > retrying(&points[1])); // 40 % recovers, 93 % does not
//! ```

use std::sync::atomic::AtomicBool;

use retry_storm::comparison::replication;
use retry_storm::presets::{Options, Source};
use retry_storm::replicate::check_seeds;
use retry_storm::sweep::{Axis, SweepPoint, plan, points, values};
use retry_storm::{Comparison, StormError, StormResult};
use sim_host::store::{CampaignError, Job, run_campaign};
use sim_kit::progress::Progress;
use sim_kit::shard::Shard;

use crate::comparison::run_all_with;
use crate::store::{Store, StormPoint, StormRecord, run_key};

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
    spec: &Axis,
    seeds: u32,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<(Comparison, Vec<SweepPoint>), StormError> {
    check_seeds(seeds)?;
    let (sc, runs) = plan(source, opts, spec)?;
    let grid = run_all_with(&runs, seeds, progress, cancel)?;
    let points = points(&sc, spec, &grid);
    Ok((sc, points))
}

/// Where a sweep keeps its runs: a results database, whole or one shard of the
/// sweep's runs.
#[derive(Clone, Copy)]
pub struct Campaign<'a> {
    /// The database: runs it holds are read, not run again, and every finished run
    /// is stored in it at once.
    pub store: &'a Store,
    /// Run only this shard's share of the runs, into `store`; no points are returned.
    pub shard: Option<Shard>,
}

/// What a stored sweep gave.
#[derive(Debug)]
pub struct StoredSweep {
    /// The scenario and the points, as [`run_sweep`] gives them (none for a shard).
    pub points: Option<(Comparison, Vec<SweepPoint>)>,
    /// The runs of the sweep (of the shard).
    pub runs: usize,
    /// Of those, how many the database held already.
    pub stored: usize,
}

/// Why a stored sweep gave no points: [`CampaignError::Run`] holds the scenario's,
/// a value's or a run's [`StormError`].
pub type SweepError = CampaignError<StormError>;

/// [`run_sweep`] with its runs kept in `campaign`'s database: the runs it holds are
/// read, the others run on every core and each stored as it finishes; with a shard,
/// only the shard's share runs and no points come back. The points are those of
/// [`run_sweep`], bit for bit.
///
/// # Errors
///
/// As [`run_sweep`] ([`CampaignError::Run`]); [`CampaignError::Store`] if the
/// database refuses the sweep or a run cannot be stored;
/// [`CampaignError::Interrupted`] if `cancel` was raised.
pub fn run_stored_sweep(
    source: &Source,
    opts: &Options,
    spec: &Axis,
    seeds: u32,
    campaign: Campaign<'_>,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<StoredSweep, SweepError> {
    check_seeds(seeds).map_err(CampaignError::Run)?;
    let (sc, runs) = plan(source, opts, spec).map_err(CampaignError::Run)?;
    retry_storm::comparison::check_grid(&runs, seeds).map_err(CampaignError::Run)?;
    // `runs[value * strategies + strategy]`: each run's value, as given.
    let per = sc.runs.len().max(1);
    let stored: Vec<StormPoint> = runs
        .iter()
        .enumerate()
        .map(|(i, cfg)| StormPoint {
            config: cfg.clone(),
            key: spec.key.clone(),
            value: values(spec)
                .get(i / per)
                .map(ToString::to_string)
                .unwrap_or_default(),
        })
        .collect();
    let jobs: Vec<Job<'_, StormPoint>> = stored
        .iter()
        .flat_map(|p| {
            (0..seeds).map(move |r| {
                let cfg = replication(&p.config, r);
                Job {
                    key: run_key(&p.config, cfg.seed),
                    point: p,
                    replication: r,
                    cost: expected_cost(&cfg),
                }
            })
        })
        .collect();
    let run = |job: &Job<'_, StormPoint>| {
        match retry_storm::run_with(&replication(&job.point.config, job.replication), cancel) {
            Ok(r) => {
                let record = StormRecord::of(r);
                let events = record.events();
                Ok(Some((record, events)))
            }
            // A run stopped by `cancel`: the campaign reports the interruption.
            Err(StormError::Interrupted) => Ok(None),
            Err(e) => Err(e),
        }
    };
    let ran = run_campaign(
        &jobs,
        Some(campaign.store),
        campaign.shard,
        cancel,
        progress,
        run,
    )?;
    let (runs_of, stored) = (ran.runs, ran.stored);
    if campaign.shard.is_some() {
        return Ok(StoredSweep {
            points: None,
            runs: runs_of,
            stored,
        });
    }
    let grid: Vec<Vec<StormResult>> = ran
        .records
        .chunks(seeds as usize)
        .zip(&runs)
        .map(|(records, cfg)| {
            (0..seeds)
                .zip(records)
                .map(|(r, rec)| rec.clone().into_result(replication(cfg, r)))
                .collect()
        })
        .collect();
    let points = points(&sc, spec, &grid);
    Ok(StoredSweep {
        points: Some((sc, points)),
        runs: runs_of,
        stored,
    })
}

/// The expected cost of a run, for dealing runs out to shards: its clients times its
/// simulated time. Only the ratios between runs matter.
fn expected_cost(c: &retry_storm::StormConfig) -> f64 {
    f64::from(c.users.max(1)) * c.horizon_ps.as_secs_f64()
}
