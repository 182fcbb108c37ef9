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
//! use csma_cd::Scenario;
//! let v = macsim_web::explorer::explore(&Scenario::default(), 3, 10_000, 1).unwrap();
//! assert_eq!(v["window"], 8);
//! assert_eq!(v["expected_slots"], 3.5);
//! ```

use backoff_core::Decision;
use csma_cd::Backoff;
use csma_cd::Scenario;
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

/// The exact distribution of the total backoff over windows `W(1), W(2), ...`: the
/// convolution of the uniforms on `[0, W(i))`, each step a moving sum over the
/// window; index: slots.
fn total_pmf(windows: &[u64]) -> Vec<f64> {
    let mut pmf = vec![1.0f64];
    for &wi in windows {
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
    pmf
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

    let pmf = total_pmf(&windows);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The regularized lower incomplete gamma function `P(a, x)`, by its series
    /// (converges for every `x`; the arguments here are below a few hundred).
    fn gamma_p(a: f64, x: f64) -> f64 {
        if x <= 0.0 {
            return 0.0;
        }
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, 1.0);
        while term > sum * 1e-17 {
            term *= x / (a + n);
            sum += term;
            n += 1.0;
        }
        // ln Γ(a) for a = df/2: half-integers and integers, exactly.
        let mut ln_gamma = if (a * 2.0).round() as u64 % 2 == 0 {
            0.0
        } else {
            std::f64::consts::PI.sqrt().ln()
        };
        let mut z = if ln_gamma == 0.0 { 1.0 } else { 0.5 };
        while z < a - 1e-9 {
            ln_gamma += z.ln();
            z += 1.0;
        }
        (sum.ln() - x + a * x.ln() - ln_gamma).exp()
    }

    /// The `p` quantile of the chi-square distribution with `df` degrees of freedom,
    /// by bisection on its CDF `P(df/2, x/2)`.
    fn chi2_quantile(df: usize, p: f64) -> f64 {
        let (mut lo, mut hi) = (0.0, 10.0 * df as f64 + 100.0);
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if gamma_p(df as f64 / 2.0, mid / 2.0) < p {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    #[test]
    fn the_chi_square_quantiles_are_the_tables() {
        // The 0.999 column of the chi-square table (e.g. NIST/SEMATECH e-Handbook,
        // 1.3.6.7.4), for the degrees of freedom of the windows 2..64.
        for (df, table) in [
            (1, 10.828),
            (3, 16.266),
            (7, 24.322),
            (15, 37.697),
            (31, 61.098),
            (63, 103.442),
        ] {
            let q = chi2_quantile(df, 0.999);
            assert!((q - table).abs() < 1e-3, "df {df}: {q} against {table}");
        }
    }

    fn numbers(v: &Value) -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    }

    /// Pearson's statistic of a histogram drawn from `n` samples against its closed
    /// form, and its degrees of freedom. Neighbouring bins are pooled until each
    /// expects at least 5 draws (the usual condition for the chi-square
    /// approximation), so the far tails of the total's distribution count as one
    /// bin each.
    fn chi_square(h: &Value, n: f64) -> (f64, usize) {
        let drawn = numbers(&h["drawn"]);
        let expected = numbers(&h["closed_form"]);
        assert_eq!(drawn.len(), expected.len());
        let mut cells: Vec<(f64, f64)> = Vec::new();
        let (mut o, mut e) = (0.0, 0.0);
        for (d, p) in drawn.iter().zip(&expected) {
            o += d * n;
            e += p * n;
            if e >= 5.0 {
                cells.push((o, e));
                (o, e) = (0.0, 0.0);
            }
        }
        if let Some(last) = cells.last_mut() {
            last.0 += o;
            last.1 += e;
        }
        let stat = cells.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
        (stat, cells.len() - 1)
    }

    /// Draws after each collision c = 1..=10 and over collisions 1..=c, for two
    /// seeds, against the closed forms. The thresholds: the chi-square statistic
    /// below its 0.999 quantile, and each mean within 4 standard errors of its
    /// expectation (a correct generator fails either with probability 0.001 and
    /// 6e-5; the seeds are fixed, so the outcome is too). A wrong window (one off,
    /// or not doubling) moves a 20 000-draw histogram's statistic into the
    /// thousands.
    #[test]
    fn draws_follow_the_closed_forms() {
        let sc = Scenario::default();
        let n = 20_000u32;
        for seed in [1u64, 0x5eed] {
            for c in 1..=10u32 {
                let v = explore(&sc, c, n, seed).unwrap();
                let w = 1u64 << c;
                assert_eq!(v["window"], w);
                let nf = f64::from(n);
                for part in ["after", "total"] {
                    let (stat, df) = chi_square(&v[part], nf);
                    let q = chi2_quantile(df, 0.999);
                    assert!(
                        stat < q,
                        "seed {seed}, c = {c}, {part}: chi-square {stat:.1} with {df} df, 0.999 quantile {q:.1}"
                    );
                }
                // E(c) = (W - 1)/2, variance (W^2 - 1)/12.
                let e = (w as f64 - 1.0) / 2.0;
                assert_eq!(v["expected_slots"], e);
                let se = (((w * w) as f64 - 1.0) / 12.0 / nf).sqrt();
                let mean = v["mean_slots"].as_f64().unwrap();
                assert!((mean - e).abs() < 4.0 * se, "c = {c}: mean {mean}, E {e}");
                let te = v["total_expected_slots"].as_f64().unwrap();
                let tse = v["total_sd_slots"].as_f64().unwrap() / nf.sqrt();
                let tmean = v["total_mean_slots"].as_f64().unwrap();
                assert!(
                    (tmean - te).abs() < 4.0 * tse,
                    "c = {c}: total {tmean}, E {te}"
                );
                // The drawn histograms are fractions of the draws.
                for part in ["after", "total"] {
                    let sum: f64 = numbers(&v[part]["drawn"]).iter().sum();
                    assert!((sum - 1.0).abs() < 1e-9, "{part}: {sum}");
                }
            }
        }
    }

    /// The closed form of the total is a distribution (sums to 1 within 1e-9: the
    /// rounding of a few thousand additions of doubles), with mean ΣE(i) and
    /// variance Σ(W(i)² − 1)/12, as the explorer states beside it.
    #[test]
    fn the_total_closed_form_is_the_sum_of_uniforms() {
        let sc = Scenario::default();
        for c in 1..=15u32 {
            let windows: Vec<u64> = (1..=c).map(|i| 1u64 << i.min(10)).collect();
            let pmf = total_pmf(&windows);
            let max: u64 = windows.iter().map(|w| w - 1).sum();
            assert_eq!(pmf.len() as u64, max + 1);
            assert!(pmf.iter().all(|&p| p >= 0.0));
            let sum: f64 = pmf.iter().sum();
            assert!((sum - 1.0).abs() < 1e-9, "c = {c}: sums to {sum}");
            let mean: f64 = pmf.iter().enumerate().map(|(s, p)| s as f64 * p).sum();
            let var: f64 = pmf
                .iter()
                .enumerate()
                .map(|(s, p)| (s as f64 - mean).powi(2) * p)
                .sum();
            let v = explore(&sc, c, 1, 1).unwrap();
            let te = v["total_expected_slots"].as_f64().unwrap();
            let sd = v["total_sd_slots"].as_f64().unwrap();
            assert!(
                (mean - te).abs() < 1e-9 * te.max(1.0),
                "c = {c}: {mean} against {te}"
            );
            assert!(
                (var.sqrt() - sd).abs() < 1e-9 * sd,
                "c = {c}: sd {} against {sd}",
                var.sqrt()
            );
            // Its bins, as the page draws them, hold all of it.
            let binned: f64 = numbers(&v["total"]["closed_form"]).iter().sum();
            assert!((binned - 1.0).abs() < 1e-9);
            // Symmetric about its mean, as a sum of symmetric uniforms is.
            for (s, p) in pmf.iter().enumerate() {
                assert!((p - pmf[max as usize - s]).abs() < 1e-12);
            }
        }
        // Two windows of 2 and 4: 1/8 on 0 and 4, 2/8 on 1, 2 and 3.
        let pmf = total_pmf(&[2, 4]);
        let want = [1.0, 2.0, 2.0, 2.0, 1.0].map(|x| x / 8.0);
        for (p, w) in pmf.iter().zip(want) {
            assert!((p - w).abs() < 1e-15);
        }
    }

    #[test]
    fn the_expected_backoff_is_the_models() {
        let v = explore(&Scenario::default(), 12, 10, 1).unwrap();
        // BEB stops doubling after 10 collisions.
        assert_eq!(v["window"], 1024);
        let e = numbers(&v["expected_by_collision"]);
        assert_eq!(e.len(), 15);
        for (i, x) in e.iter().enumerate() {
            let w = 1u64 << (i as u32 + 1).min(10);
            assert_eq!(*x, (w as f64 - 1.0) / 2.0);
        }
        // Another algorithm: linear backoff's window after c collisions is c + 1.
        let mut sc = Scenario::default();
        sc.set("backoff", "linear").unwrap();
        let v = explore(&sc, 5, 1000, 2).unwrap();
        assert_eq!(v["window"], 6);
        assert_eq!(v["windows"], json!([2, 3, 4, 5, 6]));
        assert_eq!(v["expected_slots"], 2.5);
    }

    #[test]
    fn bad_arguments_are_refused() {
        let sc = Scenario::default();
        let e = explore(&sc, 0, 10, 1).unwrap_err();
        assert_eq!(
            e,
            "collisions: 0 is out of range: a frame backs off after collisions 1..=15 (attempt_limit 16)"
        );
        // After the 16th collision the frame is dropped: no backoff to draw.
        assert!(explore(&sc, 15, 10, 1).is_ok());
        let e = explore(&sc, 16, 10, 1).unwrap_err();
        assert!(e.starts_with("collisions: 16 is out of range"), "{e}");
        let mut short = Scenario::default();
        short.set("attempt_limit", "3").unwrap();
        assert!(explore(&short, 2, 10, 1).is_ok());
        let e = explore(&short, 3, 10, 1).unwrap_err();
        assert!(e.contains("1..=2 (attempt_limit 3)"), "{e}");
        assert_eq!(
            explore(&sc, 1, 0, 1).unwrap_err(),
            format!("samples: 0 is out of range 1..={MAX_SAMPLES}")
        );
        assert!(
            explore(&sc, 1, MAX_SAMPLES + 1, 1)
                .unwrap_err()
                .starts_with("samples:")
        );
        // Windows wider than the explorer tabulates are refused, not allocated.
        let mut wide = Scenario::default();
        wide.set("backoff_limit", "32").unwrap();
        wide.set("attempt_limit", "1024").unwrap();
        let e = explore(&wide, 30, 10, 1).unwrap_err();
        assert!(e.contains("more than the explorer draws"), "{e}");
        // An invalid scenario says what the command line says.
        let bad = Scenario {
            stations: Some(0),
            ..Scenario::default()
        };
        assert_eq!(
            explore(&bad, 1, 10, 1).unwrap_err(),
            "stations: the number of stations must be at least 1"
        );
    }

    #[test]
    fn the_same_seed_draws_the_same() {
        let sc = Scenario::default();
        assert_eq!(
            explore(&sc, 4, 1000, 9).unwrap(),
            explore(&sc, 4, 1000, 9).unwrap()
        );
        assert_ne!(
            explore(&sc, 4, 1000, 9).unwrap()["after"],
            explore(&sc, 4, 1000, 10).unwrap()["after"]
        );
    }
}
