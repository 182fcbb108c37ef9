//! Closed forms the radio simulator is checked against.
//!
//! # Bianchi (2000): saturated IEEE 802.11 DCF
//!
//! G. Bianchi, "Performance analysis of the IEEE 802.11 distributed coordination
//! function", IEEE JSAC 18(3), 2000. `n` saturated stations, all in range, a backoff
//! counter drawn uniformly from `[0, W_i − 1]` before every attempt, `W_i = 2^i W` up to
//! stage `m`, no retry limit. A station transmits in a slot with probability
//!
//! `τ = 2(1 − 2p) / ((1 − 2p)(W + 1) + pW(1 − (2p)^m))`
//!
//! and an attempt collides with probability `p = 1 − (1 − τ)^(n − 1)`. Written as
//! `τ = 2 / (1 + W + pW·Σ_{k<m} (2p)^k)` (the same expression without the removable
//! singularity at `p = 1/2`), `p − (1 − (1 − τ(p))^(n−1))` increases with `p`, so the
//! fixed point is unique and bisection finds it. The saturation throughput, the share of
//! time carrying successful payload, is
//!
//! `S = P_s P_tr E[P] / ((1 − P_tr)σ + P_tr P_s T_s + P_tr (1 − P_s) T_c)`
//!
//! with `P_tr = 1 − (1 − τ)^n`, `P_s = nτ(1 − τ)^(n−1) / P_tr`, `σ` the empty slot, `T_s`
//! and `T_c` the channel time of a success and of a collision.
//!
//! # Pure ALOHA and non-persistent CSMA
//!
//! With attempts forming a Poisson process of `G` attempts per frame time, a frame
//! survives when no other starts within its vulnerable period of `v` frame times:
//! `S = G e^(−vG)` (pure ALOHA: `v = 2`). Non-persistent CSMA with normalised
//! propagation (here: detection) delay `a` (Kleinrock & Tobagi, "Packet switching in
//! radio channels, part I", IEEE Trans. Commun. 23(12), 1975):
//! `S = G e^(−aG) / (G(1 + 2a) + e^(−aG))`.
//!
//! Powers are computed by repeated squaring (`sim_kit::maths`), so the figures are the
//! same on every machine.
//!
//! ```
//! use radio_sim::theory::{bianchi, BianchiTimes, pure_aloha, nonpersistent_csma};
//! // W = 32, m = 3, n = 10: p = 0.2989, tau = 0.0387 (the fixed point does not
//! // depend on the times).
//! let t = BianchiTimes { slot: 1.0, success: 100.0, collision: 100.0, payload: 80.0 };
//! let b = bianchi(10, 32, 3, t);
//! assert!((b.p - 0.2989).abs() < 1e-4 && (b.tau - 0.0387).abs() < 1e-4, "{b:?}");
//! assert!((pure_aloha(0.5, 2.0) - 0.5 * (-1.0f64).exp()).abs() < 1e-12);
//! assert!(nonpersistent_csma(1.0, 0.0) > 0.49 && nonpersistent_csma(1.0, 0.0) < 0.51);
//! ```

use serde::Serialize;
use sim_kit::maths::{exp, powu};

/// The times of Bianchi's throughput formula, in any one unit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BianchiTimes {
    /// An empty backoff slot, `σ`.
    pub slot: f64,
    /// The channel time of a successful attempt, `T_s` (frame, SIFS, ACK, DIFS).
    pub success: f64,
    /// The channel time of a collision, `T_c`, as the stations that did not take part
    /// see it (frame, DIFS).
    pub collision: f64,
    /// The part of a success that counts as throughput, `E[P]`.
    pub payload: f64,
}

/// Bianchi's fixed point and the throughput that follows.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BianchiPoint {
    /// Probability that a station transmits in a slot.
    pub tau: f64,
    /// Conditional collision probability of an attempt.
    pub p: f64,
    /// Saturation throughput: the share of channel time carrying successful payload.
    pub throughput: f64,
}

/// `τ(p)` for window `w` and `m` doublings.
fn tau_of(p: f64, w: u32, m: u32) -> f64 {
    let w = f64::from(w);
    let mut sum = 0.0;
    let mut term = 1.0;
    for _ in 0..m {
        sum += term;
        term *= 2.0 * p;
    }
    2.0 / (1.0 + w + p * w * sum)
}

/// Bianchi's model for `n` saturated stations (`n >= 1`), minimum window `w` (`>= 1`)
/// and maximum stage `m`.
pub fn bianchi(n: u32, w: u32, m: u32, times: BianchiTimes) -> BianchiPoint {
    let n = n.max(1);
    let w = w.max(1);
    let others = u64::from(n - 1);
    let excess = |p: f64| p - (1.0 - powu(1.0 - tau_of(p, w, m), others));
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if excess(mid) > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // One station never collides (the bisection would only approach 0).
    let p = if n == 1 { 0.0 } else { 0.5 * (lo + hi) };
    let tau = tau_of(p, w, m);
    let idle = powu(1.0 - tau, u64::from(n));
    let p_tr = 1.0 - idle;
    let one_success = f64::from(n) * tau * powu(1.0 - tau, others);
    let throughput = one_success * times.payload
        / (idle * times.slot
            + one_success * times.success
            + (p_tr - one_success) * times.collision);
    BianchiPoint { tau, p, throughput }
}

/// `S = G e^(−vG)`: throughput of attempts at `g` per frame time with a vulnerable period
/// of `v` frame times (pure ALOHA: `v = 2`; slotted: `v = 1`).
pub fn pure_aloha(g: f64, v: f64) -> f64 {
    g * exp(-v * g)
}

/// Non-persistent CSMA (Kleinrock & Tobagi 1975): `S = G e^(−aG) / (G(1 + 2a) + e^(−aG))`
/// for attempts at `g` per frame time and a normalised detection delay `a`.
pub fn nonpersistent_csma(g: f64, a: f64) -> f64 {
    let e = exp(-a * g);
    g * e / (g * (1.0 + 2.0 * a) + e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_point_satisfies_both_equations() {
        let t = BianchiTimes {
            slot: 1.0,
            success: 50.0,
            collision: 40.0,
            payload: 30.0,
        };
        for n in [2, 5, 10, 20, 50] {
            for (w, m) in [(16, 6), (32, 5), (128, 3)] {
                let b = bianchi(n, w, m, t);
                let wf = f64::from(w);
                let two_p = 2.0 * b.p;
                let direct = 2.0 * (1.0 - two_p)
                    / ((1.0 - two_p) * (wf + 1.0) + b.p * wf * (1.0 - powu(two_p, u64::from(m))));
                assert!((b.tau - direct).abs() < 1e-9, "{n} {w} {m}: {b:?} {direct}");
                let p = 1.0 - powu(1.0 - b.tau, u64::from(n - 1));
                assert!((b.p - p).abs() < 1e-9);
                assert!(b.throughput > 0.0 && b.throughput < 30.0 / 50.0 + 1e-12);
            }
        }
    }

    #[test]
    fn one_station_never_collides() {
        let t = BianchiTimes {
            slot: 1.0,
            success: 10.0,
            collision: 10.0,
            payload: 10.0,
        };
        let b = bianchi(1, 32, 5, t);
        assert_eq!(b.p, 0.0);
        // Mean backoff (W − 1)/2 = 15.5 empty slots per frame of 10.
        assert!((b.throughput - 10.0 / (10.0 + 15.5)).abs() < 1e-9, "{b:?}");
    }

    #[test]
    fn aloha_peaks_at_one_over_2e() {
        let best = (1..1000)
            .map(|i| pure_aloha(f64::from(i) / 1000.0, 2.0))
            .fold(0.0, f64::max);
        assert!((best - 1.0 / (2.0 * core::f64::consts::E)).abs() < 1e-6);
    }

    #[test]
    fn csma_without_delay_approaches_one() {
        assert!(nonpersistent_csma(100.0, 0.0) > 0.99);
        assert!(nonpersistent_csma(10.0, 0.1) < nonpersistent_csma(10.0, 0.01));
    }
}
