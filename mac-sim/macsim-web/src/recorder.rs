//! The page's observer: every event of the exact model with the facts that explain
//! it ([`Cause`]), the signals on the cable for the space-time diagram, and each
//! station's state for the station table.
//!
//! It only watches: the model runs exactly as without it (the same events, in the
//! same order, as `mac-sim run --trace` writes them).
//!
//! Memory is bounded: the newest [`EVENT_CAP`] events and [`SIGNAL_CAP`] signals are
//! kept (a 10-second run of 32 saturated stations has about 100 000 events), older
//! ones are forgotten; counts and indexes keep running.

use std::collections::VecDeque;

use csma_cd::{EventKind, Observer, TraceEvent};
use sim_kit::Time;

/// Events kept (the newest).
pub const EVENT_CAP: usize = 250_000;
/// Signals kept (the newest).
pub const SIGNAL_CAP: usize = 100_000;
/// Bins of the utilisation series over the run's duration.
pub const SERIES_BINS: usize = 200;

/// Why a station did what it did: the facts [`crate::explain`] writes the sentence
/// and the clause from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// A transmission with no carrier at the station and no gap to wait for: the
    /// frame (or the retry after a backoff) goes at once.
    Idle,
    /// A transmission at the end of an interframe gap that started at `gap_start`,
    /// when the carrier dropped at the station.
    AfterGap {
        /// When the carrier last dropped at the station.
        gap_start: Time,
    },
    /// A transmission although carrier from station `from` is present: it arrived in
    /// the second part of the gap, which ignores the carrier.
    InPartTwo {
        /// The station whose signal arrived.
        from: u32,
        /// When it arrived.
        arrived: Time,
        /// When the gap started.
        gap_start: Time,
    },
    /// A transmission although carrier from `from` is present: the gap after the
    /// station's own transmission is timed without watching the carrier.
    Blind {
        /// The station whose signal arrived.
        from: u32,
        /// When it arrived.
        arrived: Time,
        /// When the gap started.
        gap_start: Time,
    },
    /// The next frame of a burst (1000 Mb/s frame bursting): the station kept the
    /// carrier on through the gap after its frame that ended at `previous_end`, with
    /// extension bits, and sends the next one without deferring.
    Burst {
        /// When the previous frame of the burst ended.
        previous_end: Time,
    },
    /// A transmission under carrier that fits none of the rules above (none of the
    /// model's gap rules leads to it: it is there so that an event is never left
    /// unexplained).
    UnderCarrier {
        /// The station whose signal is present.
        from: u32,
    },
    /// Deferring to the carrier of station `from` (none: the gap has not ended).
    Defer {
        /// The station whose signal is present at the deferring one.
        from: Option<u32>,
    },
    /// A collision: the signal of `from` reached the transmitting station.
    Collision {
        /// The station whose signal was detected.
        from: Option<u32>,
    },
    /// The jam ended; the backoff drew from `[0, window)`.
    JamEnd {
        /// The window after this many collisions.
        window: u64,
    },
    /// The frame went through.
    Success,
    /// The frame was discarded.
    Drop,
}

/// One event of the model with its cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The event as the trace writes it.
    pub event: TraceEvent,
    /// Why.
    pub cause: Cause,
}

/// One transmission on the cable: from its first bit to its last (frame or jam). A
/// burst of frames is one signal: the extension bits between its frames keep the
/// carrier on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal {
    /// The station that sends it.
    pub station: u32,
    /// Its first bit leaves the station.
    pub start: Time,
    /// Its last bit leaves the station (`None`: still sending).
    pub end: Option<Time>,
    /// When the station detected a collision, if it did.
    pub collision_at: Option<Time>,
}

/// What a station is doing, for the station table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Nothing has happened to it yet, or its last frame went through.
    Idle,
    /// Holding its frame while the carrier is on.
    Deferring,
    /// Sending preamble and frame.
    Transmitting,
    /// Collided: finishing the preamble, then the jam.
    Jamming,
    /// Waiting out its backoff until `until`.
    BackingOff {
        /// The end of the backoff.
        until: Time,
    },
    /// Its frame was discarded after the attempt limit.
    Dropped,
}

/// A station's state after its latest event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StationState {
    /// What it does.
    pub activity: Activity,
    /// Since when.
    pub since: Time,
    /// Collisions of its current frame.
    pub collisions: u32,
    /// The window of its latest backoff draw, slots.
    pub window: Option<u64>,
    /// The slots it drew.
    pub drawn: Option<u32>,
}

impl StationState {
    const NEW: Self = Self {
        activity: Activity::Idle,
        since: Time::ZERO,
        collisions: 0,
        window: None,
        drawn: None,
    };
}

/// The geometry and rules the recorder needs to explain events.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Each station's position: propagation delay from the cable's start.
    pub positions: Vec<Time>,
    /// The interframe gap.
    pub ifg: Time,
    /// Whether the gap after a station's own transmission is timed blind (the IEEE
    /// 802.3 gap rule and `none`; not `restart`).
    pub blind_own_gap: bool,
    /// Its first part (`interFrameSpacingPart1`).
    pub ifg_part1: Time,
    /// The slot.
    pub slot: Time,
    /// How far back a signal can still matter to the carrier at a station: the
    /// longest transmission, the end-to-end delay and a gap.
    pub horizon: Time,
    /// The run's duration (for the utilisation series).
    pub duration: Time,
    /// Frame bursting's `burstLimit` (zero: no bursting).
    pub burst_limit: Time,
    /// Whether every station always has a frame (then a burst that may go on, does).
    pub saturated: bool,
}

impl Layout {
    fn delay(&self, j: u32, k: u32) -> Time {
        let (a, b) = (self.positions[j as usize], self.positions[k as usize]);
        if a > b { a - b } else { b - a }
    }
}

/// The observer the page runs the model with.
#[derive(Clone, Debug)]
pub struct Recorder {
    layout: Layout,
    backoff: csma_cd::Backoff,
    events: VecDeque<Recorded>,
    first_event: u64,
    signals: VecDeque<Signal>,
    first_signal: u64,
    /// Per station: the index of its open signal.
    open: Vec<Option<u64>>,
    /// Per station: the index of its latest signal.
    latest: Vec<Option<u64>>,
    /// Per station: when the burst it may continue started (bursting only).
    burst_start: Vec<Option<Time>>,
    /// Per station: when its latest frame went through.
    last_success: Vec<Option<Time>>,
    states: Vec<StationState>,
    collisions_seen: u64,
    series_bits: Vec<u64>,
    successes: Vec<u64>,
}

impl Recorder {
    /// A recorder for stations at `layout.positions` running `backoff`.
    pub fn new(layout: Layout, backoff: csma_cd::Backoff) -> Self {
        let n = layout.positions.len();
        Self {
            layout,
            backoff,
            events: VecDeque::new(),
            first_event: 0,
            signals: VecDeque::new(),
            first_signal: 0,
            open: vec![None; n],
            latest: vec![None; n],
            burst_start: vec![None; n],
            last_success: vec![None; n],
            states: vec![StationState::NEW; n],
            collisions_seen: 0,
            series_bits: vec![0; SERIES_BINS],
            successes: vec![0; n],
        }
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Events recorded since the start (including those forgotten).
    pub fn total_events(&self) -> u64 {
        self.first_event + self.events.len() as u64
    }

    /// Collision events recorded since the start.
    pub fn collisions_seen(&self) -> u64 {
        self.collisions_seen
    }

    /// The index of the oldest event still kept.
    pub fn first_event(&self) -> u64 {
        self.first_event
    }

    /// Event number `i` (counted from the start), if still kept.
    pub fn event(&self, i: u64) -> Option<&Recorded> {
        let at = i.checked_sub(self.first_event)?;
        self.events.get(usize::try_from(at).ok()?)
    }

    /// The signals kept, oldest first, with their indexes.
    pub fn signals(&self) -> impl Iterator<Item = (u64, &Signal)> {
        (self.first_signal..).zip(self.signals.iter())
    }

    /// The signals kept that may still be on the cable at `t` or later, newest
    /// first: those that started after `t` minus the layout's `horizon`.
    pub fn signals_back_to(&self, t: Time) -> impl Iterator<Item = &Signal> {
        let floor = t.saturating_sub(self.layout.horizon);
        self.signals
            .iter()
            .rev()
            .take_while(move |s| s.start >= floor)
    }

    /// Each station's state after its latest event.
    pub fn states(&self) -> &[StationState] {
        &self.states
    }

    /// Frame bits delivered in each of `SERIES_BINS` (200) equal parts of the duration
    /// (every success, warm-up included).
    pub fn series_bits(&self) -> &[u64] {
        &self.series_bits
    }

    /// Successes per station since the start (warm-up included).
    pub fn successes(&self) -> &[u64] {
        &self.successes
    }

    /// The signals kept whose front reached station `k` by `until` (at or before
    /// it), its own included, as `(front, tail, station)` at its position; an open
    /// signal's tail is [`Time::MAX`].
    fn arrivals(&self, k: u32, until: Time) -> Vec<(Time, Time, u32)> {
        let floor = until.saturating_sub(self.layout.horizon);
        let mut out = Vec::new();
        for s in self.signals.iter().rev() {
            if s.start < floor {
                break;
            }
            let d = self.layout.delay(s.station, k);
            let front = s.start + d;
            if front <= until {
                out.push((front, s.end.map_or(Time::MAX, |e| e + d), s.station));
            }
        }
        out
    }

    /// The foreign signal present at `k` at `t` that arrived last, if any: its
    /// front reached `k` strictly before `t` (carrier sense), or at `t` too when
    /// `arriving` (collision detection), and its tail has not passed.
    fn present(&self, k: u32, t: Time, arriving: bool) -> Option<(u32, Time)> {
        self.arrivals(k, t)
            .into_iter()
            .filter(|&(front, tail, j)| j != k && (front < t || arriving) && tail > t)
            .max_by_key(|&(front, _, j)| (front, std::cmp::Reverse(j)))
            .map(|(front, _, j)| (j, front))
    }

    /// When station `k`, still transmitting at `now`, detected a collision, if it
    /// has by `now`: the first foreign signal present at its start or arriving since
    /// (IEEE 802.3 clause 4.2.3.2.3). The model reports the collision only with the
    /// end of the jam that follows; until then this is how the page knows it.
    pub fn detected(&self, k: u32, now: Time) -> Option<Time> {
        let i = self.open.get(k as usize).copied().flatten()?;
        let sig = self
            .signals
            .get(usize::try_from(i.checked_sub(self.first_signal)?).ok()?)?;
        if sig.collision_at.is_some() {
            return sig.collision_at;
        }
        let start = sig.start;
        self.arrivals(k, now)
            .into_iter()
            .filter(|&(_, tail, j)| j != k && tail > start)
            .map(|(front, _, _)| front.max(start))
            .min()
    }

    /// Why station `k` transmits at `t`, from the carrier history at its position,
    /// following the deference rules of clause 4.2.3.2.1 as the model applies them
    /// (`csma_cd::exact::deference`). Carrier is on at an instant when a signal's
    /// front reached the station strictly before it and its tail has not passed.
    fn transmit_cause(&self, k: u32, t: Time) -> Cause {
        let (ifg, part1) = (self.layout.ifg, self.layout.ifg_part1);
        let sigs = self.arrivals(k, t);
        let on = |at: Time| {
            sigs.iter()
                .filter(move |&&(front, tail, _)| front < at && tail > at)
        };
        // After its own transmission (IEEE 802.3 rules) the gap starts at the first
        // instant the carrier is off at the station, and is timed blind: the station
        // transmits exactly one gap later, whatever arrived meanwhile.
        if self.layout.blind_own_gap {
            let own_end = sigs
                .iter()
                .filter(|&&(_, tail, j)| j == k && tail <= t)
                .map(|&(_, tail, _)| tail)
                .max();
            if let Some(mut drop) = own_end {
                while let Some(tail) = on(drop).map(|x| x.1).max() {
                    drop = tail;
                }
                if drop.saturating_add(ifg) == t {
                    let first = sigs
                        .iter()
                        .filter(|&&(front, _, j)| j != k && front >= drop && front < t)
                        .min_by_key(|&&(front, _, j)| (front, j));
                    return match first {
                        Some(&(arrived, _, from)) => Cause::Blind {
                            from,
                            arrived,
                            gap_start: drop,
                        },
                        None => Cause::AfterGap { gap_start: drop },
                    };
                }
            }
        }
        if let Some(&(mut since, _, _)) = on(t).min_by_key(|x| x.0) {
            // Carrier is on: the station may transmit only at the end of a gap whose
            // second part the carrier arrived in. The carrier's run reaches back
            // through signals that touch (a tail and a front at the same instant).
            while let Some(front) = sigs
                .iter()
                .filter(|&&(front, tail, _)| front < since && tail >= since)
                .map(|x| x.0)
                .min()
            {
                since = front;
            }
            let drop = sigs
                .iter()
                .filter(|&&(_, tail, _)| tail < since)
                .map(|x| x.1)
                .max();
            let starter = sigs
                .iter()
                .filter(|&&(front, _, j)| front == since && j != k)
                .map(|x| x.2)
                .min();
            if let (Some(gap_start), Some(from)) = (drop, starter) {
                if since >= gap_start + part1 && gap_start + ifg == t {
                    return Cause::InPartTwo {
                        from,
                        arrived: since,
                        gap_start,
                    };
                }
            }
            let from = self.present(k, t, false).map_or(k, |p| p.0);
            return Cause::UnderCarrier { from };
        }
        // No carrier: the gap runs from the last drop.
        match sigs.iter().filter(|x| x.1 <= t).map(|x| x.1).max() {
            Some(gap_start) if gap_start + ifg == t => Cause::AfterGap { gap_start },
            _ => Cause::Idle,
        }
    }

    /// Whether station `k`'s transmission at `t` is the next frame of its burst: one
    /// gap after its frame went through, before `burstLimit` has passed since the
    /// burst began (clause 4.2.3.2.7); if so, when the previous frame ended.
    fn burst_frame(&self, k: u32, t: Time) -> Option<Time> {
        let limit = self.layout.burst_limit;
        if limit.is_zero() {
            return None;
        }
        let end = self.last_success[k as usize]?;
        let start = self.burst_start[k as usize]?;
        (end + self.layout.ifg == t && t < start + limit).then_some(end)
    }

    fn cause(&self, e: &TraceEvent) -> Cause {
        match e.kind {
            EventKind::Transmit => match self.burst_frame(e.station, e.time) {
                Some(previous_end) => Cause::Burst { previous_end },
                None => self.transmit_cause(e.station, e.time),
            },
            EventKind::Defer => Cause::Defer {
                from: self.present(e.station, e.time, false).map(|p| p.0),
            },
            EventKind::Collision => Cause::Collision {
                from: self.present(e.station, e.time, true).map(|p| p.0),
            },
            EventKind::JamEnd => Cause::JamEnd {
                window: self.backoff.window(e.collisions),
            },
            EventKind::Success => Cause::Success,
            EventKind::Drop => Cause::Drop,
        }
    }

    fn signal_at(&mut self, i: u64) -> Option<&mut Signal> {
        let at = usize::try_from(i.checked_sub(self.first_signal)?).ok()?;
        self.signals.get_mut(at)
    }

    fn signal_mut(&mut self, k: u32) -> Option<&mut Signal> {
        let i = self.open[k as usize]?;
        self.signal_at(i)
    }

    fn close(&mut self, k: u32, end: Time) {
        if let Some(s) = self.signal_mut(k) {
            s.end = Some(end);
        }
        self.open[k as usize] = None;
    }

    /// The next frame of a burst: its signal is the burst's, which goes on (it
    /// was closed at the previous frame's end only if the recorder could not know
    /// then that the burst would continue). Whether it was still kept.
    fn continue_burst(&mut self, k: u32) -> bool {
        if self.open[k as usize].is_some() {
            return true;
        }
        let Some(i) = self.latest[k as usize] else {
            return false;
        };
        let Some(s) = self.signal_at(i) else {
            return false;
        };
        s.end = None;
        self.open[k as usize] = Some(i);
        true
    }

    fn update(&mut self, e: &TraceEvent, cause: &Cause) {
        let k = e.station;
        let st = &mut self.states[k as usize];
        st.since = e.time;
        st.collisions = e.collisions;
        match e.kind {
            EventKind::Transmit => {
                st.activity = Activity::Transmitting;
                if matches!(cause, Cause::Burst { .. }) && self.continue_burst(k) {
                    return;
                }
                self.close(k, e.time);
                if !self.layout.burst_limit.is_zero() {
                    self.burst_start[k as usize] = Some(e.time);
                }
                if self.signals.len() == SIGNAL_CAP {
                    self.signals.pop_front();
                    self.first_signal += 1;
                }
                let i = self.first_signal + self.signals.len() as u64;
                self.open[k as usize] = Some(i);
                self.latest[k as usize] = Some(i);
                self.signals.push_back(Signal {
                    station: k,
                    start: e.time,
                    end: None,
                    collision_at: None,
                });
            }
            EventKind::Defer => st.activity = Activity::Deferring,
            EventKind::Collision => {
                st.activity = Activity::Jamming;
                self.collisions_seen += 1;
                if let Some(s) = self.signal_mut(k) {
                    s.collision_at = Some(e.time);
                }
            }
            EventKind::JamEnd => {
                if let Some(r) = e.backoff_slots {
                    let window = self.backoff.window(e.collisions);
                    st.activity = Activity::BackingOff {
                        until: e.time + self.layout.slot * u64::from(r),
                    };
                    st.window = Some(window);
                    st.drawn = Some(r);
                }
                self.burst_start[k as usize] = None;
                self.close(k, e.time);
            }
            EventKind::Success => {
                st.activity = Activity::Idle;
                st.collisions = 0;
                st.window = None;
                st.drawn = None;
                // A burst may go on one gap later: then the carrier stays on (extension
                // bits). A saturated station always has the next frame, so it does if
                // burstLimit allows; otherwise the next frame will tell.
                let limit = self.layout.burst_limit;
                let within = self.burst_start[k as usize]
                    .is_some_and(|b| e.time + self.layout.ifg < b + limit);
                if !within {
                    self.burst_start[k as usize] = None;
                }
                if !(within && self.layout.saturated) {
                    self.close(k, e.time);
                }
                self.last_success[k as usize] = Some(e.time);
                self.successes[k as usize] += 1;
                let d = self.layout.duration.as_ps().max(1);
                let bin =
                    (u128::from(e.time.as_ps()) * SERIES_BINS as u128 / u128::from(d)) as usize;
                self.series_bits[bin.min(SERIES_BINS - 1)] += u64::from(e.frame_bits);
            }
            EventKind::Drop => {
                st.activity = Activity::Dropped;
                st.window = None;
                st.drawn = None;
            }
        }
    }
}

impl Recorder {
    /// Station `k`'s burst went on after the frame that ended at `since`, which the
    /// recorder could not know then (a station under Poisson load may have no next
    /// frame): the events since then are explained again, now that its carrier is
    /// known to have stayed on (at most one gap's worth of events).
    fn reexplain_since(&mut self, since: Time) {
        for i in (0..self.events.len()).rev() {
            let r = self.events[i];
            let kind = r.event.kind;
            if r.event.time <= since && kind != EventKind::Collision {
                break;
            }
            // Only carrier-dependent causes change; a burst frame stays one.
            let again = match (kind, r.cause) {
                (EventKind::Transmit, Cause::Burst { .. }) => continue,
                (EventKind::Transmit, _) => self.transmit_cause(r.event.station, r.event.time),
                (EventKind::Defer | EventKind::Collision, _) => self.cause(&r.event),
                _ => continue,
            };
            self.events[i].cause = again;
        }
    }
}

impl Observer for Recorder {
    fn observe(&mut self, e: &TraceEvent) {
        let cause = self.cause(e);
        let reopens =
            matches!(cause, Cause::Burst { .. }) && self.open[e.station as usize].is_none();
        self.update(e, &cause);
        if let (true, Cause::Burst { previous_end }) = (reopens, cause) {
            self.reexplain_since(previous_end);
        }
        if self.events.len() == EVENT_CAP {
            self.events.pop_front();
            self.first_event += 1;
        }
        self.events.push_back(Recorded { event: *e, cause });
    }
}
