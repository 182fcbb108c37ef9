//! `run`: one run of the exact model, as `mac-sim run` does it ([`csma_cd_host::job`],
//! in slices, cancellable, its progress reported), with its results as the command
//! line's JSON and CSV name them and, on request, its trace.

use csma_cd::PerStation;
use csma_cd::Scenario;
use csma_cd::{per_station_table, run_columns};
use csma_cd_host::{run_observed, run_traced};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::columns;
use crate::progress::{Counters, Reporter};
use crate::scenario::{PyScenario, value_error};
use crate::trace::TraceColumns;
use crate::wait::interruptible;

/// Runs `scenario` and returns a dict: `json`, the result as `mac-sim run --json`
/// writes it without its `"scenario"` block (text); `scenario`, every parameter of
/// the run (a `Scenario` that repeats it exactly); `row`, the columns of
/// `mac-sim run --csv`; `per_station`, with `per_station`, the columns of
/// `mac-sim run --csv --per-station`, one value per station (else `None`);
/// `trace`, with `trace`, every step of the model as the columns of
/// `mac-sim run --trace FILE.csv` (see [`TraceColumns::into_py`]; else `None`);
/// `engine_s`, the wall time of the run itself on its thread (for the benchmark of
/// what the call adds).
///
/// `progress`, if given, is called as `progress(slices_done, 64)` from the calling
/// thread while the run goes through the 64 slices of its simulated time. Raises
/// `ValueError` naming the parameter at fault before running, and
/// `KeyboardInterrupt` on Ctrl-C (within 16 384 events of the run). `given`:
/// the keys the caller gave as keyword arguments, each refused (`ValueError`) where it
/// has no effect, as the command line refuses its flag. `max_memory`, as
/// `--max-memory`: `MemoryError` before the run when it would not fit.
#[pyfunction]
#[pyo3(signature = (scenario, per_station = false, trace = false, progress = None, given = Vec::new(), max_memory = None))]
pub fn run<'py>(
    py: Python<'py>,
    scenario: &PyScenario,
    per_station: bool,
    trace: bool,
    progress: Option<Bound<'py, PyAny>>,
    given: Vec<String>,
    max_memory: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let cfg = scenario.inner.to_config().map_err(value_error)?;
    csma_cd::check_effect(std::slice::from_ref(&cfg), given.iter().map(String::as_str))
        .map_err(value_error)?;
    let observed = csma_cd::Observed {
        per_station,
        timeline_windows: None,
    };
    crate::memory::check(
        "run",
        &csma_cd::estimate_memory(&cfg, observed),
        1,
        max_memory,
    )?;
    let per_station = per_station
        .then(|| PerStation::new(cfg.stations))
        .transpose()
        .map_err(value_error)?;
    let trace = trace.then(TraceColumns::default);
    let counters = Counters::default();
    let mut reporter = Reporter::new(progress);
    let done = interruptible(
        py,
        |cancel| {
            let start = std::time::Instant::now();
            let out = match (per_station, trace) {
                // Nothing to observe: the model without its hook, as `mac-sim run`.
                (None, None) => {
                    run_observed(&cfg, cancel, &counters).map(|o| o.map(|(r, _)| (r, None, None)))
                }
                observers => run_traced(&cfg, cancel, &counters, observers).map(|o| {
                    o.map(|(r, bits, (p, t))| {
                        let rows = p.map(|p| p.results(&bits, cfg.measured()));
                        (r, rows, t)
                    })
                }),
            };
            (out, start.elapsed())
        },
        |_| reporter.tick(&counters),
    )?;
    let (done, engine) = done;
    let (r, stations, trace) = done
        .map_err(value_error)?
        .ok_or_else(|| PyKeyboardInterrupt::new_err("run interrupted"))?;
    reporter.tick(&counters)?;
    let out = PyDict::new(py);
    out.set_item("engine_s", engine.as_secs_f64())?;
    out.set_item("json", serde_json::to_string(&r).map_err(value_error)?)?;
    out.set_item(
        "scenario",
        PyScenario {
            inner: Scenario::from_config(&cfg),
        },
    )?;
    let row = run_columns(&r);
    out.set_item("row", columns(py, std::slice::from_ref(&row), &row)?)?;
    match stations {
        Some(s) => {
            let rows = per_station_table(&r, &s);
            out.set_item("per_station", columns(py, &rows, &row)?)?;
        }
        None => out.set_item("per_station", py.None())?,
    }
    match trace {
        Some(t) => out.set_item("trace", t.into_py(py)?)?,
        None => out.set_item("trace", py.None())?,
    }
    Ok(out)
}
