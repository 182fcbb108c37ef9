//! `sweep`: many runs on every core, as `mac-sim sweep` runs them
//! ([`csma_cd_host::sweep::summarise`]), with the same points, seeds and
//! results database, and its results as the columns of the sweep's `results.csv`.

use std::path::PathBuf;

use csma_cd::Row;
use csma_cd::SWEEP_METRICS as METRICS;
use csma_cd::{RandomNumbers, point_row as row, run_row, sweep_from_lists, sweep_memory};
use csma_cd_host::{StoreError, SweepError, store, summarise};
use pyo3::exceptions::{
    PyFileNotFoundError, PyKeyboardInterrupt, PyOSError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFrozenSet, PySet};
use sim_host::pool;

use crate::convert::{columns, text_of};
use crate::progress::{Counters, Reporter};
use crate::scenario::{PyScenario, value_error};
use crate::wait::interruptible_with;

/// The axes of keyword arguments: a list (any iterable but a string) is an axis, its
/// values' text forms joined by commas as `--sweep KEY=LIST` takes them; one value is
/// set on `base`; `None` is ignored.
fn axes_of(
    base: &mut csma_cd::Scenario,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, String)>> {
    let mut axes = Vec::new();
    for (k, v) in params.into_iter().flatten() {
        let key: String = k.extract()?;
        if v.is_none() {
            continue;
        }
        // A mapping or a set has no order of values (and a dict's iteration gives its
        // keys): refused rather than read as something else.
        if v.is_instance_of::<PyDict>()
            || v.is_instance_of::<PySet>()
            || v.is_instance_of::<PyFrozenSet>()
            || v.is_instance_of::<PyBytes>()
        {
            return Err(PyTypeError::new_err(format!(
                "{key}: expected one value or a list (tuple, range) of values, not {}",
                v.get_type().name()?
            )));
        }
        let listed = !v.is_instance_of::<pyo3::types::PyString>() && v.hasattr("__iter__")?;
        if listed {
            let texts = v
                .try_iter()?
                .map(|x| text_of(&key, &x?))
                .collect::<PyResult<Vec<String>>>()?;
            axes.push((key, texts.join(",")));
        } else {
            base.set(&key, &text_of(&key, &v)?).map_err(value_error)?;
        }
    }
    Ok(axes)
}

/// What an interrupted sweep kept, in a notebook's words.
fn interrupted(runs_done: usize, runs: usize, db: Option<&std::path::Path>) -> String {
    match db {
        Some(db) => format!(
            "sweep interrupted after {runs_done} of {runs} runs; {} keeps every finished \
             run: call sweep again with the same arguments to resume",
            db.display()
        ),
        None => format!(
            "sweep interrupted after {runs_done} of {runs} runs; nothing was kept (with \
             db=FILE every finished run is kept and a second call resumes)"
        ),
    }
}

/// Runs the sweep of `axes` (keyword arguments: a list is an axis, one value is laid
/// over `base`) as `mac-sim sweep` runs it, and returns a dict: `points`, the columns of `results.csv`
/// (one value per point, with every metric's mean and 95 % half-width); `runs`, the
/// columns of the database's `runs` table (one value per run); `events`, `wall_s`,
/// `stored` (runs read from `db`).
///
/// `progress`, if given, is called as `progress(runs_done, runs_to_do)` from the
/// calling thread while the sweep runs. Raises `ValueError` naming the parameter at
/// fault before anything runs, `KeyboardInterrupt` on Ctrl-C (a database keeps the
/// runs that finished), `ValueError` if the database cannot serve (not a results
/// database, damaged, its folder missing or read-only) and `OSError` if storing a run
/// fails. `max_memory`, as `--max-memory`: `MemoryError` before any run when the
/// sweep would not fit.
#[pyfunction]
#[pyo3(signature = (base, replications = 5, seed = 1, common_random_numbers = false, threads = None, db = None, progress = None, max_memory = None, **axes))]
#[allow(clippy::too_many_arguments)]
pub fn sweep<'py>(
    py: Python<'py>,
    base: &PyScenario,
    replications: u32,
    seed: u64,
    common_random_numbers: bool,
    threads: Option<usize>,
    db: Option<PathBuf>,
    progress: Option<Bound<'py, PyAny>>,
    max_memory: Option<&str>,
    axes: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut base = base.inner.clone();
    let given: Vec<String> = match axes {
        Some(d) => d
            .iter()
            .filter(|(_, v)| !v.is_none())
            .map(|(k, _)| k.extract())
            .collect::<PyResult<_>>()?,
        None => Vec::new(),
    };
    let axes = axes_of(&mut base, axes)?;
    let random_numbers = if common_random_numbers {
        RandomNumbers::Common
    } else {
        RandomNumbers::Independent
    };
    let spec =
        sweep_from_lists(base, axes, replications, seed, random_numbers).map_err(value_error)?;
    let points = spec.validate().map_err(value_error)?;
    // A keyword argument that no point reads is refused, as the command line's flag.
    csma_cd::check_effect(&points, given.iter().map(String::as_str)).map_err(value_error)?;
    let pool = threads.map(pool).transpose().map_err(value_error)?;
    let on = pool
        .as_ref()
        .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    crate::memory::check("sweep", &sweep_memory(&spec, &points, on), on, max_memory)?;
    let counters = Counters::default();
    let mut reporter = Reporter::new(progress);
    let outcome = interruptible_with(
        py,
        |cancel| {
            let go = || summarise(&spec, db.as_deref(), &counters, cancel);
            match &pool {
                Some(p) => p.install(go),
                None => go(),
            }
        },
        |_| reporter.tick(&counters),
        |e, out| match out {
            Err(SweepError::Interrupted {
                runs_done,
                runs,
                db,
                ..
            }) if e.is_instance_of::<PyKeyboardInterrupt>(py) => {
                PyKeyboardInterrupt::new_err(interrupted(runs_done, runs, db.as_deref()))
            }
            _ => e,
        },
    )?
    .map_err(|e| match e {
        SweepError::Interrupted {
            runs_done,
            runs,
            ref db,
        } => PyKeyboardInterrupt::new_err(interrupted(runs_done, runs, db.as_deref())),
        SweepError::Spec(_) => PyValueError::new_err(e.to_string()),
        SweepError::Store(e) => store_error(e),
        _ => PyOSError::new_err(e.to_string()),
    })?;
    reporter.tick(&counters)?;
    let point_rows: Vec<Row> = outcome.points.iter().map(|p| row(p, spec.seed)).collect();
    let per_point = spec.replications as usize;
    let run_rows: Vec<Row> = outcome
        .records
        .iter()
        .enumerate()
        .map(|(i, rec)| {
            let (p, r) = (i / per_point, (i % per_point) as u32);
            run_row(&points[p], spec.run_seed(&points[p], r), r, rec)
        })
        .collect();
    let out = PyDict::new(py);
    let empty = Row::default();
    out.set_item("points", columns(py, &point_rows, &empty)?)?;
    out.set_item("runs", columns(py, &run_rows, &empty)?)?;
    out.set_item("events", outcome.events)?;
    out.set_item("wall_s", outcome.wall.as_secs_f64())?;
    out.set_item("stored", outcome.stored)?;
    Ok(out)
}

/// The `runs` table of the results database at `path` (of any model: CSMA/CD's `sweep
/// --db`, `radio --db` or `storm --db`, by the model the file records), read only (so
/// the file may be on read-only media) and every run verified as the command line
/// verifies it, as columns: `id`, then the table's columns but the checksum and a
/// stored record's bytes, in table order.
///
/// Raises `FileNotFoundError` for a missing file, `ValueError` for a file that is not
/// a results database of this mac-sim or is damaged, `OSError` if it cannot be read.
#[pyfunction]
pub fn read_campaign<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let read = || match sim_host::model_of(&path).as_deref() {
        Some(radio_sim_host::MODEL_VERSION) => radio_sim_host::read_runs(&path),
        Some(retry_storm_host::MODEL_VERSION) => retry_storm_host::read_runs(&path),
        _ => store::read_runs(&path),
    };
    let (header, rows) = py.detach(read).map_err(store_error)?;
    columns(py, &rows, &header)
}

/// A results database that cannot serve, as the command line's rule has it: what is
/// wrong with the file the caller named (not a results database, damaged, its folder
/// missing or read-only, ...) is `ValueError` (`FileNotFoundError` for a file to read
/// that does not exist); SQLite or the disk failing while working is `OSError`.
pub(crate) fn store_error(e: StoreError) -> PyErr {
    match e {
        StoreError::Unusable(_, store::Unusable::Missing) => {
            PyFileNotFoundError::new_err(e.to_string())
        }
        StoreError::Sql(..)
        | StoreError::Io(..)
        | StoreError::Duplicate { .. }
        | StoreError::Busy { .. } => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The metrics a sweep estimates, in the order of its columns.
#[pyfunction]
pub fn metrics() -> Vec<&'static str> {
    METRICS.iter().map(|(n, _)| *n).collect()
}
