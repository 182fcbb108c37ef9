//! `mac-sim storm`: argument parsing and printing only; the work is in
//! `retry_storm` (the model and its reports) and `retry_storm_host` (the parallel
//! runs, the charts and the files of `--out`).

use clap::Args;
use retry_storm::file::Experiment;
use retry_storm::report as out;
use retry_storm::{contention, presets, strategy::Strategy};
use retry_storm_host::chart::trigger_window;
use retry_storm_host::{
    contention::run_contention_seeds_with, files, replicate, run_scenario_with, scenario_file,
    sweep::run_sweep,
};
use sim_host::output::atomic::OutputError;
use sim_host::output::plan::{self, Output};
use sim_host::output::publish::Publication;
use sim_host::output::set;
use sim_kit::output::json;
use sim_kit::time::Time;

use crate::emit;
use crate::failure::Failure;
use crate::interrupt;
use sim_host::runner::progress;

#[derive(Args, Debug)]
#[command(after_long_help = retry_storm::file::keys::reference())]
pub struct StormArgs {
    /// The scenario: a preset's name (see --list), `contention`, or the path of a
    /// scenario file (TOML, a storm scenario or a contention experiment; see the
    /// presets in mac-sim/retry-storm/scenarios/).
    #[arg(long, value_name = "NAME|PATH")]
    scenario: Option<String>,
    /// List the scenarios and what each is expected to show.
    #[arg(long)]
    list: bool,
    /// Print every key of a scenario file: its values, default and meaning (also at
    /// the end of --help).
    #[arg(long, conflicts_with = "list")]
    keys: bool,
    /// Seed; the same seed gives the same output.
    #[arg(short = 's', long, default_value_t = 1)]
    seed: u64,
    /// Run every strategy with this many seeds (seed, seed + 1, ...) and report means
    /// with 95 % confidence intervals.
    #[arg(long, default_value_t = 1, value_name = "N")]
    seeds: u32,
    /// Clients (closed loop) or client processes (open loop, the rate scales with
    /// them); the server's capacity scales too.
    #[arg(short = 'n', long, value_name = "N")]
    clients: Option<u32>,
    /// Simulated time, with unit (e.g. 120s); the trigger must end within it.
    #[arg(short = 'd', long, value_name = "TIME", allow_hyphen_values = true)]
    horizon: Option<String>,
    /// Replace the preset's strategies (repeat for several): parts joined by +, from
    /// none, immediate, fixed=DUR, exp, exp-full, exp-equal, exp-decorrelated,
    /// exp-proportional, exp-additive, exp-normal, base=DUR, cap=DUR, mult=RATIO,
    /// spread=RATIO, jitter-max=DUR, retries=N, budget=PCT, budget-floor=N,
    /// budget-bank=N, tokens=MAX/RATIO, quota[=N], retry-breaker=PCT, retry-breaker-calls=N,
    /// retry-breaker-window=DUR, breaker=PCT, breaker-calls=N, breaker-window=DUR,
    /// breaker-open=DUR, breaker-probes=N, shared, retry-after, honour-overload,
    /// deadline[=DUR]; e.g. exp-full+retries=3+budget=10.
    #[arg(long, value_name = "SPEC")]
    strategy: Vec<String>,
    /// Per-attempt client timeouts, one drawn per request (e.g. 100ms,200ms,300ms).
    #[arg(
        long,
        value_name = "TIMES",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    timeouts: Vec<String>,
    /// Width of the time-series bins, with unit (e.g. 100ms).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
    bin: Option<String>,
    /// Sweep one parameter, PARAM=VALUES: utilisation, rate, clients, retries or
    /// timeout (seconds), the values as 0.5..=0.95:0.05 or 0,1,2; every strategy at
    /// every value over --seeds seeds (at least 2 for intervals).
    #[arg(long, value_name = "PARAM=VALUES")]
    sweep: Option<String>,
    /// Print JSON (summaries and time series) instead of the report.
    #[arg(long, conflicts_with_all = ["csv", "series"])]
    json: bool,
    /// Print the summary as CSV.
    #[arg(long, conflicts_with = "series")]
    csv: bool,
    /// Print the time series as CSV.
    #[arg(long)]
    series: bool,
    /// No progress bar (it is shown only when standard error is a terminal).
    #[arg(short = 'q', long)]
    quiet: bool,
    /// Also write NAME.json, NAME-summary.csv, NAME-series.csv and the chart
    /// (NAME.png, NAME.svg) into this directory.
    #[arg(long, value_name = "DIR")]
    out: Option<std::path::PathBuf>,
}

pub fn storm_cmd(a: &StormArgs) -> Result<(), Failure> {
    if a.list {
        return emit(&out::list());
    }
    if a.keys {
        return emit(&retry_storm::file::keys::reference());
    }
    let Some(name) = a.scenario.as_deref() else {
        return Err(Failure::usage(
            "storm needs --scenario NAME (see mac-sim storm --list)",
        ));
    };
    let mut opts = presets::Options {
        seed: Some(a.seed),
        clients: a.clients,
        ..Default::default()
    };
    if let Some(h) = &a.horizon {
        opts.horizon_ps = Some(duration(h)?);
    }
    if let Some(b) = &a.bin {
        opts.bin_ps = Some(duration(b)?);
    }
    if !a.timeouts.is_empty() {
        opts.timeouts_ps = Some(
            a.timeouts
                .iter()
                .map(|t| duration(t))
                .collect::<Result<_, _>>()?,
        );
    }
    if !a.strategy.is_empty() {
        opts.strategies = Some(
            a.strategy
                .iter()
                .map(|s| Strategy::parse(s))
                .collect::<Result<_, _>>()?,
        );
    }
    let sc = match scenario_file::load_experiment(name, &opts)? {
        Experiment::Storm(sc) => sc,
        Experiment::Contention(c) => return contention_cmd(a, &c.config),
    };
    if let Some(spec) = &a.sweep {
        return sweep_cmd(a, &sc, spec);
    }
    if a.seeds != 1 {
        return seeds_cmd(a, &sc);
    }
    check_out(a, &files::scenario_files(&sc.name))?;
    let progress = progress::for_stderr(a.quiet, "storm", "runs", "events");
    let r = run_scenario_with(&sc, progress.as_ref(), interrupt::flag())?;
    drop(progress);
    publish(a, |d| files::write_scenario(d, &r))?;
    print_as(
        a,
        || json::to_string(&r),
        || out::summary_csv(&r),
        || out::series_csv(&r),
        || out::report(&r),
    )
}

/// `--scenario contention` or a contention file: its kinds (by default the jitter
/// kinds and the immediate-retry baseline) at its client counts or `--clients`, over
/// one seed or `--seeds`; `cfg` has `--seed` and `--clients` applied.
fn contention_cmd(a: &StormArgs, cfg: &contention::ContentionConfig) -> Result<(), Failure> {
    if a.horizon.is_some()
        || !a.strategy.is_empty()
        || !a.timeouts.is_empty()
        || a.bin.is_some()
        || a.sweep.is_some()
    {
        return Err(Failure::usage(
            "contention takes only --seed, --seeds, --clients, --json, --csv and --out",
        ));
    }
    if a.seeds != 1 {
        check_out(a, &files::contention_seeds_files())?;
        let rows = run_contention_seeds_with(cfg, a.seeds, interrupt::flag())?;
        publish(a, |d| files::write_contention_seeds(d, &rows))?;
        return print_as(
            a,
            || json::to_string(&rows),
            || out::contention_seeds_csv(&rows),
            || out::contention_seeds_csv(&rows),
            || out::contention_seeds_report(&rows),
        );
    }
    check_out(a, &files::contention_files())?;
    let rows = contention::run_contention_with(cfg, interrupt::flag())?;
    publish(a, |d| files::write_contention(d, &rows))?;
    print_as(
        a,
        || json::to_string(&rows),
        || out::contention_csv(&rows),
        || out::contention_csv(&rows),
        || out::contention_report(&rows),
    )
}

/// Print what the flags ask for: JSON, the summary CSV, the series CSV or the report.
fn print_as(
    a: &StormArgs,
    json: impl FnOnce() -> String,
    csv: impl FnOnce() -> String,
    series: impl FnOnce() -> String,
    report: impl FnOnce() -> String,
) -> Result<(), Failure> {
    emit(&if a.json {
        json()
    } else if a.csv {
        csv()
    } else if a.series {
        series()
    } else {
        report()
    })
}

fn seeds_cmd(a: &StormArgs, sc: &presets::Scenario) -> Result<(), Failure> {
    check_out(a, &files::replicated_files(&sc.name))?;
    let progress = progress::for_stderr(a.quiet, "storm", "runs", "events");
    let r = replicate::run_seeds_with(sc, a.seeds, progress.as_ref(), interrupt::flag())?;
    drop(progress);
    let trigger = sc.runs.first().and_then(trigger_window);
    publish(a, |d| files::write_replicated(d, &r, trigger))?;
    print_as(
        a,
        || json::to_string(&r),
        || out::replicated_csv(&r),
        || out::replicated_series_csv(&r),
        || out::replicated_report(&r),
    )
}

/// `--sweep PARAM=VALUES`: every strategy at every value over `--seeds` seeds.
fn sweep_cmd(a: &StormArgs, sc: &retry_storm::Scenario, spec: &str) -> Result<(), Failure> {
    if a.series {
        return Err(Failure::usage(
            "--sweep has no time series: use --csv or --json",
        ));
    }
    let spec = retry_storm::sweep::SweepSpec::parse(spec)?;
    check_out(a, &files::sweep_files(&sc.name))?;
    let progress = progress::for_stderr(a.quiet, "storm sweep", "runs", "events");
    let points = run_sweep(sc, &spec, a.seeds, progress.as_ref(), interrupt::flag())?;
    drop(progress);
    publish(a, |d| files::write_sweep(d, sc, &spec, &points))?;
    print_as(
        a,
        || out::sweep_json(sc, &spec, &points),
        || out::sweep_csv(sc, &spec, &points),
        || out::sweep_csv(sc, &spec, &points),
        || out::sweep_report(sc, &spec, &points),
    )
}

/// A duration option with its unit.
fn duration(text: &str) -> Result<Time, Failure> {
    Time::parse(text).map_err(|e| Failure::usage(format!("duration {e}")))
}

/// Check `--out`, if given, before the runs: a usable folder with no folder where one
/// of `names` (the files this storm writes) goes; exit 2 otherwise.
fn check_out(a: &StormArgs, names: &[String]) -> Result<(), Failure> {
    match &a.out {
        Some(dir) => plan::check(&[Output::folder("--out", dir, names)]).map_err(Failure::usage),
        None => Ok(()),
    }
}

/// Publish the storm's outputs: with `--out`, its files, written by `write` into a
/// staging folder, as one set; in any case through the one gate, so that a signal
/// after the runs publishes nothing and prints nothing.
fn publish(
    a: &StormArgs,
    write: impl FnOnce(&std::path::Path) -> Result<(), OutputError>,
) -> Result<(), Failure> {
    let mut all = Publication::new();
    if let Some(dir) = &a.out {
        let staged = set::OutputSet::begin(dir)?;
        // An error names the file in the --out folder, not in the staging one.
        write(staged.dir()).map_err(|e| staged.shown(e))?;
        all.set(staged);
    }
    all.commit(interrupt::flag())?
        .ok_or_else(|| Failure::interrupted("storm interrupted; nothing was published"))?;
    Ok(())
}
