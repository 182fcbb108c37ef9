//! [`ChannelAccess::DcfLike`](crate::ChannelAccess::DcfLike): IEEE 802.11's DCF,
//! simplified as in Bianchi's model. A counter drawn before every attempt counts
//! down the idle slots after DIFS, is frozen while the medium is busy, and sends the
//! frame at zero; a missing ACK moves to the next backoff stage. The slot arithmetic
//! is documented on [`MacCore::poll`].

use backoff_core::uniform::uniform_below;
use rand_core::Rng;

use super::{MacCore, TxState};
use crate::access::{ChannelAccess, Countdown, Dcf};
use crate::event::{AirEvent, DropReason, Event};
use crate::radio::Radio;

/// The medium as the DCF sees it, and the backoff counter of the current attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Contention {
    /// Since when the medium has been idle (`None`: busy, or not yet sampled).
    pub(super) idle_since: Option<u64>,
    /// Slots left to count (`None`: none drawn for the current attempt).
    pub(super) counter: Option<u32>,
    /// When the counter was drawn.
    drawn_at: u64,
    /// The last poll.
    polled_at: u64,
}

impl Contention {
    pub(super) const fn new() -> Self {
        Self {
            idle_since: None,
            counter: None,
            drawn_at: 0,
            polled_at: 0,
        }
    }

    /// A CCA sample at `now`: a busy one takes the slots that ended idle off the
    /// counter (`floor((now - s) / slot)`), and under [`Countdown::VirtualSlots`] one
    /// more for the busy period itself, and freezes it.
    pub(super) fn observe(
        &mut self,
        clear: bool,
        now: u64,
        slot: u64,
        difs: u64,
        countdown: Countdown,
    ) {
        self.polled_at = now;
        if clear {
            if self.idle_since.is_none() {
                self.idle_since = Some(now);
            }
            return;
        }
        if let (Some(counter), Some(s)) = (self.counter, self.start(slot, difs)) {
            if now > s {
                let idle_slots = (now - s).checked_div(slot).unwrap_or(0);
                let idle_slots = u32::try_from(idle_slots).unwrap_or(u32::MAX);
                let busy_slot = u32::from(countdown == Countdown::VirtualSlots);
                self.counter = Some(counter.saturating_sub(idle_slots).saturating_sub(busy_slot));
            }
        }
        self.idle_since = None;
    }

    /// `s`: the first slot boundary `b0 + j * slot` (`b0 = idle_since + DIFS`) at or
    /// after both `b0` and the draw; `None` while the medium is busy.
    fn start(&self, slot: u64, difs: u64) -> Option<u64> {
        let b0 = self.idle_since?.saturating_add(difs);
        let late = self.drawn_at.saturating_sub(b0);
        let slots = late.div_ceil(slot.max(1));
        Some(b0.saturating_add(slots.saturating_mul(slot)))
    }

    /// When the frame goes if the medium stays idle: `s + counter * slot`.
    fn transmit_at(&self, slot: u64, difs: u64) -> Option<u64> {
        let counter = u64::from(self.counter?);
        Some(
            self.start(slot, difs)?
                .saturating_add(counter.saturating_mul(slot)),
        )
    }
}

impl<R: Rng, const N: usize, const Q: usize, const P: usize> MacCore<R, N, Q, P> {
    /// DIFS: the interframe space.
    pub(super) fn difs(&self) -> u64 {
        self.config.interframe_space_ns()
    }

    /// When the DCF next needs a poll: at once to draw a counter, then at the
    /// transmission instant, and at least once a slot meanwhile (to see the medium
    /// turn busy on a radio that gives no CCA interrupt).
    pub(super) fn dcf_deadline(&self) -> u64 {
        let slot = self.config.slot().as_nanos();
        if self.dcf.counter.is_none() {
            return 0;
        }
        let next_sample = self.dcf.polled_at.saturating_add(slot);
        match self.dcf.transmit_at(slot, self.difs()) {
            Some(at) => at.min(next_sample),
            None => next_sample,
        }
    }

    /// Draw the counter if the attempt has none; send when it has run out.
    pub(super) fn dcf_step<RADIO: Radio>(
        &mut self,
        radio: &mut RADIO,
        now_ns: u64,
    ) -> Option<Event> {
        let ChannelAccess::DcfLike(dcf) = self.config.access() else {
            return None;
        };
        if self.dcf.counter.is_none() {
            // The stage is the number of failed attempts so far (0 for a new frame).
            self.dcf_draw(now_ns, dcf, self.attempts);
        }
        if self.ack_first() {
            return None;
        }
        let at = self
            .dcf
            .transmit_at(self.config.slot().as_nanos(), self.difs())?;
        if now_ns < at {
            return None;
        }
        self.dcf.counter = None;
        self.transmit_data(radio, now_ns)
    }

    /// No ACK for attempt `attempt`: the next stage while retries remain, else drop.
    pub(super) fn dcf_ack_timeout(&mut self, now_ns: u64, attempt: u32, dcf: Dcf) -> Option<Event> {
        // `attempt - 1` retries were made so far.
        if attempt > dcf.retry_limit() {
            return Some(self.finish(Some(DropReason::NoAck)));
        }
        let slots = self.dcf_draw(now_ns, dcf, attempt);
        self.state = TxState::Contend;
        Some(Event::Medium(AirEvent::AckTimeout { attempt, slots }))
    }

    /// Draw the counter of backoff stage `min(stage, m)`, uniform in `[0, W_i - 1]`.
    fn dcf_draw(&mut self, now_ns: u64, dcf: Dcf, stage: u32) -> u32 {
        let counter = uniform_below(&mut self.rng, dcf.window(stage));
        self.dcf.counter = Some(counter);
        self.dcf.drawn_at = now_ns;
        counter
    }
}
