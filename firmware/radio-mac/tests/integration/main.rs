//! radio-mac's integration tests, in one test binary (one link, one process): each
//! module is one subject. Run one with a filter, e.g.
//! `cargo test -p radio-mac --test integration dcf`.
// The crate's lints forbid panics in the MAC; a test fails by panicking.
#![allow(
    clippy::panic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

mod channel;
mod common;
mod corruption;
mod dcf;
mod duty_cycle;
mod ieee802154;
mod phy;
