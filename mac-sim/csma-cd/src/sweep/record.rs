//! [`RunRecord`]: what a sweep keeps of one replication, the same whether it was just
//! run or read back from the results database, so that a sweep's files are
//! byte-identical either way.

use crate::exact::backoff_stats::BackoffRow;
use crate::exact::results::RunResult;
use crate::sweep::summary::METRICS;

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
