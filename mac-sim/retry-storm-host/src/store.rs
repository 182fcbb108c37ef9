//! The storm model's results database: the host kit's store ([`sim_host::store`],
//! whose docs say how a file is laid out, checked and written) with this model's
//! [`Layout`], [`Storm`]. `mac-sim storm --sweep ... --db FILE` keeps every run of
//! the sweep (every strategy at every value, over every seed) in it: a sweep resumes
//! where it stopped, grows without recomputing, and splits into shards (`--shard
//! K/N`) that `mac-sim merge` joins.
//!
//! # Columns
//!
//! ```sql
//! runs(id, point, seed, replication,
//!      -- what the run is: the swept key, its value as given, the strategy:
//!      sweep_key, sweep_value, strategy,
//!      -- the run's headline figures, for queries (NULL where undefined):
//!      events, offered, attempts, succeeded, timeouts, served, wasted,
//!      recover_s (NULL: the server did not recover, or no trigger),
//!      drain_s (NULL: the retrying clients did not drain, or no trigger),
//!      during_mean_amplification, during_success_ratio, after_success_ratio,
//!      load_during, load_after, load_peak,
//!      -- the whole result but its configuration (the point's), as CBOR: counts,
//!      -- summary, time series and per-layer loads, read back bit for bit:
//!      record BLOB,
//!      record_sha256, UNIQUE(point, seed))
//! ```
//!
//! A run's `point` is its whole configuration with seed 0 ([`point_key`]): the same
//! run reached by two sweeps (two keys that give the same configuration) is one run.
//! Its seed is the run's own (the file's seed plus the replication).

use std::path::{Path, PathBuf};

use retry_storm::StormConfig;
use retry_storm::StormResult;
use retry_storm::chain::LayerLoad;
use retry_storm::metrics::BinRow;
use retry_storm::recovery::Summary;
use retry_storm::sim::Counts;
use serde::{Deserialize, Serialize};
use sim_host::store::{
    self as kit, Column, Layout, Merged, RunKey, SqlValue as Value, StoreError, real_value,
};
use sim_kit::output::table::{Cell, Row};

/// The version of the file layout.
pub const SCHEMA_VERSION: &str = "storm 2";

/// The version of the model whose results a file holds. Change it with any change
/// that changes a run's results (the golden outputs tell): a database is then refused
/// rather than mixing two models' results.
pub const MODEL_VERSION: &str = concat!("retry-storm ", env!("CARGO_PKG_VERSION"), ", model 2");

/// How the storm model's runs are stored (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Storm;

/// An open results database of storm runs.
pub type Store = kit::Store<Storm>;

/// One run of a storm sweep as the store sees it: the configuration (at replication
/// 0's seed), the swept key and its value.
#[derive(Clone, Debug)]
pub struct StormPoint {
    /// The run's configuration.
    pub config: StormConfig,
    /// The swept key, as `--sweep` named it.
    pub key: String,
    /// Its value, as given.
    pub value: String,
}

/// The identity of a configuration, its seed aside: its JSON with seed 0, then the
/// strategy and which defaults the file left as they are (both act on the run and
/// neither is in the JSON), each as Rust writes it for debugging: every field, so two
/// strategies that share a name but not their rules are two points.
pub fn point_key(c: &StormConfig) -> String {
    let mut c = c.clone();
    c.seed = 0;
    format!(
        "{}\nstrategy {:?}\ndefaulted {:?}",
        serde_json::to_string(&c).unwrap_or_default(),
        c.strategy,
        c.defaulted
    )
}

/// The key of a run of `c` (at replication 0) with `seed`.
pub fn run_key(c: &StormConfig, seed: u64) -> RunKey {
    RunKey {
        point: point_key(c),
        seed,
    }
}

/// A run's result but its configuration, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StormRecord {
    strategy: String,
    counts: Counts,
    summary: Summary,
    series: Vec<BinRow>,
    events: u64,
    layers: Vec<LayerLoad>,
}

impl StormRecord {
    /// The record of `r`.
    pub fn of(r: StormResult) -> Self {
        Self {
            strategy: r.strategy,
            counts: r.counts,
            summary: r.summary,
            series: r.series,
            events: r.events,
            layers: r.layers,
        }
    }

    /// The result it records, of the run of `config`.
    pub fn into_result(self, config: StormConfig) -> StormResult {
        StormResult {
            strategy: self.strategy,
            config,
            counts: self.counts,
            summary: self.summary,
            series: self.series,
            events: self.events,
            layers: self.layers,
        }
    }

    /// The events the run handled.
    pub fn events(&self) -> u64 {
        self.events
    }
}

/// The headline figures' columns, after the parameters (the record follows them).
const FIGURES: &[(&str, bool)] = &[
    ("events", true),
    ("offered", true),
    ("attempts", true),
    ("succeeded", true),
    ("timeouts", true),
    ("served", true),
    ("wasted", true),
    ("recover_s", false),
    ("drain_s", false),
    ("during_mean_amplification", false),
    ("during_success_ratio", false),
    ("after_success_ratio", false),
    ("load_during", false),
    ("load_after", false),
    ("load_peak", false),
];

impl Layout for Storm {
    type Point = StormPoint;
    type Record = StormRecord;

    const SCHEMA_VERSION: &'static str = SCHEMA_VERSION;
    const MODEL_VERSION: &'static str = MODEL_VERSION;

    fn parameters(p: &StormPoint) -> Vec<(String, Cell)> {
        vec![
            ("sweep_key".into(), Cell::Text(p.key.clone())),
            ("sweep_value".into(), Cell::Text(p.value.clone())),
            (
                "strategy".into(),
                Cell::Text(p.config.strategy.name.clone()),
            ),
        ]
    }

    fn parameter_names() -> Vec<String> {
        ["sweep_key", "sweep_value", "strategy"]
            .map(String::from)
            .to_vec()
    }

    fn results() -> Vec<Column> {
        FIGURES
            .iter()
            .map(|&(n, count)| Column::new(n, if count { "INTEGER NOT NULL" } else { "REAL" }))
            .chain([Column::new("record", "BLOB NOT NULL")])
            .collect()
    }

    fn encode(r: &StormRecord) -> (Vec<Value>, Vec<Vec<Value>>) {
        let count = |n: u64| Value::Integer(n as i64);
        let s = &r.summary;
        let mut blob = Vec::new();
        // Writing CBOR into a Vec cannot fail: every type here serializes.
        let _ = ciborium::into_writer(r, &mut blob);
        let values = vec![
            count(r.events),
            count(r.counts.offered),
            count(r.counts.attempts),
            count(r.counts.succeeded),
            count(r.counts.timeouts),
            count(r.counts.served),
            count(r.counts.wasted),
            real_value(s.recovery.seconds().unwrap_or(f64::NAN)),
            real_value(s.drain.seconds().unwrap_or(f64::NAN)),
            real_value(s.during.mean_amplification),
            real_value(s.during.success_ratio),
            real_value(s.after.success_ratio),
            real_value(s.load_during),
            real_value(s.load_after),
            real_value(s.load_peak),
            Value::Blob(blob),
        ];
        (values, Vec::new())
    }

    fn decode(v: &[Value], _: &[Vec<Value>]) -> Result<StormRecord, String> {
        match v.last() {
            Some(Value::Blob(b)) => {
                ciborium::from_reader(b.as_slice()).map_err(|_| "record".to_string())
            }
            _ => Err("record".into()),
        }
    }
}

/// Merge storm shard files into a new file `out`, as [`sim_host::store::merge`] does.
///
/// # Errors
///
/// As [`sim_host::store::merge`].
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Merged, StoreError> {
    kit::merge::<Storm>(out, inputs)
}

/// The runs of a storm results database as rows, as [`sim_host::store::read_runs`]
/// reads them (the record as its bytes).
///
/// # Errors
///
/// As [`sim_host::store::read_runs`].
pub fn read_runs(path: &Path) -> Result<(Row, Vec<Row>), StoreError> {
    kit::read_runs::<Storm>(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use retry_storm::presets::{Options, Source};

    /// A run's result comes back whole from its stored values, NaN included.
    #[test]
    fn a_result_is_stored_and_read_back_whole() {
        let sc = Source::preset("metastable")
            .unwrap()
            .scenario(&Options::default())
            .unwrap();
        let cfg = sc.runs[1].clone();
        let r = retry_storm::run(&cfg).unwrap();
        let (values, detail) = Storm::encode(&StormRecord::of(r.clone()));
        assert_eq!(values.len(), Storm::results().len());
        let back = Storm::decode(&values, &detail).unwrap().into_result(cfg);
        // As JSON: NaN is unequal to itself, its JSON `null` is not.
        let json = sim_kit::output::json::to_string;
        assert_eq!(json(&back), json(&r));
        assert!(Storm::decode(&values[..3], &detail).is_err());
        let mut bad = values.clone();
        bad[values.len() - 1] = Value::Blob(vec![0xff, 0x00]);
        assert_eq!(Storm::decode(&bad, &detail), Err("record".to_string()));
    }
}
