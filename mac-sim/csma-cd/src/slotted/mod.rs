//! The idealised Metcalfe & Boggs model, simulated.
//!
//! Time runs in contention slots of C bit times. In each slot every one of Q saturated
//! stations transmits with probability p (1/Q by default): no transmitter is an idle
//! slot, two or more a collision slot (both cost C), exactly one an acquisition, after
//! which the frame takes P bit times. Efficiency is delivered frame time over elapsed
//! time and should reproduce [`crate::theory::mb_efficiency`].
//!
//! The transmitters of a slot are found by geometric skipping (the gap to the next
//! station that transmits is geometric), so a slot costs O(1) expected work instead of
//! a pass over all Q stations.
//!
//! ```
//! use csma_cd::slotted::{SlottedConfig, run_slotted};
//! let r = run_slotted(&SlottedConfig::new(10, 1518 * 8, 512, 20_000, 1)).unwrap();
//! assert!((r.efficiency / r.predicted_efficiency - 1.0).abs() < 0.02);
//! ```

use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serde::Serialize;

use crate::error::ConfigError;
use crate::theory;
use sim_kit::maths::{geometric, ln, split_seed};
use sim_kit::stats::jain_index;

/// The longest slotted run accepted, in expected contention slots.
pub const MAX_EXPECTED_SLOTS: f64 = 1e10;

/// Parameters of a slotted run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SlottedConfig {
    /// Q, stations.
    pub stations: u32,
    /// P, frame time in bit times.
    pub frame_bits: u64,
    /// C, slot time in bit times.
    pub slot_bits: u64,
    /// Stop after this many acquisitions.
    pub successes: u64,
    /// Per-slot transmission probability; `None` is 1/Q.
    pub probability: Option<f64>,
    /// Seed.
    pub seed: u64,
}

/// The most successes a slotted run may ask for.
pub const MAX_SUCCESSES: u64 = 1_000_000_000;

impl SlottedConfig {
    /// Q stations sending IEEE 802.3 frames of `frame_bytes` (64..=1518, address to
    /// FCS) with a slot of `slot_bits`, p = 1/Q: the checked form of [`Self::new`]
    /// that `mac-sim slotted` and the bindings use.
    ///
    /// # Errors
    ///
    /// [`ConfigError::FrameSize`] outside 64..=1518 bytes, [`ConfigError::Timing`]
    /// for a slot outside 1..=2^20 bit times, [`ConfigError::Successes`] outside
    /// 1..=[`MAX_SUCCESSES`].
    pub fn checked(
        stations: u32,
        frame_bytes: u32,
        slot_bits: u32,
        successes: u64,
        seed: u64,
    ) -> Result<Self, ConfigError> {
        if !(64..=1518).contains(&frame_bytes) {
            return Err(ConfigError::FrameSize(frame_bytes));
        }
        let slot_bits = theory::checked_slot(slot_bits)?;
        if !(1..=MAX_SUCCESSES).contains(&successes) {
            return Err(ConfigError::Successes(successes));
        }
        Ok(Self::new(
            stations,
            u64::from(frame_bytes) * 8,
            u64::from(slot_bits),
            successes,
            seed,
        ))
    }

    /// Q stations, p = 1/Q.
    pub fn new(stations: u32, frame_bits: u64, slot_bits: u64, successes: u64, seed: u64) -> Self {
        Self {
            stations,
            frame_bits,
            slot_bits,
            successes,
            probability: None,
            seed,
        }
    }
}

/// What a slotted run measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SlottedResult {
    /// The parameters.
    pub config: SlottedConfig,
    /// Acquisitions (delivered frames).
    pub successes: u64,
    /// Slots in which nobody transmitted.
    pub idle_slots: u64,
    /// Slots with two or more transmitters.
    pub collision_slots: u64,
    /// Elapsed time, bit times.
    pub elapsed_bits: u64,
    /// Delivered frame time / elapsed time.
    pub efficiency: f64,
    /// `P / (P + W·C)` for the same Q, P, C.
    pub predicted_efficiency: f64,
    /// Measured acquisition probability: successes / contention slots.
    pub acquisition: f64,
    /// Theory: `(1 − 1/Q)^(Q−1)`.
    pub predicted_acquisition: f64,
    /// Measured wasted slots per acquisition.
    pub wait_slots: f64,
    /// Collision slots / contention slots.
    pub collision_rate: f64,
    /// Jain's index over per-station successes.
    #[serde(rename = "jain_fairness_index")]
    pub jain_index: f64,
    /// Events (contention slots) handled.
    pub events: u64,
}

/// The slotted model as an engine model: one event per contention slot.
pub struct Slotted {
    cfg: SlottedConfig,
    ln_q: f64,
    rng: XorShiftRng,
    successes: u64,
    idle: u64,
    collisions: u64,
    per_station: Vec<u64>,
    elapsed: u64,
}

impl Slotted {
    /// Build; fails for Q = 0, P or C of zero, or p outside (0, 1].
    ///
    /// # Errors
    ///
    /// [`ConfigError`] for no stations, a zero frame or slot, a probability outside
    /// (0, 1] or too small, or a run that would need more than 10¹⁰ slots.
    pub fn new(cfg: &SlottedConfig) -> Result<Self, ConfigError> {
        if cfg.stations == 0 {
            return Err(ConfigError::NoStations);
        }
        if cfg.stations > crate::config::MAX_STATIONS {
            return Err(ConfigError::TooManyStations(cfg.stations.into()));
        }
        if cfg.frame_bits == 0 || cfg.slot_bits == 0 {
            return Err(ConfigError::SlottedTiming);
        }
        let p = cfg.probability.unwrap_or(1.0 / f64::from(cfg.stations));
        if !(p > 0.0 && p <= 1.0) {
            return Err(ConfigError::Probability(p));
        }
        let ln_q = if p >= 1.0 {
            f64::NEG_INFINITY
        } else {
            ln(1.0 - p)
        };
        if ln_q == 0.0 {
            return Err(ConfigError::ProbabilityTooSmall(p));
        }
        // Refuse runs that could not finish: expected slots = successes / P(one sender).
        let q = f64::from(cfg.stations);
        let acquire = q * p * sim_kit::maths::powu(1.0 - p, u64::from(cfg.stations) - 1);
        let slots = cfg.successes as f64 / acquire;
        if slots.is_nan() || slots > MAX_EXPECTED_SLOTS {
            return Err(ConfigError::Endless {
                probability: p,
                stations: cfg.stations,
                successes: cfg.successes,
                slots,
            });
        }
        Ok(Self {
            cfg: *cfg,
            ln_q,
            rng: XorShiftRng::seed_from_u64(split_seed(cfg.seed, 0)),
            successes: 0,
            idle: 0,
            collisions: 0,
            per_station: vec![0; cfg.stations as usize],
            elapsed: 0,
        })
    }

    /// The result after `elapsed` bit times and `events` slots.
    pub fn result(&self, elapsed: u64, events: u64) -> SlottedResult {
        let c = &self.cfg;
        let contention = self.successes + self.idle + self.collisions;
        let q = u64::from(c.stations);
        SlottedResult {
            config: *c,
            successes: self.successes,
            idle_slots: self.idle,
            collision_slots: self.collisions,
            elapsed_bits: elapsed,
            efficiency: (self.successes * c.frame_bits) as f64 / elapsed.max(1) as f64,
            predicted_efficiency: theory::mb_efficiency(q, c.frame_bits as f64, c.slot_bits as f64),
            acquisition: self.successes as f64 / contention.max(1) as f64,
            predicted_acquisition: theory::mb_acquisition(q),
            wait_slots: (self.idle + self.collisions) as f64 / self.successes.max(1) as f64,
            collision_rate: self.collisions as f64 / contention.max(1) as f64,
            jain_index: jain_index(&self.per_station),
            events,
        }
    }
}

impl Slotted {
    /// Play one contention slot starting at `now` bit times; returns when the next
    /// one starts.
    fn slot(&mut self, now: u64) -> u64 {
        let n = u64::from(self.cfg.stations);
        let first = geometric(&mut self.rng, self.ln_q);
        if first >= n {
            self.idle += 1;
            now + self.cfg.slot_bits
        } else {
            let second = first
                .saturating_add(1)
                .saturating_add(geometric(&mut self.rng, self.ln_q));
            if second >= n {
                self.successes += 1;
                self.per_station[first as usize] += 1;
                now + self.cfg.frame_bits
            } else {
                self.collisions += 1;
                now + self.cfg.slot_bits
            }
        }
    }
}

/// Run the slotted model until `cfg.successes` acquisitions: the function the
/// firmware's in-memory bus test compares its throughput and collision rate against.
///
/// # Errors
///
/// The [`ConfigError`] of [`Slotted::new`]; nothing is run then.
pub fn run_slotted(cfg: &SlottedConfig) -> Result<SlottedResult, ConfigError> {
    let mut model = Slotted::new(cfg)?;
    // Time runs in bit times, one slot after another: a plain loop, not the event
    // queue (whose time is picoseconds). One event is one contention slot.
    let mut events = 0;
    while model.successes < cfg.successes {
        model.elapsed = model.slot(model.elapsed);
        events += 1;
    }
    Ok(model.result(model.elapsed, events))
}
