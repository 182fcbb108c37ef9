//! `max_memory=`, the Python door's `--max-memory`: the work's estimate (each
//! model's, from its parameters) checked before any work against the memory this
//! process may have and the limit given, with the command line's message.

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use sim_host::{Allowance, check_memory};
use sim_kit::MemoryEstimate;

/// Check the `what` `work` (on `threads` threads at once) against the host's limits
/// and `max_memory` (a size such as `"4G"`, or `"none"` for no check).
///
/// # Errors
///
/// `ValueError` for a `max_memory` that is not a size; `MemoryError` with the
/// estimate for work that would not fit.
pub fn check(
    what: &'static str,
    work: &MemoryEstimate,
    threads: usize,
    max_memory: Option<&str>,
) -> PyResult<()> {
    let allowance = match max_memory {
        None => Allowance::Host,
        Some(text) => text
            .parse()
            .map_err(|e| PyValueError::new_err(format!("max_memory: {e}, or none")))?,
    };
    check_memory(what, work, threads, allowance).map_err(|e| {
        let text = e
            .to_string()
            .replace("--max-memory none", "max_memory=\"none\"")
            .replace("--max-memory", "max_memory");
        PyMemoryError::new_err(text)
    })
}
