//! The progress of a long call as Python sees it: the work reports through
//! [`sim_kit::Progress`] (the trait the host runners take, as the command
//! line's bar does) into [`Counters`], and the calling thread, between its watches for
//! Ctrl-C ([`crate::wait::interruptible`]), hands what changed to a Python callable
//! `progress(done, total)` through a [`Reporter`]: the runs of a sweep or of a storm,
//! the 64 slices of simulated time of one run.

use std::sync::atomic::{AtomicUsize, Ordering};

use pyo3::prelude::*;
use sim_kit::{Progress, Snapshot};

/// Jobs finished and jobs in all, as the work last reported them.
#[derive(Debug, Default)]
pub struct Counters {
    jobs: AtomicUsize,
    done: AtomicUsize,
}

impl Counters {
    /// `(done, total)`, or `None` before the work has begun (or when it has nothing
    /// to do).
    pub fn get(&self) -> Option<(usize, usize)> {
        match self.jobs.load(Ordering::Relaxed) {
            0 => None,
            jobs => Some((self.done.load(Ordering::Relaxed), jobs)),
        }
    }
}

impl Progress for Counters {
    fn begin(&self, _points: usize, jobs: usize) {
        self.done.store(0, Ordering::Relaxed);
        self.jobs.store(jobs, Ordering::Relaxed);
    }
    fn update(&self, s: &Snapshot) {
        self.done.store(s.jobs_done, Ordering::Relaxed);
    }
    fn end(&self) {}
}

/// Calls `progress(done, total)` from the calling thread, with the GIL, each time the
/// count of finished jobs has grown: never before the work has begun, never twice
/// with the same count, never with a count below the last one.
pub struct Reporter<'py> {
    callback: Option<Bound<'py, PyAny>>,
    shown: Option<usize>,
}

impl<'py> Reporter<'py> {
    /// A reporter to `callback` (`None`: reports nothing).
    pub fn new(callback: Option<Bound<'py, PyAny>>) -> Self {
        Self {
            callback,
            shown: None,
        }
    }

    /// Report `counters` if the count has grown since the last report.
    ///
    /// # Errors
    ///
    /// The callable's exception.
    pub fn tick(&mut self, counters: &Counters) -> PyResult<()> {
        let (Some(f), Some((done, total))) = (&self.callback, counters.get()) else {
            return Ok(());
        };
        if self.shown.is_some_and(|s| done <= s) {
            return Ok(());
        }
        self.shown = Some(done);
        f.call1((done, total)).map(drop)
    }
}
