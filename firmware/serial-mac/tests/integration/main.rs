//! serial-mac's integration tests, in one test binary (one link, one process): each
//! module is one subject. Run one with a filter, e.g.
//! `cargo test -p serial-mac --test integration shared_bus`.
// The crate's lints forbid panics in the MAC; a test fails by panicking.
#![allow(
    clippy::panic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

mod blocking;
mod common;
mod config;
mod corruption;
mod receive;
mod receive_while_sending;
mod shared_bus;
mod transmit;
