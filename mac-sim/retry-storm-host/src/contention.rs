//! The contention experiment over several seeds on every core: one run of
//! [`run_contention`](retry_storm::contention::run_contention) per seed on the shared parallel runner, summarised by the
//! engine ([`retry_storm::contention::over_seeds`]); and swept over a key of its file
//! ([`run_contention_sweep`]).

use std::sync::atomic::AtomicBool;

use retry_storm::contention::{
    ContentionConfig, ContentionOverSeeds, ContentionRow, over_seeds, run_contention_with,
};
use retry_storm::error::Param;
use retry_storm::file::Experiment;
use retry_storm::presets::{Options, Source};
use retry_storm::replicate::check_seeds;
use retry_storm::sweep::{Axis, SweepParam, SweepValue, TablePoint};
use retry_storm::{StormError, report};
use sim_host::runner::{Done, RunError, run_grid};
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

/// The tables of a contention sweep (`--sweep KEY=VALUES` on a contention file): one
/// seed's, or the estimates over several.
#[derive(Clone, Debug)]
pub enum ContentionSweep {
    /// One seed: each value's rows.
    One(Vec<TablePoint<ContentionRow>>),
    /// Several seeds: each value's estimates.
    Seeds(Vec<TablePoint<ContentionOverSeeds>>),
}

impl ContentionSweep {
    /// As JSON: the swept key and every value's table.
    pub fn json(&self, key: &str) -> String {
        match self {
            Self::One(p) => report::contention_sweep_json(key, p),
            Self::Seeds(p) => report::contention_sweep_json(key, p),
        }
    }

    /// As CSV: the table's columns after `param` and `value`.
    pub fn csv(&self, key: &str) -> String {
        match self {
            Self::One(p) => report::contention_sweep_csv(key, p, report::contention_csv),
            Self::Seeds(p) => report::contention_sweep_csv(key, p, report::contention_seeds_csv),
        }
    }

    /// As text: `heading` ([`report::contention_heading`]), then each value's table
    /// under a line naming it.
    pub fn report(&self, heading: &str, key: &str) -> String {
        match self {
            Self::One(p) => report::contention_sweep_report(heading, key, p),
            Self::Seeds(p) => report::contention_seeds_sweep_report(heading, key, p),
        }
    }
}

/// The contention experiment of `source` with `opts` at every value of `spec`, a key
/// of its file (`contention.base=1ms,5ms`), each set as `--set` sets it, over `seeds`
/// seeds: the swept key and the tables. Every value is read and checked before any
/// runs.
///
/// # Errors
///
/// [`StormError::Param`] ([`Param::SweepValues`]) for a parameter that is not a key
/// of the file, or a value that makes the file a storm scenario; the errors of
/// [`Source::experiment`] for a value (naming `--sweep KEY=VALUE`); those of the runs,
/// [`StormError::Interrupted`] once `cancel` is seen raised.
pub fn run_contention_sweep(
    source: &Source,
    opts: &Options,
    spec: &Axis,
    seeds: u32,
    cancel: &AtomicBool,
) -> Result<(String, ContentionSweep), StormError> {
    let SweepParam::Key(key) = retry_storm::sweep::param(spec) else {
        return Err(StormError::param(
            Param::SweepValues,
            format!(
                "'{}': a contention experiment sweeps a key of its file (see --keys), e.g. contention.base=1ms,5ms",
                spec.key
            ),
        ));
    };
    check_seeds(seeds)?;
    let mut configs = Vec::with_capacity(spec.values.len());
    for (setting, v) in spec.values.iter().zip(retry_storm::sweep::values(spec)) {
        let setting = setting.clone().given_as(format!("--sweep {setting}"));
        match source.experiment(&opts.with(setting))? {
            Experiment::Contention(c) => configs.push((v.clone(), c.config)),
            Experiment::Storm(_) => {
                return Err(StormError::param(
                    Param::SweepValues,
                    format!("'{key}={v}': the file would no longer be a contention experiment"),
                ));
            }
        }
    }
    fn points<R>(
        configs: &[(SweepValue, ContentionConfig)],
        run: impl Fn(&ContentionConfig) -> Result<Vec<R>, StormError>,
    ) -> Result<Vec<TablePoint<R>>, StormError> {
        configs
            .iter()
            .map(|(value, c)| {
                Ok(TablePoint {
                    value: value.clone(),
                    rows: run(c)?,
                })
            })
            .collect()
    }
    let tables = if seeds == 1 {
        ContentionSweep::One(points(&configs, |c| run_contention_with(c, cancel))?)
    } else {
        ContentionSweep::Seeds(points(&configs, |c| {
            run_contention_seeds_with(c, seeds, cancel)
        })?)
    };
    Ok((key.clone(), tables))
}
