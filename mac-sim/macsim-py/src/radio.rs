//! `radio`: the radio MAC model (`radio-sim`), one run or a sweep of its keys, as
//! `mac-sim radio` runs it: every keyword argument is a key of the model's table
//! ([`radio_sim::FIELDS`]) set from its text form, a scenario file lies
//! under them, a sweep's points run on every core
//! ([`run_sweep`](radio_sim_host::run_sweep)), and the results are the command line's JSON and
//! CSV, byte for byte.

use std::path::PathBuf;

use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use radio_sim::RadioConfig;
use radio_sim::{Axis, Point, Scenario, ScenarioFile, points};
use radio_sim_host::Store;
use radio_sim_host::{Campaign, SweepError};

use crate::convert::text_of;
use crate::progress::{Counters, Reporter};
use crate::scenario::value_error;
use crate::sweep::store_error;
use crate::wait::interruptible;

/// The list of values of a sweep axis: a string as it is (`"2..=10:2"`), or the text
/// forms of a list's items joined by commas.
fn list_text(key: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    if v.cast::<PyString>().is_ok() {
        return text_of(key, v);
    }
    let Ok(items) = v.cast::<PyList>() else {
        return Err(PyValueError::new_err(format!(
            "{key}: a sweep axis is a list of values or a string such as \"2..=10:2\", not {}",
            v.get_type().name()?
        )));
    };
    let texts = items
        .iter()
        .map(|i| text_of(key, &i))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(texts.join(","))
}

/// Runs the radio model and returns a dict of texts: `json` (`mac-sim radio --json`)
/// and `csv` (`--csv`: one row per run, the parameters' columns with their units,
/// then the figures).
///
/// `params`: keys of `mac-sim radio --keys` with one value each (a number, a string
/// or a boolean); `sweep`: keys with a list of values or a range string each, their
/// cartesian product (the first key varies slowest), as `--sweep KEY=LIST`;
/// `scenario`: a scenario file under both. A key that has no effect on any run (the
/// load of saturated traffic, say) is refused, as on the command line. `progress`, if
/// given, is called as `progress(points_done, points)` while a sweep runs; `db`, a
/// results database that keeps a sweep's runs, as `--db` (a second call resumes).
/// Raises `ValueError` with the command line's message (and for a database that
/// cannot serve), `KeyboardInterrupt` on Ctrl-C; `max_memory`, as `--max-memory`:
/// `MemoryError` before any run when the work would not fit.
#[pyfunction]
#[pyo3(signature = (params = None, sweep = None, scenario = None, progress = None, db = None, max_memory = None))]
pub fn radio<'py>(
    py: Python<'py>,
    params: Option<&Bound<'py, PyDict>>,
    sweep: Option<&Bound<'py, PyDict>>,
    scenario: Option<PathBuf>,
    progress: Option<Bound<'py, PyAny>>,
    db: Option<PathBuf>,
    max_memory: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let file = match &scenario {
        None => ScenarioFile::default(),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                PyValueError::new_err(format!("scenario: cannot read '{}': {e}", path.display()))
            })?;
            radio_sim::read_scenario(&text, &path.display().to_string()).map_err(value_error)?
        }
    };
    let mut top = Scenario::default();
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let key: String = k.extract()?;
            top.set(&key, &text_of(&key, &v)?).map_err(value_error)?;
        }
    }
    let mut axes = Vec::new();
    if let Some(sweep) = sweep {
        for (k, v) in sweep.iter() {
            let key: String = k.extract()?;
            axes.push(Axis::parse(&key, &list_text(&key, &v)?).map_err(value_error)?);
        }
    }
    let config = file.config(&top);
    let mut given: Vec<&str> = file.scenario.keys();
    given.extend(top.keys());
    given.extend(axes.iter().map(|a| a.key.as_str()));
    let swept = !axes.is_empty();
    let pts: Vec<Point> = if swept {
        points(&config, &axes).map_err(value_error)?
    } else {
        vec![Point {
            values: Vec::new(),
            config,
        }]
    };
    let configs: Vec<&RadioConfig> = pts.iter().map(|p| &p.config).collect();
    radio_sim::check_effect(&configs, given).map_err(value_error)?;
    if db.is_some() && !swept {
        return Err(PyValueError::new_err(
            "db keeps a sweep's runs: give sweep={...} too",
        ));
    }
    let store = db
        .as_deref()
        .map(|p| py.detach(|| Store::open(p)))
        .transpose()
        .map_err(store_error)?;
    let campaign = Campaign {
        store: store.as_ref(),
        shard: None,
    };
    // As the command line checks them: one run on its thread, a sweep on every core.
    if swept {
        let on = rayon::current_num_threads();
        crate::memory::check(
            "sweep",
            &radio_sim::estimate_memory_of_points(&pts, on),
            on,
            max_memory,
        )?;
    } else {
        crate::memory::check(
            "run",
            &radio_sim::estimate_memory(&pts[0].config),
            1,
            max_memory,
        )?;
    }
    let counters = Counters::default();
    let mut reporter = Reporter::new(progress);
    let results = interruptible(
        py,
        |cancel| radio_sim_host::run_sweep(&pts, campaign, cancel, &counters),
        |_| reporter.tick(&counters),
    )?
    .map_err(|e| match e {
        SweepError::Interrupted { runs_done, runs } => {
            PyKeyboardInterrupt::new_err(match &db {
                Some(db) => format!(
                    "radio interrupted after {runs_done} of {runs} runs; {} keeps every finished run: call radio again with the same arguments to resume",
                    db.display()
                ),
                None => "radio interrupted".to_string(),
            })
        }
        SweepError::Store(e) => store_error(e),
        e => PyValueError::new_err(e.to_string()),
    })?
    .points;
    reporter.tick(&counters)?;
    let out = PyDict::new(py);
    if swept {
        let keys: Vec<String> = axes.iter().map(|a| a.key.clone()).collect();
        out.set_item(
            "json",
            format!("{}\n", radio_sim::sweep_json(&keys, &results)),
        )?;
        out.set_item("csv", radio_sim::sweep_csv(&results))?;
    } else {
        let r = &results
            .first()
            .ok_or_else(|| PyValueError::new_err("radio: no result"))?
            .result;
        out.set_item("json", format!("{}\n", radio_sim::run_json(r)))?;
        out.set_item("csv", radio_sim::run_csv(r))?;
    }
    Ok(out)
}

/// Every key of the radio model, as `mac-sim radio --keys` prints them (the
/// schema's reference), for `radio`'s help.
#[pyfunction]
pub fn radio_keys() -> String {
    radio_sim::reference()
}
