//! The shared cable: where every signal is, who senses carrier, who detects a
//! collision, and when. It knows nothing of frames, queues or backoff.
//!
//! A signal started at `s` by the station at `p_k` reaches position `p` at
//! `s + |p − p_k|` (positions are propagation delays from the cable's start, held as
//! [`SignedTime`]s so that `t − p` and `t + p` keep their unit). A station senses
//! carrier at `t` when some signal's front reached it strictly before `t` and its tail
//! has not yet passed. A transmitter detects a collision when another signal's front
//! reaches it; it then finishes the preamble, jams and stops.
//!
//! # The nearest-neighbour argument
//!
//! Stations are numbered by position. The *front set* holds the stations whose latest
//! signal front is still travelling (started less than one end-to-end delay ago).
//! When the one-way delay is below preamble + jam + gap
//! ([`Timing::nearest_neighbour_valid`](crate::config::Timing::nearest_neighbour_valid);
//! 3840 m at 10 Mb/s), no front in the set can have passed a station that then starts
//! transmitting: the signal behind it would have been shorter than any transmission.
//! It follows that, on each side of a station, the nearest member's front arrives
//! first and dominates every farther member's beyond it. So starting a transmission
//! (own collision detection, and detection by others) looks at the two nearest
//! members, and carrier sense walks outwards only past signals that have already gone
//! by. For large N a `FrontTree` answers the same question in `O(log N)` even in a
//! burst of thousands of simultaneous starts. A brute-force method that scans every
//! signal on the cable serves as the reference in tests (all three agree on whole
//! runs) and as the model beyond that range, up to the limit of no late collisions
//! (round trip within the slot and the shortest frame).
//!
//! Signals whose front has covered the whole cable are folded into two running maxima
//! (`max(e − p)` and `max(e + p)` over their ends `e`), from which the moment the
//! carrier drops at any position follows in `O(1)`: `max(U + p, V − p)`.
//!
//! # The carrier's recent history
//!
//! Under the IEEE 802.3 gap rules a station that meets carrier must know whether it
//! arrived in the second part of a gap still running ([`Medium::carrier`]). Such a
//! gap leaves the carrier off at one instant known in advance, just before the last
//! `ifg − ifg_part1`. Carrier there (the nearest transmitters, the members' tails by
//! the tree or the walk, the folded maxima) settles most questions; without it, only
//! the signals that arrived since, found between two runs of the front set, make the
//! carrier now. A scan of every signal recent enough to matter remains for the rest,
//! and checks every fast answer in debug builds.

use std::collections::VecDeque;

use crate::config::{JamRule, Timing};
use crate::exact::bitset::LevelBitSet;
use crate::exact::segtree::FrontTree;
use sim_kit::time::{SignedTime, Time};

/// No collision detected (yet).
pub const NONE: Time = Time::MAX;
/// From this many stations on, the medium keeps the members still transmitting
/// (`Medium::fronts_on`) for the IEEE 802.3 gap rules. Below it the walk over the few
/// signals near a station costs less than keeping the set (instructions,
/// `scripts/compare-builds.sh`: +1.8 % at 32 stations with it, −1.2 % at 64).
const TRACK_ON_FROM: usize = 64;
/// The least length of the folded signals at which [`Medium::carrier`] drops the old
/// ones without a scan of its own.
const RECENT_CAP_MIN: usize = 256;
/// Before every instant of a run ("never" for the last drop of the carrier), far
/// enough from [`SignedTime::MIN`] that adding a position or a gap cannot overflow.
const LONG_AGO: SignedTime = SignedTime::from_ps(i64::MIN / 4);

/// How carrier sense and collision detection are computed (all give the same answers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenseMethod {
    /// Walk outwards over the nearest signals in flight (fastest for small N).
    Walk,
    /// Segment tree over station numbers: `O(log N)` whatever the burst size.
    Indexed,
    /// Scan every signal on the cable. The reference for tests, and the method used
    /// outside the nearest-neighbour argument's range (a long cable, or a short
    /// preamble, jam and gap), where a station may even have two signals in flight.
    BruteForce,
}

#[derive(Clone, Copy, Debug)]
struct Signal {
    /// The transmitter's position.
    pos: SignedTime,
    start: Time,
    /// End of the transmission: tentative while `on`, final after.
    end: Time,
    /// When another signal's front reached this transmitter, or [`NONE`].
    det: Time,
    on: bool,
    /// Whether this transmission's front is still in the front queue.
    in_fifo: bool,
    /// Whether another signal was present at the station when it started (a start
    /// under carrier, possible only under the IEEE 802.3 gap rules).
    inside: bool,
}

/// A signal front still travelling: who started it, when, and (once the station has
/// started another transmission, so that its per-station record moved on) the final
/// end of this one.
#[derive(Clone, Copy, Debug)]
struct Front {
    start: Time,
    station: u32,
    frozen_end: Time,
}

/// A finished signal whose front has covered the cable, kept while its tail may
/// still matter to a station's deference (until one gap after it has passed the
/// whole cable).
#[derive(Clone, Copy, Debug)]
struct Past {
    pos: SignedTime,
    start: Time,
    end: Time,
}

/// What a station's deference needs to know of the carrier at its own position
/// ([`Medium::carrier`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carrier {
    /// The carrier is off. It last dropped at `last_drop`, or `None` if no drop is
    /// recent enough to matter (more than one gap plus the end-to-end delay ago).
    Off {
        /// The last drop of the carrier at the station.
        last_drop: Option<Time>,
    },
    /// The carrier is on.
    On {
        /// The drop before the run of carrier that is on now, when that run began
        /// at least the gap's first part (`Timing::ifg_part1`) after it and the drop
        /// is at most one gap ago: a gap that started then is in its second part and
        /// ignores this carrier. `None` otherwise (no gap is in progress).
        gap_from: Option<Time>,
        /// What the carrier waits for.
        wait: Wait,
    },
}

/// What ends the carrier at a station that is on, as far as is known now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// A station still transmitting, whose signal is present: the carrier stays at
    /// least until that transmission's tail passes.
    Transmitter(usize),
    /// Only finished signals are present: the carrier lasts until this instant, unless
    /// another front arrives first.
    Until(Time),
}

/// The cable and every signal on it.
pub struct Medium {
    t: Timing,
    /// A transmitter that detects a collision jams from `max(detection, start +
    /// jam_floor)`: the preamble and SFD ([`JamRule::Preamble`]) or nothing.
    jam_floor: Time,
    /// Whether stations may start under carrier (the IEEE 802.3 gap rules): starts
    /// then look for carrier at their own position and collide at once.
    starts_under_carrier: bool,
    /// Members of the front set that started under carrier.
    inside_members: u32,
    /// Transmitters whose front has covered the cable.
    old_on: Vec<u32>,
    /// Finished signals out of the front set, for [`carrier`](Self::carrier), in
    /// order of start.
    recent: Vec<Past>,
    /// The same for transmissions still on when their front covered the cable (they
    /// join when they end, out of order of start).
    recent_long: Vec<Past>,
    /// When `recent` and `recent_long` together grow to this length, signals too old
    /// to matter are dropped (amortised: most questions do not scan them).
    recent_cap: usize,
    /// Scratch space of [`carrier`](Self::carrier).
    scratch: Vec<(Time, Time, u32)>,
    sig: Vec<Signal>,
    method: SenseMethod,
    fronts: LevelBitSet,
    /// The members of the front set whose transmitter is still on, among which
    /// [`carrier_wait`](Self::carrier_wait) finds the nearest (kept only for the
    /// fast methods under the IEEE 802.3 gap rules from [`TRACK_ON_FROM`] stations,
    /// see `track_on`).
    fronts_on: LevelBitSet,
    /// Whether `fronts_on` is kept.
    track_on: bool,
    tree: Option<FrontTree>,
    front_fifo: VecDeque<Front>,
    old_transmitting: u32,
    active: u32,
    /// `max(e − p)` and `max(e + p)` over the ends `e` of the signals folded out of
    /// the front set (`u = t − x`, `v = t + x`: the coordinates in which a tail
    /// travelling left or right keeps its value).
    u_old: SignedTime,
    v_old: SignedTime,
    /// The same over every signal that has ended.
    u_all: SignedTime,
    v_all: SignedTime,
}

/// When the carrier of the signals folded into `u` and `v` drops at position `p`.
#[inline]
fn off(u: SignedTime, v: SignedTime, p: SignedTime) -> SignedTime {
    (u + p).max(v - p)
}

/// An upper bound of what a cable of `n` stations holds at most with `method`: every
/// list of signals (fronts travelling, signals past, scratch) holds at most one entry
/// per station, or twice that after a doubling; the front sets are bits; the
/// indexed method adds its tree of fronts.
pub fn memory_bound(n: u64, method: SenseMethod) -> sim_kit::memory::Bytes {
    use sim_kit::memory::Bytes;
    let lists = Bytes::of::<Signal>(n)
        + Bytes::growable::<Past>(2 * n)
        + Bytes::growable::<Front>(n)
        + Bytes::growable::<(Time, Time, u32)>(n)
        + Bytes::growable::<u32>(n)
        // Two front sets of n bits and their summary levels.
        + Bytes::new(2 * (n.div_ceil(64) + n.div_ceil(4096) + 1) * 8);
    let tree = if method == SenseMethod::Indexed {
        Bytes::of::<[SignedTime; 4]>(2 * n.max(1).next_power_of_two())
    } else {
        Bytes::ZERO
    };
    lists + tree
}

impl Medium {
    /// A quiet cable with stations at `positions` (ascending propagation delays from
    /// the cable's start).
    pub fn new(t: Timing, positions: &[Time], method: SenseMethod) -> Self {
        let n = positions.len();
        Self {
            t,
            jam_floor: t.preamble,
            starts_under_carrier: false,
            inside_members: 0,
            old_on: Vec::new(),
            recent: Vec::new(),
            recent_long: Vec::new(),
            recent_cap: RECENT_CAP_MIN,
            scratch: Vec::new(),
            sig: positions
                .iter()
                .map(|&pos| Signal {
                    pos: SignedTime::from_time(pos),
                    start: Time::ZERO,
                    end: Time::ZERO,
                    det: NONE,
                    on: false,
                    in_fifo: false,
                    inside: false,
                })
                .collect(),
            method,
            fronts: LevelBitSet::new(n),
            fronts_on: LevelBitSet::new(0),
            track_on: false,
            tree: (method == SenseMethod::Indexed).then(|| FrontTree::new(n)),
            front_fifo: VecDeque::new(),
            old_transmitting: 0,
            active: 0,
            u_old: LONG_AGO,
            v_old: LONG_AGO,
            u_all: LONG_AGO,
            v_all: LONG_AGO,
        }
    }

    /// Follow `rule` for the start of the jam (the preamble rule by default).
    pub fn set_jam_rule(&mut self, rule: JamRule) {
        self.jam_floor = match rule {
            JamRule::Preamble => self.t.preamble,
            JamRule::Immediate => Time::ZERO,
        };
    }

    /// Let stations start while carrier is present at their position (the IEEE 802.3
    /// gap's second part, and the gap timed blind after a station's own frame). Such a
    /// start collides at once, and the signal is marked so that carrier sense still
    /// finds the farther signal it started inside.
    pub fn allow_starts_under_carrier(&mut self) {
        self.starts_under_carrier = true;
        if self.method != SenseMethod::BruteForce
            && self.sig.len() >= TRACK_ON_FROM
            && !self.track_on
        {
            self.track_on = true;
            self.fronts_on = LevelBitSet::new(self.sig.len());
        }
    }

    /// Stations transmitting now.
    #[inline]
    pub fn active(&self) -> u32 {
        self.active
    }

    /// Station `k`'s position: the propagation delay from the cable's start.
    pub fn pos(&self, k: usize) -> Time {
        self.sig[k].pos.to_time()
    }

    /// The propagation delay between stations `j` and `k`.
    #[inline]
    pub fn delay(&self, j: usize, k: usize) -> Time {
        self.sig[j].pos.abs_diff(self.sig[k].pos)
    }

    /// When the carrier of everything sent so far has gone from station `k`, plus the
    /// interframe gap: when a station deferring there may try again.
    #[inline]
    pub fn quiet_at(&self, k: usize) -> Time {
        off(self.u_all, self.v_all, self.sig[k].pos).to_time() + self.t.ifg
    }

    /// Fold signals whose front has covered the whole cable out of the front set.
    #[inline]
    pub fn purge(&mut self, now: Time) {
        while let Some(&f) = self.front_fifo.front() {
            if f.start + self.t.max_prop >= now {
                break;
            }
            self.front_fifo.pop_front();
            let k = f.station as usize;
            if f.frozen_end != NONE {
                // An earlier transmission of a station that has started again.
                let (e, p) = (SignedTime::from_time(f.frozen_end), self.sig[k].pos);
                self.u_old = self.u_old.max(e - p);
                self.v_old = self.v_old.max(e + p);
                if self.starts_under_carrier {
                    self.recent.push(Past {
                        pos: p,
                        start: f.start,
                        end: f.frozen_end,
                    });
                }
                continue;
            }
            self.fronts.remove(k);
            if let Some(t) = &mut self.tree {
                t.clear(k);
            }
            if self.track_on && self.fronts_on.contains(k) {
                self.fronts_on.remove(k);
            }
            let g = &mut self.sig[k];
            debug_assert_eq!(g.start, f.start);
            g.in_fifo = false;
            let g = *g;
            if g.inside {
                self.inside_members -= 1;
            }
            if g.on {
                self.old_transmitting += 1;
                if self.starts_under_carrier {
                    self.old_on.push(k as u32);
                }
            } else {
                let e = SignedTime::from_time(g.end);
                self.u_old = self.u_old.max(e - g.pos);
                self.v_old = self.v_old.max(e + g.pos);
                if self.starts_under_carrier {
                    self.recent.push(Past {
                        pos: g.pos,
                        start: g.start,
                        end: g.end,
                    });
                }
            }
        }
    }

    /// `None` if station `k` senses carrier at `now`, else the last time the carrier
    /// dropped at its position (long before time zero if never). Call
    /// [`purge`](Self::purge) first.
    #[inline]
    pub fn sense(&self, k: usize, now: Time) -> Option<SignedTime> {
        if self.old_transmitting > 0 {
            return None;
        }
        let (p, now_s) = (self.sig[k].pos, SignedTime::from_time(now));
        let mut last = off(self.u_old, self.v_old, p);
        if last > now_s {
            return None;
        }
        if self.front_fifo.is_empty() {
            // No front in flight (common after a long frame): only the folded signals.
            return Some(last);
        }
        match self.method {
            SenseMethod::BruteForce => {
                let all = self.front_fifo.iter().map(|f| self.view(f));
                let seen = self.pass(p, now, all, false)?;
                Some(last.max(seen))
            }
            SenseMethod::Indexed if self.inside_members == 0 => {
                let t = self.tree.as_ref()?;
                let (from, to) = self.arrived_runs(t, k, now_s);
                let (tau, sigma) = (now_s - p, now_s + p);
                if from <= k {
                    let tail = t.max_tail_left(from, k);
                    if tail > tau {
                        return None;
                    }
                    last = last.max(tail + p);
                }
                if k + 1 < to {
                    let tail = t.max_tail_right(k + 1, to - 1);
                    if tail > sigma {
                        return None;
                    }
                    last = last.max(tail - p);
                }
                Some(last)
            }
            SenseMethod::Walk | SenseMethod::Indexed => {
                // Outwards on each side; stop at the first front that has not arrived
                // (past a signal that started under carrier, whose front trails the
                // one it started inside: see `pass`).
                let left =
                    std::iter::successors(self.fronts.pred_incl(k), |&j| self.fronts.pred(j));
                let right = std::iter::successors(self.fronts.succ(k), |&j| self.fronts.succ(j));
                let l = self.pass(p, now, left.map(|j| self.sig[j]), true)?;
                let r = self.pass(p, now, right.map(|j| self.sig[j]), true)?;
                Some(last.max(l).max(r))
            }
        }
    }

    /// What the carrier at station `k` waits for, when [`sense`](Self::sense) has
    /// found it on at `now`: a transmitter still on whose signal is present, or else
    /// the instant the last tail present passes (unless another front arrives first).
    /// Looks at the nearest signals only, as `sense` does; call
    /// [`purge`](Self::purge) first.
    pub fn carrier_wait(&self, k: usize, now: Time) -> Wait {
        if let Some(&j) = self.old_on.first() {
            return Wait::Transmitter(j as usize);
        }
        let p = self.sig[k].pos;
        // Folded signals reached everywhere: the latest of their tails (if any, else
        // zero: the answer is never earlier than `now`).
        let mut until = off(self.u_old, self.v_old, p).to_time();
        // Over one signal: `Some(true)` to go on, `Some(false)` to stop the walk,
        // `None` if it is a transmission still on that has arrived.
        let look = |g: Signal, until: &mut Time| -> Option<bool> {
            let d = p.abs_diff(g.pos);
            if g.start + d >= now {
                // Not arrived: ends a walk unless it started after a passing front.
                return Some(g.inside);
            }
            if g.on {
                return None;
            }
            *until = (*until).max(g.end + d);
            Some(true)
        };
        if let Some(wait) = self.carrier_wait_fast(k, now, until) {
            return wait;
        }
        let mut on = None;
        if self.method == SenseMethod::BruteForce {
            // The transmitter the walk would find first: the nearest on the left
            // (the station itself included), else the nearest on the right.
            let key = |i: usize| (i > k, i.abs_diff(k));
            for f in &self.front_fifo {
                let i = f.station as usize;
                if look(self.view(f), &mut until).is_none() && on.is_none_or(|o| key(i) < key(o)) {
                    on = Some(i);
                }
            }
        } else {
            'sides: for side in 0..2 {
                let mut j = if side == 0 {
                    self.fronts.pred_incl(k)
                } else {
                    self.fronts.succ(k)
                };
                while let Some(i) = j {
                    match look(self.sig[i], &mut until) {
                        None => {
                            on = Some(i);
                            break 'sides;
                        }
                        Some(false) => break,
                        Some(true) => {}
                    }
                    j = if side == 0 {
                        self.fronts.pred(i)
                    } else {
                        self.fronts.succ(i)
                    };
                }
            }
        }
        match on {
            Some(j) => Wait::Transmitter(j),
            None => Wait::Until(until.max(now)),
        }
    }

    /// [`carrier_wait`](Self::carrier_wait) for the fast methods while no member
    /// started under carrier (`folded`: the latest tail at `k` of the signals folded
    /// out of the front set): the neighbour walk's answer without the walk when a
    /// transmitter still on is present, and with the tree in `O(log N)` otherwise.
    ///
    /// Then a member nearer to `k` on the same side reached `k` no later than a
    /// farther one (it started before the farther one's front reached it), so the
    /// members that have arrived form a run on each side of `k`, as in
    /// [`sense`](Self::sense). The walk stops at the nearest transmitter still on in
    /// the left run (`k` included), else in the right run: the nearest on each side,
    /// if it has arrived. Otherwise it passes every tail of both runs.
    fn carrier_wait_fast(&self, k: usize, now: Time, folded: Time) -> Option<Wait> {
        if self.inside_members > 0 || !self.track_on {
            return None;
        }
        let p = self.sig[k].pos;
        let arrived = |j: &usize| self.sig[*j].start + p.abs_diff(self.sig[*j].pos) < now;
        let nearest_on = self.fronts_on.pred_incl(k).filter(arrived);
        if let Some(j) = nearest_on.or_else(|| self.fronts_on.succ(k).filter(arrived)) {
            return Some(Wait::Transmitter(j));
        }
        let t = self.tree.as_ref()?;
        let runs = self.arrived_runs(t, k, SignedTime::from_time(now));
        let tail = self.runs_tail(t, k, runs).to_time();
        Some(Wait::Until(folded.max(tail).max(now)))
    }

    /// The members whose front reached station `k` before `at`, while no member
    /// started under carrier: the runs `from..=k` and `k + 1..to` next to `k` (a
    /// nearer front arrives first), by two descents of the tree.
    #[inline]
    fn arrived_runs(&self, t: &FrontTree, k: usize, at: SignedTime) -> (usize, usize) {
        let p = self.sig[k].pos;
        let from = t.rightmost_a_at_least(k, at - p).map_or(0, |i| i + 1);
        let to = t
            .leftmost_b_at_least(k + 1, at + p)
            .unwrap_or(self.sig.len());
        (from, to)
    }

    /// The latest tail at station `k` of the members in the runs `(from, to)` of
    /// [`arrived_runs`](Self::arrived_runs) (an empty range gives a maximum far
    /// before time zero).
    #[inline]
    fn runs_tail(&self, t: &FrontTree, k: usize, (from, to): (usize, usize)) -> SignedTime {
        let p = self.sig[k].pos;
        (t.max_tail_left(from, k) + p).max(t.max_tail_right(k + 1, to - 1) - p)
    }

    /// The carrier at station `k` at `now`, as its deference sees it: on or off, the
    /// drop from which a gap may be running, and what the carrier waits for. Exact for
    /// every signal whose tail passed the station less than one gap plus the
    /// end-to-end delay ago (older drops cannot matter to a gap of that length). Call
    /// [`purge`](Self::purge) first, and only when [`sense`](Self::sense) has found
    /// the carrier on (the answer is then [`Carrier::On`]); only for
    /// [`allow_starts_under_carrier`](Self::allow_starts_under_carrier) cables.
    ///
    /// From 64 stations on, most questions are answered from the indexes and the
    /// signals that arrived in the last part of a gap (see the module docs); the rest
    /// scan the signals in flight and those recently folded.
    pub fn carrier(&mut self, k: usize, now: Time) -> Carrier {
        let (ifg, p) = (self.t.ifg, self.sig[k].pos);
        // The common case first: a transmitter whose front covered the cable reached
        // the station more than a gap ago, so the carrier is on, the run is older than
        // a gap and the station waits on that transmitter.
        for &j in &self.old_on {
            let g = self.sig[j as usize];
            if g.start + p.abs_diff(g.pos) + ifg <= now {
                return Carrier::On {
                    gap_from: None,
                    wait: Wait::Transmitter(j as usize),
                };
            }
        }
        if self.recent.len() + self.recent_long.len() >= self.recent_cap {
            self.forget(now);
        }
        let mut fresh = std::mem::take(&mut self.scratch);
        let fast = self.carrier_fast(k, now, &mut fresh);
        self.scratch = fresh;
        if let Some(carrier) = fast {
            // Every debug-build run checks the fast answer against the scan.
            debug_assert_eq!(carrier, self.carrier_scan(k, now), "station {k} at {now:?}");
            return carrier;
        }
        self.carrier_scan(k, now)
    }

    /// [`carrier`](Self::carrier) by a scan of every signal that may matter: those in
    /// flight and those folded recently.
    fn carrier_scan(&mut self, k: usize, now: Time) -> Carrier {
        let (ifg, p) = (self.t.ifg, self.sig[k].pos);
        self.forget(now);
        let mut iv = std::mem::take(&mut self.scratch);
        iv.clear();
        // Each signal whose front has reached the station: (front, tail), the tail
        // `Time::MAX` while its transmitter is still on.
        let mut add = |pos: SignedTime, start: Time, end: Option<Time>, who: usize| {
            let d = p.abs_diff(pos);
            let front = start + d;
            if front < now {
                let tail = end.map_or(Time::MAX, |e| e + d);
                iv.push((front, tail, who as u32));
            }
        };
        for f in &self.front_fifo {
            let g = self.view(f);
            add(g.pos, g.start, (!g.on).then_some(g.end), f.station as usize);
        }
        for &j in &self.old_on {
            let g = self.sig[j as usize];
            add(g.pos, g.start, None, j as usize);
        }
        for g in self.recent.iter().chain(&self.recent_long) {
            add(g.pos, g.start, Some(g.end), usize::MAX);
        }
        // The signals present now (the earliest front, the latest tail), and the latest
        // tail that has passed.
        let (mut since, mut until, mut on) = (Time::MAX, Time::ZERO, None);
        let mut passed = None;
        for &(front, tail, who) in &iv {
            if tail > now {
                since = since.min(front);
                until = until.max(tail);
                if tail == Time::MAX {
                    on = on.or(Some(who as usize));
                }
            } else {
                passed = passed.max(Some(tail));
            }
        }
        let carrier = if since == Time::MAX {
            // Off: the latest tail that passed is the last drop.
            Carrier::Off { last_drop: passed }
        } else {
            // On: the run of carrier may reach back through signals that have passed
            // (a tail and a front at the same instant count as unbroken). Only a run
            // younger than one gap needs its start and the drop before it exactly.
            let young = |since: Time| since + ifg > now;
            let mut extended = true;
            while extended && young(since) {
                extended = false;
                for &(front, tail, _) in &iv {
                    if front < since && tail >= since {
                        since = front;
                        extended = true;
                    }
                }
            }
            let drop = iv
                .iter()
                .filter(|&&(_, tail, _)| tail < since)
                .map(|&(_, tail, _)| tail)
                .max();
            let gap_from = drop.filter(|&drop| {
                young(since) && since >= drop + self.t.ifg_part1 && now <= drop + ifg
            });
            Carrier::On {
                gap_from,
                wait: on.map_or(Wait::Until(until), Wait::Transmitter),
            }
        };
        self.scratch = iv;
        carrier
    }

    /// Drop the folded signals whose tail passed every station more than one gap ago.
    fn forget(&mut self, now: Time) {
        let horizon = self.t.max_prop + self.t.ifg;
        self.recent.retain(|g| g.end + horizon >= now);
        self.recent_long.retain(|g| g.end + horizon >= now);
        self.recent_cap = (2 * (self.recent.len() + self.recent_long.len())).max(RECENT_CAP_MIN);
    }

    /// [`carrier`](Self::carrier) from the indexes, for the fast methods while no
    /// member started under carrier; `None` when the scan must decide. `fresh` is
    /// scratch space.
    ///
    /// A gap whose second part is running at `now` began at a drop `d` with
    /// `now − ifg ≤ d`, and the carrier stayed off at least until `d + ifg_part1 ≥
    /// now − (ifg − ifg_part1)`. With the first part the longer, that quiet spell
    /// holds `probe`, just before the last `ifg − ifg_part1`. So:
    ///
    /// * Carrier at `probe` means no gap is in progress and the station defers.
    ///   Carrier at `probe` is a signal whose front reached the station by then and
    ///   whose tail had not yet passed: a transmitter still on (the nearest on each
    ///   side arrives first, see [`carrier_wait_fast`](Self::carrier_wait_fast)), a
    ///   finished member (the tree's range maxima, or the walk), or a folded signal
    ///   (the running maxima, when the latest tail is not one of the few folded
    ///   signals that started so late that their front may have arrived after
    ///   `probe`).
    /// * Without carrier at `probe`, every signal that arrived by then has passed,
    ///   and only those whose front arrived since (`fresh`) make the carrier that is
    ///   on now: the members between the runs arrived by `probe` and by `now` on each
    ///   side, and transmitters that covered the cable (every folded signal passed
    ///   before `probe`: one whose front arrived after it has its tail after it too).
    ///   The carrier's start and the drop before it follow from them and from the
    ///   latest tail of the older signals.
    fn carrier_fast(
        &self,
        k: usize,
        now: Time,
        fresh: &mut Vec<(Time, Time, u32)>,
    ) -> Option<Carrier> {
        let part2 = self.t.ifg.checked_sub(self.t.ifg_part1)?;
        // (`probe` must lie strictly inside the quiet spell.)
        let margin = part2 + Time::from_ps(1);
        if !self.track_on || self.inside_members > 0 || self.t.ifg_part1 <= margin {
            return None;
        }
        let probe = now.checked_sub(margin)?;
        let (p, probe_s) = (self.sig[k].pos, SignedTime::from_time(probe));
        let front = |j: usize| self.sig[j].start + p.abs_diff(self.sig[j].pos);
        let by = |j: &usize| front(*j) <= probe;
        let defer = || {
            Some(Carrier::On {
                gap_from: None,
                wait: self.first_wait(k, now)?,
            })
        };
        if self.old_on.iter().any(|&j| by(&(j as usize)))
            || self.fronts_on.pred_incl(k).is_some_and(|j| by(&j))
            || self.fronts_on.succ(k).is_some_and(|j| by(&j))
        {
            return defer();
        }
        let (members_tail, [left, right]) = self.members_by(k, probe);
        if members_tail >= probe_s {
            return defer();
        }
        // Folded signals: the running maxima give their latest tail here. If it
        // passed before `probe`, none covered `probe`. Otherwise its signal did,
        // unless it started so late (less than one end-to-end delay before `probe`)
        // that its front may have arrived after; those few are looked at one by one
        // (`recent` is in order of start).
        let folded = off(self.u_old, self.v_old, p);
        if folded >= probe_s {
            let late = |g: &&Past| g.start + self.t.max_prop > probe;
            let mut late_tail = LONG_AGO;
            let young = self.recent.iter().rev().take_while(late);
            for g in young.chain(self.recent_long.iter().filter(late)) {
                let d = p.abs_diff(g.pos);
                if g.start + d <= probe && g.end + d >= probe {
                    return defer();
                }
                late_tail = late_tail.max(SignedTime::from_time(g.end + d));
            }
            if folded > late_tail {
                return defer();
            }
            // The latest folded tail is a late signal's: whether an older one covered
            // `probe`, and the latest older tail, are not known here.
            return None;
        }
        // No carrier at `probe`: every signal that arrived by then has passed, the
        // last at `older`, and the carrier now is made of the fresh signals, whose
        // fronts arrived since. A gap is in progress only if that carrier is one run
        // from the earliest fresh front (then the quiet spell before it holds
        // `probe`; a fresh signal that passed before the run began would leave a
        // spell shorter than the gap's first part), at least the first part after
        // `older`, with `older` at most one gap ago. The earliest fresh front is the
        // nearest member on each side that had not arrived at `probe`, or a
        // transmitter that covered the cable.
        let older = members_tail.max(folded);
        let ifg = self.t.ifg;
        let first = [left, right]
            .into_iter()
            .flatten()
            .chain(self.old_on.iter().map(|&j| j as usize))
            .map(front)
            .min()
            .filter(|&f| f < now)?;
        if older < SignedTime::from_time(now) - SignedTime::from_time(ifg)
            || first < older.to_time() + self.t.ifg_part1
        {
            return defer();
        }
        // One run from `first` to `now`: sweep the fresh signals in order of front.
        fresh.clear();
        let arrived = |j: usize| front(j) < now;
        let mut push = |j: usize| {
            let g = self.sig[j];
            let tail = if g.on {
                Time::MAX
            } else {
                g.end + p.abs_diff(g.pos)
            };
            fresh.push((front(j), tail, j as u32));
        };
        self.old_on.iter().for_each(|&j| push(j as usize));
        std::iter::successors(left, |&j| self.fronts.pred(j))
            .take_while(|&j| arrived(j))
            .for_each(&mut push);
        std::iter::successors(right, |&j| self.fronts.succ(j))
            .take_while(|&j| arrived(j))
            .for_each(&mut push);
        fresh.sort_unstable();
        let mut reach = first;
        for &(f, tail, _) in fresh.iter() {
            if f > reach {
                break;
            }
            reach = reach.max(tail);
        }
        Some(Carrier::On {
            gap_from: (reach > now).then(|| older.to_time()),
            wait: self.first_wait(k, now)?,
        })
    }

    /// What the carrier at station `k` waits for, as the scan of
    /// [`carrier`](Self::carrier) finds it (it is on): the first transmitter still on
    /// in the order of the front queue (oldest start first) whose signal is present,
    /// else the first that covered the cable, else the latest tail present. `None`
    /// if the nearest transmitters say one is present and the queue disagrees.
    fn first_wait(&self, k: usize, now: Time) -> Option<Wait> {
        let p = self.sig[k].pos;
        let arrived = |j: &usize| self.sig[*j].start + p.abs_diff(self.sig[*j].pos) < now;
        if self.fronts_on.pred_incl(k).filter(arrived).is_some()
            || self.fronts_on.succ(k).filter(arrived).is_some()
        {
            let first = self
                .front_fifo
                .iter()
                .map(|f| f.station as usize)
                .find(|&j| self.sig[j].on && arrived(&j))?;
            return Some(Wait::Transmitter(first));
        }
        if let Some(&j) = self.old_on.first() {
            return Some(Wait::Transmitter(j as usize));
        }
        Some(self.carrier_wait(k, now))
    }

    /// Over the members whose front reached station `k` by `by` (while no member
    /// started under carrier they form a run on each side of `k`, found with the tree
    /// or by a walk): their latest tail at `k` (far before time zero if none), and the
    /// nearest member on each side whose front had not.
    fn members_by(&self, k: usize, by: Time) -> (SignedTime, [Option<usize>; 2]) {
        let p = self.sig[k].pos;
        if let Some(t) = &self.tree {
            let after = SignedTime::from_time(by) + SignedTime::from_ps(1);
            let (from, to) = self.arrived_runs(t, k, after);
            let beyond = [from.checked_sub(1), (to < self.sig.len()).then_some(to)];
            return (self.runs_tail(t, k, (from, to)), beyond);
        }
        let (mut tail, mut beyond) = (LONG_AGO, [None, None]);
        for (side, first) in [self.fronts.pred_incl(k), self.fronts.succ(k)]
            .into_iter()
            .enumerate()
        {
            let mut j = first;
            while let Some(i) = j {
                let (g, d) = (self.sig[i], p.abs_diff(self.sig[i].pos));
                if g.start + d > by {
                    beyond[side] = Some(i);
                    break;
                }
                tail = tail.max(SignedTime::from_time(g.end + d));
                j = if side == 0 {
                    self.fronts.pred(i)
                } else {
                    self.fronts.succ(i)
                };
            }
        }
        (tail, beyond)
    }

    /// The signal a front belongs to.
    #[inline]
    fn view(&self, f: &Front) -> Signal {
        let g = self.sig[f.station as usize];
        if f.frozen_end == NONE {
            g
        } else {
            Signal {
                start: f.start,
                end: f.frozen_end,
                on: false,
                ..g
            }
        }
    }

    /// Over the signals `js`: `None` if one is present at `p` at `now`, else the latest
    /// tail that has passed. With `stop_early`, the first front that has not arrived
    /// ends the pass (valid when `js` runs outwards from `p`).
    #[inline]
    fn pass(
        &self,
        p: SignedTime,
        now: Time,
        js: impl Iterator<Item = Signal>,
        stop_early: bool,
    ) -> Option<SignedTime> {
        let mut last = LONG_AGO;
        for g in js {
            let d = p.abs_diff(g.pos);
            if g.start + d >= now {
                // A signal that started under carrier does not end the walk: the
                // signal it started inside reached everything beyond it first.
                if stop_early && !g.inside {
                    break;
                }
                continue;
            }
            let tail = g.end + d;
            if tail > now {
                return None;
            }
            last = last.max(SignedTime::from_time(tail));
        }
        Some(last)
    }

    /// The signal started at `now` by `k` reaches transmitter `nb`: if that is its
    /// first foreign signal, it now ends earlier (preamble finished, then the jam).
    #[inline]
    fn hit(&mut self, now: Time, k: usize, nb: usize, schedule: &mut impl FnMut(Time, usize)) {
        let pk = self.sig[k].pos;
        let (pre, jam) = (self.jam_floor, self.t.jam);
        let g = &mut self.sig[nb];
        if !g.on {
            return;
        }
        let arrival = now + pk.abs_diff(g.pos);
        if arrival < g.end && arrival < g.det {
            g.det = arrival;
            let end = arrival.max(g.start + pre) + jam;
            if end < g.end {
                g.end = end;
                if let Some(t) = &mut self.tree {
                    let (s, e, p) = (
                        SignedTime::from_time(g.start),
                        SignedTime::from_time(end),
                        g.pos,
                    );
                    t.set(nb, [s - p, e - p, s + p, e + p]);
                }
                schedule(end, nb);
            }
        }
    }

    /// Whether the nearest members on each side of `k` (`nearest`) stand for every
    /// signal at a start by `k` at `now` (always so under the restarting gap): no
    /// member started after another's front had reached it, no transmitter's front has
    /// covered the cable, no folded signal is present at `k`, and neither nearest
    /// member's front has reached `k` yet. Then the nearest-neighbour argument of the
    /// module docs holds as without starts under carrier.
    fn nearest_members_suffice(&self, k: usize, now: Time, nearest: [Option<usize>; 2]) -> bool {
        let p = self.sig[k].pos;
        self.inside_members == 0
            && self.old_transmitting == 0
            && off(self.u_old, self.v_old, p) <= SignedTime::from_time(now)
            && nearest
                .into_iter()
                .flatten()
                .all(|j| self.sig[j].start + p.abs_diff(self.sig[j].pos) >= now)
    }

    /// Station `k` starts a transmission lasting `length` (preamble and frame)
    /// at `now`, having sensed an idle medium. `schedule(t, j)` is called for the end
    /// of `k`'s transmission and for every transmitter whose end moves earlier.
    pub fn start(
        &mut self,
        now: Time,
        k: usize,
        length: Time,
        mut schedule: impl FnMut(Time, usize),
    ) {
        let p = self.sig[k].pos;
        if self.starts_under_carrier {
            self.purge(now);
        }
        if self.sig[k].in_fifo {
            // Only outside the nearest-neighbour range: the station's previous front
            // is still travelling. Keep that signal's final end with its front.
            debug_assert_eq!(self.method, SenseMethod::BruteForce);
            let prev = self.sig[k];
            if let Some(f) = self
                .front_fifo
                .iter_mut()
                .rev()
                .find(|f| f.station as usize == k && f.frozen_end == NONE)
            {
                f.frozen_end = prev.end;
            }
        }
        // A start under carrier (IEEE 802.3 gap rules only) collides at once.
        let mut det = NONE;
        // Whether some member's front had already reached `k` (so that carrier sense
        // must walk past this signal, see `pass`), and whether a signal is present
        // here: a start under carrier, which collides at once.
        let (mut inside, mut present) = (false, false);
        // The nearest member on each side.
        let nearest = [self.fronts.pred(k), self.fronts.succ(k)];
        if self.method == SenseMethod::BruteForce
            || (self.starts_under_carrier && !self.nearest_members_suffice(k, now, nearest))
        {
            // Every signal in flight. Under the IEEE 802.3 gap rules a station may
            // start under carrier, or just after a signal has passed it, and the
            // nearest members no longer stand for the farther ones.
            for i in 0..self.front_fifo.len() {
                let f = self.front_fifo[i];
                let g = self.view(&f);
                let d = p.abs_diff(g.pos);
                let arrival = g.start + d;
                if arrival >= now {
                    det = det.min(arrival);
                } else {
                    inside = true;
                    present |= g.end + d > now;
                }
                if f.frozen_end == NONE {
                    self.hit(now, k, f.station as usize, &mut schedule);
                }
            }
            // Transmitters whose front has covered the cable are present everywhere.
            for i in 0..self.old_on.len() {
                let nb = self.old_on[i] as usize;
                present = true;
                self.hit(now, k, nb, &mut schedule);
            }
            present |= self.old_transmitting > 0
                || off(self.u_old, self.v_old, p) > SignedTime::from_time(now);
            inside &= self.starts_under_carrier;
            if present && self.starts_under_carrier {
                det = now;
            }
        } else {
            // The nearest member on each side: its front reaches `k` before any
            // farther member's, and reaches every transmitter beyond it before `k`'s
            // front does (below the nearest-neighbour range).
            for nb in nearest.into_iter().flatten() {
                let arrival = self.sig[nb].start + p.abs_diff(self.sig[nb].pos);
                debug_assert!(arrival >= now);
                det = det.min(arrival);
                self.hit(now, k, nb, &mut schedule);
            }
        }
        let (pre, jam) = (self.jam_floor, self.t.jam);
        let full = now + length;
        let end = if det == NONE {
            full
        } else {
            (det.max(now + pre) + jam).min(full)
        };
        self.sig[k] = Signal {
            pos: p,
            start: now,
            end,
            det,
            on: true,
            in_fifo: true,
            inside,
        };
        if inside {
            self.inside_members += 1;
        }
        schedule(end, k);
        if let Some(t) = &mut self.tree {
            let (s, e) = (SignedTime::from_time(now), SignedTime::from_time(end));
            t.set(k, [s - p, e - p, s + p, e + p]);
        }
        self.fronts.insert(k);
        if self.track_on {
            self.fronts_on.insert(k);
        }
        self.front_fifo.push_back(Front {
            start: now,
            station: k as u32,
            frozen_end: NONE,
        });
        self.active += 1;
    }

    /// When `k`'s current (or last) transmission detected a collision: the arrival of
    /// the first foreign signal at `k`; meaningful once it collided.
    pub fn detected_at(&self, k: usize) -> Time {
        self.sig[k].det
    }

    /// Whether a transmission-end event for `k` at `now` is genuine (`Some`: whether
    /// the transmission collided) or stale (`None`: it is not the end of `k`'s
    /// current transmission), without ending it.
    ///
    /// A superseded end that coincides with the end of a later transmission of the
    /// same station describes the same instant and is handled in its place; the
    /// genuine one then finds the station silent.
    #[inline]
    pub fn ending(&self, now: Time, k: usize) -> Option<bool> {
        let g = &self.sig[k];
        (g.on && g.end == now).then_some(g.det != NONE)
    }

    /// Frame bursting: `k`'s transmission, due to end at `now` without a collision,
    /// goes on until `end` (the gap filled with extension bits, then the next frame
    /// of the burst). `schedule(end, k)` is called for the new end.
    ///
    /// A signal only grows longer, so the nearest-neighbour argument still holds.
    pub fn extend(
        &mut self,
        now: Time,
        k: usize,
        end: Time,
        mut schedule: impl FnMut(Time, usize),
    ) {
        let g = &mut self.sig[k];
        debug_assert!(g.on && g.end == now && g.det == NONE && end > now);
        g.end = end;
        if g.in_fifo {
            if let Some(t) = &mut self.tree {
                let (s, e, p) = (
                    SignedTime::from_time(g.start),
                    SignedTime::from_time(end),
                    g.pos,
                );
                t.set(k, [s - p, e - p, s + p, e + p]);
            }
        }
        schedule(end, k);
    }

    /// `k`'s transmission ends at `now`, a genuine end (see [`ending`](Self::ending)).
    pub fn end(&mut self, now: Time, k: usize) {
        let g = self.sig[k];
        debug_assert!(g.on && g.end == now);
        self.purge(now);
        self.active -= 1;
        self.sig[k].on = false;
        let e = SignedTime::from_time(now);
        self.u_all = self.u_all.max(e - g.pos);
        self.v_all = self.v_all.max(e + g.pos);
        // (After the purge above, which may just have moved this front out.)
        if self.sig[k].in_fifo {
            if self.track_on {
                self.fronts_on.remove(k);
            }
        } else {
            self.u_old = self.u_old.max(e - g.pos);
            self.v_old = self.v_old.max(e + g.pos);
            self.old_transmitting -= 1;
            if let Some(i) = self.old_on.iter().position(|&j| j as usize == k) {
                self.old_on.swap_remove(i);
                self.recent_long.push(Past {
                    pos: g.pos,
                    start: g.start,
                    end: now,
                });
            }
        }
    }
}
