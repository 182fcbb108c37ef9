#![doc = include_str!("../README.md")]
#![no_std]
// On docs.rs (and in test.sh's documentation step): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(
    clippy::panic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::float_arithmetic,
    clippy::unreachable,
    clippy::todo,
    clippy::unimplemented,
    clippy::missing_errors_doc
)]

#[cfg(feature = "std")]
extern crate std;

pub mod adaptive;
pub mod answer;
pub mod beb;
pub mod breaker;
pub mod budget;
#[cfg(feature = "std")]
pub mod clock;
pub mod deadline;
#[cfg(feature = "embedded-hal")]
pub mod delay;
mod error;
pub mod gate;
pub mod hedge;
pub mod observe;
pub mod policy;
mod retrier;
pub mod retry;
pub mod slot;
pub mod theory;
mod time;
#[cfg(feature = "tower")]
pub mod tower;
pub mod uniform;
pub mod window;

pub use adaptive::AdaptiveRateLimiter;
pub use answer::{RetryAfterError, ServerAnswer, parse_grpc_pushback, parse_retry_after_seconds};
pub use beb::{BebConfig, Decision, FrameBackoff};
pub use breaker::{BreakerConfig, BreakerState, CircuitBreaker, RetryBreaker};
pub use budget::{QuotaFailure, RatioBudget, RetryQuota, TokenBudget, TtlBudget};
pub use deadline::Deadline;
pub use error::{ConfigError, ConfigErrorKind};
pub use hedge::{HedgeGuard, HedgedCall, HedgingPolicy};
pub use policy::{
    Fraction, Jitter, Policy, Ratio, RetryDecision, RetryState, Schedule, Stop, StopReason, presets,
};
pub use retrier::{Retrier, Verdict};
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
