//! `mac-sim sweep` and `mac-sim run --plot`: argument parsing and printing only; the
//! work is in `csma_cd::sweep` and `csma_cd_host::charts`.

use std::path::PathBuf;

use clap::Args;
use csma_cd::sweep::shard::Shard;
use csma_cd::sweep::spec::{self, SweepSpec};
use csma_cd_host::sweep::execute::{SweepOptions, run_sweep, table};
use csma_cd_host::sweep::store;
use sim_host::runner::progress;
use sim_host::runner::threads::{ThreadsError, pool};
use sim_kit::progress::{Progress, Snapshot};

use crate::failure::Failure;
use crate::interrupt;
use crate::sim_args::SimArgs;

#[derive(Args, Debug)]
// The shared simulation options, with this command's own help texts.
#[command(
    mut_arg("duration", |a| a.help("Simulated time of each replication, with unit: s, ms, us or ns")),
    mut_arg("length_m", |a| a.help("Bus length in metres [default: 2500, or the --medium preset's]")),
    mut_arg("backoff_limit", |a| a.help("backoffLimit (0..=32)")),
    mut_arg("attempt_limit", |a| a.help("attemptLimit (1..=1024)"))
)]
pub struct SweepArgs {
    /// Station counts: a list and/or ranges, e.g. 1,2,4 or 1..=1024:x2 (doubling) or
    /// 10..=100:10.
    #[arg(short = 'n', long, default_value = "1..=256:x2", value_name = "LIST")]
    stations: String,
    /// Frame sizes in bytes (64..=1518), each a point: a list and/or ranges, MIN-MAX
    /// for a uniform mix, e.g. 64,512,1518. A weighted mix as `run` takes it,
    /// BYTES:WEIGHT,... (e.g. 64:7,594:4,1518:1), is one point; beside other sizes
    /// join its parts with + (e.g. 1518,64:7+594:4+1518:1).
    #[arg(short = 'f', long, default_value = "1518", value_name = "LIST")]
    frame_bytes: String,
    /// Offered loads (fractions of the bit rate, Poisson arrivals) and/or `saturated`,
    /// e.g. 0.1..=1.0:0.1,saturated.
    #[arg(short = 'l', long, default_value = "saturated", value_name = "LIST")]
    load: String,
    /// Backoff algorithms: beb, linear, poly[:DEGREE], fixed[:SLOTS], e.g. beb,linear.
    #[arg(short = 'b', long, default_value = "beb", value_name = "LIST")]
    backoff: String,
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
    sim: SimArgs,
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
}

impl SweepArgs {
    fn spec(&self, m: &clap::ArgMatches) -> Result<SweepSpec, Failure> {
        let base =
            crate::scenario_args::resolve(self.sim.scenario.as_deref(), self.sim.config()?, m)?;
        Ok(SweepSpec {
            base,
            stations: spec::parse_stations(&self.stations).map_err(Failure::usage)?,
            loads: spec::parse_loads(&self.load).map_err(Failure::usage)?,
            frames: spec::parse_frames(&self.frame_bytes).map_err(Failure::usage)?,
            backoffs: spec::parse_backoffs(&self.backoff).map_err(Failure::usage)?,
            replications: self.replications,
            seed: self.seed,
            random_numbers: if self.common_random_numbers {
                spec::RandomNumbers::Common
            } else {
                spec::RandomNumbers::Independent
            },
        })
    }
}

/// `mac-sim sweep`.
pub fn sweep_cmd(a: &SweepArgs, m: &clap::ArgMatches) -> Result<(), Failure> {
    let spec = a.spec(m)?;
    let cancel = interrupt::flag();
    let opts = SweepOptions {
        out_dir: a.out.clone(),
        plots: !a.no_plots,
        db: a.db.clone(),
        shard: a.shard,
    };
    let bar = progress::for_stderr(a.quiet, "sweep", "events");
    let progress = Announce {
        inner: bar.as_ref(),
        quiet: a.quiet,
    };
    let go = || run_sweep(&spec, &opts, &progress, cancel);
    let out = match a.threads {
        None => go(),
        Some(n) => pool(n)
            .map_err(|e| match e {
                ThreadsError::Start(_) => Failure::environment(e),
                _ => Failure::usage(e),
            })?
            .install(go),
    }?;
    if let Some(shard) = a.shard {
        if !a.quiet {
            eprintln!(
                "mac-sim: shard {shard}: {} runs ({} already stored), {:.1} M events in {:.1} s; kept in {}",
                out.runs,
                out.stored,
                out.events as f64 / 1e6,
                out.wall.as_secs_f64(),
                a.db.as_deref()
                    .unwrap_or(std::path::Path::new(""))
                    .display()
            );
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
        eprintln!(
            "mac-sim: {} points x {} replications{from_db}: {:.1} M events in {:.1} s; wrote {} files to {}",
            out.points.len(),
            spec.replications,
            out.events as f64 / 1e6,
            out.wall.as_secs_f64(),
            out.files.len(),
            a.out.display()
        );
    }
    Ok(())
}

/// `mac-sim merge`: shard databases into one.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The merged database to write (must not exist).
    #[arg(short = 'o', long, value_name = "FILE")]
    out: PathBuf,
    /// The shard databases written by `sweep --db FILE --shard K/N`.
    #[arg(required = true, value_name = "SHARD")]
    shards: Vec<PathBuf>,
    /// No summary line.
    #[arg(short = 'q', long)]
    quiet: bool,
}

/// `mac-sim merge`.
pub fn merge_cmd(a: &MergeArgs) -> Result<(), Failure> {
    let m = store::merge(&a.out, &a.shards)?;
    if !a.quiet {
        eprintln!(
            "mac-sim: merged {} of {} shards: {} runs in {}",
            m.shards,
            m.of,
            m.runs,
            a.out.display()
        );
    }
    Ok(())
}

/// The progress of a sweep, announced by one line when its runs start (after every
/// check), so that a log shows it too; the bar itself shows only on a terminal.
struct Announce<'a> {
    inner: &'a dyn Progress,
    quiet: bool,
}

impl Progress for Announce<'_> {
    fn begin(&self, points: usize, jobs: usize) {
        if !self.quiet {
            eprintln!("mac-sim: sweep: {jobs} runs to do");
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
