//! # sim-kit
//!
//! The parts of the project's simulators that know no model: a CSMA/CD bus and a
//! fleet of retrying service clients are both built from these pieces, and nothing
//! here depends on either.
//!
//! ## Module map
//!
//! * [`time`]: [`Time`], simulated time in whole picoseconds, a type that carries its
//!   unit (named constructors and accessors), and the parser of durations with a unit.
//! * [`engine`]: the deterministic event queue (`(time, sequence)` order) and the run
//!   loop, generic over an [`engine::Model`].
//! * [`maths`]: deterministic floating-point helpers (a logarithm from `+ − × ÷` only,
//!   exponential and geometric variates) and [`maths::split_seed`], the one way seeds
//!   are derived.
//! * [`stats`]: streaming statistics (a log-linear [`stats::Histogram`], Jain's index
//!   and the capture share in [`stats::fairness`]) and means with Student-t 95 %
//!   intervals ([`stats::ci`]).
//! * [`runner`]: the parallel, deterministic map over points × replications with
//!   cancellation ([`runner::grid`]) and the progress reporters it drives
//!   ([`runner::progress`]).
//! * [`range`]: value lists for sweep axes (`1..=1024:x2`, `0.1..=1.0:0.1`).
//! * [`output`]: files written whole or not at all ([`output::atomic`]), JSON
//!   ([`output::json`]) and packet captures, pcapng and pcap ([`output::pcap`]).
//! * [`chart`]: line and bar charts as PNG and SVG, drawn with a bundled font so they
//!   render on a machine with no fonts.
//!
//! The layering inside the kit runs one way: `time` ← `engine`, `stats`; `maths` ←
//! `runner`; `time` ← `output` ← `chart`. A model crate depends on the kit, never the reverse.
//!
//! ## Example: a model on the engine
//!
//! ```
//! use sim_kit::engine::{Engine, EventQueue, Model};
//! use sim_kit::time::Time;
//! struct Ticker { ticks: u32 }
//! impl Model for Ticker {
//!     type Event = ();
//!     fn handle(&mut self, now: Time, _ev: (), q: &mut EventQueue<()>) -> bool {
//!         self.ticks += 1;
//!         q.schedule(now + Time::from_ns(10), ());
//!         true
//!     }
//! }
//! let mut engine = Engine::new(Ticker { ticks: 0 });
//! engine.queue_mut().schedule(Time::ZERO, ());
//! engine.run_until(Time::from_ns(95));
//! assert_eq!(engine.model().ticks, 10);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(clippy::missing_errors_doc)]

pub mod chart;
pub mod engine;
pub mod maths;
pub mod output;
pub mod range;
pub mod runner;
pub mod stats;
pub mod time;

pub use time::Time;
