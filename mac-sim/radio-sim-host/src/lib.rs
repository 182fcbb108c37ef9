//! # radio-sim-host
//!
//! The radio MAC model (`radio-sim`) on a host machine, beside the engine crate as
//! `csma-cd-host` and `retry-storm-host` are beside theirs: what needs threads or
//! charts, and nothing of the model itself.
//!
//! * [`sweep`]: a sweep's points on every core, deterministic whatever the number
//!   of threads, with progress and cancellation, kept in a results database when
//!   given one (resumed, grown, sharded).
//! * [`store`]: the model's layout in the host kit's results database
//!   ([`sim_host::store`]): every figure of a run and its stations' rows.
//! * [`checks`]: the checks against the literature (Bianchi, pure ALOHA,
//!   non-persistent CSMA, hidden terminals) as tables, CSV and charts.

pub mod checks;
pub mod store;
pub mod sweep;

// The crate's face: what the doors use, by name from the root.
pub use checks::{NAMES as CHECKS, check};
pub use store::{MODEL_VERSION, Store, merge, read_runs};
pub use sweep::{Campaign, SweepError, run as run_sweep};
