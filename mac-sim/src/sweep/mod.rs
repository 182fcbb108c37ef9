//! Parameter sweeps: many runs over a grid of points, each replicated with independent
//! seeds, summarised with confidence intervals.
//!
//! Generic (nothing CSMA/CD-specific, reusable by other models):
//!
//! * [`runner`]: the parallel, deterministic map over points × replications, with
//!   cancellation and [`runner::replication_seed`];
//! * [`progress`]: the progress bar / log lines / quiet reporters it drives;
//! * [`range`]: value lists such as `1..=1024:x2` or `0.1..=1.0:0.1`.
//!
//! The CSMA/CD sweep built on them:
//!
//! * [`spec`]: the swept parameters and their command-line forms;
//! * [`job`]: one replication of the exact model, cancellable;
//! * [`summary`]: per-point means and 95 % intervals, CSV and JSON;
//! * [`execute`]: the whole sweep, from checks to files.

pub mod execute;
pub mod job;
pub mod progress;
pub mod range;
pub mod runner;
pub mod spec;
pub mod summary;
