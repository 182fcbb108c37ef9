//! What a run of the exact model holds at its peak, from its parameters alone: the
//! stations, their queues (Poisson traffic), the cable's lists, the event queue, and
//! what the observers a command adds keep (per-station results, the capture
//! timeline). Each part is an upper bound: a list that holds at most one entry per
//! station counts twice that for the doubling of its capacity.
//!
//! ```
//! use csma_cd::config::RunConfig;
//! use csma_cd::exact::{Observed, estimate_memory};
//! use sim_kit::memory::Bytes;
//! let small = estimate_memory(&RunConfig::default(), Observed::default());
//! assert!(small.total() < Bytes::mib(1));
//! let big = RunConfig { stations: 1 << 22, ..RunConfig::default() };
//! let e = estimate_memory(&big, Observed::default());
//! assert!(e.total() > Bytes::gib(1), "{e}");
//! ```

use std::collections::VecDeque;

use sim_kit::memory::{Bytes, MemoryEstimate};
use sim_kit::time::Time;

use super::capture_timeline::CaptureWindow;
use super::medium::{self, SenseMethod};
use super::model::INDEXED_SENSE_FROM;
use super::station::{Event, Station};
use crate::config::{IfgRule, RunConfig, Traffic};

/// What a command observes of a run besides its results, each adding to its memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// Each station's results (`--per-station`).
    pub per_station: bool,
    /// The capture timeline of this many windows (`--plot`).
    pub timeline_windows: Option<u32>,
}

/// Pending events per station at most: its attempt or timer, its end of
/// transmission, a burst frame and a wake-up, each possibly left stale once.
const EVENTS_PER_STATION: u64 = 8;

/// A run of `cfg` with `observed`: its parts (see the module docs).
pub fn estimate(cfg: &RunConfig, observed: Observed) -> MemoryEstimate {
    let n = u64::from(cfg.stations);
    let mut m = MemoryEstimate::new();
    m.add("stations", Bytes::of::<Station>(n));
    let method = if cfg.stations >= INDEXED_SENSE_FROM {
        SenseMethod::Indexed
    } else {
        SenseMethod::Walk
    };
    m.add(
        "cable",
        medium::memory_bound(n, method) + Bytes::of::<Time>(n).times(2),
    );
    if cfg.ifg_rule != IfgRule::Restart {
        // A waiter list per station; a station waits on one transmission at a time.
        m.add(
            "deference",
            Bytes::of::<Vec<u32>>(n) + Bytes::growable::<u32>(n) + Bytes::growable::<u32>(n),
        );
    }
    if let Traffic::Poisson { .. } = cfg.traffic {
        // Every queue full, but never more frames than the run is offered.
        let held = u64::from(cfg.queue_limit)
            .saturating_mul(n)
            .min(arrivals_bound(cfg));
        m.add(
            "queues",
            Bytes::of::<VecDeque<(Time, u32)>>(n) + Bytes::growable::<(Time, u32)>(held),
        );
    }
    m.add(
        "event queue",
        event_queue::<Event>(EVENTS_PER_STATION.saturating_mul(n) + 16),
    );
    m.add(
        "statistics",
        // Capture counts and ring, the attempts histogram, two delay histograms.
        Bytes::of::<u32>(n + u64::from(cfg.capture_window)).times(2)
            + Bytes::of::<u64>(u64::from(cfg.attempt_limit))
            + Bytes::kib(128),
    );
    if observed.per_station {
        // Only a station that delivered a frame fills its histogram, and the bus
        // carries one frame at a time.
        let filled = n.min(successes_bound(cfg));
        m.add(
            "per-station results",
            Bytes::new(filled.saturating_mul(histogram_bytes(cfg.duration)))
                + Bytes::new(n.saturating_mul(256)),
        );
    }
    if let Some(w) = observed.timeline_windows {
        let w = u64::from(w.max(1));
        m.add(
            "capture timeline",
            Bytes::of::<CaptureWindow>(w)
                + Bytes::of::<u32>(n).times(2)
                + Bytes::of::<u64>(n)
                + Bytes::growable::<(u32, u32, u32)>(w.saturating_mul(n)),
        );
    }
    m
}

/// A radix-heap event queue (`sim_kit::engine::EventQueue`) of at most `pending` events: its buckets together hold
/// each event once, and the bucket being split and the ones it empties into may
/// each have had capacity for all of them.
fn event_queue<E>(pending: u64) -> Bytes {
    Bytes::growable::<(Time, u64, E)>(pending).times(2)
}

/// Frames a run can be offered at most (Poisson traffic): every frame of the
/// shortest size at the offered load, for the whole duration, with room for the
/// randomness of arrivals.
fn arrivals_bound(cfg: &RunConfig) -> u64 {
    let Traffic::Poisson { load } = cfg.traffic else {
        return 0;
    };
    let min_bits = (cfg.frames.min_bytes().max(1) as f64) * 8.0;
    let mean = load * cfg.phy.bit_rate as f64 * cfg.duration.as_secs_f64() / min_bits;
    (2.0 * mean + 1024.0).min(u64::MAX as f64) as u64
}

/// Frames a run can deliver at most: the bus carries one at a time, each at least a
/// frame of the shortest size.
fn successes_bound(cfg: &RunConfig) -> u64 {
    let bits = u64::from(cfg.frames.min_bytes().max(1)) * 8;
    let secs = cfg.duration.as_secs_f64();
    (secs * cfg.phy.bit_rate as f64 / bits as f64 + 1.0).min(u64::MAX as f64) as u64
}

/// A station's delay histogram: 4 bytes for each of 32 buckets per power of two of
/// the delays it has seen (at most the run's duration), twice over for its growth.
fn histogram_bytes(duration: Time) -> u64 {
    let powers = u64::from(64 - duration.as_ps().max(1).leading_zeros()) + 1;
    2 * 4 * 32 * powers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_grow_with_their_parameters() {
        let base = RunConfig::default();
        let at = |cfg: &RunConfig, o| estimate(cfg, o).total();
        let more = RunConfig {
            stations: base.stations * 100,
            ..base.clone()
        };
        assert!(at(&more, Observed::default()) > at(&base, Observed::default()));
        let with_stations = Observed {
            per_station: true,
            ..Observed::default()
        };
        assert!(at(&base, with_stations) > at(&base, Observed::default()));
        let poisson = RunConfig {
            traffic: Traffic::Poisson { load: 0.5 },
            ..base.clone()
        };
        let names: Vec<_> = estimate(&poisson, Observed::default())
            .parts()
            .iter()
            .map(|p| p.0)
            .collect();
        assert!(names.contains(&"queues"), "{names:?}");
    }
}
