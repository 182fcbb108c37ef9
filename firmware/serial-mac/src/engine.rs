//! The MAC itself, as a state machine that never blocks: [`MacCore::poll`] reads
//! whatever the line has delivered, checks the timers, and writes at most one byte.
//!
//! The same code runs in the blocking driver ([`Mac`](crate::Mac)), on the in-memory
//! shared bus of the tests, and in the firmware.

use backoff_core::{Decision, FrameBackoff, SlotTime};
use embedded_io::{Read, ReadReady, Write};
use heapless::Deque;
use mac_base::Address;
use mac_base::counters::bump;
use rand_core::Rng;

use crate::config::MacConfig;
use crate::counters::Counters;
use crate::event::{BusEvent, DropReason, Event, SendError};
use crate::frame::Frame;
use crate::rx::{Decoder, Step};

/// Most symbols one [`MacCore::poll`] takes from the line, so that a port that keeps
/// reporting errors cannot hold the MAC in one call.
const MAX_SYMBOLS_PER_POLL: usize = 32;

/// A byte read from the line, or a line error (framing, noise, overrun).
type Symbol = Result<u8, ()>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TxState {
    /// No frame to send.
    Idle,
    /// Waiting for the line to be idle for an interframe gap; `since` is set on the
    /// first poll.
    Deferring { since: Option<u64> },
    /// Sending byte `index`; `echo` is its echo deadline once it is written.
    Sending { index: u16, echo: Option<u64> },
    /// Sending the jam; `sent` bytes are done, `echo` as above.
    Jamming { sent: u8, echo: Option<u64> },
    /// Backing off until `until`.
    Backoff { until: u64 },
}

#[derive(Clone, Debug)]
struct Outgoing<const N: usize> {
    frame: Frame<N>,
    crc: u16,
}

/// The CSMA/CD MAC for frames of up to `N` payload bytes, with a queue of `Q`
/// received frames and the random number generator `R` (seeded per device).
///
/// All its buffers are inside the value: put it in a `static` (or a
/// `static_cell`) and it needs no stack and no heap.
#[derive(Clone, Debug)]
pub struct MacCore<R, const N: usize, const Q: usize> {
    config: MacConfig,
    slot: SlotTime,
    rng: R,
    backoff: FrameBackoff,
    attempts: u32,
    tx: Option<Outgoing<N>>,
    state: TxState,
    decoder: Decoder<N>,
    received: Deque<Frame<N>, Q>,
    counters: Counters,
    last_activity: Option<u64>,
}

impl<R: Rng, const N: usize, const Q: usize> MacCore<R, N, Q> {
    /// A MAC with the given parameters and its own random number generator.
    pub fn new(config: MacConfig, rng: R) -> Self {
        Self {
            config,
            slot: config.slot_time(),
            rng,
            backoff: FrameBackoff::new(config.beb()),
            attempts: 0,
            tx: None,
            state: TxState::Idle,
            decoder: Decoder::new(),
            received: Deque::new(),
            counters: Counters::default(),
            last_activity: None,
        }
    }

    /// The parameters.
    pub fn config(&self) -> &MacConfig {
        &self.config
    }

    /// The counters.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Whether no frame is being sent (a new one can be queued).
    pub fn is_idle(&self) -> bool {
        self.tx.is_none()
    }

    /// Hand a frame to the MAC. From here it ends as [`Event::Delivered`] or
    /// [`Event::Dropped`], reported by [`poll`](Self::poll).
    pub fn enqueue(&mut self, dst: Address, payload: &[u8]) -> Result<(), SendError> {
        if self.tx.is_some() {
            return Err(SendError::Busy);
        }
        let frame = Frame::new(dst, self.config.address(), payload)
            .map_err(|_| SendError::PayloadTooLong)?;
        let crc = frame.crc();
        self.tx = Some(Outgoing { frame, crc });
        self.attempts = 0;
        self.backoff.reset();
        self.state = TxState::Deferring { since: None };
        bump(&mut self.counters.tx_queued);
        Ok(())
    }

    /// Take the oldest received frame.
    pub fn take_received(&mut self) -> Option<Frame<N>> {
        self.received.pop_front()
    }

    /// Received frames waiting to be taken.
    pub fn received_len(&self) -> usize {
        self.received.len()
    }

    /// When [`poll`](Self::poll) next has something to do if the line stays silent,
    /// in the time base of `poll`: `None` when nothing is pending (no frame to send,
    /// none being received), a time at or before the present when it should be
    /// polled at once. An application that sleeps until this deadline or until a
    /// byte arrives, whichever comes first, misses nothing: it can skip idle time.
    pub fn next_deadline_ns(&self) -> Option<u64> {
        let Some(last) = self.last_activity else {
            // Never polled: the first poll starts the clock.
            return Some(0);
        };
        let rx = self
            .decoder
            .in_frame()
            .then(|| last.saturating_add(self.config.byte_times_ns(self.config.rx_timeout())));
        let tx = match self.state {
            TxState::Idle => None,
            TxState::Deferring { since: None }
            | TxState::Sending { echo: None, .. }
            | TxState::Jamming { echo: None, .. } => Some(0),
            TxState::Deferring { since: Some(since) } => {
                let gap =
                    last.saturating_add(self.config.byte_times_ns(self.config.interframe_gap()));
                // A frame being received holds the transmitter until it ends.
                let start = rx.map_or(gap, |rx| rx.max(gap));
                match self.config.defer_limit() {
                    0 => Some(start),
                    limit => {
                        Some(start.min(since.saturating_add(self.config.byte_times_ns(limit))))
                    }
                }
            }
            TxState::Sending {
                echo: Some(deadline),
                ..
            }
            | TxState::Jamming {
                echo: Some(deadline),
                ..
            } => Some(deadline),
            TxState::Backoff { until } => Some(until),
        };
        match (rx, tx) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Do what is due at time `now_ns`: read what the line delivered, check the
    /// timers, and write at most one byte. Returns the first event that happened;
    /// call again until it returns `None`, which means there is nothing to do until
    /// the line delivers a byte or time passes.
    pub fn poll<IO>(&mut self, io: &mut IO, now_ns: u64) -> Option<Event>
    where
        IO: Read + Write + ReadReady,
    {
        // The line counts as busy until it has been watched for an interframe gap.
        self.last_activity.get_or_insert(now_ns);
        for _ in 0..MAX_SYMBOLS_PER_POLL {
            let Some(symbol) = read_symbol(io) else { break };
            self.last_activity = Some(now_ns);
            if let Some(event) = self.on_symbol(symbol) {
                return Some(event);
            }
        }
        if let Some(event) = self.on_timers(now_ns) {
            return Some(event);
        }
        self.transmit(io, now_ns)
    }

    fn idle_ns(&self, now_ns: u64) -> u64 {
        now_ns.saturating_sub(self.last_activity.unwrap_or(now_ns))
    }

    fn on_symbol(&mut self, symbol: Symbol) -> Option<Event> {
        match self.state {
            TxState::Sending { index, echo } => {
                let expected = self
                    .tx
                    .as_ref()
                    .and_then(|t| t.frame.wire_byte(usize::from(index), t.crc));
                if echo.is_some() && expected.is_some() && symbol == expected.ok_or(()) {
                    self.echo_ok(index)
                } else {
                    // A mismatching echo, a line error, or a byte before our echo.
                    Some(self.collide(index))
                }
            }
            TxState::Jamming {
                sent,
                echo: Some(_),
            } => {
                // Whatever comes back during the jam is its echo, garbled or not.
                self.state = TxState::Jamming {
                    sent: sent.saturating_add(1),
                    echo: None,
                };
                None
            }
            _ => self.receive(symbol),
        }
    }

    fn echo_ok(&mut self, index: u16) -> Option<Event> {
        let next = index.saturating_add(1);
        let len = self.tx.as_ref().map_or(0, |t| t.frame.wire_len());
        if usize::from(next) < len {
            self.state = TxState::Sending {
                index: next,
                echo: None,
            };
            return None;
        }
        bump(&mut self.counters.tx_delivered);
        let attempts = self.attempts;
        self.finish();
        Some(Event::Delivered { attempts })
    }

    fn collide(&mut self, index: u16) -> Event {
        bump(&mut self.counters.medium.collisions);
        self.decoder.reset();
        self.state = TxState::Jamming {
            sent: 0,
            echo: None,
        };
        Event::Medium(BusEvent::Collision {
            attempt: self.attempts,
            byte: index,
        })
    }

    fn receive(&mut self, symbol: Symbol) -> Option<Event> {
        let step = match symbol {
            Ok(byte) => self.decoder.push(byte),
            Err(()) => {
                bump(&mut self.counters.medium.rx_line_errors);
                match self.decoder.line_error() {
                    Some(e) => Step::Error(e),
                    None => Step::Hunting,
                }
            }
        };
        match step {
            Step::Hunting => {
                if symbol.is_ok() {
                    bump(&mut self.counters.medium.rx_noise_bytes);
                }
                None
            }
            Step::InFrame => None,
            Step::Error(e) => {
                self.counters.count_rx_error(e.kind());
                Some(Event::RxDiscarded { kind: e.kind() })
            }
            Step::Frame(frame) => self.accept(frame),
        }
    }

    fn accept(&mut self, frame: Frame<N>) -> Option<Event> {
        let dst = frame.dst();
        if dst != self.config.address() && !dst.is_broadcast() {
            bump(&mut self.counters.rx_filtered);
            return None;
        }
        let (src, len) = (frame.src(), frame.len_field());
        if self.received.push_back(frame).is_err() {
            bump(&mut self.counters.rx_queue_overflows);
            return None;
        }
        bump(&mut self.counters.rx_frames);
        Some(Event::Received { src, len })
    }

    fn on_timers(&mut self, now_ns: u64) -> Option<Event> {
        let rx_timeout_ns = self.config.byte_times_ns(self.config.rx_timeout());
        if self.decoder.in_frame() && self.idle_ns(now_ns) >= rx_timeout_ns {
            if let Some(e) = self.decoder.idle_gap() {
                self.counters.count_rx_error(e.kind());
                return Some(Event::RxDiscarded { kind: e.kind() });
            }
        }
        match self.state {
            TxState::Sending {
                echo: Some(deadline),
                ..
            } if now_ns >= deadline => Some(self.drop_frame(DropReason::NoEcho)),
            TxState::Jamming {
                sent,
                echo: Some(deadline),
            } if now_ns >= deadline => {
                // The jam went out whether or not we heard it: carry on.
                self.state = TxState::Jamming {
                    sent: sent.saturating_add(1),
                    echo: None,
                };
                None
            }
            _ => None,
        }
    }

    fn transmit<IO: Write>(&mut self, io: &mut IO, now_ns: u64) -> Option<Event> {
        match self.state {
            TxState::Idle
            | TxState::Sending { echo: Some(_), .. }
            | TxState::Jamming { echo: Some(_), .. } => None,
            TxState::Deferring { since } => {
                let since = since.unwrap_or(now_ns);
                self.state = TxState::Deferring { since: Some(since) };
                let gap_ns = self.config.byte_times_ns(self.config.interframe_gap());
                if self.idle_ns(now_ns) >= gap_ns && !self.decoder.in_frame() {
                    self.attempts = self.attempts.saturating_add(1);
                    bump(&mut self.counters.tx_attempts);
                    self.state = TxState::Sending {
                        index: 0,
                        echo: None,
                    };
                    if let Some(dropped) = self.write_next(io, now_ns) {
                        return Some(dropped);
                    }
                    return Some(Event::AttemptStarted {
                        attempt: self.attempts,
                    });
                }
                let limit = self.config.defer_limit();
                if limit != 0 && now_ns.saturating_sub(since) >= self.config.byte_times_ns(limit) {
                    return Some(self.drop_frame(DropReason::LineBusy));
                }
                None
            }
            TxState::Sending { echo: None, .. } => self.write_next(io, now_ns),
            TxState::Jamming { sent, echo: None } => {
                if sent < self.config.jam_len() {
                    let jam = self.config.jam_byte();
                    self.state = TxState::Jamming {
                        sent,
                        echo: Some(self.echo_deadline(now_ns)),
                    };
                    // A failed jam write changes nothing: the backoff follows anyway.
                    let _ = io.write(&[jam]).and_then(|_| io.flush());
                    return None;
                }
                Some(self.back_off(now_ns))
            }
            TxState::Backoff { until } => {
                if now_ns < until {
                    return None;
                }
                self.state = TxState::Deferring {
                    since: Some(now_ns),
                };
                self.transmit(io, now_ns)
            }
        }
    }

    /// Write the byte at the current index and start waiting for its echo.
    fn write_next<IO: Write>(&mut self, io: &mut IO, now_ns: u64) -> Option<Event> {
        let TxState::Sending { index, .. } = self.state else {
            return None;
        };
        let byte = self
            .tx
            .as_ref()
            .and_then(|t| t.frame.wire_byte(usize::from(index), t.crc))?;
        self.state = TxState::Sending {
            index,
            echo: Some(self.echo_deadline(now_ns)),
        };
        match io.write(&[byte]).and_then(|_| io.flush()) {
            Ok(()) => None,
            Err(_) => Some(self.drop_frame(DropReason::IoError)),
        }
    }

    fn echo_deadline(&self, now_ns: u64) -> u64 {
        now_ns.saturating_add(self.config.byte_times_ns(self.config.echo_timeout()))
    }

    fn back_off(&mut self, now_ns: u64) -> Event {
        let attempt = self.attempts;
        match self.backoff.on_collision(&mut self.rng) {
            Decision::Retry { slots } => {
                let until = now_ns.saturating_add(self.slot.times_nanos(u64::from(slots)));
                self.state = TxState::Backoff { until };
                Event::Medium(BusEvent::Backoff { attempt, slots })
            }
            Decision::Discard => self.drop_frame(DropReason::ExcessiveCollisions),
        }
    }

    fn drop_frame(&mut self, reason: DropReason) -> Event {
        self.counters.medium.count_drop(reason);
        let attempts = self.attempts;
        self.finish();
        Event::Dropped { reason, attempts }
    }

    fn finish(&mut self) {
        self.tx = None;
        self.state = TxState::Idle;
        self.backoff.reset();
    }
}

fn read_symbol<IO: Read + ReadReady>(io: &mut IO) -> Option<Symbol> {
    match io.read_ready() {
        Ok(false) => None,
        Ok(true) => {
            let mut byte = [0u8; 1];
            match io.read(&mut byte) {
                Ok(1) => {
                    let [b] = byte;
                    Some(Ok(b))
                }
                Ok(_) => None,
                Err(_) => Some(Err(())),
            }
        }
        Err(_) => Some(Err(())),
    }
}
