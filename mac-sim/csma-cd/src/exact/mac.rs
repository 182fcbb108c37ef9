//! The stations' MAC: transmission, collision, backoff and drops (IEEE 802.3 clause
//! 4.2.3), frame bursts, the traffic that fills the queues, and the dispatch of the
//! model's events to them and to the deference.

use backoff_core::Decision;
use backoff_core::uniform::uniform_below;

use super::model::CsmaCd;
use super::observe::{EventKind, Observer};
use super::station::{Event, State};
use sim_kit::engine::{EventQueue, Model};
use sim_kit::time::Time;

impl<O: Observer> CsmaCd<O> {
    /// Station `k`, having deferred as its rules require, starts sending its frame at
    /// `now` (preamble, frame, and carrier extension up to the slot if any).
    pub(super) fn start_tx(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
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

    /// A `TxEnd` event: if it is genuine, station `k`'s transmission ends at `now`,
    /// with a success (the next frame, or the next of a burst) or a collision (backoff
    /// or drop), and the stations waiting on the carrier are told.
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

    /// An `Arrival` event (Poisson traffic): a frame for a station drawn uniformly, sent
    /// at once if it was idle, else queued or dropped on a full queue; and the next
    /// arrival.
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
