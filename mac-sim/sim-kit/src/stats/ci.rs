//! Means with 95 % confidence intervals over independent replications.
//!
//! For `n` replications with sample mean `x̄` and sample standard deviation `s`, the
//! interval is `x̄ ± t(0.975, n − 1) · s / √n` (Student's t: the replications are few,
//! so the normal quantile 1.96 would be too narrow — for 5 replications t is 2.776).
//! Everything is computed with `+ − × ÷ √`, which IEEE 754 rounds identically on every
//! machine, in the order the values are given: the same replications always give the
//! same bytes.
//!
//! ```
//! use sim_kit::stats::mean_ci95;
//! let e = mean_ci95(&[1.0, 2.0, 3.0, 4.0, 5.0]);
//! assert_eq!(e.mean, 3.0);
//! // s = √2.5, t(0.975, 4) = 2.776
//! assert!((e.half_width - 2.776445 * (2.5f64).sqrt() / 5f64.sqrt()).abs() < 1e-5);
//! assert!(e.lo() < 3.0 && e.hi() > 3.0);
//! ```

use serde::Serialize;

/// A mean over replications with the half-width of its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Sample mean.
    pub mean: f64,
    /// Half-width of the 95 % confidence interval; NaN (undefined) for fewer than 2
    /// values: one replication says nothing of the spread. Written `ci95`, as every
    /// table's interval column (`X_ci95`) is named.
    #[serde(rename = "ci95")]
    pub half_width: f64,
    /// Number of values.
    pub n: u32,
}

impl Estimate {
    /// Lower end of the interval; the mean when the interval is undefined.
    pub fn lo(&self) -> f64 {
        self.mean - self.spread()
    }

    /// Upper end of the interval; the mean when the interval is undefined.
    pub fn hi(&self) -> f64 {
        self.mean + self.spread()
    }

    /// The half-width where it is defined, else 0 (an interval drawn as its mean).
    fn spread(&self) -> f64 {
        if self.half_width.is_finite() {
            self.half_width
        } else {
            0.0
        }
    }
}

/// `t(0.975, df)` for df = 1..=30.
const T975: [f64; 30] = [
    12.706_204_7,
    4.302_652_7,
    3.182_446_3,
    2.776_445_1,
    2.570_581_8,
    2.446_911_8,
    2.364_624_3,
    2.306_004_1,
    2.262_157_2,
    2.228_138_9,
    2.200_985_2,
    2.178_812_8,
    2.160_368_7,
    2.144_786_7,
    2.131_449_5,
    2.119_905_3,
    2.109_815_6,
    2.100_922_0,
    2.093_024_1,
    2.085_963_4,
    2.079_613_8,
    2.073_873_1,
    2.068_657_6,
    2.063_898_6,
    2.059_538_6,
    2.055_529_4,
    2.051_830_5,
    2.048_407_1,
    2.045_229_6,
    2.042_272_5,
];

/// The 97.5 % quantile of Student's t with `df` degrees of freedom: tabulated up to
/// 30, beyond by the Cornish-Fisher expansion around the normal quantile (error below
/// 10⁻⁵ there). `df = 0` gives infinity.
///
/// ```
/// use sim_kit::stats::t975;
/// assert_eq!(t975(4), 2.7764451);
/// assert!((t975(1_000_000) - 1.959964).abs() < 1e-5);
/// ```
pub fn t975(df: u32) -> f64 {
    if df == 0 {
        return f64::INFINITY;
    }
    if let Some(&t) = T975.get(df as usize - 1) {
        return t;
    }
    let z = 1.959_963_984_540_054_f64;
    let v = f64::from(df);
    let z2 = z * z;
    let z3 = z2 * z;
    let z5 = z3 * z2;
    let z7 = z5 * z2;
    z + (z3 + z) / (4.0 * v)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v)
}

/// Mean and 95 % confidence half-width of `xs` (see the module docs). An empty slice
/// gives a NaN mean and half-width; one value a NaN half-width (undefined, not 0).
pub fn mean_ci95(xs: &[f64]) -> Estimate {
    let n = xs.len();
    if n == 0 {
        return Estimate {
            mean: f64::NAN,
            half_width: f64::NAN,
            n: 0,
        };
    }
    if n == 1 {
        return Estimate {
            mean: xs[0],
            half_width: f64::NAN,
            n: 1,
        };
    }
    let nf = n as f64;
    // Identical values: their mean exactly, with no rounding noise in the spread.
    if xs.iter().all(|&x| x == xs[0]) {
        return Estimate {
            mean: xs[0],
            half_width: 0.0,
            n: n as u32,
        };
    }
    let mean = xs.iter().sum::<f64>() / nf;
    let half_width = if n < 2 {
        0.0
    } else {
        let ss: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
        let s = (ss / (nf - 1.0)).sqrt();
        t975(n as u32 - 1) * s / nf.sqrt()
    };
    Estimate {
        mean,
        half_width,
        n: n as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_meets_the_table() {
        // The expansion at df = 30 against the tabulated value: the switch is seamless.
        let z = 1.959_963_984_540_054_f64;
        let v = 30.0;
        let approx = z
            + (z * z * z + z) / (4.0 * v)
            + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
            + (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z)
                / (384.0 * v * v * v);
        assert!((approx - t975(30)).abs() < 2e-5, "{approx}");
        // Decreasing towards the normal quantile.
        for df in 1..200 {
            assert!(t975(df) > t975(df + 1));
            assert!(t975(df) > z);
        }
    }

    #[test]
    fn constant_values_have_no_spread() {
        let e = mean_ci95(&[0.1; 7]);
        assert_eq!((e.mean, e.half_width, e.n), (0.1, 0.0, 7));
        // One value says nothing of the spread: undefined, and drawn as its mean.
        let one = mean_ci95(&[2.0]);
        assert!(one.half_width.is_nan());
        assert_eq!((one.mean, one.lo(), one.hi()), (2.0, 2.0, 2.0));
        assert!(mean_ci95(&[]).mean.is_nan() && mean_ci95(&[]).half_width.is_nan());
    }

    #[test]
    fn coverage_of_normal_samples_is_near_95_percent() {
        // 4000 intervals of 5 normal draws (Box-Muller from a fixed xorshift stream):
        // coverage is 0.95 ± 1.3 % (4 standard errors of a binomial proportion over
        // 4000 trials is 4·√(0.95·0.05/4000) = 1.4 %), so [0.935, 0.965] is a sound
        // acceptance band; z = 1.96 instead of t would cover only about 88 %.
        use rand_core::{Rng, SeedableRng};
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
        let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut covered = 0;
        let trials = 4000;
        for _ in 0..trials {
            let xs: Vec<f64> = (0..5)
                .map(|_| {
                    let (u1, u2) = (1.0 - unit(), unit());
                    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos() + 10.0
                })
                .collect();
            let e = mean_ci95(&xs);
            if e.lo() <= 10.0 && 10.0 <= e.hi() {
                covered += 1;
            }
        }
        let c = f64::from(covered) / f64::from(trials);
        assert!((0.935..=0.965).contains(&c), "coverage {c}");
    }
}
