//! Integration tests of the storm model through the crate's public API, one module per
//! subject, built as one test binary so that they are compiled and linked once:
//! `cargo test -p retry-storm --test integration`.

mod card;
mod files;
mod report;
mod storm;
