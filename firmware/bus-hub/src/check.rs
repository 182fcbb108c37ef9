//! What a run must show, checked against the wire and every node's log:
//!
//! * every frame ends exactly once, delivered or dropped with a typed reason;
//!   a delivered frame reached each of its addressees exactly once and nobody else,
//!   a dropped one nobody;
//! * replaying each node's writes against what the line made of them (the MAC's
//!   own rule: a read-back that differs is a collision, then the jam) gives the
//!   attempts, collisions, jam bytes and deliveries the node counted, at the ticks
//!   it logged them;
//! * every backoff is in range (`r < 2^min(n, 10)`) and at least that many slots
//!   pass on the wire between the end of the jam and the next attempt.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use lockstep::TICKS_PER_BYTE;
use serial_mac::config::{DEFAULT_JAM_BYTE, DEFAULT_JAM_LEN, DEFAULT_SLOT};
use serial_mac::frame::{OVERHEAD, START};

use crate::line::{Char, WireEvent};
use crate::log::LogEvent;
use crate::run::Scenario;

/// One node's transmissions, as the wire shows them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireStats {
    /// Attempts (start delimiters written after an idle or a jam).
    pub attempts: u32,
    /// Read-backs that differed from the byte written.
    pub collisions: u32,
    /// Jam bytes written.
    pub jam_bytes: u32,
    /// Attempts whose every byte read back intact.
    pub delivered: u32,
    /// Attempts whose read-back never came (the node was deaf).
    pub unheard: u32,
    /// Ticks of each attempt's start delimiter.
    pub attempt_ticks: Vec<u32>,
    /// Ticks at which each collided byte was read back.
    pub collision_ticks: Vec<u32>,
    /// Tick at which each jam's last byte was read back (the backoff starts).
    pub jam_end_ticks: Vec<u32>,
}

/// The figures of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BusReport {
    /// Nodes.
    pub nodes: usize,
    /// Frames handed to the MACs.
    pub frames: u32,
    /// Delivered.
    pub delivered: u32,
    /// Dropped, by reason.
    pub dropped: BTreeMap<String, u32>,
    /// Attempts, all nodes.
    pub attempts: u32,
    /// Collisions, all nodes.
    pub collisions: u32,
    /// Characters on the wire in which two or more transmitters met.
    pub collided_chars: u32,
    /// Frame receptions (one per addressee).
    pub receptions: u32,
    /// Backoffs checked.
    pub backoffs: u32,
    /// Bad frames the receivers counted and discarded.
    pub rx_discarded: u32,
}

impl BusReport {
    /// Collisions per attempt.
    pub fn collision_rate(&self) -> f64 {
        f64::from(self.collisions) / f64::from(self.attempts.max(1))
    }

    /// Attempts per frame.
    pub fn attempts_per_frame(&self) -> f64 {
        f64::from(self.attempts) / f64::from(self.frames.max(1))
    }
}

/// Replay node `node`'s writes against the line.
pub fn replay(events: &[WireEvent], node: usize, deaf_from: Option<u32>) -> WireStats {
    #[derive(Clone, Copy)]
    enum State {
        Idle,
        Frame { pos: usize, len: usize },
        Jam { sent: u8 },
    }
    let bit = 1u32 << node;
    let mut stats = WireStats::default();
    let mut state = State::Idle;
    // The node's write waiting for its read-back: (tick, byte).
    let mut pending: Option<u8> = None;
    for e in events {
        match *e {
            WireEvent::Write {
                tick,
                node: Some(n),
                byte,
            } if n == node => {
                if matches!(state, State::Idle) {
                    // A new attempt (a start delimiter after an idle or a backoff).
                    stats.attempts += 1;
                    stats.attempt_ticks.push(tick);
                    state = State::Frame {
                        pos: 0,
                        len: usize::MAX,
                    };
                }
                pending = Some(byte);
            }
            WireEvent::Deliver(Char {
                start,
                value,
                writers,
            }) if writers & bit != 0 => {
                let end = start + TICKS_PER_BYTE;
                let Some(byte) = pending.take() else { continue };
                if deaf_from.is_some_and(|d| end >= d) {
                    // Never heard: the MAC drops the frame when the echo times out.
                    stats.unheard += 1;
                    state = State::Idle;
                    continue;
                }
                state = match state {
                    State::Idle => State::Idle,
                    State::Frame { pos, len } => {
                        if value != byte {
                            stats.collisions += 1;
                            stats.collision_ticks.push(end);
                            State::Jam { sent: 0 }
                        } else {
                            let len = if pos == 3 {
                                usize::from(byte) + OVERHEAD
                            } else {
                                len
                            };
                            if pos + 1 == len {
                                stats.delivered += 1;
                                State::Idle
                            } else {
                                State::Frame { pos: pos + 1, len }
                            }
                        }
                    }
                    State::Jam { sent } => {
                        if byte == DEFAULT_JAM_BYTE {
                            stats.jam_bytes += 1;
                        }
                        if sent + 1 >= DEFAULT_JAM_LEN {
                            stats.jam_end_ticks.push(end);
                            State::Idle
                        } else {
                            State::Jam { sent: sent + 1 }
                        }
                    }
                };
            }
            _ => {}
        }
    }
    stats
}

/// Check a run; returns its figures, or every problem found.
///
/// # Errors
///
/// The list of failed checks, each a sentence naming the node and frame.
pub fn check(
    scenario: &Scenario,
    events: &[WireEvent],
    logs: &[Vec<LogEvent>],
) -> Result<BusReport, Vec<String>> {
    let mut problems = Vec::new();
    let n = scenario.nodes.len();
    let addr_index: BTreeMap<u8, usize> = scenario
        .nodes
        .iter()
        .enumerate()
        .map(|(i, s)| (s.address, i))
        .collect();
    let mut report = BusReport {
        nodes: n,
        ..BusReport::default()
    };
    report.collided_chars = events
        .iter()
        .filter(|e| matches!(e, WireEvent::Deliver(c) if c.collided()))
        .count() as u32;

    // Who received what: (src index, seq) -> receiver indices.
    let mut got: BTreeMap<(usize, u8), Vec<usize>> = BTreeMap::new();
    for (r, log) in logs.iter().enumerate() {
        for e in log {
            match e {
                LogEvent::Received { src, seq, .. } => match addr_index.get(src) {
                    Some(&s) => got.entry((s, *seq)).or_default().push(r),
                    None => problems.push(format!("node{r} received a frame from unknown {src}")),
                },
                LogEvent::Discarded { .. } => report.rx_discarded += 1,
                _ => {}
            }
        }
    }

    for (i, (spec, log)) in scenario.nodes.iter().zip(logs).enumerate() {
        let deaf = scenario
            .faults
            .deaf
            .iter()
            .filter(|(d, _)| *d == i)
            .map(|&(_, t)| t)
            .min();
        let wire = replay(events, i, deaf);
        let counters = log.iter().find_map(|e| match e {
            LogEvent::Counters(c) => Some(c),
            _ => None,
        });
        if !log.contains(&LogEvent::Done) {
            problems.push(format!("node{i}: no 'done' in its log"));
        }
        let Some(counters) = counters else {
            problems.push(format!("node{i}: no counters in its log"));
            continue;
        };
        let c = |k: &str| counters.get(k).copied().unwrap_or(u64::MAX);
        for (name, wire_value) in [
            ("tx_attempts", wire.attempts),
            ("collisions", wire.collisions),
            ("tx_delivered", wire.delivered),
            ("dropped_no_echo", wire.unheard),
        ] {
            if c(name) != u64::from(wire_value) {
                problems.push(format!(
                    "node{i}: counter {name} = {} but the wire shows {wire_value}",
                    c(name)
                ));
            }
        }
        if wire.jam_bytes != wire.collisions * u32::from(DEFAULT_JAM_LEN) {
            problems.push(format!(
                "node{i}: {} collisions but {} jam bytes on the wire",
                wire.collisions, wire.jam_bytes
            ));
        }
        let logged = |f: fn(&LogEvent) -> Option<u32>| log.iter().filter_map(f).collect::<Vec<_>>();
        let attempt_ticks = logged(|e| match e {
            LogEvent::Attempt { tick, .. } => Some(*tick),
            _ => None,
        });
        if attempt_ticks != wire.attempt_ticks {
            problems.push(format!(
                "node{i}: attempts logged at ticks {attempt_ticks:?}, start delimiters on the wire at {:?}",
                wire.attempt_ticks
            ));
        }
        let collision_ticks = logged(|e| match e {
            LogEvent::Collision { tick, .. } => Some(*tick),
            _ => None,
        });
        if collision_ticks != wire.collision_ticks {
            problems.push(format!(
                "node{i}: collisions logged at ticks {collision_ticks:?}, read back garbled at {:?}",
                wire.collision_ticks
            ));
        }
        // Backoffs: in range, starting when the jam ends, and at least as long on
        // the wire.
        let backoffs: Vec<(u32, u32, u32)> = log
            .iter()
            .filter_map(|e| match e {
                LogEvent::Backoff {
                    tick,
                    attempt,
                    slots,
                    ..
                } => Some((*tick, *attempt, *slots)),
                _ => None,
            })
            .collect();
        let slot_ticks = DEFAULT_SLOT * TICKS_PER_BYTE;
        for (k, &(tick, attempt, slots)) in backoffs.iter().enumerate() {
            report.backoffs += 1;
            if u64::from(slots) >= 1u64 << attempt.min(10) {
                problems.push(format!(
                    "node{i}: backoff of {slots} slots after attempt {attempt} is out of range"
                ));
            }
            if wire.jam_end_ticks.get(k) != Some(&tick) {
                problems.push(format!(
                    "node{i}: backoff {k} logged at tick {tick}, jam ended at {:?}",
                    wire.jam_end_ticks.get(k)
                ));
            }
            // The attempt after this backoff, if any.
            let next = wire.attempt_ticks.iter().find(|&&t| t > tick);
            if let Some(&next) = next {
                if next - tick < slots * slot_ticks {
                    problems.push(format!(
                        "node{i}: backoff of {slots} slots at tick {tick}, but the next attempt came at {next}"
                    ));
                }
            }
        }

        // Every frame: one fate, the right receivers.
        for (k, &dst) in spec.destinations.iter().enumerate() {
            let k8 = k as u8;
            let fates: Vec<&LogEvent> = log
                .iter()
                .filter(|e| {
                    matches!(e, LogEvent::Delivered { frame, .. } | LogEvent::Dropped { frame, .. } if *frame == k8)
                })
                .collect();
            report.frames += 1;
            let receivers = got.get(&(i, k8)).cloned().unwrap_or_default();
            match fates.as_slice() {
                [LogEvent::Delivered { .. }] => {
                    report.delivered += 1;
                    let mut expected: Vec<usize> = if dst == 0xFF {
                        (0..n).filter(|&r| r != i).collect()
                    } else {
                        addr_index.get(&dst).copied().into_iter().collect()
                    };
                    expected.sort_unstable();
                    let mut sorted = receivers.clone();
                    sorted.sort_unstable();
                    report.receptions += sorted.len() as u32;
                    // A deaf node cannot receive: not an addressee that must.
                    let deaf_nodes: Vec<usize> =
                        scenario.faults.deaf.iter().map(|&(d, _)| d).collect();
                    expected.retain(|r| !deaf_nodes.contains(r) || sorted.contains(r));
                    if sorted != expected {
                        problems.push(format!(
                            "node{i} frame {k} (to {dst}) delivered, received by {sorted:?} instead of {expected:?}"
                        ));
                    }
                }
                [LogEvent::Dropped { reason, .. }] => {
                    *report.dropped.entry(reason.clone()).or_default() += 1;
                    if !receivers.is_empty() {
                        problems.push(format!(
                            "node{i} frame {k} dropped ({reason}) but received by {receivers:?}"
                        ));
                    }
                }
                other => problems.push(format!(
                    "node{i} frame {k}: {} outcomes instead of one",
                    other.len()
                )),
            }
        }
        report.attempts += wire.attempts;
        report.collisions += wire.collisions;
    }
    if events
        .iter()
        .any(|e| matches!(e, WireEvent::Write { node: Some(_), byte, .. } if *byte == START))
        && report.attempts == 0
    {
        problems.push("start delimiters on the wire but no attempts replayed".into());
    }
    if problems.is_empty() {
        Ok(report)
    } else {
        Err(problems)
    }
}

/// The figures as text, one per line.
pub fn summary(r: &BusReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "nodes {}  frames {}  delivered {}  dropped {:?}",
        r.nodes, r.frames, r.delivered, r.dropped
    );
    let _ = writeln!(
        s,
        "attempts {}  collisions {}  collided characters {}  backoffs {}  receptions {}  rx discarded {}",
        r.attempts, r.collisions, r.collided_chars, r.backoffs, r.receptions, r.rx_discarded
    );
    let _ = writeln!(
        s,
        "collision rate {:.3} per attempt  attempts per frame {:.3}",
        r.collision_rate(),
        r.attempts_per_frame()
    );
    s
}
