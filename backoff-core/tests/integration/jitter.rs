//! Each jitter kind: every value inside its documented range, for many attempts and
//! seeds, and the sample mean near the analytic mean.
//!
//! Tolerances: with `n` draws of a variable of standard deviation `σ`, the sample mean
//! has standard deviation `σ / √n`. Each mean check allows five of those (a fixed-seed
//! test that would fail by chance with probability below 1e-6 for a correct sampler,
//! and that catches any bias larger than that, e.g. an off-by-one-half of the range).

use backoff_core::{Fraction, Jitter, Policy, Ratio, RetryDecision, RetryState, Schedule};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

const SEEDS: [u64; 8] = [1, 2, 3, 42, 0xdead_beef, 1 << 40, u64::MAX, 7_777_777];
const DRAWS_PER_SEED: usize = 5_000;

fn schedule() -> Schedule {
    Schedule::constant_nanos(1_000_000_000)
}

/// Draw `DRAWS_PER_SEED` values per seed of `jitter` applied to `d`, check each is in
/// `[lo, hi]`, and return (mean, variance) of all of them.
fn sample(jitter: Jitter, d: u64, lo: u64, hi: u64) -> (f64, f64) {
    let s = schedule();
    let mut sum = 0f64;
    let mut sum_sq = 0f64;
    let mut n = 0f64;
    for seed in SEEDS {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        for _ in 0..DRAWS_PER_SEED {
            let v = jitter.apply_nanos(d, 0, &s, &mut rng);
            assert!(
                (lo..=hi).contains(&v),
                "{jitter:?}: {v} outside [{lo}, {hi}]"
            );
            // Shifted by d so the variance does not cancel catastrophically.
            let x = v as f64 - d as f64;
            sum += x;
            sum_sq += x * x;
            n += 1.0;
        }
    }
    let mean = sum / n;
    (mean + d as f64, sum_sq / n - mean * mean)
}

fn assert_mean(what: &str, mean: f64, expected: f64, sd: f64) {
    let n = (SEEDS.len() * DRAWS_PER_SEED) as f64;
    let tol = 5.0 * sd / n.sqrt();
    assert!(
        (mean - expected).abs() <= tol,
        "{what}: mean {mean}, expected {expected} ± {tol}"
    );
}

const D: u64 = 1_000_000_000; // 1 s
const ODD: u64 = 999_999_999;

#[test]
fn none_is_exact() {
    let (mean, var) = sample(Jitter::None, D, D, D);
    assert_eq!((mean, var), (D as f64, 0.0));
}

#[test]
fn full_jitter_is_uniform_zero_to_d() {
    for d in [D, ODD, 1, 0] {
        let (mean, _) = sample(Jitter::Full, d, 0, d);
        // U{0..d}: mean d/2, sd ≈ d/√12
        assert_mean("full", mean, d as f64 / 2.0, d as f64 / 12f64.sqrt() + 0.5);
    }
}

#[test]
fn equal_jitter_is_at_least_half() {
    for d in [D, ODD, 3] {
        let half = d / 2;
        let (mean, _) = sample(Jitter::Equal, d, d - half, d);
        // ⌈d/2⌉ + U{0..⌊d/2⌋}: mean ⌈d/2⌉ + ⌊d/2⌋/2, sd ≈ d/(2√12)
        let expected = (d - half) as f64 + half as f64 / 2.0;
        assert_mean(
            "equal",
            mean,
            expected,
            d as f64 / (2.0 * 12f64.sqrt()) + 0.5,
        );
    }
}

#[test]
fn proportional_cenkalti_and_grpc_ranges() {
    // cenkalti: f = 1/2 -> [0.5 d, 1.5 d]; gRPC: f = 1/5 -> [0.8 d, 1.2 d]
    for (f, lo, hi) in [
        (Fraction::HALF, D / 2, D + D / 2),
        (Fraction::ONE_FIFTH, D * 4 / 5, D * 6 / 5),
        (Fraction::ONE, 0, 2 * D),
        (Fraction::ZERO, D, D),
    ] {
        let (mean, _) = sample(Jitter::Factor(f), D, lo, hi);
        assert_mean(
            "proportional",
            mean,
            D as f64,
            (hi - lo) as f64 / 12f64.sqrt() + 0.5,
        );
    }
}

#[test]
fn proportional_factor_above_one_is_rejected() {
    // A factor above one cannot be built: the variant holds a `Fraction`.
    assert!(Jitter::proportional(Ratio::integer(2)).is_err());
    assert!(Fraction::from_ratio(Ratio::new(1_001, 1_000).unwrap()).is_err());
    assert_eq!(
        Jitter::proportional(Ratio::HALF),
        Ok(Jitter::Factor(Fraction::HALF))
    );
    // The largest factor, one: U(0, 2d), mean d.
    let (mean, _) = sample(Jitter::Factor(Fraction::ONE), D, 0, 2 * D);
    assert_mean(
        "proportional 1",
        mean,
        D as f64,
        2.0 * D as f64 / 12f64.sqrt(),
    );
}

#[test]
fn additive_adds_up_to_a() {
    let a = 1_000_000_000; // "up to 1000 random milliseconds"
    let (mean, _) = sample(Jitter::Additive { max_ns: a }, 4 * D, 4 * D, 4 * D + a);
    assert_mean(
        "additive",
        mean,
        (4 * D + a / 2) as f64,
        a as f64 / 12f64.sqrt(),
    );
}

#[test]
fn additive_saturates_instead_of_overflowing() {
    let s = schedule();
    let mut rng = XorShiftRng::seed_from_u64(5);
    let j = Jitter::Additive { max_ns: u64::MAX };
    for _ in 0..1000 {
        assert!(j.apply_nanos(u64::MAX - 10, 0, &s, &mut rng) >= u64::MAX - 10);
    }
}

#[test]
fn normal_has_mean_d_and_sd_jd() {
    // j = 1/10: sd = 0.1 s, tails at ±6 sd = [0.4 s, 1.6 s]; never clamped.
    let j = Ratio::new(1, 10).unwrap();
    let sd = D as f64 / 10.0;
    let (mean, var) = sample(Jitter::Normal(j), D, D * 4 / 10, D * 16 / 10);
    assert_mean("normal", mean, D as f64, sd);
    // The sample variance of ~normal data has relative sd √(2/n) = 0.7 %; allow 5 %.
    let rel = (var.sqrt() - sd).abs() / sd;
    assert!(rel < 0.05, "normal sd {} vs {sd}", var.sqrt());
}

#[test]
fn normal_shape_is_close_to_gaussian() {
    // P(|Z| <= 1) = 0.6827, P(|Z| <= 2) = 0.9545 for a normal variate (Irwin–Hall of
    // order 12: 0.6812 and 0.9566). With 40 000 draws the sd of a frequency is below
    // 0.0024; allow 0.01.
    let j = Ratio::new(1, 10).unwrap();
    let s = schedule();
    let sd = D / 10;
    let (mut within1, mut within2, mut n) = (0u32, 0u32, 0u32);
    for seed in SEEDS {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        for _ in 0..DRAWS_PER_SEED {
            let v = Jitter::Normal(j).apply_nanos(D, 0, &s, &mut rng);
            let dev = v.abs_diff(D);
            within1 += u32::from(dev <= sd);
            within2 += u32::from(dev <= 2 * sd);
            n += 1;
        }
    }
    let p1 = f64::from(within1) / f64::from(n);
    let p2 = f64::from(within2) / f64::from(n);
    assert!((p1 - 0.6827).abs() < 0.01, "P(|Z|<=1) = {p1}");
    assert!((p2 - 0.9545).abs() < 0.01, "P(|Z|<=2) = {p2}");
}

#[test]
fn normal_is_clamped_at_zero_not_wrapped() {
    // j = 1: P(d + N(0, d²) < 0) = P(Z < -1) ≈ 0.159 (Irwin–Hall: 0.159 too); those
    // draws must come out as 0, never as a huge wrapped value.
    let (mean, _) = sample(Jitter::Normal(Ratio::ONE), D, 0, 7 * D);
    assert!(mean > D as f64, "clamping can only raise the mean: {mean}");
    let s = schedule();
    let mut rng = XorShiftRng::seed_from_u64(11);
    let zeros = (0..20_000)
        .filter(|_| Jitter::Normal(Ratio::ONE).apply_nanos(D, 0, &s, &mut rng) == 0)
        .count();
    let p = zeros as f64 / 20_000.0;
    assert!((p - 0.1587).abs() < 0.015, "P(clamped) = {p}");
}

#[test]
fn decorrelated_stays_in_base_cap_and_grows_from_previous() {
    let base = 100_000_000u64; // 100 ms
    let cap = 10_000_000_000u64; // 10 s
    let p = Policy::new(Schedule::exponential_nanos(base, Ratio::ONE, cap).unwrap())
        .with_jitter(Jitter::Decorrelated);
    let mut first_sum = 0f64;
    let mut firsts = 0f64;
    for seed in SEEDS {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        for _ in 0..200 {
            let mut st = RetryState::new();
            let mut prev = base;
            for k in 0..40 {
                let RetryDecision::Retry { delay_ns } = st.on_failure(&p, 0, &mut rng) else {
                    panic!("no stop rule")
                };
                assert!(delay_ns >= base && delay_ns <= cap);
                assert!(delay_ns <= prev.saturating_mul(3).min(cap));
                if k == 0 {
                    first_sum += delay_ns as f64;
                    firsts += 1.0;
                }
                prev = delay_ns;
            }
        }
    }
    // The first delay is U(base, 3 base): mean 2 base, sd 2 base / √12.
    let mean = first_sum / firsts;
    let tol = 5.0 * (2.0 * base as f64 / 12f64.sqrt()) / firsts.sqrt();
    assert!((mean - 2.0 * base as f64).abs() <= tol, "{mean}");
}

#[test]
fn jitter_over_many_attempts_stays_in_range() {
    // An exponential schedule 1 ms · 2^n ≤ 60 s, every kind, 64 attempts, 8 seeds.
    let s = Schedule::exponential_nanos(1_000_000, Ratio::TWO, 60_000_000_000).unwrap();
    let kinds = [
        Jitter::None,
        Jitter::Full,
        Jitter::Equal,
        Jitter::Factor(Fraction::HALF),
        Jitter::Additive {
            max_ns: 1_000_000_000,
        },
        Jitter::Normal(Ratio::new(1, 10).unwrap()),
    ];
    for j in kinds {
        for seed in SEEDS {
            let mut rng = XorShiftRng::seed_from_u64(seed);
            for n in 0..64 {
                let d = s.base_after_nanos(n + 1);
                let v = j.apply_nanos(d, 0, &s, &mut rng);
                let (lo, hi) = match j {
                    Jitter::None => (d, d),
                    Jitter::Full => (0, d),
                    Jitter::Equal => (d - d / 2, d),
                    Jitter::Factor(_) => (d / 2, d + d / 2),
                    Jitter::Additive { max_ns } => (d, d + max_ns),
                    Jitter::Normal(_) => (d - 6 * d / 10, d + 6 * d / 10),
                    _ => unreachable!("not in the list"),
                };
                assert!(
                    (lo..=hi).contains(&v),
                    "{j:?} n={n}: {v} not in [{lo}, {hi}]"
                );
            }
        }
    }
}

#[test]
fn same_seed_same_delays() {
    let p = Policy::new(Schedule::exponential_nanos(1_000, Ratio::E, 1 << 40).unwrap())
        .with_jitter(Jitter::Normal(Ratio::HALF));
    let run = |seed| {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        let mut st = RetryState::new();
        (0..50)
            .map(|_| st.on_failure(&p, 0, &mut rng))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
}
