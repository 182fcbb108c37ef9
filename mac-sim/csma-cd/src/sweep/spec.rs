//! What a CSMA/CD sweep varies: stations, offered load, frame size and backoff
//! algorithm, each a list; the points are every combination of them.
//!
//! ```
//! use csma_cd::sweep::spec::{SweepSpec, parse_stations, parse_frames, parse_loads, parse_backoffs};
//! let spec = SweepSpec {
//!     stations: parse_stations("1..=256:x2").unwrap(),
//!     frames: parse_frames("64,512,1518").unwrap(),
//!     loads: parse_loads("saturated").unwrap(),
//!     backoffs: parse_backoffs("beb").unwrap(),
//!     ..SweepSpec::default()
//! };
//! assert_eq!(spec.points().len(), 27);
//! assert!(parse_stations("0..=4").is_err());
//! assert!(parse_loads("0.1..=1.0:0.1,saturated").unwrap().len() == 11);
//! ```

use std::fmt;

use crate::config::{BackoffAlgorithm, FrameSizes, MAX_STATIONS, RunConfig, Traffic};
use crate::error::ConfigError;
use crate::parse;
use crate::sweep::key::{fnv1a, point_key};
use sim_kit::maths::replication_seed;
use sim_kit::maths::split_seed;
use sim_kit::range::{self, RangeError};
use sim_kit::time::Time;

/// The default simulated time of one replication: 10 s, the same as `mac-sim run`.
/// At 10 Mb/s that is about 8 000 full-size or 150 000 minimum-size frames per
/// replication. With 5 replications, over the 27 points of the reference sweep
/// (stations 1..=256:x2, frames 64,512,1518) the 95 % half-width of the utilisation
/// is at most 0.002 (median 0.0005), of the mean access delay at most 9 % of the
/// mean (median 2 %), of Jain's index at most 0.016; the sweep takes 3–6 s on two
/// cores. The utilisation bars hide behind the markers; pass a longer `--duration`
/// for tighter delay and p99 intervals.
pub const DEFAULT_DURATION_PS: Time = Time::from_secs(10);

/// The most runs (points × replications) a sweep may ask for: every finished run's
/// results (about 1 KB) are held until the sweep ends.
pub const MAX_RUNS: u64 = 100_000;

/// A sweep parameter that cannot be accepted. `Display` is one line naming the option.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecError {
    /// A value list that does not parse, with the option's name.
    Range(&'static str, RangeError),
    /// A value that parses but is not allowed, with the option's name.
    Value(&'static str, String),
    /// A point's configuration is invalid.
    Config(ConfigError),
    /// Zero replications.
    NoReplications,
    /// More runs than [`MAX_RUNS`].
    TooManyRuns(u64),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Range(opt, e) => write!(f, "--{opt}: {e}"),
            Self::Value(opt, e) => write!(f, "--{opt}: {e}"),
            Self::Config(e) => write!(f, "{e}"),
            Self::NoReplications => write!(f, "--replications must be at least 1"),
            Self::TooManyRuns(n) => write!(
                f,
                "{n} runs (points x replications) is more than the {MAX_RUNS} a sweep may have"
            ),
        }
    }
}

impl std::error::Error for SpecError {}

impl From<ConfigError> for SpecError {
    fn from(e: ConfigError) -> Self {
        Self::Config(e)
    }
}

/// Station counts: integers from 1 to 16 777 216.
///
/// # Errors
///
/// [`SpecError`] for a list that does not parse or a count outside
/// 1..=[`MAX_STATIONS`].
pub fn parse_stations(s: &str) -> Result<Vec<u32>, SpecError> {
    let v = range::values(s).map_err(|e| SpecError::Range("stations", e))?;
    v.into_iter()
        .map(|x| {
            if x.fract() != 0.0 || x < 1.0 || x > f64::from(MAX_STATIONS) {
                Err(SpecError::Value(
                    "stations",
                    format!("{x} is not a whole number of stations between 1 and {MAX_STATIONS}"),
                ))
            } else {
                Ok(x as u32)
            }
        })
        .collect()
}

/// Offered loads: numbers and ranges (fractions of the bit rate, above 0) and the
/// word `saturated` (every station always has a frame).
///
/// # Errors
///
/// [`SpecError`] for a list that does not parse or a load that is not allowed.
pub fn parse_loads(s: &str) -> Result<Vec<Traffic>, SpecError> {
    let mut out = Vec::new();
    let mut numeric = Vec::new();
    for item in s.split(',') {
        if item.trim() == "saturated" {
            if out.contains(&Traffic::Saturated) {
                return Err(SpecError::Value("load", "saturated is given twice".into()));
            }
            out.push(Traffic::Saturated);
        } else {
            numeric.push(item);
        }
    }
    if !numeric.is_empty() || out.is_empty() {
        let v = range::values(&numeric.join(",")).map_err(|e| SpecError::Range("load", e))?;
        for g in v {
            let load = parse::load(&g.to_string()).map_err(|_| {
                SpecError::Value(
                    "load",
                    format!("{g} must be above 0 (a fraction of the bit rate)"),
                )
            })?;
            out.push(Traffic::Poisson { load });
        }
    }
    // Loads in ascending order, saturated last: the order of the x axis.
    out.sort_by(|a, b| load_key(a).total_cmp(&load_key(b)));
    Ok(out)
}

fn load_key(t: &Traffic) -> f64 {
    match t {
        Traffic::Saturated => f64::INFINITY,
        Traffic::Poisson { load } => *load,
    }
}

/// Frame sizes, each a point of the sweep: bytes and ranges of bytes (each
/// 64..=1518), `MIN-MAX` items for a uniform mix, and weighted mixes.
///
/// A weighted mix is written as `mac-sim run --frame-bytes` takes it,
/// `BYTES:WEIGHT,...` (e.g. `64:7,594:4,1518:1`), when it is the whole list; beside
/// other items of the list its parts are joined by `+` instead (e.g.
/// `64,1518,64:7+594:4+1518:1`), the form the results files label it with. A mix is
/// checked as `run` checks it ([`parse::frame_sizes`]).
///
/// # Errors
///
/// [`SpecError`] for a list that does not parse, a size outside 64..=1518 bytes, a
/// bad mix, or a list that mixes plain sizes with `BYTES:WEIGHT` items.
pub fn parse_frames(s: &str) -> Result<Vec<FrameSizes>, SpecError> {
    let items: Vec<&str> = s.split(',').map(str::trim).collect();
    let weighted = |t: &str| t.contains(':') && !t.contains("..") && !t.contains('+');
    let mix =
        |t: &str| parse::frame_sizes(t).map_err(|e| SpecError::Value("frame-bytes", e.to_string()));
    // The whole list is one mix, in `run`'s syntax.
    if items.iter().all(|t| weighted(t)) {
        return Ok(vec![mix(s)?]);
    }
    if let Some(t) = items.iter().find(|t| weighted(t)) {
        return Err(SpecError::Value(
            "frame-bytes",
            format!(
                "'{t}' is a part of a weighted mix beside plain sizes: join a mix's parts with + (e.g. 64,64:7+594:4+1518:1)"
            ),
        ));
    }
    let mut out = Vec::new();
    let mut plain = Vec::new();
    for t in items {
        if t.contains('+') {
            out.push(mix(&t.replace('+', ","))?);
        } else if t.contains('-') && !t.contains("..") {
            out.push(mix(t)?);
        } else {
            plain.push(t);
        }
    }
    if !plain.is_empty() || out.is_empty() {
        for b in range::values(&plain.join(",")).map_err(|e| SpecError::Range("frame-bytes", e))? {
            if b.fract() != 0.0 || !(64.0..=1518.0).contains(&b) {
                return Err(SpecError::Value(
                    "frame-bytes",
                    format!("{b} bytes is not a whole IEEE 802.3 frame size (64..=1518)"),
                ));
            }
            out.push(FrameSizes::Fixed(b as u32));
        }
    }
    for (i, f) in out.iter().enumerate() {
        if out[..i].contains(f) {
            return Err(SpecError::Value(
                "frame-bytes",
                format!("{} is given twice", f.label()),
            ));
        }
    }
    Ok(out)
}

/// The short name of a backoff algorithm, as [`parse_backoffs`] reads it: `beb`,
/// `linear`, `poly:D`, `fixed:W`.
pub fn backoff_name(b: &BackoffAlgorithm) -> String {
    match b {
        BackoffAlgorithm::Beb => "beb".into(),
        BackoffAlgorithm::Polynomial { degree: 1 } => "linear".into(),
        BackoffAlgorithm::Polynomial { degree } => format!("poly:{degree}"),
        BackoffAlgorithm::Fixed { window } => format!("fixed:{window}"),
    }
}

/// Backoff algorithms: `beb`, `linear`, `poly` (degree 2) or `poly:D`, `fixed` (32
/// slots) or `fixed:W`.
///
/// # Errors
///
/// [`SpecError`] for an unknown algorithm or a parameter out of range.
pub fn parse_backoffs(s: &str) -> Result<Vec<BackoffAlgorithm>, SpecError> {
    let bad = |t: &str| {
        SpecError::Value(
            "backoff",
            format!(
                "'{t}' is not a backoff algorithm: use beb, linear, poly[:DEGREE] or fixed[:SLOTS]"
            ),
        )
    };
    let mut out = Vec::new();
    for item in s.split(',') {
        let t = item.trim();
        let (name, arg) = match t.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (t, None),
        };
        let num = |d: u32| -> Result<u32, SpecError> {
            match arg {
                None => Ok(d),
                Some(a) => a.trim().parse().map_err(|_| bad(t)),
            }
        };
        let b = match name {
            "beb" if arg.is_none() => BackoffAlgorithm::Beb,
            "linear" if arg.is_none() => BackoffAlgorithm::Polynomial { degree: 1 },
            "poly" => BackoffAlgorithm::Polynomial { degree: num(2)? },
            "fixed" => BackoffAlgorithm::Fixed { window: num(32)? },
            _ => return Err(bad(t)),
        };
        if out.contains(&b) {
            return Err(SpecError::Value("backoff", format!("'{t}' is given twice")));
        }
        out.push(b);
    }
    Ok(out)
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

/// A sweep: the lists of values and everything that stays fixed.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSpec {
    /// Every other parameter (duration, placement, bus, PHY, limits); its `stations`,
    /// `frames`, `traffic`, `backoff` and `seed` are replaced per point.
    pub base: RunConfig,
    /// Station counts.
    pub stations: Vec<u32>,
    /// Offered loads.
    pub loads: Vec<Traffic>,
    /// Frame sizes.
    pub frames: Vec<FrameSizes>,
    /// Backoff algorithms.
    pub backoffs: Vec<BackoffAlgorithm>,
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
        let base = RunConfig {
            duration_ps: DEFAULT_DURATION_PS,
            ..RunConfig::default()
        };
        Self {
            stations: vec![base.stations],
            loads: vec![base.traffic],
            frames: vec![base.frames.clone()],
            backoffs: vec![base.backoff],
            base,
            replications: 5,
            seed: 1,
            random_numbers: RandomNumbers::Independent,
        }
    }
}

impl SweepSpec {
    /// Every combination, backoff outermost, then frame size, load and stations
    /// innermost. Each point's seed is 0: its runs get theirs from [`Self::run_seed`].
    pub fn points(&self) -> Vec<RunConfig> {
        let mut out = Vec::new();
        for b in &self.backoffs {
            for f in &self.frames {
                for t in &self.loads {
                    for &n in &self.stations {
                        out.push(RunConfig {
                            stations: n,
                            frames: f.clone(),
                            traffic: *t,
                            backoff: *b,
                            seed: 0,
                            ..self.base.clone()
                        });
                    }
                }
            }
        }
        out
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
        [
            self.stations.len(),
            self.loads.len(),
            self.frames.len(),
            self.backoffs.len(),
        ]
        .iter()
        .try_fold(u64::from(self.replications), |a, &k| {
            a.checked_mul(k as u64)
        })
        .unwrap_or(u64::MAX)
    }

    /// Check the replications, the size of the sweep and every point's parameters
    /// before anything runs.
    ///
    /// # Errors
    ///
    /// [`SpecError`] for no replications, more than [`MAX_RUNS`] runs, or the first
    /// point whose configuration is invalid.
    pub fn validate(&self) -> Result<Vec<RunConfig>, SpecError> {
        if self.replications == 0 {
            return Err(SpecError::NoReplications);
        }
        let n = self.runs();
        if n > MAX_RUNS {
            return Err(SpecError::TooManyRuns(n));
        }
        for (name, len) in [
            ("stations", self.stations.len()),
            ("load", self.loads.len()),
            ("frame-bytes", self.frames.len()),
            ("backoff", self.backoffs.len()),
        ] {
            if len == 0 {
                return Err(SpecError::Range(name, RangeError::Empty));
            }
        }
        let points = self.points();
        for p in &points {
            p.validate()?;
        }
        Ok(points)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_parse_and_refuse() {
        assert_eq!(parse_stations("1,2,4").unwrap(), [1, 2, 4]);
        assert!(parse_stations("1.5").is_err());
        assert!(parse_stations("20000000").is_err());
        assert_eq!(
            parse_loads("saturated,0.2,0.1").unwrap(),
            [
                Traffic::Poisson { load: 0.1 },
                Traffic::Poisson { load: 0.2 },
                Traffic::Saturated
            ]
        );
        assert!(parse_loads("0..=1:0.5").is_err()); // 0 is not a load
        assert!(parse_loads("saturated,saturated").is_err());
        assert!(parse_loads("").is_err());
        assert_eq!(parse_frames("64,1518").unwrap().len(), 2);
        assert_eq!(
            parse_frames("64-1518").unwrap(),
            [FrameSizes::Uniform { min: 64, max: 1518 }]
        );
        assert!(parse_frames("63").is_err() && parse_frames("64.5").is_err());
        assert!(parse_frames("64,64").is_err());
        let b = parse_backoffs("beb,linear,poly:3,fixed").unwrap();
        assert_eq!(
            b.iter().map(backoff_name).collect::<Vec<_>>(),
            ["beb", "linear", "poly:3", "fixed:32"]
        );
        assert!(parse_backoffs("beb,beb").is_err());
        assert!(parse_backoffs("exp").is_err() && parse_backoffs("poly:x").is_err());
        assert!(parse_backoffs("beb:3").is_err());
    }

    #[test]
    fn weighted_mixes_as_run_takes_them() {
        let mix = FrameSizes::Mix(vec![(64, 7), (594, 4), (1518, 1)]);
        // The whole list in run's syntax is one mix, the same as run parses it.
        assert_eq!(
            parse_frames("64:7,594:4,1518:1").unwrap(),
            vec![mix.clone()]
        );
        assert_eq!(
            parse::frame_sizes("64:7,594:4,1518:1").unwrap(),
            parse_frames("64:7, 594:4, 1518:1").unwrap()[0]
        );
        // Beside other sizes, its parts joined by +, as the results label it.
        assert_eq!(
            parse_frames("1518,64:7+594:4+1518:1,64-1518").unwrap(),
            [
                mix.clone(),
                FrameSizes::Uniform { min: 64, max: 1518 },
                FrameSizes::Fixed(1518)
            ]
        );
        assert_eq!(parse_frames(&mix.label()).unwrap(), vec![mix.clone()]);
        let one_line = |s: &str| {
            let e = parse_frames(s).unwrap_err().to_string();
            assert!(e.starts_with("--frame-bytes") && !e.contains('\n'), "{e}");
            e
        };
        // The checks of run: weights, sizes, syntax.
        assert!(one_line("64:0,1518:1").contains("not understood"));
        assert!(one_line("64:7,2000:1").contains("2000 bytes"));
        assert!(one_line("64:x").contains("not understood"));
        assert!(one_line("64:7+1518").contains("not understood"));
        assert!(one_line("64:7+63:1,1518").contains("63 bytes"));
        // A weighted part among plain sizes: say how to write it.
        assert!(one_line("1518,64:7,594:4").contains("join a mix's parts with +"));
        assert!(one_line("64:1+1518:1,64:1+1518:1").contains("given twice"));
        // A stepped range is not a weight.
        assert_eq!(parse_frames("64..=1518:727").unwrap().len(), 3);
    }

    #[test]
    fn validation() {
        let s = SweepSpec {
            replications: 0,
            ..SweepSpec::default()
        };
        assert_eq!(s.validate(), Err(SpecError::NoReplications));
        let s = SweepSpec {
            backoffs: vec![BackoffAlgorithm::Fixed { window: 0 }],
            ..SweepSpec::default()
        };
        assert!(matches!(s.validate(), Err(SpecError::Config(_))));
        let s = SweepSpec {
            stations: (1..=100_000).collect(),
            replications: 100,
            ..SweepSpec::default()
        };
        assert!(matches!(
            s.validate(),
            Err(SpecError::TooManyRuns(10_000_000))
        ));
        assert_eq!(SweepSpec::default().validate().unwrap().len(), 1);
    }
}
