//! # sim-kit
//!
//! The parts of the project's simulators that know no model: a CSMA/CD bus and a
//! fleet of retrying service clients are both built from these pieces, and nothing
//! here depends on either.
//!
//! ## Module map
//!
//! * [`time`]: [`Time`], simulated time in whole picoseconds, a type that carries its
//!   unit (named constructors and accessors), its signed counterpart [`SignedTime`]
//!   (coordinates that may lie before time zero), and the parser of durations with a
//!   unit.
//! * [`engine`]: the deterministic event queue (`(time, sequence)` order) and the run
//!   loop, generic over an [`engine::Model`].
//! * [`maths`]: deterministic floating-point helpers (a logarithm from `+ − × ÷` only,
//!   exponential and geometric variates) and [`maths::split_seed`], the one way seeds
//!   are derived.
//! * [`stats`]: streaming statistics (a log-linear [`stats::Histogram`], Jain's index
//!   and the capture share in [`stats::Capture`]) and means with Student-t 95 %
//!   intervals ([`stats::Estimate`]).
//! * [`memory`]: [`memory::Bytes`], a size with its unit, and
//!   [`memory::MemoryEstimate`], a run's peak memory as named parts sized from its
//!   parameters, so that a run that cannot fit is refused before it starts.
//! * [`progress`]: what a long run reports ([`progress::Snapshot`]) to a
//!   [`progress::Progress`], and the time left and rate of a display.
//! * [`locate`]: where a key is in a scenario file's text (line and key for the
//!   messages of every model's scenario files).
//! * [`range`]: value lists for sweep axes (`1..=1024:x2`, `0.1..=1.0:0.1`).
//! * [`shard`]: a sweep split over machines (`--shard K/N`), its runs dealt out by
//!   their expected cost; [`hash`]: FNV-1a, the stable hash of run and campaign
//!   identities.
//! * [`schema`](mod@schema): the one schema engine: a model's table of parameters, written once
//!   with [`schema!`](macro@schema), gives its `Scenario` type, text forms, files, columns and the
//!   reference that every door uses.
//! * [`sweep`]: the one sweep specification of every model ([`sweep::SweepSpec`]: a
//!   base, the [`schema::Axis`]es, replications and their seeds), the model giving
//!   only how a point becomes its checked configuration ([`sweep::Sweepable`]).
//! * [`output`]: formats written to any `std::io::Write`: JSON ([`output::json`]) and
//!   packet captures, pcapng and pcap ([`output::CaptureWriter`]), and results tables as CSV
//!   or JSON ([`output::table`]).
//!
//! The kit does no I/O: no file system, no threads, no clock, no terminal; it builds
//! for `wasm32-unknown-unknown`. What needs a host (the parallel runner, files written
//! whole or not at all, terminal progress, charts) is the crate `sim-host`, built on
//! this one.
//!
//! The layering inside the kit runs one way: `time` ← `engine`, `stats`, `output`;
//! `maths`, `memory`, `hash`, `shard`, `progress`, `locate` and `range` stand alone; `schema` builds on
//! `range`, `time` and `output`; `sweep` on `schema`, `maths` and `hash`. A model crate depends on the
//! kit, never the reverse.
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

pub mod engine;
pub mod hash;
pub mod locate;
pub mod maths;
pub mod memory;
pub mod output;
pub mod progress;
pub mod range;
pub mod schema;
pub mod shard;
pub mod stats;
pub mod sweep;
pub mod time;

pub use time::{SignedTime, Time};
// The kit's face: what the doors use, by name from the root.
pub use engine::Engine;
pub use locate::line_of_key;
pub use memory::{Bytes, BytesParseError, MemoryEstimate};
pub use output::UnknownFormat;
pub use output::json;
pub use progress::{Progress, Snapshot};
pub use schema::{Axis, Field, Schema};
pub use shard::Shard;
