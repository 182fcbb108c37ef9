//! The discrete-event engine: a deterministic event queue and a run loop, generic over
//! the model.
//!
//! Events are ordered by `(time, sequence)`: the time they are due, then the order in
//! which they were scheduled. Two events due at the same picosecond therefore always run
//! in the order they were scheduled, on every machine, so a run is a pure function of
//! its parameters and seed.
//!
//! ```
//! use sim_kit::engine::{EventQueue, Model, Engine};
//! use sim_kit::time::Time;
//! struct Ticker { ticks: u32 }
//! impl Model for Ticker {
//!     type Event = ();
//!     fn handle(&mut self, now: Time, _ev: (), q: &mut EventQueue<()>) -> bool {
//!         self.ticks += 1;
//!         q.schedule(now + Time::from_ps(10), ());
//!         true
//!     }
//! }
//! let mut engine = Engine::new(Ticker { ticks: 0 });
//! engine.queue_mut().schedule(Time::ZERO, ());
//! engine.run_until(Time::from_ps(95));
//! assert_eq!(engine.model().ticks, 10); // t = 0, 10, ..., 90
//! assert_eq!(engine.events(), 10);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use crate::time::Time;

/// How many events [`Engine::run_until_or_cancelled`] handles between two looks at its
/// cancel flag: a few milliseconds of work, so that a signal stops a run of any
/// simulated length at once, for one load and one branch in 16 384 events.
pub const CANCEL_EVERY: u64 = 1 << 14;

const BUCKETS: usize = 129;
/// Bucket allocations up to this many entries are kept for reuse.
const REUSE_CAPACITY: usize = 1 << 12;

/// A priority queue of future events with deterministic tie-breaking.
///
/// It is a *radix heap*: every event's key `(time, sequence)` is at least the key of
/// the last event taken out (simulated time never runs backwards), so events can be
/// kept in buckets by the highest bit in which their key differs from that last key.
/// Taking the earliest event empties the lowest non-empty bucket into lower ones (a
/// lone event there simply leaves); each event moves down a few times at most, and
/// every move is a sequential append, which keeps a queue of a million events
/// cache-friendly. The order is exactly `(time, sequence)`, as a binary heap would
/// give.
pub struct EventQueue<E> {
    buckets: Vec<Vec<(Time, u64, E)>>,
    mask: [u64; 3],
    last: u128,
    len: usize,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

#[inline]
fn key(time: Time, seq: u64) -> u128 {
    (u128::from(time.as_ps()) << 64) | u128::from(seq)
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self {
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            mask: [0; 3],
            last: 0,
            len: 0,
            next_seq: 0,
        }
    }

    /// An empty queue expecting about `n` pending events.
    pub fn with_capacity(n: usize) -> Self {
        let mut q = Self::new();
        q.buckets[BUCKETS - 1].reserve(n);
        q
    }

    #[inline]
    fn bucket_of(&self, k: u128) -> usize {
        128 - (k ^ self.last).leading_zeros() as usize
    }

    #[inline]
    fn put(&mut self, entry: (Time, u64, E)) {
        let b = self.bucket_of(key(entry.0, entry.1));
        self.buckets[b].push(entry);
        self.mask[b / 64] |= 1 << (b % 64);
    }

    /// Bucket `b` is empty now.
    #[inline]
    fn unmark(&mut self, b: usize) {
        self.mask[b / 64] &= !(1 << (b % 64));
    }

    /// Schedule `event` at time `at`.
    ///
    /// Scheduling earlier than an event already taken out is allowed (the queue
    /// re-sorts itself) but costs a pass over the queue; a model never needs it.
    #[inline]
    pub fn schedule(&mut self, at: Time, event: E) {
        let seq = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1);
        let k = key(at, seq);
        if k < self.last {
            self.rebase(k);
        }
        self.put((at, seq, event));
        self.len += 1;
    }

    /// Re-bucket everything relative to a smaller key.
    fn rebase(&mut self, k: u128) {
        let mut all = Vec::with_capacity(self.len);
        for b in &mut self.buckets {
            all.append(b);
        }
        self.mask = [0; 3];
        self.last = k;
        for e in all {
            self.put(e);
        }
    }

    /// Remove and return the earliest pending event if it is due at or before `end`.
    #[inline]
    pub fn pop_due(&mut self, end: Time) -> Option<(Time, E)> {
        if self.len == 0 {
            return None;
        }
        if self.mask[0] & 1 == 0 {
            let b = if self.mask[0] != 0 {
                self.mask[0].trailing_zeros() as usize
            } else if self.mask[1] != 0 {
                64 + self.mask[1].trailing_zeros() as usize
            } else {
                128 + self.mask[2].trailing_zeros() as usize
            };
            if let [(t, seq, _)] = self.buckets[b][..] {
                // A lone event is the earliest. With its key as `last`, every other
                // event stays in the right bucket (their keys differ from it where
                // they differed from the old `last`), so it leaves at once: the
                // common case of a short queue, without the pass of `spread`.
                if t > end {
                    return None;
                }
                let (_, _, e) = self.buckets[b].pop()?;
                self.unmark(b);
                self.last = key(t, seq);
                self.len -= 1;
                return Some((t, e));
            }
            if !self.spread(b, end) {
                return None;
            }
        }
        if self.buckets[0].last()?.0 > end {
            return None;
        }
        let (t, _, e) = self.buckets[0].pop()?;
        if self.buckets[0].is_empty() {
            self.unmark(0);
        }
        self.len -= 1;
        Some((t, e))
    }

    /// Empty bucket `b`, the lowest non-empty one, into lower ones around its
    /// earliest event, which lands in bucket 0; `false` (and nothing moved) if that
    /// event is due after `end`.
    fn spread(&mut self, b: usize, end: Time) -> bool {
        let bucket = std::mem::take(&mut self.buckets[b]);
        let min = bucket
            .iter()
            .map(|e| key(e.0, e.1))
            .min()
            .unwrap_or(u128::MAX);
        if Time::from_ps((min >> 64) as u64) > end {
            self.buckets[b] = bucket;
            return false;
        }
        self.unmark(b);
        self.last = min;
        let mut bucket = bucket;
        for e in bucket.drain(..) {
            self.put(e);
        }
        // Keep a small allocation for later use of this bucket; give a large one
        // back, so that a burst does not leave every bucket holding room for it.
        if self.buckets[b].is_empty() && bucket.capacity() <= REUSE_CAPACITY {
            self.buckets[b] = bucket;
        }
        true
    }

    /// Remove and return the earliest pending event.
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.pop_due(Time::MAX)
    }

    /// The time of the earliest pending event.
    pub fn peek_time(&self) -> Option<Time> {
        self.buckets
            .iter()
            .find(|b| !b.is_empty())
            .and_then(|b| b.iter().map(|e| key(e.0, e.1)).min())
            .map(|k| Time::from_ps((k >> 64) as u64))
    }

    /// Pending events.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A simulation model driven by the engine.
pub trait Model {
    /// The model's event type.
    type Event;

    /// Act on `event` at time `now`, scheduling any follow-up events on `queue`.
    ///
    /// Returns `false` for an event that turned out to be stale (superseded by a later
    /// decision, e.g. a transmission end moved earlier by a collision): it is not
    /// counted as an event.
    fn handle(
        &mut self,
        now: Time,
        event: Self::Event,
        queue: &mut EventQueue<Self::Event>,
    ) -> bool;
}

/// The run loop: pops events in `(time, sequence)` order and hands them to the model.
pub struct Engine<M: Model> {
    model: M,
    queue: EventQueue<M::Event>,
    now: Time,
    events: u64,
    stale: u64,
}

impl<M: Model> Engine<M> {
    /// An engine around `model`, with an empty queue at time 0.
    pub fn new(model: M) -> Self {
        Self {
            model,
            queue: EventQueue::new(),
            now: Time::ZERO,
            events: 0,
            stale: 0,
        }
    }

    /// An engine with a pre-filled queue.
    pub fn with_queue(model: M, queue: EventQueue<M::Event>) -> Self {
        Self {
            model,
            queue,
            now: Time::ZERO,
            events: 0,
            stale: 0,
        }
    }

    /// Run every event due at or before `end`; later events stay queued.
    pub fn run_until(&mut self, end: Time) {
        while let Some((t, ev)) = self.queue.pop_due(end) {
            self.dispatch(t, ev);
        }
        self.now = self.now.max(end);
    }

    /// Hand the event `ev` due at `t` to the model and count it, handled or stale.
    #[inline(always)]
    fn dispatch(&mut self, t: Time, ev: M::Event) {
        self.now = t;
        if self.model.handle(t, ev, &mut self.queue) {
            self.events += 1;
        } else {
            self.stale += 1;
        }
    }

    /// [`run_until`](Self::run_until), looking at `cancel` every [`CANCEL_EVERY`]
    /// events handled: `false` once it is seen raised (the events after it stay
    /// queued, `now` where the last one was), `true` when every event due at or before
    /// `end` ran.
    pub fn run_until_or_cancelled(&mut self, end: Time, cancel: &AtomicBool) -> bool {
        let mut handled: u64 = 0;
        while let Some((t, ev)) = self.queue.pop_due(end) {
            self.dispatch(t, ev);
            handled += 1;
            if handled % CANCEL_EVERY == 0 && cancel.load(Ordering::Relaxed) {
                return false;
            }
        }
        self.now = self.now.max(end);
        true
    }

    /// The model.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The model, mutably.
    pub fn model_mut(&mut self) -> &mut M {
        &mut self.model
    }

    /// The queue, to seed initial events.
    pub fn queue_mut(&mut self) -> &mut EventQueue<M::Event> {
        &mut self.queue
    }

    /// The queue.
    pub fn queue(&self) -> &EventQueue<M::Event> {
        &self.queue
    }

    /// Simulated time reached.
    pub fn now(&self) -> Time {
        self.now
    }

    /// Events handled (stale ones excluded).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Stale events popped and discarded.
    pub fn stale_events(&self) -> u64 {
        self.stale
    }

    /// Take the model out.
    pub fn into_model(self) -> M {
        self.model
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// A model that schedules its next event a picosecond later, for ever.
    struct Ticker;

    impl Model for Ticker {
        type Event = ();
        fn handle(&mut self, now: Time, _: (), queue: &mut EventQueue<()>) -> bool {
            queue.schedule(now + Time::from_ps(1), ());
            true
        }
    }

    /// A raised flag stops the run after `CANCEL_EVERY` events, the rest queued; a
    /// flag never raised runs every event due, as `run_until`.
    #[test]
    fn a_raised_flag_stops_the_run_within_cancel_every_events() {
        let mut e = Engine::new(Ticker);
        e.queue_mut().schedule(Time::ZERO, ());
        assert!(!e.run_until_or_cancelled(Time::MAX, &AtomicBool::new(true)));
        assert_eq!(e.events(), CANCEL_EVERY);
        let mut a = Engine::new(Ticker);
        a.queue_mut().schedule(Time::ZERO, ());
        assert!(a.run_until_or_cancelled(Time::from_ps(99_999), &AtomicBool::new(false)));
        let mut b = Engine::new(Ticker);
        b.queue_mut().schedule(Time::ZERO, ());
        b.run_until(Time::from_ps(99_999));
        assert_eq!((a.events(), a.now()), (b.events(), b.now()));
        assert_eq!(a.events(), 100_000);
    }

    /// Same order as a binary heap on `(time, sequence)`, under the monotone use a
    /// simulation makes of it, with many ties.
    #[test]
    fn matches_a_binary_heap() {
        let mut q = EventQueue::new();
        let mut h = BinaryHeap::new();
        let mut x: u64 = 99;
        let mut seq = 0u64;
        let mut now = 0;
        for round in 0..200_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 3 != 0 || h.is_empty() {
                let dt = match x % 5 {
                    0 => 0,
                    1 => x % 7,
                    2 => (x >> 8) % 1_000,
                    _ => (x >> 8) % 100_000_000,
                };
                q.schedule(Time::from_ps(now + dt), round);
                h.push(Reverse((now + dt, seq, round)));
                seq += 1;
            } else {
                let Reverse((t, _, r)) = h.pop().unwrap();
                assert_eq!(q.pop(), Some((Time::from_ps(t), r)));
                now = t;
            }
            assert_eq!(q.len(), h.len());
        }
        // A short queue (one to four pending, the case of a few stations), taken out
        // up to a horizon that often falls before the earliest event.
        let mut q = EventQueue::new();
        let mut h = BinaryHeap::new();
        let mut horizon = 0;
        for round in 0..50_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if h.len() < 4 && (x % 2 == 0 || h.is_empty()) {
                let t = horizon + (x >> 8) % 50;
                q.schedule(Time::from_ps(t), round);
                h.push(Reverse((t, seq, round)));
                seq += 1;
            } else {
                horizon += (x >> 16) % 20;
                let want = match h.peek() {
                    Some(Reverse((t, _, _))) if *t <= horizon => h.pop(),
                    _ => None,
                };
                let want = want.map(|Reverse((t, _, r))| (Time::from_ps(t), r));
                assert_eq!(q.pop_due(Time::from_ps(horizon)), want);
            }
            assert_eq!(q.len(), h.len());
        }
        // Scheduling into the past re-sorts.
        q.schedule(Time::ZERO, u64::MAX);
        assert_eq!(q.pop(), Some((Time::ZERO, u64::MAX)));
        assert_eq!(
            q.peek_time(),
            h.peek().map(|Reverse((t, _, _))| Time::from_ps(*t))
        );
    }
}
