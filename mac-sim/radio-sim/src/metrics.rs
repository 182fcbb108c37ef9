//! What a run measured ([`RadioResult`]), over the measured window (after the
//! warm-up), and how each figure is defined. A figure that is undefined (a ratio over
//! nothing, the delay of no delivered frame) is NaN, never 0: an empty cell in CSV,
//! `null` in JSON, `-` in the text report.

use serde::Serialize;
use sim_kit::stats::Histogram;

use crate::channel::ChannelStats;
use crate::config::RadioConfig;

/// Frames dropped, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Drops {
    /// No ACK for the last attempt the retry limit allows.
    pub no_ack: u64,
    /// The channel stayed busy (channel access failure).
    pub channel_busy: u64,
    /// The radio refused a transmission.
    pub radio_error: u64,
    /// Arrived to a full host queue.
    pub queue: u64,
}

impl Drops {
    /// All kinds together.
    pub const fn total(&self) -> u64 {
        self.no_ack + self.channel_busy + self.radio_error + self.queue
    }
}

/// Delay from a frame's arrival at its sender's queue to the sender's `Delivered`,
/// microseconds; every figure NaN (undefined) when no frame was delivered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Delays {
    /// Frames measured.
    pub count: u64,
    /// Mean.
    pub mean_us: f64,
    /// Median.
    pub p50_us: f64,
    /// 90th percentile.
    pub p90_us: f64,
    /// 99th percentile.
    pub p99_us: f64,
    /// Maximum.
    pub max_us: f64,
}

impl Delays {
    /// The summary of `h` (percentiles within 0.4 %, see [`Histogram`]).
    pub fn of(h: &Histogram) -> Self {
        if h.count() == 0 {
            return Self {
                count: 0,
                mean_us: f64::NAN,
                p50_us: f64::NAN,
                p90_us: f64::NAN,
                p99_us: f64::NAN,
                max_us: f64::NAN,
            };
        }
        let us = |t: sim_kit::Time| t.as_micros_f64();
        Self {
            count: h.count(),
            mean_us: h.mean_ps() / 1e6,
            p50_us: us(h.percentile(0.5)),
            p90_us: us(h.percentile(0.9)),
            p99_us: us(h.percentile(0.99)),
            max_us: us(h.max()),
        }
    }
}

/// One station's figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct StationRow {
    /// The station (0 is the sink).
    pub station: u16,
    /// Stations it hears.
    pub neighbours: u32,
    /// Frames offered.
    #[serde(rename = "offered_frames")]
    pub offered: u64,
    /// Frames delivered.
    #[serde(rename = "delivered_frames")]
    pub delivered: u64,
    /// Attempts of the frames that ended (delivered or dropped by the MAC).
    pub attempts: u64,
    /// Frames dropped, all kinds.
    #[serde(rename = "dropped_frames")]
    pub dropped: u64,
    /// Mean delay of its delivered frames, microseconds (NaN without any).
    pub mean_delay_us: f64,
}

/// The result of one run. Counts are over the measured window: frames offered in it,
/// frames that ended in it, transmissions that ended in it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RadioResult {
    /// The parameters.
    pub config: RadioConfig,
    /// Stations that send: those (other than the sink) that hear their destination.
    pub senders: u32,
    /// Links (pairs of stations that hear each other).
    pub links: u32,
    /// Frames offered: arrivals (Poisson) or frames handed to the MAC (saturated).
    #[serde(rename = "offered_frames")]
    pub offered: u64,
    /// Frames the sender saw delivered (`Event::Delivered`).
    #[serde(rename = "delivered_frames")]
    pub delivered: u64,
    /// Frames that ended at the MAC, delivered or dropped.
    #[serde(rename = "ended_frames")]
    pub ended: u64,
    /// Attempts of the frames that ended.
    pub attempts: u64,
    /// Drops by kind.
    pub drops: Drops,
    /// Data transmissions that ended.
    pub data_transmissions: u64,
    /// Of those, the ones their destination did not get intact because of an overlap
    /// (a collision, or its own transmission: half duplex).
    pub overlapped_transmissions: u64,
    /// Clear channel assessments that found the channel busy (each is followed by a
    /// backoff, or ends the frame as a channel access failure). With the transmissions,
    /// the moments a station with a frame looked at the channel: the `G` of the CSMA
    /// literature counts both.
    pub busy_assessments: u64,
    /// S: the fraction of the window's channel time carrying data frames that reached
    /// their destination intact (the ALOHA and CSMA literature's throughput; above 1
    /// where distant stations reuse the channel).
    #[serde(rename = "throughput_fraction")]
    pub throughput: f64,
    /// Payload of the delivered frames, kb/s.
    pub goodput_kbps: f64,
    /// Delivered / frames whose fate was decided in the window (ended at the MAC or
    /// dropped at a full queue); NaN when none was.
    #[serde(rename = "delivery_fraction")]
    pub delivery_ratio: f64,
    /// Attempts / frames that ended; NaN when none did.
    pub attempts_per_frame: f64,
    /// Overlapped / data transmissions: the conditional collision probability; NaN
    /// without a data transmission.
    pub collision_probability: f64,
    /// Delay percentiles.
    pub delay: Delays,
    /// The channel's counts of arrivals, over every listener.
    pub channel: ChannelStats,
    /// Retransmissions the receivers recognised as duplicates and did not deliver.
    pub duplicates_suppressed: u64,
    /// Frames (over the whole run) delivered at the sender but not received exactly
    /// once, or dropped and received more than once: 0 unless the MAC is wrong.
    pub exactly_once_violations: u64,
    /// Events processed (over the whole run, warm-up included).
    pub events: u64,
    /// Of those, stale deadlines skipped.
    pub stale_events: u64,
    /// One row per station.
    pub per_station: Vec<StationRow>,
}
