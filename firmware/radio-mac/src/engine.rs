//! The MAC as a state machine that never blocks, like the serial MAC's:
//! [`MacCore::poll`] takes what the radio received, checks the timers and starts at
//! most one transmission. It keeps receiving (and acknowledging) while its own frame
//! waits for the channel, for its ACK or for the end of a backoff.

use backoff_core::FrameBackoff;
use heapless::{Deque, Vec};
use mac_base::counters::bump;
use mac_base::{Address, RxError};
use rand_core::Rng;

mod beb;
mod csma;
#[cfg(feature = "dcf")]
mod dcf;

use crate::access::ChannelAccess;
use crate::config::MacConfig;
use crate::counters::Counters;
use crate::event::{AirEvent, DropReason, Event, SendError};
use crate::frame::{Frame, Kind, OVERHEAD};
use crate::radio::Radio;
use crate::region::Credits;

/// Longest packet, in bytes, for a payload capacity of 255.
const MAX_PACKET: usize = 255 + OVERHEAD;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TxState {
    /// No frame to send.
    Idle,
    /// [`ChannelAccess::Beb`]: carrier sense: the channel has been clear since `since`
    /// (set on the first clear assessment).
    Sensing { since: Option<u64> },
    /// [`ChannelAccess::Beb`]: backing off until `until`.
    Backoff { until: u64 },
    /// [`ChannelAccess::Ieee802154Unslotted`]: the CCA is due at `cca_at` (`None`: the
    /// attempt's first backoff is drawn at the next poll), with `NB` and `BE`.
    Csma { cca_at: Option<u64>, nb: u8, be: u8 },
    /// `ChannelAccess::DcfLike`: the backoff counter counts down (`MacCore::dcf`).
    #[cfg(feature = "dcf")]
    Contend,
    /// Our data frame is on the air.
    Sending,
    /// Waiting for the ACK until `deadline`; under `ChannelAccess::DcfLike` the
    /// attempt fails at `early` already if the channel is clear then (no ACK began),
    /// under the other rules `early == deadline`.
    WaitAck { early: u64, deadline: u64 },
}

/// An ACK this station owes: to `dst`, for `seq`, due at `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AckDue {
    dst: Address,
    seq: u8,
    at: u64,
}

/// The CSMA/CA radio MAC for payloads of up to `N` bytes, a queue of `Q` received
/// frames, and the last sequence numbers of `P` peers (for duplicate suppression),
/// with the random number generator `R` (seeded per device).
///
/// All buffers are inside the value; put it in a `static` and it needs no heap.
#[derive(Clone, Debug)]
pub struct MacCore<R, const N: usize, const Q: usize, const P: usize = 8> {
    config: MacConfig,
    rng: R,
    retries: FrameBackoff,
    busy: FrameBackoff,
    attempts: u32,
    next_seq: u8,
    tx: Option<Frame<N>>,
    state: TxState,
    /// The end of our transmission in progress (data or ACK), as expected from its
    /// air time, and whether it is an ACK.
    on_air: Option<(u64, bool)>,
    ack_due: Option<AckDue>,
    /// The duty cycle's account (`crate::region`).
    credits: Credits,
    /// When the account will hold the waiting data frame's price (while it waits).
    off_until: u64,
    /// Whether the current attempt's wait for credit has been counted.
    off_counted: bool,
    /// The DCF's medium tracking and backoff counter (`ChannelAccess::DcfLike`).
    #[cfg(feature = "dcf")]
    dcf: dcf::Contention,
    seen: Vec<(Address, u8), P>,
    seen_next: usize,
    received: Deque<Frame<N>, Q>,
    counters: Counters,
}

impl<R: Rng, const N: usize, const Q: usize, const P: usize> MacCore<R, N, Q, P> {
    /// A MAC with the given parameters and its own random number generator. The first
    /// sequence number is drawn from it, so that a station that restarts does not
    /// reuse the number its peers last saw (as IEEE 802.15.4 initialises its DSN).
    pub fn new(config: MacConfig, mut rng: R) -> Self {
        let next_seq = rng.next_u32().to_le_bytes()[0];
        Self {
            config,
            rng,
            retries: FrameBackoff::new(config.beb()),
            busy: FrameBackoff::new(config.busy_rule()),
            attempts: 0,
            next_seq,
            tx: None,
            state: TxState::Idle,
            on_air: None,
            ack_due: None,
            credits: Credits::full(config.duty_cycle()),
            off_until: 0,
            off_counted: false,
            #[cfg(feature = "dcf")]
            dcf: dcf::Contention::new(),
            seen: Vec::new(),
            seen_next: 0,
            received: Deque::new(),
            counters: Counters::default(),
        }
    }

    /// The parameters.
    pub const fn config(&self) -> &MacConfig {
        &self.config
    }

    /// The counters.
    pub const fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Whether no frame is being sent (a new one can be queued).
    pub fn is_idle(&self) -> bool {
        self.tx.is_none()
    }

    /// Queue a frame for `dst` (unicast, acknowledged) or [`Address::BROADCAST`]
    /// (sent once, not acknowledged). One frame at a time: its end is reported by
    /// [`poll`](Self::poll) as [`Event::Delivered`] or [`Event::Dropped`].
    ///
    /// # Errors
    ///
    /// [`SendError::Busy`] while another frame is in progress,
    /// [`SendError::PayloadTooLong`] above `N` bytes.
    pub fn enqueue(&mut self, dst: Address, payload: &[u8]) -> Result<(), SendError> {
        if self.tx.is_some() {
            return Err(SendError::Busy);
        }
        let frame = Frame::data(dst, self.config.address(), self.next_seq, payload)
            .map_err(|_| SendError::PayloadTooLong)?;
        self.next_seq = self.next_seq.wrapping_add(1);
        self.tx = Some(frame);
        self.attempts = 0;
        self.off_counted = false;
        self.retries.reset();
        self.busy.reset();
        self.state = self.first_state();
        bump(&mut self.counters.tx_queued);
        Ok(())
    }

    /// Take the oldest received data frame.
    pub fn take_received(&mut self) -> Option<Frame<N>> {
        self.received.pop_front()
    }

    /// When the MAC next needs a poll if the radio reports nothing (a device can
    /// sleep until then or until the radio's interrupt); `None` if only the radio
    /// can wake it.
    pub fn next_deadline_ns(&self) -> Option<u64> {
        let tx = match self.state {
            TxState::Idle | TxState::Sending => None,
            TxState::Sensing { since } => self.beb_deadline(since),
            TxState::Backoff { until } => Some(until),
            TxState::Csma { cca_at, .. } => Some(cca_at.unwrap_or(0)),
            #[cfg(feature = "dcf")]
            TxState::Contend => Some(self.dcf_deadline()),
            TxState::WaitAck { early, .. } => Some(early),
        };
        let tx = tx.map(|t| {
            if self.contending() {
                t.max(self.off_until)
            } else {
                t
            }
        });
        let air = self.on_air.map(|(end, _)| end);
        let ack = self.ack_due.map(|a| a.at);
        [tx, air, ack].into_iter().flatten().min()
    }

    /// Do what is due at `now_ns` and report at most one event.
    ///
    /// Call it whenever the radio signals (packet received, transmission done) and by
    /// [`next_deadline_ns`](Self::next_deadline_ns); calling more often is harmless.
    ///
    /// # Timing under `ChannelAccess::DcfLike` (feature `dcf`)
    ///
    /// Every poll samples the CCA ([`Radio::channel_clear`]) and keeps `idle_since`,
    /// the instant from which the medium has been idle: a busy sample clears it, the
    /// first clear sample after that sets it to `now_ns`, and the end of the station's
    /// own transmission sets it (the radio cannot sense while it sends). The backoff
    /// slots start at `b0 = idle_since + DIFS` (DIFS = the
    /// [interframe space](MacConfig::interframe_space_ns)) and lie at `b0 + j * slot`;
    /// the counter starts at `s`, the first of them at or after the instant it was
    /// drawn, and the frame goes at `s + counter * slot` if the medium stays idle. A
    /// busy sample at `t_b > s` takes `floor((t_b - s) / slot)` (the slots that ended
    /// idle) off the counter, and under [`Countdown::VirtualSlots`](crate::Countdown)
    /// (the default, Bianchi's) one more for the busy period; the counter then stays
    /// frozen until the next idle period.
    ///
    /// **Poll at each change of the CCA** (clear to busy and busy to clear, as this
    /// station's radio sees it) and the timing is exact: every station that hears the
    /// same medium computes the same `b0`, so their slots line up as in Bianchi's
    /// slotted model. Without such an interrupt, polling by
    /// [`next_deadline_ns`](Self::next_deadline_ns) (once a slot while the medium is
    /// busy or the counter runs) makes the timing accurate to a slot.
    pub fn poll<RADIO: Radio>(&mut self, radio: &mut RADIO, now_ns: u64) -> Option<Event> {
        if let Some((_, is_ack)) = self.on_air {
            match radio.is_transmitting() {
                Ok(true) => return None,
                Ok(false) => {
                    self.on_air = None;
                    // Deaf while it sent: the medium counts as idle from the end.
                    #[cfg(feature = "dcf")]
                    {
                        self.dcf.idle_since = Some(now_ns);
                    }
                    if !is_ack {
                        if let Some(event) = self.sent(now_ns) {
                            return Some(event);
                        }
                    }
                }
                Err(_) => return self.radio_error(),
            }
        }
        #[cfg(feature = "dcf")]
        if let ChannelAccess::DcfLike(dcf) = self.config.access() {
            let clear = if self.config.carrier_sense() {
                match radio.channel_clear() {
                    Ok(clear) => clear,
                    Err(_) => return self.radio_error(),
                }
            } else {
                true
            };
            let slot = self.config.slot().as_nanos();
            self.dcf
                .observe(clear, now_ns, slot, self.difs(), dcf.countdown());
        }
        let mut buf = [0u8; MAX_PACKET];
        let window = buf
            .get_mut(..N.saturating_add(OVERHEAD))
            .unwrap_or_default();
        match radio.receive(window) {
            Ok(Some(len)) => {
                let packet = window.get(..len).unwrap_or_default();
                if let Some(event) = self.on_packet(Frame::parse(packet), now_ns) {
                    return Some(event);
                }
            }
            Ok(None) => {}
            Err(_) => return self.radio_error(),
        }
        if let Some(due) = self.ack_due.filter(|a| a.at <= now_ns) {
            self.ack_due = None;
            if let Ok(ack) = Frame::<N>::ack(due.dst, self.config.address(), due.seq) {
                if self.credits.pay(now_ns, self.config.air_time_ns(OVERHEAD)) {
                    return self.put_on_air(radio, &ack, now_ns, true);
                }
                // The duty cycle's account cannot pay for it: withheld.
                bump(&mut self.counters.medium.acks_withheld);
            }
        }
        self.step_tx(radio, now_ns)
    }

    /// Our data frame has left the antenna.
    fn sent(&mut self, now_ns: u64) -> Option<Event> {
        let broadcast = self.tx.as_ref().is_some_and(|f| f.dst().is_broadcast());
        if broadcast {
            return Some(self.finish(None));
        }
        let deadline = now_ns.saturating_add(self.config.ack_timeout_ns());
        let early = match self.config.access() {
            // IEEE 802.11's ACKTimeout: the ACK must have begun by SIFS + one slot.
            #[cfg(feature = "dcf")]
            ChannelAccess::DcfLike(_) => now_ns
                .saturating_add(self.config.sifs_ns())
                .saturating_add(self.config.slot().as_nanos())
                .min(deadline),
            _ => deadline,
        };
        self.state = TxState::WaitAck { early, deadline };
        None
    }

    /// The state in which a new frame's first attempt begins under the access rule.
    fn first_state(&self) -> TxState {
        match self.config.access() {
            ChannelAccess::Beb => TxState::Sensing { since: None },
            ChannelAccess::Ieee802154Unslotted(c) => TxState::Csma {
                cca_at: None,
                nb: 0,
                be: c.min_be(),
            },
            #[cfg(feature = "dcf")]
            ChannelAccess::DcfLike(_) => TxState::Contend,
        }
    }

    /// Whether the data frame is in channel access (not on the air, not waiting for
    /// its ACK).
    fn contending(&self) -> bool {
        match self.state {
            TxState::Idle | TxState::Sending | TxState::WaitAck { .. } => false,
            TxState::Sensing { .. } | TxState::Backoff { .. } | TxState::Csma { .. } => true,
            #[cfg(feature = "dcf")]
            TxState::Contend => true,
        }
    }

    fn step_tx<RADIO: Radio>(&mut self, radio: &mut RADIO, now_ns: u64) -> Option<Event> {
        if self.contending() {
            // The duty cycle: channel access waits until the account holds the price.
            let wait = self.credits.wait_ns(now_ns, self.data_air_ns());
            if wait > 0 {
                self.off_until = now_ns.saturating_add(wait);
                if !self.off_counted {
                    self.off_counted = true;
                    bump(&mut self.counters.medium.duty_cycle_waits);
                }
                return None;
            }
            self.off_until = 0;
        }
        match self.state {
            TxState::Idle | TxState::Sending => None,
            TxState::Sensing { since } => self.beb_sense(radio, now_ns, since),
            TxState::Backoff { until } => {
                if now_ns >= until {
                    self.state = TxState::Sensing { since: None };
                }
                None
            }
            TxState::Csma { cca_at, nb, be } => self.csma_step(radio, now_ns, cca_at, nb, be),
            #[cfg(feature = "dcf")]
            TxState::Contend => self.dcf_step(radio, now_ns),
            TxState::WaitAck { early, deadline } => {
                if now_ns < early {
                    return None;
                }
                if now_ns < deadline && self.ack_may_be_arriving() {
                    // DCF only (elsewhere `early == deadline`): the channel is busy at
                    // the early deadline, an ACK may be arriving: wait for all of it.
                    self.state = TxState::WaitAck {
                        early: deadline,
                        deadline,
                    };
                    return None;
                }
                bump(&mut self.counters.medium.ack_timeouts);
                let attempt = self.attempts;
                match self.config.access() {
                    ChannelAccess::Beb => self.beb_ack_timeout(now_ns, attempt),
                    ChannelAccess::Ieee802154Unslotted(c) => {
                        self.csma_ack_timeout(now_ns, attempt, c)
                    }
                    #[cfg(feature = "dcf")]
                    ChannelAccess::DcfLike(d) => self.dcf_ack_timeout(now_ns, attempt, d),
                }
            }
        }
    }

    /// The air time of the data frame waiting, 0 without one.
    fn data_air_ns(&self) -> u64 {
        self.tx.as_ref().map_or(0, |f| {
            self.config
                .air_time_ns(f.payload().len().saturating_add(OVERHEAD))
        })
    }

    /// Put the data frame on the air: one more attempt.
    fn transmit_data<RADIO: Radio>(&mut self, radio: &mut RADIO, now_ns: u64) -> Option<Event> {
        let frame = self.tx.clone()?;
        if !self.credits.pay(now_ns, self.data_air_ns()) {
            // An ACK spent the credit during the channel access: begin it again once
            // the account holds the price.
            self.state = self.first_state();
            return None;
        }
        self.attempts = self.attempts.saturating_add(1);
        self.off_counted = false;
        self.busy.reset();
        bump(&mut self.counters.tx_attempts);
        self.state = TxState::Sending;
        self.put_on_air(radio, &frame, now_ns, false)
            .or(Some(Event::AttemptStarted {
                attempt: self.attempts,
            }))
    }

    /// Whether the channel was busy at this poll's CCA sample (DCF), when an ACK may
    /// be arriving.
    fn ack_may_be_arriving(&self) -> bool {
        #[cfg(feature = "dcf")]
        {
            self.dcf.idle_since.is_none()
        }
        #[cfg(not(feature = "dcf"))]
        {
            false
        }
    }

    /// Whether an ACK this station owes is due or on the air: it goes first.
    fn ack_first(&self) -> bool {
        self.ack_due.is_some() || self.on_air.is_some()
    }

    /// Start sending `frame`; `None` on success, the drop event on a radio error.
    fn put_on_air<RADIO: Radio>(
        &mut self,
        radio: &mut RADIO,
        frame: &Frame<N>,
        now_ns: u64,
        is_ack: bool,
    ) -> Option<Event> {
        let mut buf = [0u8; MAX_PACKET];
        let len = frame.emit(&mut buf).unwrap_or(0);
        let packet = buf.get(..len).unwrap_or_default();
        match radio.transmit(packet) {
            Ok(()) => {
                let air = self.config.air_time_ns(len);
                let end = now_ns.saturating_add(air);
                self.on_air = Some((end, is_ack));
                self.counters.medium.air_time_ns =
                    self.counters.medium.air_time_ns.saturating_add(air);
                if is_ack {
                    bump(&mut self.counters.medium.acks_sent);
                }
                None
            }
            Err(_) => self.radio_error(),
        }
    }

    fn radio_error(&mut self) -> Option<Event> {
        bump(&mut self.counters.medium.radio_errors);
        self.on_air = None;
        if self.tx.is_some() {
            Some(self.finish(Some(DropReason::RadioError)))
        } else {
            None
        }
    }

    /// End the current frame: delivered (`None`) or dropped.
    fn finish(&mut self, drop: Option<DropReason>) -> Event {
        let attempts = self.attempts;
        self.tx = None;
        self.state = TxState::Idle;
        #[cfg(feature = "dcf")]
        {
            self.dcf.counter = None;
        }
        self.retries.reset();
        self.busy.reset();
        match drop {
            None => {
                bump(&mut self.counters.tx_delivered);
                Event::Delivered { attempts }
            }
            Some(reason) => {
                self.counters.medium.count_drop(reason);
                Event::Dropped { reason, attempts }
            }
        }
    }

    fn on_packet(&mut self, parsed: Result<Frame<N>, RxError>, now_ns: u64) -> Option<Event> {
        let frame = match parsed {
            Ok(frame) => frame,
            Err(e) => {
                self.counters.count_rx_error(e.kind());
                return Some(Event::RxDiscarded { kind: e.kind() });
            }
        };
        let me = self.config.address();
        match frame.kind() {
            Kind::Ack => {
                let matches = frame.dst() == me
                    && matches!(self.state, TxState::WaitAck { .. })
                    && self
                        .tx
                        .as_ref()
                        .is_some_and(|f| f.dst() == frame.src() && f.seq() == frame.seq());
                if matches {
                    return Some(self.finish(None));
                }
                bump(&mut self.counters.medium.rx_stray_acks);
                None
            }
            Kind::Data if frame.dst().is_broadcast() => self.deliver(frame),
            Kind::Data if frame.dst() == me => {
                let (src, seq) = (frame.src(), frame.seq());
                let at = now_ns.saturating_add(self.config.sifs_ns());
                if self.last_seq(src) == Some(seq) {
                    bump(&mut self.counters.medium.rx_duplicates);
                    self.ack_due = Some(AckDue { dst: src, seq, at });
                    return Some(Event::Medium(AirEvent::Duplicate { src, seq }));
                }
                if self.received.is_full() {
                    // Neither queued nor acknowledged: the sender will try again.
                    bump(&mut self.counters.rx_queue_overflows);
                    return None;
                }
                self.remember(src, seq);
                self.ack_due = Some(AckDue { dst: src, seq, at });
                self.deliver(frame)
            }
            Kind::Data => {
                bump(&mut self.counters.rx_filtered);
                None
            }
        }
    }

    fn deliver(&mut self, frame: Frame<N>) -> Option<Event> {
        let (src, len) = (
            frame.src(),
            u8::try_from(frame.payload().len()).unwrap_or(u8::MAX),
        );
        match self.received.push_back(frame) {
            Ok(()) => {
                bump(&mut self.counters.rx_frames);
                Some(Event::Received { src, len })
            }
            Err(_) => {
                bump(&mut self.counters.rx_queue_overflows);
                None
            }
        }
    }

    fn last_seq(&self, src: Address) -> Option<u8> {
        self.seen.iter().find(|(a, _)| *a == src).map(|&(_, s)| s)
    }

    /// Record `seq` as the last from `src`; when the table is full the oldest entry
    /// makes room (round robin).
    fn remember(&mut self, src: Address, seq: u8) {
        if let Some(entry) = self.seen.iter_mut().find(|(a, _)| *a == src) {
            entry.1 = seq;
        } else if self.seen.push((src, seq)).is_err() {
            if let Some(entry) = self.seen.get_mut(self.seen_next) {
                *entry = (src, seq);
            }
            self.seen_next = (self.seen_next + 1) % P.max(1);
        }
    }
}
