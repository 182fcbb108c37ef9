//! A whole CSMA/CD sweep: check everything, run every replication of every point on
//! all cores (or only those a results database does not hold yet, or only one shard's
//! share), summarise, and write `results.csv`, `results.json` and the charts to the
//! output directory as one set: all of them or, if the sweep is interrupted or fails,
//! none (not even the directory).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use csma_cd::sweep::*;
//! use csma_cd_host::sweep::{run_sweep, SweepOptions};
//! use sim_kit::progress::Quiet;
//! use sim_kit::time::Time;
//! let dir = std::env::temp_dir().join(format!("mac-sim-sweep-doc-{}", std::process::id()));
//! let mut spec = SweepSpec { axes: vec![Axis::parse("stations", "1,4").unwrap()], replications: 2, ..SweepSpec::default() };
//! spec.base.duration = Some(Time::from_ms(2));
//! let opts = SweepOptions { out_dir: dir.clone(), plots: false, db: None, shard: None };
//! let out = run_sweep(&spec, &opts, &Quiet, &AtomicBool::new(false)).unwrap();
//! assert_eq!(out.points.len(), 2);
//! assert!(dir.join("results.csv").is_file() && dir.join("results.json").is_file());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::job::run_cancellable;
use crate::sweep::charts as sweep_charts;
use crate::sweep::store::{Store, StoreError, run_key};
use csma_cd::config::{BackoffAlgorithm, RunConfig};
use csma_cd::error::ConfigError;
use csma_cd::scenario::Scenario;
use csma_cd::scenario::value::Codec;
use csma_cd::sweep::RunRecord;
use csma_cd::sweep::{PointSummary, to_csv, to_json};
use csma_cd::sweep::{Shard, expected_cost};
use csma_cd::sweep::{SpecError, SweepSpec};
use csma_cd::table::Cell;
use sim_host::chart::save;
use sim_host::output::OutputSet;
use sim_host::output::Publication;
use sim_host::output::plan::{self, Output};
use sim_host::output::{OutputError, write_atomic};
use sim_host::store::{CampaignError, Job, run_campaign};
use sim_kit::progress::Progress;

/// Where and what to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepOptions {
    /// The output directory (made when the results are written; not used by a
    /// shard).
    pub out_dir: PathBuf,
    /// Whether to draw the charts.
    pub plots: bool,
    /// The results database: runs it holds are read, not run again, and every
    /// finished run is stored in it at once.
    pub db: Option<PathBuf>,
    /// Run only this shard's share of the runs, into `db`, and write no results.
    pub shard: Option<Shard>,
}

/// What a finished sweep produced.
#[derive(Clone, Debug)]
pub struct SweepOutcome {
    /// One summary per point, in point order (none for a shard).
    pub points: Vec<PointSummary>,
    /// Every run's record, point after point, replications in order within a point
    /// (none for a shard).
    pub records: Vec<RunRecord>,
    /// Files written.
    pub files: Vec<PathBuf>,
    /// Events simulated over all the sweep's runs (run now or read back).
    pub events: u64,
    /// Wall time of the simulations.
    pub wall: Duration,
    /// Runs in the sweep (in the shard, for a shard).
    pub runs: usize,
    /// Of those, runs read from the database.
    pub stored: usize,
}

/// Why a sweep wrote no results.
#[derive(Debug)]
pub enum SweepError {
    /// A bad parameter (nothing was run).
    Spec(SpecError),
    /// The output directory is unusable, a folder stands where one of its files or the
    /// database goes, or the database is one of its files (nothing was run).
    OutputDir(OutputError),
    /// `--shard` without a database to keep the shard's runs.
    ShardWithoutDb,
    /// The results database cannot be used.
    Store(StoreError),
    /// Ctrl-C (or the cancel flag): no results were written (a database keeps the
    /// runs that finished).
    Interrupted {
        /// Runs finished in this invocation.
        runs_done: usize,
        /// Runs it had to do.
        runs: usize,
        /// The database that keeps every finished run, if the sweep had one: the same
        /// command resumes from it.
        db: Option<PathBuf>,
    },
    /// A run refused its configuration (every point is checked first, so this means
    /// a check missed something).
    Run(ConfigError),
    /// Writing a result file failed after the runs.
    Write(OutputError),
}

impl fmt::Display for SweepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Spec(e) => write!(f, "{e}"),
            Self::OutputDir(e) | Self::Write(e) => write!(f, "{e}"),
            Self::ShardWithoutDb => write!(
                f,
                "--shard needs --db FILE: a shard's runs are kept in its database and merged later"
            ),
            Self::Store(e) => write!(f, "{e}"),
            Self::Interrupted {
                runs_done,
                runs,
                db: None,
            } => write!(
                f,
                "sweep interrupted after {runs_done} of {runs} runs; no results were written"
            ),
            Self::Interrupted {
                runs_done,
                runs,
                db: Some(db),
            } => write!(
                f,
                "sweep interrupted after {runs_done} of {runs} runs; no results were written, \
                 but {} keeps every finished run: run the same command again to resume",
                db.display()
            ),
            Self::Run(e) => write!(f, "a run failed: {e}"),
        }
    }
}

impl std::error::Error for SweepError {}

impl From<SpecError> for SweepError {
    fn from(e: SpecError) -> Self {
        Self::Spec(e)
    }
}

impl From<StoreError> for SweepError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

/// Run the sweep (see the module docs).
///
/// # Errors
///
/// [`SweepError::Spec`], [`SweepError::OutputDir`], [`SweepError::ShardWithoutDb`] or
/// [`SweepError::Store`] before anything runs; [`SweepError::Interrupted`] if `cancel`
/// is raised, even after the last run; [`SweepError::Write`] if a file cannot be
/// written; [`SweepError::Store`] if a result cannot be stored. No results file
/// appears in any of these cases.
pub fn run_sweep(
    spec: &SweepSpec,
    opts: &SweepOptions,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<SweepOutcome, SweepError> {
    spec.validate()?;
    if opts.shard.is_some() && opts.db.is_none() {
        return Err(SweepError::ShardWithoutDb);
    }
    if opts.shard.is_none() {
        let names = output_names(opts.plots);
        let mut outputs = vec![Output::folder("-o", &opts.out_dir, &names)];
        if let Some(db) = &opts.db {
            outputs.push(Output::file("--db", db));
        }
        plan::check(&outputs).map_err(SweepError::OutputDir)?;
    }
    let mut outcome = compute(spec, opts.db.as_deref(), opts.shard, progress, cancel)?;
    if opts.shard.is_none() {
        outcome.files = publish(&outcome.points, spec.seed, opts, cancel)?;
    }
    Ok(outcome)
}

/// The runs of a sweep and its summaries, as [`run_sweep`] computes them, with no
/// file written but the database's: for a caller that takes the results as they are
/// (the Python package). `db`, as [`SweepOptions::db`].
///
/// # Errors
///
/// As [`run_sweep`], but for the output directory and the files.
pub fn summarise(
    spec: &SweepSpec,
    db: Option<&Path>,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<SweepOutcome, SweepError> {
    let outcome = compute(spec, db, None, progress, cancel)?;
    if cancel.load(Ordering::SeqCst) {
        return Err(SweepError::Interrupted {
            runs_done: 0,
            runs: 0,
            db: db.map(Path::to_path_buf),
        });
    }
    Ok(outcome)
}

/// Every run of the sweep (or of the shard's share) not in the database, stored as it
/// finishes, then the summaries of the points (none for a shard).
fn compute(
    spec: &SweepSpec,
    db: Option<&Path>,
    shard: Option<Shard>,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<SweepOutcome, SweepError> {
    let points = spec.validate()?;
    let store = db.map(Store::open).transpose()?;
    // Every run of the sweep, in point order.
    let jobs: Vec<Job<'_, RunConfig>> = points
        .iter()
        .flat_map(|p| {
            (0..spec.replications).map(move |r| {
                let seed = spec.run_seed(p, r);
                Job {
                    key: run_key(p, seed),
                    point: p,
                    replication: r,
                    cost: expected_cost(p),
                }
            })
        })
        .collect();
    let interrupted = |runs_done, runs| SweepError::Interrupted {
        runs_done,
        runs,
        db: db.map(Path::to_path_buf),
    };
    let ran = run_campaign(&jobs, store.as_ref(), shard, cancel, progress, |job| {
        let cfg = RunConfig {
            seed: job.key.seed,
            ..job.point.clone()
        };
        run_cancellable(&cfg, cancel).map(|r| {
            r.map(|result| {
                let record = RunRecord::of(&result);
                let events = record.events;
                (record, events)
            })
        })
    })
    .map_err(|e| match e {
        CampaignError::Store(e) => SweepError::Store(e),
        CampaignError::Run(e) => SweepError::Run(e),
        CampaignError::Interrupted { runs_done, runs } => interrupted(runs_done, runs),
    })?;
    let records = ran.records;
    let (wall, stored) = (ran.wall, ran.stored);
    let events = records.iter().map(|r| r.events).sum();
    let mut outcome = SweepOutcome {
        points: Vec::new(),
        records: Vec::new(),
        files: Vec::new(),
        events,
        wall,
        runs: ran.runs,
        stored,
    };
    if shard.is_some() {
        return Ok(outcome);
    }
    outcome.records = records;
    let per_point = spec.replications as usize;
    outcome.points = points
        .iter()
        .zip(outcome.records.chunks(per_point))
        .map(|(p, reps)| PointSummary::new(p, reps, spec.random_numbers))
        .collect();
    Ok(outcome)
}

/// The names of every file a sweep may write into its output directory: the charts
/// (with `plots`; those that apply depend on the points), `results.json` and
/// `results.csv`.
pub fn output_names(plots: bool) -> Vec<String> {
    let charts = sweep_charts::STEMS
        .iter()
        .filter(|_| plots)
        .flat_map(|s| sim_host::chart::file_names(s));
    charts
        .chain(["results.json".to_string(), "results.csv".to_string()])
        .collect()
}

/// Write the results as one set into the output directory, unless `cancel` is raised
/// before it is published (looked at under the publication gate of
/// [`sim_host::output::temporaries`], so that a cancel at any instant publishes all or
/// nothing); then remove this directory's sweep charts that no longer apply.
fn publish(
    points: &[PointSummary],
    seed: u64,
    opts: &SweepOptions,
    cancel: &AtomicBool,
) -> Result<Vec<PathBuf>, SweepError> {
    let set = OutputSet::begin(&opts.out_dir).map_err(SweepError::Write)?;
    // An error names the file in the output folder, not in the staging one.
    write_outputs(points, seed, set.dir(), opts.plots).map_err(|e| match e {
        SweepError::Write(e) => SweepError::Write(set.shown(e)),
        e => e,
    })?;
    let mut all = Publication::new();
    all.set(set);
    let files = all
        .commit(cancel)
        .map_err(SweepError::Write)?
        .ok_or_else(|| SweepError::Interrupted {
            runs_done: 0,
            runs: 0,
            db: opts.db.clone(),
        })?;
    if opts.plots {
        // A chart an earlier sweep drew in this directory but this one does not
        // apply would be mistaken for this sweep's: remove it.
        let drawn: Vec<&str> = sweep_charts::all(points).iter().map(|(s, _)| *s).collect();
        for stem in sweep_charts::STEMS {
            if !drawn.contains(&stem) {
                for ext in ["png", "svg"] {
                    let _ = std::fs::remove_file(opts.out_dir.join(format!("{stem}.{ext}")));
                }
            }
        }
    }
    Ok(files)
}

/// Write the charts (if `plots`), then `results.json`, then `results.csv` into `dir`,
/// each atomically.
///
/// # Errors
///
/// [`SweepError::Write`] for the first file that cannot be written or chart that
/// cannot be drawn.
pub fn write_outputs(
    points: &[PointSummary],
    seed: u64,
    dir: &Path,
    plots: bool,
) -> Result<Vec<PathBuf>, SweepError> {
    let mut files = Vec::new();
    if plots {
        for (stem, chart) in &sweep_charts::all(points) {
            files.extend(save(chart, dir, stem).map_err(SweepError::Write)?);
        }
    }
    let json = dir.join("results.json");
    write_atomic(&json, to_json(points, seed).as_bytes()).map_err(SweepError::Write)?;
    files.push(json);
    let csv = dir.join("results.csv");
    write_atomic(&csv, to_csv(points, seed).as_bytes()).map_err(SweepError::Write)?;
    files.push(csv);
    Ok(files)
}

/// A short table of the main estimates, one line per point, for the terminal: the
/// utilisation, the mean access and total delay with their 95 % half-widths, the
/// drop rate (both causes) and Jain's index. A saturated point has no total delay
/// (`-`).
pub fn table(points: &[PointSummary]) -> String {
    // Parameters swept beyond the four the table always shows get a column each.
    let shown = [
        "stations",
        "frames",
        "frame_mean_bits",
        "traffic",
        "load",
        "backoff",
    ];
    let cols: Vec<Vec<(String, Cell)>> = points
        .iter()
        .map(|p| Scenario::columns(&p.config))
        .collect();
    let varied: Vec<usize> = cols.first().map_or(Vec::new(), |first| {
        (0..first.len())
            .filter(|&i| !shown.contains(&first[i].0.as_str()) && first[i].0 != "seed")
            .filter(|&i| cols.iter().any(|c| c[i].1 != first[i].1))
            .collect()
    });
    let width = |i: usize| {
        cols.iter()
            .map(|c| c[i].1.csv().len())
            .chain([cols[0][i].0.len()])
            .max()
            .unwrap_or(0)
    };
    let extra_header: String = varied
        .iter()
        .map(|&i| format!(" {:>w$}", cols[0][i].0, w = width(i)))
        .collect();
    let mut s = format!(
        "{:>8} {:>10} {:>10} {:>8}{extra_header} {:>17} {:>17} {:>19} {:>10} {:>8}\n",
        "stations",
        "frame B",
        "load",
        "backoff",
        "utilisation",
        "access mean us",
        "total mean us",
        "dropped",
        "Jain"
    );
    for (p, c) in points.iter().zip(&cols) {
        let extra: String = varied
            .iter()
            .map(|&i| format!(" {:>w$}", c[i].1.csv(), w = width(i)))
            .collect();
        let e = |m: &str| {
            p.metric(m)
                .map(|e| (e.mean, e.half_width))
                .unwrap_or((f64::NAN, 0.0))
        };
        let (u, uh) = e("utilisation_fraction");
        let (d, dh) = e("access_delay_mean_us");
        let (t, th) = e("total_delay_mean_us");
        let (x, _) = e("drop_rate_per_frame");
        let (j, _) = e("jain_fairness_index");
        s.push_str(&format!(
            "{:>8} {:>10} {:>10} {:>8}{extra} {} {} {} {:>9.3}% {:>8.4}\n",
            p.config.stations,
            p.config.frames.label(),
            p.load().map_or("saturated".to_string(), |g| g.to_string()),
            BackoffAlgorithm::text(&p.config.backoff),
            plus_minus(u, uh, 9, 4),
            plus_minus(d, dh, 9, 1),
            plus_minus(t, th, 10, 1),
            x * 100.0,
            j
        ));
    }
    s
}

/// A mean and its 95 % half-width as `mean ±hw`, `width` and `prec` for the mean
/// (the half-width 7 wide); `-` for an undefined mean (one column narrower, as the
/// table has always printed it), and blank where the interval is undefined (one
/// replication).
fn plus_minus(mean: f64, hw: f64, width: usize, prec: usize) -> String {
    if !mean.is_finite() {
        format!("{:>width$} {:<7}", "-", "")
    } else if !hw.is_finite() {
        format!("{mean:>width$.prec$} {:<8}", "")
    } else {
        format!("{mean:>width$.prec$} ±{hw:<7.prec$}")
    }
}
