//! Per-station results (`mac-sim run --per-station`): an [`Observer`] that counts
//! each station's deliveries, drops, collided attempts and access delays.
//!
//! Stations are numbered `0..N` in order of position along the bus (see
//! [`observe`](super::observe)), as in every report, trace and chart. The counts
//! restart when the model's statistics do ([`Observer::reset`], the end of a
//! warm-up), so the stations' sums are the run's totals. Throughput comes from the
//! delivered bits the model already keeps per station (for Jain's index).
//!
//! Memory: each station keeps four counters and a
//! [`CompactHistogram`] of its access delays, which grows only over the range of
//! delays the station saw (about 2 KiB for delays from 50 µs to 1 s; at most 8 KiB).
//! Runs above [`MAX_STATIONS`] stations are refused.
//!
//! ```
//! use csma_cd::config::RunConfig;
//! use csma_cd::exact::{CsmaCd, PerStation};
//! use sim_kit::{engine::Engine, time::Time};
//! let cfg = RunConfig { stations: 4, duration: Time::from_ms(50), ..RunConfig::default() };
//! let (model, q) = CsmaCd::with_observer(&cfg, PerStation::new(4).unwrap()).unwrap();
//! let mut e = Engine::with_queue(model, q);
//! e.run_until(cfg.duration);
//! let m = e.model();
//! let rows = m.observer().results(&m.delivered_bits_per_station(), cfg.duration);
//! assert_eq!(rows.iter().map(|s| s.delivered).sum::<u64>(), m.delivered());
//! assert_eq!(rows[3].station, 3);
//! ```

use std::fmt;

use serde::Serialize;
use sim_kit::stats::CompactHistogram;
use sim_kit::time::{PS_PER_US, Time};

use super::observe::{EventKind, Observer, TraceEvent};

/// The most stations a per-station run may have: one row and one delay histogram
/// each (up to 8 KiB, so at most 512 MiB), and a table nobody reads beyond this.
pub const MAX_STATIONS: u32 = 1 << 16;

/// One station's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StationResult {
    /// The station, `0..N` along the bus.
    pub station: u32,
    /// Delivered frame bits per second, Mb/s.
    pub throughput_mbps: f64,
    /// Frames delivered.
    #[serde(rename = "delivered_frames")]
    pub delivered: u64,
    /// Frames dropped after `attemptLimit` collided attempts.
    #[serde(rename = "dropped_frames")]
    pub dropped: u64,
    /// Attempts of this station that collided.
    #[serde(rename = "collided_attempts")]
    pub collisions: u64,
    /// Mean access delay (head of queue to end of successful transmission), µs;
    /// undefined (NaN) without deliveries.
    pub access_delay_mean_us: f64,
    /// 99th percentile of the access delay, µs, within 1.6 % (see
    /// [`CompactHistogram`]); undefined (NaN) without deliveries.
    pub access_delay_p99_us: f64,
}

#[derive(Clone, Debug, Default)]
struct Tally {
    delivered: u64,
    dropped: u64,
    collisions: u64,
    access: CompactHistogram,
}

/// Too many stations for per-station results (more than [`MAX_STATIONS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyStations(pub u32);

impl fmt::Display for TooManyStations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "--per-station takes at most {MAX_STATIONS} stations (one row and one delay histogram each), not {}",
            self.0
        )
    }
}

impl std::error::Error for TooManyStations {}

/// Collects [`StationResult`]s from a run's events.
#[derive(Clone, Debug)]
pub struct PerStation {
    tallies: Vec<Tally>,
}

impl PerStation {
    /// For `stations` stations.
    ///
    /// # Errors
    ///
    /// [`TooManyStations`] above [`MAX_STATIONS`].
    pub fn new(stations: u32) -> Result<Self, TooManyStations> {
        if stations > MAX_STATIONS {
            return Err(TooManyStations(stations));
        }
        Ok(Self {
            tallies: vec![Tally::default(); stations as usize],
        })
    }

    /// The results, one per station in order, given the frame bits each delivered
    /// (the model's [`delivered_bits_per_station`](super::CsmaCd::delivered_bits_per_station))
    /// over `elapsed` measured time.
    pub fn results(&self, delivered_bits: &[u64], elapsed: Time) -> Vec<StationResult> {
        let secs = elapsed.as_secs_f64().max(f64::MIN_POSITIVE);
        // Undefined (NaN) for a station that delivered nothing.
        let delay = |t: &Tally, ps: f64| {
            if t.access.count() == 0 {
                f64::NAN
            } else {
                ps / PS_PER_US as f64
            }
        };
        self.tallies
            .iter()
            .enumerate()
            .map(|(i, t)| StationResult {
                station: i as u32,
                throughput_mbps: delivered_bits.get(i).copied().unwrap_or(0) as f64 / secs / 1e6,
                delivered: t.delivered,
                dropped: t.dropped,
                collisions: t.collisions,
                access_delay_mean_us: delay(t, t.access.mean_ps()),
                access_delay_p99_us: delay(t, t.access.percentile(0.99).as_ps() as f64),
            })
            .collect()
    }
}

impl Observer for PerStation {
    fn observe(&mut self, e: &TraceEvent) {
        let Some(t) = self.tallies.get_mut(e.station as usize) else {
            return;
        };
        match e.kind {
            EventKind::Success => {
                t.delivered += 1;
                if let Some(d) = e.access_delay {
                    t.access.record(d);
                }
            }
            EventKind::Collision => t.collisions += 1,
            EventKind::Drop => t.dropped += 1,
            EventKind::Transmit | EventKind::Defer | EventKind::JamEnd => {}
        }
    }

    fn reset(&mut self) {
        self.tallies.iter_mut().for_each(|t| *t = Tally::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{RunConfig, Traffic};
    use crate::exact::CsmaCd;
    use sim_kit::engine::Engine;

    /// Run `cfg` with per-station results (warm-up included).
    fn run(cfg: &RunConfig) -> (crate::RunResult, Vec<StationResult>) {
        let (model, q) =
            CsmaCd::with_observer(cfg, PerStation::new(cfg.stations).unwrap()).unwrap();
        let mut e = Engine::with_queue(model, q);
        crate::exact::run_to(&mut e, cfg.duration);
        let m = e.model();
        let r = m.result(cfg.measured(), e.events(), e.stale_events());
        let rows = m
            .observer()
            .results(&m.delivered_bits_per_station(), cfg.measured());
        (r, rows)
    }

    fn check_sums(cfg: &RunConfig) {
        let (r, rows) = run(cfg);
        assert_eq!(rows.len(), cfg.stations as usize);
        assert!(rows.iter().enumerate().all(|(i, s)| s.station == i as u32));
        let sum = |f: fn(&StationResult) -> u64| rows.iter().map(f).sum::<u64>();
        assert_eq!(sum(|s| s.delivered), r.conservation.delivered);
        assert_eq!(sum(|s| s.dropped), r.conservation.dropped_excessive);
        assert!(r.conservation.dropped_excessive > 0, "attemptLimit 3 drops");
        assert_eq!(sum(|s| s.collisions), r.collided_attempts);
        let tp: f64 = rows.iter().map(|s| s.throughput_mbps).sum();
        assert!((tp - r.throughput_mbps).abs() < 1e-9 * r.throughput_mbps.max(1.0));
        // The pooled mean access delay is the delivery-weighted mean of the stations'.
        let pooled: f64 = rows
            .iter()
            .map(|s| s.access_delay_mean_us * s.delivered as f64)
            .sum::<f64>()
            / r.conservation.delivered as f64;
        assert!((pooled - r.access_delay.mean_us).abs() < 1e-6 * r.access_delay.mean_us);
        // No station's p99 is above the run's maximum delay (+ the 1.6 % bucket).
        assert!(
            rows.iter()
                .all(|s| s.access_delay_p99_us <= r.access_delay.max_us * 1.02)
        );
    }

    fn lossy(warmup_ms: u64) -> RunConfig {
        RunConfig {
            stations: 12,
            traffic: Traffic::Poisson { load: 0.9 },
            duration: Time::from_ms(200),
            warmup: Time::from_ms(warmup_ms),
            attempt_limit: 3,
            seed: 5,
            ..RunConfig::default()
        }
    }

    #[test]
    fn per_station_sums_are_the_run_totals() {
        check_sums(&lossy(0));
    }

    #[test]
    fn per_station_sums_are_the_run_totals_after_a_warm_up() {
        let cfg = lossy(80);
        check_sums(&cfg);
        // The warm-up's events are not counted: fewer deliveries than without it.
        let (_, whole) = run(&lossy(0));
        let (_, warm) = run(&cfg);
        let total = |rows: &[StationResult]| rows.iter().map(|s| s.delivered).sum::<u64>();
        assert!(total(&warm) < total(&whole));
    }

    #[test]
    fn observing_does_not_change_the_run() {
        let cfg = RunConfig {
            stations: 7,
            duration: Time::from_ms(50),
            seed: 3,
            ..RunConfig::default()
        };
        let (r, _) = run(&cfg);
        assert_eq!(r, crate::exact::run(&cfg).unwrap());
    }

    #[test]
    fn too_many_stations_are_refused() {
        assert!(PerStation::new(MAX_STATIONS).is_ok());
        let e = PerStation::new(MAX_STATIONS + 1).unwrap_err();
        assert!(e.to_string().contains("65536"), "{e}");
    }
}
