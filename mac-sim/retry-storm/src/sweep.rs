//! Sweeping one storm parameter, as data: every strategy of a scenario at every value
//! ([`plan`]), each over several seeds, summarised with 95 % intervals per point
//! ([`points`]); as a table, CSV and JSON in [`crate::report`]. Running the plan in
//! parallel, the chart and the files are the host layer's (`retry_storm_host::sweep`).
//!
//! A sweep is written `PARAM=VALUES`. `PARAM` is one of the parameters below, which
//! act on every run of the scenario, or any key of its file ([`crate::file::reference`],
//! as `--set` names it: `server.workers`, `trigger.end`, `recovery.sustain`), each
//! value then set as `--set KEY=VALUE` sets it. The values are in
//! [`sim_kit::range`]'s syntax for numbers (`0.5..=0.95:0.05` or `0,1,2`), and a
//! comma-separated list for the keys written as text (durations and names: `1s,2s`,
//! `open,closed`).
//!
//! | parameter | what it sets |
//! |---|---|
//! | `utilisation` | the open-loop rate, as a fraction of the server's capacity (workers / mean service time) |
//! | `rate` | the open-loop (or capped) rate, requests per second |
//! | `clients` | the clients, as `--clients` ([`with_clients`]): the closed-loop population, the open loop's client processes or the cap on active clients, with the offered load and the server's capacity scaled by the same factor |
//! | `retries` | every strategy's retries (each must retry) |
//! | `timeout` | the clients' per-attempt timeout, seconds |
//! | a file's key | that key, in every run (`server.workers=10,20,40`) |
//!
//! ```
//! use retry_storm::presets::{Options, Source};
//! use retry_storm::{run, comparison::replication, sweep};
//! let src = Source::preset("metastable").unwrap();
//! let spec = sweep::parse_axis("utilisation=0.4,0.93").unwrap();
//! let (sc, runs) = sweep::plan(&src, &Options::default(), &spec).unwrap();
//! assert_eq!(runs.len(), 2 * sc.runs.len()); // value by value, the strategies in order
//! let grid: Vec<Vec<_>> = runs
//!     .iter()
//!     .map(|c| (0..2).map(|k| run(&replication(c, k)).unwrap()).collect())
//!     .collect();
//! let points = sweep::points(&sc, &spec, &grid);
//! assert_eq!(points.len(), 2);
//! let retrying = |p: &sweep::SweepPoint| p.strategies[1].recovered;
//! assert!(retrying(&points[0]) > retrying(&points[1])); // 40 % recovers, 93 % does not
//! // A key of the file: the server's workers.
//! let spec = sweep::parse_axis("server.workers=30,60").unwrap();
//! let (_, runs) = sweep::plan(&src, &Options::default(), &spec).unwrap();
//! assert_eq!(runs[runs.len() - 1].server.workers, Some(60));
//! ```

use backoff_core::Stop;
use serde::Serialize;

use std::fmt;

use crate::comparison::Comparison;
pub use crate::config::with_clients;
use crate::config::{Load, ServerConfig, StormConfig};
use crate::error::{Param, StormError};
use crate::file::{Setting, resolve};
use crate::presets::{Options, Source};
use crate::replicate::{StrategyOverSeeds, over_seeds};
use crate::sim::StormResult;
use sim_kit::schema::{FieldError, Values};
use sim_kit::time::{PS_PER_SEC, Time};

/// The most values a storm sweep takes (each one runs every strategy over every
/// seed).
pub const MAX_SWEEP_VALUES: usize = 1000;

/// The parameter a sweep varies.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// A key of the scenario's file, as `--set` names it (`server.workers`).
    Key(String),
}

impl SweepParam {
    /// The parameters that act on every run, in the order the help lists them.
    const RUN_WIDE: [SweepParam; 5] = [
        SweepParam::Utilisation,
        SweepParam::Rate,
        SweepParam::Clients,
        SweepParam::Retries,
        SweepParam::Timeout,
    ];

    /// Its name in `PARAM=VALUES`.
    pub fn name(&self) -> &str {
        match self {
            SweepParam::Key(k) => k,
            SweepParam::Utilisation => "utilisation",
            SweepParam::Rate => "rate",
            SweepParam::Clients => "clients",
            SweepParam::Retries => "retries",
            SweepParam::Timeout => "timeout",
        }
    }
}

/// One value of a swept parameter: a number, or text for a key written as text (a
/// duration, a name). JSON writes a number as a number.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SweepValue {
    /// A number.
    Number(f64),
    /// Text, as the file would have it (`100ms`, `closed`).
    Text(String),
}

impl SweepValue {
    /// Where the value goes on a chart's axis: the number, a duration in seconds, or
    /// else `position` (the value's place in the sweep).
    pub fn x(&self, position: usize) -> f64 {
        match self {
            SweepValue::Number(v) => *v,
            SweepValue::Text(t) => Time::parse(t).map_or(position as f64, Time::as_secs_f64),
        }
    }
}

impl fmt::Display for SweepValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SweepValue::Number(v) => write!(f, "{v}"),
            SweepValue::Text(t) => write!(f, "{t}"),
        }
    }
}

/// A sweep's axis: one parameter (a run-wide one of the table above, or a key of
/// the file) and its values, each a [`Setting`] of that key alone: the kit's one
/// [`Axis`](sim_kit::schema::Axis) type, over the storm's settings.
pub type Axis = sim_kit::schema::Axis<Setting>;

/// Read `PARAM=VALUES` as a storm sweep's [`Axis`].
///
/// # Errors
///
/// [`StormError::Param`]: [`Param::Sweep`] for text without `=` or more than
/// [`MAX_SWEEP_VALUES`] values; [`Param::SweepValues`] (with the reason) for a
/// parameter that is neither one of the table's nor a file's key, a key whose
/// value is a list or text, values that [`sim_kit::range::values`] cannot read,
/// or a list of text with an empty or repeated value.
pub fn parse_axis(text: &str) -> Result<Axis, StormError> {
    let (p, v) = text
        .split_once('=')
        .ok_or_else(|| StormError::param(Param::Sweep, text))?;
    Axis::parse(p.trim(), v.trim()).map_err(|e| e.error)
}

/// The parameter an axis sweeps.
pub fn param(axis: &Axis) -> SweepParam {
    run_wide(&axis.key).unwrap_or_else(|| SweepParam::Key(axis.key.clone()))
}

/// An axis's values as reports write them: numbers for a run-wide parameter and a
/// file's numeric key, text for a key written as text (a duration, a name).
pub fn values(axis: &Axis) -> Vec<SweepValue> {
    let numeric = run_wide(&axis.key).is_some() || resolve(&axis.key).is_ok_and(|t| !t.is_text());
    axis.values
        .iter()
        .map(|s| match s.value.parse::<f64>() {
            Ok(x) if numeric => SweepValue::Number(x),
            _ => SweepValue::Text(s.value.clone()),
        })
        .collect()
}

fn run_wide(key: &str) -> Option<SweepParam> {
    SweepParam::RUN_WIDE.into_iter().find(|x| x.name() == key)
}

impl Values for Setting {
    type Error = StormError;

    /// One setting of `key` per value of `list`. The errors name the whole
    /// `KEY=LIST` themselves, so the [`FieldError`]'s key is empty.
    fn list(key: &str, list: &str) -> Result<Vec<Self>, FieldError<StormError>> {
        let whole = format!("{key}={list}");
        let fail = |error: StormError| FieldError {
            key: String::new(),
            error,
        };
        let bad = || fail(StormError::param(Param::Sweep, whole.as_str()));
        let values_error = |why: String| {
            fail(StormError::param(
                Param::SweepValues,
                format!("'{whole}': {why}"),
            ))
        };
        let numbers = || {
            sim_kit::range::values(list)
                .map(|xs| xs.into_iter().map(|x| x.to_string()).collect::<Vec<_>>())
                .map_err(|e| values_error(e.to_string()))
        };
        let values = if run_wide(key).is_some() {
            numbers()?
        } else {
            if key.is_empty() {
                return Err(bad());
            }
            let target = resolve(key).map_err(values_error)?;
            if target.is_list() || target.doc.value == "text" {
                return Err(values_error(format!(
                    "{key} is {}: a sweep takes a key with one number, duration or name",
                    if target.is_list() { "a list" } else { "text" }
                )));
            }
            if target.is_text() {
                let items: Vec<&str> = sim_kit::schema::split_items(list).collect();
                if items.iter().any(|x| x.is_empty()) {
                    return Err(values_error("an empty value".into()));
                }
                if let Some(twice) = sim_kit::schema::first_repeated(&items, |x| x.to_string()) {
                    return Err(values_error(format!("{twice} is given twice")));
                }
                items.into_iter().map(str::to_string).collect()
            } else {
                numbers()?
            }
        };
        if values.len() > MAX_SWEEP_VALUES {
            return Err(bad());
        }
        Ok(values.into_iter().map(|v| Setting::new(key, v)).collect())
    }

    fn get(&self, key: &str) -> Option<String> {
        (self.key == key).then(|| self.value.clone())
    }
}

/// `cfg` with the parameter at `v`.
///
/// # Errors
///
/// [`StormError::Param`] ([`Param::SweepValue`]) where the value does not fit the
/// scenario (a rate for a closed loop, retries for a strategy that never retries, a
/// count that is not whole), and the errors of [`StormConfig::validate`].
pub fn apply(cfg: &StormConfig, param: &SweepParam, v: f64) -> Result<StormConfig, StormError> {
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
        // A key is set in the file, before the scenario is read ([`plan`]).
        SweepParam::Key(_) => return Err(bad()),
    }
    c.validate().map(|()| c)
}

/// Requests per second the server's workers can serve, if it has workers.
fn capacity_per_s(s: &ServerConfig) -> Option<f64> {
    let w = f64::from(s.workers?);
    Some(w * PS_PER_SEC as f64 / s.service.mean_ps().as_ps_f64())
}

/// One value of a sweep and a table at it: a contention experiment's rows at a value
/// of a key of its file (`--sweep contention.base=1ms,5ms`; `R`:
/// [`ContentionRow`](crate::contention::ContentionRow) for one seed,
/// [`ContentionOverSeeds`](crate::contention::ContentionOverSeeds) over several).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TablePoint<R> {
    /// The swept key's value, as given.
    pub value: SweepValue,
    /// The table at that value.
    pub rows: Vec<R>,
}

/// One value of the swept parameter: every strategy over the seeds.
#[derive(Clone, Debug, Serialize)]
pub struct SweepPoint {
    /// The parameter's value.
    pub value: SweepValue,
    /// One entry per strategy, in the scenario's order.
    pub strategies: Vec<StrategyOverSeeds>,
}

/// The scenario of `source` with `opts`, and the runs of a sweep: every strategy at
/// every value of `spec`, value by value, the strategies in the scenario's order
/// (`runs[value * strategies + strategy]`). A key of the file is set at each value
/// as `--set` sets it, before `opts`' clients and strategies apply.
///
/// # Errors
///
/// The errors of [`Source::scenario`] for the scenario, or for a value of a key
/// (naming `--sweep KEY=VALUE`); of [`apply`] for the first value that does not fit.
pub fn plan(
    source: &Source,
    opts: &Options,
    spec: &Axis,
) -> Result<(Comparison, Vec<StormConfig>), StormError> {
    let sc = source.scenario(opts)?;
    let mut runs = Vec::with_capacity(spec.values.len() * sc.runs.len());
    let param = param(spec);
    for (setting, v) in spec.values.iter().zip(values(spec)) {
        match (&param, v) {
            (SweepParam::Key(_), _) => {
                let setting = setting.clone().given_as(format!("--sweep {setting}"));
                let at = source.scenario(&opts.with(setting))?;
                runs.extend(at.runs);
            }
            (param, SweepValue::Number(x)) => {
                for r in &sc.runs {
                    runs.push(apply(r, param, x)?);
                }
            }
            (param, SweepValue::Text(t)) => {
                return Err(StormError::param(
                    Param::SweepValue,
                    format!("{}={t}", param.name()),
                ));
            }
        }
    }
    Ok((sc, runs))
}

/// The points of a sweep from `grid[run][seed]`, the runs in [`plan`]'s order: one
/// per value of `spec`, in order, each strategy summarised over its seeds.
pub fn points(sc: &Comparison, spec: &Axis, grid: &[Vec<StormResult>]) -> Vec<SweepPoint> {
    let per = sc.runs.len().max(1);
    values(spec)
        .into_iter()
        .zip(grid.chunks(per))
        .map(|(value, chunk)| SweepPoint {
            value,
            strategies: chunk.iter().map(|r| over_seeds(r)).collect(),
        })
        .collect()
}
