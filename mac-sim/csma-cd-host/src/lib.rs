//! # csma-cd-host
//!
//! The CSMA/CD model of [`csma_cd`] on a host machine: what needs threads, files, a
//! database, a clock or a terminal. The model, its parameters, results, reports,
//! traces and captures are I/O-free in [`csma_cd`] (it builds for
//! `wasm32-unknown-unknown`); this crate runs them and writes what they produce.
//!
//! ## Module map
//!
//! * [`job`]: one run of the exact model in slices, cancellable, with its progress.
//! * [`sweep`]: sweeps on every core ([`run_sweep`]), the SQLite results
//!   database with its shards ([`sweep::store`]) and the sweep's charts
//!   ([`all_charts`](sweep::all_charts)).
//! * [`charts`]: the charts of one run (attempts histogram, per-station throughput,
//!   backoff versus `E(c)`, capture timeline).
//! * [`scenario_file`]: a scenario file read from disk.
//! * [`bench`](mod@bench): the measurement behind `mac-sim bench` (wall clock, peak
//!   memory).
//!
//! Dependencies run one way: `job` ← `sweep`; `charts`, `bench` and `scenario_file`
//! stand alone; all of them on [`csma_cd`], [`sim_kit`] and [`sim_host`].

pub mod bench;
pub mod charts;
pub mod job;
pub mod scenario_file;
pub mod sweep;

// The crate's face: what the doors use, by name from the root.
pub use bench::{BenchRow, bench_one, bench_steady, report as bench_report};
pub use charts::STEMS as CHART_STEMS;
pub use charts::{
    attempts_histogram, backoff_vs_expected, capture_timeline as capture_timeline_chart,
    file_names as run_chart_names, per_station_throughput,
};
pub use job::{run_observed, run_traced};
pub use scenario_file::load as load_scenario_file;
pub use sweep::store::{self as store, StoreError};
pub use sweep::{
    SweepError, SweepOptions, output_names, run_sweep, summarise, table as sweep_table,
};
