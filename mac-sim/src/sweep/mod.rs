//! Parameter sweeps: many runs over a grid of points, each replicated with independent
//! seeds, summarised with confidence intervals.
//!
//! * [`runner`]: the generic parallel, deterministic map over points × replications,
//!   with cancellation (not specific to CSMA/CD);
//! * [`progress`]: the progress bar / log lines / quiet reporters it drives.

pub mod progress;
pub mod runner;
