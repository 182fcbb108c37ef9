//! Closed forms of truncated BEB, exact and in integers.
//!
//! With `k = min(c, backoffLimit)` and window `m = 2^k`, the backoff `r` after the
//! `c`-th collision is uniform on `{0, ..., m - 1}`, so
//!
//! * `E(c) = (m - 1) / 2` slots, returned exactly as `m - 1` **half-slots** by
//!   [`expected_backoff_half_slots`];
//! * `Var(c) = (m² - 1) / 12` slots², returned exactly as `m² - 1` **twelfths** by
//!   [`backoff_variance_twelfths`].
//!
//! A frame is discarded after `attemptLimit` collisions, so it backs off after
//! collisions `1 ..= attemptLimit - 1`. Its worst-case total backoff is
//! `Σ (2^min(c, L) - 1)` slots over those collisions ([`worst_case_total_backoff_slots`]),
//! and its expected total backoff (given it keeps colliding) is half of that
//! ([`expected_total_backoff_half_slots`]). For IEEE 802.3 that is 7151 slots at worst
//! (366 ms at 10 Mb/s) and 3575.5 slots expected.
//!
//! ```
//! use backoff_core::{BebConfig, theory};
//! let beb = BebConfig::IEEE_802_3;
//! assert_eq!(theory::expected_backoff_half_slots(&beb, 1), 1); // E(1) = 0.5 slot
//! assert_eq!(theory::expected_backoff_half_slots(&beb, 10), 1023); // E(10) = 511.5 slots
//! assert_eq!(theory::expected_backoff_half_slots(&beb, 16), 1023); // truncated at k = 10
//! assert_eq!(theory::worst_case_total_backoff_slots(&beb), 7151);
//! ```
//!
//! Every function here is total: no argument overflows or panics.

use crate::beb::BebConfig;

/// `2^k - 1` for `k <= 32` (never overflows `u64`).
const fn window_max(k: u8) -> u64 {
    let k = if k > 32 { 32 } else { k };
    (1u64 << k).saturating_sub(1)
}

/// `E(c)` in half-slots: `2^min(c, L) - 1`, i.e. twice the mean backoff after the
/// `c`-th collision. `c = 0` gives 0.
pub const fn expected_backoff_half_slots(config: &BebConfig, collisions: u32) -> u64 {
    window_max(config.exponent(collisions))
}

/// `Var(c)` in twelfths of a slot²: `4^min(c, L) - 1`.
pub const fn backoff_variance_twelfths(config: &BebConfig, collisions: u32) -> u128 {
    let m = 1u128 << config.exponent(collisions);
    m.saturating_mul(m).saturating_sub(1)
}

/// The largest total backoff a frame can accumulate before it is discarded, in slots:
/// `Σ_{c=1}^{attemptLimit-1} (2^min(c, L) - 1)`.
///
/// Computed in closed form (no loop over the attempts), exact in `u128` for every
/// configuration.
pub const fn worst_case_total_backoff_slots(config: &BebConfig) -> u128 {
    let backoffs = config.attempt_limit().saturating_sub(1) as u128;
    let limit = config.backoff_limit() as u128;
    // Collisions 1..=g grow the window; g = min(L, backoffs).
    let growing = if limit < backoffs { limit } else { backoffs };
    // Σ_{c=1}^{g} (2^c - 1) = 2^(g+1) - 2 - g   (g <= 32, so 2^(g+1) <= 2^33)
    let rising = (1u128 << (growing as u32).saturating_add(1))
        .saturating_sub(2)
        .saturating_sub(growing);
    // The remaining backoffs all use the truncated window 2^L.
    let flat = backoffs
        .saturating_sub(growing)
        .saturating_mul(window_max(config.backoff_limit()) as u128);
    rising.saturating_add(flat)
}

/// The expected total backoff of a frame that collides on every attempt until discard,
/// in half-slots (equal to [`worst_case_total_backoff_slots`], since each backoff's
/// mean is half its maximum).
pub const fn expected_total_backoff_half_slots(config: &BebConfig) -> u128 {
    worst_case_total_backoff_slots(config)
}
