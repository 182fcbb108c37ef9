//! `mac-sim bench`: the options of the bench and its orchestration, one child process
//! per measurement so that each one's peak memory is its own; the measurements are
//! `csma_cd_host::bench`'s.

use std::io::Read;
use std::process::Stdio;
use std::time::Duration;

use clap::Args;
use csma_cd::ConfigError;
use csma_cd_host::{BenchRow, bench_one, bench_report, bench_steady};
use sim_host::temporaries;
use sim_host::{Steps, progress};
use sim_kit::json;

use crate::emit;
use crate::failure::Failure;
use crate::interrupt;

#[derive(Args, Debug)]
pub struct BenchArgs {
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

/// Measure N (its from-t=0 rows, or with `steady` its steady-state row) in a child
/// process; `None` if that cannot be done (the caller then measures in this process)
/// or a signal came (the child is then killed: it has nothing to clean up).
fn bench_child(a: &BenchArgs, n: u32, steady: bool) -> Option<Vec<BenchRow>> {
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
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    // The rows are read on a thread, so that this one can watch the cancel flag.
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).map(|_| bytes)
    });
    let status = loop {
        if interrupt::raised() {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    let bytes = reader.join().ok()?.ok()?;
    if !status.success() {
        return None;
    }
    serde_json::from_slice(&bytes).ok()
}

/// Measure N in this process: its from-t=0 rows (saturated and Poisson), or with
/// `steady` its steady-state row.
fn bench_here(a: &BenchArgs, n: u32, steady: bool) -> Result<Vec<BenchRow>, ConfigError> {
    let budget = a.budget_ms as f64 / 1000.0;
    if steady {
        return Ok(vec![bench_steady(n, a.warmup_ms, budget, a.seed)?]);
    }
    [None, Some(a.load)]
        .into_iter()
        .map(|load| bench_one(n, load, budget, a.seed))
        .collect()
}

/// `mac-sim bench`: the options checked, every measurement made (each in a child
/// process unless `--in-process`), the rows printed as a table or JSON.
pub fn bench_cmd(a: &BenchArgs) -> Result<(), Failure> {
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
    let progress = progress::for_stderr(
        a.quiet || a.in_process,
        "bench",
        "measurements",
        "measurements",
    );
    let steps = Steps::begin(progress.as_ref(), jobs.len());
    for (i, (n, steady)) in jobs.into_iter().enumerate() {
        // One process per measurement, so that each one's peak memory is its own.
        let measured = if a.in_process {
            None
        } else {
            bench_child(a, n, steady)
        };
        // A child stopped by the same signal is not a reason to measure here.
        if interrupt::raised() {
            return Err(Failure::interrupted(
                "bench interrupted; nothing was printed",
            ));
        }
        let mut measured = match measured {
            Some(rows) => rows,
            None => {
                // A measurement here does not look at the flag: a signal stops it at
                // once (there is nothing to clean up).
                interrupt::set_stop(interrupt::Stop::AtOnce);
                if interrupt::raised() {
                    return Err(Failure::interrupted(
                        "bench interrupted; nothing was printed",
                    ));
                }
                let rows = bench_here(a, n, steady)?;
                interrupt::set_stop(interrupt::Stop::Cooperative);
                rows
            }
        };
        rows.append(&mut measured);
        steps.done(i + 1, i as u64 + 1);
    }
    drop(steps);
    // The gate, so that a signal after the last measurement prints nothing.
    if temporaries::gate(cancel, || ()).is_none() {
        return Err(Failure::interrupted(
            "bench interrupted; nothing was printed",
        ));
    }
    rows.sort_by_key(|r| (r.mode == "steady", r.traffic != "saturated", r.stations));
    if a.json {
        emit(&json::to_string(&rows))
    } else {
        emit(&bench_report(&rows))
    }
}
