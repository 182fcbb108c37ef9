//! What a CSMA/CD sweep varies: any parameter of the schema
//! ([`Scenario`]) as an axis, each a list of values; the
//! points are every combination of them, each a scenario laid over the sweep's base.
//!
//! ```
//! use csma_cd::sweep::spec::{Axis, SweepSpec};
//! let spec = SweepSpec {
//!     axes: vec![
//!         Axis::parse("stations", "1..=256:x2").unwrap(),
//!         Axis::parse("frames", "64,512,1518").unwrap(),
//!         Axis::parse("slot_bits", "512,4096").unwrap(),
//!     ],
//!     ..SweepSpec::default()
//! };
//! assert_eq!(spec.points().unwrap().len(), 54);
//! let zero = SweepSpec { axes: vec![Axis::parse("stations", "0..=4").unwrap()], ..SweepSpec::default() };
//! assert_eq!(zero.validate().unwrap_err().to_string(), "stations: the number of stations must be at least 1");
//! assert_eq!(Axis::parse("load", "0.1..=1.0:0.1,saturated").unwrap().values.len(), 11);
//! ```

use std::fmt;

use crate::config::RunConfig;
use crate::exact::memory::Observed;
use crate::scenario::{FieldError, Scenario};
use crate::sweep::key::{fnv1a, point_key};
use sim_kit::maths::{replication_seed, split_seed};
use sim_kit::memory::{Bytes, MemoryEstimate};

/// The most runs (points × replications) a sweep may ask for: every finished run's
/// results (about 1 KB) are held until the sweep ends.
pub const MAX_RUNS: u64 = 100_000;

/// A sweep parameter that cannot be accepted. `Display` is one line naming the
/// parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecError {
    /// An axis, or a point, with a value that cannot be accepted: the parameter to
    /// blame and why.
    Field(FieldError),
    /// Zero replications.
    NoReplications,
    /// More runs than [`MAX_RUNS`].
    TooManyRuns(u64),
    /// The same parameter is an axis twice.
    AxisTwice(String),
    /// The seed as an axis: a sweep's runs take their seeds from the sweep's seed
    /// and the replications.
    SeedAxis,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Field(e) => write!(f, "{e}"),
            Self::NoReplications => write!(f, "replications: must be at least 1"),
            Self::TooManyRuns(n) => write!(
                f,
                "{n} runs (points x replications) is more than the {MAX_RUNS} a sweep may have"
            ),
            Self::AxisTwice(k) => write!(f, "{k}: swept twice; give its values in one list"),
            Self::SeedAxis => write!(
                f,
                "seed: a sweep's runs take their seeds from the sweep's --seed and --replications, so the seed is not an axis"
            ),
        }
    }
}

impl std::error::Error for SpecError {}

impl From<FieldError> for SpecError {
    fn from(e: FieldError) -> Self {
        Self::Field(e)
    }
}

/// One swept parameter: its key and its values, each a scenario that sets only it.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The parameter's key in the schema, e.g. `slot_bits`.
    pub key: String,
    /// The values, in the order points take them.
    pub values: Vec<Scenario>,
}

impl Axis {
    /// The axis of the parameter `key` from a list in its text form: comma-separated
    /// values, and for numbers ranges (`1..=256:x2`, `0.1..=1.0:0.1`).
    ///
    /// # Errors
    ///
    /// [`SpecError::Field`] naming the parameter: unknown, an empty or bad list, a
    /// value given twice.
    pub fn parse(key: &str, list: &str) -> Result<Axis, SpecError> {
        Ok(Axis {
            key: key.to_string(),
            values: Scenario::list(key, list)?,
        })
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

/// A sweep: the axes and everything that stays fixed.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSpec {
    /// Every parameter that is not swept (the defaults where it sets none); an axis
    /// overrides it. Its seed is not used: every run has its own.
    pub base: Scenario,
    /// The swept parameters; the first varies fastest, the last is outermost.
    pub axes: Vec<Axis>,
    /// Replications per point.
    pub replications: u32,
    /// The seed every replication's seed is derived from.
    pub seed: u64,
    /// Whether points share their random streams (see [`RandomNumbers`]).
    pub random_numbers: RandomNumbers,
}

impl Default for SweepSpec {
    /// The `mac-sim run` defaults as a one-point sweep with 5 replications.
    fn default() -> Self {
        Self {
            base: Scenario::default(),
            axes: Vec::new(),
            replications: 5,
            seed: 1,
            random_numbers: RandomNumbers::Independent,
        }
    }
}

impl SweepSpec {
    /// Every combination of the axes' values laid over the base, the first axis
    /// varying fastest, as checked configurations. Each point's seed is 0: its runs
    /// get theirs from [`Self::run_seed`].
    ///
    /// # Errors
    ///
    /// [`SpecError::Field`] for the first point whose configuration is invalid,
    /// naming the parameter to blame.
    pub fn points(&self) -> Result<Vec<RunConfig>, SpecError> {
        let mut out = Vec::new();
        let total: usize = self.axes.iter().map(|a| a.values.len()).product();
        for i in 0..total {
            let mut point = self.base.clone();
            let mut rest = i;
            for a in &self.axes {
                let n = a.values.len();
                point = point.overlay(&a.values[rest % n]);
                rest /= n;
            }
            let cfg = point.to_config()?;
            out.push(RunConfig { seed: 0, ..cfg });
        }
        Ok(out)
    }

    /// The seed of replication `r` of `point` (see [`RandomNumbers`]). It depends
    /// on the point's parameters, never on its place in the grid or on the other
    /// points, so a grown sweep, a shard and a resumed sweep give each run the same
    /// seed.
    pub fn run_seed(&self, point: &RunConfig, r: u32) -> u64 {
        let common = replication_seed(self.seed, r);
        match self.random_numbers {
            RandomNumbers::Common => common,
            RandomNumbers::Independent => split_seed(common, fnv1a(point_key(point).as_bytes())),
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

    /// Check the replications, the axes, the size of the sweep and every point's
    /// parameters before anything runs.
    ///
    /// # Errors
    ///
    /// [`SpecError`] for no replications, a parameter swept twice, more than
    /// [`MAX_RUNS`] runs, or the first point whose configuration is invalid.
    pub fn validate(&self) -> Result<Vec<RunConfig>, SpecError> {
        if self.replications == 0 {
            return Err(SpecError::NoReplications);
        }
        for (i, a) in self.axes.iter().enumerate() {
            if a.key == "seed" {
                return Err(SpecError::SeedAxis);
            }
            if self.axes[..i].iter().any(|b| b.key == a.key) {
                return Err(SpecError::AxisTwice(a.key.clone()));
            }
        }
        let n = self.runs();
        if n > MAX_RUNS {
            return Err(SpecError::TooManyRuns(n));
        }
        self.points()
    }
}

impl SweepSpec {
    /// What the sweep holds at its peak (see [`crate::exact::memory`]): the `threads`
    /// largest of its `points` running at once, and every finished run's results,
    /// held until the sweep ends.
    pub fn memory(&self, points: &[RunConfig], threads: usize) -> MemoryEstimate {
        let running: Vec<MemoryEstimate> = points
            .iter()
            .map(|p| crate::exact::memory::estimate(p, Observed::default()))
            .collect();
        let per_result = |p: &RunConfig| {
            Bytes::of::<crate::RunResult>(1)
                + Bytes::of::<u64>(u64::from(p.attempt_limit))
                + Bytes::kib(4)
        };
        let kept: Bytes = points.iter().map(per_result).sum();
        MemoryEstimate::at_once(&running, threads, kept.times(u64::from(self.replications)))
    }
}

/// The stations a sweep covers when no list and no base sets them: the reference
/// sweep's.
pub const DEFAULT_STATIONS: &str = "1..=256:x2";

/// The axes that nest as the sweep's charts expect them, innermost first; any other
/// swept parameter nests outside them, in the schema's order.
pub const CHART_AXES: [&str; 4] = ["stations", "load", "frames", "backoff"];

impl SweepSpec {
    /// The sweep of lists of values given by key (`(key, list text)`, as
    /// `--sweep KEY=LIST` or a parameter's flag with a list gives them) over `base`:
    /// the stations of [`DEFAULT_STATIONS`] when neither sets them, the axes ordered
    /// as [`CHART_AXES`] then the schema, and a list of one value laid over the base
    /// rather than made an axis. Every door that sweeps (the command line, Python)
    /// builds its sweep here, so the same arguments give the same points and seeds.
    ///
    /// # Errors
    ///
    /// [`SpecError::AxisTwice`] for a key given twice, [`SpecError::Field`] naming
    /// the parameter of a bad list.
    pub fn from_lists(
        base: Scenario,
        mut lists: Vec<(String, String)>,
        replications: u32,
        seed: u64,
        random_numbers: RandomNumbers,
    ) -> Result<SweepSpec, SpecError> {
        for (i, (k, _)) in lists.iter().enumerate() {
            if k == "seed" {
                return Err(SpecError::SeedAxis);
            }
            if lists[..i].iter().any(|(x, _)| x == k) {
                return Err(SpecError::AxisTwice(k.clone()));
            }
        }
        if base.stations.is_none() && !lists.iter().any(|(k, _)| k == "stations") {
            lists.push(("stations".into(), DEFAULT_STATIONS.into()));
        }
        let rank = |k: &str| {
            CHART_AXES.iter().position(|c| *c == k).unwrap_or_else(|| {
                CHART_AXES.len()
                    + crate::scenario::FIELDS
                        .iter()
                        .position(|f| f.key == k)
                        .unwrap_or(usize::MAX - CHART_AXES.len())
            })
        };
        lists.sort_by_key(|(k, _)| rank(k));
        let mut base = base;
        let mut axes = Vec::new();
        for (key, list) in lists {
            let axis = Axis::parse(&key, &list)?;
            match axis.values.as_slice() {
                [one] => base = base.overlay(one),
                _ => axes.push(axis),
            }
        }
        Ok(SweepSpec {
            base,
            axes,
            replications,
            seed,
            random_numbers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::BackoffAlgorithm;

    fn values(key: &str, list: &str) -> Result<Vec<String>, SpecError> {
        Ok(Axis::parse(key, list)?
            .values
            .iter()
            .map(|s| s.get(key).unwrap())
            .collect())
    }

    #[test]
    fn axes_parse_and_refuse() {
        assert_eq!(values("stations", "1,2,4").unwrap(), ["1", "2", "4"]);
        assert!(values("stations", "1.5").is_err());
        assert_eq!(
            values("load", "saturated,0.2,0.1").unwrap(),
            ["0.1", "0.2", "saturated"]
        );
        assert!(values("load", "0..=1:0.5").is_err()); // 0 is not a load
        assert!(values("load", "saturated,saturated").is_err());
        assert!(values("load", "").is_err());
        assert_eq!(values("frames", "64,1518").unwrap().len(), 2);
        assert_eq!(values("frames", "64-1518").unwrap(), ["64-1518"]);
        assert!(values("frames", "63").is_err() && values("frames", "64.5").is_err());
        assert!(values("frames", "64,64").is_err());
        assert_eq!(
            values("backoff", "beb,linear,poly:3,fixed").unwrap(),
            ["beb", "linear", "poly:3", "fixed:32"]
        );
        assert!(values("backoff", "beb,beb").is_err());
        assert!(values("backoff", "exp").is_err() && values("backoff", "poly:x").is_err());
        assert!(values("backoff", "beb:3").is_err());
        assert_eq!(values("slot_bits", "512,4096").unwrap(), ["512", "4096"]);
        assert_eq!(values("jam_rule", "preamble,immediate").unwrap().len(), 2);
        assert_eq!(
            values("medium", "10BASE5,100BASE-TX").unwrap(),
            ["10BASE5", "100BASE-TX"]
        );
        let e = Axis::parse("slot_bitz", "1").unwrap_err().to_string();
        assert!(e.starts_with("slot_bitz: unknown parameter"), "{e}");
    }

    #[test]
    fn points_nest_first_axis_fastest() {
        let s = SweepSpec {
            axes: vec![
                Axis::parse("stations", "1,2").unwrap(),
                Axis::parse("backoff", "beb,linear").unwrap(),
            ],
            ..SweepSpec::default()
        };
        let p = s.points().unwrap();
        assert_eq!(
            p.iter()
                .map(|c| (c.stations, c.backoff))
                .collect::<Vec<_>>(),
            [
                (1, BackoffAlgorithm::Beb),
                (2, BackoffAlgorithm::Beb),
                (1, BackoffAlgorithm::Polynomial { degree: 1 }),
                (2, BackoffAlgorithm::Polynomial { degree: 1 })
            ]
        );
    }

    #[test]
    fn validation() {
        let s = SweepSpec {
            replications: 0,
            ..SweepSpec::default()
        };
        assert_eq!(s.validate(), Err(SpecError::NoReplications));
        let s = SweepSpec {
            axes: vec![Axis::parse("backoff", "fixed:0").unwrap()],
            ..SweepSpec::default()
        };
        let e = s.validate().unwrap_err();
        assert!(e.to_string().starts_with("backoff: "), "{e}");
        let s = SweepSpec {
            axes: vec![Axis::parse("stations", "1..=100000").unwrap()],
            replications: 100,
            ..SweepSpec::default()
        };
        assert!(matches!(
            s.validate(),
            Err(SpecError::TooManyRuns(10_000_000))
        ));
        let s = SweepSpec {
            axes: vec![
                Axis::parse("stations", "1").unwrap(),
                Axis::parse("stations", "2").unwrap(),
            ],
            ..SweepSpec::default()
        };
        assert!(matches!(s.validate(), Err(SpecError::AxisTwice(_))));
        let s = SweepSpec {
            axes: vec![Axis::parse("seed", "1,2").unwrap()],
            ..SweepSpec::default()
        };
        assert_eq!(s.validate(), Err(SpecError::SeedAxis));
        assert_eq!(SweepSpec::default().validate().unwrap().len(), 1);
    }
}
