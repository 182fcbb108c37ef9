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

/// FNV-1a, 64 bits: a hash stable across machines, builds and versions (not a
/// security hash), for campaign identities and per-point seeds.
///
/// ```
/// assert_eq!(csma_cd::sweep::key::fnv1a(b""), 0xcbf2_9ce4_8422_2325);
/// assert_eq!(csma_cd::sweep::key::fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_OFFSET, bytes)
}

/// FNV-1a's 64-bit offset basis: the hash of no bytes.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a continued from the hash `h` of the bytes before.
pub fn fnv1a_from(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
