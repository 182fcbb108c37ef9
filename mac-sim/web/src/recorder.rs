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

use csma_cd::exact::observe::{EventKind, Observer, TraceEvent};
use sim_kit::time::Time;

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
    /// A transmission under carrier that fits none of the rules above (only under
    /// a gap rule other than IEEE 802.3's).
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

/// One transmission on the cable: from its first bit to its last (frame or jam).
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
    /// Its first part (`interFrameSpacingPart1`).
    pub ifg_part1: Time,
    /// The slot.
    pub slot: Time,
    /// How far back a signal can still matter to the carrier at a station: the
    /// longest transmission, the end-to-end delay and a gap.
    pub horizon: Time,
    /// The run's duration (for the utilisation series).
    pub duration: Time,
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
    backoff: csma_cd::backoff::Backoff,
    events: VecDeque<Recorded>,
    first_event: u64,
    signals: VecDeque<Signal>,
    first_signal: u64,
    /// Per station: the index of its open signal.
    open: Vec<Option<u64>>,
    states: Vec<StationState>,
    collisions_seen: u64,
    series_bits: Vec<u64>,
    successes: Vec<u64>,
}

impl Recorder {
    /// A recorder for stations at `layout.positions` running `backoff`.
    pub fn new(layout: Layout, backoff: csma_cd::backoff::Backoff) -> Self {
        let n = layout.positions.len();
        Self {
            layout,
            backoff,
            events: VecDeque::new(),
            first_event: 0,
            signals: VecDeque::new(),
            first_signal: 0,
            open: vec![None; n],
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

    /// Carrier at station `k` from the signals kept that arrived by `until`, as
    /// merged intervals `(from, to, has_own, first_foreign)`, oldest first; an open
    /// signal lasts to [`Time::MAX`].
    fn carrier(&self, k: u32, until: Time) -> Vec<(Time, Time, bool, Option<u32>)> {
        let floor = until.saturating_sub(self.layout.horizon);
        let mut spans: Vec<(Time, Time, u32)> = Vec::new();
        for s in self.signals.iter().rev() {
            if s.start < floor {
                break;
            }
            let d = self.layout.delay(s.station, k);
            let from = s.start + d;
            if from > until {
                continue;
            }
            let to = s.end.map_or(Time::MAX, |e| e + d);
            spans.push((from, to, s.station));
        }
        spans.sort_unstable();
        let mut merged: Vec<(Time, Time, bool, Option<u32>)> = Vec::new();
        for (from, to, st) in spans {
            let own = st == k;
            match merged.last_mut() {
                Some(m) if from <= m.1 => {
                    m.1 = m.1.max(to);
                    m.2 |= own;
                    if m.3.is_none() && !own {
                        m.3 = Some(st);
                    }
                }
                _ => merged.push((from, to, own, (!own).then_some(st))),
            }
        }
        merged
    }

    /// The foreign signal present at `k` at `t` that arrived last (front strictly
    /// before `t`, tail not yet passed), if any.
    fn present(&self, k: u32, t: Time) -> Option<(u32, Time)> {
        let floor = t.saturating_sub(self.layout.horizon);
        let mut best: Option<(u32, Time)> = None;
        for s in self.signals.iter().rev() {
            if s.start < floor {
                break;
            }
            if s.station == k {
                continue;
            }
            let d = self.layout.delay(s.station, k);
            let front = s.start + d;
            let on = front <= t && s.end.is_none_or(|e| e + d > t);
            if on && best.is_none_or(|(_, a)| front > a) {
                best = Some((s.station, front));
            }
        }
        best
    }

    fn transmit_cause(&self, k: u32, t: Time) -> Cause {
        let spans = self.carrier(k, t);
        // The span holding `t` (carrier present) and the one before it.
        let at = spans.iter().position(|s| s.0 < t && s.1 > t);
        match at {
            Some(i) => {
                let span = spans[i];
                let Some(from) = self.present(k, t).map(|p| p.0).or(span.3) else {
                    return Cause::Idle;
                };
                let arrived = span.0;
                let Some(prev) = i.checked_sub(1).map(|j| spans[j]) else {
                    return Cause::UnderCarrier { from };
                };
                let gap_start = prev.1;
                if prev.2 {
                    Cause::Blind {
                        from,
                        arrived,
                        gap_start,
                    }
                } else if arrived >= gap_start + self.layout.ifg_part1 {
                    Cause::InPartTwo {
                        from,
                        arrived,
                        gap_start,
                    }
                } else {
                    Cause::UnderCarrier { from }
                }
            }
            None => match spans.iter().rev().find(|s| s.1 <= t) {
                Some(s) if s.1 + self.layout.ifg == t => Cause::AfterGap { gap_start: s.1 },
                _ => Cause::Idle,
            },
        }
    }

    fn cause(&self, e: &TraceEvent) -> Cause {
        match e.kind {
            EventKind::Transmit => self.transmit_cause(e.station, e.time),
            EventKind::Defer => Cause::Defer {
                from: self.present(e.station, e.time).map(|p| p.0),
            },
            EventKind::Collision => Cause::Collision {
                from: self.present(e.station, e.time).map(|p| p.0),
            },
            EventKind::JamEnd => Cause::JamEnd {
                window: self.backoff.window(e.collisions),
            },
            EventKind::Success => Cause::Success,
            EventKind::Drop => Cause::Drop,
        }
    }

    fn signal_mut(&mut self, k: u32) -> Option<&mut Signal> {
        let i = self.open[k as usize]?;
        let at = usize::try_from(i.checked_sub(self.first_signal)?).ok()?;
        self.signals.get_mut(at)
    }

    fn close(&mut self, k: u32, end: Time) {
        if let Some(s) = self.signal_mut(k) {
            s.end = Some(end);
        }
        self.open[k as usize] = None;
    }

    fn update(&mut self, e: &TraceEvent) {
        let k = e.station;
        let st = &mut self.states[k as usize];
        st.since = e.time;
        st.collisions = e.collisions;
        match e.kind {
            EventKind::Transmit => {
                st.activity = Activity::Transmitting;
                self.close(k, e.time);
                if self.signals.len() == SIGNAL_CAP {
                    self.signals.pop_front();
                    self.first_signal += 1;
                }
                self.open[k as usize] = Some(self.first_signal + self.signals.len() as u64);
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
                self.close(k, e.time);
            }
            EventKind::Success => {
                st.activity = Activity::Idle;
                st.collisions = 0;
                st.window = None;
                st.drawn = None;
                self.close(k, e.time);
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

impl Observer for Recorder {
    fn observe(&mut self, e: &TraceEvent) {
        let cause = self.cause(e);
        self.update(e);
        if self.events.len() == EVENT_CAP {
            self.events.pop_front();
            self.first_event += 1;
        }
        self.events.push_back(Recorded { event: *e, cause });
    }
}
