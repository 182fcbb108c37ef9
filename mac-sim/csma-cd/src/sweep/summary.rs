//! A sweep's results: one row per point with every parameter and, for every metric,
//! the mean over replications and the half-width of its 95 % confidence interval;
//! written as CSV and JSON with the unit in every column name.
//!
//! A metric column `X` holds the mean over the replications and `X_ci95` the
//! half-width of its 95 % Student-t interval (`X ± X_ci95`). Rates and fractions are
//! per replication first, then averaged: the *collision rate* is collided attempts /
//! attempts, the *drop rate* is frames dropped (excessive collisions or a full queue)
//! / frames generated (and per cause beside it), *fairness* is Jain's index over
//! per-station delivered bits. The *access delay* runs from the frame reaching the
//! head of its station's queue to the end of its successful transmission, the *total
//! delay* from its arrival (queueing included); a saturated point has no total delay
//! (an empty cell, `null` in JSON). `random_numbers` says whether the points had
//! independent random streams or common ones (see
//! [`RandomNumbers`]).

use crate::config::{RunConfig, Traffic};
use crate::scenario::Scenario;
use crate::sweep::record::{METRICS, RunRecord};
use crate::sweep::spec::RandomNumbers;
use crate::table::{self, Cell, Row};
use crate::theory;
use sim_kit::stats::{Estimate, mean_ci95};

/// One point's parameters and estimates.
#[derive(Clone, Debug, PartialEq)]
pub struct PointSummary {
    /// The point's parameters (seed 0: replications have their own).
    pub config: RunConfig,
    /// Replications summarised.
    pub replications: u32,
    /// Whether the points' replications shared random streams.
    pub random_numbers: RandomNumbers,
    /// Estimates in [`METRICS`] order.
    pub metrics: Vec<Estimate>,
    /// Metcalfe & Boggs efficiency for this point (a prediction, no interval).
    pub mb_efficiency: f64,
    /// Events handled over all replications.
    pub events: u64,
    /// Mean backoff after c collisions, pooled over the replications:
    /// `(c, draws, mean slots, expected slots)`.
    pub backoff: Vec<(u32, u64, f64, f64)>,
}

impl PointSummary {
    /// Summarise the replications of one point (in replication order), drawn with
    /// `random_numbers`.
    pub fn new(config: &RunConfig, reps: &[RunRecord], random_numbers: RandomNumbers) -> Self {
        let metrics = (0..METRICS.len())
            .map(|i| mean_ci95(&reps.iter().map(|r| r.metrics[i]).collect::<Vec<_>>()))
            .collect();
        let mut backoff: Vec<(u32, u64, f64, f64)> = Vec::new();
        for r in reps {
            for row in &r.backoff {
                let sum = row.mean_slots * row.draws as f64;
                match backoff.iter_mut().find(|b| b.0 == row.collisions) {
                    Some(b) => {
                        b.1 += row.draws;
                        b.2 += sum;
                    }
                    None => backoff.push((row.collisions, row.draws, sum, row.expected_slots)),
                }
            }
        }
        for b in &mut backoff {
            b.2 = if b.1 == 0 { 0.0 } else { b.2 / b.1 as f64 };
        }
        Self {
            config: config.clone(),
            replications: reps.len() as u32,
            random_numbers,
            metrics,
            mb_efficiency: theory::mb_efficiency(
                config.stations.into(),
                config.frames.mean_bits(),
                config.phy.slot_bits.into(),
            ),
            events: reps.iter().map(|r| r.events).sum(),
            backoff,
        }
    }

    /// The estimate of metric `name` (one of [`METRICS`]).
    pub fn metric(&self, name: &str) -> Option<Estimate> {
        METRICS
            .iter()
            .position(|(n, _)| *n == name)
            .and_then(|i| self.metrics.get(i).copied())
    }

    /// The offered load, `None` when saturated.
    pub fn load(&self) -> Option<f64> {
        match self.config.traffic {
            Traffic::Saturated => None,
            Traffic::Poisson { load } => Some(load),
        }
    }
}

/// The row of a point: its parameters as the schema names them (every parameter
/// but the seed: each replication has its own), the sweep's own columns, then each
/// metric's mean and 95 % half-width.
pub fn row(p: &PointSummary, sweep_seed: u64) -> Row {
    let mut r: Vec<(String, Cell)> = Scenario::columns(&p.config)
        .into_iter()
        .filter(|(k, _)| k != "seed")
        .collect();
    r.extend([
        ("replications".to_string(), Cell::Int(p.replications.into())),
        ("sweep_seed".into(), Cell::Int(sweep_seed)),
        (
            "random_numbers".into(),
            Cell::Text(p.random_numbers.name().into()),
        ),
        ("events".into(), Cell::Int(p.events)),
        ("mb_efficiency_fraction".into(), Cell::Num(p.mb_efficiency)),
    ]);
    for ((name, _), e) in METRICS.iter().zip(&p.metrics) {
        r.push((name.to_string(), Cell::Num(e.mean)));
        r.push((format!("{name}_ci95"), Cell::Num(e.half_width)));
    }
    Row(r)
}

/// The row of one run of a sweep: the point's parameters as the schema names them,
/// with the run's own seed, its replication number and events, then each metric's
/// value, as the results database's `runs` table holds it.
pub fn run_row(point: &RunConfig, seed: u64, replication: u32, record: &RunRecord) -> Row {
    let mut r = Scenario::columns(&RunConfig {
        seed,
        ..point.clone()
    });
    r.extend([
        ("replication".to_string(), Cell::Int(replication.into())),
        ("events".into(), Cell::Int(record.events)),
    ]);
    for ((name, _), v) in METRICS.iter().zip(&record.metrics) {
        r.push((name.to_string(), Cell::Num(*v)));
    }
    Row(r)
}

/// The CSV text: a header and one line per point.
pub fn to_csv(points: &[PointSummary], sweep_seed: u64) -> String {
    table::to_csv(&rows(points, sweep_seed))
}

/// The JSON text: an array of objects with the CSV's columns as keys, in order.
pub fn to_json(points: &[PointSummary], sweep_seed: u64) -> String {
    table::to_json(&rows(points, sweep_seed))
}

fn rows(points: &[PointSummary], sweep_seed: u64) -> Vec<Row> {
    points.iter().map(|p| row(p, sweep_seed)).collect()
}
