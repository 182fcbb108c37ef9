//! Parameter sweeps of the exact model, as data: which points and replications a
//! sweep has, each run's identity and seed, what it keeps of a run and how the runs
//! of a point are summarised. Running them on every core, the results database and
//! the sweep's files and charts are the host layer's (`csma_cd_host::sweep`).
//!
//! * `spec`: the swept parameters and their command-line forms;
//! * `key`: a run's identity: its point's canonical text and the hashes on it;
//! * `record`: what a sweep keeps of a replication;
//! * `shard`: the deterministic slice of a sweep's runs that one shard runs;
//! * `summary`: per-point means and 95 % intervals, CSV and JSON.

mod key;
mod record;
mod shard;
mod spec;
mod summary;

pub use key::point_key;
pub use record::{METRICS, Metric, RunRecord, drop_rate};
pub use shard::{MAX_SHARDS, Shard, ShardParseError, assign, expected_cost};
pub use spec::{
    Axis, CHART_AXES, DEFAULT_STATIONS, MAX_RUNS, RandomNumbers, SpecError, SweepSpec, from_lists,
    memory,
};
pub use summary::{PointSummary, row, run_row, to_csv, to_json};
