//! Integration tests of the storm model on a host through the crate's public API, one
//! module per subject, built as one test binary so that they are compiled and linked
//! once: `cargo test -p retry-storm-host --test integration`.

mod files;
mod storm;
