//! Many independent runs on all cores, with results that do not depend on the thread
//! count.
//!
//! * `grid`: the parallel, deterministic map over points × replications, with
//!   cancellation;
//! * [`progress`]: the reporters it drives on a terminal: a bar, or nothing when
//!   standard error is not one; [`progress::Steps`] for one long task;
//! * `threads`: a thread count checked against the machine, and its pool.

pub(crate) mod grid;
pub mod progress;
pub(crate) mod threads;

pub use grid::{Done, Job, RunError, run_grid};
pub use threads::{PER_CORE, ThreadsError, limit, pool};
