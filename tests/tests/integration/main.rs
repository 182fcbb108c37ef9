//! The cross-crate checks, one module per subject, built as one test binary so that
//! they are compiled and linked once: `cargo test -p tests --test
//! integration`.

mod retry_async_tokio;
mod serial_mac_vs_slotted;
