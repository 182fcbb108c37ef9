//! The identity of a sweep's run: the canonical text of its point and the stable
//! hashes built on it (a point's seeds, a campaign's id). Shared by the sweep
//! specification and the results database, which both depend on it.

use crate::config::RunConfig;

/// The canonical text of a point: its parameters as JSON, with seed 0.
pub fn point_key(point: &RunConfig) -> String {
    let p = RunConfig {
        seed: 0,
        ..point.clone()
    };
    serde_json::to_string(&p).unwrap_or_default()
}
