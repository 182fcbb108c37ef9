//! `mac-sim sweep` and `mac-sim merge`: argument parsing and printing only; the work
//! is in `csma_cd::sweep` and `csma_cd_host::sweep` (the runs, the results database,
//! the charts).

use std::path::PathBuf;

use clap::Args;
use csma_cd::Shard;
use csma_cd::{RandomNumbers, SweepSpec, sweep_from_lists, sweep_memory};
use csma_cd_host::{SweepOptions, output_names, run_sweep, store, sweep_table as table};
use sim_host::progress;
use sim_host::temporaries;
use sim_host::{ThreadsError, pool};
use sim_kit::{Progress, Snapshot};

use crate::failure::Failure;
use crate::interrupt;
use crate::memory::MemoryArgs;
use crate::scenario_flags::SweepFlags;

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// Sweep any parameter: KEY=LIST, the key as in a scenario file (e.g.
    /// slot_bits=512,4096 or velocity=2e8,1e8); repeatable. The same as the
    /// parameter's own flag with a list (--slot-bits 512,4096).
    #[arg(long = "sweep", value_name = "KEY=LIST")]
    sweep: Vec<String>,
    /// Replications per point, each with its own seed derived from --seed.
    #[arg(short = 'r', long, default_value_t = 5, value_name = "R")]
    replications: u32,
    /// Sweep seed: every run's seed is derived from it, the point's parameters and
    /// the replication, so points have independent random streams.
    #[arg(short = 's', long, default_value_t = 1)]
    seed: u64,
    /// Common random numbers: replication r of every point uses the same seed
    /// (derived from --seed and r alone), for paired comparisons between points
    /// (less noisy differences); the points are then correlated, do not pool them.
    #[arg(long)]
    common_random_numbers: bool,
    #[command(flatten)]
    params: SweepFlags,
    /// Output directory for results.csv, results.json and the charts. They appear
    /// all together when the sweep has finished (existing files of the same names
    /// are replaced), or not at all.
    #[arg(short = 'o', long, default_value = "sweep-results", value_name = "DIR")]
    out: PathBuf,
    /// Results database (SQLite, created if missing): runs it holds are not run
    /// again, every finished run is stored at once, so an interrupted sweep resumes
    /// and a grown one computes only the new runs.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Run only shard K of N (balanced by expected cost) into --db and write no
    /// results; combine the shards with `mac-sim merge`.
    #[arg(long, value_name = "K/N", requires = "db")]
    shard: Option<Shard>,
    /// Skip the charts.
    #[arg(long)]
    no_plots: bool,
    /// Worker threads (default: one per core; at most 4 per core).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
    /// No progress output.
    #[arg(short = 'q', long)]
    quiet: bool,
    #[command(flatten)]
    memory: MemoryArgs,
}

impl SweepArgs {
    fn spec(&self) -> Result<SweepSpec, Failure> {
        let file = crate::scenario_flags::file_scenario(self.params.scenario.as_deref())?;
        // Every list given, by flag or by --sweep, under its schema key.
        let mut lists: Vec<(String, String)> = self
            .params
            .given
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        for item in &self.sweep {
            let (k, v) = item.split_once('=').ok_or_else(|| {
                Failure::usage(format!(
                    "--sweep '{item}': give KEY=LIST, e.g. --sweep slot_bits=512,4096"
                ))
            })?;
            lists.push((k.trim().replace('-', "_"), v.to_string()));
        }
        let random_numbers = if self.common_random_numbers {
            RandomNumbers::Common
        } else {
            RandomNumbers::Independent
        };
        let given: Vec<String> = lists.iter().map(|(k, _)| k.clone()).collect();
        let spec = sweep_from_lists(file, lists, self.replications, self.seed, random_numbers)?;
        // A flag or an axis that no point reads is refused, not ignored.
        csma_cd::check_effect(&spec.points()?, given.iter().map(String::as_str))
            .map_err(Failure::usage)?;
        Ok(spec)
    }
}

/// `mac-sim sweep`.
pub fn sweep_cmd(a: &SweepArgs) -> Result<(), Failure> {
    let spec = a.spec()?;
    let cancel = interrupt::flag();
    let opts = SweepOptions {
        out_dir: a.out.clone(),
        plots: !a.no_plots,
        db: a.db.clone(),
        shard: a.shard,
    };
    let bar = progress::for_stderr(a.quiet, "sweep", "runs", "events");
    let progress = Announce {
        inner: bar.as_ref(),
        quiet: a.quiet,
        replacing: if a.shard.is_none() {
            earlier_results(&a.out, !a.no_plots)
        } else {
            Vec::new()
        },
        out: &a.out,
    };
    let out = on_threads(a.threads, || {
        let threads = rayon::current_num_threads();
        a.memory.check(
            "sweep",
            &sweep_memory(&spec, &spec.validate()?, threads),
            threads,
        )?;
        Ok(run_sweep(&spec, &opts, &progress, cancel))
    })??;
    if let Some(shard) = a.shard {
        if !a.quiet {
            crate::note(&format!(
                "mac-sim: shard {shard}: {} runs ({} already stored), {:.1} M events in {:.1} s; kept in {}",
                out.runs,
                out.stored,
                out.events as f64 / 1e6,
                out.wall.as_secs_f64(),
                a.db.as_deref()
                    .unwrap_or(std::path::Path::new(""))
                    .display()
            ));
        }
        return Ok(());
    }
    crate::emit(&table(&out.points))?;
    if !a.quiet {
        let from_db = if a.db.is_some() {
            format!(" ({} read from the database)", out.stored)
        } else {
            String::new()
        };
        crate::note(&format!(
            "mac-sim: {} points x {} replications{from_db}: {:.1} M events in {:.1} s; wrote {} files to {}",
            out.points.len(),
            spec.replications,
            out.events as f64 / 1e6,
            out.wall.as_secs_f64(),
            out.files.len(),
            a.out.display()
        ));
    }
    Ok(())
}

// `mac-sim merge`: shard databases into one. (A plain comment: a doc comment here
// would replace the subcommand's description from `Cmd::Merge` when it is built.)
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The merged database to write (must not exist).
    #[arg(short = 'o', long, value_name = "FILE")]
    out: PathBuf,
    /// The shard databases written by `sweep --db FILE --shard K/N` (or by `radio` or
    /// `storm --sweep ... --db FILE --shard K/N`: every shard of one model).
    #[arg(required = true, value_name = "SHARD")]
    shards: Vec<PathBuf>,
    /// No summary line.
    #[arg(short = 'q', long)]
    quiet: bool,
}

/// `mac-sim merge`. The merged file's folder is checked before any shard is read;
/// the file appears when the merge has finished, unless a signal came first (the
/// first one stops the merge at once: see [`crate::interrupt`]).
pub fn merge_cmd(a: &MergeArgs) -> Result<(), Failure> {
    if a.out.exists() {
        return Err(store::StoreError::Exists(a.out.clone()).into());
    }
    // The merged file is the store's to write, under its own temporary name; until it
    // is published here, it is a temporary of this process too.
    temporaries::track(&a.out);
    // The first shard says whose runs these are; each model's store checks that every
    // shard holds its model's runs.
    let model = a.shards.first().and_then(|p| sim_host::model_of(p));
    let merged = match model.as_deref() {
        Some(radio_sim_host::MODEL_VERSION) => radio_sim_host::merge(&a.out, &a.shards),
        Some(retry_storm_host::MODEL_VERSION) => retry_storm_host::merge(&a.out, &a.shards),
        _ => store::merge(&a.out, &a.shards),
    };
    let m = merged.inspect_err(|_| temporaries::forget(&a.out))?;
    if temporaries::gate(interrupt::flag(), || temporaries::forget(&a.out)).is_none() {
        temporaries::forget(&a.out);
        let _ = std::fs::remove_file(&a.out);
        return Err(Failure::interrupted(
            "merge interrupted; nothing was written",
        ));
    }
    if !a.quiet {
        crate::note(&format!(
            "mac-sim: merged {} of {} shards: {} runs in {}",
            m.shards,
            m.of,
            m.runs,
            a.out.display()
        ));
    }
    Ok(())
}

/// The files of an earlier sweep in `out` that this one replaces or removes when it
/// publishes its own (every file a sweep may write there).
fn earlier_results(out: &std::path::Path, plots: bool) -> Vec<String> {
    output_names(plots)
        .into_iter()
        .filter(|name| out.join(name).is_file())
        .collect()
}

/// The progress of a sweep, announced by one line when its runs start (after every
/// check), so that a log shows it too, with a second line if it will replace an
/// earlier sweep's results; the bar itself shows only on a terminal.
struct Announce<'a> {
    inner: &'a dyn Progress,
    quiet: bool,
    /// The earlier results in `out` this sweep replaces when it finishes.
    replacing: Vec<String>,
    out: &'a std::path::Path,
}

impl Progress for Announce<'_> {
    fn begin(&self, points: usize, jobs: usize) {
        if !self.quiet {
            crate::note(&format!("mac-sim: sweep: {jobs} runs to do"));
            if !self.replacing.is_empty() {
                let files = match self.replacing.len() {
                    1 => format!("file {}", self.replacing[0]),
                    n => format!("{n} files ({})", self.replacing.join(", ")),
                };
                crate::note(&format!(
                    "mac-sim: sweep: {} holds an earlier sweep's {files}: this sweep replaces \
                     them when it finishes (stop it before then to keep them, or give -o another folder)",
                    self.out.display()
                ));
            }
        }
        self.inner.begin(points, jobs);
    }
    fn update(&self, s: &Snapshot) {
        self.inner.update(s);
    }
    fn end(&self) {
        self.inner.end();
    }
}

/// `go` on a pool of `threads` worker threads (`--threads`), or on the default pool
/// (one per core) without.
///
/// # Errors
///
/// A usage failure for a thread count out of range, an environment failure when the
/// threads cannot start, and `go`'s own.
pub fn on_threads<T: Send>(
    threads: Option<usize>,
    go: impl FnOnce() -> Result<T, Failure> + Send,
) -> Result<T, Failure> {
    match threads {
        None => go(),
        Some(n) => pool(n)
            .map_err(|e| match e {
                ThreadsError::Start(_) => Failure::environment(e),
                _ => Failure::usage(e),
            })?
            .install(go),
    }
}
