//! The driver: N instances of radio-mac's real [`MacCore`] on the host [`Channel`],
//! run by a discrete-event loop on sim-kit's [`EventQueue`] (ties in the order the
//! events were scheduled, so a run is a function of its configuration and seed).
//!
//! ## Events, and when a station is polled
//!
//! * **Deadline** of a station: [`MacCore::next_deadline_ns`]. Only the latest one
//!   per station counts; an older one still in the queue is skipped (counted as
//!   stale).
//! * **Visible**: a transmission becomes visible to its listeners' CCA
//!   (start + `cca_delay`); **End**: it leaves the air, and every listener's arrival is
//!   resolved.
//! * **Arrival** of a frame at a sender's queue (Poisson traffic).
//! * **Wake**: a station that received a data frame for itself is polled again a SIFS
//!   later, when its ACK is due.
//!
//! A station is polled at its deadline, when a packet reaches it, when its own
//! transmission ends, at every change of its CCA state (clear to busy and busy to
//! clear, as it sees it; idle stations too, so that a rule that times the idle
//! channel, as IEEE 802.11's DCF does, sees every change), and when a frame arrives
//! while its MAC is idle. At one
//! instant it is polled until it reports no event and its deadline stays put, since
//! one poll reports at most one event.
//!
//! radio-mac's carrier sense asks to be polled at least once a slot while it counts
//! its interframe space, and returns a deadline already passed (the start of the count
//! plus a slot) once that slot is over. Changes of the channel are polls here, so the
//! only instant left that matters is the end of the interframe space, start + IFS:
//! the driver polls then (`deadline - slot + IFS`), and, while a deadline stays in the
//! past (a frame waiting behind an ACK the station owes), at least once a slot.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};

use radio_mac::frame::{Frame, Kind};
use radio_mac::{Address, AirEvent, DropReason, Event, MacConfig, MacCore};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
pub use sim_kit::engine::CANCEL_EVERY;
use sim_kit::engine::EventQueue;
use sim_kit::maths::{exponential, split_seed};
use sim_kit::stats::Histogram;
use sim_kit::time::Time;

use crate::channel::{Arrival, Channel, ChannelStats};
use crate::config::{ConfigError, Destination, MAX_PAYLOAD, RadioConfig, Traffic};
use crate::metrics::{Delays, Drops, RadioResult, StationRow};
use crate::topology::{self, Links};

/// The MAC as the driver runs it: payloads up to 118 bytes, 4 received frames queued,
/// and the last sequence number of every possible peer (so duplicate suppression
/// never forgets a sender).
pub type StationMac = MacCore<XorShiftRng, MAX_PAYLOAD, 4, 255>;

/// Seed streams ([`split_seed`]): the channel's losses, each station's MAC and each
/// station's traffic.
const CHANNEL_STREAM: u64 = 1;
const MAC_STREAM: u64 = 1 << 20;
const TRAFFIC_STREAM: u64 = 2 << 20;

#[derive(Clone, Copy, Debug)]
enum Ev {
    Deadline(usize),
    Wake(usize),
    Visible(u64),
    End(u64),
    Arrival(usize),
    WarmupEnd,
}

/// A frame waiting at a sender, or inside its MAC.
#[derive(Clone, Copy, Debug)]
struct Pending {
    id: u32,
    arrived: u64,
    dst: usize,
}

#[derive(Clone, Debug, Default)]
struct Station {
    queue: VecDeque<Pending>,
    current: Option<Pending>,
    deadline: Option<u64>,
    next_id: u32,
    /// Per frame id: 0 waiting or in the MAC, 1 delivered, 2 dropped.
    fate: Vec<u8>,
    row: StationRow,
    delay_sum_us: f64,
}

/// What a station's state holds (its MAC, its host queue of `queue` frames full, its
/// traffic stream), and one pending event: for [`crate::memory`].
pub(crate) fn station_and_event_bytes(
    queue: u32,
) -> (sim_kit::memory::Bytes, sim_kit::memory::Bytes) {
    use sim_kit::memory::Bytes;
    let station = Bytes::of::<StationMac>(1)
        + Bytes::of::<Station>(1)
        + Bytes::growable::<Pending>(u64::from(queue) + 1)
        + Bytes::of::<XorShiftRng>(1)
        + Bytes::of::<Vec<u8>>(1)
        + Bytes::new(16);
    (station, Bytes::of::<(sim_kit::time::Time, u64, Ev)>(1))
}

/// The state of a run.
struct Run<'c> {
    c: &'c RadioConfig,
    mac_config: MacConfig,
    macs: Vec<StationMac>,
    stations: Vec<Station>,
    /// `received[sender][frame id]`: how often the destination got it.
    received: Vec<Vec<u8>>,
    traffic_rngs: Vec<XorShiftRng>,
    senders: Vec<bool>,
    channel: Channel,
    queue: EventQueue<Ev>,
    now: u64,
    warmup_ns: u64,
    end_ns: u64,
    cca_delay_ns: u64,
    mean_interarrival_ns: f64,
    delays: Histogram,
    totals: Totals,
    channel_at_warmup: ChannelStats,
    duplicates_at_warmup: u64,
    scratch_changed: Vec<usize>,
    scratch_arrivals: Vec<(usize, Arrival)>,
    polled: Vec<u64>,
    poll_stamp: u64,
    events: u64,
    stale: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    offered: u64,
    delivered: u64,
    ended: u64,
    attempts: u64,
    drops: Drops,
    data_transmissions: u64,
    overlapped: u64,
    success_air_ns: u64,
    busy_assessments: u64,
}

/// Run `c`.
///
/// # Errors
///
/// [`ConfigError`] if the configuration cannot run (see [`RadioConfig::validate`]).
pub fn run(c: &RadioConfig) -> Result<RadioResult, ConfigError> {
    let mac_config = c.validate()?;
    let links = topology::build(c);
    Ok(Run::new(c, mac_config, links).execute(None).0)
}

/// Run `c`, looking at `cancel` every [`CANCEL_EVERY`] events: `None` once it is seen
/// raised (the run stops there and gives no result), else the run's result, the same
/// as [`run`]'s.
///
/// # Errors
///
/// As [`run`].
pub fn run_with(c: &RadioConfig, cancel: &AtomicBool) -> Result<Option<RadioResult>, ConfigError> {
    let mac_config = c.validate()?;
    let links = topology::build(c);
    let (r, whole) = Run::new(c, mac_config, links).execute(Some(cancel));
    Ok(whole.then_some(r))
}

/// Run `c` on the given links instead of its topology's (for tests and for callers
/// with their own graphs; `links` must have `c.stations` stations).
///
/// # Errors
///
/// [`ConfigError`] if the configuration cannot run or `links` has another number of
/// stations.
pub fn run_on(c: &RadioConfig, links: Links) -> Result<RadioResult, ConfigError> {
    let mac_config = c.validate()?;
    if links.len() != usize::from(c.stations) {
        return Err(ConfigError::Value {
            key: "stations",
            problem: format!("{} stations but {} in the links", c.stations, links.len()),
        });
    }
    Ok(Run::new(c, mac_config, links).execute(None).0)
}

/// The address of station `i`.
pub fn address(i: usize) -> Address {
    Address(u8::try_from(i + 1).unwrap_or(0xFE))
}

fn station_of(a: Address) -> usize {
    usize::from(a.0).saturating_sub(1)
}

impl<'c> Run<'c> {
    fn new(c: &'c RadioConfig, mac_config: MacConfig, links: Links) -> Self {
        let n = links.len();
        let macs = (0..n)
            .map(|i| {
                let cfg = mac_config.with_address(address(i)).unwrap_or(mac_config);
                let seed = split_seed(c.seed, MAC_STREAM + i as u64);
                MacCore::new(cfg, XorShiftRng::seed_from_u64(seed))
            })
            .collect();
        let senders: Vec<bool> = (0..n)
            .map(|i| {
                i != 0
                    && match c.to {
                        Destination::Sink => links.power(i, 0).is_some(),
                        Destination::Neighbour => !links.neighbours(i).is_empty(),
                    }
            })
            .collect();
        let k = senders.iter().filter(|&&s| s).count().max(1) as f64;
        let data_air = mac_config.air_time_ns(usize::from(c.payload) + radio_mac::frame::OVERHEAD);
        let mut stations = vec![Station::default(); n];
        for (i, s) in stations.iter_mut().enumerate() {
            s.row.station = i as u16;
            s.row.neighbours = links.neighbours(i).len() as u32;
        }
        let channel = Channel::new(
            links,
            mac_config,
            c.capture(),
            c.loss,
            split_seed(c.seed, CHANNEL_STREAM),
        )
        .with_cca_threshold(c.cca_threshold_dbm);
        let warmup_ns = c.warmup.as_ns();
        Self {
            c,
            mac_config,
            macs,
            stations,
            received: vec![Vec::new(); n],
            traffic_rngs: (0..n)
                .map(|i| XorShiftRng::seed_from_u64(split_seed(c.seed, TRAFFIC_STREAM + i as u64)))
                .collect(),
            senders,
            channel,
            queue: EventQueue::with_capacity(4 * n),
            now: 0,
            warmup_ns,
            end_ns: warmup_ns.saturating_add(c.duration.as_ns()),
            cca_delay_ns: c.cca_delay_ns(&mac_config),
            mean_interarrival_ns: k * data_air as f64 / c.load.max(f64::MIN_POSITIVE),
            delays: Histogram::new(),
            totals: Totals::default(),
            channel_at_warmup: ChannelStats::default(),
            duplicates_at_warmup: 0,
            scratch_changed: Vec::new(),
            scratch_arrivals: Vec::new(),
            polled: vec![0; n],
            poll_stamp: 0,
            events: 0,
            stale: 0,
        }
    }

    fn measuring(&self) -> bool {
        self.now >= self.warmup_ns
    }

    fn schedule(&mut self, at: u64, ev: Ev) {
        self.queue.schedule(Time::from_ns(at), ev);
    }

    /// The run to its end, or until `cancel` is seen raised: the result, and whether
    /// the run went to its end.
    fn execute(mut self, cancel: Option<&AtomicBool>) -> (RadioResult, bool) {
        let n = self.macs.len();
        self.schedule(self.warmup_ns, Ev::WarmupEnd);
        for s in 0..n {
            if !self.senders[s] {
                continue;
            }
            match self.c.traffic {
                Traffic::Saturated => self.service(s),
                Traffic::Poisson => {
                    let gap = exponential(&mut self.traffic_rngs[s], self.mean_interarrival_ns);
                    self.schedule(gap as u64, Ev::Arrival(s));
                }
            }
        }
        let end = Time::from_ns(self.end_ns);
        let mut whole = true;
        while let Some((t, ev)) = self.queue.pop() {
            if t >= end {
                break;
            }
            self.now = t.as_ns();
            self.channel.set_now(self.now);
            self.events += 1;
            self.handle(ev);
            if self.events % CANCEL_EVERY == 0 && cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            {
                whole = false;
                break;
            }
        }
        (self.finish(), whole)
    }

    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::Deadline(s) => {
                if self.stations[s].deadline != Some(self.now) {
                    self.stale += 1;
                    return;
                }
                self.stations[s].deadline = None;
                self.service(s);
            }
            Ev::Wake(s) => self.service(s),
            Ev::Arrival(s) => {
                self.arrive(s);
                let gap = exponential(&mut self.traffic_rngs[s], self.mean_interarrival_ns);
                self.schedule(self.now + (gap as u64).max(1), Ev::Arrival(s));
                if self.macs[s].is_idle() {
                    self.service(s);
                }
            }
            Ev::Visible(id) => {
                let mut changed = std::mem::take(&mut self.scratch_changed);
                self.channel.make_visible(id, &mut changed);
                self.poll_changed(&changed);
                changed.clear();
                self.scratch_changed = changed;
            }
            Ev::End(id) => self.end_of(id),
            Ev::WarmupEnd => {
                self.channel_at_warmup = self.channel.stats();
                self.duplicates_at_warmup = self.duplicates();
            }
        }
    }

    fn duplicates(&self) -> u64 {
        self.macs
            .iter()
            .map(|m| u64::from(m.counters().medium.rx_duplicates))
            .sum()
    }

    /// Stations whose CCA changed: each is polled.
    fn poll_changed(&mut self, changed: &[usize]) {
        for &j in changed {
            self.service(j);
        }
    }

    fn end_of(&mut self, id: u64) {
        let mut arrivals = std::mem::take(&mut self.scratch_arrivals);
        let mut changed = std::mem::take(&mut self.scratch_changed);
        self.channel.end(id, &mut arrivals, &mut changed);
        let Some(tx) = self.channel.transmission(id) else {
            return;
        };
        let (src, start, end) = (tx.src, tx.start, tx.end);
        let data_dst = match (tx.packet.first(), tx.packet.get(2)) {
            (Some(&k), Some(&d)) if k == Kind::Data.to_byte() => Some(station_of(Address(d))),
            _ => None,
        };
        if let Some(dst) = data_dst {
            if start >= self.warmup_ns {
                self.totals.data_transmissions += 1;
                match arrivals.iter().find(|(j, _)| *j == dst).map(|&(_, a)| a) {
                    Some(Arrival::Collision | Arrival::HalfDuplex) => self.totals.overlapped += 1,
                    Some(Arrival::Intact { .. }) => {
                        self.totals.success_air_ns += end - start;
                    }
                    _ => {}
                }
            }
        }
        self.poll_stamp += 1;
        let stamp = self.poll_stamp;
        self.polled[src] = stamp;
        self.service(src);
        for &(j, a) in &arrivals {
            if let Arrival::Intact { .. } = a {
                if self.polled[j] != stamp {
                    self.polled[j] = stamp;
                    self.service(j);
                }
                if data_dst == Some(j) {
                    // The ACK is due a SIFS later.
                    self.schedule(self.now + self.mac_config.sifs_ns(), Ev::Wake(j));
                }
            }
        }
        let unpolled: Vec<usize> = changed
            .iter()
            .copied()
            .filter(|&j| self.polled[j] != stamp)
            .collect();
        self.poll_changed(&unpolled);
        arrivals.clear();
        changed.clear();
        self.scratch_arrivals = arrivals;
        self.scratch_changed = changed;
    }

    /// A new frame at sender `s` (Poisson): into its queue, or dropped if it is full.
    fn arrive(&mut self, s: usize) {
        let frame = self.new_frame(s);
        let measuring = self.measuring();
        let st = &mut self.stations[s];
        if measuring {
            st.row.offered += 1;
            self.totals.offered += 1;
        }
        if st.queue.len() >= self.c.queue as usize {
            st.fate[frame.id as usize] = 2;
            if measuring {
                st.row.dropped += 1;
                self.totals.drops.queue += 1;
            }
        } else {
            st.queue.push_back(frame);
        }
    }

    fn new_frame(&mut self, s: usize) -> Pending {
        let dst = match self.c.to {
            Destination::Sink => 0,
            Destination::Neighbour => {
                let nb = self.channel.links().neighbours(s);
                let k = (sim_kit::maths::unit_open0(&mut self.traffic_rngs[s]) * nb.len() as f64)
                    as usize;
                nb.get(k.min(nb.len().saturating_sub(1)))
                    .copied()
                    .unwrap_or(0)
            }
        };
        let st = &mut self.stations[s];
        let id = st.next_id;
        st.next_id += 1;
        st.fate.push(0);
        Pending {
            id,
            arrived: self.now,
            dst,
        }
    }

    /// Hand sender `s`'s next frame to its MAC if it is idle.
    fn feed(&mut self, s: usize) {
        if !self.senders[s] || !self.macs[s].is_idle() {
            return;
        }
        let frame = match self.c.traffic {
            Traffic::Saturated => {
                let f = self.new_frame(s);
                if self.measuring() {
                    self.stations[s].row.offered += 1;
                    self.totals.offered += 1;
                }
                f
            }
            Traffic::Poisson => match self.stations[s].queue.pop_front() {
                Some(f) => f,
                None => return,
            },
        };
        let mut payload = [0x5Au8; MAX_PAYLOAD];
        payload[..4].copy_from_slice(&frame.id.to_le_bytes());
        let len = usize::from(self.c.payload);
        if self.macs[s]
            .enqueue(address(frame.dst), &payload[..len])
            .is_ok()
        {
            self.stations[s].current = Some(frame);
        }
    }

    /// Poll station `s` now until it has nothing more to say, then schedule its next
    /// deadline.
    fn service(&mut self, s: usize) {
        self.feed(s);
        let now = self.now;
        for _ in 0..64 {
            let before = self.macs[s].next_deadline_ns();
            let ev = self.macs[s].poll(&mut self.channel.radio(s), now);
            self.started();
            self.take_received(s);
            if let Some(ev) = ev {
                self.on_event(s, ev);
                continue;
            }
            let after = self.macs[s].next_deadline_ns();
            if after.is_some_and(|d| d <= now) && after != before {
                continue;
            }
            break;
        }
        let next = match self.macs[s].next_deadline_ns() {
            Some(d) if d > now => Some(d),
            Some(d) => {
                // Carrier sense counting its interframe space (see the module docs),
                // and in any case once a slot, as the MAC asks.
                let slot = self.mac_config.slot().as_nanos();
                let ifs_end = d
                    .saturating_sub(slot)
                    .saturating_add(self.mac_config.interframe_space_ns());
                let sample = now.saturating_add(slot.max(1));
                Some(if ifs_end > now {
                    ifs_end.min(sample)
                } else {
                    sample
                })
            }
            None => None,
        };
        if let Some(d) = next {
            if self.stations[s].deadline != Some(d) {
                self.stations[s].deadline = Some(d);
                self.schedule(d, Ev::Deadline(s));
            }
        } else {
            self.stations[s].deadline = None;
        }
    }

    /// Schedule the events of the transmissions just started.
    fn started(&mut self) {
        let ids: Vec<u64> = self.channel.take_started().collect();
        for id in ids {
            let Some(tx) = self.channel.transmission(id) else {
                continue;
            };
            let (start, end) = (tx.start, tx.end);
            let visible = start.saturating_add(self.cca_delay_ns);
            if visible < end {
                self.schedule(visible, Ev::Visible(id));
            }
            self.schedule(end, Ev::End(id));
        }
    }

    fn take_received(&mut self, s: usize) {
        while let Some(frame) = self.macs[s].take_received() {
            self.count_reception(&frame);
        }
    }

    fn count_reception(&mut self, frame: &Frame<MAX_PAYLOAD>) {
        let sender = station_of(frame.src());
        let Some(bytes) = frame.payload().get(..4) else {
            return;
        };
        let id = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize;
        if let Some(r) = self.received.get_mut(sender) {
            if r.len() <= id {
                r.resize(id + 1, 0);
            }
            r[id] = r[id].saturating_add(1);
        }
    }

    fn on_event(&mut self, s: usize, ev: Event) {
        let (attempts, drop) = match ev {
            Event::Delivered { attempts } => (attempts, None),
            Event::Dropped { reason, attempts } => (attempts, Some(reason)),
            Event::Medium(AirEvent::ChannelBusy { .. }) => {
                if self.measuring() {
                    self.totals.busy_assessments += 1;
                }
                return;
            }
            _ => return,
        };
        let Some(frame) = self.stations[s].current.take() else {
            return;
        };
        let measuring = self.measuring();
        let st = &mut self.stations[s];
        st.fate[frame.id as usize] = if drop.is_none() { 1 } else { 2 };
        if measuring {
            let t = &mut self.totals;
            t.ended += 1;
            t.attempts += u64::from(attempts);
            st.row.attempts += u64::from(attempts);
            match drop {
                None => {
                    t.delivered += 1;
                    st.row.delivered += 1;
                    let delay = self.now - frame.arrived;
                    self.delays.record(Time::from_ns(delay));
                    st.delay_sum_us += delay as f64 / 1e3;
                }
                Some(reason) => {
                    st.row.dropped += 1;
                    match reason {
                        DropReason::NoAck => t.drops.no_ack += 1,
                        DropReason::ChannelBusy => {
                            // The assessment that found the channel busy once too often.
                            t.drops.channel_busy += 1;
                            t.busy_assessments += 1;
                        }
                        DropReason::RadioError => t.drops.radio_error += 1,
                    }
                }
            }
        }
        self.feed(s);
    }

    fn finish(mut self) -> RadioResult {
        let mut violations = 0;
        for (s, st) in self.stations.iter().enumerate() {
            for (id, &fate) in st.fate.iter().enumerate() {
                let got = self.received[s].get(id).copied().unwrap_or(0);
                if (fate == 1 && got != 1) || (fate != 1 && got > 1) {
                    violations += 1;
                }
            }
        }
        for st in &mut self.stations {
            st.row.mean_delay_us = if st.row.delivered > 0 {
                st.delay_sum_us / st.row.delivered as f64
            } else {
                f64::NAN
            };
        }
        let t = self.totals;
        let duration_ns = self.c.duration.as_ns().max(1) as f64;
        // A ratio over nothing is undefined.
        let ratio = |a: u64, b: u64| {
            if b == 0 {
                f64::NAN
            } else {
                a as f64 / b as f64
            }
        };
        let now = self.channel.stats();
        let w = self.channel_at_warmup;
        let links = self.channel.links();
        let link_count = (0..links.len())
            .map(|i| links.neighbours(i).len())
            .sum::<usize>()
            / 2;
        RadioResult {
            config: self.c.clone(),
            senders: self.senders.iter().filter(|&&s| s).count() as u32,
            links: link_count as u32,
            offered: t.offered,
            delivered: t.delivered,
            ended: t.ended,
            attempts: t.attempts,
            drops: t.drops,
            data_transmissions: t.data_transmissions,
            overlapped_transmissions: t.overlapped,
            busy_assessments: t.busy_assessments,
            throughput: t.success_air_ns as f64 / duration_ns,
            goodput_kbps: t.delivered as f64 * f64::from(self.c.payload) * 8.0 / duration_ns * 1e6,
            delivery_ratio: ratio(t.delivered, t.ended + t.drops.queue),
            attempts_per_frame: ratio(t.attempts, t.ended),
            collision_probability: ratio(t.overlapped, t.data_transmissions),
            delay: Delays::of(&self.delays),
            channel: ChannelStats {
                transmissions: now.transmissions - w.transmissions,
                collisions: now.collisions - w.collisions,
                captures: now.captures - w.captures,
                half_duplex_losses: now.half_duplex_losses - w.half_duplex_losses,
                random_losses: now.random_losses - w.random_losses,
                intact: now.intact - w.intact,
            },
            duplicates_suppressed: self.duplicates() - self.duplicates_at_warmup,
            exactly_once_violations: violations,
            events: self.events,
            stale_events: self.stale,
            per_station: self.stations.iter().map(|s| s.row).collect(),
        }
    }
}

#[cfg(test)]
mod tests;
