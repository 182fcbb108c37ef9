//! The backoff explorer: the distribution of the delay a station waits after its
//! c-th collision, and of the total backoff of a frame that collides c times, drawn
//! from `backoff-core` (through the model's [`Backoff`]) beside the closed forms.
//!
//! After the c-th collision the backoff is `r` slots, `r` uniform in `[0, W(c))`
//! (for BEB `W(c) = 2^min(c, backoffLimit)`, IEEE 802.3 clause 4.2.3.2.5), so its
//! mean is `E(c) = (W(c) − 1)/2`. The total over collisions `1..=c` is a sum of
//! independent uniforms: its exact distribution is their convolution, its mean
//! `ΣE(i)` and its variance `Σ(W(i)² − 1)/12`.
//!
//! ```
//! use csma_cd::scenario::Scenario;
//! let v = macsim_web::explorer::explore(&Scenario::default(), 3, 10_000, 1).unwrap();
//! assert_eq!(v["window"], 8);
//! assert_eq!(v["expected_slots"], 3.5);
//! ```

use backoff_core::Decision;
use csma_cd::backoff::Backoff;
use csma_cd::scenario::Scenario;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serde_json::{Value, json};

/// Bins of a histogram at most.
pub const BINS: u64 = 64;

/// The most draws one call makes.
pub const MAX_SAMPLES: u32 = 1_000_000;

/// The widest total the explorer tabulates, slots.
pub const MAX_SLOTS: u64 = 1 << 22;

/// A histogram of `counts` over `0..=max` slots in bins of equal width, with the
/// closed form's probability of each bin from `pmf` (indexed by slots).
fn histogram(max: u64, counts: &[u64], pmf: &[f64], samples: u32) -> Value {
    let width = (max + 1).div_ceil(BINS).max(1);
    let bins = (max + 1).div_ceil(width) as usize;
    let mut drawn = vec![0u64; bins];
    let mut expected = vec![0f64; bins];
    for (slots, &n) in counts.iter().enumerate() {
        drawn[slots / width as usize] += n;
    }
    for (slots, &p) in pmf.iter().enumerate() {
        expected[slots / width as usize] += p;
    }
    let drawn: Vec<f64> = drawn
        .iter()
        .map(|&n| n as f64 / f64::from(samples.max(1)))
        .collect();
    json!({ "bin_slots": width, "drawn": drawn, "closed_form": expected })
}

/// The distribution after `collisions` collisions under `sc`'s backoff algorithm
/// and limits, from `samples` draws of a generator seeded with `seed`.
///
/// # Errors
///
/// `sc` is not a valid scenario, `collisions` is not in `1..attemptLimit` (after
/// the last attempt the frame is dropped, not backed off), or `samples` is 0 or more
/// than [`MAX_SAMPLES`].
pub fn explore(sc: &Scenario, collisions: u32, samples: u32, seed: u64) -> Result<Value, String> {
    let cfg = sc.to_config().map_err(|e| e.to_string())?;
    let beb = cfg.beb().map_err(|e| e.to_string())?;
    let backoff = Backoff::new(cfg.backoff, beb);
    let last = cfg.attempt_limit.saturating_sub(1);
    if collisions == 0 || collisions > last {
        return Err(format!(
            "collisions: {collisions} is out of range: a frame backs off after collisions 1..={last} (attempt_limit {})",
            cfg.attempt_limit
        ));
    }
    if samples == 0 || samples > MAX_SAMPLES {
        return Err(format!(
            "samples: {samples} is out of range 1..={MAX_SAMPLES}"
        ));
    }
    let windows: Vec<u64> = (1..=collisions).map(|c| backoff.window(c)).collect();
    let w = windows[windows.len() - 1];
    let total_max: u64 = windows.iter().map(|w| w - 1).sum();
    if total_max > MAX_SLOTS {
        return Err(format!(
            "collisions: the windows up to collision {collisions} span {total_max} slots, more than the explorer draws ({MAX_SLOTS})"
        ));
    }

    let mut rng = XorShiftRng::seed_from_u64(seed);
    let mut after = vec![0u64; w as usize];
    let mut total = vec![0u64; total_max as usize + 1];
    let (mut sum_after, mut sum_total) = (0f64, 0f64);
    for _ in 0..samples {
        let mut t = 0u64;
        for c in 1..=collisions {
            let Decision::Retry { slots } = backoff.decide(c, &mut rng) else {
                return Err(format!(
                    "collisions: the backoff discarded the frame after collision {c}"
                ));
            };
            t += u64::from(slots);
            if c == collisions {
                after[slots as usize] += 1;
                sum_after += f64::from(slots);
            }
        }
        total[t as usize] += 1;
        sum_total += t as f64;
    }

    // The exact distribution of the total: the convolution of the uniforms, each
    // step a moving sum over the window.
    let mut pmf = vec![1.0f64];
    for &wi in &windows {
        let mut prefix = vec![0f64; pmf.len() + 1];
        for (i, p) in pmf.iter().enumerate() {
            prefix[i + 1] = prefix[i] + p;
        }
        let len = pmf.len() + wi as usize - 1;
        pmf = (0..len)
            .map(|s| {
                let hi = (s + 1).min(pmf.len());
                let lo = (s + 1).saturating_sub(wi as usize);
                (prefix[hi] - prefix[lo]) / wi as f64
            })
            .collect();
    }
    let uniform = vec![1.0 / w as f64; w as usize];
    let expected: Vec<f64> = (1..=last).map(|c| backoff.expected(c)).collect();
    let n = f64::from(samples);
    Ok(json!({
        "collisions": collisions,
        "window": w,
        "windows": windows,
        "samples": samples,
        "expected_slots": backoff.expected(collisions),
        "mean_slots": sum_after / n,
        "after": histogram(w - 1, &after, &uniform, samples),
        "total_expected_slots": windows.iter().map(|&w| (w as f64 - 1.0) / 2.0).sum::<f64>(),
        "total_sd_slots": windows.iter().map(|&w| ((w * w) as f64 - 1.0) / 12.0).sum::<f64>().sqrt(),
        "total_mean_slots": sum_total / n,
        "total": histogram(total_max, &total, &pmf, samples),
        "expected_by_collision": expected,
        "slot_us": cfg.phy.slot_bits as f64 * 1e6 / cfg.phy.bit_rate as f64,
    }))
}
