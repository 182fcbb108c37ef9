//! [`METRICS`], the metrics a sweep estimates and how each is read from a run, and
//! [`RunRecord`]: what a sweep keeps of one replication, the same whether it was just
//! run or read back from the results database, so that a sweep's files are
//! byte-identical either way.

use crate::config::Traffic;
use crate::exact::backoff_stats::BackoffRow;
use crate::exact::results::RunResult;

/// How a metric is read from one replication's results.
pub type Metric = fn(&RunResult) -> f64;

/// The metrics estimated at every point, in column order: name (with unit) and how
/// to read it from one replication.
///
/// The total delay (arrival to end of the successful transmission, queueing
/// included) is NaN (an empty cell) at a saturated point: every station always has
/// a frame, so there is no arrival to measure from and the queueing delay is
/// unbounded.
pub const METRICS: [(&str, Metric); 15] = [
    ("throughput_mbps", |r| r.throughput_mbps),
    ("goodput_mbps", |r| r.goodput_mbps),
    ("utilisation_fraction", |r| r.utilisation),
    ("access_delay_mean_us", |r| r.access_delay.mean_us),
    ("access_delay_p99_us", |r| r.access_delay.p99_us),
    ("total_delay_mean_us", |r| {
        queued(r).map_or(f64::NAN, |r| r.total_delay.mean_us)
    }),
    ("total_delay_p99_us", |r| {
        queued(r).map_or(f64::NAN, |r| r.total_delay.p99_us)
    }),
    ("collision_rate_per_attempt", |r| r.collisions_per_attempt),
    ("drop_rate_per_frame", drop_rate),
    ("drop_excessive_collisions_per_frame", |r| {
        per_generated(r, r.conservation.dropped_excessive)
    }),
    ("drop_queue_overflow_per_frame", |r| {
        per_generated(r, r.conservation.dropped_overflow)
    }),
    ("jain_fairness_index", |r| r.jain_index),
    ("attempts_per_frame", |r| r.mean_attempts),
    ("capture_max_window_share_fraction", |r| {
        r.capture.max_window_share
    }),
    ("delivered_frames", |r| r.conservation.delivered as f64),
];

/// The run if its stations queue frames that arrive (Poisson traffic).
fn queued(r: &RunResult) -> Option<&RunResult> {
    (r.config.traffic != Traffic::Saturated).then_some(r)
}

fn per_generated(r: &RunResult, n: u64) -> f64 {
    let g = r.conservation.generated;
    if g == 0 { 0.0 } else { n as f64 / g as f64 }
}

/// Frames dropped, for both causes (excessive collisions and a full queue), per
/// frame generated (0 if none was generated).
pub fn drop_rate(r: &RunResult) -> f64 {
    let c = &r.conservation;
    per_generated(r, c.dropped_excessive + c.dropped_overflow)
}

/// One replication's metrics (in [`METRICS`] order), its events and its backoff
/// rows. Two records are equal when every metric has the same bits or both are NaN
/// (a saturated point's total delay), so a record read back equals the one stored.
#[derive(Clone, Debug)]
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

impl PartialEq for RunRecord {
    fn eq(&self, other: &Self) -> bool {
        self.events == other.events
            && self.backoff == other.backoff
            && self
                .metrics
                .iter()
                .zip(&other.metrics)
                .all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()))
    }
}
