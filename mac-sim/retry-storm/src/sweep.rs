//! Sweeping one storm parameter, as data: every strategy of a scenario at every value
//! ([`plan`]), each over several seeds, summarised with 95 % intervals per point
//! ([`points`]); as a table, CSV and JSON in [`crate::report`]. Running the plan in
//! parallel, the chart and the files are the host layer's (`retry_storm_host::sweep`).
//!
//! A sweep is written `PARAM=VALUES`, the values in [`sim_kit::range`]'s syntax:
//!
//! | parameter | what it sets |
//! |---|---|
//! | `utilisation` | the open-loop rate, as a fraction of the server's capacity (workers / mean service time) |
//! | `rate` | the open-loop (or capped) rate, requests per second |
//! | `clients` | the clients, as `--clients` ([`with_clients`]): the closed-loop population, the open loop's client processes or the cap on active clients, with the offered load and the server's capacity scaled by the same factor |
//! | `retries` | every strategy's retries (each must retry) |
//! | `timeout` | the clients' per-attempt timeout, seconds |
//!
//! ```
//! use retry_storm::{presets, run, scenario::replication, sweep};
//! let sc = presets::scenario("metastable", &presets::Options::default()).unwrap();
//! let spec = sweep::SweepSpec::parse("utilisation=0.4,0.93").unwrap();
//! let runs = sweep::plan(&sc, &spec).unwrap();
//! assert_eq!(runs.len(), 2 * sc.runs.len()); // value by value, the strategies in order
//! let grid: Vec<Vec<_>> = runs
//!     .iter()
//!     .map(|c| (0..2).map(|k| run(&replication(c, k)).unwrap()).collect())
//!     .collect();
//! let points = sweep::points(&sc, &spec, &grid);
//! assert_eq!(points.len(), 2);
//! let retrying = |p: &sweep::SweepPoint| p.strategies[1].recovered;
//! assert!(retrying(&points[0]) > retrying(&points[1])); // 40 % recovers, 93 % does not
//! ```

use backoff_core::Stop;
use serde::Serialize;

use crate::config::{Load, ServerConfig, StormConfig};
use crate::error::{Param, StormError};
use crate::replicate::{StrategyOverSeeds, over_seeds};
use crate::scenario::Scenario;
use crate::sim::StormResult;
use sim_kit::time::{PS_PER_SEC, Time};

/// The parameter a sweep varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SweepParam {
    /// Open-loop rate over the server's capacity.
    Utilisation,
    /// Open-loop (or capped) rate, per second.
    Rate,
    /// The clients, with the load and the server scaled ([`with_clients`]).
    Clients,
    /// Every strategy's retries.
    Retries,
    /// The clients' per-attempt timeout, seconds.
    Timeout,
}

impl SweepParam {
    /// Its name in `PARAM=VALUES`.
    pub fn name(self) -> &'static str {
        match self {
            SweepParam::Utilisation => "utilisation",
            SweepParam::Rate => "rate",
            SweepParam::Clients => "clients",
            SweepParam::Retries => "retries",
            SweepParam::Timeout => "timeout",
        }
    }
}

/// A parameter and its values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepSpec {
    /// The parameter.
    pub param: SweepParam,
    /// Its values, in order.
    pub values: Vec<f64>,
}

impl SweepSpec {
    /// Read `PARAM=VALUES`.
    ///
    /// # Errors
    ///
    /// [`StormError::Param`]: [`Param::Sweep`] for an unknown parameter or more than
    /// 1000 values, [`Param::SweepValues`] (with the reason) for values that
    /// [`sim_kit::range::values`] cannot read.
    pub fn parse(text: &str) -> Result<Self, StormError> {
        let bad = || StormError::param(Param::Sweep, text);
        let (p, v) = text.split_once('=').ok_or_else(bad)?;
        let param = [
            SweepParam::Utilisation,
            SweepParam::Rate,
            SweepParam::Clients,
            SweepParam::Retries,
            SweepParam::Timeout,
        ]
        .into_iter()
        .find(|x| x.name() == p.trim())
        .ok_or_else(bad)?;
        let values = sim_kit::range::values(v.trim()).map_err(|e| {
            StormError::param(Param::SweepValues, format!("'{}': {e}", text.trim()))
        })?;
        if values.is_empty() || values.len() > 1000 {
            return Err(bad());
        }
        Ok(Self { param, values })
    }
}

/// `cfg` with the parameter at `v`.
///
/// # Errors
///
/// [`StormError::Param`] ([`Param::SweepValue`]) where the value does not fit the
/// scenario (a rate for a closed loop, retries for a strategy that never retries, a
/// count that is not whole), and the errors of [`StormConfig::validate`].
pub fn apply(cfg: &StormConfig, param: SweepParam, v: f64) -> Result<StormConfig, StormError> {
    let bad = || StormError::param(Param::SweepValue, format!("{}={v}", param.name()));
    let whole = |v: f64| {
        if v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&v) {
            Ok(v as u32)
        } else {
            Err(bad())
        }
    };
    let mut c = cfg.clone();
    match param {
        SweepParam::Utilisation | SweepParam::Rate => {
            let rate = match param {
                SweepParam::Utilisation => v * capacity_per_s(&c.server).ok_or_else(bad)?,
                _ => v,
            };
            match &mut c.load {
                Load::Open { rate_per_s, .. } | Load::Capped { rate_per_s, .. } => {
                    *rate_per_s = rate;
                }
                Load::Closed { .. } => return Err(bad()),
            }
        }
        SweepParam::Clients => c = with_clients(c, whole(v)?)?,
        SweepParam::Retries => {
            let n = whole(v)?;
            let p = c.strategy.policy.as_mut().ok_or_else(bad)?;
            *p = p.with_stop(Stop::NEVER.with_max_retries(n));
        }
        SweepParam::Timeout => {
            if !(v.is_finite() && v > 0.0) {
                return Err(bad());
            }
            c.timeouts_ps = vec![Time::from_ps_f64((v * PS_PER_SEC as f64).round())];
        }
    }
    c.validate().map(|()| c)
}

/// `c` with `n` clients, as `--clients N` and `--sweep clients=N` both mean: the
/// closed-loop population, the open loop's client processes or the cap on active
/// clients becomes `n`, and the offered load (an open or capped rate) and the
/// server's capacity (workers, the slowdown's limit and step) and the users scale by
/// the same factor, so that the load per worker is the scenario's.
///
/// # Errors
///
/// [`StormError::Param`] ([`Param::Clients`]) for 0 or more than
/// [`MAX_CLIENTS`](crate::config::MAX_CLIENTS) clients.
pub fn with_clients(mut c: StormConfig, n: u32) -> Result<StormConfig, StormError> {
    if n == 0 || n > crate::config::MAX_CLIENTS {
        return Err(StormError::param(Param::Clients, n));
    }
    let f = match &mut c.load {
        Load::Closed { clients, .. } => {
            let f = f64::from(n) / f64::from(*clients);
            *clients = n;
            f
        }
        Load::Open {
            rate_per_s,
            clients,
        } => {
            let f = f64::from(n) / f64::from(*clients);
            *rate_per_s *= f;
            *clients = n;
            f
        }
        Load::Capped {
            rate_per_s,
            max_active,
            ..
        } => {
            let f = f64::from(n) / f64::from(*max_active);
            *rate_per_s *= f;
            *max_active = n;
            f
        }
    };
    let scale = |x: u32| ((f64::from(x) * f).round() as u32).max(1);
    c.server.workers = c.server.workers.map(scale);
    if let Some(sl) = &mut c.server.slowdown {
        sl.limit = scale(sl.limit);
        sl.k *= f;
    }
    c.users = scale(c.users).max(5);
    Ok(c)
}

/// Requests per second the server's workers can serve, if it has workers.
fn capacity_per_s(s: &ServerConfig) -> Option<f64> {
    let w = f64::from(s.workers?);
    Some(w * PS_PER_SEC as f64 / s.service.mean_ps().as_ps_f64())
}

/// One value of the swept parameter: every strategy over the seeds.
#[derive(Clone, Debug, Serialize)]
pub struct SweepPoint {
    /// The parameter's value.
    pub value: f64,
    /// One entry per strategy, in the scenario's order.
    pub strategies: Vec<StrategyOverSeeds>,
}

/// The runs of a sweep: every strategy of `sc` at every value of `spec`, value by
/// value, the strategies in the scenario's order (`runs[value * strategies +
/// strategy]`).
///
/// # Errors
///
/// The errors of [`apply`] for the first value that does not fit.
pub fn plan(sc: &Scenario, spec: &SweepSpec) -> Result<Vec<StormConfig>, StormError> {
    let mut runs = Vec::with_capacity(spec.values.len() * sc.runs.len());
    for &v in &spec.values {
        for r in &sc.runs {
            runs.push(apply(r, spec.param, v)?);
        }
    }
    Ok(runs)
}

/// The points of a sweep from `grid[run][seed]`, the runs in [`plan`]'s order: one
/// per value of `spec`, in order, each strategy summarised over its seeds.
pub fn points(sc: &Scenario, spec: &SweepSpec, grid: &[Vec<StormResult>]) -> Vec<SweepPoint> {
    let per = sc.runs.len().max(1);
    spec.values
        .iter()
        .zip(grid.chunks(per))
        .map(|(&value, chunk)| SweepPoint {
            value,
            strategies: chunk.iter().map(|r| over_seeds(r)).collect(),
        })
        .collect()
}
