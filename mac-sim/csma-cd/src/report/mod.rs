//! What one run of the exact model (and the slotted model, and the analytic tables)
//! looks like to a reader and to a program.
//!
//! * [`text`]: the human-readable reports;
//! * [`csv`]: one header and one row per run (one per station with
//!   `--per-station`).
//!
//! JSON is the results' own `serde` form, written by [`sim_kit::output::json`]; the
//! charts of a run are the host layer's (`csma_cd_host::charts`).

pub mod csv;
pub mod text;
