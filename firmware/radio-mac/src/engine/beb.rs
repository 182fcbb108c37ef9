//! [`ChannelAccess::Beb`](crate::ChannelAccess::Beb), the project's earlier rule: the
//! channel clear for the interframe space, then send; IEEE 802.3 truncated binary
//! exponential backoff ([`backoff_core::FrameBackoff`]) after a busy channel (its own
//! count) and after a missing ACK (the retry limit).

use backoff_core::Decision;
use mac_base::counters::bump;
use rand_core::Rng;

use super::{MacCore, TxState};
use crate::event::{AirEvent, DropReason, Event};
use crate::radio::Radio;

impl<R: Rng, const N: usize, const Q: usize, const P: usize> MacCore<R, N, Q, P> {
    /// When carrier sense next needs a poll.
    pub(super) fn beb_deadline(&self, since: Option<u64>) -> Option<u64> {
        let Some(s) = since else { return Some(0) };
        // Carrier sense samples the channel: poll at least once a slot.
        let step = self.config.slot().as_nanos();
        Some(
            s.saturating_add(self.config.interframe_space_ns())
                .min(s.saturating_add(step)),
        )
    }

    /// Carrier sense: send once the channel has been clear for the interframe space;
    /// back off on a busy channel.
    pub(super) fn beb_sense<RADIO: Radio>(
        &mut self,
        radio: &mut RADIO,
        now_ns: u64,
        since: Option<u64>,
    ) -> Option<Event> {
        if self.ack_first() {
            return None;
        }
        if self.config.carrier_sense() {
            match radio.channel_clear() {
                Ok(true) => {}
                Ok(false) => {
                    bump(&mut self.counters.medium.channel_busy);
                    return match self.busy.on_collision(&mut self.rng) {
                        Decision::Retry { slots } => {
                            self.beb_backoff(now_ns, slots);
                            Some(Event::Medium(AirEvent::ChannelBusy { slots }))
                        }
                        Decision::Discard => Some(self.finish(Some(DropReason::ChannelBusy))),
                    };
                }
                Err(_) => return self.radio_error(),
            }
            let since = since.unwrap_or(now_ns);
            self.state = TxState::Sensing { since: Some(since) };
            if now_ns.saturating_sub(since) < self.config.interframe_space_ns() {
                return None;
            }
        }
        self.transmit_data(radio, now_ns)
    }

    /// No ACK for attempt `attempt`: back off, or drop at the retry limit.
    pub(super) fn beb_ack_timeout(&mut self, now_ns: u64, attempt: u32) -> Option<Event> {
        match self.retries.on_collision(&mut self.rng) {
            Decision::Retry { slots } => {
                self.beb_backoff(now_ns, slots);
                Some(Event::Medium(AirEvent::AckTimeout { attempt, slots }))
            }
            Decision::Discard => Some(self.finish(Some(DropReason::NoAck))),
        }
    }

    fn beb_backoff(&mut self, now_ns: u64, slots: u32) {
        let wait = self.config.slot().times_nanos(u64::from(slots));
        self.state = TxState::Backoff {
            until: now_ns.saturating_add(wait),
        };
    }
}
