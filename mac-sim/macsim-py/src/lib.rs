//! # macsim-py
//!
//! The notebook door: the simulators as the Python module `macsim._native`,
//! wrapped by the pure-Python package `macsim` (`macsim/__init__.py`), which turns
//! the column lists returned here into pandas DataFrames and draws the progress bar.
//!
//! Nothing here models anything. Every parameter goes through the one schema
//! ([`csma_cd::Scenario`]): a Python value becomes its text form and is
//! set by its key, so a bad value raises `ValueError` with the message the command
//! line prints. Runs go through [`csma_cd_host::job`] and sweeps through
//! [`run_sweep`](csma_cd_host::sweep::run_sweep), off the GIL, on a worker thread that the
//! calling thread watches for Ctrl-C ([`wait`]), so the numbers equal `mac-sim run`
//! and `mac-sim sweep` for the same arguments.
//!
//! ## Module map
//!
//! * [`convert`]: Python values to the schema's text, table cells to Python values.
//! * [`scenario`]: the `Scenario` class.
//! * [`wait`]: work on a worker thread, interruptible from Python.
//! * [`progress`]: the progress of that work, handed to a Python callable.
//! * [`trace`]: a run's trace as columns.
//! * [`run`]: `run`, one run of the exact model.
//! * [`sweep`]: `sweep`, many runs on every core, optionally into a results database,
//!   and `read_campaign`, a results database's runs, verified.
//! * [`storm`]: `storm`, a retry-storm scenario, once, over seeds or swept.
//! * [`radio`]: `radio`, the radio MAC model, one run or a sweep of its keys.
//! * [`extras`]: the slotted model, the theory and backoff-core's BEB decision.
//! * [`policy`]: backoff-core's retry policies and presets as iterators of delays.
#![deny(missing_docs)]

pub mod convert;
pub mod extras;
pub mod memory;
pub mod policy;
pub mod progress;
pub mod radio;
pub mod run;
pub mod scenario;
pub mod storm;
pub mod sweep;
pub mod trace;
pub mod wait;

use pyo3::prelude::*;

/// The native module, `macsim._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<scenario::PyScenario>()?;
    m.add_function(wrap_pyfunction!(scenario::fields, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::metrics, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::read_campaign, m)?)?;
    m.add_function(wrap_pyfunction!(storm::storm, m)?)?;
    m.add_function(wrap_pyfunction!(storm::storm_keys, m)?)?;
    m.add_function(wrap_pyfunction!(storm::report_card, m)?)?;
    m.add_function(wrap_pyfunction!(radio::radio, m)?)?;
    m.add_function(wrap_pyfunction!(radio::radio_keys, m)?)?;
    m.add_function(wrap_pyfunction!(extras::slotted, m)?)?;
    m.add_function(wrap_pyfunction!(extras::mb_efficiency, m)?)?;
    m.add_function(wrap_pyfunction!(extras::beb_expected_backoff, m)?)?;
    m.add_function(wrap_pyfunction!(extras::beb_decide, m)?)?;
    m.add_function(wrap_pyfunction!(extras::beb_window, m)?)?;
    m.add_class::<policy::PyPolicy>()?;
    m.add_class::<policy::Delays>()?;
    m.add_function(wrap_pyfunction!(policy::preset_names, m)?)?;
    m.add_function(wrap_pyfunction!(policy::preset, m)?)?;
    m.add_function(wrap_pyfunction!(policy::grpc_retry, m)?)?;
    m.add_function(wrap_pyfunction!(policy::celery, m)?)?;
    m.add_function(wrap_pyfunction!(policy::aws, m)?)?;
    m.add_function(wrap_pyfunction!(policy::google_cloud, m)?)?;
    m.add_function(wrap_pyfunction!(policy::policy, m)?)?;
    m.add(
        "AWS_SDK_MAX_ATTEMPTS",
        backoff_core::presets::AWS_SDK_MAX_ATTEMPTS,
    )?;
    m.add(
        "GRPC_MAX_ATTEMPTS_CAP",
        backoff_core::presets::GRPC_MAX_ATTEMPTS_CAP,
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
