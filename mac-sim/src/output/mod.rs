//! Reports: a text table for people, CSV and JSON for programs, and the atomic file
//! writing every output file goes through.

pub mod atomic;
pub mod csv;
pub mod json;
pub mod storm;
pub mod text;
