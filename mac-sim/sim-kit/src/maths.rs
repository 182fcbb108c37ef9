//! Deterministic floating-point helpers.
//!
//! `f64::ln` calls the platform's math library, whose last bit may differ between
//! machines; a simulator that promises byte-identical output everywhere cannot use it
//! to draw random variates. [`ln`] here uses only `+ − × ÷` (which IEEE 754 rounds
//! exactly the same everywhere) and bit manipulation.

use rand_core::Rng;

const LN_2: f64 = std::f64::consts::LN_2;

/// The natural logarithm of a positive, finite `x`, to within a few ulp, identical on
/// every IEEE 754 machine. Non-positive or non-finite input gives NaN.
///
/// ```
/// let x = sim_kit::maths::ln(10.0);
/// assert!((x - 10f64.ln()).abs() < 1e-15);
/// ```
pub fn ln(x: f64) -> f64 {
    if !(x > 0.0 && x.is_finite()) {
        return f64::NAN;
    }
    let mut bits = x.to_bits();
    let mut exp_adj = 0i64;
    if (bits >> 52) & 0x7ff == 0 {
        // Subnormal: scale into the normal range first.
        bits = (x * (1u64 << 54) as f64).to_bits();
        exp_adj = -54;
    }
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023 + exp_adj;
    // Mantissa in [1, 2).
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    // ln m = 2 atanh(s), s = (m − 1)/(m + 1), |s| < 0.172.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 40.0 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    2.0 * sum + e as f64 * LN_2
}

/// `base^exp` by repeated squaring (deterministic, unlike `powi`).
pub fn powu(base: f64, mut exp: u64) -> f64 {
    let mut acc = 1.0;
    let mut b = base;
    while exp > 0 {
        if exp & 1 == 1 {
            acc *= b;
        }
        b *= b;
        exp >>= 1;
    }
    acc
}

/// `e^x` from `+ − × ÷` only (identical on every IEEE 754 machine, unlike `f64::exp`),
/// to within a few ulp; `+∞` above 709, 0 below −700.
///
/// ```
/// let x = sim_kit::maths::exp(1.0);
/// assert!((x - std::f64::consts::E).abs() < 1e-15);
/// ```
pub fn exp(x: f64) -> f64 {
    if x > 709.0 {
        return f64::INFINITY;
    }
    if x < -700.0 {
        return 0.0;
    }
    // Cody-Waite: ln 2 split so that k · LN2_HI is exact (fdlibm's constants).
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    let k = (x / LN_2).round();
    let r = (x - k * LN2_HI) - k * LN2_LO; // |r| <= 0.35
    let (mut term, mut sum) = (1.0, 1.0);
    for i in 1..=22 {
        term *= r / f64::from(i);
        sum += term;
    }
    let two_k = powu(2.0, k.abs() as u64);
    if k >= 0.0 { sum * two_k } else { sum / two_k }
}

/// A standard normal variate (mean 0, standard deviation 1) by Marsaglia's polar
/// method: only [`ln`], `sqrt` (which IEEE 754 rounds exactly) and `+ − × ÷`, so the
/// same draws give the same value on every machine. Uses two or more draws of `rng`.
#[inline]
pub fn standard_normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let scale = 1.0 / (1u64 << 52) as f64;
    loop {
        // 53 bits each, uniform in [−1, 1).
        let u = (rng.next_u64() >> 11) as f64 * scale - 1.0;
        let v = (rng.next_u64() >> 11) as f64 * scale - 1.0;
        let s = u * u + v * v;
        if s > 0.0 && s < 1.0 {
            return u * (-2.0 * ln(s) / s).sqrt();
        }
    }
}

/// A uniform draw in `(0, 1]` with 53 random bits.
#[inline]
pub fn unit_open0<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    ((rng.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// An exponential variate with the given mean.
#[inline]
pub fn exponential<R: Rng + ?Sized>(rng: &mut R, mean: f64) -> f64 {
    -ln(unit_open0(rng)) * mean
}

/// The number of failures before the first success in Bernoulli(`p`) trials, given
/// `ln_q = ln(1 − p)` (pass `f64::NEG_INFINITY` for `p = 1`). Saturates at `u64::MAX`.
#[inline]
pub fn geometric<R: Rng + ?Sized>(rng: &mut R, ln_q: f64) -> u64 {
    if ln_q == f64::NEG_INFINITY {
        return 0;
    }
    let u = unit_open0(rng);
    let k = ln(u) / ln_q;
    if k >= u64::MAX as f64 {
        u64::MAX
    } else {
        k as u64
    }
}

/// The seed of replication `r` under the sweep seed `seed` (SplitMix64). It does not
/// depend on the point, so a point gives the same numbers in every sweep that
/// contains it, and neighbouring points share random streams (common random numbers,
/// which makes differences between points less noisy); replications of one point
/// are independent.
pub fn replication_seed(seed: u64, r: u32) -> u64 {
    split_seed(seed ^ 0x5745_4550_5345_4544, u64::from(r))
}

/// SplitMix64: derive independent 64-bit seeds from one seed and a stream number.
pub fn split_seed(seed: u64, stream: u64) -> u64 {
    let mut z = seed
        .wrapping_add(stream.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_matches_std_closely() {
        let mut x = 1e-300;
        while x < 1e300 {
            let a = ln(x);
            let b = x.ln();
            assert!(
                (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0),
                "{x}: {a} vs {b}"
            );
            x *= 1.7;
        }
        assert_eq!(ln(1.0), 0.0);
        assert!(ln(0.0).is_nan() && ln(-1.0).is_nan());
        assert!((ln(5e-324) - 5e-324f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn exp_matches_std() {
        let mut x = -50.0;
        while x < 50.0 {
            let (a, b) = (exp(x), x.exp());
            assert!((a - b).abs() <= 8.0 * f64::EPSILON * b, "{x}: {a} vs {b}");
            x += 0.37;
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(710.0), f64::INFINITY);
        assert_eq!(exp(-701.0), 0.0);
    }

    #[test]
    fn standard_normal_has_mean_0_and_sd_1() {
        use rand_core::SeedableRng;
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
        let n = 200_000;
        let (mut sum, mut sq, mut beyond) = (0.0, 0.0, 0);
        for _ in 0..n {
            let z = standard_normal(&mut rng);
            sum += z;
            sq += z * z;
            beyond += u32::from(z > 2.326_348);
        }
        let mean = sum / f64::from(n);
        let var = sq / f64::from(n) - mean * mean;
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 1.0).abs() < 0.02, "variance {var}");
        // P(Z > 2.326) = 1 %.
        let tail = f64::from(beyond) / f64::from(n);
        assert!((tail - 0.01).abs() < 0.001, "tail {tail}");
    }

    #[test]
    fn powu_exact_small() {
        assert_eq!(powu(0.5, 10), 1.0 / 1024.0);
        assert_eq!(powu(3.0, 0), 1.0);
    }
}
