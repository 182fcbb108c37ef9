//! The exact CSMA/CD model: N stations on one bus, with propagation delay.
//!
//! # Physics
//!
//! Station `i` sits at propagation distance `pᵢ` (the propagation delay from one end
//! of the cable); a signal started at `s` by station `k` reaches station `i` at
//! `s + |pᵢ − p_k|`. A station *senses carrier* at time `t` when some signal's front
//! reached it strictly before `t` and its tail has not yet passed, so two stations that
//! start at the same instant at the same point both see an idle medium and collide.
//!
//! # Protocol (1-persistent, IEEE 802.3 clause 4.2.3)
//!
//! * A station with a frame *attempts*: it transmits preamble + SFD + frame unless it
//!   must defer. **Deference** follows IEEE 802.3 clause 4.2.3.2.1 by default (the
//!   gap split into a first part, where carrier defers, and a second part, where it
//!   is ignored; the gap after the station's own frame timed blind; carrier watched
//!   at the station's own position), or an alternative named by
//!   [`IfgRule`](crate::config::IfgRule): see [`deference`] for the rules and how
//!   they are computed.
//! * A transmitter that sees another signal arrive, or starts while one is present,
//!   **detects a collision**: it finishes the preamble if still sending it, sends the
//!   32-bit jam and stops (clause 4.2.3.2.4; or jams at once under
//!   [`JamRule::Immediate`](crate::config::JamRule::Immediate)).
//! * After the c-th collision of a frame it asks the backoff algorithm (for BEB:
//!   `backoff_core::BebConfig::decide`) and waits `r` slots, or drops the frame after
//!   `attemptLimit` attempts. The counter restarts with each frame.
//! * After a success (or drop) the next frame is attempted one interframe gap later.
//!
//! # Layout
//!
//! * [`medium`]: the cable: signals, carrier sense and collision detection, in
//!   `O(log N)` per question (see its docs for why looking at the nearest signals in
//!   flight is enough).
//! * `placement`: station positions.
//! * `bitset`, `segtree`: the medium's private indexes (stations by state, the
//!   signal fronts in flight).
//! * `backoff_stats`: the mean backoff after the c-th collision, with its standard
//!   error, checked against `E(c)`.
//! * `results`: [`RunResult`], everything a run measured, serialisable.
//! * [`deference`]: when a station with a frame may transmit.
//! * `observe`: the observation hook, every step of every station as a
//!   [`TraceEvent`] (traces and per-station results build on
//!   it).
//! * `memory`: what a run holds at its peak, estimated from its parameters
//!   before it starts.
//! * `per_station`, `capture_timeline`: per-station results and the capture
//!   effect over time, collected through that hook.
//! * `station`: a station's [`Event`]s and the state it keeps between them.
//! * `model`: [`CsmaCd`], what it holds and how it is built (placement, the medium
//!   and its carrier-sense method, the traffic), and what it tells its observer.
//! * `mac`: the stations' MAC (transmission, collision, backoff, drops, frame
//!   bursts), the traffic, and the dispatch of events.
//! * `measure`: the measurements, started afresh after a warm-up and assembled into
//!   a [`RunResult`].
//! * `runs`: [`run_to`], [`run`] and [`run_with_observer`].
//!
//! This module holds declarations and re-exports only.
//!
//! No station is polled: a deferring station waits on the transmission whose tail
//! must pass it before its carrier can drop, and the carrier history at its position
//! then decides.

pub(crate) mod backoff_stats;
pub(crate) mod bitset;
pub(crate) mod capture_timeline;
pub mod deference;
mod mac;
mod measure;
pub mod medium;
pub(crate) mod memory;
mod model;
pub(crate) mod observe;
pub(crate) mod per_station;
pub(crate) mod placement;
pub(crate) mod results;
mod runs;
pub(crate) mod segtree;
mod station;

pub use backoff_stats::{BackoffRow, BackoffStats, MAX_TRACKED};
pub use capture_timeline::{CaptureTimeline, CaptureWindow, DEFAULT_WINDOWS};
pub use memory::{Observed, estimate as estimate_memory};
pub use model::{CsmaCd, INDEXED_SENSE_FROM};
pub use observe::{EventKind, NoTrace, Observer, TraceEvent};
pub use per_station::{MAX_STATIONS, PerStation, StationResult, TooManyStations};
pub use placement::positions;
pub use results::{Conservation, RunResult};
pub use runs::{run, run_to, run_with_observer};
pub use station::Event;
