//! The discrete-event engine: a deterministic event queue and a run loop, generic over
//! the model.
//!
//! Events are ordered by `(time, sequence)`: the time they are due, then the order in
//! which they were scheduled. Two events due at the same picosecond therefore always run
//! in the order they were scheduled, on every machine, so a run is a pure function of
//! its parameters and seed.
//!
//! ```
//! use mac_sim::engine::{EventQueue, Model, Engine};
//! struct Ticker { ticks: u32 }
//! impl Model for Ticker {
//!     type Event = ();
//!     fn handle(&mut self, now: u64, _ev: (), q: &mut EventQueue<()>) -> bool {
//!         self.ticks += 1;
//!         q.schedule(now + 10, ());
//!         true
//!     }
//! }
//! let mut engine = Engine::new(Ticker { ticks: 0 });
//! engine.queue_mut().schedule(0, ());
//! engine.run_until(95);
//! assert_eq!(engine.model().ticks, 10); // t = 0, 10, ..., 90
//! assert_eq!(engine.events(), 10);
//! ```

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::time::Time;

struct Entry<E> {
    time: Time,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    /// Reversed, so that the max-heap pops the earliest `(time, seq)` first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time, other.seq).cmp(&(self.time, self.seq))
    }
}

/// A priority queue of future events with deterministic tie-breaking.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self {
            heap: BinaryHeap::new(),
            next_seq: 0,
        }
    }

    /// An empty queue with room for `n` pending events.
    pub fn with_capacity(n: usize) -> Self {
        Self {
            heap: BinaryHeap::with_capacity(n),
            next_seq: 0,
        }
    }

    /// Schedule `event` at time `at`.
    #[inline]
    pub fn schedule(&mut self, at: Time, event: E) {
        let seq = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1);
        self.heap.push(Entry {
            time: at,
            seq,
            event,
        });
    }

    /// The time of the earliest pending event.
    #[inline]
    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| e.time)
    }

    /// Remove and return the earliest pending event.
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.heap.pop().map(|e| (e.time, e.event))
    }

    /// Pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
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
            now: 0,
            events: 0,
            stale: 0,
        }
    }

    /// An engine with a pre-filled queue.
    pub fn with_queue(model: M, queue: EventQueue<M::Event>) -> Self {
        Self {
            model,
            queue,
            now: 0,
            events: 0,
            stale: 0,
        }
    }

    /// Run every event due at or before `end`; later events stay queued.
    pub fn run_until(&mut self, end: Time) {
        while let Some(t) = self.queue.peek_time() {
            if t > end {
                break;
            }
            let Some((t, ev)) = self.queue.pop() else {
                break;
            };
            self.now = t;
            if self.model.handle(t, ev, &mut self.queue) {
                self.events += 1;
            } else {
                self.stale += 1;
            }
        }
        self.now = self.now.max(end);
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
