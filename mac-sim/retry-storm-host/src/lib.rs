//! # retry-storm-host
//!
//! The retry-storm model of [`retry_storm`] on a host machine: what needs threads,
//! files, charts, a clock or a terminal. The model, its configuration, strategies,
//! scenario files parsed from text, presets, metrics, recovery verdict and reports
//! are I/O-free in [`retry_storm`] (it builds for `wasm32-unknown-unknown`), as are
//! the descriptions of what runs several runs (the runs of a grid, of a sweep, and
//! how their results combine); this crate runs those on every core and writes what
//! they produce. The numbers are the engine's: the same on 1 or 64 threads.
//!
//! ## Module map
//!
//! * [`comparison`]: every strategy of a scenario, each over one or more seeds, on the
//!   shared parallel runner ([`run_grid`](sim_host::runner::run_grid)), with progress and
//!   cancellation.
//! * [`replicate`]: a scenario over several seeds, summarised with 95 % intervals.
//! * [`sweep`]: one parameter swept, every strategy at every value over the seeds,
//!   kept in a results database when given one (resumed, grown, sharded).
//! * `store`: the model's layout in the host kit's results database
//!   ([`sim_host::store`]): headline figures for queries and each run's whole record.
//! * [`contention`]: the contention experiment over several seeds.
//! * [`chart`]: the time-series panels of a scenario (one run or the mean over seeds),
//!   the contention chart and the sweep chart.
//! * [`files`]: the files of `mac-sim storm --out` (JSON, CSV and the charts), each
//!   written atomically.
//! * [`scenario_file`]: a scenario by preset name or file path, read from disk.
//!
//! Dependencies run one way: `comparison` ← `replicate`, `sweep`; `store` ← `sweep`; `chart` ← `files`;
//! `contention` and `scenario_file` stand alone; all of them on [`retry_storm`],
//! [`sim_kit`] and [`sim_host`].
//!
//! ```
//! use retry_storm::{presets, run_sequential};
//! use retry_storm_host::comparison::run_comparison;
//! let sc = presets::scenario("partial", &presets::Options::default()).unwrap();
//! let json = |r: &retry_storm::ComparisonResult| sim_kit::output::json::to_string(r);
//! assert_eq!(json(&run_comparison(&sc).unwrap()), json(&run_sequential(&sc).unwrap()));
//! ```

pub mod chart;
pub mod comparison;
pub mod contention;
pub mod files;
pub mod replicate;
pub mod scenario_file;
mod store;
pub mod sweep;

pub use comparison::{run_all, run_all_with, run_comparison, run_comparison_with};
// The rest of the crate's face: what the doors use, by name from the root.
pub use chart::trigger_window;
pub use contention::{run_contention_seeds_with, run_contention_sweep};
pub use files::{
    contention_files, contention_seeds_files, contention_sweep_files, replicated_files,
    scenario_files, sweep_files, write_contention, write_contention_seeds, write_contention_sweep,
    write_replicated, write_scenario, write_sweep,
};
pub use replicate::run_seeds_with;
pub use scenario_file::{policy_file, source as scenario_source};
pub use store::{MODEL_VERSION, Store, merge, read_runs};
pub use sweep::{Campaign, SweepError, run_stored_sweep, run_sweep};
