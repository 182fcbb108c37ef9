//! The exact CSMA/CD model: N stations on one bus, with propagation delay.
//!
//! # Physics
//!
//! Station `i` sits at propagation distance `pᵢ` (picoseconds from one end of the
//! cable); a signal started at `s` by station `k` reaches station `i` at
//! `s + |pᵢ − p_k|`. A station *senses carrier* at time `t` when some signal's front
//! reached it strictly before `t` and its tail has not yet passed, so two stations that
//! start at the same instant at the same point both see an idle medium and collide.
//!
//! # Protocol (1-persistent, IEEE 802.3 clause 4.2.3)
//!
//! * A station with a frame *attempts*: if it senses carrier it **defers** until the
//!   carrier drops, waits the interframe gap and attempts again; if the medium is idle
//!   but went idle less than one interframe gap ago, it waits out the gap; otherwise it
//!   transmits preamble + SFD + frame.
//! * A transmitter that sees another signal arrive **detects a collision**: it finishes
//!   the preamble if still sending it, sends the 32-bit jam and stops.
//! * After the c-th collision of a frame it asks the backoff algorithm (for BEB:
//!   `backoff_core::BebConfig::decide`) and waits `r` slots, or drops the frame after
//!   `attemptLimit` attempts. The counter restarts with each frame.
//! * After a success (or drop) the next frame is attempted one interframe gap later.
//!
//! # How it stays fast for a million stations
//!
//! Nothing is ever done for every station. The stations whose signal front is still
//! travelling along the cable are kept in a [`LevelBitSet`] indexed by station number
//! (stations are numbered in order of position). Within the model's validity range
//! (one-way delay below preamble + jam + gap, round trip within the slot), the first
//! foreign signal to reach a station comes from its *nearest* such neighbour on each
//! side, so starting a transmission, detecting collisions and sensing the carrier each
//! look at a few neighbours: `O(log₆₄ N)`. Signals whose front has covered the whole
//! bus are folded into two running maxima from which the moment the carrier drops at
//! any position follows in `O(1)`. A deferring station is not polled: it is woken when
//! the busy period ends, at the instant the carrier drops at its position.
//!
//! One simplification is documented rather than hidden: a deferring station waits for
//! the end of the whole busy period as seen at its position, so a momentary gap in the
//! carrier inside a busy period (possible only with collisions between far-apart
//! stations) does not release it early.

use std::collections::VecDeque;

use backoff_core::Decision;
use backoff_core::uniform::uniform_below;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

use crate::backoff::Backoff;
use crate::bitset::LevelBitSet;
use crate::config::{Placement, RunConfig, Timing, Traffic};
use crate::engine::{Engine, EventQueue, Model};
use crate::error::ConfigError;
use crate::mathx::split_seed;
use crate::results::{Conservation, RunResult};
use crate::segtree::FrontTree;
use crate::stats::{BackoffStats, Capture, Histogram, jain_index};
use crate::theory;
use crate::time::{PS_PER_SEC, Time};
use crate::traffic::{FrameSizer, PoissonArrivals};

/// An event of the exact model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The station has a frame and its timer (backoff, gap or deferral) expired: sense
    /// the carrier and transmit, wait or defer.
    Attempt(u32),
    /// The station's transmission (frame or jam) ends. A collision can only move
    /// the end earlier, and then schedules a new one; an event whose time is no
    /// longer the station's end of transmission is stale.
    TxEnd(u32),
    /// A frame arrives (Poisson traffic) at a station chosen uniformly.
    Arrival,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No frame (Poisson traffic only).
    Idle,
    /// A frame, and an `Attempt` scheduled.
    Waiting,
    /// A frame, deferring to a busy medium until the busy period ends.
    Deferred,
    /// Transmitting (frame or jam), a `TxEnd` scheduled.
    Transmitting,
}

const NONE: Time = Time::MAX;

/// From this many stations on, carrier sense uses the [`FrontTree`] instead of a walk
/// over neighbours (same answers, bounded cost in bursts of simultaneous starts).
pub const INDEXED_SENSE_FROM: u32 = 2048;
const NEG: i64 = i64::MIN / 4;

#[derive(Clone, Debug)]
struct Station {
    pos: i64,
    tx_start: Time,
    tx_end: Time,
    det: Time,
    hol_since: Time,
    arrival: Time,
    delivered_bits: u64,
    rng: XorShiftRng,
    collisions: u32,
    frame_bits: u32,
    state: State,
    tx_done: bool,
}

/// Counters of the run.
#[derive(Clone, Debug, Default)]
struct Counters {
    generated: u64,
    delivered: u64,
    delivered_bits: u64,
    payload_bits: u64,
    dropped_excessive: u64,
    dropped_overflow: u64,
    attempts: u64,
    collided_attempts: u64,
    collision_events: u64,
}

/// The exact CSMA/CD model (see the module docs).
pub struct CsmaCd {
    cfg: RunConfig,
    t: Timing,
    backoff: Backoff,
    sizer: FrameSizer,
    stations: Vec<Station>,
    queues: Vec<VecDeque<(Time, u32)>>,
    fronts: LevelBitSet,
    tree: Option<FrontTree>,
    front_fifo: VecDeque<(Time, u32)>,
    old_transmitting: u32,
    active: u32,
    u_old: i64,
    v_old: i64,
    u_all: i64,
    v_all: i64,
    deferred: Vec<u32>,
    busy_collided: bool,
    traffic_rng: XorShiftRng,
    arrivals: Option<PoissonArrivals>,
    c: Counters,
    attempts_hist: Vec<u64>,
    backoff_stats: BackoffStats,
    access: Histogram,
    total: Histogram,
    capture: Capture,
}

/// Propagation positions (ps from the cable's start), ascending.
fn positions(cfg: &RunConfig, max_prop: Time) -> Vec<i64> {
    let n = cfg.stations as usize;
    let mut pos: Vec<i64> = match cfg.placement {
        Placement::Point => vec![0; n],
        Placement::Even => (0..n)
            .map(|i| {
                if n == 1 {
                    0
                } else {
                    (u128::from(max_prop) * i as u128 / (n as u128 - 1)) as i64
                }
            })
            .collect(),
        Placement::Random => {
            let mut rng = XorShiftRng::seed_from_u64(split_seed(cfg.seed, 1));
            (0..n)
                .map(|_| {
                    use rand_core::Rng;
                    ((u128::from(rng.next_u64()) * (u128::from(max_prop) + 1)) >> 64) as i64
                })
                .collect()
        }
    };
    pos.sort_unstable();
    pos
}

impl CsmaCd {
    /// Build the model and its initial events. Fails on invalid parameters.
    ///
    /// Saturated stations all have their first frame ready at time 0.
    pub fn new(cfg: &RunConfig) -> Result<(Self, EventQueue<Event>), ConfigError> {
        Self::build(cfg, None)
    }

    /// Like [`new`](Self::new) for saturated traffic, but station `i` (in order of
    /// position) gets its first frame at `starts[i]` picoseconds. Used to stage exact
    /// scenarios, e.g. two stations starting a known time apart.
    pub fn new_with_start_times(
        cfg: &RunConfig,
        starts: &[Time],
    ) -> Result<(Self, EventQueue<Event>), ConfigError> {
        if starts.len() != cfg.stations as usize || cfg.traffic != Traffic::Saturated {
            return Err(ConfigError::Timing(
                "start times need saturated traffic and one time per station".into(),
            ));
        }
        Self::build(cfg, Some(starts))
    }

    fn build(
        cfg: &RunConfig,
        starts: Option<&[Time]>,
    ) -> Result<(Self, EventQueue<Event>), ConfigError> {
        let t = cfg.validate()?;
        let beb = cfg.beb()?;
        let n = cfg.stations as usize;
        let sizer = FrameSizer::new(&cfg.frames);
        let pos = positions(cfg, t.max_prop);
        let stations: Vec<Station> = pos
            .iter()
            .enumerate()
            .map(|(i, &p)| Station {
                pos: p,
                tx_start: 0,
                tx_end: 0,
                det: NONE,
                hol_since: 0,
                arrival: 0,
                delivered_bits: 0,
                rng: XorShiftRng::seed_from_u64(split_seed(cfg.seed, 2 + i as u64)),
                collisions: 0,
                frame_bits: 0,
                state: State::Idle,
                tx_done: true,
            })
            .collect();
        let arrivals = match cfg.traffic {
            Traffic::Saturated => None,
            Traffic::Poisson { load } => Some(PoissonArrivals::new(
                load,
                cfg.phy.bit_rate,
                cfg.frames.mean_bits(),
            )),
        };
        let mut m = Self {
            cfg: cfg.clone(),
            t,
            backoff: Backoff::new(cfg.backoff, beb),
            sizer,
            stations,
            queues: if arrivals.is_some() {
                vec![VecDeque::new(); n]
            } else {
                Vec::new()
            },
            fronts: LevelBitSet::new(n),
            tree: (cfg.stations >= INDEXED_SENSE_FROM).then(|| FrontTree::new(n)),
            front_fifo: VecDeque::new(),
            old_transmitting: 0,
            active: 0,
            u_old: NEG,
            v_old: NEG,
            u_all: NEG,
            v_all: NEG,
            deferred: Vec::new(),
            busy_collided: false,
            traffic_rng: XorShiftRng::seed_from_u64(split_seed(cfg.seed, 0)),
            arrivals,
            c: Counters::default(),
            attempts_hist: vec![0; cfg.attempt_limit as usize],
            backoff_stats: BackoffStats::new(),
            access: Histogram::new(),
            total: Histogram::new(),
            capture: Capture::new(n, cfg.capture_window),
        };
        let mut q = EventQueue::with_capacity(n + 16);
        match m.arrivals {
            None => {
                for k in 0..n {
                    let at = starts.and_then(|s| s.get(k).copied()).unwrap_or(0);
                    let st = &mut m.stations[k];
                    st.frame_bits = m.sizer.draw(&mut st.rng);
                    st.state = State::Waiting;
                    st.hol_since = at;
                    st.arrival = at;
                    m.c.generated += 1;
                    q.schedule(at, Event::Attempt(k as u32));
                }
            }
            Some(a) => {
                let gap = a.next_gap(&mut m.traffic_rng);
                q.schedule(gap, Event::Arrival);
            }
        }
        Ok((m, q))
    }

    #[inline]
    fn off(u: i64, v: i64, p: i64) -> i64 {
        (u + p).max(v - p)
    }

    /// Fold signal fronts that have covered the whole bus out of the front set.
    #[inline]
    fn purge(&mut self, now: Time) {
        while let Some(&(s, k)) = self.front_fifo.front() {
            if s + self.t.max_prop >= now {
                break;
            }
            self.front_fifo.pop_front();
            let k = k as usize;
            self.fronts.remove(k);
            if let Some(t) = &mut self.tree {
                t.clear(k);
            }
            let st = &self.stations[k];
            debug_assert_eq!(st.tx_start, s);
            if st.tx_done {
                let e = st.tx_end as i64;
                self.u_old = self.u_old.max(e - st.pos);
                self.v_old = self.v_old.max(e + st.pos);
            } else {
                self.old_transmitting += 1;
            }
        }
    }

    /// `None` if station `k` senses carrier at `now`, else the last time the carrier
    /// dropped at its position (very negative if never).
    #[inline]
    fn sense(&self, k: usize, now: Time) -> Option<i64> {
        if self.old_transmitting > 0 {
            return None;
        }
        let now = now as i64;
        let p = self.stations[k].pos;
        let mut last = Self::off(self.u_old, self.v_old, p);
        if last > now {
            return None;
        }
        if let Some(t) = &self.tree {
            // Left: members up to k whose front has arrived form a run ending at k.
            let tau = now - p;
            let from = t.rightmost_a_at_least(k, tau).map_or(0, |i| i + 1);
            if from <= k {
                let tail = t.max_tail_left(from, k);
                if tail > tau {
                    return None;
                }
                last = last.max(tail + p);
            }
            let sigma = now + p;
            let to = t
                .leftmost_b_at_least(k + 1, sigma)
                .unwrap_or(self.stations.len());
            if k + 1 < to {
                let tail = t.max_tail_right(k + 1, to - 1);
                if tail > sigma {
                    return None;
                }
                last = last.max(tail - p);
            }
            return Some(last);
        }
        let mut j = self.fronts.pred_incl(k);
        while let Some(jj) = j {
            let s = &self.stations[jj];
            let d = p - s.pos;
            if s.tx_start as i64 + d >= now {
                break;
            }
            let tail = s.tx_end as i64 + d;
            if tail > now {
                return None;
            }
            last = last.max(tail);
            j = self.fronts.pred(jj);
        }
        let mut j = self.fronts.succ(k);
        while let Some(jj) = j {
            let s = &self.stations[jj];
            let d = s.pos - p;
            if s.tx_start as i64 + d >= now {
                break;
            }
            let tail = s.tx_end as i64 + d;
            if tail > now {
                return None;
            }
            last = last.max(tail);
            j = self.fronts.succ(jj);
        }
        Some(last)
    }

    fn attempt(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        self.purge(now);
        match self.sense(k, now) {
            None => {
                if self.active == 0 {
                    let off = Self::off(self.u_all, self.v_all, self.stations[k].pos);
                    let at = (off.max(0) as Time + self.t.ifg).max(now);
                    q.schedule(at, Event::Attempt(k as u32));
                } else {
                    self.stations[k].state = State::Deferred;
                    self.deferred.push(k as u32);
                }
            }
            Some(last) => {
                let ready = last.saturating_add(self.t.ifg as i64);
                if ready > now as i64 {
                    q.schedule(ready as Time, Event::Attempt(k as u32));
                } else {
                    self.start_tx(now, k, q);
                }
            }
        }
    }

    /// A signal from `k` started at `now` reaches neighbour `nb`: collision detection.
    #[inline]
    fn hit(&mut self, now: Time, k: usize, nb: usize, q: &mut EventQueue<Event>) {
        let pk = self.stations[k].pos;
        let (pre, jam) = (self.t.preamble, self.t.jam);
        let st = &mut self.stations[nb];
        if st.state != State::Transmitting {
            return;
        }
        let arrival = now + pk.abs_diff(st.pos);
        if arrival < st.tx_end && arrival < st.det {
            st.det = arrival;
            let end = arrival.max(st.tx_start + pre) + jam;
            if end < st.tx_end {
                st.tx_end = end;
                if let Some(t) = &mut self.tree {
                    let (s, e, p) = (st.tx_start as i64, end as i64, st.pos);
                    t.set(nb, [s - p, e - p, s + p, e + p]);
                }
                q.schedule(end, Event::TxEnd(nb as u32));
            }
        }
    }

    fn start_tx(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        debug_assert!(!self.fronts.contains(k));
        let p = self.stations[k].pos;
        let left = self.fronts.pred(k);
        let right = self.fronts.succ(k);
        let mut det = NONE;
        for nb in [left, right].into_iter().flatten() {
            let s = &self.stations[nb];
            let arrival = s.tx_start + p.abs_diff(s.pos);
            debug_assert!(arrival >= now);
            if arrival >= now {
                det = det.min(arrival);
            }
        }
        for nb in [left, right].into_iter().flatten() {
            self.hit(now, k, nb, q);
        }
        let (pre, jam, bit) = (self.t.preamble, self.t.jam, self.t.bit);
        let st = &mut self.stations[k];
        let full = now + pre + bit * u64::from(st.frame_bits);
        st.tx_start = now;
        st.det = det;
        st.tx_end = if det == NONE {
            full
        } else {
            (det.max(now + pre) + jam).min(full)
        };
        st.state = State::Transmitting;
        st.tx_done = false;
        q.schedule(st.tx_end, Event::TxEnd(k as u32));
        if let Some(t) = &mut self.tree {
            let (s, e) = (now as i64, st.tx_end as i64);
            t.set(k, [s - p, e - p, s + p, e + p]);
        }
        self.fronts.insert(k);
        self.front_fifo.push_back((now, k as u32));
        if self.active == 0 {
            self.busy_collided = false;
        }
        self.active += 1;
        self.c.attempts += 1;
    }

    fn tx_end(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) -> bool {
        {
            // Stale unless this is the end of the station's current transmission. (A
            // superseded end that happens to coincide with the end of a later
            // transmission of the same station describes the same instant and is
            // handled in its place; the genuine one then finds the station idle.)
            let st = &self.stations[k];
            if st.state != State::Transmitting || st.tx_end != now {
                return false;
            }
        }
        self.purge(now);
        self.active -= 1;
        let e = now as i64;
        let in_fronts = self.fronts.contains(k);
        let slot = self.t.slot;
        let st = &mut self.stations[k];
        st.tx_done = true;
        self.u_all = self.u_all.max(e - st.pos);
        self.v_all = self.v_all.max(e + st.pos);
        if !in_fronts {
            self.u_old = self.u_old.max(e - st.pos);
            self.v_old = self.v_old.max(e + st.pos);
            self.old_transmitting -= 1;
        }
        if st.det != NONE {
            self.c.collided_attempts += 1;
            self.busy_collided = true;
            st.collisions += 1;
            match self.backoff.decide(st.collisions, &mut st.rng) {
                Decision::Retry { slots } => {
                    self.backoff_stats.record(st.collisions, slots);
                    st.state = State::Waiting;
                    q.schedule(now + slot * u64::from(slots), Event::Attempt(k as u32));
                }
                Decision::Discard => {
                    self.c.dropped_excessive += 1;
                    self.next_frame(now, k, q);
                }
            }
        } else {
            let bits = u64::from(st.frame_bits);
            st.delivered_bits += bits;
            let attempts = st.collisions as usize;
            self.c.delivered += 1;
            self.c.delivered_bits += bits;
            self.c.payload_bits += bits - 18 * 8;
            if let Some(h) = self.attempts_hist.get_mut(attempts) {
                *h += 1;
            }
            self.access.record(now - st.hol_since);
            self.total.record(now - st.arrival);
            self.capture.success(k as u32);
            self.next_frame(now, k, q);
        }
        if self.active == 0 {
            if self.busy_collided {
                self.c.collision_events += 1;
            }
            let (u, v, ifg) = (self.u_all, self.v_all, self.t.ifg);
            for d in self.deferred.drain(..) {
                let st = &mut self.stations[d as usize];
                st.state = State::Waiting;
                let at = (Self::off(u, v, st.pos).max(0) as Time + ifg).max(now);
                q.schedule(at, Event::Attempt(d));
            }
        }
        true
    }

    /// The station is done with its frame (sent or dropped): take up the next one.
    fn next_frame(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        let ifg = self.t.ifg;
        let st = &mut self.stations[k];
        st.collisions = 0;
        if self.arrivals.is_none() {
            st.frame_bits = self.sizer.draw(&mut st.rng);
            st.hol_since = now;
            st.arrival = now;
            st.state = State::Waiting;
            self.c.generated += 1;
            q.schedule(now + ifg, Event::Attempt(k as u32));
        } else if let Some((arr, bits)) = self.queues[k].pop_front() {
            st.frame_bits = bits;
            st.hol_since = now;
            st.arrival = arr;
            st.state = State::Waiting;
            q.schedule(now + ifg, Event::Attempt(k as u32));
        } else {
            st.state = State::Idle;
        }
    }

    fn arrival(&mut self, now: Time, q: &mut EventQueue<Event>) {
        let Some(a) = self.arrivals else { return };
        self.c.generated += 1;
        let k = uniform_below(&mut self.traffic_rng, self.cfg.stations) as usize;
        let bits = self.sizer.draw(&mut self.traffic_rng);
        let st = &mut self.stations[k];
        if st.state == State::Idle {
            st.frame_bits = bits;
            st.arrival = now;
            st.hol_since = now;
            st.collisions = 0;
            st.state = State::Waiting;
            q.schedule(now, Event::Attempt(k as u32));
        } else if self.queues[k].len() + 1 < self.cfg.queue_limit as usize {
            self.queues[k].push_back((now, bits));
        } else {
            self.c.dropped_overflow += 1;
        }
        let gap = a.next_gap(&mut self.traffic_rng);
        q.schedule(now + gap, Event::Arrival);
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

    /// The results after `elapsed` picoseconds, `events` events and `stale` stale
    /// events.
    pub fn result(&self, elapsed: Time, events: u64, stale: u64) -> RunResult {
        let c = &self.c;
        let secs = elapsed as f64 / PS_PER_SEC as f64;
        let rate = self.cfg.phy.bit_rate as f64;
        let per_station: Vec<u64> = self.stations.iter().map(|s| s.delivered_bits).collect();
        let beb = self.backoff.beb();
        let upto = beb.attempt_limit().saturating_sub(1).clamp(1, 16);
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
                0.0
            } else {
                c.collided_attempts as f64 / c.attempts as f64
            },
            attempts_histogram: self.attempts_hist.clone(),
            mean_attempts: if c.delivered == 0 {
                0.0
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

    /// Choose the carrier-sense method: `true` for the indexed one (the default from
    /// [`INDEXED_SENSE_FROM`] stations), `false` for the neighbour walk. Both give
    /// identical results; call before running.
    pub fn with_indexed_sense(mut self, on: bool) -> Self {
        self.tree = on.then(|| FrontTree::new(self.stations.len()));
        self
    }

    /// Frames delivered so far.
    pub fn delivered(&self) -> u64 {
        self.c.delivered
    }

    /// Transmission attempts started so far.
    pub fn attempts(&self) -> u64 {
        self.c.attempts
    }

    /// Attempts that ended in a collision so far.
    pub fn collided_attempts(&self) -> u64 {
        self.c.collided_attempts
    }

    /// Each station's position, picoseconds of propagation from the cable's start.
    pub fn positions_ps(&self) -> Vec<i64> {
        self.stations.iter().map(|s| s.pos).collect()
    }
}

impl Model for CsmaCd {
    type Event = Event;

    #[inline]
    fn handle(&mut self, now: Time, event: Event, q: &mut EventQueue<Event>) -> bool {
        match event {
            Event::Attempt(k) => {
                self.attempt(now, k as usize, q);
                true
            }
            Event::TxEnd(station) => self.tx_end(now, station as usize, q),
            Event::Arrival => {
                self.arrival(now, q);
                true
            }
        }
    }
}

/// Run the exact model for `cfg.duration_ps` and return its results.
///
/// ```
/// use mac_sim::{config::RunConfig, model::csma_cd::run};
/// let cfg = RunConfig { stations: 4, duration_ps: 100_000_000_000, ..RunConfig::default() };
/// let r = run(&cfg).unwrap();
/// assert!(r.conservation.holds);
/// assert!(r.utilisation > 0.8);
/// ```
pub fn run(cfg: &RunConfig) -> Result<RunResult, ConfigError> {
    let (model, queue) = CsmaCd::new(cfg)?;
    let mut engine = Engine::with_queue(model, queue);
    engine.run_until(cfg.duration_ps);
    Ok(engine
        .model()
        .result(cfg.duration_ps, engine.events(), engine.stale_events()))
}
