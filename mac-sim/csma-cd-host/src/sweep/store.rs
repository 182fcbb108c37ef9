//! The CSMA/CD model's results database: the host kit's store ([`sim_host::store`],
//! whose docs say how a file is laid out, checked and written) with this model's
//! [`Layout`], [`Csma`]: every run of a sweep, its parameters and all its metrics,
//! so that a sweep resumes where it stopped, grows without recomputing, and can be
//! split into shards that are merged afterwards.
//!
//! # Columns
//!
//! ```sql
//! runs(id, point, seed, replication,
//!      -- the point's parameters, one column each, named and written as every
//!      -- results file names them (`Scenario::columns`, the seed aside; `frames` is
//!      -- an integer for one frame size, so it sorts as a number, text for a range
//!      -- or a mix):
//!      medium, stations, placement, length_m, bit_rate_bps, frames, frame_mean_bits,
//!      traffic, load (NULL: saturated), duration_s, warmup_s, backoff, ...,
//!      events INTEGER,
//!      -- one REAL column per metric of `record::METRICS`, NULL where it has no
//!      -- value (the total delay of a saturated point):
//!      throughput_mbps, goodput_mbps, utilisation_fraction, access_delay_mean_us,
//!      access_delay_p99_us, total_delay_mean_us, total_delay_p99_us,
//!      collision_rate_per_attempt, drop_rate_per_frame,
//!      drop_excessive_collisions_per_frame, drop_queue_overflow_per_frame,
//!      jain_fairness_index, attempts_per_frame, capture_max_window_share_fraction,
//!      delivered_frames,
//!      record_sha256, UNIQUE(point, seed))
//! backoff(run_id INTEGER REFERENCES runs(id), collisions INTEGER, draws INTEGER,
//!         mean_slots REAL, std_error REAL, expected_slots REAL,
//!         PRIMARY KEY(run_id, collisions))
//! ```
//!
//! A run's `point` is its point's parameters as JSON with seed 0
//! ([`csma_cd::sweep::point_key`]).

use std::path::{Path, PathBuf};

use sim_host::store::{
    self as kit, Column, Detail, Layout, SqlValue as Value, real, real_value, unsigned,
};

use csma_cd::config::RunConfig;
use csma_cd::exact::BackoffRow;
use csma_cd::scenario::Scenario;
use csma_cd::sweep::METRICS;
use csma_cd::sweep::RunRecord;
use csma_cd::sweep::point_key;
use csma_cd::table::{Cell, Row};

pub use sim_host::store::{Damage, Lacking, Merged, RunKey, StoreError, Unusable, campaign_id};

/// The version of the file layout: 2 added goodput, total delay, the drop rate per
/// cause and the delivered frames to the runs (schema 1 had nine metrics); 3 stated
/// every parameter in its own column; 4 added each run's checksum (`record_sha256`),
/// stores one frame size as an integer and never reuses a run id.
pub const SCHEMA_VERSION: &str = "4";

/// The version of the model whose results a file holds (exact model 2: the IEEE 802.3
/// deference and the `ifg_rule`/`jam_rule` parameters; 3: a figure of nothing, such
/// as Jain's index or the attempts per frame of a run that delivered no frame, is
/// undefined, NULL, where model 2 stored 1 or 0). Change it with any change that
/// changes a run's results (the golden outputs tell): a database is then refused
/// rather than mixing two models' results.
pub const MODEL_VERSION: &str = concat!("csma-cd ", env!("CARGO_PKG_VERSION"), ", exact model 3");

/// How the CSMA/CD model's runs are stored (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Csma;

/// An open results database of CSMA/CD runs.
pub type Store = kit::Store<Csma>;

/// The key of the run of `point` (any seed in it is ignored) with `seed`.
pub fn run_key(point: &RunConfig, seed: u64) -> RunKey {
    RunKey {
        point: point_key(point),
        seed,
    }
}

impl Layout for Csma {
    type Point = RunConfig;
    type Record = RunRecord;

    const SCHEMA_VERSION: &'static str = SCHEMA_VERSION;
    const MODEL_VERSION: &'static str = MODEL_VERSION;

    /// The parameter columns of a point, as every results file names them, the seed
    /// aside, and one frame size as an integer (so `ORDER BY frames` puts 64 before
    /// 1518).
    fn parameters(point: &RunConfig) -> Vec<(String, Cell)> {
        Scenario::columns(point)
            .into_iter()
            .filter(|(k, _)| k != "seed")
            .map(|(k, c)| match c {
                Cell::Text(t) if k == "frames" => match t.parse::<u64>() {
                    Ok(bytes) => (k, Cell::Int(bytes)),
                    Err(_) => (k, Cell::Text(t)),
                },
                c => (k, c),
            })
            .collect()
    }

    fn parameter_names() -> Vec<String> {
        Self::parameters(&RunConfig::default())
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    fn results() -> Vec<Column> {
        [Column::new("events", "INTEGER NOT NULL")]
            .into_iter()
            .chain(METRICS.iter().map(|(n, _)| Column::new(*n, "REAL")))
            .collect()
    }

    fn detail() -> Option<Detail> {
        Some(Detail {
            table: "backoff",
            columns: vec![
                Column::new("collisions", "INTEGER NOT NULL"),
                Column::new("draws", "INTEGER NOT NULL"),
                Column::new("mean_slots", "REAL NOT NULL"),
                Column::new("std_error", "REAL NOT NULL"),
                Column::new("expected_slots", "REAL NOT NULL"),
            ],
        })
    }

    fn encode(r: &RunRecord) -> (Vec<Value>, Vec<Vec<Value>>) {
        let results = [Value::Integer(r.events as i64)]
            .into_iter()
            .chain(r.metrics.iter().map(|&m| real_value(m)))
            .collect();
        let backoff = r
            .backoff
            .iter()
            .map(|row| {
                vec![
                    Value::Integer(i64::from(row.collisions)),
                    Value::Integer(row.draws as i64),
                    Value::Real(row.mean_slots),
                    Value::Real(row.std_error),
                    Value::Real(row.expected_slots),
                ]
            })
            .collect();
        (results, backoff)
    }

    fn decode(v: &[Value], detail: &[Vec<Value>]) -> Result<RunRecord, String> {
        let events = unsigned(&v[0]).ok_or("events")?;
        let mut metrics = [0.0; METRICS.len()];
        for (i, m) in metrics.iter_mut().enumerate() {
            // NULL: a metric without a value (see `METRICS`).
            *m = v.get(1 + i).and_then(real).ok_or(METRICS[i].0)?;
        }
        let backoff = detail
            .iter()
            .map(|b| {
                let num = |i: usize, column: &str| {
                    b.get(i)
                        .filter(|v| !matches!(v, Value::Null))
                        .and_then(real)
                        .ok_or_else(|| format!("backoff {column}"))
                };
                Ok(BackoffRow {
                    collisions: b
                        .first()
                        .and_then(unsigned)
                        .and_then(|c| u32::try_from(c).ok())
                        .ok_or("backoff collisions")?,
                    draws: b.get(1).and_then(unsigned).ok_or("backoff draws")?,
                    mean_slots: num(2, "mean_slots")?,
                    std_error: num(3, "std_error")?,
                    expected_slots: num(4, "expected_slots")?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(RunRecord {
            metrics,
            events,
            backoff,
        })
    }
}

/// Merge the shard files `inputs` (written by `sweep --shard K/N`) into a new file
/// `out`, as [`sim_host::store::merge`] does.
///
/// # Errors
///
/// As [`sim_host::store::merge`].
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Merged, StoreError> {
    kit::merge::<Csma>(out, inputs)
}

/// The runs of the results database at `path`, read only and each verified, as rows
/// named as the `runs` table's columns, as [`sim_host::store::read_runs`] reads them.
///
/// # Errors
///
/// As [`sim_host::store::read_runs`].
pub fn read_runs(path: &Path) -> Result<(Row, Vec<Row>), StoreError> {
    kit::read_runs::<Csma>(path)
}
