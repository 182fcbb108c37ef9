//! What happened and why, in a sentence, with the clause of IEEE 802.3 it follows:
//! the text the page shows when an event is clicked.
//!
//! The clauses are those of IEEE 802.3 clause 4 (the MAC of half-duplex Ethernet):
//! 4.2.3.2.1 deference and the interframe gap, 4.2.3.2.3 collision detection,
//! 4.2.3.2.4 collision enforcement (the jam), 4.2.3.2.5 the backoff and the
//! attempt limit, 4.2.3.2 transmission in general.

use sim_kit::Time;

use crate::recorder::{Cause, Recorded};

/// The run's rules the sentences quote.
#[derive(Clone, Debug)]
pub struct Rules {
    /// One bit time.
    pub bit: Time,
    /// The slot.
    pub slot: Time,
    /// The interframe gap.
    pub ifg: Time,
    /// Its first part.
    pub ifg_part1: Time,
    /// Frames are dropped after this many attempts.
    pub attempt_limit: u32,
    /// The backoff algorithm's name (`BEB`, `linear`, ...).
    pub backoff: String,
    /// Whether it is truncated binary exponential backoff.
    pub beb: bool,
    /// The BEB window stops doubling after this many collisions.
    pub backoff_limit: u32,
}

fn us(t: Time) -> String {
    format!("{:.3} us", t.as_micros_f64())
}

fn bits(t: Time, bit: Time) -> u64 {
    if bit.is_zero() {
        0
    } else {
        t.as_ps() / bit.as_ps()
    }
}

/// The sentence and the clause for `r`.
pub fn explain(r: &Recorded, rules: &Rules) -> (String, &'static str) {
    let e = &r.event;
    let ifg_bits = bits(rules.ifg, rules.bit);
    let p1_bits = bits(rules.ifg_part1, rules.bit);
    let attempt = e.collisions + 1;
    match r.cause {
        Cause::Idle if e.collisions == 0 => (
            format!(
                "Frame of {} bits ready and no carrier at the station, no gap to wait for: it transmits at once (attempt 1).",
                e.frame_bits
            ),
            "4.2.3.2.1",
        ),
        Cause::Idle => (
            format!(
                "Backoff over and no carrier at the station: attempt {attempt} of this frame starts at once."
            ),
            "4.2.3.2.5",
        ),
        Cause::AfterGap { gap_start } => (
            format!(
                "The carrier dropped at this station at {}; the interframe gap of {ifg_bits} bit times ({} part 1, {} part 2) ended with no carrier in part 1: it transmits (attempt {attempt}).",
                us(gap_start),
                p1_bits,
                ifg_bits - p1_bits
            ),
            "4.2.3.2.1",
        ),
        Cause::InPartTwo {
            from,
            arrived,
            gap_start,
        } => (
            format!(
                "Carrier from station {from} arrived {} into the gap, in part 2 (after {p1_bits} bit times): part 2 ignores the carrier, so the station transmits anyway when the gap ends and collides (attempt {attempt}).",
                us(arrived - gap_start)
            ),
            "4.2.3.2.1",
        ),
        Cause::Blind {
            from,
            arrived,
            gap_start,
        } => (
            format!(
                "The gap after the station's own transmission is timed without watching the carrier (wasTransmitting): carrier from station {from} arrived {} into it, and the station transmits anyway when the gap ends (attempt {attempt}).",
                us(arrived.saturating_sub(gap_start))
            ),
            "4.2.3.2.1, 4.2.8",
        ),
        Cause::Burst { previous_end } => (
            format!(
                "Frame bursting: the station's previous frame ended at {}, and it kept the carrier on through the interframe gap with extension bits; burstLimit has not passed since the burst began, so it sends its next frame without deferring (attempt {attempt}).",
                us(previous_end)
            ),
            "4.2.3.2.7",
        ),
        Cause::UnderCarrier { from } => (
            format!(
                "Carrier from station {from} is present, but the gap rule in force lets the station transmit (attempt {attempt})."
            ),
            "4.2.3.2.1",
        ),
        Cause::Defer { from: Some(from) } => (
            format!(
                "Frame ready, but carrier from station {from} is on at this station: it defers until the carrier drops and a gap of {ifg_bits} bit times has passed."
            ),
            "4.2.3.2.1",
        ),
        Cause::Defer { from: None } => (
            format!(
                "Frame ready, but the carrier at this station dropped less than a gap ({ifg_bits} bit times) ago: it defers until the gap ends."
            ),
            "4.2.3.2.1",
        ),
        Cause::Collision { from } => (
            format!(
                "{} while transmitting: collision {} of this frame detected. The station finishes the preamble and sends the jam so that every station sees the collision.",
                match from {
                    Some(j) => format!("The signal of station {j} reached this station"),
                    None => "A foreign signal reached this station".to_string(),
                },
                e.collisions
            ),
            "4.2.3.2.3, 4.2.3.2.4",
        ),
        Cause::JamEnd { window } => match e.backoff_slots {
            Some(r) => (
                format!(
                    "Jam over after collision {c}. {algo} draws r uniformly from [0, {window}){rule}: r = {r}, so it waits {r} x {slot_bits} bit times = {wait}.",
                    c = e.collisions,
                    algo = if rules.beb {
                        "Truncated binary exponential backoff".to_string()
                    } else {
                        format!("The {} backoff", rules.backoff)
                    },
                    rule = if rules.beb {
                        format!(
                            " (2^k slots, k = min({}, {}))",
                            e.collisions, rules.backoff_limit
                        )
                    } else {
                        String::new()
                    },
                    slot_bits = bits(rules.slot, rules.bit),
                    wait = us(rules.slot * u64::from(r)),
                ),
                "4.2.3.2.5",
            ),
            None => (
                format!(
                    "Jam over after collision {}: that was attempt {} of {}, no backoff follows.",
                    e.collisions, e.collisions, rules.attempt_limit
                ),
                "4.2.3.2.5",
            ),
        },
        Cause::Success => (
            format!(
                "The last bit of the frame ({} bits) left the station with no collision: delivered after {} collision(s){}.",
                e.frame_bits,
                e.collisions,
                e.access_delay
                    .map(|d| format!(", access delay {}", us(d)))
                    .unwrap_or_default()
            ),
            "4.2.3.2",
        ),
        Cause::Drop => (
            format!(
                "{} attempts all collided (attemptLimit): the frame is discarded and excessive collisions reported.",
                rules.attempt_limit
            ),
            "4.2.3.2.5",
        ),
    }
}
