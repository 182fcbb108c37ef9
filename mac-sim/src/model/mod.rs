//! The models the engine runs.
//!
//! * [`csma_cd`]: the exact IEEE 802.3 half-duplex model, with propagation delay.
//! * [`slotted`]: the idealised Metcalfe & Boggs model in contention slots.
//! * [`textbook`]: a slot-by-slot loop over every station, the straightforward way to
//!   simulate BEB, kept as the baseline the benchmark compares against.

pub mod csma_cd;
pub mod slotted;
pub mod storm;
pub mod textbook;
