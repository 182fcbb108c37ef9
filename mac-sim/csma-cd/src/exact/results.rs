//! The serialisable results of a run: what the text, CSV and JSON reports print.

use serde::Serialize;

use crate::config::RunConfig;
use crate::exact::backoff_stats::BackoffRow;
use sim_kit::stats::CaptureResult;
use sim_kit::stats::Summary;

/// Frames in and out: `generated = delivered + dropped_excessive + dropped_overflow +
/// in_system` must hold exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Conservation {
    /// Frames that arrived (or, saturated, were taken up) at a station.
    #[serde(rename = "generated_frames")]
    pub generated: u64,
    /// Frames delivered.
    #[serde(rename = "delivered_frames")]
    pub delivered: u64,
    /// Frames dropped after `attemptLimit` attempts all collided.
    #[serde(rename = "dropped_excessive_frames")]
    pub dropped_excessive: u64,
    /// Frames refused by a full station queue.
    #[serde(rename = "dropped_overflow_frames")]
    pub dropped_overflow: u64,
    /// Frames still queued or being sent when the run ended.
    #[serde(rename = "in_system_frames")]
    pub in_system: u64,
    /// Whether the balance holds.
    pub holds: bool,
}

impl Conservation {
    /// Build, checking the balance.
    pub fn new(
        generated: u64,
        delivered: u64,
        excessive: u64,
        overflow: u64,
        in_system: u64,
    ) -> Self {
        Self {
            generated,
            delivered,
            dropped_excessive: excessive,
            dropped_overflow: overflow,
            in_system,
            holds: generated == delivered + excessive + overflow + in_system,
        }
    }
}

/// Everything measured by one run of the exact CSMA/CD model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunResult {
    /// The parameters.
    pub config: RunConfig,
    /// Simulated time, seconds.
    pub simulated_s: f64,
    /// Events handled (see the crate docs for the definition).
    pub events: u64,
    /// Superseded events discarded unhandled.
    pub stale_events: u64,
    /// Frame accounting.
    pub conservation: Conservation,
    /// Frame bits delivered.
    pub delivered_bits: u64,
    /// Delivered frame bits per second, Mb/s.
    pub throughput_mbps: f64,
    /// Delivered frame bits / (bit rate × time): the channel efficiency.
    #[serde(rename = "utilisation_fraction")]
    pub utilisation: f64,
    /// Delivered payload (frame minus 18 bytes of header and FCS), Mb/s.
    pub goodput_mbps: f64,
    /// Metcalfe-Boggs efficiency for Q = N, P = mean frame, C = slot.
    #[serde(rename = "mb_efficiency_fraction")]
    pub metcalfe_boggs_efficiency: f64,
    /// Transmission attempts started.
    pub attempts: u64,
    /// Attempts that ended in a collision.
    pub collided_attempts: u64,
    /// Busy periods of the bus that contained a collision.
    pub collision_events: u64,
    /// `collided_attempts / attempts`; undefined (NaN) without attempts.
    #[serde(rename = "collision_rate_per_attempt")]
    pub collisions_per_attempt: f64,
    /// `attempts_histogram[i]`: frames delivered on attempt `i + 1`.
    pub attempts_histogram: Vec<u64>,
    /// Mean attempts per delivered frame; undefined (NaN) when none was delivered.
    #[serde(rename = "attempts_per_frame")]
    pub mean_attempts: f64,
    /// Head of queue to end of successful transmission.
    pub access_delay: Summary,
    /// Arrival to end of successful transmission.
    pub total_delay: Summary,
    /// Mean backoff after c collisions beside the algorithm's expectation.
    pub backoff: Vec<BackoffRow>,
    /// Jain's index over per-station delivered bits; NaN (undefined) when no station
    /// delivered anything.
    #[serde(rename = "jain_fairness_index")]
    pub jain_index: f64,
    /// Capture effect.
    pub capture: CaptureResult,
}
