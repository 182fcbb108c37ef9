//! # backoff-core
//!
//! Truncated binary exponential backoff (BEB) exactly as IEEE 802.3 defines it, for
//! Ethernet MACs, serial-bus MACs, radios and any other code that must decide *when to
//! try again*, and the retry policies of real services (exponential backoff with
//! jitter, retry budgets, breakers, deadlines) under the same promises.
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
//! The retry policies of services and drivers build on the same draws:
//!
//! * [`policy`]: a [`Schedule`] (constant, or exponential `min(initial · m^n, max)` with
//!   the multiplier an exact [`Ratio`]), a [`Jitter`] kind (none, full, equal,
//!   decorrelated, proportional, additive, normal), [`Stop`] rules (attempts, the first
//!   one included; longest single delay; elapsed time), combined in a `Copy`
//!   [`Policy`]; the per-request state is a separate 16-byte [`RetryState`]. Time is
//!   always passed in as integer nanoseconds, so simulated time works as well as real.
//! * [`policy::presets`]: policies that reproduce documented systems (table below).
//! * [`budget`]: retry budgets: gRPC's token bucket ([`TokenBudget`]) and "retries at
//!   most X % of requests" with a minimum allowance ([`RatioBudget`]).
//! * [`window`]: a sliding time window of outcomes in `N` buckets, under
//!   [`breaker`]: the retry circuit breaker ([`RetryBreaker`]) and the closed / open /
//!   half-open [`CircuitBreaker`].
//! * [`deadline`]: will one more attempt finish before the [`Deadline`], and what
//!   timeout to propagate to it.
//! * [`retry`]: the retry loop over any [`retry::Timer`]; `retry_std` (feature `std`)
//!   and `retry_delay` (feature `embedded-hal`, `DelayNs`).
//!
//! ## Systems and their presets
//!
//! | system | in this crate | behaviour |
//! |---|---|---|
//! | IEEE 802.3 Ethernet CSMA/CD | [`BebConfig::IEEE_802_3`] | `U{0, …, 2^min(n,10) − 1}` slots, discard after 16 attempts |
//! | Go `cenkalti/backoff` defaults | [`presets::cenkalti`] | `0.5 s · 1.5^n` ≤ 60 s, `× U(0.5, 1.5)`, stop at 15 min |
//! | gRPC `retryPolicy` (gRFC A6) | [`presets::grpc_retry`] | `min(initial · mult^n, max) × U(0.8, 1.2)`, ≤ 5 attempts |
//! | gRPC `retryThrottling` | [`TokenBudget`] | −1 token per failure, +ratio per success, retry while > max/2 |
//! | Celery `retry_backoff` | [`presets::celery`] | `U(0, min(factor · 2^n, 600 s))`, 3 retries |
//! | APUE `connect_retry` | [`presets::apue_connect_retry`] | 1, 2, 4, …, 64 s, 8 attempts |
//! | AWS Architecture Blog, "Exponential Backoff And Jitter" | [`presets::aws_full_jitter`], [`aws_equal_jitter`](policy::presets::aws_equal_jitter), [`aws_decorrelated_jitter`](policy::presets::aws_decorrelated_jitter) | full, equal, decorrelated jitter |
//! | Google Cloud truncated exponential backoff | [`presets::google_cloud`] | `min(2^n s + U(0, 1000 ms), 32 or 64 s)` |
//! | Finagle / Envoy retry budget | [`RatioBudget`] | retries ≤ X % of requests + a minimum per second |
//! | "retry circuit breaker" (seed articles) | [`RetryBreaker`] | no retries while errors > 10 % |
//! | resilience4j circuit breaker | [`CircuitBreaker`], [`BreakerConfig::RESILIENCE4J`] | 50 %, min calls, open period, half-open probes |
//!
//! ## A service client
//!
//! ```
//! use backoff_core::{Deadline, RatioBudget, Ratio, RetryDecision, RetryState};
//! use backoff_core::policy::presets;
//! use rand_core::SeedableRng;
//!
//! let policy = presets::cenkalti();
//! // 10 % of requests, plus 10 retries per second for a quiet client.
//! let mut budget = RatioBudget::new(Ratio::from_percent(10), 10, 100).unwrap();
//! let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(42);
//!
//! let start = 0u64; // the caller's clock, in ns (real or simulated)
//! let deadline = Deadline::after(start, 5_000_000_000);
//! let mut now = start;
//! let mut state = RetryState::new();
//! budget.on_request(now);
//! let mut calls = 0;
//! loop {
//!     calls += 1;
//!     now += 100_000_000; // the call took 100 ms ...
//!     let failed = calls < 3; // ... and failed twice
//!     if !failed { break; }
//!     let RetryDecision::Retry { delay_ns } = state.on_failure(&policy, now - start, &mut rng) else { break };
//!     if !deadline.allows_attempt(now, delay_ns, 100_000_000) || !budget.try_retry(now) {
//!         break;
//!     }
//!     now += delay_ns;
//! }
//! assert_eq!(calls, 3);
//! ```
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
//! * `embedded-hal`: `delay::wait_slots`, a blocking wait through `DelayNs`, and
//!   `retry::retry_delay`, the retry loop over `DelayNs`.
//! * `std`: `retry::retry_std`, the retry loop on `std::time::Instant` and
//!   `std::thread::sleep`.
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

#[cfg(feature = "std")]
extern crate std;

pub mod beb;
pub mod breaker;
pub mod budget;
pub mod deadline;
#[cfg(feature = "embedded-hal")]
pub mod delay;
mod error;
pub mod policy;
pub mod retry;
pub mod slot;
pub mod theory;
pub mod uniform;
pub mod window;

pub use beb::{BebConfig, Decision, FrameBackoff};
pub use breaker::{BreakerConfig, BreakerState, CircuitBreaker, RetryBreaker};
pub use budget::{RatioBudget, TokenBudget};
pub use deadline::Deadline;
pub use error::{ConfigError, ConfigErrorKind};
pub use policy::{
    Jitter, Policy, Ratio, RetryDecision, RetryState, Schedule, Stop, StopReason, presets,
};
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
