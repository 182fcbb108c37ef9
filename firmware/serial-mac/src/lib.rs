//! # serial-mac
//!
//! A CSMA/CD medium access controller for several microcontrollers sharing one
//! half-duplex serial line: a single-wire UART bus (open-drain, one pull-up) or an
//! RS-485 pair. Every station hears its own transmission, and that is how it
//! detects collisions, byte by byte:
//!
//! * **Carrier sense**: a frame starts only after the line has been idle for an
//!   interframe gap (a number of byte times since the last byte seen).
//! * **Collision detection by read-back**: each byte written must come back
//!   unchanged before the next one is written. A different byte, a framing or noise
//!   error, or a byte arriving when no echo is due means a collision: the station
//!   stops, sends a jam, and backs off.
//! * **Backoff**: IEEE 802.3 truncated binary exponential backoff from
//!   [`backoff_core`], with a slot measured in byte times. After 16 attempts the
//!   frame is dropped and reported as
//!   [`DropReason::ExcessiveCollisions`]. Every frame handed to the MAC ends as
//!   [`Event::Delivered`] or [`Event::Dropped`] with a typed reason.
//! * **Framing** ([`frame`]: the format and `emit`): start delimiter, destination,
//!   source, length, a header check (CRC-16, so that a corrupted length cannot move
//!   the frame check), payload of up to `N` bytes (a `heapless` buffer), CRC-16. The
//!   receiver ([`rx`]: all parsing) resynchronises after garbage, checks the header
//!   and the CRC, filters by address, and counts and discards malformed, truncated,
//!   oversized, bad-header and bad-CRC frames.
//! * **Counters** ([`Counters`]) for everything, readable at any time.
//!
//! What every MAC shares comes from `mac-base` and is re-exported here: [`Address`],
//! [`crc`], [`TimeSource`], the errors ([`RxError`], [`FrameError`], [`SendError`]),
//! and [`Event`] and [`Counters`], which this crate completes with its drop reasons
//! ([`DropReason`]), its own events ([`BusEvent`]: collision, backoff) and its own
//! counters ([`BusCounters`]).
//!
//! The MAC is generic over `embedded-io` (`Read + Write + ReadReady`; embedded-hal 1.0
//! has no serial trait), a [`TimeSource`], `embedded_hal::delay::DelayNs` and a
//! `rand_core::Rng` that each device seeds itself (from a unique ID, say). There is
//! no `alloc` and no `unsafe`; all buffers live inside the MAC value, whose size is
//! fixed by its const generics.
//!
//! ## Two layers
//!
//! * [`MacCore`]: the state machine. [`MacCore::poll`] never blocks: it takes what
//!   the line delivered, checks the timers and writes at most one byte. The tests
//!   run many of them on one simulated line ([`sim`], feature `sim-bus`).
//!   [`MacCore::next_deadline_ns`] says when it next needs a poll if nothing
//!   arrives, so a device can sleep until then.
//! * [`Mac`]: the driver that owns the port, clock and delay. Poll-driven
//!   ([`Mac::submit`], [`Mac::poll`], [`Mac::take_received`]) for an application
//!   with other work, which keeps receiving while a frame waits, backs off and
//!   retries; or blocking: [`Mac::send_with`] returns when the frame is delivered or
//!   dropped and hands over each frame received meanwhile, [`Mac::receive`] waits
//!   for a frame, with a timeout. Size the receive queue with
//!   [`MacConfig::rx_queue_len`].
//!
//! ```
//! use serial_mac::{Address, Event, MacConfig, MacCore};
//! use rand_core::SeedableRng;
//!
//! // A port that echoes every byte: a healthy line with nobody else on it.
//! struct Loopback(Option<u8>);
//! impl embedded_io::ErrorType for Loopback { type Error = core::convert::Infallible; }
//! impl embedded_io::Read for Loopback {
//!     fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
//!         match (self.0.take(), buf.first_mut()) {
//!             (Some(b), Some(slot)) => { *slot = b; Ok(1) }
//!             _ => Ok(0),
//!         }
//!     }
//! }
//! impl embedded_io::ReadReady for Loopback {
//!     fn read_ready(&mut self) -> Result<bool, Self::Error> { Ok(self.0.is_some()) }
//! }
//! impl embedded_io::Write for Loopback {
//!     fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
//!         self.0 = buf.first().copied();
//!         Ok(buf.len().min(1))
//!     }
//!     fn flush(&mut self) -> Result<(), Self::Error> { Ok(()) }
//! }
//!
//! let config = MacConfig::new(Address(1), 115_200).unwrap();
//! let rng = rand_xorshift::XorShiftRng::seed_from_u64(0x5EED_0001);
//! let mut mac: MacCore<_, 32, 2> = MacCore::new(config, rng);
//! mac.enqueue(Address(2), b"hello").unwrap();
//!
//! let (mut line, mut now, byte) = (Loopback(None), 0u64, u64::from(config.byte_time_ns()));
//! let outcome = loop {
//!     match mac.poll(&mut line, now) {
//!         Some(Event::Delivered { attempts }) => break attempts,
//!         Some(_) => {}
//!         None => now += byte,
//!     }
//! };
//! assert_eq!(outcome, 1);
//! assert_eq!(mac.counters().tx_delivered, 1);
//! ```
//!
//! ## Features
//!
//! * `defmt`: `defmt::Format` for every public type.
//! * `sim-bus`: the in-memory shared bus [`sim`].
#![no_std]

pub mod blocking;
pub mod config;
pub mod counters;
pub mod engine;
pub mod event;
pub mod frame;
pub mod rx;
#[cfg(feature = "sim-bus")]
pub mod sim;

pub use blocking::Mac;
pub use config::MacConfig;
pub use counters::{BusCounters, Counters};
pub use engine::MacCore;
pub use event::{BusEvent, Delivery, DropReason, Event, SendError};
pub use frame::Frame;
pub use mac_base::{Address, FrameError, FrameErrorKind, RxError, RxErrorKind, TimeSource, crc};
