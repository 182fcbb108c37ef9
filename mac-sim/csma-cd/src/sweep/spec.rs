//! What a CSMA/CD sweep varies: any parameter of the schema ([`Scenario`]) as an
//! axis, each a list of values; the points are every combination of them, each a
//! scenario laid over the sweep's base. The sweep is the kit's one
//! [`sim_kit::sweep::SweepSpec`] of this model's scenario; the model adds how a point
//! is checked and keyed (`Sweepable`), what a sweep holds in memory ([`memory`]) and
//! how the doors' lists become a sweep ([`from_lists`]).
//!
//! ```
//! use csma_cd::sweep::{Axis, SweepSpec};
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

use crate::config::RunConfig;
use crate::error::ConfigError;
use crate::exact::memory::Observed;
use crate::scenario::{FieldError, Scenario};
use crate::sweep::key::point_key;
use sim_kit::memory::{Bytes, MemoryEstimate};
use sim_kit::sweep::{Sweepable, check_keys};

pub use sim_kit::sweep::RandomNumbers;

/// The most runs (points × replications) a sweep may ask for: every finished run's
/// results (about 1 KB) are held until the sweep ends.
pub const MAX_RUNS: u64 = 100_000;

/// One swept parameter: its key and its values, each a scenario that sets only it.
pub type Axis = sim_kit::schema::Axis<Scenario>;

/// A CSMA/CD sweep: the kit's sweep of this model's scenario.
pub type SweepSpec = sim_kit::sweep::SweepSpec<Scenario>;

/// A sweep parameter that cannot be accepted. `Display` is one line naming the
/// parameter.
pub type SpecError = sim_kit::sweep::SpecError<ConfigError>;

impl Sweepable for Scenario {
    const MAX_RUNS: u64 = MAX_RUNS;

    /// The checked configuration ([`Scenario::to_config`]), seed 0.
    fn point(&self) -> Result<RunConfig, FieldError> {
        let cfg = self.to_config()?;
        Ok(RunConfig { seed: 0, ..cfg })
    }

    /// The point's configuration as JSON with seed 0 ([`point_key`]): the identity
    /// every seed and database key of this model has been derived from.
    fn point_identity(c: &RunConfig) -> String {
        point_key(c)
    }
}

/// What a sweep holds at its peak (see [`estimate_memory`](crate::exact::estimate_memory)): the `threads`
/// largest of its `points` running at once, and every finished run's results,
/// held until the sweep ends.
pub fn memory(spec: &SweepSpec, points: &[RunConfig], threads: usize) -> MemoryEstimate {
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
    MemoryEstimate::at_once(&running, threads, kept.times(u64::from(spec.replications)))
}

/// The stations a sweep covers when no list and no base sets them: the reference
/// sweep's.
pub const DEFAULT_STATIONS: &str = "1..=256:x2";

/// The axes that nest as the sweep's charts expect them, innermost first; any other
/// swept parameter nests outside them, in the schema's order.
pub const CHART_AXES: [&str; 4] = ["stations", "load", "frames", "backoff"];

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
    check_keys(lists.iter().map(|(k, _)| k.as_str()))?;
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
            Err(SpecError::TooManyRuns {
                runs: 10_000_000,
                ..
            })
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
