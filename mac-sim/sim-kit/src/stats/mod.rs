//! Streaming statistics: nothing is stored per sample, so a run's memory does not
//! grow with its length.
//!
//! * `histogram`: a log-linear histogram of delays with exact mean and maximum and
//!   percentiles to within 0.4 %;
//! * `compact`: a smaller histogram (percentiles within 1.6 %, buckets only where
//!   values fell) for one per station;
//! * `fairness`: Jain's fairness index and the capture effect (one station's share
//!   of consecutive successes);
//! * `ci`: means with 95 % Student-t confidence intervals over replications;
//! * `log_linear` (private): the bucket layout and percentiles both histograms share.

pub(crate) mod ci;
pub(crate) mod compact;
pub(crate) mod fairness;
pub(crate) mod histogram;
mod log_linear;

pub use ci::{Estimate, mean_ci95, t975};
pub use compact::CompactHistogram;
pub use fairness::{Capture, CaptureResult, jain_index};
pub use histogram::{Histogram, Summary};
