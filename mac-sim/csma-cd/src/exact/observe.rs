//! The exact model's observation hook: every step of a station's MAC, reported as a
//! [`TraceEvent`] to an [`Observer`].
//!
//! [`CsmaCd`](super::CsmaCd) is generic over its observer, with [`NoTrace`] as the
//! default: its [`ENABLED`](Observer::ENABLED) is `false`, so every hook call is
//! compiled out and an untraced run costs what it did before the hook existed.
//!
//! Stations are numbered `0..N` in order of position along the bus, from the cable's
//! start; the same numbers appear in the text report, the per-station results, the
//! traces, the pcap addresses and the charts.
//!
//! ```
//! use csma_cd::config::RunConfig;
//! use csma_cd::exact::{EventKind, Observer, TraceEvent};
//! use sim_kit::time::Time;
//!
//! #[derive(Default)]
//! struct Count { successes: u64 }
//! impl Observer for Count {
//!     fn observe(&mut self, e: &TraceEvent) {
//!         if e.kind == EventKind::Success { self.successes += 1; }
//!     }
//! }
//! let cfg = RunConfig { stations: 3, duration: Time::from_ms(20), ..RunConfig::default() };
//! let (r, count) = csma_cd::exact::run_with_observer(&cfg, Count::default()).unwrap();
//! assert_eq!(count.successes, r.conservation.delivered);
//! ```

use serde::Serialize;
use sim_kit::time::Time;

/// What happened to a station's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The station starts sending preamble, SFD and frame.
    Transmit,
    /// The station sensed carrier and holds its frame until the medium is free.
    Defer,
    /// The transmitting station detected a collision (time: the first foreign signal
    /// reached it); it finishes the preamble, then jams.
    Collision,
    /// The jam of a collided transmission ends; `backoff_slots` holds the slots drawn
    /// (none when the frame is dropped).
    JamEnd,
    /// The frame was delivered (time: its last bit left the station).
    Success,
    /// The frame is dropped after `attemptLimit` collided attempts.
    Drop,
}

impl EventKind {
    /// The name used in the trace files (`transmit`, `defer`, `collision`, `jam_end`,
    /// `success`, `drop`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Transmit => "transmit",
            Self::Defer => "defer",
            Self::Collision => "collision",
            Self::JamEnd => "jam_end",
            Self::Success => "success",
            Self::Drop => "drop",
        }
    }
}

/// One step of one station.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// When it happened.
    pub time: Time,
    /// The station, numbered `0..N` along the bus.
    pub station: u32,
    /// What happened.
    pub kind: EventKind,
    /// Collisions of the current frame so far (this one included for `Collision`,
    /// `JamEnd` and `Drop`).
    pub collisions: u32,
    /// Backoff slots drawn after this collision (`JamEnd` followed by a retry only).
    pub backoff_slots: Option<u32>,
    /// Size of the frame, address to FCS, in bits.
    pub frame_bits: u32,
    /// Head of queue to end of transmission (`Success` only).
    pub access_delay: Option<Time>,
}

/// Receives every step of the exact model, in the order the model takes them.
///
/// Events come in order of the model's event handling: times never decrease, except
/// that a `Collision` is reported together with the `JamEnd` that revealed it and
/// carries its (earlier) detection time.
pub trait Observer {
    /// `false` only for observers that want nothing: the model then skips building
    /// the events.
    const ENABLED: bool = true;

    /// One event.
    fn observe(&mut self, event: &TraceEvent);

    /// The model's statistics start afresh (the end of a `--warmup`, see
    /// [`CsmaCd::reset_statistics`](super::CsmaCd::reset_statistics)): an observer
    /// that measures clears its counts here, so that they cover the same events as
    /// the run's totals. A trace keeps every event (the default does nothing).
    fn reset(&mut self) {}
}

/// The observer of an untraced run: nothing, at no cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoTrace;

impl Observer for NoTrace {
    const ENABLED: bool = false;

    #[inline(always)]
    fn observe(&mut self, _event: &TraceEvent) {}
}

impl<O: Observer> Observer for Option<O> {
    const ENABLED: bool = O::ENABLED;

    #[inline]
    fn observe(&mut self, event: &TraceEvent) {
        if let Some(o) = self {
            o.observe(event);
        }
    }

    fn reset(&mut self) {
        if let Some(o) = self {
            o.reset();
        }
    }
}

impl<A: Observer, B: Observer> Observer for (A, B) {
    const ENABLED: bool = A::ENABLED || B::ENABLED;

    #[inline]
    fn observe(&mut self, event: &TraceEvent) {
        self.0.observe(event);
        self.1.observe(event);
    }

    fn reset(&mut self) {
        self.0.reset();
        self.1.reset();
    }
}

impl<O: Observer> Observer for &mut O {
    const ENABLED: bool = O::ENABLED;

    #[inline]
    fn observe(&mut self, event: &TraceEvent) {
        (**self).observe(event);
    }

    fn reset(&mut self) {
        (**self).reset();
    }
}
