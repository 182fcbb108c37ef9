//! `mac-sim`: the command line of the project's simulators. It parses arguments,
//! calls the libraries and prints; all the work is in [`csma_cd`] (the CSMA/CD bus)
//! and [`retry_storm`] (retry storms), both built on [`sim_kit`].
//!
//! One path for errors: every command returns `Result<(), Failure>`, and `main`
//! prints the failure as one line and exits with its status ([`failure`]).

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use csma_cd::config::RunConfig;
use csma_cd::{ConfigError, report, slotted};
use csma_cd_host::bench;
use sim_host::runner::progress::{self, Steps};
use sim_kit::output::json;

mod failure;
mod interrupt;
mod run;
mod scenario_flags;
mod storm;
mod sweep;

use failure::Failure;
use scenario_flags::RunFlags;

/// CSMA/CD shared-medium simulator: N stations contending for one IEEE 802.3
/// half-duplex bus with binary exponential backoff, validated against Metcalfe & Boggs.
///
/// With no subcommand it runs the exact model (default: 32 saturated stations, 1518-byte
/// frames, 10 Mb/s, 2500 m bus, 10 simulated seconds) and prints a report.
#[derive(Parser, Debug)]
#[command(
    name = "mac-sim",
    version,
    args_conflicts_with_subcommands = true,
    after_help = failure::EXIT_STATUS_HELP
)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Run the exact CSMA/CD model (the default).
    Run(RunArgs),
    /// Run the idealised Metcalfe & Boggs slotted model.
    Slotted(SlottedArgs),
    /// Print the analytic tables: Metcalfe & Boggs efficiency and E(c).
    Theory(TheoryArgs),
    /// Measure speed and memory for N = 2 .. 1 000 000 stations against a slot-by-slot loop.
    Bench(BenchArgs),
    /// Retry storms: many clients, one server, an outage; every client decision from
    /// backoff-core (--list shows the scenarios).
    Storm(storm::StormArgs),
    /// Sweep stations, offered load, frame size and backoff algorithm with replications
    /// on all cores; write results.csv, results.json and charts with 95% intervals.
    Sweep(sweep::SweepArgs),
    /// Merge the databases of a sweep run in shards (`sweep --db F --shard K/N`) into
    /// one; `sweep --db MERGED` with the same options then writes the results.
    Merge(sweep::MergeArgs),
}

#[derive(Args, Debug, Clone)]
struct RunArgs {
    #[command(flatten)]
    params: RunFlags,
    /// Print JSON instead of the report.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV (header + one row) instead of the report.
    #[arg(long)]
    csv: bool,
    /// No progress bar (it is shown only when standard error is a terminal).
    #[arg(short = 'q', long)]
    quiet: bool,
    /// Also draw the run's charts (attempts histogram, per-station throughput, backoff
    /// versus E(c), capture timeline) as PNG and SVG into this directory.
    #[arg(long, value_name = "DIR")]
    plot: Option<std::path::PathBuf>,
    /// Write every step of every station (transmit, defer, collision, jam end,
    /// success, drop) to this file: CSV (.csv) or JSON lines (.jsonl).
    #[arg(long, value_name = "FILE")]
    trace: Option<std::path::PathBuf>,
    /// Also report each station (numbered 0..N-1 along the bus): throughput,
    /// delivered, dropped, collided attempts, access delay mean and p99. Adds a table to
    /// the report, a "stations" array to --json, one CSV line per station to --csv.
    #[arg(long)]
    per_station: bool,
    /// Write what a monitor on the bus would capture (delivered frames, collision
    /// fragments) to this file: pcapng (.pcapng) or pcap with nanosecond timestamps
    /// (.pcap), for Wireshark or tshark.
    #[arg(long, value_name = "FILE")]
    pcap: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
struct SlottedArgs {
    /// Q, saturated stations.
    #[arg(short = 'n', long, default_value_t = 32, value_name = "Q")]
    stations: u32,
    /// Frame size in bytes (64..=1518): P = 8 x bytes bit times.
    #[arg(short = 'f', long, default_value_t = 1518, value_name = "BYTES")]
    frame_bytes: u32,
    /// Contention slot C, bit times.
    #[arg(long, default_value_t = 512, value_name = "BITS")]
    slot_bits: u32,
    /// Stop after this many delivered frames.
    #[arg(long, default_value_t = 1_000_000)]
    successes: u64,
    /// Per-slot transmission probability (default 1/Q).
    #[arg(long)]
    probability: Option<f64>,
    /// Seed.
    #[arg(short = 's', long, default_value_t = 1)]
    seed: u64,
    /// Print JSON instead of the report.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV (header + one row) instead of the report.
    #[arg(long)]
    csv: bool,
}

#[derive(Args, Debug)]
struct TheoryArgs {
    /// Contention slot C, bit times.
    #[arg(long, default_value_t = 512, value_name = "BITS")]
    slot_bits: u32,
    /// backoffLimit for the E(c) table (0..=32).
    #[arg(long, default_value_t = 10, value_name = "K")]
    backoff_limit: u32,
    /// attemptLimit for the E(c) table (1..=1024).
    #[arg(long, default_value_t = 16, value_name = "N")]
    attempt_limit: u32,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Station counts to measure, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "2,32,1000,100000,1000000"
    )]
    stations: Vec<u32>,
    /// Wall-clock budget per measurement, milliseconds.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    budget_ms: u64,
    /// Offered load of the Poisson rows, fraction of the bit rate.
    #[arg(
        long,
        default_value_t = 0.5,
        value_name = "G",
        allow_negative_numbers = true
    )]
    load: f64,
    /// Seed.
    #[arg(short = 's', long, default_value_t = 1)]
    seed: u64,
    /// Station counts, each also in --stations, that also get a saturated
    /// steady-state row, measured after --warmup-ms of simulated time, comma-separated
    /// [default: 100000 when it is among --stations].
    #[arg(long, value_delimiter = ',')]
    steady_stations: Option<Vec<u32>>,
    /// Simulated warm-up before the steady-state rows, milliseconds.
    #[arg(long, default_value_t = 500, value_name = "MS")]
    warmup_ms: u64,
    /// Leave out the steady-state rows.
    #[arg(long)]
    no_steady: bool,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
    /// No progress bar (it is shown only when standard error is a terminal).
    #[arg(short = 'q', long)]
    quiet: bool,
    /// Measure only the steady-state rows of --stations (used for the child processes).
    #[arg(long, hide = true)]
    steady_only: bool,
    /// Measure every N in this process (by default each N runs in its own process so
    /// that its peak memory is its own).
    #[arg(long, hide = true)]
    in_process: bool,
}

/// Write `text` to standard output. A closed pipe (`| head`) is not an error.
fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::environment(format!("writing output: {e}"))),
    }
}

/// Print one result as JSON (`json`), as CSV, header and one row (`csv`), or as its
/// text report.
fn emit_result<R: serde::Serialize>(
    r: &R,
    json: bool,
    csv: bool,
    csv_header: &str,
    csv_row: fn(&R) -> String,
    report: fn(&R) -> String,
) -> Result<(), Failure> {
    if json {
        emit(&json::to_string(r))
    } else if csv {
        emit(&format!("{csv_header}\n{}\n", csv_row(r)))
    } else {
        emit(&report(r))
    }
}

fn run(args: &RunArgs) -> Result<(), Failure> {
    let cfg = args.params.config()?;
    let (r, stations) = run::run_observed(
        &cfg,
        args.plot.as_deref(),
        args.trace.as_deref(),
        args.per_station,
        args.pcap.as_deref(),
        args.quiet,
    )?;
    if args.json {
        return emit(&json::to_string(&run::with_scenario(
            &r,
            &cfg,
            stations.as_deref(),
        )));
    }
    if let Some(rows) = &stations {
        return emit(&if args.csv {
            report::csv::per_station_rows(&r, rows)
        } else {
            report::text::run_report(&r) + &report::text::per_station_table(rows)
        });
    }
    emit(&if args.csv {
        report::csv::run_csv(&r)
    } else {
        report::text::run_report(&r)
    })
}

fn slotted_cmd(a: &SlottedArgs) -> Result<(), Failure> {
    if !(64..=1518).contains(&a.frame_bytes) {
        return Err(ConfigError::FrameSize(a.frame_bytes).into());
    }
    if a.slot_bits == 0 {
        return Err(Failure::usage("slot must be at least 1 bit time"));
    }
    if a.successes == 0 || a.successes > 1_000_000_000 {
        return Err(Failure::usage("successes must be between 1 and 1000000000"));
    }
    let mut cfg = slotted::SlottedConfig::new(
        a.stations,
        u64::from(a.frame_bytes) * 8,
        u64::from(a.slot_bits),
        a.successes,
        a.seed,
    );
    cfg.probability = a.probability;
    let r = slotted::run_slotted(&cfg)?;
    emit_result(
        &r,
        a.json,
        a.csv,
        report::csv::SLOTTED_HEADER,
        report::csv::slotted_row,
        report::text::slotted_report,
    )
}

fn theory_cmd(a: &TheoryArgs) -> Result<(), Failure> {
    if a.slot_bits == 0 {
        return Err(Failure::usage("slot must be at least 1 bit time"));
    }
    let cfg = RunConfig {
        backoff_limit: a.backoff_limit,
        attempt_limit: a.attempt_limit,
        ..RunConfig::default()
    };
    let beb = cfg.beb()?;
    emit(&report::text::theory_report(a.slot_bits, &beb))
}

/// Measure N (its from-t=0 rows, or with `steady` its steady-state row) in a child
/// process; `None` if that cannot be done (the caller then measures in this process).
fn bench_child(a: &BenchArgs, n: u32, steady: bool) -> Option<Vec<bench::BenchRow>> {
    let exe = std::env::current_exe().ok()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args([
        "bench",
        "--in-process",
        "--json",
        "--stations",
        &n.to_string(),
        "--budget-ms",
        &a.budget_ms.to_string(),
        "--load",
        &a.load.to_string(),
        "--seed",
        &a.seed.to_string(),
        "--warmup-ms",
        &a.warmup_ms.to_string(),
    ]);
    cmd.arg(if steady {
        "--steady-only"
    } else {
        "--no-steady"
    });
    let out = cmd.output().ok()?;
    if !out.status.success() {
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

/// Measure N in this process: its from-t=0 rows (saturated and Poisson), or with
/// `steady` its steady-state row.
fn bench_here(a: &BenchArgs, n: u32, steady: bool) -> Result<Vec<bench::BenchRow>, ConfigError> {
    let budget = a.budget_ms as f64 / 1000.0;
    if steady {
        return Ok(vec![bench::bench_steady(n, a.warmup_ms, budget, a.seed)?]);
    }
    [None, Some(a.load)]
        .into_iter()
        .map(|load| bench::bench_one(n, load, budget, a.seed))
        .collect()
}

fn bench_cmd(a: &BenchArgs) -> Result<(), Failure> {
    if a.stations.is_empty() || a.stations.contains(&0) {
        return Err(ConfigError::NoStations.into());
    }
    let steady_stations = a.steady_stations.clone().unwrap_or_else(|| vec![100_000]);
    if steady_stations.contains(&0) {
        return Err(ConfigError::NoStations.into());
    }
    if let Some(n) = a
        .steady_stations
        .iter()
        .flatten()
        .find(|n| !a.no_steady && !a.steady_only && !a.stations.contains(n))
    {
        return Err(Failure::usage(format!(
            "--steady-stations {n} is not among --stations: a steady-state row is measured for station counts that are also measured from t = 0"
        )));
    }
    if a.budget_ms == 0 || a.budget_ms > 600_000 {
        return Err(Failure::usage("budget must be between 1 and 600000 ms"));
    }
    if a.warmup_ms == 0 || a.warmup_ms > 100_000 {
        return Err(Failure::usage("warm-up must be between 1 and 100000 ms"));
    }
    if !(a.load.is_finite() && a.load > 0.0) {
        return Err(ConfigError::Load(a.load.to_string()).into());
    }
    // (N, steady): the from-t=0 rows of every N, then the steady-state rows.
    let jobs: Vec<(u32, bool)> = if a.steady_only {
        a.stations.iter().map(|&n| (n, true)).collect()
    } else {
        let steady = a
            .stations
            .iter()
            .filter(|n| !a.no_steady && steady_stations.contains(n))
            .map(|&n| (n, true));
        a.stations
            .iter()
            .map(|&n| (n, false))
            .chain(steady)
            .collect()
    };
    let mut rows = Vec::new();
    let cancel = interrupt::flag();
    let progress = progress::for_stderr(a.quiet || a.in_process, "bench", "measurements");
    let steps = Steps::begin(progress.as_ref(), jobs.len());
    for (i, (n, steady)) in jobs.into_iter().enumerate() {
        // One process per measurement, so that each one's peak memory is its own.
        let measured = if a.in_process {
            None
        } else {
            bench_child(a, n, steady)
        };
        // A child stopped by the same Ctrl-C is not a reason to measure here.
        if interrupt::raised() {
            return Err(Failure::interrupted(
                "bench interrupted; nothing was printed",
            ));
        }
        rows.append(&mut measured.map_or_else(|| bench_here(a, n, steady), Ok)?);
        steps.done(i + 1, i as u64 + 1);
    }
    drop(steps);
    if cancel.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(Failure::interrupted(
            "bench interrupted; nothing was printed",
        ));
    }
    rows.sort_by_key(|r| (r.mode == "steady", r.traffic != "saturated", r.stations));
    if a.json {
        emit(&json::to_string(&rows))
    } else {
        emit(&bench::report(&rows))
    }
}

/// Parse the command line and run the command.
fn try_main() -> Result<(), Failure> {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind::*;
            return match e.kind() {
                DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand => {
                    emit(&e.render().to_string())
                }
                _ => {
                    // clap's first paragraph, on one line (a missing argument is
                    // named on the line after "not provided:").
                    let text = e.render().to_string();
                    let first: Vec<&str> = text
                        .lines()
                        .skip_while(|l| l.trim().is_empty())
                        .take_while(|l| !l.trim().is_empty())
                        .map(str::trim)
                        .collect();
                    let line = first.join(" ");
                    let line = line.trim_start_matches("error: ");
                    let line = if line.is_empty() {
                        "invalid arguments"
                    } else {
                        line
                    };
                    Err(Failure::usage(format!("{line} (see mac-sim --help)")))
                }
            };
        }
    };
    match &cli.cmd {
        None => run(&cli.run),
        Some(Cmd::Run(a)) => run(a),
        Some(Cmd::Slotted(a)) => slotted_cmd(a),
        Some(Cmd::Theory(a)) => theory_cmd(a),
        Some(Cmd::Bench(a)) => bench_cmd(a),
        Some(Cmd::Storm(a)) => storm::storm_cmd(a),
        Some(Cmd::Sweep(a)) => sweep::sweep_cmd(a),
        Some(Cmd::Merge(a)) => sweep::merge_cmd(a),
    }
}

fn main() -> ExitCode {
    match try_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mac-sim: error: {e}");
            ExitCode::from(e.status())
        }
    }
}
