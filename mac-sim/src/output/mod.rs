//! Reports: a text table for people, CSV and JSON for programs.

pub mod csv;
pub mod json;
pub mod storm;
pub mod text;
