//! Closed forms the simulator is validated against.
//!
//! # Metcalfe & Boggs (1976)
//!
//! With Q stations always ready, each transmitting in a contention slot with
//! probability 1/Q, a slot is *acquired* (exactly one transmits) with probability
//! `A = (1 − 1/Q)^(Q−1)`; the mean number of wasted slots before an acquisition is
//! `W = (1 − A)/A`; and with frames of P bit times and slots of C bit times the
//! channel efficiency is `P / (P + W·C)`.
//!
//! # The mean BEB backoff
//!
//! After the c-th collision the backoff is uniform on `0 ..= 2^min(c,10) − 1` slots, so
//! `E(c) = (2^min(c,10) − 1)/2` (from `backoff_core::theory`, exact in half-slots).
//!
//! Powers are computed by repeated squaring, not `powf`, so printed tables are
//! identical on every machine.
//!
//! ```
//! use csma_cd::theory;
//! assert_eq!(theory::mb_acquisition(1), 1.0);
//! assert_eq!(theory::mb_acquisition(2), 0.5);
//! let e = theory::mb_efficiency(32, 1518.0 * 8.0, 512.0);
//! assert!((e - 0.9340).abs() < 1e-4);
//! assert_eq!(theory::beb_expected_backoff(&backoff_core::BebConfig::IEEE_802_3, 3), 3.5);
//! ```

use backoff_core::BebConfig;

use sim_kit::maths::powu;

/// `A = (1 − 1/Q)^(Q−1)`: the probability that exactly one of Q stations transmits
/// in a slot. `Q = 0` is treated as 1.
pub fn mb_acquisition(q: u64) -> f64 {
    if q <= 1 {
        return 1.0;
    }
    powu(1.0 - 1.0 / q as f64, q - 1)
}

/// `W = (1 − A)/A`: mean wasted contention slots per acquisition.
pub fn mb_wait_slots(q: u64) -> f64 {
    let a = mb_acquisition(q);
    (1.0 - a) / a
}

/// Efficiency `P / (P + W·C)` for frames of `p_bits` and slots of `c_bits` bit times.
pub fn mb_efficiency(q: u64, p_bits: f64, c_bits: f64) -> f64 {
    p_bits / (p_bits + mb_wait_slots(q) * c_bits)
}

/// `E(c)`, slots: the mean BEB backoff after the c-th collision.
pub fn beb_expected_backoff(beb: &BebConfig, c: u32) -> f64 {
    {
        let s = backoff_core::theory::expected_backoff(beb, c);
        s.floor() as f64 + if s.has_half() { 0.5 } else { 0.0 }
    }
}

/// Standard deviation of the BEB backoff after the c-th collision, slots:
/// `√((4^k − 1)/12)`.
pub fn beb_backoff_sd(beb: &BebConfig, c: u32) -> f64 {
    (backoff_core::theory::backoff_variance_twelfths(beb, c) as f64 / 12.0).sqrt()
}

/// The largest slot accepted, bit times (as [`RunConfig::validate`](crate::config::RunConfig::validate)).
pub const MAX_SLOT_BITS: u32 = 1 << 20;

/// `bits` if it is a slot the models accept: 1..=[`MAX_SLOT_BITS`] bit times.
///
/// # Errors
///
/// [`ConfigError::Timing`](crate::ConfigError::Timing) outside that range.
pub fn checked_slot(bits: u32) -> Result<u32, crate::ConfigError> {
    if (1..=MAX_SLOT_BITS).contains(&bits) {
        Ok(bits)
    } else {
        Err(crate::ConfigError::Timing {
            name: "slot",
            bits,
            min: 1,
            max: MAX_SLOT_BITS,
        })
    }
}
