//! # sim-host
//!
//! The parts of the project's simulators that need a host machine (threads, files, a
//! terminal, a clock) and know no model. The models themselves and everything they
//! compute are I/O-free in [`sim_kit`] and the model crates; this crate is the layer
//! that runs them on every core and writes what they produce.
//!
//! ## Module map
//!
//! * [`runner`]: the parallel, deterministic map over points × replications with
//!   cancellation ([`run_grid`](runner::run_grid)), a checked thread count ([`pool`]) and
//!   the terminal progress bar ([`runner::progress`]).
//! * [`output`]: files written whole or not at all ([`AtomicFile`]), sets of
//!   files that appear together or not at all ([`OutputSet`]), all the outputs of a
//!   command checked before any work ([`output::plan`]) and published together
//!   ([`Publication`]), and the temporaries a process stopped at once removes
//!   ([`output::temporaries`]).
//! * [`chart`]: line and bar charts as PNG and SVG, drawn with a bundled font so they
//!   render on a machine with no fonts, saved through [`output`].
//!
//! * [`memory`]: the room the host gives a process (the machine, its cgroup,
//!   `ulimit`) and a run's estimate checked against it, or a limit the user gives,
//!   before any work.
//!
//! * [`store`]: the results database of every model (SQLite): a sweep's runs stored
//!   as they finish, resumed and grown without recomputing, split into shards and
//!   merged ([`store::merge`]), every run read verified against its checksum; a model
//!   states only its [`store::Layout`].
//!
//! Inside the crate: `output` ← `chart`; `output`, `runner` ← `store`. A model's host layer
//! depends on this crate, never the reverse.

pub mod chart;
pub mod memory;
pub mod output;
pub mod runner;
pub mod store;

// The host kit's face: what the doors use, by name from the root. A few subjects are
// named as modules (`plan::check`, `temporaries::gate`), where a name alone would be
// too short to say what it does.
pub use chart::{file_names as chart_file_names, save as save_chart};
pub use memory::{Allowance, check as check_memory};
pub use output::plan::Output;
pub use output::temporaries::Abandoned;
pub use output::{AtomicFile, OutputError, OutputSet, Publication, check_file, plan, temporaries};
pub use runner::progress::{self, Steps};
pub use runner::{ThreadsError, pool};
pub use store::{Damage, StoreError, Unusable, model_of};
