//! Work on a worker thread, off the GIL, while the calling thread watches for Ctrl-C:
//! a pending signal raises the cancel flag the work checks (a run every 16 384 events,
//! a sweep between runs too), waits for it to stop
//! and raises Python's exception (`KeyboardInterrupt`). Between watches the caller's
//! `tick` runs with the GIL (a progress bar's update).
//!
//! SIGTERM is handled as Ctrl-C is while the work goes, when Python would otherwise
//! die of it (its handler is the default and the call is on the main thread): a
//! `kill` stops a sweep as cleanly, its database keeping every finished run.

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
pub fn interruptible<T, W, K>(py: Python<'_>, work: W, tick: K) -> PyResult<T>
where
    T: Send,
    W: FnOnce(&AtomicBool) -> T + Send,
    K: FnMut(Python<'_>) -> PyResult<()>,
{
    interruptible_with(py, work, tick, |e, _| e)
}

/// As [`interruptible`], and when a signal stopped the work, `explain(exception,
/// what the work returned)` gives the exception raised (the same kind, with what was
/// kept of the work).
///
/// # Errors
///
/// As [`interruptible`], the signal's exception as `explain` gives it.
pub fn interruptible_with<T, W, K, E>(py: Python<'_>, work: W, tick: K, explain: E) -> PyResult<T>
where
    T: Send,
    W: FnOnce(&AtomicBool) -> T + Send,
    K: FnMut(Python<'_>) -> PyResult<()>,
    E: FnOnce(PyErr, T) -> PyErr,
{
    let term = TermAsInterrupt::install(py)?;
    let out = watch(py, work, tick, explain);
    term.restore()?;
    out
}

/// SIGTERM's handler made Python's Ctrl-C handler for the time of a call, if it was
/// the default one and the call is on the main thread (the only thread that may set
/// a handler).
struct TermAsInterrupt<'py>(Option<(Bound<'py, PyModule>, Bound<'py, PyAny>)>);

impl<'py> TermAsInterrupt<'py> {
    fn install(py: Python<'py>) -> PyResult<Self> {
        let threading = py.import("threading")?;
        let main = threading
            .call_method0("current_thread")?
            .is(&threading.call_method0("main_thread")?);
        let signal = py.import("signal")?;
        if !main || !signal.hasattr("SIGTERM")? {
            return Ok(Self(None));
        }
        let term = signal.getattr("SIGTERM")?;
        let old = signal.call_method1("getsignal", (&term,))?;
        if !old.eq(signal.getattr("SIG_DFL")?)? {
            return Ok(Self(None));
        }
        signal.call_method1("signal", (&term, signal.getattr("default_int_handler")?))?;
        Ok(Self(Some((signal, old))))
    }

    fn restore(self) -> PyResult<()> {
        if let Some((signal, old)) = self.0 {
            signal.call_method1("signal", (signal.getattr("SIGTERM")?, old))?;
        }
        Ok(())
    }
}

/// The watch of [`interruptible_with`], signal handlers in place.
fn watch<T, W, K, E>(py: Python<'_>, work: W, mut tick: K, explain: E) -> PyResult<T>
where
    T: Send,
    W: FnOnce(&AtomicBool) -> T + Send,
    K: FnMut(Python<'_>) -> PyResult<()>,
    E: FnOnce(PyErr, T) -> PyErr,
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
        let mut signalled = false;
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
                signalled = true;
            }
            if failure.is_some() {
                cancel.store(true, Ordering::SeqCst);
                break;
            }
        }
        let joined = py.detach(|| worker.join());
        match (failure, joined) {
            (Some(e), Ok(out)) if signalled => Err(explain(e, out)),
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
