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
use super::model::CsmaCd;
use super::observe::Observer;
use super::station::{Event, State};
use sim_kit::engine::EventQueue;
use sim_kit::time::{SignedTime, Time};

impl<O: Observer> CsmaCd<O> {
    /// Deference under [`IfgRule::Restart`](crate::config::IfgRule::Restart): carrier anywhere in the gap restarts
    /// it, and a deferring station waits for the end of the whole busy period.
    pub(super) fn attempt(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        self.medium.purge(now);
        match self.medium.sense(k, now) {
            None => {
                self.observe_defer(now, k);
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
                let ready = last.saturating_add(SignedTime::from_time(self.t.ifg));
                if ready > SignedTime::from_time(now) {
                    q.schedule(ready.to_time(), Event::Attempt(k as u32));
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
            let end = st.own_gap_end;
            self.at_gap_end(now, k, end, q);
            return;
        }
        self.medium.purge(now);
        if let Some(last) = self.medium.sense(k, now) {
            // No carrier: `last` is the last drop, and the gap runs from it.
            let end = last.saturating_add(SignedTime::from_time(self.t.ifg));
            self.at_gap_end(now, k, end.to_time(), q);
            return;
        }
        let c = self.medium.carrier(k, now);
        self.follow_gap(now, k, c, q);
    }

    /// Station `k` has a frame and the carrier at its position is `c`: transmit now,
    /// look again when the gap ends, or defer.
    ///
    /// A gap in progress is not watched: at its end the carrier history says whether
    /// carrier arrived in its first part (the station defers) or only in its second
    /// part (it transmits). A station that looks at exactly the end of a gap whose
    /// second part saw carrier arrive transmits, as one whose frame was waiting.
    fn follow_gap(&mut self, now: Time, k: usize, c: Carrier, q: &mut EventQueue<Event>) {
        let ifg = self.t.ifg;
        match c {
            Carrier::Off { last_drop: None } => self.start_tx(now, k, q),
            // A gap since the last drop, or one in whose second part the carrier
            // arrived: it ends one gap after the drop.
            Carrier::Off {
                last_drop: Some(drop),
            }
            | Carrier::On {
                gap_from: Some(drop),
                ..
            } => self.at_gap_end(now, k, drop + ifg, q),
            Carrier::On {
                gap_from: None,
                wait,
            } => {
                self.observe_defer(now, k);
                self.stations[k].state = State::Deferred;
                self.listen(k, wait, q);
            }
        }
    }

    /// Station `k` transmits at `end`, the end of its gap, if the gap is over, and
    /// otherwise looks again then.
    fn at_gap_end(&mut self, now: Time, k: usize, end: Time, q: &mut EventQueue<Event>) {
        if end <= now {
            self.start_tx(now, k, q);
        } else {
            self.stations[k].state = State::Waiting;
            q.schedule(end, Event::Attempt(k as u32));
        }
    }

    /// Station `k` waits for the carrier at its position to drop: on a transmitter's
    /// tail, or until a known instant. At most one wait is pending per station.
    ///
    /// A deferring station looks again one gap after the carrier can first drop (its
    /// gap cannot end sooner, and the carrier history then tells all); a station
    /// waiting for the carrier to drop after its own transmission is woken at that
    /// instant, because its gap is timed from the drop whatever follows.
    fn listen(&mut self, k: usize, wait: Wait, q: &mut EventQueue<Event>) {
        let st = &mut self.stations[k];
        if st.listening {
            return;
        }
        st.listening = true;
        match wait {
            Wait::Transmitter(j) => self.waiters[j].push(k as u32),
            Wait::Until(at) => self.look_again(k, at, q),
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
        let Some(last) = self.medium.sense(k, now) else {
            let wait = self.medium.carrier_wait(k, now);
            self.listen(k, wait, q);
            return true;
        };
        let ifg = self.t.ifg;
        let st = &mut self.stations[k];
        if st.watch_own {
            st.watch_own = false;
            st.own_gap_end = last.to_time().min(now) + ifg;
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
        if let Some(last) = self.medium.sense(k, now) {
            let drop = last.to_time().max(now);
            self.stations[k].own_gap_end = drop + self.t.ifg;
            return;
        }
        self.stations[k].watch_own = true;
        let wait = self.medium.carrier_wait(k, now);
        self.listen(k, wait, q);
    }

    /// The carrier at listening station `k` may drop at `at`: wake it then if it
    /// watches for the end of its own transmission's carrier, else let it attempt one
    /// gap later.
    fn look_again(&mut self, k: usize, at: Time, q: &mut EventQueue<Event>) {
        let st = &mut self.stations[k];
        if st.watch_own {
            q.schedule(at, Event::Wake(k as u32));
        } else {
            st.listening = false;
            st.state = State::Waiting;
            q.schedule(at + self.t.ifg, Event::Attempt(k as u32));
        }
    }

    /// Transmitter `k` has ended: wake each station waiting on it when its tail
    /// passes that station.
    pub(super) fn release_waiters(&mut self, now: Time, k: usize, q: &mut EventQueue<Event>) {
        let mut waiting = std::mem::take(&mut self.waiters[k]);
        for &d in &waiting {
            let at = now + self.medium.delay(d as usize, k);
            self.look_again(d as usize, at, q);
        }
        waiting.clear();
        self.waiters[k] = waiting;
    }
}
