//! Streaming statistics: nothing is stored per frame, so a run's memory does not grow
//! with its length.
//!
//! * [`histogram`]: a log-linear histogram of delays with exact mean and maximum and
//!   percentiles to within 0.4 %;
//! * [`backoff`]: the mean backoff after the c-th collision with its standard error;
//! * [`fairness`]: Jain's fairness index and the capture effect;
//! * [`ci`]: means with 95 % Student-t confidence intervals over replications.

pub mod backoff;
pub mod ci;
pub mod fairness;
pub mod histogram;

pub use backoff::BackoffStats;
pub use fairness::{Capture, jain_index};
pub use histogram::{Histogram, Summary};
