//! Integration tests of the CSMA/CD model on a host (sweeps, the results database,
//! runs in slices) through the crate's public API, one module per subject, built as
//! one test binary so that they are compiled and linked once: `cargo test -p
//! csma-cd-host --test integration`. `common` holds the helpers they share.

mod common;

mod campaign;
mod sweep;
mod warmup;
