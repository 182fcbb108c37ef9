//! [`ChannelAccess::Ieee802154Unslotted`](crate::ChannelAccess::Ieee802154Unslotted):
//! IEEE 802.15.4-2020 unslotted CSMA-CA (clause 6.2.5.1). Per attempt `NB = 0`,
//! `BE = macMinBE`; wait `random(0 ..= 2^BE - 1)` unit backoff periods; one CCA;
//! clear: transmit; busy: `NB += 1`, `BE = min(BE + 1, macMaxBE)`, and beyond
//! macMaxCSMABackoffs a channel access failure. A missing ACK restarts CSMA-CA while
//! retries remain (macMaxFrameRetries).

use backoff_core::uniform::uniform_pow2;
use mac_base::counters::bump;
use rand_core::Rng;

use super::{MacCore, TxState};
use crate::access::ChannelAccess;
use crate::access::CsmaCa;
use crate::event::{AirEvent, DropReason, Event};
use crate::radio::Radio;

impl<R: Rng, const N: usize, const Q: usize, const P: usize> MacCore<R, N, Q, P> {
    /// CSMA-CA: draw the attempt's first backoff, or make the CCA when it is due.
    pub(super) fn csma_step<RADIO: Radio>(
        &mut self,
        radio: &mut RADIO,
        now_ns: u64,
        cca_at: Option<u64>,
        nb: u8,
        be: u8,
    ) -> Option<Event> {
        let ChannelAccess::Ieee802154Unslotted(csma) = self.config.access() else {
            return None;
        };
        let due = match cca_at {
            Some(at) => now_ns >= at,
            None => self.csma_backoff(now_ns, nb, be) == 0,
        };
        if !due || self.ack_first() {
            return None;
        }
        if self.config.carrier_sense() {
            match radio.channel_clear() {
                Ok(true) => {}
                Ok(false) => {
                    bump(&mut self.counters.medium.channel_busy);
                    let nb = nb.saturating_add(1);
                    if nb > csma.max_csma_backoffs() {
                        // The standard's CHANNEL_ACCESS_FAILURE.
                        return Some(self.finish(Some(DropReason::ChannelBusy)));
                    }
                    let be = be.saturating_add(1).min(csma.max_be());
                    let slots = self.csma_backoff(now_ns, nb, be);
                    return Some(Event::Medium(AirEvent::ChannelBusy { slots }));
                }
                Err(_) => return self.radio_error(),
            }
        }
        self.transmit_data(radio, now_ns)
    }

    /// No ACK for attempt `attempt`: a fresh CSMA-CA while retries remain, else drop.
    pub(super) fn csma_ack_timeout(
        &mut self,
        now_ns: u64,
        attempt: u32,
        csma: CsmaCa,
    ) -> Option<Event> {
        // `attempt - 1` retries were made so far.
        if attempt > u32::from(csma.max_frame_retries()) {
            return Some(self.finish(Some(DropReason::NoAck)));
        }
        let slots = self.csma_backoff(now_ns, 0, csma.min_be());
        Some(Event::Medium(AirEvent::AckTimeout { attempt, slots }))
    }

    /// Draw `random(0 ..= 2^BE - 1)` unit backoff periods and wait them before the CCA.
    fn csma_backoff(&mut self, now_ns: u64, nb: u8, be: u8) -> u32 {
        let slots = uniform_pow2(&mut self.rng, be);
        let wait = self.config.slot().times_nanos(u64::from(slots));
        self.state = TxState::Csma {
            cca_at: Some(now_ns.saturating_add(wait)),
            nb,
            be,
        };
        slots
    }
}
