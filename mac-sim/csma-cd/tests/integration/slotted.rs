//! The slotted model reproduces Metcalfe & Boggs.

use csma_cd::slotted::{SlottedConfig, run_slotted};
use csma_cd::theory;

/// Efficiency within 1 % of P/(P + W·C) for Q = 2, 10, 32 at 64- and 1518-byte frames.
///
/// Soundness of the threshold: the wasted slots per acquisition are geometric with
/// mean W and s.d. √(1−A)/A ≤ 2.2 slots, so over n = 200 000 acquisitions the
/// measured W has s.d. ≤ 0.005 slots; the efficiency's relative s.d. is at most
/// 0.005·C/(P + W·C) ≤ 0.2 %, making 1 % a five-sigma bound.
#[test]
fn slotted_matches_metcalfe_boggs_within_one_percent() {
    for q in [2u32, 10, 32] {
        for bytes in [64u64, 1518] {
            let cfg = SlottedConfig::new(q, bytes * 8, 512, 200_000, u64::from(q) * 7 + bytes);
            let r = run_slotted(&cfg).unwrap();
            let predicted = theory::mb_efficiency(q.into(), (bytes * 8) as f64, 512.0);
            assert_eq!(r.predicted_efficiency, predicted);
            let rel = (r.efficiency / predicted - 1.0).abs();
            assert!(
                rel < 0.01,
                "Q={q} {bytes}B: {} vs {predicted} ({rel})",
                r.efficiency
            );
            let a_rel = (r.acquisition / r.predicted_acquisition - 1.0).abs();
            assert!(
                a_rel < 0.02,
                "Q={q}: A {} vs {}",
                r.acquisition,
                r.predicted_acquisition
            );
            assert_eq!(r.successes, 200_000);
        }
    }
}

#[test]
fn slotted_is_deterministic_and_rejects_bad_input() {
    let cfg = SlottedConfig::new(16, 4096, 512, 10_000, 3);
    assert_eq!(run_slotted(&cfg).unwrap(), run_slotted(&cfg).unwrap());
    assert!(run_slotted(&SlottedConfig::new(0, 4096, 512, 10, 1)).is_err());
    assert!(run_slotted(&SlottedConfig::new(4, 0, 512, 10, 1)).is_err());
    let mut p = cfg;
    p.probability = Some(1.5);
    assert!(run_slotted(&p).is_err());
    p.probability = Some(f64::NAN);
    assert!(run_slotted(&p).is_err());
    // One station always acquires: efficiency 1.
    let one = run_slotted(&SlottedConfig::new(1, 4096, 512, 100, 1)).unwrap();
    assert_eq!(one.efficiency, 1.0);
    assert_eq!(one.collision_slots + one.idle_slots, 0);
}
