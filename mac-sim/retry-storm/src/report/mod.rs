//! Reports of `mac-sim storm`, each a string: text summaries, CSV (summaries and time
//! series) and, through [`sim_kit::output::json`], JSON. Writing them and the charts
//! into the files of `--out` is the host layer's (`retry_storm_host::files`).
//!
//! One file per subject, each with its text and CSV forms: `describe` (the list of
//! scenarios, a run's parameters in a line), `scenario_result` (a scenario with one
//! seed), `replicated` (over seeds), `contention` (the contention experiment),
//! `sweep` (a sweep, also as JSON); `format` holds the number formats they share.

mod contention;
mod describe;
mod format;
mod replicated;
mod scenario_result;
mod sweep;

pub use contention::{
    CONTENTION_TITLE, contention_csv, contention_heading, contention_report, contention_seeds_csv,
    contention_seeds_report, contention_seeds_sweep_report, contention_sweep_csv,
    contention_sweep_json, contention_sweep_report,
};
pub use describe::{describe, list};
pub use replicated::{
    REPLICATED_HEADER, REPLICATED_SERIES_HEADER, replicated_csv, replicated_report,
    replicated_series_csv,
};
pub use scenario_result::{SERIES_HEADER, SUMMARY_HEADER, report, series_csv, summary_csv};
pub use sweep::{SWEEP_HEADER, sweep_csv, sweep_json, sweep_report};
