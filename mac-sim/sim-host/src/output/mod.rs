//! Output files, written whole or not at all.
//!
//! * [`atomic`]: a file written under a temporary name beside its target and renamed
//!   when complete; an output directory checked before any work starts;
//! * [`set`]: a set of files that appears whole or not at all.

pub mod atomic;
pub mod set;
