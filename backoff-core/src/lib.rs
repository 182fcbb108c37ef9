//! # backoff-core
//!
//! Truncated binary exponential backoff (BEB) exactly as IEEE 802.3 defines it, for
//! Ethernet MACs, serial-bus MACs, radios and any other code that must decide *when to
//! try again*.
//!
//! The crate is `#![no_std]`, uses no `alloc`, no floating point and no `unsafe`, and
//! owns no random number generator: randomness is injected through the
//! [`rand_core::Rng`] trait, so every result is reproducible from a seed and each device
//! seeds its own generator.
//!
//! ## The layers
//!
//! * [`uniform`]: exact, unbiased integer draws: a power-of-two window (the BEB draw)
//!   and any other range (rejection sampling, no modulo bias).
//! * [`beb`]: the rule itself. [`BebConfig`] holds the two parameters of clause
//!   4.2.3.2.5 (`backoffLimit`, `attemptLimit`), [`BebConfig::decide`] is the pure
//!   "given the collision count and an RNG, what now?" function, returning a
//!   [`Decision`]: retry after `r` slots, or discard the frame (excessive collisions).
//! * [`FrameBackoff`]: a small per-frame state value for a driver loop. It counts
//!   collisions, asks the rule, and is reset when the frame goes out.
//! * [`slot`]: slot times ([`SlotTime`]) for 10 Mb/s, 100 Mb/s and 1 Gb/s half duplex,
//!   and for any other medium, with overflow-free conversion of slots to nanoseconds
//!   and [`core::time::Duration`].
//! * [`theory`]: closed forms as `const fn`: the expected backoff after `c` collisions,
//!   its variance, the worst-case and expected total backoff before discard.
//! * `delay` (feature `embedded-hal`): a blocking wait of `r` slots through
//!   `embedded_hal::delay::DelayNs`.
//!
//! ## A driver loop
//!
//! ```
//! use backoff_core::{BebConfig, Decision, FrameBackoff, SlotTime};
//! use rand_xorshift::XorShiftRng;
//! use rand_core::SeedableRng;
//!
//! // Each station seeds its own generator (e.g. from its MAC address).
//! let mut rng = XorShiftRng::seed_from_u64(0x0200_5e00_0001);
//! let mut frame = FrameBackoff::new(BebConfig::IEEE_802_3);
//! let slot = SlotTime::ETHERNET_10M;
//!
//! // Pretend the medium is busy for the first three attempts.
//! let mut collisions_left = 3;
//! let mut waited_ns = 0u64;
//! let delivered = loop {
//!     let collided = collisions_left > 0; // transmit() would tell us this
//!     if !collided {
//!         frame.reset(); // success: the next frame starts over
//!         break true;
//!     }
//!     collisions_left -= 1;
//!     match frame.on_collision(&mut rng) {
//!         Decision::Retry { slots } => waited_ns += slot.backoff_nanos(slots),
//!         Decision::Discard => break false, // excessive collisions: report a drop
//!     }
//! };
//! assert!(delivered);
//! assert!(waited_ns <= (1 + 3 + 7) * 51_200);
//! ```
//!
//! ## No panics, no overflow
//!
//! No function reachable from the public API panics, for any argument: arithmetic is
//! checked or saturating, shifts are range-checked, and no slice is indexed. The crate
//! denies clippy's `panic`, `unwrap_used`, `expect_used`, `indexing_slicing`,
//! `arithmetic_side_effects` and `float_arithmetic` lints, and the property tests call
//! every public function with arbitrary arguments. Invalid parameters are rejected by
//! the constructors with a [`ConfigError`] whose [`ConfigError::kind`] says what was
//! wrong.
//!
//! ## Features
//!
//! * `defmt`: [`defmt::Format`](https://docs.rs/defmt) for every public type.
//! * `embedded-hal`: `delay::wait_slots`, a blocking wait through `DelayNs`.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![deny(
    clippy::panic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::float_arithmetic,
    clippy::unreachable,
    clippy::todo,
    clippy::unimplemented
)]

pub mod beb;
#[cfg(feature = "embedded-hal")]
pub mod delay;
mod error;
pub mod slot;
pub mod theory;
pub mod uniform;

pub use beb::{BebConfig, Decision, FrameBackoff};
pub use error::{ConfigError, ConfigErrorKind};
pub use slot::SlotTime;

/// The IEEE 802.3 constants of clause 4.2.3.2.5 and 4.4.2, by their names in the standard.
pub mod ieee802_3 {
    /// `backoffLimit`: the window stops doubling after this many collisions.
    pub const BACKOFF_LIMIT: u8 = 10;
    /// `attemptLimit`: a frame is discarded after this many attempts have all collided.
    pub const ATTEMPT_LIMIT: u32 = 16;
    /// `slotTime` for 10 Mb/s and 100 Mb/s: 512 bit times.
    pub const SLOT_BIT_TIMES: u32 = 512;
    /// `slotTime` for 1000 Mb/s half duplex (with carrier extension): 4096 bit times.
    pub const SLOT_BIT_TIMES_1G: u32 = 4096;
    /// `jamSize`: 32 bits.
    pub const JAM_BITS: u32 = 32;
    /// `interFrameGap`: 96 bits.
    pub const INTERFRAME_GAP_BITS: u32 = 96;
    /// Preamble (7 bytes) and start frame delimiter (1 byte): 64 bits.
    pub const PREAMBLE_SFD_BITS: u32 = 64;
}
