//! `mac-sim storm`: argument parsing and printing only; the work is in
//! `retry_storm` (the model and its reports) and `retry_storm_host` (the parallel
//! runs, the charts and the files of `--out`).

use clap::Args;
use retry_storm::Strategy;
use retry_storm::{Comparison, ContentionScenario, Options, Source, run_contention_with};
use retry_storm::{Experiment, Setting};
use retry_storm_host::trigger_window;
use retry_storm_host::{
    Campaign, Store, SweepError, run_comparison_with, run_contention_seeds_with,
    run_contention_sweep, run_seeds_with, run_stored_sweep, run_sweep, scenario_source,
};
use sim_host::OutputError;
use sim_host::Publication;
use sim_host::{Output, plan};
use sim_kit::json;

use crate::emit;
use crate::failure::Failure;
use crate::interrupt;
use crate::memory::MemoryArgs;
use sim_host::progress;

#[derive(Args, Debug)]
#[command(after_long_help = retry_storm::keys_reference())]
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
    /// Seed; the same seed gives the same output (sets the file's `seed`; default
    /// the file's, else 1).
    #[arg(short = 's', long)]
    seed: Option<u64>,
    /// Run every strategy with this many seeds (seed, seed + 1, ...) and report means
    /// with 95 % confidence intervals.
    #[arg(long, default_value_t = 1, value_name = "N")]
    seeds: u32,
    /// Clients (closed loop) or client processes (open loop, the rate scales with
    /// them); the server's capacity scales too.
    #[arg(short = 'n', long, value_name = "N")]
    clients: Option<u32>,
    /// Simulated time, with unit (e.g. 120s); the trigger must end within it (sets
    /// `horizon`).
    #[arg(short = 'd', long, value_name = "TIME", allow_hyphen_values = true)]
    horizon: Option<String>,
    /// Set a key of the scenario file (repeat for several): KEY=VALUE with a key of
    /// --keys as TABLE.KEY, e.g. server.workers=8, load.rate=120, trigger.end=60s,
    /// recovery.sustain=2s; a repeated table's key says which, from 1
    /// (trigger.2.start), unless the file has one.
    #[arg(long, value_name = "KEY=VALUE", allow_hyphen_values = true)]
    set: Vec<String>,
    /// Replace the preset's strategies (repeat for several): parts joined by +, from
    /// none, immediate, fixed=DUR, exp, exp-full, exp-equal, exp-decorrelated,
    /// exp-proportional, exp-additive, exp-normal, base=DUR, cap=DUR, mult=RATIO,
    /// spread=RATIO, sigma=DUR, jitter-max=DUR, retries=N, budget=PCT, budget-floor=N,
    /// budget-bank=N, tokens=MAX/RATIO, quota[=N], adaptive, hedge=DUR, hedge-attempts=N,
    /// hedge-guard, retry-breaker=PCT, retry-breaker-calls=N,
    /// retry-breaker-window=DUR, breaker=PCT, breaker-calls=N, breaker-window=DUR,
    /// breaker-open=DUR, breaker-probes=N, shared, retry-after, honour-overload,
    /// deadline[=DUR]; e.g. exp-full+retries=3+budget=10. sigma=DUR is absolute
    /// normal jitter, each delay d + N(0, sigma^2), with exp or exp-normal.
    #[arg(long, value_name = "SPEC")]
    strategy: Vec<String>,
    /// Per-attempt client timeouts, one drawn per request (e.g. 100ms,200ms,300ms;
    /// sets `timeouts`).
    #[arg(
        long,
        value_name = "TIMES",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    timeouts: Vec<String>,
    /// Width of the time-series bins, with unit (e.g. 100ms; sets `bin`).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
    bin: Option<String>,
    /// Sweep one parameter, PARAM=VALUES: utilisation, rate, clients, retries,
    /// timeout (seconds) or any key of --keys as --set names it (server.workers,
    /// trigger.end); numbers as 0.5..=0.95:0.05 or 0,1,2, durations and names as
    /// 1s,2s; every strategy at every value over --seeds seeds (at least 2 for
    /// intervals).
    #[arg(long, value_name = "PARAM=VALUES")]
    sweep: Option<String>,
    /// Keep every run of the sweep in this results database (SQLite): runs it holds
    /// are read, not run again, each finished run is stored at once, and the same
    /// command resumes an interrupted sweep.
    #[arg(long, value_name = "FILE", requires = "sweep")]
    db: Option<std::path::PathBuf>,
    /// Run only shard K of N of the sweep's runs (balanced by expected cost) into
    /// --db and print no results; combine the shards with `mac-sim merge`.
    #[arg(long, value_name = "K/N", requires = "db", conflicts_with = "out")]
    shard: Option<sim_kit::Shard>,
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
    /// Also write storm-NAME.json, storm-NAME-summary.csv, storm-NAME-series.csv
    /// and the chart (storm-NAME.png, storm-NAME.svg) into this directory; with
    /// --seeds, storm-NAME-seeds.json and the like; with --sweep,
    /// storm-NAME-sweep.json, .csv, .png and .svg; for the contention experiment,
    /// storm-NAME.json, .csv, .png and .svg.
    #[arg(long, value_name = "DIR")]
    out: Option<std::path::PathBuf>,
    /// The report card: run this retry configuration (a gRPC service config, JSON
    /// with methodConfig[].retryPolicy or hedgingPolicy and retryThrottling; an AWS
    /// config profile with retry_mode and max_attempts; or a file with a strategy on
    /// its first line) through five standard incidents (an outage, a pause, a partial
    /// failure, a slow server, an overload) at --rate on a server of --capacity, each
    /// beside the same clients without retries, and judge each.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scenario", "list", "keys", "sweep", "strategy", "series", "out", "seeds", "set", "clients", "horizon", "bin"])]
    policy: Option<String>,
    /// The report card's load: new requests per second (default 100).
    #[arg(long, value_name = "PER_S")]
    rate: Option<f64>,
    /// The report card's server: the requests per second it serves at most (default
    /// 200).
    #[arg(long, value_name = "PER_S")]
    capacity: Option<f64>,
    #[command(flatten)]
    memory: MemoryArgs,
}

impl StormArgs {
    /// Refuse before any work the storm runs `runs`, each `seeds` times, that would
    /// not fit: the largest on every core at once, every finished run's results kept.
    fn check_memory(&self, runs: &[retry_storm::StormConfig]) -> Result<(), Failure> {
        let threads = rayon::current_num_threads();
        self.memory.check(
            "storm",
            &retry_storm::estimate_memory_of_runs(runs, self.seeds, threads),
            threads,
        )
    }
}

pub fn storm_cmd(a: &StormArgs) -> Result<(), Failure> {
    if a.list {
        return emit(&retry_storm::list_presets());
    }
    if a.keys {
        return emit(&retry_storm::keys_reference());
    }
    if let Some(path) = &a.policy {
        return card_cmd(a, path);
    }
    if a.rate.is_some() || a.capacity.is_some() {
        return Err(Failure::usage(
            "--rate and --capacity set the report card's load: they need --policy FILE",
        ));
    }
    let Some(name) = a.scenario.as_deref() else {
        return Err(Failure::usage(
            "storm needs --scenario NAME (see mac-sim storm --list)",
        ));
    };
    let opts = options(a)?;
    let source = scenario_source(name)?;
    if source.is_contention() {
        check_contention_flags(a)?;
    }
    let sc = match source.experiment(&opts)? {
        Experiment::Storm(sc) => sc,
        Experiment::Contention(c) => {
            return match &a.sweep {
                Some(spec) => contention_sweep_cmd(a, &source, &opts, spec, &c),
                None => contention_cmd(a, &c),
            };
        }
    };
    if let Some(spec) = &a.sweep {
        return sweep_cmd(a, &source, &opts, &sc, spec);
    }
    a.check_memory(&sc.runs)?;
    if a.seeds != 1 {
        return seeds_cmd(a, &sc);
    }
    check_out(a, &retry_storm_host::scenario_files(&sc.name))?;
    let progress = progress::for_stderr(a.quiet, "storm", "runs", "events");
    let r = run_comparison_with(&sc, progress.as_ref(), interrupt::flag())?;
    drop(progress);
    publish(a, |d| retry_storm_host::write_scenario(d, &r))?;
    print_as(
        a,
        || json::to_string(&r),
        || retry_storm::summary_csv(&r),
        || retry_storm::series_csv(&r),
        || retry_storm::comparison_report(&r),
    )
}

/// The changes the flags make to the scenario: `--set`, and the flags that set a
/// key (`--seed`, `--horizon`, `--bin`, `--timeouts`) first; `--clients`;
/// `--strategy`.
fn options(a: &StormArgs) -> Result<Options, Failure> {
    let mut settings = Vec::new();
    let flags = [
        ("seed", "--seed", a.seed.map(|s| s.to_string())),
        ("horizon", "--horizon", a.horizon.clone()),
        ("bin", "--bin", a.bin.clone()),
        (
            "timeouts",
            "--timeouts",
            (!a.timeouts.is_empty()).then(|| a.timeouts.join(",")),
        ),
    ];
    for (key, flag, value) in flags {
        if let Some(v) = value {
            settings.push(Setting::new(key, v.as_str()).given_as(format!("{flag} {v}")));
        }
    }
    for s in &a.set {
        let s = Setting::parse(s)?;
        if settings
            .iter()
            .any(|f| f.key == s.key && f.given_as.is_some())
        {
            return Err(Failure::usage(format!(
                "--set {s}: {} is also set by its own flag; give it once",
                s.key
            )));
        }
        settings.push(s);
    }
    let strategies = if a.strategy.is_empty() {
        None
    } else {
        Some(
            a.strategy
                .iter()
                .map(|s| Strategy::parse(s))
                .collect::<Result<_, _>>()?,
        )
    };
    Ok(Options {
        settings,
        clients: a.clients,
        strategies,
    })
}

/// `--scenario contention` or a contention file: its kinds (by default the jitter
/// kinds and the immediate-retry baseline) at its client counts or `--clients`, over
/// one seed or `--seeds`; `cfg` has `--seed`, `--set` and `--clients` applied.
fn contention_cmd(a: &StormArgs, c: &ContentionScenario) -> Result<(), Failure> {
    let (cfg, name) = (&c.config, c.name.as_str());
    let heading = retry_storm::contention_heading(name, &c.title, &c.expectation);
    if a.seeds != 1 {
        check_out(a, &retry_storm_host::contention_seeds_files(name))?;
        let rows = run_contention_seeds_with(cfg, a.seeds, interrupt::flag())?;
        publish(a, |d| {
            retry_storm_host::write_contention_seeds(d, name, &rows)
        })?;
        return print_as(
            a,
            || json::to_string(&rows),
            || retry_storm::contention_seeds_csv(&rows),
            || retry_storm::contention_seeds_csv(&rows),
            || retry_storm::contention_seeds_report(&heading, &rows),
        );
    }
    check_out(a, &retry_storm_host::contention_files(name))?;
    let rows = run_contention_with(cfg, interrupt::flag())?;
    publish(a, |d| retry_storm_host::write_contention(d, name, &rows))?;
    print_as(
        a,
        || json::to_string(&rows),
        || retry_storm::contention_csv(&rows),
        || retry_storm::contention_csv(&rows),
        || retry_storm::contention_report(&heading, &rows),
    )
}

/// Refuse the flags of a storm scenario for a contention experiment (before its
/// file is read, so that the message names the rule rather than a key).
fn check_contention_flags(a: &StormArgs) -> Result<(), Failure> {
    if a.horizon.is_some()
        || !a.strategy.is_empty()
        || !a.timeouts.is_empty()
        || a.bin.is_some()
        || a.db.is_some()
    {
        return Err(Failure::usage(
            "contention takes only --seed, --seeds, --clients, --set, --sweep, --json, --csv and --out",
        ));
    }
    Ok(())
}

/// `--sweep KEY=VALUES` on a contention experiment: its table at every value of a key
/// of its file (`contention.base=1ms,5ms`), over one seed or `--seeds`.
fn contention_sweep_cmd(
    a: &StormArgs,
    source: &Source,
    opts: &Options,
    text: &str,
    c: &ContentionScenario,
) -> Result<(), Failure> {
    let spec = retry_storm::parse_axis(text)?;
    let name = c.name.as_str();
    let heading = retry_storm::contention_heading(name, &c.title, &c.expectation);
    check_out(a, &retry_storm_host::contention_sweep_files(name))?;
    let (key, tables) = run_contention_sweep(source, opts, &spec, a.seeds, interrupt::flag())?;
    let (json, csv) = (tables.json(&key), tables.csv(&key));
    publish(a, |d| {
        retry_storm_host::write_contention_sweep(d, name, &json, &csv)
    })?;
    print_as(
        a,
        || json.clone(),
        || csv.clone(),
        || csv.clone(),
        || tables.report(&heading, &key),
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

fn seeds_cmd(a: &StormArgs, sc: &Comparison) -> Result<(), Failure> {
    check_out(a, &retry_storm_host::replicated_files(&sc.name))?;
    let progress = progress::for_stderr(a.quiet, "storm", "runs", "events");
    let r = run_seeds_with(sc, a.seeds, progress.as_ref(), interrupt::flag())?;
    drop(progress);
    let trigger = sc.runs.first().and_then(trigger_window);
    publish(a, |d| retry_storm_host::write_replicated(d, &r, trigger))?;
    print_as(
        a,
        || json::to_string(&r),
        || retry_storm::replicated_csv(&r),
        || retry_storm::replicated_series_csv(&r),
        || retry_storm::replicated_report(&r),
    )
}

/// `--sweep PARAM=VALUES`: every strategy at every value over `--seeds` seeds; `sc`
/// is the scenario of `source` with `opts`, as read before the sweep.
fn sweep_cmd(
    a: &StormArgs,
    source: &Source,
    opts: &Options,
    sc: &retry_storm::Comparison,
    spec: &str,
) -> Result<(), Failure> {
    if a.series {
        return Err(Failure::usage(
            "--sweep has no time series: use --csv or --json",
        ));
    }
    let spec = retry_storm::parse_axis(spec)?;
    a.check_memory(&retry_storm::sweep_plan(source, opts, &spec)?.1)?;
    let names = retry_storm_host::sweep_files(&sc.name);
    let mut outputs = Vec::new();
    if let Some(dir) = &a.out {
        outputs.push(Output::folder("--out", dir, &names));
    }
    if let Some(db) = &a.db {
        outputs.push(Output::file("--db", db));
    }
    plan::check(&outputs).map_err(Failure::usage)?;
    let progress = progress::for_stderr(a.quiet, "storm sweep", "runs", "events");
    let points = match &a.db {
        None => {
            run_sweep(
                source,
                opts,
                &spec,
                a.seeds,
                progress.as_ref(),
                interrupt::flag(),
            )?
            .1
        }
        Some(db) => {
            let store = Store::open(db)?;
            let campaign = Campaign {
                store: &store,
                shard: a.shard,
            };
            let ran = run_stored_sweep(
                source,
                opts,
                &spec,
                a.seeds,
                campaign,
                progress.as_ref(),
                interrupt::flag(),
            )
            .map_err(|e| match e {
                SweepError::Run(e) => Failure::from(e),
                SweepError::Store(e) => Failure::from(e),
                SweepError::Interrupted { runs_done, runs } => Failure::interrupted(format!(
                    "storm sweep interrupted after {runs_done} of {runs} runs; nothing was published, but {} keeps every finished run: run the same command again to resume",
                    db.display()
                )),
            })?;
            match ran.points {
                Some((_, points)) => {
                    if !a.quiet {
                        crate::note(&format!(
                            "mac-sim storm: {} runs ({} read from the database)",
                            ran.runs, ran.stored
                        ));
                    }
                    points
                }
                None => {
                    if !a.quiet {
                        crate::note(&format!(
                            "mac-sim storm: shard {}: {} runs ({} already stored); kept in {}",
                            a.shard.map(|s| s.to_string()).unwrap_or_default(),
                            ran.runs,
                            ran.stored,
                            db.display()
                        ));
                    }
                    return Ok(());
                }
            }
        }
    };
    drop(progress);
    publish(a, |d| retry_storm_host::write_sweep(d, sc, &spec, &points))?;
    print_as(
        a,
        || retry_storm::sweep_json(sc, &spec, &points),
        || retry_storm::sweep_csv(sc, &spec, &points),
        || retry_storm::sweep_csv(sc, &spec, &points),
        || retry_storm::sweep_report(sc, &spec, &points),
    )
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
        let staged = sim_host::OutputSet::begin(dir)?;
        // An error names the file in the --out folder, not in the staging one.
        write(staged.dir()).map_err(|e| staged.shown(e))?;
        all.set(staged);
    }
    all.commit(interrupt::flag())?
        .ok_or_else(|| Failure::interrupted("storm interrupted; nothing was published"))?;
    Ok(())
}

/// `--policy FILE`: the report card of a retry configuration.
fn card_cmd(a: &StormArgs, path: &str) -> Result<(), Failure> {
    use retry_storm::{CardLoad, card_csv, card_report, run_card};
    let d = CardLoad::default();
    let (rate, capacity) = (
        a.rate.unwrap_or(d.rate_per_s),
        a.capacity.unwrap_or(d.capacity_per_s),
    );
    for (flag, v) in [("--rate", rate), ("--capacity", capacity)] {
        if !(v.is_finite() && v > 0.0 && v <= 1e6) {
            return Err(Failure::usage(format!(
                "{flag} {v}: must be a positive number of requests per second, at most 1e6"
            )));
        }
    }
    let timeout_ms = match a.timeouts.as_slice() {
        [] => 1000,
        [t] => sim_kit::Time::parse(t)
            .ok()
            .map(|d| d.as_ns() / 1_000_000)
            .filter(|&ms| ms > 0)
            .ok_or_else(|| {
                Failure::usage(format!(
                    "--timeouts {t}: the report card takes one timeout of at least 1ms"
                ))
            })?,
        _ => {
            return Err(Failure::usage(
                "--timeouts: the report card takes one timeout",
            ));
        }
    };
    let p = retry_storm_host::policy_file(path)?;
    let load = CardLoad {
        rate_per_s: rate,
        capacity_per_s: capacity,
        timeout_ms,
        seed: a.seed.unwrap_or(1),
        ..CardLoad::default()
    };
    let c = run_card(&p, &load)?;
    print_as(
        a,
        || json::to_string(&c),
        || card_csv(&c),
        || card_csv(&c),
        || card_report(&c),
    )
}
