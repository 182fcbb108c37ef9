//! `storm`: a retry-storm scenario (a preset's name or a scenario file), run as
//! `mac-sim storm --scenario` runs it: once ([`retry_storm_host::run_comparison_with`]),
//! over several seeds ([`retry_storm_host::run_seeds_with`], `--seeds`) or
//! over the values of one parameter ([`retry_storm_host::run_sweep`],
//! `--sweep`; its runs kept in a results database with `db`,
//! [`retry_storm_host::run_stored_sweep`]), with its results as the command line's JSON, summary CSV and
//! time-series CSV.

use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use retry_storm::Strategy;
use retry_storm::{Axis, parse_axis};
use retry_storm::{ContentionConfig, Options, Source, StormError, run_contention_with};
use retry_storm::{Experiment, Setting};
use retry_storm_host::Store;
use retry_storm_host::run_seeds_with;
use retry_storm_host::{Campaign, SweepError, run_stored_sweep, run_sweep};
use retry_storm_host::{run_comparison_with, scenario_source};
use retry_storm_host::{run_contention_seeds_with, run_contention_sweep};
use sim_kit::json;

use crate::progress::{Counters, Reporter};
use crate::sweep::store_error;
use crate::wait::interruptible;

fn storm_error(e: StormError) -> PyErr {
    match e {
        StormError::Interrupted => PyKeyboardInterrupt::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// A stored sweep's error: an interruption says what `db` keeps.
fn stored_error(e: SweepError, db: &Path) -> PyErr {
    match e {
        SweepError::Run(e) => storm_error(e),
        SweepError::Store(e) => store_error(e),
        SweepError::Interrupted { runs_done, runs } => PyKeyboardInterrupt::new_err(format!(
            "storm sweep interrupted after {runs_done} of {runs} runs; {} keeps every finished run: call storm again with the same arguments to resume",
            db.display()
        )),
    }
}

/// What one call runs: the command line's three forms of `storm --scenario`.
enum Form {
    /// One run of every strategy.
    Once,
    /// Every strategy over `n` seeds (`--seeds`).
    Seeds(u32),
    /// Every strategy at every value of one parameter, over `seeds` seeds (`--sweep`).
    Sweep(Axis, u32),
}

/// Runs the storm scenario `scenario` (a preset's name, see `mac-sim storm --list`,
/// or the path of a scenario file of either kind) with the options of
/// `mac-sim storm` (`settings`: `--set`'s keys and values) and returns
/// a dict of texts: `json` (`--json`), `summary_csv` (`--csv`), `series_csv`
/// (`--series`; `None` with `sweep`, which has no time series).
///
/// `seeds`: every strategy with seeds `seed, seed + 1, ...` (means with 95 %
/// intervals); `sweep`: one parameter swept, `PARAM=VALUES` as `--sweep` takes it,
/// over `seeds` seeds. `progress`, if given, is called as `progress(runs_done,
/// runs_to_do)` from the calling thread while the runs go. Raises `ValueError` with
/// the command line's message for a bad option or scenario, `KeyboardInterrupt` on
/// Ctrl-C. A contention experiment takes only `seed`, `seeds`, `clients` and
/// `settings`.
#[pyfunction]
#[pyo3(signature = (scenario, seed = None, clients = None, horizon = None, strategies = None, timeouts = None, bin = None, settings = None, seeds = 1, sweep = None, progress = None, db = None, max_memory = None))]
#[allow(clippy::too_many_arguments)]
pub fn storm<'py>(
    py: Python<'py>,
    scenario: &str,
    seed: Option<u64>,
    clients: Option<u32>,
    horizon: Option<&str>,
    strategies: Option<Vec<String>>,
    timeouts: Option<Vec<String>>,
    bin: Option<&str>,
    settings: Option<Vec<(String, String)>>,
    seeds: u32,
    sweep: Option<&str>,
    progress: Option<Bound<'py, PyAny>>,
    db: Option<PathBuf>,
    max_memory: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    // The arguments that set a key of the file, named as the caller wrote them; then
    // `set`'s keys, as --set's.
    let mut list = Vec::new();
    let named = [
        ("seed", seed.map(|s| s.to_string())),
        ("horizon", horizon.map(str::to_string)),
        ("bin", bin.map(str::to_string)),
        ("timeouts", timeouts.as_ref().map(|t| t.join(","))),
    ];
    for (key, value) in named {
        if let Some(v) = value {
            let given = if key == "seed" {
                format!("{key}={v}")
            } else {
                format!("{key}={v:?}")
            };
            list.push(Setting::new(key, v.as_str()).given_as(given));
        }
    }
    for (key, value) in settings.unwrap_or_default() {
        if list.iter().any(|s| s.key == key) {
            return Err(PyValueError::new_err(format!(
                "set: {key} is also given as the argument {key}; give it once"
            )));
        }
        let given = format!("set {key}={value}");
        list.push(Setting::new(key, value).given_as(given));
    }
    let opts = Options {
        settings: list,
        clients,
        strategies: strategies
            .map(|s| {
                s.iter()
                    .map(|x| Strategy::parse(x))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()
            .map_err(storm_error)?,
    };
    let source = scenario_source(scenario).map_err(storm_error)?;
    // The command line's rule for a contention experiment, before its file is read.
    if source.is_contention()
        && (horizon.is_some() || bin.is_some() || opts.strategies.is_some() || timeouts.is_some())
    {
        return Err(PyValueError::new_err(
            "contention takes only seed, seeds, clients, set and sweep",
        ));
    }
    let sc = match source.experiment(&opts).map_err(storm_error)? {
        Experiment::Storm(sc) => sc,
        Experiment::Contention(c) => {
            return match sweep {
                Some(text) => {
                    let spec = parse_axis(text).map_err(storm_error)?;
                    run_contention_swept(py, &source, &opts, &spec, seeds)
                }
                None => run_contention(py, &c.config, seeds),
            };
        }
    };
    if db.is_some() && (sweep.is_none() || source.is_contention()) {
        return Err(PyValueError::new_err(
            "db keeps the runs of a storm scenario's sweep: give sweep= too",
        ));
    }
    let store = db
        .as_deref()
        .map(|p| py.detach(|| Store::open(p)))
        .transpose()
        .map_err(store_error)?;
    // The command line's order: --sweep (over --seeds), else --seeds, else once.
    let form = match sweep {
        Some(text) => Form::Sweep(parse_axis(text).map_err(storm_error)?, seeds),
        None if seeds != 1 => Form::Seeds(seeds),
        None => Form::Once,
    };
    let (runs, times) = match &form {
        Form::Once => (sc.runs.clone(), 1),
        Form::Seeds(n) => (sc.runs.clone(), *n),
        Form::Sweep(spec, n) => (
            retry_storm::sweep_plan(&source, &opts, spec)
                .map_err(storm_error)?
                .1,
            *n,
        ),
    };
    let on = rayon::current_num_threads();
    crate::memory::check(
        "storm",
        &retry_storm::estimate_memory_of_runs(&runs, times, on),
        on,
        max_memory,
    )?;
    let counters = Counters::default();
    let mut reporter = Reporter::new(progress);
    let texts = interruptible(
        py,
        |cancel| match &form {
            Form::Once => run_comparison_with(&sc, &counters, cancel)
                .map(|r| {
                    (
                        json::to_string(&r),
                        retry_storm::summary_csv(&r),
                        Some(retry_storm::series_csv(&r)),
                    )
                })
                .map_err(storm_error),
            Form::Seeds(n) => run_seeds_with(&sc, *n, &counters, cancel)
                .map(|r| {
                    (
                        json::to_string(&r),
                        retry_storm::replicated_csv(&r),
                        Some(retry_storm::replicated_series_csv(&r)),
                    )
                })
                .map_err(storm_error),
            Form::Sweep(spec, n) => {
                let points = match (&store, &db) {
                    (Some(store), Some(db)) => {
                        let campaign = Campaign { store, shard: None };
                        run_stored_sweep(&source, &opts, spec, *n, campaign, &counters, cancel)
                            .map_err(|e| stored_error(e, db))
                            .map(|s| s.points.map(|(_, p)| p).unwrap_or_default())
                    }
                    _ => run_sweep(&source, &opts, spec, *n, &counters, cancel)
                        .map(|(_, p)| p)
                        .map_err(storm_error),
                }?;
                Ok((
                    retry_storm::sweep_json(&sc, spec, &points),
                    retry_storm::sweep_csv(&sc, spec, &points),
                    None,
                ))
            }
        },
        |_| reporter.tick(&counters),
    )??;
    reporter.tick(&counters)?;
    let (json, summary, series) = texts;
    let out = PyDict::new(py);
    out.set_item("json", json)?;
    out.set_item("summary_csv", summary)?;
    out.set_item("series_csv", series)?;
    Ok(out)
}

/// A contention experiment swept over a key of its file
/// ([`retry_storm_host::run_contention_sweep`]): `json` and `summary_csv`
/// as `--sweep` with `--json` and `--csv`; `series_csv` is `None`.
fn run_contention_swept<'py>(
    py: Python<'py>,
    source: &Source,
    opts: &Options,
    spec: &Axis,
    seeds: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let (key, tables) = interruptible(
        py,
        |cancel| run_contention_sweep(source, opts, spec, seeds, cancel),
        |_| Ok(()),
    )?
    .map_err(storm_error)?;
    let out = PyDict::new(py);
    out.set_item("json", tables.json(&key))?;
    out.set_item("summary_csv", tables.csv(&key))?;
    out.set_item("series_csv", py.None())?;
    Ok(out)
}

/// The contention experiment (`mac-sim storm --scenario contention`): every jitter
/// kind at every client count, once or over `seeds` seeds; `series_csv` is `None`
/// (it has no time series). Interruptible as the other forms.
fn run_contention<'py>(
    py: Python<'py>,
    cfg: &ContentionConfig,
    seeds: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let (json, csv) = interruptible(
        py,
        |cancel| {
            if seeds != 1 {
                run_contention_seeds_with(cfg, seeds, cancel).map(|rows| {
                    (
                        json::to_string(&rows),
                        retry_storm::contention_seeds_csv(&rows),
                    )
                })
            } else {
                run_contention_with(cfg, cancel)
                    .map(|rows| (json::to_string(&rows), retry_storm::contention_csv(&rows)))
            }
        },
        |_| Ok(()),
    )?
    .map_err(storm_error)?;
    let out = PyDict::new(py);
    out.set_item("json", json)?;
    out.set_item("summary_csv", csv)?;
    out.set_item("series_csv", py.None())?;
    Ok(out)
}

/// Every key of a storm scenario file, as `mac-sim storm --keys` prints them (the
/// file's reference), for `storm`'s help.
#[pyfunction]
pub fn storm_keys() -> String {
    retry_storm::keys_reference()
}

/// The report card of the retry configuration at `policy` (a gRPC service config, an
/// AWS config profile or a strategy file), as `mac-sim storm --policy` runs it, at
/// `rate` requests per second on a server of `capacity` with a `timeout` (a duration
/// with a unit): a dict of texts, `json` (`--json`) and `csv` (`--csv`). Raises
/// `ValueError` with the command line's message for a file it cannot read or
/// express, or a bad load.
#[pyfunction]
#[pyo3(signature = (policy, rate = 100.0, capacity = 200.0, timeout = "1s", seed = 1))]
pub fn report_card<'py>(
    py: Python<'py>,
    policy: &str,
    rate: f64,
    capacity: f64,
    timeout: &str,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    for (name, v) in [("rate", rate), ("capacity", capacity)] {
        if !(v.is_finite() && v > 0.0 && v <= 1e6) {
            return Err(PyValueError::new_err(format!(
                "{name}={v}: must be a positive number of requests per second, at most 1e6"
            )));
        }
    }
    let timeout_ms = sim_kit::Time::parse(timeout)
        .ok()
        .map(|t| t.as_ns() / 1_000_000)
        .filter(|&ms| ms > 0)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "timeout={timeout:?}: a duration of at least 1ms with its unit, e.g. \"1s\""
            ))
        })?;
    let p = retry_storm_host::policy_file(policy).map_err(storm_error)?;
    let load = retry_storm::CardLoad {
        rate_per_s: rate,
        capacity_per_s: capacity,
        timeout_ms,
        seed,
        ..retry_storm::CardLoad::default()
    };
    let c = py
        .detach(|| retry_storm::run_card(&p, &load))
        .map_err(storm_error)?;
    let d = PyDict::new(py);
    d.set_item("json", json::to_string(&c))?;
    d.set_item("csv", retry_storm::card_csv(&c))?;
    Ok(d)
}
