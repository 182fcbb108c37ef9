//! `mac-sim`: the command line of the project's simulators. It parses arguments,
//! calls the libraries and prints; all the work is in [`csma_cd`] (the CSMA/CD bus),
//! [`retry_storm`] (retry storms) and [`radio_sim`] (the radio MAC at scale), all
//! built on [`sim_kit`].
//!
//! One path for errors: every command returns `Result<(), Failure>`, and `main`
//! prints the failure as one line and exits with its status ([`failure`]).
//!
//! This file holds the command line's shape (`Cli`, `Cmd`), `try_main`, `main` and
//! the output helpers; each subcommand's options and function are in its own file:
//! `run.rs` (also the default command), `slotted.rs`, `theory.rs`, `bench.rs`,
//! `storm.rs`, `radio.rs`, `sweep.rs` (with `merge`).

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use sim_kit::json;

mod bench;
mod failure;
mod interrupt;
mod memory;
mod radio;
mod radio_check;
mod run;
mod scenario_flags;
mod slotted;
mod storm;
mod sweep;
mod theory;

use failure::Failure;

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
    run: run::RunArgs,
}

// `defer`: a subcommand's arguments (and their help texts, and the storm and radio
// key references) are built only when that subcommand is used, which keeps them out
// of every other command's start-up.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
enum Cmd {
    /// Run the exact CSMA/CD model (the default).
    Run(run::RunArgs),
    /// Run the idealised Metcalfe & Boggs slotted model.
    Slotted(slotted::SlottedArgs),
    /// Print the analytic tables: Metcalfe & Boggs efficiency and E(c).
    Theory(theory::TheoryArgs),
    /// Measure speed and memory for N = 2 .. 1 000 000 stations against a slot-by-slot loop.
    Bench(bench::BenchArgs),
    /// Retry storms: many clients, one server, an outage; every client decision from
    /// backoff-core (--list shows the scenarios).
    Storm(storm::StormArgs),
    /// The firmware's CSMA/CA radio MAC at scale on a host channel model: topologies,
    /// collisions, capture, hidden terminals, saturated or Poisson traffic (--keys
    /// lists every key).
    Radio(Box<radio::RadioArgs>),
    /// Sweep stations, offered load, frame size and backoff algorithm with replications
    /// on all cores; write results.csv, results.json and charts with 95% intervals.
    Sweep(sweep::SweepArgs),
    /// Merge the databases of a sweep run in shards (`sweep --db F --shard K/N`) into
    /// one; `sweep --db MERGED` with the same options then writes the results.
    Merge(sweep::MergeArgs),
}

/// Write `text` to standard output. A closed pipe (`| head`) is not an error.
fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::environment(match stdout_path() {
            Some(p) => format!("cannot write standard output ('{}'): {e}", p.display()),
            None => format!("cannot write standard output: {e}"),
        })),
    }
}

/// The file standard output was redirected to (`> results.json`), as Linux's `/proc`
/// says; `None` for a pipe or a socket, or without `/proc`.
fn stdout_path() -> Option<std::path::PathBuf> {
    let p = std::fs::read_link("/proc/self/fd/1").ok()?;
    p.is_absolute().then_some(p)
}

/// Write `text` as a line on standard error. A closed or failing standard error (a
/// terminal hung up: SIGHUP) is not an error.
fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
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
    // The commands that write or run long receive the signals before they make
    // anything; `merge` cannot look at the flag while it merges.
    match &cli.cmd {
        None
        | Some(Cmd::Run(_) | Cmd::Sweep(_) | Cmd::Storm(_) | Cmd::Radio(_) | Cmd::Bench(_)) => {
            interrupt::install(interrupt::Stop::Cooperative);
        }
        Some(Cmd::Merge(_)) => interrupt::install(interrupt::Stop::AtOnce),
        Some(Cmd::Slotted(_) | Cmd::Theory(_)) => {}
    }
    match &cli.cmd {
        None => run::run_cmd(&cli.run),
        Some(Cmd::Run(a)) => run::run_cmd(a),
        Some(Cmd::Slotted(a)) => slotted::slotted_cmd(a),
        Some(Cmd::Theory(a)) => theory::theory_cmd(a),
        Some(Cmd::Bench(a)) => bench::bench_cmd(a),
        Some(Cmd::Storm(a)) => storm::storm_cmd(a),
        Some(Cmd::Radio(a)) => radio::radio_cmd(a),
        Some(Cmd::Sweep(a)) => sweep::sweep_cmd(a),
        Some(Cmd::Merge(a)) => sweep::merge_cmd(a),
    }
}

fn main() -> ExitCode {
    match try_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // The first signal's note, if the signals' thread has not written it yet:
            // the last line is always the error's.
            interrupt::note_first_signal();
            // Also after SIGHUP, when standard error may be gone.
            note(&format!("mac-sim: error: {e}"));
            ExitCode::from(e.status())
        }
    }
}
