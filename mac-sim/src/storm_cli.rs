//! `mac-sim storm`: argument parsing and printing only; the work is in
//! `mac_sim::model::storm`, `mac_sim::output::storm` and `mac_sim::plot::storm`.

use std::process::ExitCode;

use clap::Args;
use mac_sim::model::storm::{contention, presets, replicate, run_scenario, strategy::Strategy};
use mac_sim::output::storm as out;
use mac_sim::plot::storm::trigger_window;
use mac_sim::{output, parse};

use crate::{emit, fail};

#[derive(Args, Debug)]
pub struct StormArgs {
    /// The scenario preset (see --list), or `contention`.
    #[arg(long, value_name = "NAME")]
    scenario: Option<String>,
    /// List the scenarios and what each is expected to show.
    #[arg(long)]
    list: bool,
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
    /// exp-proportional, exp-additive, exp-normal, base=DUR, cap=DUR, retries=N,
    /// budget=PCT, tokens=MAX/RATIO, retry-breaker=PCT, breaker=PCT, deadline[=DUR];
    /// e.g. exp-full+retries=3+budget=10.
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
    /// Print JSON (summaries and time series) instead of the report.
    #[arg(long, conflicts_with_all = ["csv", "series"])]
    json: bool,
    /// Print the summary as CSV.
    #[arg(long, conflicts_with = "series")]
    csv: bool,
    /// Print the time series as CSV.
    #[arg(long)]
    series: bool,
    /// Also write NAME.json, NAME-summary.csv, NAME-series.csv and the chart
    /// (NAME.png, NAME.svg) into this directory.
    #[arg(long, value_name = "DIR")]
    out: Option<std::path::PathBuf>,
}

pub fn storm_cmd(a: &StormArgs) -> ExitCode {
    if a.list {
        return emit(&out::list());
    }
    let Some(name) = a.scenario.as_deref() else {
        return fail("storm needs --scenario NAME (see mac-sim storm --list)");
    };
    if let Some(dir) = &a.out {
        if let Err(e) = output::atomic::prepare_dir(dir) {
            return fail(e);
        }
    }
    if name == contention::NAME {
        if a.clients.is_some()
            || a.horizon.is_some()
            || !a.strategy.is_empty()
            || !a.timeouts.is_empty()
            || a.seeds != 1
            || a.bin.is_some()
        {
            return fail("contention takes only --seed, --json, --csv and --out");
        }
        let cfg = contention::ContentionConfig {
            seed: a.seed,
            ..Default::default()
        };
        let rows = match contention::run_contention(&cfg) {
            Ok(r) => r,
            Err(e) => return fail(e),
        };
        if let Some(dir) = &a.out {
            if let Err(e) = out::write_contention(dir, &rows) {
                return fail(e);
            }
        }
        return if a.json {
            emit(&output::json::to_string(&rows))
        } else if a.csv || a.series {
            emit(&out::contention_csv(&rows))
        } else {
            emit(&out::contention_report(&rows))
        };
    }
    let mut opts = presets::Options {
        seed: Some(a.seed),
        clients: a.clients,
        ..Default::default()
    };
    if let Some(h) = &a.horizon {
        match parse::duration_ps(h) {
            Ok(ps) => opts.horizon_ps = Some(ps),
            Err(e) => return fail(e),
        }
    }
    if let Some(b) = &a.bin {
        match parse::duration_ps(b) {
            Ok(ps) => opts.bin_ps = Some(ps),
            Err(e) => return fail(e),
        }
    }
    if !a.timeouts.is_empty() {
        match a.timeouts.iter().map(|t| parse::duration_ps(t)).collect() {
            Ok(v) => opts.timeouts_ps = Some(v),
            Err(e) => return fail(e),
        }
    }
    if !a.strategy.is_empty() {
        match a.strategy.iter().map(|s| Strategy::parse(s)).collect() {
            Ok(v) => opts.strategies = Some(v),
            Err(e) => return fail(e),
        }
    }
    let sc = match presets::scenario(name, &opts) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if a.seeds != 1 {
        return seeds_cmd(a, &sc);
    }
    let r = match run_scenario(&sc) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if let Some(dir) = &a.out {
        if let Err(e) = out::write_scenario(dir, &r) {
            return fail(e);
        }
    }
    print_as(
        a,
        || output::json::to_string(&r),
        || out::summary_csv(&r),
        || out::series_csv(&r),
        || out::report(&r),
    )
}

/// Print what the flags ask for: JSON, the summary CSV, the series CSV or the report.
fn print_as(
    a: &StormArgs,
    json: impl FnOnce() -> String,
    csv: impl FnOnce() -> String,
    series: impl FnOnce() -> String,
    report: impl FnOnce() -> String,
) -> ExitCode {
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

fn seeds_cmd(a: &StormArgs, sc: &presets::Scenario) -> ExitCode {
    let r = match replicate::run_seeds(sc, a.seeds) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if let Some(dir) = &a.out {
        let trigger = sc.runs.first().and_then(trigger_window);
        if let Err(e) = out::write_replicated(dir, &r, trigger) {
            return fail(e);
        }
    }
    print_as(
        a,
        || output::json::to_string(&r),
        || out::replicated_csv(&r),
        || out::replicated_series_csv(&r),
        || out::replicated_report(&r),
    )
}
