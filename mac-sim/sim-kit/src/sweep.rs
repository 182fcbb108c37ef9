//! The one sweep specification of every model: a base scenario, the swept
//! parameters ([`Axis`], each a list of values), the replications and the seed they
//! are derived from, and how points share random numbers. The points are every
//! combination of the axes' values, each laid over the base as files and flags are,
//! the first axis varying fastest; a model says only how a point becomes its checked
//! configuration and what a point's identity is ([`Sweepable`]).
//!
//! ```
//! use sim_kit::schema::{Axis, FieldError, Schema, ValueError};
//! use sim_kit::sweep::{RandomNumbers, SpecError, SweepSpec, Sweepable};
//! # #[derive(Clone, Debug, Default, PartialEq)]
//! # pub struct Config { pub n: u32, pub rate: f64, pub seed: u64 }
//! sim_kit::schema! {
//!     /// One run's parameters.
//!     pub struct Scenario for Config, error ValueError;
//!     /// Clients.
//!     clients: u32, short None, value "N", aliases [] => n;
//!     /// Rate.
//!     rate: f64, short None, value "R", aliases [] => rate;
//!     /// Seed.
//!     seed: u64, short None, value "S", aliases [] => seed;
//! }
//! impl Sweepable for Scenario {
//!     const MAX_RUNS: u64 = 100;
//!     fn point(&self) -> Result<Config, FieldError<ValueError>> {
//!         let c = self.apply_to(Config::default());
//!         if c.n == 0 {
//!             return Err(FieldError { key: "clients".into(), error: ValueError::List("at least 1".into()) });
//!         }
//!         Ok(Config { seed: 0, ..c })
//!     }
//! }
//! let spec = SweepSpec::<Scenario> {
//!     axes: vec![Axis::parse("clients", "1,2").unwrap(), Axis::parse("rate", "0.5..=1.5:0.5").unwrap()],
//!     replications: 2,
//!     ..SweepSpec::default()
//! };
//! let points = spec.validate().unwrap();
//! assert_eq!(points.iter().map(|c| c.n).collect::<Vec<_>>(), [1, 2, 1, 2, 1, 2]);
//! assert_eq!(spec.runs(), 12);
//! // A point's seeds depend on its parameters, not on its place in the grid.
//! let alone = SweepSpec::<Scenario> {
//!     axes: vec![Axis::parse("clients", "2").unwrap(), Axis::parse("rate", "0.5").unwrap()],
//!     ..spec.clone()
//! };
//! let at = |s: &SweepSpec<Scenario>, n: u32| s.validate().unwrap().into_iter().find(|c| c.n == n && c.rate == 0.5).unwrap();
//! assert_eq!(spec.run_seed(&at(&spec, 2), 1), alone.run_seed(&at(&alone, 2), 1));
//! let big = SweepSpec::<Scenario> { replications: 20, ..spec.clone() };
//! assert!(matches!(big.validate(), Err(SpecError::TooManyRuns { runs: 120, max: 100 })));
//! let zero = SweepSpec::<Scenario> { axes: vec![Axis::parse("clients", "0,1").unwrap()], ..SweepSpec::default() };
//! assert_eq!(zero.validate().unwrap_err().to_string(), "clients: at least 1");
//! let common = SweepSpec::<Scenario> { random_numbers: RandomNumbers::Common, ..spec.clone() };
//! assert_eq!(common.run_seed(&at(&spec, 1), 0), common.run_seed(&at(&spec, 2), 0));
//! ```

use core::fmt;

use crate::hash::fnv1a;
use crate::maths::{replication_seed, split_seed};
use crate::schema::{Axis, FieldError, Schema};

/// What a model adds to its schema to be swept: how a point's scenario becomes its
/// checked configuration, and the identity its seeds derive from.
pub trait Sweepable: Schema {
    /// The most runs (points × replications) one sweep may have.
    const MAX_RUNS: u64;

    /// This point's configuration, checked, with its seed at 0 (a sweep's runs get
    /// theirs from [`SweepSpec::run_seed`]).
    ///
    /// # Errors
    ///
    /// A [`FieldError`] naming the parameter to blame.
    fn point(&self) -> Result<Self::Config, FieldError<Self::Error>>;

    /// The canonical text of a point, which its seeds hash: by default its
    /// [`Schema::identity`] without the seed, so that a parameter added to the
    /// table at its default moves no seed.
    fn point_identity(c: &Self::Config) -> String {
        Self::identity(c, &["seed"])
    }
}

/// How the replications of different points draw their random numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RandomNumbers {
    /// Every run has its own streams: its seed is derived from the sweep seed, the
    /// point's parameters (a hash of its canonical text, not its place in the grid)
    /// and the replication. Points are statistically independent, so estimates
    /// pooled or compared across points have honest errors; adding points to a
    /// sweep changes none of the existing points' seeds. The default.
    #[default]
    Independent,
    /// Common random numbers: replication r of every point uses the same seed
    /// (derived from the sweep seed and r alone), so neighbouring points share random
    /// streams. Differences between points (one algorithm against another, say)
    /// are then less noisy, paired by replication, but the points are correlated:
    /// do not pool them as if independent.
    Common,
}

impl RandomNumbers {
    /// `independent` or `common`, as the results files name it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Independent => "independent",
            Self::Common => "common",
        }
    }
}

/// A sweep that cannot be accepted. `Display` is one line naming the parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecError<E> {
    /// An axis, or a point, with a value that cannot be accepted: the parameter to
    /// blame and why.
    Field(FieldError<E>),
    /// Zero replications.
    NoReplications,
    /// More runs (points × replications) than the model allows.
    TooManyRuns {
        /// The runs asked for (saturating).
        runs: u64,
        /// The most the model allows.
        max: u64,
    },
    /// The same parameter is an axis twice.
    AxisTwice(String),
    /// The seed as an axis: a sweep's runs take their seeds from the sweep's seed
    /// and the replications.
    SeedAxis,
}

impl<E: fmt::Display> fmt::Display for SpecError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Field(e) => write!(f, "{e}"),
            Self::NoReplications => write!(f, "replications: must be at least 1"),
            Self::TooManyRuns { runs, max } => write!(
                f,
                "{runs} runs (points x replications) is more than the {max} a sweep may have"
            ),
            Self::AxisTwice(k) => write!(f, "{k}: swept twice; give its values in one list"),
            Self::SeedAxis => write!(
                f,
                "seed: a sweep's runs take their seeds from the sweep's --seed and --replications, so the seed is not an axis"
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for SpecError<E> {}

impl<E> From<FieldError<E>> for SpecError<E> {
    fn from(e: FieldError<E>) -> Self {
        Self::Field(e)
    }
}

/// A sweep: the axes and everything that stays fixed.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSpec<S> {
    /// Every parameter that is not swept (the defaults where it sets none); an axis
    /// overrides it. Its seed is not used: every run has its own.
    pub base: S,
    /// The swept parameters; the first varies fastest, the last is outermost.
    pub axes: Vec<Axis<S>>,
    /// Replications per point.
    pub replications: u32,
    /// The seed every replication's seed is derived from.
    pub seed: u64,
    /// Whether points share their random streams (see [`RandomNumbers`]).
    pub random_numbers: RandomNumbers,
}

impl<S: Default> Default for SweepSpec<S> {
    /// The model's defaults as a one-point sweep with 5 replications, seed 1.
    fn default() -> Self {
        Self {
            base: S::default(),
            axes: Vec::new(),
            replications: 5,
            seed: 1,
            random_numbers: RandomNumbers::Independent,
        }
    }
}

impl<S: Sweepable> SweepSpec<S> {
    /// Every combination of the axes' values laid over the base, the first axis
    /// varying fastest, as scenarios.
    pub fn scenarios(&self) -> Vec<S> {
        let total: usize = self.axes.iter().map(|a| a.values.len()).product();
        (0..total)
            .map(|i| {
                let mut rest = i;
                self.axes.iter().fold(self.base.clone(), |point, a| {
                    let n = a.values.len();
                    let v = &a.values[rest % n];
                    rest /= n;
                    point.overlay(v)
                })
            })
            .collect()
    }

    /// Every point as its checked configuration ([`Sweepable::point`]), in the
    /// order of [`scenarios`](Self::scenarios).
    ///
    /// # Errors
    ///
    /// [`SpecError::Field`] for the first point whose configuration is invalid,
    /// naming the parameter to blame.
    pub fn points(&self) -> Result<Vec<S::Config>, SpecError<S::Error>> {
        self.scenarios()
            .iter()
            .map(|s| s.point().map_err(SpecError::Field))
            .collect()
    }

    /// The seed of replication `r` of `point` (see [`RandomNumbers`]). It depends
    /// on the point's parameters, never on its place in the grid or on the other
    /// points, so a grown sweep, a shard and a resumed sweep give each run the same
    /// seed.
    pub fn run_seed(&self, point: &S::Config, r: u32) -> u64 {
        let common = replication_seed(self.seed, r);
        match self.random_numbers {
            RandomNumbers::Common => common,
            RandomNumbers::Independent => {
                split_seed(common, fnv1a(S::point_identity(point).as_bytes()))
            }
        }
    }

    /// The runs of the sweep: points × replications (saturating).
    pub fn runs(&self) -> u64 {
        self.axes
            .iter()
            .try_fold(u64::from(self.replications), |a, x| {
                a.checked_mul(x.values.len() as u64)
            })
            .unwrap_or(u64::MAX)
    }

    /// Check the replications, the axes, the size of the sweep (at most
    /// [`Sweepable::MAX_RUNS`] runs) and every point's parameters before anything
    /// runs; the points.
    ///
    /// # Errors
    ///
    /// [`SpecError`] for no replications, the seed or a parameter swept twice, more
    /// than the model's most runs, or the first point whose configuration is invalid.
    pub fn validate(&self) -> Result<Vec<S::Config>, SpecError<S::Error>> {
        let max_runs = S::MAX_RUNS;
        if self.replications == 0 {
            return Err(SpecError::NoReplications);
        }
        check_keys(self.axes.iter().map(|a| a.key.as_str()))?;
        let runs = self.runs();
        if runs > max_runs {
            return Err(SpecError::TooManyRuns {
                runs,
                max: max_runs,
            });
        }
        self.points()
    }
}

/// Refuse the seed as an axis and a key swept twice, in the order given.
///
/// # Errors
///
/// [`SpecError::SeedAxis`], [`SpecError::AxisTwice`].
pub fn check_keys<'a, E>(keys: impl IntoIterator<Item = &'a str>) -> Result<(), SpecError<E>> {
    let mut seen: Vec<&str> = Vec::new();
    for k in keys {
        if k == "seed" {
            return Err(SpecError::SeedAxis);
        }
        if seen.contains(&k) {
            return Err(SpecError::AxisTwice(k.to_string()));
        }
        seen.push(k);
    }
    Ok(())
}
