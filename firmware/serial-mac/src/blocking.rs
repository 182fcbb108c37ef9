//! A driver around [`MacCore`] that owns the serial port, the clock and a delay.
//!
//! * Poll-driven, for an application with more than one thing to do:
//!   [`Mac::submit`] hands over a frame, [`Mac::poll`] does what is due now and never
//!   blocks, [`Mac::take_received`] hands out received frames, [`Mac::wait`] sleeps a
//!   quarter byte time. The MAC keeps receiving and decoding while it defers, backs
//!   off and retries; the application takes the frames as they come.
//! * Blocking, on top: [`Mac::send_with`] returns when the frame is delivered or
//!   dropped and hands every frame received meanwhile to a callback as it arrives, so
//!   a long backoff never fills the receive queue; [`Mac::receive`] waits for a frame,
//!   with a timeout.

use embedded_hal::delay::DelayNs;
use embedded_io::{Read, ReadReady, Write};
use mac_base::{Address, TimeSource};
use rand_core::Rng;

use crate::counters::Counters;
use crate::engine::MacCore;
use crate::event::{Delivery, Event, SendError};
use crate::frame::Frame;

/// Polls per byte time: often enough that a UART without a FIFO never overruns, and
/// the `p = B / 4` of the timing analysis in [`config`](crate::config).
pub const POLLS_PER_BYTE: u32 = 4;

/// The MAC on a serial port `IO`, with a clock `T`, a delay `D` and an RNG `R`.
///
/// Every call returns: [`send`](Self::send) ends in delivery or a typed drop (the
/// echo timeout, the attempt limit and the deferral limit bound it), and
/// [`receive`](Self::receive) has a timeout.
pub struct Mac<IO, T, D, R, const N: usize, const Q: usize> {
    io: IO,
    time: T,
    delay: D,
    core: MacCore<R, N, Q>,
    poll_ns: u32,
}

impl<IO, T, D, R, const N: usize, const Q: usize> Mac<IO, T, D, R, N, Q>
where
    IO: Read + Write + ReadReady,
    T: TimeSource,
    D: DelayNs,
    R: Rng,
{
    /// Drive `core` over `io`.
    pub fn new(io: IO, time: T, delay: D, core: MacCore<R, N, Q>) -> Self {
        let poll_ns = (core.config().byte_time_ns() / POLLS_PER_BYTE).max(1);
        Self {
            io,
            time,
            delay,
            core,
            poll_ns,
        }
    }

    /// Hand a frame to the MAC without waiting: it ends as [`Event::Delivered`] or
    /// [`Event::Dropped`], reported by [`poll`](Self::poll).
    ///
    /// # Errors
    ///
    /// [`SendError::Busy`] while another frame is in flight (one at a time: the
    /// application keeps its own list of what to send next),
    /// [`SendError::PayloadTooLong`] for a payload above `N` bytes.
    pub fn submit(&mut self, dst: Address, payload: &[u8]) -> Result<(), SendError> {
        self.core.enqueue(dst, payload)
    }

    /// Do what is due now (read the line, check the timers, write at most one byte)
    /// and return the first event; `None` means nothing more until time passes or a
    /// byte arrives. Never blocks.
    pub fn poll(&mut self) -> Option<Event> {
        let now = self.time.now_ns();
        self.core.poll(&mut self.io, now)
    }

    /// Take the oldest received frame.
    pub fn take_received(&mut self) -> Option<Frame<N>> {
        self.core.take_received()
    }

    /// Sleep for one polling period (a quarter byte time, [`POLLS_PER_BYTE`]).
    pub fn wait(&mut self) {
        self.delay.delay_ns(self.poll_ns);
    }

    /// Send `payload` to `dst` and wait until it is delivered or dropped. Frames
    /// received meanwhile stay in the receive queue (`Q` of them; more are counted
    /// as overflows): on a busy line use [`send_with`](Self::send_with), which hands
    /// them over as they come.
    ///
    /// # Errors
    ///
    /// As [`send_with`](Self::send_with).
    pub fn send(&mut self, dst: Address, payload: &[u8]) -> Result<Delivery, SendError> {
        self.send_inner(dst, payload, &mut |_| {}, None)
    }

    /// [`send`](Self::send), calling `on_event` for every event on the way
    /// (attempts, collisions, backoffs) and `on_frame` for every frame received
    /// meanwhile, as soon as it is decoded: receiving goes on while the frame waits
    /// for the line, backs off and retries.
    ///
    /// # Errors
    ///
    /// [`SendError::Busy`] if a frame [`submit`](Self::submit)ted earlier is still in
    /// flight, [`SendError::PayloadTooLong`] for a payload above `N` bytes (nothing
    /// is sent in either case), [`SendError::Dropped`] with the reason when the frame
    /// was given up.
    pub fn send_with(
        &mut self,
        dst: Address,
        payload: &[u8],
        mut on_event: impl FnMut(Event),
        mut on_frame: impl FnMut(Frame<N>),
    ) -> Result<Delivery, SendError> {
        self.send_inner(dst, payload, &mut on_event, Some(&mut on_frame))
    }

    fn send_inner(
        &mut self,
        dst: Address,
        payload: &[u8],
        on_event: &mut dyn FnMut(Event),
        mut on_frame: Option<&mut dyn FnMut(Frame<N>)>,
    ) -> Result<Delivery, SendError> {
        self.core.enqueue(dst, payload)?;
        loop {
            match self.poll() {
                Some(event) => {
                    on_event(event);
                    match event {
                        Event::Delivered { attempts } => return Ok(Delivery { attempts }),
                        Event::Dropped { reason, .. } => return Err(SendError::Dropped(reason)),
                        Event::Received { .. } => {
                            if let Some(on_frame) = on_frame.as_mut() {
                                while let Some(frame) = self.core.take_received() {
                                    on_frame(frame);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                None => self.wait(),
            }
        }
    }

    /// Wait up to `timeout_ns` for a frame for this station (or broadcast).
    pub fn receive(&mut self, timeout_ns: u64) -> Option<Frame<N>> {
        self.receive_with(timeout_ns, |_| {})
    }

    /// [`receive`](Self::receive), calling `on_event` for every event meanwhile
    /// (frames discarded, for example).
    pub fn receive_with(
        &mut self,
        timeout_ns: u64,
        mut on_event: impl FnMut(Event),
    ) -> Option<Frame<N>> {
        let start = self.time.now_ns();
        loop {
            if let Some(frame) = self.core.take_received() {
                return Some(frame);
            }
            let now = self.time.now_ns();
            if now.saturating_sub(start) >= timeout_ns {
                return None;
            }
            match self.core.poll(&mut self.io, now) {
                Some(event) => on_event(event),
                None => self.wait(),
            }
        }
    }

    /// The counters.
    pub fn counters(&self) -> &Counters {
        self.core.counters()
    }

    /// The state machine inside.
    pub fn core(&self) -> &MacCore<R, N, Q> {
        &self.core
    }

    /// Take the parts back.
    pub fn release(self) -> (IO, T, D, MacCore<R, N, Q>) {
        (self.io, self.time, self.delay, self.core)
    }
}
