//! Many independent runs on all cores, with results that do not depend on the thread
//! count.
//!
//! * [`grid`]: the parallel, deterministic map over points × replications, with
//!   cancellation and [`grid::replication_seed`];
//! * [`progress`]: the reporters it drives: a bar on a terminal, log lines when
//!   standard error is not one, or nothing;
//! * [`threads`]: a thread count checked against the machine, and its pool.

pub mod grid;
pub mod progress;
pub mod threads;
