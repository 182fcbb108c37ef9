//! [`METRICS`], the metrics a sweep estimates and how each is read from a run, and
//! [`RunRecord`]: what a sweep keeps of one replication, the same whether it was just
//! run or read back from the results database, so that a sweep's files are
//! byte-identical either way.

use crate::exact::backoff_stats::BackoffRow;
use crate::exact::results::RunResult;

/// How a metric is read from one replication's results.
pub type Metric = fn(&RunResult) -> f64;

/// The metrics estimated at every point, in column order: name (with unit) and how
/// to read it from one replication.
pub const METRICS: [(&str, Metric); 9] = [
    ("throughput_mbps", |r| r.throughput_mbps),
    ("utilisation_fraction", |r| r.utilisation),
    ("access_delay_mean_us", |r| r.access_delay.mean_us),
    ("access_delay_p99_us", |r| r.access_delay.p99_us),
    ("collision_rate_per_attempt", |r| r.collisions_per_attempt),
    ("drop_rate_per_frame", drop_rate),
    ("jain_fairness_index", |r| r.jain_index),
    ("attempts_per_frame", |r| r.mean_attempts),
    ("capture_max_window_share_fraction", |r| {
        r.capture.max_window_share
    }),
];

/// Frames dropped (excessive collisions or overflow) per frame generated (0 if none).
pub fn drop_rate(r: &RunResult) -> f64 {
    let c = &r.conservation;
    if c.generated == 0 {
        0.0
    } else {
        (c.dropped_excessive + c.dropped_overflow) as f64 / c.generated as f64
    }
}

/// One replication's metrics (in [`METRICS`] order), its events and its backoff
/// rows.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRecord {
    /// The metric values, in [`METRICS`] order.
    pub metrics: [f64; METRICS.len()],
    /// Events the run handled.
    pub events: u64,
    /// Mean backoff after c collisions, per c.
    pub backoff: Vec<BackoffRow>,
}

impl RunRecord {
    /// The record of a finished run.
    pub fn of(r: &RunResult) -> Self {
        Self {
            metrics: METRICS.map(|(_, f)| f(r)),
            events: r.events,
            backoff: r.backoff.clone(),
        }
    }
}
