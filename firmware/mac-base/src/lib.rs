//! # mac-base
//!
//! What the firmware's medium access controllers share, and nothing about any medium
//! or board (as `embedded-hal`'s companion crates and `embassy-net-driver` hold the
//! traits and types that drivers and stacks agree on):
//!
//! * [`Address`]: a one-byte station address, `0xFF` for broadcast;
//! * [`crc`]: CRC-16/CCITT-FALSE, bit by bit, for header and frame checks;
//! * [`TimeSource`]: a monotonic nanosecond clock for the drivers' timeouts;
//! * the errors, each with a `kind()`: [`RxError`] (why a received frame was
//!   discarded), [`FrameError`] (why a frame could not be built or emitted); and
//!   [`SendError`] (why a frame was not sent);
//! * what every MAC reports: [`Event`] and [`Counters`], each generic over what only
//!   one MAC's medium has ([`Event::Medium`], [`Counters::medium`]) and, for events,
//!   over the MAC's drop reason.
//!
//! `serial-mac` (CSMA/CD on a wire) and `radio-mac` (CSMA/CA on the air) both build on
//! it, so that neither depends on the other, and a driver or an application that
//! needs the address or the clock (as `sx127x-radio` and `radio-board`) takes them
//! from here, not from a MAC.
//!
//! ```
//! use mac_base::{Address, RxError, RxErrorKind, crc};
//!
//! assert!(Address::BROADCAST.is_broadcast());
//! assert_eq!(crc::checksum(b"123456789"), 0x29B1);
//! let e = RxError::new(RxErrorKind::BadCrc);
//! assert_eq!((e.kind(), e.to_string().as_str()), (RxErrorKind::BadCrc, "CRC mismatch"));
//! ```
//!
//! ## Features
//!
//! * `defmt`: `defmt::Format` for every public type.
#![no_std]

pub mod address;
pub mod counters;
pub mod crc;
pub mod error;
pub mod event;
pub mod time;

pub use address::Address;
pub use counters::Counters;
pub use error::{FrameError, FrameErrorKind, RxError, RxErrorKind, SendError};
pub use event::Event;
pub use time::TimeSource;
