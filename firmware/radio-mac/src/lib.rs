//! # radio-mac
//!
//! A CSMA/CA medium access controller for packet radios (LoRa, sub-GHz FSK,
//! 2.4 GHz 802.15.4-like links).
//!
//! A radio cannot hear itself while it sends, so unlike the serial MAC (which
//! detects a collision by reading back every byte) it **infers** a collision from a
//! missing acknowledgement, and it suffers hidden terminals (two stations that
//! cannot hear each other both reach a third).
//!
//! * **Channel access** ([`access`]): a named rule, chosen with
//!   [`MacConfig::with_access`]. The default, and the rule the radio board runs, is
//!   **IEEE 802.15.4 unslotted CSMA-CA** (IEEE 802.15.4-2020 clause 6.2.5.1,
//!   [`ChannelAccess::Ieee802154Unslotted`], macMinBE 3, macMaxBE 5,
//!   macMaxCSMABackoffs 4, macMaxFrameRetries 3): the crate is timed on that
//!   standard's 2.4 GHz PHY (its 320 µs unit backoff period is the slot), and where
//!   a model follows a published standard the project uses the published rule.
//!   Named options: [`ChannelAccess::Beb`], the project's earlier rule (clear channel
//!   for an interframe space of SIFS + 2 slots, then IEEE 802.3 truncated binary
//!   exponential backoff from [`backoff_core`] after a busy channel and after a
//!   missing ACK); and, with the cargo feature `dcf`, `ChannelAccess::DcfLike`, a
//!   simplified IEEE 802.11 DCF (clause 10.3) as in Bianchi's model (JSAC 18(3),
//!   2000), for host simulations.
//! * **Acknowledgements**: a unicast frame is delivered when its ACK (same sequence
//!   number) comes back within the ACK timeout, derived from the ACK's air time.
//!   Broadcast frames are sent once, without ACK. An owed ACK goes SIFS after its
//!   frame without carrier sense, under every rule. Every frame ends as
//!   [`Event::Delivered`] or [`Event::Dropped`] with a typed reason:
//!   [`DropReason::NoAck`] after the rule's last attempt,
//!   [`DropReason::ChannelBusy`] when carrier sense gives up (802.15.4's channel
//!   access failure).
//! * **Duplicates**: a receiver remembers the last sequence number of each of `P`
//!   peers; a retransmission after a lost ACK is acknowledged again, not delivered
//!   twice.
//! * **Frame protection** ([`frame`]): the serial MAC's header check (CRC-16 over the
//!   header before the length is trusted) and frame check.
//! * **Counters** ([`Counters`]), `defmt::Format` with the `defmt` feature.
//!
//! What every MAC shares comes from `mac-base` (not from the serial MAC) and is
//! re-exported here: [`Address`], the errors ([`RxError`], [`FrameError`],
//! [`SendError`]), and [`Event`] and [`Counters`], which this crate completes with its
//! drop reasons ([`DropReason`]), its own events ([`AirEvent`]: busy channel, ACK
//! timeout, duplicate) and its own counters ([`AirCounters`]).
//!
//! [`MacCore::poll`] never blocks and keeps receiving while a frame waits (the
//! serial MAC's design); [`MacCore::next_deadline_ns`] says when to poll next. The
//! chip is behind the four-method [`Radio`] trait. No `alloc`, no `unsafe`.
//!
//! ```
//! use radio_mac::sim::Channel;
//! use radio_mac::{Event, MacConfig, MacCore};
//! use rand_core::SeedableRng;
//! use radio_mac::Address;
//!
//! let air = MacConfig::IEEE_802_15_4_2450;
//! let mut channel = Channel::<2>::new(air, 7);
//! channel.link(0, 1, -60);
//! let rng = |s| rand_xorshift::XorShiftRng::seed_from_u64(s);
//! let mut a: MacCore<_, 32, 4> = MacCore::new(air.with_address(Address(1)).unwrap(), rng(1));
//! let mut b: MacCore<_, 32, 4> = MacCore::new(air.with_address(Address(2)).unwrap(), rng(2));
//! a.enqueue(Address(2), b"hello").unwrap();
//! let mut t = 0;
//! let attempts = loop {
//!     channel.set_now(t);
//!     let ev = a.poll(&mut channel.radio(0), t);
//!     b.poll(&mut channel.radio(1), t);
//!     channel.resolve();
//!     if let Some(Event::Delivered { attempts }) = ev { break attempts; }
//!     t += 16_000;
//! };
//! assert_eq!(attempts, 1);
//! assert_eq!(b.take_received().unwrap().payload(), b"hello");
//! ```
#![no_std]

pub mod access;
pub mod config;
pub mod counters;
pub mod engine;
mod error;
pub mod event;
pub mod frame;
pub mod phy;
pub mod radio;
pub mod region;
#[cfg(feature = "sim-radio")]
pub mod sim;

pub use access::{ChannelAccess, Countdown, CsmaCa, Dcf};
pub use config::MacConfig;
pub use counters::{AirCounters, Counters};
pub use engine::MacCore;
pub use event::{AirEvent, DropReason, Event, SendError};
pub use frame::Frame;
pub use mac_base::{Address, FrameError, FrameErrorKind, RxError, RxErrorKind};
pub use phy::{Bandwidth, CodingRate, LoRa, Phy};
pub use radio::Radio;
pub use region::DutyCycle;
