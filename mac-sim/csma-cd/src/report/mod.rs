//! What one run of the exact model (and the slotted model, and the analytic tables)
//! looks like to a reader and to a program.
//!
//! * [`text`]: the human-readable reports;
//! * [`csv`]: one header and one row per run (one per station with
//!   `--per-station`);
//! * [`charts`]: attempts histogram, per-station throughput, backoff versus `E(c)`
//!   and the capture timeline of one run.
//!
//! JSON is the results' own `serde` form, written by [`sim_kit::output::json`].

pub mod charts;
pub mod csv;
pub mod text;
