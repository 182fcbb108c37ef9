//! The model: [`CsmaCd`], what it holds and how it is built (the stations' places,
//! the cable and its carrier-sense method, the traffic), what it tells its observer,
//! and what can be read of it while it runs.

use std::collections::VecDeque;

use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

use super::backoff_stats::BackoffStats;
use super::medium::{Medium, SenseMethod};
use super::observe::{EventKind, NoTrace, Observer, TraceEvent};
use super::placement;
use super::station::{Event, State, Station};
use crate::backoff::Backoff;
use crate::config::{IfgRule, JamRule, RunConfig, Timing, Traffic};
use crate::error::ConfigError;
use crate::traffic::{FrameSizer, PoissonArrivals};
use sim_kit::engine::EventQueue;
use sim_kit::maths::split_seed;
use sim_kit::stats::{Capture, Histogram};
use sim_kit::time::Time;

/// From this many stations on, carrier sense uses [`SenseMethod::Indexed`] instead of
/// [`SenseMethod::Walk`] (same answers, bounded cost in bursts of simultaneous starts).
pub const INDEXED_SENSE_FROM: u32 = 2048;

/// Counters of the run.
#[derive(Clone, Debug, Default)]
pub(super) struct Counters {
    pub(super) generated: u64,
    pub(super) delivered: u64,
    pub(super) delivered_bits: u64,
    pub(super) payload_bits: u64,
    pub(super) dropped_excessive: u64,
    pub(super) dropped_overflow: u64,
    pub(super) attempts: u64,
    pub(super) collided_attempts: u64,
    pub(super) collision_events: u64,
}

/// The exact CSMA/CD model (see the module docs), reporting its steps to `O` (by
/// default [`NoTrace`]: nothing, at no cost).
pub struct CsmaCd<O: Observer = NoTrace> {
    pub(super) cfg: RunConfig,
    pub(super) t: Timing,
    pub(super) backoff: Backoff,
    pub(super) sizer: FrameSizer,
    pub(super) stations: Vec<Station>,
    pub(super) medium: Medium,
    pub(super) queues: Vec<VecDeque<(Time, u32)>>,
    pub(super) deferred: Vec<u32>,
    /// The gap is split (IEEE 802.3 and `none` rules), not restarted.
    pub(super) split: bool,
    /// For each transmitter, the stations waiting for its tail to pass them.
    pub(super) waiters: Vec<Vec<u32>>,
    pub(super) busy_collided: bool,
    pub(super) traffic_rng: XorShiftRng,
    pub(super) arrivals: Option<PoissonArrivals>,
    pub(super) c: Counters,
    pub(super) attempts_hist: Vec<u64>,
    pub(super) backoff_stats: BackoffStats,
    pub(super) access: Histogram,
    pub(super) total: Histogram,
    pub(super) capture: Capture,
    pub(super) observer: O,
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
    pub(super) fn emit(
        &mut self,
        now: Time,
        k: usize,
        kind: EventKind,
        backoff_slots: Option<u32>,
    ) {
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
