//! A blocking driver around [`MacCore`]: send a frame and wait for its outcome,
//! or wait for a received frame, polling the line in between.

use embedded_hal::delay::DelayNs;
use embedded_io::{Read, ReadReady, Write};
use rand_core::Rng;

use crate::address::Address;
use crate::counters::Counters;
use crate::engine::MacCore;
use crate::event::{Delivery, Event, SendError};
use crate::frame::Frame;
use crate::time::TimeSource;

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

    /// Send `payload` to `dst` and wait until it is delivered or dropped.
    pub fn send(&mut self, dst: Address, payload: &[u8]) -> Result<Delivery, SendError> {
        self.send_with(dst, payload, |_| {})
    }

    /// [`send`](Self::send), calling `on_event` for every event on the way
    /// (attempts, collisions, backoffs, frames received meanwhile).
    pub fn send_with(
        &mut self,
        dst: Address,
        payload: &[u8],
        mut on_event: impl FnMut(Event),
    ) -> Result<Delivery, SendError> {
        self.core.enqueue(dst, payload)?;
        loop {
            let now = self.time.now_ns();
            match self.core.poll(&mut self.io, now) {
                Some(event) => {
                    on_event(event);
                    match event {
                        Event::Delivered { attempts } => return Ok(Delivery { attempts }),
                        Event::Dropped { reason, .. } => return Err(SendError::Dropped(reason)),
                        _ => {}
                    }
                }
                None => self.delay.delay_ns(self.poll_ns),
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
                None => self.delay.delay_ns(self.poll_ns),
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
