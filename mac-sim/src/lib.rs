//! # mac-sim
//!
//! A discrete-event simulator of N stations contending for one IEEE 802.3 half-duplex
//! bus with CSMA/CD, validated against the Metcalfe & Boggs analysis. Every BEB
//! decision is made by [`backoff_core`], the project's reference implementation of the
//! rule; the simulator has no second copy of it.
//!
//! ## Module map
//!
//! * [`engine`]: the event queue (`(time, sequence)` order) and run loop, generic
//!   over the [`engine::Model`].
//! * [`model::csma_cd`]: the exact model (carrier sense, propagation, collision
//!   detection, jam, backoff, drops) — [`model::csma_cd::run`].
//! * [`model::slotted`]: the idealised Metcalfe & Boggs model —
//!   [`model::slotted::run_slotted`].
//! * [`model::textbook`]: a slot-by-slot loop over all stations, the baseline.
//! * [`model::storm`]: the second model — retry storms of many service clients against
//!   one server (outages, pauses, partial failures, a failing shard), every client
//!   decision made by `backoff-core`'s policies, budgets, breakers and deadlines —
//!   [`model::storm::run`], the named scenarios in [`model::storm::presets`].
//! * [`config`], [`parse`], [`error`]: parameters, their command-line forms, and the
//!   one-line errors for bad ones.
//! * [`traffic`], [`backoff`]: frame sizes, Poisson arrivals, and the backoff
//!   algorithms compared with BEB.
//! * [`stats`], [`results`]: streaming statistics and the serialisable results.
//! * [`theory`]: Metcalfe & Boggs formulas and `E(c)`.
//! * [`output`]: the text report, CSV and JSON.
//! * [`bench`](mod@bench): the performance measurement behind `mac-sim bench`.
//! * [`sweep`]: parameter sweeps — a generic parallel, deterministic runner over
//!   points × replications with progress and Ctrl-C ([`sweep::runner`],
//!   [`sweep::progress`], [`sweep::range`]) and the CSMA/CD sweep on top of it
//!   ([`sweep::spec`], [`sweep::job`], [`sweep::summary`], [`sweep::execute`]).
//! * [`stats::ci`]: means with Student-t 95 % confidence intervals.
//! * [`plot`]: charts as PNG and SVG with a bundled font — generic line and bar charts
//!   ([`plot::line`], [`plot::bars`], [`plot::style`], [`plot::save`]) and the sweep
//!   and single-run charts ([`plot::sweep_charts`], [`plot::run_charts`]).
//! * [`output::atomic`]: files written under a temporary name and renamed when
//!   complete.
//!
//! ## Time, determinism
//!
//! Simulated time is an integer number of picoseconds ([`time::Time`]); no decision
//! depends on floating-point time. Random draws come from per-station xorshift
//! generators seeded from the run's seed by SplitMix64, exponential variates use a
//! logarithm built from `+ − × ÷` only ([`mathx::ln`]), and ties between events are
//! broken by scheduling order. The same parameters and seed therefore give
//! byte-identical reports on every machine.
//!
//! ## What an *event* is
//!
//! An event is one entry taken from the event queue and acted on by the model. In the
//! exact model there are three kinds: an **attempt** (a station with a frame senses
//! the carrier and transmits, waits out the interframe gap, or defers), a
//! **transmission end** (the end of a frame or of a jam, with the success or the
//! collision's backoff decision), and a **frame arrival** (Poisson traffic). A
//! transmission end superseded by an earlier collision is *stale*: it is discarded
//! without being counted. In the slotted model one event is one contention slot.
//!
//! ## Example
//!
//! ```
//! use mac_sim::{config::RunConfig, model::csma_cd, theory};
//! let cfg = RunConfig { stations: 2, duration_ps: 50_000_000_000, ..RunConfig::default() };
//! let r = csma_cd::run(&cfg).unwrap();
//! assert!(r.conservation.holds);
//! assert!(r.utilisation > 0.9 && r.utilisation < 1.0);
//! assert!(theory::mb_efficiency(2, 12144.0, 512.0) > 0.95);
//!
//! // The slotted model, e.g. to compare another MAC's throughput and collision rate.
//! let s = mac_sim::run_slotted(&mac_sim::SlottedConfig::new(10, 64 * 8, 512, 20_000, 1)).unwrap();
//! assert!((s.efficiency / s.predicted_efficiency - 1.0).abs() < 0.02);
//! assert!(s.collision_rate > 0.2 && s.collision_rate < 0.3);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod backoff;
pub mod bench;
pub mod bitset;
pub mod config;
pub mod engine;
pub mod error;
pub mod mathx;
pub mod model;
pub mod output;
pub mod parse;
pub mod plot;
pub mod results;
pub mod segtree;
pub mod stats;
pub mod sweep;
pub mod theory;
pub mod time;
pub mod traffic;

pub use config::RunConfig;
pub use error::ConfigError;
pub use model::slotted::{SlottedConfig, SlottedResult, run_slotted};
pub use results::RunResult;
