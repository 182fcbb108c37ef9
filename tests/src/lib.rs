//! Cross-crate integration tests live in `tests/integration/`; this library is empty.
