//! The measurements of a run: started afresh at the end of a warm-up, and assembled
//! into a [`RunResult`].

use super::backoff_stats::BackoffStats;
use super::model::{Counters, CsmaCd};
use super::observe::Observer;
use super::results::{Conservation, RunResult};
use super::station::State;
use crate::theory;
use sim_kit::stats::{Capture, Histogram, jain_index};
use sim_kit::time::Time;

impl<O: Observer> CsmaCd<O> {
    /// Start the statistics afresh (the end of a warm-up): every measured counter,
    /// histogram and capture window is cleared, and the frames in the system now are
    /// counted as generated, so that frame conservation still balances. The observer
    /// is told ([`Observer::reset`]), so that what it measures starts at the same
    /// event.
    pub fn reset_statistics(&mut self) {
        self.observer.reset();
        self.c = Counters {
            generated: self.in_system(),
            ..Counters::default()
        };
        self.attempts_hist.iter_mut().for_each(|n| *n = 0);
        self.backoff_stats = BackoffStats::new();
        self.access = Histogram::new();
        self.total = Histogram::new();
        self.capture = Capture::new(self.stations.len(), self.cfg.capture_window);
        self.stations.iter_mut().for_each(|s| s.delivered_bits = 0);
    }

    /// Frames held by stations (queued or being sent).
    fn in_system(&self) -> u64 {
        let holding = self
            .stations
            .iter()
            .filter(|s| s.state != State::Idle)
            .count() as u64;
        holding + self.queues.iter().map(|q| q.len() as u64).sum::<u64>()
    }

    /// The results after `elapsed` of simulated time, `events` events and `stale` stale
    /// events.
    pub fn result(&self, elapsed: Time, events: u64, stale: u64) -> RunResult {
        let c = &self.c;
        let secs = elapsed.as_secs_f64();
        let rate = self.cfg.phy.bit_rate as f64;
        let per_station: Vec<u64> = self.stations.iter().map(|s| s.delivered_bits).collect();
        let beb = self.backoff.beb();
        // c = 1..=16 as in the standard's table; with attemptLimit = 16 the 16th
        // collision discards the frame, so its row has no draws.
        let upto = beb.attempt_limit().clamp(1, 16);
        let delivered_attempts: u64 = self
            .attempts_hist
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as u64 + 1) * n)
            .sum();
        RunResult {
            config: self.cfg.clone(),
            simulated_s: secs,
            events,
            stale_events: stale,
            conservation: Conservation::new(
                c.generated,
                c.delivered,
                c.dropped_excessive,
                c.dropped_overflow,
                self.in_system(),
            ),
            delivered_bits: c.delivered_bits,
            throughput_mbps: c.delivered_bits as f64 / secs / 1e6,
            utilisation: c.delivered_bits as f64 / (rate * secs),
            goodput_mbps: c.payload_bits as f64 / secs / 1e6,
            metcalfe_boggs_efficiency: theory::mb_efficiency(
                self.cfg.stations.into(),
                self.cfg.frames.mean_bits(),
                self.cfg.phy.slot_bits.into(),
            ),
            attempts: c.attempts,
            collided_attempts: c.collided_attempts,
            collision_events: c.collision_events,
            collisions_per_attempt: if c.attempts == 0 {
                f64::NAN
            } else {
                c.collided_attempts as f64 / c.attempts as f64
            },
            attempts_histogram: self.attempts_hist.clone(),
            mean_attempts: if c.delivered == 0 {
                f64::NAN
            } else {
                delivered_attempts as f64 / c.delivered as f64
            },
            access_delay: self.access.summary_us(),
            total_delay: self.total.summary_us(),
            backoff: self
                .backoff_stats
                .rows(upto, |cc| self.backoff.expected(cc)),
            jain_index: jain_index(&per_station),
            capture: self.capture.result(),
        }
    }
}
