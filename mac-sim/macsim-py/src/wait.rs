//! Work on a worker thread, off the GIL, while the calling thread watches for Ctrl-C:
//! a pending signal raises the cancel flag the work checks (a run between slices of
//! 1/64 of its simulated time, a sweep between runs and slices), waits for it to stop
//! and raises Python's exception (`KeyboardInterrupt`). Between watches the caller's
//! `tick` runs with the GIL (a progress bar's update).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the calling thread looks at signals and calls `tick`.
const WATCH: Duration = Duration::from_millis(20);

/// `work(cancel)` on a worker thread; see the module docs.
///
/// # Errors
///
/// The exception of a signal's handler (`KeyboardInterrupt` for Ctrl-C), once the work
/// has stopped; an error of `tick`; `RuntimeError` if the work panicked.
pub fn interruptible<T, W, K>(py: Python<'_>, work: W, mut tick: K) -> PyResult<T>
where
    T: Send,
    W: FnOnce(&AtomicBool) -> T + Send,
    K: FnMut(Python<'_>) -> PyResult<()>,
{
    let cancel = AtomicBool::new(false);
    std::thread::scope(|s| {
        let (tx, mut rx) = mpsc::channel();
        let cancel = &cancel;
        let worker = s.spawn(move || {
            let out = work(cancel);
            let _ = tx.send(());
            out
        });
        let mut failure = None;
        loop {
            let (finished, back) = py.detach(move || {
                let done = !matches!(rx.recv_timeout(WATCH), Err(mpsc::RecvTimeoutError::Timeout));
                (done, rx)
            });
            rx = back;
            if let Err(e) = tick(py) {
                failure = Some(e);
            } else if finished {
                break;
            } else if let Err(e) = py.check_signals() {
                failure = Some(e);
            }
            if failure.is_some() {
                cancel.store(true, Ordering::SeqCst);
                break;
            }
        }
        let joined = py.detach(|| worker.join());
        match (failure, joined) {
            (Some(e), _) => Err(e),
            (None, Ok(out)) => Ok(out),
            (None, Err(panic)) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(PyRuntimeError::new_err(format!(
                    "internal error in the simulator: {what}"
                )))
            }
        }
    })
}
