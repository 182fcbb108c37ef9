//! `storm`: a retry-storm scenario (a preset's name or a scenario file), run as
//! `mac-sim storm --scenario` runs it ([`retry_storm_host::run_scenario_with`]), with
//! its results as the command line's JSON, summary CSV and time-series CSV.

use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use retry_storm::strategy::Strategy;
use retry_storm::{StormError, presets, report};
use retry_storm_host::{run_scenario_with, scenario_file};
use sim_kit::time::Time;

use crate::progress::{Counters, Reporter};
use crate::wait::interruptible;

fn duration(text: &str) -> PyResult<Time> {
    Time::parse(text).map_err(|e| PyValueError::new_err(format!("duration {e}")))
}

fn storm_error(e: StormError) -> PyErr {
    match e {
        StormError::Interrupted => PyKeyboardInterrupt::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// Runs the storm scenario `scenario` (a preset's name, see `mac-sim storm --list`,
/// or the path of a scenario file) with the options of `mac-sim storm` and returns
/// a dict of texts: `json` (`--json`), `summary_csv` (`--csv`), `series_csv`
/// (`--series`). `progress`, if given, is called as `progress(runs_done, runs_to_do)`
/// from the calling thread while the runs go. Raises `ValueError` with the command
/// line's message for a bad option or scenario, `KeyboardInterrupt` on Ctrl-C.
#[pyfunction]
#[pyo3(signature = (scenario, seed = 1, clients = None, horizon = None, strategies = None, timeouts = None, bin = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn storm<'py>(
    py: Python<'py>,
    scenario: &str,
    seed: u64,
    clients: Option<u32>,
    horizon: Option<&str>,
    strategies: Option<Vec<String>>,
    timeouts: Option<Vec<String>>,
    bin: Option<&str>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = presets::Options {
        seed: Some(seed),
        clients,
        horizon_ps: horizon.map(duration).transpose()?,
        bin_ps: bin.map(duration).transpose()?,
        timeouts_ps: timeouts
            .map(|t| t.iter().map(|x| duration(x)).collect::<PyResult<Vec<_>>>())
            .transpose()?,
        strategies: strategies
            .map(|s| {
                s.iter()
                    .map(|x| Strategy::parse(x))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()
            .map_err(storm_error)?,
    };
    let sc = scenario_file::load(scenario, &opts).map_err(storm_error)?;
    let counters = Counters::default();
    let mut reporter = Reporter::new(progress);
    let r = interruptible(
        py,
        |cancel| run_scenario_with(&sc, &counters, cancel),
        |_| reporter.tick(&counters),
    )?
    .map_err(storm_error)?;
    reporter.tick(&counters)?;
    let out = PyDict::new(py);
    out.set_item("json", sim_kit::output::json::to_string(&r))?;
    out.set_item("summary_csv", report::summary_csv(&r))?;
    out.set_item("series_csv", report::series_csv(&r))?;
    Ok(out)
}
