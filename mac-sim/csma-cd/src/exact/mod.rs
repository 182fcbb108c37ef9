//! The exact CSMA/CD model: N stations on one bus, with propagation delay.
//!
//! # Physics
//!
//! Station `i` sits at propagation distance `pᵢ` (the propagation delay from one end
//! of the cable); a signal started at `s` by station `k` reaches station `i` at
//! `s + |pᵢ − p_k|`. A station *senses carrier* at time `t` when some signal's front
//! reached it strictly before `t` and its tail has not yet passed, so two stations that
//! start at the same instant at the same point both see an idle medium and collide.
//!
//! # Protocol (1-persistent, IEEE 802.3 clause 4.2.3)
//!
//! * A station with a frame *attempts*: it transmits preamble + SFD + frame unless it
//!   must defer. **Deference** follows IEEE 802.3 clause 4.2.3.2.1 by default (the
//!   gap split into a first part, where carrier defers, and a second part, where it
//!   is ignored; the gap after the station's own frame timed blind; carrier watched
//!   at the station's own position), or an alternative named by
//!   [`IfgRule`]: see [`deference`] for the rules and how
//!   they are computed.
//! * A transmitter that sees another signal arrive, or starts while one is present,
//!   **detects a collision**: it finishes the preamble if still sending it, sends the
//!   32-bit jam and stops (clause 4.2.3.2.4; or jams at once under
//!   [`JamRule::Immediate`]).
//! * After the c-th collision of a frame it asks the backoff algorithm (for BEB:
//!   `backoff_core::BebConfig::decide`) and waits `r` slots, or drops the frame after
//!   `attemptLimit` attempts. The counter restarts with each frame.
//! * After a success (or drop) the next frame is attempted one interframe gap later.
//!
//! # Layout
//!
//! * [`medium`]: the cable: signals, carrier sense and collision detection, in
//!   `O(log N)` per question (see its docs for why looking at the nearest signals in
//!   flight is enough).
//! * [`placement`]: station positions.
//! * [`bitset`], [`segtree`]: the medium's private indexes (stations by state, the
//!   signal fronts in flight).
//! * [`backoff_stats`]: the mean backoff after the c-th collision, with its standard
//!   error, checked against `E(c)`.
//! * [`results`]: [`RunResult`], everything a run measured, serialisable.
//! * [`deference`]: when a station with a frame may transmit.
//! * [`observe`]: the observation hook, every step of every station as a
//!   [`TraceEvent`] (traces and per-station results build on it).
//! * [`per_station`], [`capture_timeline`]: per-station results and the capture
//!   effect over time, collected through that hook.
//! * this module: the stations' MAC (transmission, backoff, drops), the traffic and
//!   the measurements.
//!
//! No station is polled: a deferring station waits on the transmission whose tail
//! must pass it before its carrier can drop, and the carrier history at its position
//! then decides.

pub mod backoff_stats;
pub mod bitset;
pub mod capture_timeline;
pub mod deference;
pub mod medium;
pub mod observe;
pub mod per_station;
pub mod placement;
pub mod results;
pub mod segtree;

use std::collections::VecDeque;

use backoff_core::Decision;
use backoff_core::uniform::uniform_below;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

use crate::backoff::Backoff;
use crate::config::{IfgRule, JamRule, RunConfig, Timing, Traffic};
use crate::error::ConfigError;
use crate::theory;
use crate::traffic::{FrameSizer, PoissonArrivals};
use backoff_stats::BackoffStats;
use results::Conservation;
pub use results::RunResult;
use sim_kit::engine::{Engine, EventQueue, Model};
use sim_kit::maths::split_seed;
use sim_kit::stats::{Capture, Histogram, jain_index};
use sim_kit::time::Time;

use medium::{Medium, SenseMethod};
use observe::{EventKind, NoTrace, Observer, TraceEvent};

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
    /// Frame bursting: the station, filling the gap with extension bits since its
    /// last frame, starts the next frame of its burst without deference. Stale if a
    /// collision ended the burst.
    BurstFrame(u32),
    /// The carrier at a station that has just transmitted may have dropped at its
    /// position (IEEE 802.3 gap rules): its blind gap starts then. Stale when the
    /// station no longer listens.
    Wake(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No frame (Poisson traffic only).
    Idle,
    /// A frame, and an `Attempt` scheduled.
    Waiting,
    /// A frame, deferring to a busy medium: until the busy period ends under
    /// [`IfgRule::Restart`], until the carrier drops at the station otherwise.
    Deferred,
    /// Transmitting (frame or jam), a `TxEnd` scheduled.
    Transmitting,
}

/// From this many stations on, carrier sense uses [`SenseMethod::Indexed`] instead of
/// [`SenseMethod::Walk`] (same answers, bounded cost in bursts of simultaneous starts).
pub const INDEXED_SENSE_FROM: u32 = 2048;

#[derive(Clone, Debug)]
struct Station {
    hol_since: Time,
    arrival: Time,
    delivered_bits: u64,
    rng: XorShiftRng,
    collisions: u32,
    frame_bits: u32,
    state: State,
    /// The end of the gap after the station's own last transmission, timed blind
    /// (IEEE 802.3 gap rules).
    own_gap_end: Time,
    /// The station's own transmission has ended but the carrier at its position has
    /// not dropped yet, so that gap has not started.
    watch_own: bool,
    /// Waiting for the carrier at its position to drop (one `Wake` pending, or a
    /// place in a transmitter's waiting list).
    listening: bool,
    /// Frame bursting: when the burst the station is sending began (the start of its
    /// first transmission), while it holds the medium.
    burst_start: Option<Time>,
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

/// The exact CSMA/CD model (see the module docs), reporting its steps to `O` (by
/// default [`NoTrace`]: nothing, at no cost).
pub struct CsmaCd<O: Observer = NoTrace> {
    cfg: RunConfig,
    t: Timing,
    backoff: Backoff,
    sizer: FrameSizer,
    stations: Vec<Station>,
    medium: Medium,
    queues: Vec<VecDeque<(Time, u32)>>,
    deferred: Vec<u32>,
    /// The gap is split (IEEE 802.3 and `none` rules), not restarted.
    split: bool,
    /// For each transmitter, the stations waiting for its tail to pass them.
    waiters: Vec<Vec<u32>>,
    busy_collided: bool,
    traffic_rng: XorShiftRng,
    arrivals: Option<PoissonArrivals>,
    c: Counters,
    attempts_hist: Vec<u64>,
    backoff_stats: BackoffStats,
    access: Histogram,
    total: Histogram,
    capture: Capture,
    observer: O,
}

impl CsmaCd {
    /// Build the model and its initial events. Fails on invalid parameters.
    ///
    /// Saturated stations all have their first frame ready at time 0.
    ///
    /// # Errors
    ///
    /// The [`ConfigError`] of [`RunConfig::validate`].
    pub fn new(cfg: &RunConfig) -> Result<(Self, EventQueue<Event>), ConfigError> {
        Self::build(cfg, None)
    }

    /// Like [`new`](Self::new) for saturated traffic, but station `i` (in order of
    /// position) gets its first frame at `starts[i]`. Used to stage exact
    /// scenarios, e.g. two stations starting a known time apart.
    ///
    /// # Errors
    ///
    /// The [`ConfigError`] of [`RunConfig::validate`], or [`ConfigError::StartTimes`]
    /// unless the traffic is saturated with one start time per station.
    pub fn new_with_start_times(
        cfg: &RunConfig,
        starts: &[Time],
    ) -> Result<(Self, EventQueue<Event>), ConfigError> {
        if starts.len() != cfg.stations as usize || cfg.traffic != Traffic::Saturated {
            return Err(ConfigError::StartTimes);
        }
        Self::build(cfg, Some(starts))
    }

    fn build(
        cfg: &RunConfig,
        starts: Option<&[Time]>,
    ) -> Result<(Self, EventQueue<Event>), ConfigError> {
        let t = cfg.validate()?;
        let pos = placement::positions(cfg, t.max_prop);
        Self::build_at(cfg, t, starts, pos, NoTrace)
    }

    /// Like [`new_with_start_times`](Self::new_with_start_times), with station `i` at
    /// `positions[i]` (propagation delay from the cable's start, ascending, within the
    /// cable) instead of the configured placement. Used to stage exact scenarios.
    ///
    /// # Errors
    ///
    /// Those of [`new_with_start_times`](Self::new_with_start_times), or
    /// [`ConfigError::Positions`] unless there is one ascending position per station
    /// within the cable's end-to-end delay.
    pub fn new_staged(
        cfg: &RunConfig,
        positions: &[Time],
        starts: &[Time],
    ) -> Result<(Self, EventQueue<Event>), ConfigError> {
        let t = cfg.validate()?;
        let fits = positions.len() == cfg.stations as usize
            && positions.windows(2).all(|w| w[0] <= w[1])
            && positions.iter().all(|&p| p <= t.max_prop);
        if !fits {
            return Err(ConfigError::Positions);
        }
        if starts.len() != cfg.stations as usize || cfg.traffic != Traffic::Saturated {
            return Err(ConfigError::StartTimes);
        }
        Self::build_at(cfg, t, Some(starts), positions.to_vec(), NoTrace)
    }
}

impl<O: Observer> CsmaCd<O> {
    /// Like [`CsmaCd::new`], with every step reported to `observer`.
    ///
    /// # Errors
    ///
    /// The [`ConfigError`] of [`RunConfig::validate`].
    pub fn with_observer(
        cfg: &RunConfig,
        observer: O,
    ) -> Result<(Self, EventQueue<Event>), ConfigError> {
        let t = cfg.validate()?;
        let pos = placement::positions(cfg, t.max_prop);
        Self::build_at(cfg, t, None, pos, observer)
    }

    /// The observer.
    pub fn observer(&self) -> &O {
        &self.observer
    }

    /// The model's observer, taking it out of the model.
    pub fn into_observer(self) -> O {
        self.observer
    }

    /// Report one step of station `k` to the observer (nothing is built when the
    /// observer is [`NoTrace`]).
    #[inline(always)]
    fn emit(&mut self, now: Time, k: usize, kind: EventKind, backoff_slots: Option<u32>) {
        if O::ENABLED {
            let st = &self.stations[k];
            let access_delay = (kind == EventKind::Success).then(|| now - st.hol_since);
            self.observer.observe(&TraceEvent {
                time: now,
                station: k as u32,
                kind,
                collisions: st.collisions,
                backoff_slots,
                frame_bits: st.frame_bits,
                access_delay,
            });
        }
    }

    /// Station `k` sensed carrier at `now` and defers: the one call the deference
    /// rules make to the observer.
    #[inline(always)]
    pub(super) fn observe_defer(&mut self, now: Time, k: usize) {
        self.emit(now, k, EventKind::Defer, None);
    }

    fn build_at(
        cfg: &RunConfig,
        t: Timing,
        starts: Option<&[Time]>,
        pos: Vec<Time>,
        observer: O,
    ) -> Result<(Self, EventQueue<Event>), ConfigError> {
        let beb = cfg.beb()?;
        let n = cfg.stations as usize;
        let sizer = FrameSizer::new(&cfg.frames);
        let method = if !fast_sense_valid(cfg, &t) {
            SenseMethod::BruteForce
        } else if cfg.stations >= INDEXED_SENSE_FROM {
            SenseMethod::Indexed
        } else {
            SenseMethod::Walk
        };
        let stations: Vec<Station> = (0..n)
            .map(|i| Station {
                hol_since: Time::ZERO,
                arrival: Time::ZERO,
                delivered_bits: 0,
                rng: XorShiftRng::seed_from_u64(split_seed(cfg.seed, 2 + i as u64)),
                collisions: 0,
                frame_bits: 0,
                state: State::Idle,
                own_gap_end: Time::ZERO,
                watch_own: false,
                listening: false,
                burst_start: None,
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
            medium: new_medium(cfg, t, &pos, method),
            split: cfg.ifg_rule != IfgRule::Restart,
            waiters: if cfg.ifg_rule == IfgRule::Restart {
                Vec::new()
            } else {
                vec![Vec::new(); n]
            },
            queues: if arrivals.is_some() {
                vec![VecDeque::new(); n]
            } else {
                Vec::new()
            },
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
            observer,
        };
        let mut q = EventQueue::with_capacity(n + 16);
        match m.arrivals {
            None => {
                for k in 0..n {
                    let at = starts.and_then(|s| s.get(k).copied()).unwrap_or(Time::ZERO);
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

    fn start_tx(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        if self.medium.active() == 0 {
            self.busy_collided = false;
        }
        let st = &mut self.stations[k];
        st.state = State::Transmitting;
        if self.cfg.phy.burst_limit_bits > 0 {
            st.burst_start = Some(now);
        }
        // Carrier extension (IEEE 802.3 clause 4.2.3.4) makes it last the slot at least.
        let length =
            (self.t.preamble + self.t.bit * u64::from(st.frame_bits)).max(self.t.extend_to);
        self.medium.start(now, k, length, |at, j| {
            q.schedule(at, Event::TxEnd(j as u32))
        });
        self.c.attempts += 1;
        self.emit(now, k, EventKind::Transmit, None);
    }

    /// The next frame of a burst starts (IEEE 802.3 clause 4.2.3.2.7): the signal,
    /// extended by [`tx_end`](Self::tx_end), carries it; no deference.
    fn continue_burst(&mut self, now: Time, k: usize) -> bool {
        let st = &mut self.stations[k];
        // A burst collides only in its first frame (see `ethernet`); should a
        // collision end it all the same, its backoff rules and this event is stale.
        if st.burst_start.is_none() {
            return false;
        }
        st.state = State::Transmitting;
        self.c.attempts += 1;
        self.emit(now, k, EventKind::Transmit, None);
        true
    }

    /// After a frame of a burst went out at `now`, whether the station sends its next
    /// frame (taken up, `Waiting`) in the same burst; if so the signal is extended by
    /// the gap, filled with extension bits, and that frame (IEEE 802.3 clauses
    /// 4.2.3.2.7 and 4.2.8).
    fn extend_burst(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) -> bool {
        let limit = self.cfg.phy.burst_limit_bits;
        let st = &mut self.stations[k];
        // (`burst_start` is set only when bursting is on.)
        let Some(start) = st.burst_start else {
            return false;
        };
        // A new frame may start while fewer than burstLimit bit times have passed
        // since the burst began, if the station has one.
        let next = now + self.t.ifg;
        if st.state != State::Waiting || next >= start + self.t.bit * u64::from(limit) {
            st.burst_start = None;
            return false;
        }
        let end = next + self.t.preamble + self.t.bit * u64::from(st.frame_bits);
        self.medium
            .extend(now, k, end, |at, j| q.schedule(at, Event::TxEnd(j as u32)));
        true
    }

    fn tx_end(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) -> bool {
        let Some(collided) = self.medium.ending(now, k) else {
            return false;
        };
        let slot = self.t.slot;
        let st = &mut self.stations[k];
        if collided {
            st.burst_start = None;
            self.c.collided_attempts += 1;
            self.busy_collided = true;
            st.collisions += 1;
            let decision = self.backoff.decide(st.collisions, &mut st.rng);
            if O::ENABLED {
                self.emit(self.medium.detected_at(k), k, EventKind::Collision, None);
            }
            let st = &mut self.stations[k];
            match decision {
                Decision::Retry { slots } => {
                    self.backoff_stats.record(st.collisions, slots);
                    st.state = State::Waiting;
                    q.schedule(now + slot * u64::from(slots), Event::Attempt(k as u32));
                    self.emit(now, k, EventKind::JamEnd, Some(slots));
                }
                Decision::Discard => {
                    self.c.dropped_excessive += 1;
                    self.emit(now, k, EventKind::JamEnd, None);
                    self.emit(now, k, EventKind::Drop, None);
                    if self.next_frame(now, k) {
                        q.schedule(now + self.t.ifg, Event::Attempt(k as u32));
                    }
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
            self.emit(now, k, EventKind::Success, None);
            let next = self.next_frame(now, k);
            if self.extend_burst(now, k, q) {
                q.schedule(now + self.t.ifg, Event::BurstFrame(k as u32));
                return true;
            }
            if next {
                q.schedule(now + self.t.ifg, Event::Attempt(k as u32));
            }
        }
        self.medium.end(now, k);
        if self.split {
            self.own_gap(now, k, q);
            self.release_waiters(now, k, q);
        }
        if self.medium.active() == 0 {
            if self.busy_collided {
                self.c.collision_events += 1;
            }
            // The busy period is over (restarting rule): wake every deferring station
            // when the carrier has gone from its position, plus the gap.
            for d in self.deferred.drain(..) {
                self.stations[d as usize].state = State::Waiting;
                let at = self.medium.quiet_at(d as usize).max(now);
                q.schedule(at, Event::Attempt(d));
            }
        }
        true
    }

    /// The station is done with its frame (sent or dropped): take up the next one;
    /// whether there is one (the caller schedules its attempt).
    fn next_frame(&mut self, now: Time, k: usize) -> bool {
        let st = &mut self.stations[k];
        st.collisions = 0;
        if self.arrivals.is_none() {
            st.frame_bits = self.sizer.draw(&mut st.rng);
            st.hol_since = now;
            st.arrival = now;
            st.state = State::Waiting;
            self.c.generated += 1;
        } else if let Some((arr, bits)) = self.queues[k].pop_front() {
            st.frame_bits = bits;
            st.hol_since = now;
            st.arrival = arr;
            st.state = State::Waiting;
        } else {
            st.state = State::Idle;
        }
        st.state == State::Waiting
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

    /// Start the statistics afresh (the end of a warm-up): every measured counter,
    /// histogram and capture window is cleared, and the frames in the system now are
    /// counted as generated, so that frame conservation still balances. The observer
    /// is told ([`Observer::reset`]), so that what it measures starts at the same
    /// event.
    pub fn reset_statistics(&mut self) {
        self.observer.reset();
        self.c = Counters {
            generated: self.in_system(),
            ..Counters::default()
        };
        self.attempts_hist.iter_mut().for_each(|n| *n = 0);
        self.backoff_stats = BackoffStats::new();
        self.access = Histogram::new();
        self.total = Histogram::new();
        self.capture = Capture::new(self.stations.len(), self.cfg.capture_window);
        self.stations.iter_mut().for_each(|s| s.delivered_bits = 0);
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

    /// The results after `elapsed` of simulated time, `events` events and `stale` stale
    /// events.
    pub fn result(&self, elapsed: Time, events: u64, stale: u64) -> RunResult {
        let c = &self.c;
        let secs = elapsed.as_secs_f64();
        let rate = self.cfg.phy.bit_rate as f64;
        let per_station: Vec<u64> = self.stations.iter().map(|s| s.delivered_bits).collect();
        let beb = self.backoff.beb();
        // c = 1..=16 as in the standard's table; with attemptLimit = 16 the 16th
        // collision discards the frame, so its row has no draws.
        let upto = beb.attempt_limit().clamp(1, 16);
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
    pub fn with_indexed_sense(self, on: bool) -> Self {
        self.with_sense_method(if on {
            SenseMethod::Indexed
        } else {
            SenseMethod::Walk
        })
    }

    /// Choose the carrier-sense method, including the brute-force reference that
    /// scans every signal on the cable without the nearest-neighbour argument the
    /// fast methods rest on (`O(signals)` per event; for tests). Call before running.
    /// Outside the nearest-neighbour range only the brute-force method is valid, and
    /// it is kept whatever is asked.
    pub fn with_sense_method(mut self, method: SenseMethod) -> Self {
        let method = if fast_sense_valid(&self.cfg, &self.t) {
            method
        } else {
            SenseMethod::BruteForce
        };
        let pos = self.positions();
        self.medium = new_medium(&self.cfg, self.t, &pos, method);
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

    /// Frame bits each station has delivered so far, in order of position.
    pub fn delivered_bits_per_station(&self) -> Vec<u64> {
        self.stations.iter().map(|s| s.delivered_bits).collect()
    }

    /// Each station's position: the propagation delay from the cable's start.
    pub fn positions(&self) -> Vec<Time> {
        (0..self.stations.len())
            .map(|k| self.medium.pos(k))
            .collect()
    }
}

impl<O: Observer> Model for CsmaCd<O> {
    type Event = Event;

    #[inline]
    fn handle(&mut self, now: Time, event: Event, q: &mut EventQueue<Event>) -> bool {
        match event {
            Event::BurstFrame(k) => self.continue_burst(now, k as usize),
            Event::Attempt(k) => {
                if self.split {
                    self.attempt_split(now, k as usize, q);
                } else {
                    self.attempt(now, k as usize, q);
                }
                true
            }
            Event::Wake(k) => self.wake(now, k as usize, q),
            Event::TxEnd(station) => self.tx_end(now, station as usize, q),
            Event::Arrival => {
                self.arrival(now, q);
                true
            }
        }
    }
}

/// Whether the fast carrier-sense methods' nearest-neighbour argument holds: the
/// one-way delay is below the shortest signal (preamble + jam, or the jam alone
/// under [`JamRule::Immediate`]) plus the gap.
fn fast_sense_valid(cfg: &RunConfig, t: &Timing) -> bool {
    t.nearest_neighbour_valid() && (cfg.jam_rule == JamRule::Preamble || t.max_prop < t.jam + t.ifg)
}

/// The cable for `cfg`, following its jam and gap rules.
fn new_medium(cfg: &RunConfig, t: Timing, pos: &[Time], method: SenseMethod) -> Medium {
    let mut m = Medium::new(t, pos, method);
    m.set_jam_rule(cfg.jam_rule);
    if cfg.ifg_rule != IfgRule::Restart {
        m.allow_starts_under_carrier();
    }
    m
}

/// Advance `engine` to `t`; when that passes the run's warm-up
/// ([`RunConfig::warmup`]), the statistics start afresh at the warm-up instant
/// ([`CsmaCd::reset_statistics`]). Called in steps or at once, the run is the same.
pub fn run_to<O: Observer>(engine: &mut Engine<CsmaCd<O>>, t: Time) {
    let warmup = engine.model().cfg.warmup;
    if !warmup.is_zero() && engine.now() < warmup && t >= warmup {
        engine.run_until(warmup);
        engine.model_mut().reset_statistics();
    }
    engine.run_until(t);
}

/// Run the exact model for `cfg.duration` and return its results.
///
/// ```
/// use csma_cd::{config::RunConfig, exact::run};
/// use sim_kit::time::Time;
/// let cfg = RunConfig { stations: 4, duration: Time::from_ms(100), ..RunConfig::default() };
/// let r = run(&cfg).unwrap();
/// assert!(r.conservation.holds);
/// assert!(r.utilisation > 0.8);
/// ```
///
/// # Errors
///
/// The [`ConfigError`] of [`RunConfig::validate`]; nothing is run then.
pub fn run(cfg: &RunConfig) -> Result<RunResult, ConfigError> {
    run_with_observer(cfg, NoTrace).map(|(r, NoTrace)| r)
}

/// Run the exact model for `cfg.duration`, reporting every step to `observer`;
/// return the results and the observer.
///
/// # Errors
///
/// The [`ConfigError`] of [`RunConfig::validate`]; nothing is run then.
pub fn run_with_observer<O: Observer>(
    cfg: &RunConfig,
    observer: O,
) -> Result<(RunResult, O), ConfigError> {
    let (model, queue) = CsmaCd::with_observer(cfg, observer)?;
    let mut engine = Engine::with_queue(model, queue);
    run_to(&mut engine, cfg.duration);
    let r = engine
        .model()
        .result(cfg.measured(), engine.events(), engine.stale_events());
    Ok((r, engine.into_model().into_observer()))
}
