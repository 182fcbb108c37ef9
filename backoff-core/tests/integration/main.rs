//! Integration tests of `backoff-core` through its public API, one module per subject
//! (the `beb_*` ones share `beb_support`), built as one test binary so that they are
//! compiled and linked once: `cargo test -p backoff-core --features
//! std,embedded-hal,embedded-hal-async,tokio --test integration`; one subject with a filter,
//! e.g. `... --test integration jitter::`.

mod beb_support;

mod adaptive;
mod beb_delay;
mod beb_distribution;
mod beb_props;
mod beb_rule;
mod beb_theory;
mod budget_breaker;
mod hedge;
mod jitter;
mod policy_props;
mod policy_rules;
mod presets;
mod retrier;
mod retry_deadline;
mod retry_features;
mod server_answers;
#[cfg(feature = "tokio")]
mod tower_policy;
