//! FNV-1a, 64 bits: a hash stable across machines, builds and versions (not a security
//! hash), for the identities of runs and campaigns and the seeds derived from them.
//!
//! ```
//! use sim_kit::hash::{fnv1a, fnv1a_from, FNV_OFFSET};
//! assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
//! assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
//! assert_eq!(fnv1a_from(fnv1a(b"a"), b"b"), fnv1a(b"ab"));
//! assert_eq!(fnv1a_from(FNV_OFFSET, b"ab"), fnv1a(b"ab"));
//! ```

/// FNV-1a's 64-bit offset basis: the hash of no bytes.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_OFFSET, bytes)
}

/// FNV-1a continued from the hash `h` of the bytes before.
pub fn fnv1a_from(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
