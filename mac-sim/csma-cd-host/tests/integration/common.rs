//! Helpers shared by the sweep tests.

use std::sync::atomic::{AtomicBool, Ordering};

use sim_kit::progress::{Progress, Snapshot};

/// Raises the cancel flag once `after` runs have finished, as Ctrl-C would.
pub struct InterruptAfter<'a> {
    /// The flag the sweep checks.
    pub flag: &'a AtomicBool,
    /// Runs to let finish first.
    pub after: usize,
}

impl Progress for InterruptAfter<'_> {
    fn begin(&self, _: usize, _: usize) {}
    fn update(&self, s: &Snapshot) {
        if s.jobs_done >= self.after {
            self.flag.store(true, Ordering::SeqCst);
        }
    }
    fn end(&self) {}
}
