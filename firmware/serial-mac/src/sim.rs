//! An in-memory shared bus (feature `sim-bus`): up to [`MAX_STATIONS`] instances of
//! the real [`MacCore`] contend for one half-duplex line, in steps of one byte time.
//!
//! The line model: in each step every station polls once (in station order, all at
//! the same instant); the bytes written during the step are on the line at its end.
//! One writer: every station, the writer included, reads that byte at the next step
//! (the writer's echo). Two or more writers: every station reads a line error
//! (garbled byte). Nothing else distorts the line, so what every station reads back
//! is the same, and a delivered frame reached all its receivers.
//!
//! [`contend`] runs saturated stations over this bus and checks every frame's fate.
//!
//! ```
//! use serial_mac::sim::{ContentionParams, contend};
//! let report = contend(&ContentionParams { stations: 3, ..ContentionParams::default() }).unwrap();
//! assert!(report.completed);
//! assert_eq!(report.delivered + report.dropped, report.offered);
//! assert_eq!(report.missing + report.duplicates + report.misdelivered, 0);
//! ```

// A test harness: every index below is a station (< `stations` <= MAX_STATIONS) or a
// frame number (< `frames_per_station` <= MAX_FRAMES_PER_STATION), both checked on entry.
#![allow(clippy::indexing_slicing)]

use heapless::{Deque, Vec};
use mac_base::Address;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

use crate::config::{ConfigError, MacConfig};
use crate::engine::MacCore;
use crate::event::Event;
use crate::frame::OVERHEAD;

/// Most stations on one simulated bus.
pub const MAX_STATIONS: usize = 16;
/// Most frames one station sends in [`contend`].
pub const MAX_FRAMES_PER_STATION: usize = 256;
/// Payload capacity of the simulated stations.
pub const SIM_CAPACITY: usize = 32;
/// Byte time of the simulated line, in nanoseconds (1 Mbaud, 8N1).
pub const SIM_BYTE_TIME_NS: u32 = 10_000;

/// What a station reads from the line in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineSymbol {
    /// One station wrote this byte.
    Byte(u8),
    /// Several stations wrote at once: a framing error for everyone.
    Garbled,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drive {
    Silent,
    Byte(u8),
    /// The same station wrote twice in one byte time (a UART cannot): garbled.
    Overrun,
}

/// How the line was used, in steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineStats {
    /// Steps with nobody writing.
    pub idle: u64,
    /// Steps with exactly one writer.
    pub busy: u64,
    /// Steps with several writers (or an overrun).
    pub garbled: u64,
}

/// The line error a [`Port`] reports for a garbled byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineError;

impl core::fmt::Display for LineError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("framing error: several stations transmitted at once")
    }
}

impl core::error::Error for LineError {}

impl embedded_io::Error for LineError {
    fn kind(&self) -> embedded_io::ErrorKind {
        embedded_io::ErrorKind::InvalidData
    }
}

/// Why a simulation could not be set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimError {
    /// Station count outside `2..=MAX_STATIONS` (1 for a bare [`SharedBus`]).
    Stations,
    /// Frames per station above [`MAX_FRAMES_PER_STATION`].
    Frames,
    /// Payload shorter than 3 bytes (the frame's identity) or above [`SIM_CAPACITY`].
    PayloadLength,
    /// A MAC parameter was rejected.
    Config(ConfigError),
}

/// The shared line.
#[derive(Clone, Debug)]
pub struct SharedBus {
    stations: usize,
    drive: [Drive; MAX_STATIONS],
    inbox: [Deque<LineSymbol, 4>; MAX_STATIONS],
    step: u64,
    stats: LineStats,
}

impl SharedBus {
    /// A silent line with `stations` stations (`1..=MAX_STATIONS`).
    pub fn new(stations: usize) -> Result<Self, SimError> {
        if !(1..=MAX_STATIONS).contains(&stations) {
            return Err(SimError::Stations);
        }
        Ok(Self {
            stations,
            drive: [Drive::Silent; MAX_STATIONS],
            inbox: core::array::from_fn(|_| Deque::new()),
            step: 0,
            stats: LineStats::default(),
        })
    }

    /// The serial port of station `station` (indices past the count give a port that
    /// hears nothing and whose writes are lost).
    pub fn port(&mut self, station: usize) -> Port<'_> {
        Port { bus: self, station }
    }

    /// The current step (byte times since the start).
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The time of the current step, in nanoseconds.
    pub fn now_ns(&self) -> u64 {
        self.step.saturating_mul(u64::from(SIM_BYTE_TIME_NS))
    }

    /// How the line has been used so far.
    pub fn stats(&self) -> LineStats {
        self.stats
    }

    /// End the step: put what was written on the line, deliver it to every station,
    /// and return it (`None`: the line was idle).
    pub fn end_step(&mut self) -> Option<LineSymbol> {
        let mut symbol = None;
        let mut writers = 0usize;
        for drive in self.drive.iter_mut().take(self.stations) {
            match core::mem::replace(drive, Drive::Silent) {
                Drive::Silent => {}
                Drive::Byte(b) => {
                    writers += 1;
                    symbol = Some(LineSymbol::Byte(b));
                }
                Drive::Overrun => {
                    writers += 2;
                }
            }
        }
        let symbol = match writers {
            0 => None,
            1 => symbol,
            _ => Some(LineSymbol::Garbled),
        };
        match symbol {
            None => self.stats.idle += 1,
            Some(LineSymbol::Byte(_)) => self.stats.busy += 1,
            Some(LineSymbol::Garbled) => self.stats.garbled += 1,
        }
        if let Some(symbol) = symbol {
            for inbox in self.inbox.iter_mut().take(self.stations) {
                if inbox.is_full() {
                    // A station that stopped reading: the oldest byte is overwritten.
                    inbox.pop_front();
                }
                let _ = inbox.push_back(symbol);
            }
        }
        self.step += 1;
        symbol
    }
}

/// One station's serial port on a [`SharedBus`].
pub struct Port<'a> {
    bus: &'a mut SharedBus,
    station: usize,
}

impl embedded_io::ErrorType for Port<'_> {
    type Error = LineError;
}

impl embedded_io::ReadReady for Port<'_> {
    fn read_ready(&mut self) -> Result<bool, LineError> {
        Ok(self
            .bus
            .inbox
            .get(self.station)
            .is_some_and(|q| !q.is_empty()))
    }
}

impl embedded_io::Read for Port<'_> {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, LineError> {
        let Some(first) = buf.first_mut() else {
            return Ok(0);
        };
        match self
            .bus
            .inbox
            .get_mut(self.station)
            .and_then(|q| q.pop_front())
        {
            None => Ok(0),
            Some(LineSymbol::Byte(b)) => {
                *first = b;
                Ok(1)
            }
            Some(LineSymbol::Garbled) => Err(LineError),
        }
    }
}

impl embedded_io::Write for Port<'_> {
    fn write(&mut self, buf: &[u8]) -> Result<usize, LineError> {
        let Some(&byte) = buf.first() else {
            return Ok(0);
        };
        if let Some(drive) = self.bus.drive.get_mut(self.station) {
            *drive = match *drive {
                Drive::Silent => Drive::Byte(byte),
                _ => Drive::Overrun,
            };
        }
        Ok(1)
    }

    fn flush(&mut self) -> Result<(), LineError> {
        Ok(())
    }
}

/// The set-up of a contention run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContentionParams {
    /// Stations, `2..=MAX_STATIONS`.
    pub stations: usize,
    /// Frames each station sends, back to back (saturated stations).
    pub frames_per_station: usize,
    /// Payload bytes per frame, `3..=SIM_CAPACITY` (wire length: this plus 6).
    pub payload_len: usize,
    /// Seed; station `i` seeds its RNG with `seed ^ (i + 1)`.
    pub seed: u64,
    /// Give up after this many byte times (a deadlock shows as `completed == false`).
    pub max_steps: u64,
    /// Backoff slot, in byte times.
    pub slot: u32,
}

impl Default for ContentionParams {
    fn default() -> Self {
        Self {
            stations: 2,
            frames_per_station: 32,
            payload_len: 16,
            seed: 1,
            max_steps: 5_000_000,
            slot: crate::config::DEFAULT_SLOT,
        }
    }
}

/// What happened in a contention run, and whether every frame met exactly one fate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContentionReport {
    /// Stations.
    pub stations: usize,
    /// Whether every frame was resolved before `max_steps`.
    pub completed: bool,
    /// Byte times simulated.
    pub steps: u64,
    /// Frames handed to the MACs.
    pub offered: u32,
    /// Frames their senders reported delivered.
    pub delivered: u32,
    /// Frames their senders reported dropped.
    pub dropped: u32,
    /// Transmission attempts.
    pub attempts: u32,
    /// Collisions detected (summed over the stations).
    pub collisions: u32,
    /// Delivered frames some intended receiver never got.
    pub missing: u32,
    /// Receptions of a frame by a station that already had it.
    pub duplicates: u32,
    /// Frames received by a station they were not for, or received although dropped.
    pub misdelivered: u32,
    /// Bytes on the wire of the delivered frames.
    pub delivered_wire_bytes: u64,
    /// How the line was used.
    pub line: LineStats,
    /// Byte times during which every station still had a frame to send (the
    /// saturated regime that analytical models describe; the run's tail, where fewer
    /// and fewer stations are left, is excluded).
    pub saturated_steps: u64,
    /// Bytes on the wire of the frames delivered during those byte times.
    pub saturated_wire_bytes: u64,
}

impl ContentionReport {
    /// Fraction of the byte times that carried a delivered frame.
    pub fn throughput(&self) -> f64 {
        if self.steps == 0 {
            return 0.0;
        }
        self.delivered_wire_bytes as f64 / self.steps as f64
    }

    /// Fraction of the byte times that carried a delivered frame while every station
    /// was saturated.
    pub fn saturated_throughput(&self) -> f64 {
        if self.saturated_steps == 0 {
            return 0.0;
        }
        self.saturated_wire_bytes as f64 / self.saturated_steps as f64
    }

    /// Collisions per transmission attempt.
    pub fn collision_rate(&self) -> f64 {
        if self.attempts == 0 {
            return 0.0;
        }
        f64::from(self.collisions) / f64::from(self.attempts)
    }
}

type SimMac = MacCore<XorShiftRng, SIM_CAPACITY, 4>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Pending,
    Delivered,
    Dropped,
}

/// Per-frame bookkeeping: who it was for, who got it, how it ended.
struct Ledger {
    fate: [[Fate; MAX_FRAMES_PER_STATION]; MAX_STATIONS],
    /// Bit `r` set: station `r` received the frame.
    got: [[u16; MAX_FRAMES_PER_STATION]; MAX_STATIONS],
}

/// The destination of frame `seq` of station `src` among `n`: every eighth frame is a
/// broadcast, the others go round-robin to the other stations.
fn destination(src: usize, seq: usize, n: usize) -> Address {
    if seq % 8 == 7 {
        return Address::BROADCAST;
    }
    let offset = 1 + seq % (n - 1);
    Address(((src + offset) % n) as u8)
}

fn expected_receivers(src: usize, seq: usize, n: usize) -> u16 {
    let all: u16 = if n >= 16 { u16::MAX } else { (1u16 << n) - 1 };
    match destination(src, seq, n) {
        Address::BROADCAST => all & !(1 << src),
        Address(d) => 1 << d,
    }
}

/// Run `params.stations` saturated stations until every frame is delivered or
/// dropped, and check each frame's fate against what the receivers got.
pub fn contend(params: &ContentionParams) -> Result<ContentionReport, SimError> {
    let n = params.stations;
    if !(2..=MAX_STATIONS).contains(&n) {
        return Err(SimError::Stations);
    }
    if params.frames_per_station > MAX_FRAMES_PER_STATION {
        return Err(SimError::Frames);
    }
    if !(3..=SIM_CAPACITY).contains(&params.payload_len) {
        return Err(SimError::PayloadLength);
    }
    let mut bus = SharedBus::new(n)?;
    let mut macs: Vec<SimMac, MAX_STATIONS> = Vec::new();
    for i in 0..n {
        let config = MacConfig::with_byte_time_ns(Address(i as u8), SIM_BYTE_TIME_NS)
            .and_then(|c| c.with_slot(params.slot))
            .map_err(SimError::Config)?;
        let rng = XorShiftRng::seed_from_u64(params.seed ^ (i as u64 + 1));
        let _ = macs.push(MacCore::new(config, rng));
    }
    let mut ledger = Ledger {
        fate: [[Fate::Pending; MAX_FRAMES_PER_STATION]; MAX_STATIONS],
        got: [[0; MAX_FRAMES_PER_STATION]; MAX_STATIONS],
    };
    let mut report = ContentionReport {
        stations: n,
        ..ContentionReport::default()
    };
    let mut next_seq = [0usize; MAX_STATIONS];
    let mut in_flight: [Option<usize>; MAX_STATIONS] = [None; MAX_STATIONS];
    let wire_len = (params.payload_len + OVERHEAD) as u64;
    let mut payload = [0u8; SIM_CAPACITY];
    let mut saturated = params.frames_per_station > 0;

    while bus.step() < params.max_steps {
        let now = bus.now_ns();
        for (s, mac) in macs.iter_mut().enumerate() {
            if in_flight[s].is_none() && next_seq[s] < params.frames_per_station {
                let seq = next_seq[s];
                payload[0] = s as u8;
                payload[1..3].copy_from_slice(&(seq as u16).to_be_bytes());
                for (k, p) in payload
                    .iter_mut()
                    .enumerate()
                    .take(params.payload_len)
                    .skip(3)
                {
                    *p = (seq + k) as u8;
                }
                if mac
                    .enqueue(destination(s, seq, n), &payload[..params.payload_len])
                    .is_ok()
                {
                    in_flight[s] = Some(seq);
                    next_seq[s] += 1;
                    report.offered += 1;
                }
            }
            // Poll until the MAC has nothing more to do in this byte time.
            for _ in 0..64 {
                let Some(event) = mac.poll(&mut bus.port(s), now) else {
                    break;
                };
                let fate = match event {
                    Event::Delivered { .. } => Fate::Delivered,
                    Event::Dropped { .. } => Fate::Dropped,
                    _ => continue,
                };
                if let Some(seq) = in_flight[s].take() {
                    ledger.fate[s][seq] = fate;
                    if fate == Fate::Delivered && saturated {
                        report.saturated_wire_bytes += wire_len;
                    }
                }
            }
            while let Some(frame) = mac.take_received() {
                let &[src, seq_hi, seq_lo, ..] = frame.payload() else {
                    report.misdelivered += 1;
                    continue;
                };
                let src = usize::from(src);
                let seq = usize::from(u16::from_be_bytes([seq_hi, seq_lo]));
                if src >= n || seq >= MAX_FRAMES_PER_STATION || src != usize::from(frame.src().0) {
                    report.misdelivered += 1;
                    continue;
                }
                let bit = 1u16 << s;
                if ledger.got[src][seq] & bit != 0 {
                    report.duplicates += 1;
                }
                ledger.got[src][seq] |= bit;
            }
        }
        bus.end_step();
        if saturated {
            report.saturated_steps = bus.step();
            // Saturation ends when some station has sent its last frame.
            saturated =
                (0..n).all(|s| in_flight[s].is_some() || next_seq[s] < params.frames_per_station);
        }
        let done = next_seq
            .iter()
            .take(n)
            .all(|&q| q >= params.frames_per_station)
            && in_flight.iter().all(Option::is_none);
        if done {
            report.completed = true;
            break;
        }
    }

    for (s, mac) in macs.iter().enumerate() {
        report.attempts += mac.counters().tx_attempts;
        report.collisions += mac.counters().medium.collisions;
        for seq in 0..next_seq[s] {
            let expected = expected_receivers(s, seq, n);
            let got = ledger.got[s][seq];
            if got & !expected != 0 {
                report.misdelivered += 1;
            }
            match ledger.fate[s][seq] {
                Fate::Delivered => {
                    report.delivered += 1;
                    report.delivered_wire_bytes += wire_len;
                    if got & expected != expected {
                        report.missing += 1;
                    }
                }
                Fate::Dropped => {
                    report.dropped += 1;
                    if got != 0 {
                        report.misdelivered += 1;
                    }
                }
                Fate::Pending => {}
            }
        }
    }
    report.steps = bus.step();
    report.line = bus.stats();
    Ok(report)
}
