//! Integration tests of the CSMA/CD models through the crate's public API, one module
//! per subject, built as one test binary so that they are compiled and linked once:
//! `cargo test -p csma-cd --test integration`; one subject with a filter, e.g.
//! `cargo test -p csma-cd --test integration clause4_agreement::`.

mod clause4_agreement;
mod deference;
mod ethernet;
mod model;
mod observe;
mod slotted;
