//! # csma-cd
//!
//! A discrete-event simulator of N stations contending for one IEEE 802.3 half-duplex
//! bus with CSMA/CD, validated against the Metcalfe & Boggs analysis. Every BEB
//! decision is made by [`backoff_core`], the project's reference implementation of the
//! rule; the simulator has no second copy of it. The event queue, time type and
//! statistics come from [`sim_kit`].
//!
//! The crate does no I/O: no file system, threads, database, charts or clock, so it
//! builds for `wasm32-unknown-unknown` and into any program. Traces and captures are
//! written to any `std::io::Write`. Running on every core, the results database,
//! charts and files are the host layer, the crate `csma-cd-host`.
//!
//! ## Module map
//!
//! The models, each in its own folder with its private helpers:
//!
//! * [`exact`]: the exact model (carrier sense, propagation, collision detection, jam,
//!   backoff, drops) — [`exact::run`]; its cable in [`exact::medium`] with the
//!   `bitset` and `segtree` indexes, its [`RunResult`].
//! * [`slotted`]: the idealised Metcalfe & Boggs model — [`slotted::run_slotted`].
//! * [`textbook`]: a slot-by-slot loop over all stations, the baseline of the bench.
//!
//! Their parameters and what they share:
//!
//! * [`scenario`]: the one schema of a run's parameters, [`Scenario`]: every
//!   parameter defined once (key, text form, unit, help), read from flags, scenario
//!   files (TOML) and a result's JSON, laid over the defaults, and turned into the
//!   model's [`RunConfig`] by [`Scenario::to_config`], whose [`FieldError`] names the
//!   parameter to blame.
//! * [`config`], [`parse`], [`error`]: the model's configuration, the parsers of
//!   values with units, and [`ConfigError`] for bad ones; [`ethernet`]: the IEEE
//!   802.3 media as presets (bit rate, slot, collision domain, carrier extension,
//!   frame bursting).
//! * `traffic` (private), [`backoff`]: frame sizes, Poisson arrivals, and the backoff
//!   algorithms compared with BEB.
//! * [`theory`]: Metcalfe & Boggs formulas and `E(c)`.
//!
//! What is made of the results:
//!
//! * [`table`]: results as rows of named cells, written as CSV or JSON with the same
//!   column names everywhere.
//! * `report`: the text report and CSV of one run.
//! * [`sweep`]: what a sweep is: its axes (any parameter of the schema) and points,
//!   each run's seed and identity, the records kept and the summaries with
//!   confidence intervals.
//! * [`trace`], [`capture`]: every step of an exact run as CSV or JSON lines, and the
//!   bus as a monitor would capture it (pcapng or pcap), both built on the
//!   [observation hook](exact::Observer).
//!
//! Dependencies run one way: `config` ← `scenario` ← models ← `report`, `sweep`.
//!
//! The crate root re-exports what most programs need: [`Scenario`], [`RunConfig`],
//! [`run`] and [`RunResult`], the slotted model, and the errors.
//!
//! ## Time, determinism
//!
//! Simulated time is an integer number of picoseconds ([`sim_kit::time::Time`]); no decision
//! depends on floating-point time. Random draws come from per-station xorshift
//! generators seeded from the run's seed by SplitMix64, exponential variates use a
//! logarithm built from `+ − × ÷` only ([`sim_kit::maths::ln`]), and ties between events are
//! broken by scheduling order. The same parameters and seed therefore give
//! byte-identical reports on every machine.
//!
//! ## What an *event* is
//!
//! An event is one entry taken from the event queue and acted on by the model. In the
//! exact model there are five kinds ([`exact::Event`]): an **attempt** (a station
//! with a frame senses the carrier and transmits, waits out the interframe gap, or
//! defers), a **transmission end** (the end of a frame or of a jam, with the success
//! or the collision's backoff decision), a **frame arrival** (Poisson traffic), a
//! **wake** (the carrier at a station that has just transmitted may have dropped:
//! its blind gap starts) and a **burst frame** (frame bursting's next frame). An
//! event superseded by a later decision (a transmission end moved earlier by a
//! collision, a wake for a station no longer listening) is *stale*: it is discarded
//! without being counted. In the slotted model one event is one contention slot.
//!
//! ## Example
//!
//! ```
//! use csma_cd::{config::RunConfig, exact, theory};
//! use sim_kit::time::Time;
//! let cfg = RunConfig { stations: 2, duration: Time::from_ms(50), ..RunConfig::default() };
//! let r = exact::run(&cfg).unwrap();
//! assert!(r.conservation.holds);
//! assert!(r.utilisation > 0.9 && r.utilisation < 1.0);
//! assert!(theory::mb_efficiency(2, 12144.0, 512.0) > 0.95);
//!
//! // The slotted model, e.g. to compare another MAC's throughput and collision rate.
//! let s = csma_cd::run_slotted(&csma_cd::SlottedConfig::new(10, 64 * 8, 512, 20_000, 1)).unwrap();
//! assert!((s.efficiency / s.predicted_efficiency - 1.0).abs() < 0.02);
//! assert!(s.collision_rate > 0.2 && s.collision_rate < 0.3);
//! ```

pub mod backoff;
pub mod capture;
pub mod config;
mod config_json;
pub mod error;
pub mod ethernet;
pub mod exact;
pub mod parse;
mod report;
pub mod scenario;
pub mod slotted;
pub mod sweep;
pub use sim_kit::output::table;
pub mod textbook;
pub mod theory;
pub mod trace;
mod traffic;

// The crate's face: what the doors (the command line, Python, the browser) and the
// host crate use, by name from the root.
pub use backoff::Backoff;
pub use capture::{CaptureError, CaptureFormat, PcapWriter};
pub use config::{BackoffAlgorithm, IfgRule, JamRule, Placement, RunConfig, Timing, Traffic};
pub use error::ConfigError;
pub use exact::{
    CaptureTimeline, CsmaCd, DEFAULT_WINDOWS, EventKind, MAX_STATIONS as MAX_PER_STATION, Observed,
    Observer, PerStation, RunResult, StationResult, TraceEvent, estimate_memory, positions, run,
    run_to, run_with_observer,
};
pub use report::csv::{
    SLOTTED_HEADER, per_station_rows, per_station_table, run_columns, run_csv, slotted_row,
};
pub use report::text::{
    per_station_table as per_station_report, run_report, slotted_report, theory_report,
};
pub use scenario::{FIELDS, FieldError, Scenario, ScenarioError, check_effect, has_effect};
pub use sim_kit::output::table::{Cell, Row};
pub use sim_kit::schema::Scalar;
pub use slotted::{SlottedConfig, SlottedResult, run_slotted};
pub use sweep::{
    Axis, METRICS as SWEEP_METRICS, RandomNumbers, Shard, SpecError, SweepSpec,
    from_lists as sweep_from_lists, memory as sweep_memory, row as point_row, run_row,
};
pub use theory::{beb_expected_backoff, checked_slot, mb_efficiency};
pub use trace::{TraceFormat, TraceWriter};
