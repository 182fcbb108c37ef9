//! The host channel model: transmissions on the air, carrier sense, and the fate of
//! each packet at each receiver. It keeps no clock of its own: the driver tells it
//! when a transmission becomes visible to carrier sense ([`Channel::make_visible`])
//! and when it ends ([`Channel::end`]); a station's MAC talks to it through
//! [`StationRadio`], radio-mac's [`Radio`].
//!
//! The rules (those of radio-mac's own test channel, `radio_mac::sim`, with powers
//! from the topology):
//!
//! * **Propagation delay** is zero: at the ranges modelled (metres to a few
//!   kilometres, 3.3 µs a kilometre) it is far below a 16 µs symbol of the 2.4 GHz
//!   PHY and a LoRa symbol (128 µs to 262 ms).
//! * **Carrier sense**: station `j`'s CCA is busy while a transmission `j` hears is on
//!   the air, from `cca_delay` after its start (the sender's turnaround and the
//!   listener's detection time) until its end; with a CCA threshold
//!   (`cca_threshold_dbm`, IEEE 802.15.4 CCA mode 1), only while one arrives at least
//!   that strong, so a weak transmission can be received but not sensed.
//! * **Arrival**: a packet reaches receiver `j` intact iff `j` hears its sender, `j`
//!   did not transmit during any of it (**half duplex**), and no other transmission
//!   `j` hears overlapped it (**collision**), unless capture is on and the packet is
//!   at least `capture_db` stronger than every overlapping one (**capture**); an
//!   intact packet is then **lost** with probability `loss`, independently per
//!   receiver, from the channel's own seeded generator.

use std::collections::VecDeque;

use radio_mac::{MacConfig, Radio};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serde::Serialize;

use crate::topology::Links;

/// Packets a receiver keeps before it drops more (the driver polls a station as soon
/// as a packet reaches it, so one is all it ever holds).
const INBOX: usize = 4;

/// What the channel refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelError {
    /// A station started a transmission while its previous one was on the air.
    AlreadyTransmitting,
    /// A packet longer than the PHY's longest (127 bytes on IEEE 802.15.4, 255 on
    /// LoRa).
    TooLong,
}

/// What happened to one packet at one receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Received intact (no overlap, or captured; not lost).
    Intact {
        /// It survived an overlap by capture.
        captured: bool,
    },
    /// Spoiled by an overlapping transmission the receiver hears.
    Collision,
    /// The receiver was transmitting during part of it.
    HalfDuplex,
    /// Would have been intact, lost at random.
    Lost {
        /// It survived an overlap by capture before it was lost.
        captured: bool,
    },
}

/// The channel's counts of arrivals, over every receiver that hears a sender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChannelStats {
    /// Packets put on the air (data and ACKs).
    pub transmissions: u64,
    /// Arrivals spoiled by an overlapping packet.
    pub collisions: u64,
    /// Arrivals saved by capture.
    pub captures: u64,
    /// Arrivals missed because the receiver was transmitting.
    pub half_duplex_losses: u64,
    /// Arrivals lost at random.
    pub random_losses: u64,
    /// Intact arrivals (captured ones included).
    pub intact: u64,
}

/// One transmission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transmission {
    /// Its number: the order in which transmissions started.
    pub id: u64,
    /// The sending station.
    pub src: usize,
    /// Start, ns.
    pub start: u64,
    /// End, ns.
    pub end: u64,
    /// The PHY payload.
    pub packet: Vec<u8>,
    /// Whether carrier sense at the neighbours sees it now.
    visible: bool,
}

/// The shared channel of the stations of a [`Links`].
#[derive(Clone, Debug)]
pub struct Channel {
    links: Links,
    air: MacConfig,
    capture_db: Option<f32>,
    /// The CCA's energy threshold, dBm; `None`: every heard transmission is sensed.
    cca_threshold: Option<f32>,
    loss: f64,
    rng: XorShiftRng,
    now: u64,
    /// Transmissions by start, kept while they can still overlap one on the air.
    recent: VecDeque<Transmission>,
    next_id: u64,
    /// Per station: its own transmission on the air (id, end).
    sending: Vec<Option<(u64, u64)>>,
    /// Per station: transmissions it hears that its CCA sees now.
    heard_busy: Vec<u32>,
    inbox: Vec<VecDeque<Vec<u8>>>,
    started: Vec<u64>,
    stats: ChannelStats,
}

impl Channel {
    /// A channel on `links`, with air times from `air`, capture at `capture_db` (or
    /// none) and random loss `loss` (0 to 1) drawn from `seed`.
    pub fn new(
        links: Links,
        air: MacConfig,
        capture_db: Option<f64>,
        loss: f64,
        seed: u64,
    ) -> Self {
        let n = links.len();
        Self {
            links,
            air,
            capture_db: capture_db.map(|d| d as f32),
            cca_threshold: None,
            loss,
            rng: XorShiftRng::seed_from_u64(seed),
            now: 0,
            recent: VecDeque::new(),
            next_id: 0,
            sending: vec![None; n],
            heard_busy: vec![0; n],
            inbox: vec![VecDeque::new(); n],
            started: Vec::new(),
            stats: ChannelStats::default(),
        }
    }

    /// This channel with the CCA's energy threshold at `dbm`: a station's carrier
    /// sense sees a transmission it hears only when its received power is at least
    /// `dbm` (IEEE 802.15.4 CCA mode 1); `None`, the default, senses every heard
    /// transmission.
    #[must_use]
    pub fn with_cca_threshold(mut self, dbm: Option<f64>) -> Self {
        self.cca_threshold = dbm.map(|d| d as f32);
        self
    }

    /// Whether `j`'s carrier sense sees a transmission of `src` that `j` hears.
    fn senses(&self, src: usize, j: usize) -> bool {
        match self.cca_threshold {
            None => true,
            Some(t) => self.links.power(src, j).is_some_and(|p| p >= t),
        }
    }

    /// The links.
    pub fn links(&self) -> &Links {
        &self.links
    }

    /// Set the time (ns); never moves backwards.
    pub fn set_now(&mut self, now_ns: u64) {
        self.now = self.now.max(now_ns);
    }

    /// The counts so far.
    pub fn stats(&self) -> ChannelStats {
        self.stats
    }

    /// Station `station`'s radio.
    pub fn radio(&mut self, station: usize) -> StationRadio<'_> {
        StationRadio {
            channel: self,
            station,
        }
    }

    /// The transmissions started since the last call, by id.
    pub fn take_started(&mut self) -> impl Iterator<Item = u64> + '_ {
        self.started.drain(..)
    }

    /// The transmission `id`, while the channel keeps it.
    pub fn transmission(&self, id: u64) -> Option<&Transmission> {
        let front = self.recent.front()?.id;
        self.recent
            .get(usize::try_from(id.checked_sub(front)?).ok()?)
    }

    fn transmission_mut(&mut self, id: u64) -> Option<&mut Transmission> {
        let front = self.recent.front()?.id;
        self.recent
            .get_mut(usize::try_from(id.checked_sub(front)?).ok()?)
    }

    /// Whether `station`'s CCA reports a clear channel.
    pub fn is_clear(&self, station: usize) -> bool {
        self.heard_busy.get(station).is_none_or(|&b| b == 0)
    }

    /// Start a transmission of `packet` by `station` now.
    ///
    /// # Errors
    ///
    /// [`ChannelError::AlreadyTransmitting`], [`ChannelError::TooLong`].
    pub fn transmit(&mut self, station: usize, packet: &[u8]) -> Result<u64, ChannelError> {
        if self.is_sending(station) {
            return Err(ChannelError::AlreadyTransmitting);
        }
        if packet.len() > self.air.phy().max_packet() {
            return Err(ChannelError::TooLong);
        }
        let id = self.next_id;
        self.next_id += 1;
        let end = self.now + self.air.air_time_ns(packet.len());
        if let Some(s) = self.sending.get_mut(station) {
            *s = Some((id, end));
        }
        self.recent.push_back(Transmission {
            id,
            src: station,
            start: self.now,
            end,
            packet: packet.to_vec(),
            visible: false,
        });
        self.started.push(id);
        self.stats.transmissions += 1;
        Ok(id)
    }

    fn is_sending(&self, station: usize) -> bool {
        self.sending
            .get(station)
            .copied()
            .flatten()
            .is_some_and(|(_, end)| end > self.now)
    }

    /// Transmission `id` becomes visible to its listeners' CCA; `changed` receives
    /// the stations whose CCA turned from clear to busy.
    pub fn make_visible(&mut self, id: u64, changed: &mut Vec<usize>) {
        let Some(tx) = self.transmission_mut(id) else {
            return;
        };
        if tx.visible || tx.end <= tx.start {
            return;
        }
        tx.visible = true;
        let src = tx.src;
        for &j in self.links.neighbours(src) {
            if !self.senses(src, j) {
                continue;
            }
            if let Some(b) = self.heard_busy.get_mut(j) {
                *b += 1;
                if *b == 1 {
                    changed.push(j);
                }
            }
        }
    }

    /// Transmission `id` ends now: each listener's arrival is resolved and the intact
    /// ones are handed to the receivers' radios; `arrivals` receives every listener's
    /// outcome and `changed` the stations whose CCA turned from busy to clear.
    pub fn end(&mut self, id: u64, arrivals: &mut Vec<(usize, Arrival)>, changed: &mut Vec<usize>) {
        let Some(tx) = self.transmission(id).cloned() else {
            return;
        };
        if let Some(s) = self.sending.get_mut(tx.src) {
            if s.is_some_and(|(sid, _)| sid == id) {
                *s = None;
            }
        }
        for &j in self.links.neighbours(tx.src) {
            let Some(power) = self.links.power(tx.src, j) else {
                continue;
            };
            let overlaps = |t: &&Transmission| t.id != id && t.start < tx.end && t.end > tx.start;
            let arrival = if self.recent.iter().filter(overlaps).any(|t| t.src == j) {
                self.stats.half_duplex_losses += 1;
                Arrival::HalfDuplex
            } else {
                let strongest = self
                    .recent
                    .iter()
                    .filter(overlaps)
                    .filter_map(|t| self.links.power(t.src, j))
                    .fold(None, |m: Option<f32>, p| Some(m.map_or(p, |m| m.max(p))));
                let captured = match (strongest, self.capture_db) {
                    (None, _) => Some(false),
                    (Some(other), Some(db)) if power >= other + db => Some(true),
                    (Some(_), _) => None,
                };
                match captured {
                    None => {
                        self.stats.collisions += 1;
                        Arrival::Collision
                    }
                    Some(captured) => {
                        if captured {
                            self.stats.captures += 1;
                        }
                        if self.loss > 0.0 && sim_kit::maths::unit_open0(&mut self.rng) <= self.loss
                        {
                            self.stats.random_losses += 1;
                            Arrival::Lost { captured }
                        } else {
                            self.stats.intact += 1;
                            if let Some(inbox) = self.inbox.get_mut(j) {
                                if inbox.len() < INBOX {
                                    inbox.push_back(tx.packet.clone());
                                }
                            }
                            Arrival::Intact { captured }
                        }
                    }
                }
            };
            arrivals.push((j, arrival));
            if tx.visible && self.senses(tx.src, j) {
                if let Some(b) = self.heard_busy.get_mut(j) {
                    *b = b.saturating_sub(1);
                    if *b == 0 {
                        changed.push(j);
                    }
                }
            }
        }
        if let Some(t) = self.transmission_mut(id) {
            t.visible = false;
        }
        // Forget what can no longer overlap a transmission on the air: one on the air
        // now started at most the longest air time ago.
        let horizon = self
            .now
            .saturating_sub(self.air.air_time_ns(self.air.phy().max_packet()));
        while self
            .recent
            .front()
            .is_some_and(|t| t.end < horizon && t.end <= self.now)
        {
            self.recent.pop_front();
        }
    }
}

/// One station's radio on the [`Channel`].
#[derive(Debug)]
pub struct StationRadio<'a> {
    channel: &'a mut Channel,
    station: usize,
}

impl Radio for StationRadio<'_> {
    type Error = ChannelError;

    fn transmit(&mut self, packet: &[u8]) -> Result<(), ChannelError> {
        self.channel.transmit(self.station, packet).map(|_| ())
    }

    fn is_transmitting(&mut self) -> Result<bool, ChannelError> {
        Ok(self.channel.is_sending(self.station))
    }

    fn receive(&mut self, buf: &mut [u8]) -> Result<Option<usize>, ChannelError> {
        let Some(inbox) = self.channel.inbox.get_mut(self.station) else {
            return Ok(None);
        };
        let Some(packet) = inbox.pop_front() else {
            return Ok(None);
        };
        let n = packet.len().min(buf.len());
        if let (Some(dst), Some(src)) = (buf.get_mut(..n), packet.get(..n)) {
            dst.copy_from_slice(src);
        }
        Ok(Some(n))
    }

    fn channel_clear(&mut self) -> Result<bool, ChannelError> {
        Ok(self.channel.is_clear(self.station))
    }
}
