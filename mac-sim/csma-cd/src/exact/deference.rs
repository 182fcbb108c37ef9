//! Deference: when a station with a frame may transmit.
//!
//! # IEEE 802.3 (the default, [`IfgRule::Ieee8023`](crate::config::IfgRule::Ieee8023))
//!
//! Clause 4.2.3.2.1 and the `Deference` process of the clause 4.2.8 Pascal model:
//!
//! * A station watches the carrier at its own position. While it is on, the station
//!   defers (`while carrierSense do nothing`).
//! * When the carrier drops, the interframe gap starts. Carrier that arrives during
//!   its first part (`interFrameSpacingPart1`, two thirds of the gap: 64 of 96 bit
//!   times) sends the station back to deferring, and the gap starts again at the next
//!   drop. Carrier that arrives in the second part (`interFrameSpacingPart2`) is
//!   ignored: a station with a frame transmits when the gap ends, and collides.
//! * After the station's own transmission, the gap starts when the carrier at its
//!   position drops (`while carrierSense or transmitting`) and is timed without
//!   watching the carrier (`wasTransmitting`): the station transmits exactly one gap
//!   later, whatever arrived meanwhile.
//! * A frame that becomes ready while the station is not deferring is sent at once;
//!   one that becomes ready during a gap is sent when the gap ends (if the carrier
//!   did not return in its first part).
//!
//! [`IfgRule::None`](crate::config::IfgRule::None) is the same without a first part. The station's state is not
//! polled: it is worked out, when the station has a frame, from the carrier history
//! at its position ([`Medium::carrier`](super::medium::Medium::carrier)), and a
//! deferring station is woken when the tail of the transmission it waits on passes
//! it. (Under `--ifg-rule none` with `--jam-rule immediate`, a fragment shorter than
//! the gap that arrives and passes inside it restarts the gap for a station whose
//! frame becomes ready after the fragment: with any other rule no signal is that
//! short.)
//!
//! # The earlier rule ([`IfgRule::Restart`](crate::config::IfgRule::Restart))
//!
//! Carrier anywhere in the gap restarts the whole gap, also after the station's own
//! transmission, and a deferring station waits for the end of the whole busy period:
//! a momentary drop of the carrier at its position inside a collision between
//! far-apart stations does not start its gap.

use super::medium::{Carrier, Wait};
use super::{CsmaCd, Event, State};
use sim_kit::engine::EventQueue;
use sim_kit::time::Time;

impl CsmaCd {
    /// Deference under [`IfgRule::Restart`](crate::config::IfgRule::Restart): carrier anywhere in the gap restarts
    /// it, and a deferring station waits for the end of the whole busy period.
    pub(super) fn attempt(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        self.medium.purge(now);
        match self.medium.sense(k, now) {
            None => {
                if self.medium.active() == 0 {
                    // Only tails still travelling: the end of the carrier here is known.
                    let at = self.medium.quiet_at(k).max(now);
                    q.schedule(at, Event::Attempt(k as u32));
                } else {
                    self.stations[k].state = State::Deferred;
                    self.deferred.push(k as u32);
                }
            }
            Some(last) => {
                let ready = last.saturating_add(self.t.ifg.as_ps() as i64);
                if ready > now.as_ps() as i64 {
                    q.schedule(Time::from_ps(ready as u64), Event::Attempt(k as u32));
                } else {
                    self.start_tx(now, k, q);
                }
            }
        }
    }

    /// Deference under a split gap (IEEE 802.3 and `none` rules) for station `k`,
    /// which has a frame at `now`.
    pub(super) fn attempt_split(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        let st = &mut self.stations[k];
        if st.watch_own {
            // Still `while carrierSense or transmitting`: it is already listening.
            st.state = State::Deferred;
            return;
        }
        if now <= st.own_gap_end {
            // The gap after the station's own transmission is timed blind.
            let at = st.own_gap_end;
            self.commit(now, k, at, q);
            return;
        }
        self.medium.purge(now);
        if let Some(last) = self.medium.sense(k, now) {
            if last.saturating_add(self.t.ifg.as_ps() as i64) <= now.as_ps() as i64 {
                self.start_tx(now, k, q);
                return;
            }
        }
        let c = self.medium.carrier(k, now);
        self.follow_gap(now, k, c, q);
    }

    /// Station `k` has a frame and the carrier at its position is `c`: transmit now,
    /// commit to the end of the gap, look again when the gap's first part ends, or
    /// defer.
    fn follow_gap(&mut self, now: Time, k: usize, c: Carrier, q: &mut EventQueue<Event>) {
        let (ifg, part1) = (self.t.ifg, self.t.ifg_part1);
        match (c.on_since, c.last_drop) {
            (None, None) => self.start_tx(now, k, q),
            (None, Some(drop)) if drop + ifg <= now => self.start_tx(now, k, q),
            (None, Some(drop)) if drop + part1 <= now => self.commit(now, k, drop + ifg, q),
            (None, Some(drop)) => {
                self.stations[k].state = State::Waiting;
                q.schedule(drop + part1, Event::Attempt(k as u32));
            }
            // The carrier arrived in the second part of a gap that has not ended.
            (Some(since), Some(drop)) if since >= drop + part1 && now < drop + ifg => {
                self.commit(now, k, drop + ifg, q)
            }
            (Some(_), _) => {
                self.stations[k].state = State::Deferred;
                self.listen(now, k, c.wait, q);
            }
        }
    }

    /// Station `k` transmits at `at` whatever the carrier (now if `at` is now).
    fn commit(&mut self, now: Time, k: usize, at: Time, q: &mut EventQueue<Event>) {
        if at <= now {
            self.start_tx(now, k, q);
        } else {
            self.stations[k].state = State::Committed;
            q.schedule(at, Event::Start(k as u32));
        }
    }

    /// A `Start` event: the end of a committed station's gap.
    pub(super) fn start_committed(
        &mut self,
        now: Time,
        k: usize,
        q: &mut EventQueue<Event>,
    ) -> bool {
        if self.stations[k].state != State::Committed {
            return false;
        }
        self.start_tx(now, k, q);
        true
    }

    /// Station `k` waits for the carrier at its position to drop: on a transmitter's
    /// tail, or until a known instant. At most one wait is pending per station.
    fn listen(&mut self, now: Time, k: usize, wait: Wait, q: &mut EventQueue<Event>) {
        let st = &mut self.stations[k];
        if st.listening {
            return;
        }
        st.listening = true;
        match wait {
            Wait::Transmitter(j) => self.waiters[j].push(k as u32),
            Wait::Until(at) => q.schedule(at, Event::Wake(k as u32)),
            // (Not reached: a station listens only while the carrier is on. Looking
            // again at once is the safe answer.)
            Wait::Nothing => q.schedule(now, Event::Wake(k as u32)),
        }
    }

    /// A `Wake` event: look whether the carrier at station `k` has dropped; if so,
    /// its gap starts (blind after its own transmission).
    pub(super) fn wake(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) -> bool {
        if !self.stations[k].listening {
            return false;
        }
        self.stations[k].listening = false;
        self.medium.purge(now);
        let c = self.medium.carrier(k, now);
        if c.on_since.is_some() {
            self.listen(now, k, c.wait, q);
            return true;
        }
        let ifg = self.t.ifg;
        let st = &mut self.stations[k];
        if st.watch_own {
            st.watch_own = false;
            st.own_gap_end = c.last_drop.unwrap_or(now) + ifg;
        }
        if st.state == State::Deferred {
            st.state = State::Waiting;
            self.attempt_split(now, k, q);
        }
        true
    }

    /// Station `k`'s own transmission ended at `now`: its gap starts when the carrier
    /// at its position drops, and is timed blind.
    pub(super) fn own_gap(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        let c = self.medium.carrier(k, now);
        if c.on_since.is_some() {
            self.stations[k].watch_own = true;
            self.listen(now, k, c.wait, q);
        } else {
            let drop = c.last_drop.unwrap_or(now).max(now);
            self.stations[k].own_gap_end = drop + self.t.ifg;
        }
    }

    /// Transmitter `k` has ended: wake each station waiting on it when its tail
    /// passes that station.
    pub(super) fn release_waiters(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        let mut waiting = std::mem::take(&mut self.waiters[k]);
        let pk = self.medium.pos(k);
        for &d in &waiting {
            let at = now + Time::from_ps(self.medium.pos(d as usize).abs_diff(pk));
            q.schedule(at, Event::Wake(d));
        }
        waiting.clear();
        self.waiters[k] = waiting;
    }
}
