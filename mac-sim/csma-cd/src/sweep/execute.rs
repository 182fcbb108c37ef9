//! A whole CSMA/CD sweep: check everything, run every replication of every point on
//! all cores, summarise, and write `results.csv`, `results.json` and the charts to the
//! output directory — each file atomically, and none at all if the sweep is
//! interrupted or fails.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use csma_cd::sweep::{execute::{run_sweep, SweepOptions}, spec::*};
//! use sim_kit::runner::progress::Quiet;
//! use sim_kit::time::Time;
//! let dir = std::env::temp_dir().join(format!("mac-sim-sweep-doc-{}", std::process::id()));
//! let mut spec = SweepSpec { stations: vec![1, 4], replications: 2, ..SweepSpec::default() };
//! spec.base.duration_ps = Time::from_ms(2);
//! let out = run_sweep(&spec, &SweepOptions { out_dir: dir.clone(), plots: false },
//!                     &Quiet, &AtomicBool::new(false)).unwrap();
//! assert_eq!(out.points.len(), 2);
//! assert!(dir.join("results.csv").is_file() && dir.join("results.json").is_file());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::config::RunConfig;
use crate::error::ConfigError;
use crate::sweep::charts as sweep_charts;
use crate::sweep::job::run_cancellable;
use crate::sweep::spec::{SpecError, SweepSpec};
use crate::sweep::summary::{PointSummary, to_csv, to_json};
use sim_kit::chart::save::save;
use sim_kit::output::atomic::{OutputError, prepare_dir, write_atomic};
use sim_kit::runner::grid::{Done, RunError, replication_seed, run_grid};
use sim_kit::runner::progress::Progress;

/// Where and what to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepOptions {
    /// The output directory (created if missing).
    pub out_dir: PathBuf,
    /// Whether to draw the charts.
    pub plots: bool,
}

/// What a finished sweep produced.
#[derive(Clone, Debug)]
pub struct SweepOutcome {
    /// One summary per point, in point order.
    pub points: Vec<PointSummary>,
    /// Files written.
    pub files: Vec<PathBuf>,
    /// Events simulated over all runs.
    pub events: u64,
    /// Wall time of the simulations.
    pub wall: Duration,
}

/// Why a sweep wrote no results.
#[derive(Debug)]
pub enum SweepError {
    /// A bad parameter (nothing was run).
    Spec(SpecError),
    /// The output directory is unusable (nothing was run).
    OutputDir(OutputError),
    /// Ctrl-C (or the cancel flag): nothing was written.
    Interrupted {
        /// Points finished.
        points_done: usize,
        /// Points in the sweep.
        points: usize,
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
            Self::Interrupted {
                points_done,
                points,
            } => write!(
                f,
                "sweep interrupted after {points_done} of {points} points; no results were written"
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

/// A job that did not produce a result.
enum JobError {
    Config(ConfigError),
    Cancelled,
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Config(e) => write!(f, "{e}"),
            Self::Cancelled => write!(f, "cancelled"),
        }
    }
}

/// Run the sweep (see the module docs).
///
/// # Errors
///
/// [`SweepError::Spec`] or [`SweepError::OutputDir`] before anything runs;
/// [`SweepError::Interrupted`] if `cancel` is raised; [`SweepError::Write`] if a file
/// cannot be written. No results file is written in any of these cases.
pub fn run_sweep(
    spec: &SweepSpec,
    opts: &SweepOptions,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<SweepOutcome, SweepError> {
    let points = spec.validate()?;
    prepare_dir(&opts.out_dir).map_err(SweepError::OutputDir)?;
    let start = Instant::now();
    let grid = run_grid(
        &points,
        spec.replications,
        cancel,
        progress,
        |cfg: &RunConfig, job| {
            let cfg = RunConfig {
                seed: replication_seed(spec.seed, job.replication),
                ..cfg.clone()
            };
            match run_cancellable(&cfg, cancel) {
                Ok(Some(r)) => Ok(Done {
                    work: r.events,
                    value: r,
                }),
                Ok(None) => Err(JobError::Cancelled),
                Err(e) => Err(JobError::Config(e)),
            }
        },
    )
    .map_err(|e| match e {
        RunError::Interrupted {
            points_done,
            points,
        } => SweepError::Interrupted {
            points_done,
            points,
        },
        RunError::Job {
            error: JobError::Config(e),
            ..
        } => SweepError::Run(e),
        // A job stops only once the flag is raised.
        RunError::Job {
            error: JobError::Cancelled,
            ..
        } => SweepError::Interrupted {
            points_done: 0,
            points: points.len(),
        },
        // Refused by the spec's checks before any run; kept for completeness.
        RunError::Empty => SweepError::Spec(SpecError::NoReplications),
    })?;
    let wall = start.elapsed();
    let summaries: Vec<PointSummary> = points
        .iter()
        .zip(&grid)
        .map(|(p, reps)| PointSummary::new(p, reps))
        .collect();
    let events = summaries.iter().map(|p| p.events).sum();
    write_outputs(&summaries, spec.seed, opts).map(|files| SweepOutcome {
        points: summaries,
        files,
        events,
        wall,
    })
}

/// Write the charts (removing this directory's sweep charts that no longer apply), then
/// `results.json`, then `results.csv`, each atomically.
///
/// # Errors
///
/// [`OutputError`] for the first file that cannot be written or chart that cannot be
/// drawn.
pub fn write_outputs(
    points: &[PointSummary],
    seed: u64,
    opts: &SweepOptions,
) -> Result<Vec<PathBuf>, SweepError> {
    let dir = &opts.out_dir;
    let mut files = Vec::new();
    if opts.plots {
        let charts = sweep_charts::all(points);
        for (stem, chart) in &charts {
            files.extend(save(chart, dir, stem).map_err(SweepError::Write)?);
        }
        // A chart an earlier sweep drew in this directory but this one does not apply
        // would be mistaken for this sweep's: remove it.
        for stem in sweep_charts::STEMS {
            if !charts.iter().any(|(s, _)| *s == stem) {
                for ext in ["png", "svg"] {
                    let _ = std::fs::remove_file(dir.join(format!("{stem}.{ext}")));
                }
            }
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

/// A short table of the main estimates, one line per point, for the terminal.
pub fn table(points: &[PointSummary]) -> String {
    let mut s = format!(
        "{:>8} {:>10} {:>10} {:>8} {:>17} {:>17} {:>11}\n",
        "stations", "frame B", "load", "backoff", "utilisation", "access mean us", "Jain index"
    );
    for p in points {
        let e = |m: &str| {
            p.metric(m)
                .map(|e| (e.mean, e.half_width))
                .unwrap_or((f64::NAN, 0.0))
        };
        let (u, uh) = e("utilisation_fraction");
        let (d, dh) = e("access_delay_mean_us");
        let (j, _) = e("jain_fairness_index");
        s.push_str(&format!(
            "{:>8} {:>10} {:>10} {:>8} {:>9.4} ±{:<7.4} {:>9.1} ±{:<7.1} {:>11.4}\n",
            p.config.stations,
            p.config.frames.label(),
            p.load().map_or("saturated".to_string(), |g| g.to_string()),
            crate::sweep::spec::backoff_name(&p.config.backoff),
            u,
            uh,
            d,
            dh,
            j
        ));
    }
    s
}
