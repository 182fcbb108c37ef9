//! An in-memory radio channel (feature `sim-radio`) on which instances of the real
//! [`MacCore`](crate::MacCore) contend, for host tests.
//!
//! The model, at the receiver, as radios work:
//!
//! * **Reachability** per ordered pair: station `j` hears station `i` at a received
//!   power `rssi[i][j]` (dBm), or not at all (`None`): hidden terminals exist when
//!   two stations do not hear each other but both reach a third.
//! * **Carrier sense**: station `j`'s CCA reports busy while a station it hears is
//!   on the air, from [`Channel::cca_delay_ns`] after that transmission began (the
//!   sender's turnaround and the listener's detection time: two stations that start
//!   within that delay do not see each other).
//! * **Collisions at the receiver**: a packet reaches `j` intact only if `j` did not
//!   transmit during any of it (half duplex) and no other packet that `j` hears
//!   overlapped it, unless **capture** is on and the packet is at least
//!   `capture_db` stronger than every overlapping one.
//! * **Loss**: each packet that would arrive intact is lost with probability
//!   `loss_ppm / 10^6`, independently per receiver (fading, noise), from a seeded
//!   RNG: the same seed gives the same run.
//!
//! Time is whatever the test passes to [`Channel::set_now`]; a packet is resolved
//! at each receiver when [`Channel::resolve`] is called at or after its end.

// A test harness: station indices are checked against `S` on entry.
#![allow(clippy::indexing_slicing)]

use heapless::{Deque, Vec};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use crate::config::MacConfig;
use crate::frame::OVERHEAD;
use crate::radio::Radio;

/// Longest packet the channel carries.
pub const MAX_PACKET: usize = 64 + OVERHEAD;
/// Transmissions the channel remembers (for overlaps).
const HISTORY: usize = 32;
/// Packets a receiver buffers before it drops more.
const INBOX: usize = 4;

/// What went wrong in the simulated radio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimError {
    /// A transmission was started while the station was transmitting, or a packet
    /// is longer than [`MAX_PACKET`].
    Misuse,
}

#[derive(Clone, Debug)]
struct Tx {
    src: usize,
    start: u64,
    end: u64,
    resolved: bool,
    packet: Vec<u8, MAX_PACKET>,
}

/// What the channel did, for the tests' figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChannelStats {
    /// Packets put on the air.
    pub transmissions: u32,
    /// Arrivals spoiled by an overlapping packet at the receiver.
    pub collisions: u32,
    /// Arrivals saved by capture.
    pub captures: u32,
    /// Arrivals missed because the receiver was transmitting.
    pub half_duplex_losses: u32,
    /// Arrivals lost at random.
    pub random_losses: u32,
}

/// The shared channel of `S` stations.
#[derive(Clone, Debug)]
pub struct Channel<const S: usize> {
    now: u64,
    air: MacConfig,
    rssi: [[Option<i16>; S]; S],
    loss_ppm: u32,
    capture_db: Option<i16>,
    cca_delay_ns: u64,
    rng: XorShiftRng,
    txs: Deque<Tx, HISTORY>,
    inbox: [Deque<Vec<u8, MAX_PACKET>, INBOX>; S],
    stats: ChannelStats,
}

impl<const S: usize> Channel<S> {
    /// A channel where nobody hears anybody yet, without loss or capture, with air
    /// times from `air` and a CCA delay of `air`'s turnaround.
    pub fn new(air: MacConfig, seed: u64) -> Self {
        Self {
            now: 0,
            air,
            rssi: [[None; S]; S],
            loss_ppm: 0,
            capture_db: None,
            cca_delay_ns: air.sifs_ns(),
            rng: XorShiftRng::seed_from_u64(seed),
            txs: Deque::new(),
            inbox: core::array::from_fn(|_| Deque::new()),
            stats: ChannelStats::default(),
        }
    }

    /// Stations `a` and `b` hear each other at `rssi_dbm` (both ways).
    pub fn link(&mut self, a: usize, b: usize, rssi_dbm: i16) {
        if a < S && b < S && a != b {
            self.rssi[a][b] = Some(rssi_dbm);
            self.rssi[b][a] = Some(rssi_dbm);
        }
    }

    /// Lose each intact arrival with probability `ppm / 10^6`.
    pub fn set_loss_ppm(&mut self, ppm: u32) {
        self.loss_ppm = ppm.min(1_000_000);
    }

    /// Capture: a packet survives an overlap when it is at least `db` stronger than
    /// every overlapping one. Off (`None`) by default.
    pub fn set_capture_db(&mut self, db: Option<i16>) {
        self.capture_db = db;
    }

    /// How long after a transmission begins the other stations' CCA sees it.
    pub fn cca_delay_ns(&self) -> u64 {
        self.cca_delay_ns
    }

    /// The time now.
    pub fn now_ns(&self) -> u64 {
        self.now
    }

    /// Move the clock (never backwards).
    pub fn set_now(&mut self, now_ns: u64) {
        self.now = self.now.max(now_ns);
    }

    /// What the channel did so far.
    pub fn stats(&self) -> ChannelStats {
        self.stats
    }

    /// Station `src` jams the channel from now until `until_ns`: every station that
    /// hears `src` finds its CCA busy (after [`Channel::cca_delay_ns`]) and receives
    /// nothing intact meanwhile; the jamming itself is never received. For tests of a
    /// permanently busy channel. The jammer should not run a MAC meanwhile, and the
    /// jamming holds one of the channel's 32 remembered transmissions: more than 31
    /// other transmissions while it lasts end it early.
    pub fn jam(&mut self, src: usize, until_ns: u64) {
        if src >= S {
            return;
        }
        if self.txs.is_full() {
            self.resolve();
            self.txs.pop_front();
        }
        let _ = self.txs.push_back(Tx {
            src,
            start: self.now,
            end: until_ns.max(self.now),
            resolved: true,
            packet: Vec::new(),
        });
    }

    /// Station `station`'s radio.
    pub fn radio(&mut self, station: usize) -> SimRadio<'_, S> {
        SimRadio {
            channel: self,
            station,
        }
    }

    fn transmitting(&self, station: usize, from: u64, to: u64) -> bool {
        self.txs
            .iter()
            .any(|t| t.src == station && t.start < to && t.end > from)
    }

    /// Hand every packet that has ended to the receivers that get it intact.
    pub fn resolve(&mut self) {
        for i in 0..self.txs.len() {
            let Some(tx) = self.txs.iter().nth(i).cloned() else {
                continue;
            };
            if tx.resolved || tx.end > self.now {
                continue;
            }
            for j in (0..S).filter(|&j| j != tx.src) {
                let Some(power) = self.rssi[tx.src][j] else {
                    continue;
                };
                if self.transmitting(j, tx.start, tx.end) {
                    self.stats.half_duplex_losses += 1;
                    continue;
                }
                let strongest_other = self
                    .txs
                    .iter()
                    .enumerate()
                    .filter(|&(k, t)| k != i && t.start < tx.end && t.end > tx.start)
                    .filter_map(|(_, t)| {
                        if t.src == j {
                            None
                        } else {
                            self.rssi[t.src][j]
                        }
                    })
                    .max();
                if let Some(other) = strongest_other {
                    let captured = self
                        .capture_db
                        .is_some_and(|db| power >= other.saturating_add(db));
                    if !captured {
                        self.stats.collisions += 1;
                        continue;
                    }
                    self.stats.captures += 1;
                }
                let draw = self.rng.next_u32() % 1_000_000;
                if draw < self.loss_ppm {
                    self.stats.random_losses += 1;
                    continue;
                }
                // A full inbox drops the packet, as a radio's FIFO would.
                let _ = self.inbox[j].push_back(tx.packet.clone());
            }
            if let Some(t) = self.txs.iter_mut().nth(i) {
                t.resolved = true;
            }
        }
        // Forget transmissions that can no longer overlap anything new.
        let horizon = self.now.saturating_sub(self.air.air_time_ns(MAX_PACKET));
        while self
            .txs
            .front()
            .is_some_and(|t| t.resolved && t.end < horizon)
        {
            self.txs.pop_front();
        }
    }
}

/// One station's view of the [`Channel`]: implements [`Radio`].
#[derive(Debug)]
pub struct SimRadio<'a, const S: usize> {
    channel: &'a mut Channel<S>,
    station: usize,
}

impl<const S: usize> Radio for SimRadio<'_, S> {
    type Error = SimError;

    fn transmit(&mut self, packet: &[u8]) -> Result<(), SimError> {
        let ch = &mut *self.channel;
        let now = ch.now;
        if ch.transmitting(self.station, now, now.saturating_add(1)) {
            return Err(SimError::Misuse);
        }
        let packet = Vec::from_slice(packet).map_err(|_| SimError::Misuse)?;
        if ch.txs.is_full() {
            ch.resolve();
            ch.txs.pop_front();
        }
        let end = now.saturating_add(ch.air.air_time_ns(packet.len()));
        let tx = Tx {
            src: self.station,
            start: now,
            end,
            resolved: false,
            packet,
        };
        ch.txs.push_back(tx).map_err(|_| SimError::Misuse)?;
        ch.stats.transmissions += 1;
        Ok(())
    }

    fn is_transmitting(&mut self) -> Result<bool, SimError> {
        let now = self.channel.now;
        Ok(self
            .channel
            .transmitting(self.station, now, now.saturating_add(1)))
    }

    fn receive(&mut self, buf: &mut [u8]) -> Result<Option<usize>, SimError> {
        let Some(packet) = self.channel.inbox[self.station].pop_front() else {
            return Ok(None);
        };
        let n = packet.len().min(buf.len());
        buf[..n].copy_from_slice(&packet[..n]);
        Ok(Some(n))
    }

    fn channel_clear(&mut self) -> Result<bool, SimError> {
        let ch = &*self.channel;
        let busy = ch.txs.iter().any(|t| {
            t.src != self.station
                && ch.rssi[t.src][self.station].is_some()
                && t.start.saturating_add(ch.cca_delay_ns) <= ch.now
                && t.end > ch.now
        });
        Ok(!busy)
    }
}
