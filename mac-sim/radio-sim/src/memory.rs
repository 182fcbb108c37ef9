//! What one radio run holds at its peak, from its configuration alone: every
//! station's MAC, host queue and traffic stream; who hears whom (a power for every
//! pair of stations and each station's neighbours); the channel's packets in the air
//! and each station's inbox; the pending events; and each frame's fate, one byte per
//! frame a station generates at its sender and one at its destination, at most the
//! frames that fit in the run (the run's time over a frame's air time, at the offered
//! load when it is above one frame at a time), twice over for the randomness of
//! arrivals and the doubling of capacity.
//!
//! ```
//! use radio_sim::{RadioConfig, estimate_memory};
//! use sim_kit::time::Time;
//! let day = RadioConfig { duration: Time::from_secs(86_400), ..RadioConfig::default() };
//! assert!(estimate_memory(&day).total() > estimate_memory(&RadioConfig::default()).total());
//! ```

use sim_kit::memory::{Bytes, MemoryEstimate};

use crate::config::{MAX_PAYLOAD, RadioConfig, mac_config};
use crate::driver::station_and_event_bytes;
use crate::sweep::Point;

/// The run `c`: its parts (see the module docs).
pub fn estimate(c: &RadioConfig) -> MemoryEstimate {
    let n = u64::from(c.stations);
    let (station, event) = station_and_event_bytes(c.queue);
    let mut m = MemoryEstimate::new();
    m.add("stations", station.times(n));
    m.add(
        "topology",
        Bytes::of::<Option<f32>>(n * n) + Bytes::of::<usize>(n * n) + Bytes::of::<Vec<usize>>(n),
    );
    m.add(
        "channel",
        Bytes::new(n * (4 + 1) * (MAX_PAYLOAD as u64 + 32)).times(2),
    );
    m.add("event queue", event.times(8 * n + 16).times(2));
    let air_ns = c
        .phy_config()
        .and_then(|base| mac_config(&c.rule, base))
        .map(|mc| mc.air_time_ns(usize::from(c.payload) + radio_mac::frame::OVERHEAD))
        // A rule that cannot run is its check's to refuse, not the estimate's.
        .unwrap_or(u64::MAX)
        .max(1);
    let run_ns = c.warmup.as_ns().saturating_add(c.duration.as_ns());
    let frames = (run_ns as f64 / air_ns as f64 * c.load.max(1.0) * 2.0 + 1024.0)
        .min(u64::MAX as f64) as u64;
    m.add("frames' fates", Bytes::growable::<u8>(frames).times(2 * n));
    m.add("statistics", Bytes::kib(128) + Bytes::new(256).times(n));
    m
}

/// A sweep's `points` on `threads` threads at once (the largest first), each finished
/// point's result kept.
pub fn of_points(points: &[Point], threads: usize) -> MemoryEstimate {
    let running: Vec<MemoryEstimate> = points.iter().map(|p| estimate(&p.config)).collect();
    let kept: Bytes = points
        .iter()
        .map(|p| Bytes::new(256).times(u64::from(p.config.stations)) + Bytes::kib(4))
        .sum();
    MemoryEstimate::at_once(&running, threads, kept)
}
