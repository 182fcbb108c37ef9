//! Sweeps: `KEY=LIST` axes (any key of [`crate::scenario::FIELDS`], the kit's
//! [`Axis`](sim_kit::schema::Axis): comma-separated values in the key's text form,
//! numbers also as ranges, `0.1..=0.9:0.2`) and their cartesian product, each point
//! the base configuration with one scenario per axis laid over it, as files and flags
//! are. The first axis varies slowest.
//!
//! ```
//! use radio_sim::RadioConfig;
//! use radio_sim::sweep::{Axis, points};
//! let axes = [Axis::parse_spec("stations=2,3").unwrap(), Axis::parse_spec("load=0.1..=0.3:0.1").unwrap()];
//! let p = points(&RadioConfig::default(), &axes).unwrap();
//! assert_eq!(p.len(), 6);
//! assert_eq!(p[1].values, [("stations".to_string(), "2".to_string()), ("load".to_string(), "0.2".to_string())]);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use sim_kit::schema::ValueError;

use crate::config::{ConfigError, RadioConfig};
use crate::driver;
use crate::metrics::RadioResult;
use crate::scenario::{FieldError, Scenario};

/// The most points one sweep may have.
pub const MAX_POINTS: usize = 10_000;

/// One swept key and its values.
pub type Axis = sim_kit::schema::Axis<Scenario>;

/// One point of a sweep: the axes' values and the configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// `(key, value)` per axis, the value in its key's text form.
    pub values: Vec<(String, String)>,
    /// `base` with those values set.
    pub config: RadioConfig,
}

/// Every combination of the axes' values over `base`.
///
/// # Errors
///
/// A [`FieldError`] for a key given on two axes, or more than [`MAX_POINTS`]
/// points.
pub fn points(base: &RadioConfig, axes: &[Axis]) -> Result<Vec<Point>, FieldError> {
    let refuse = |key: &str, why: String| FieldError {
        key: key.to_string(),
        error: ValueError::List(why),
    };
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].iter().any(|b| b.key == a.key) {
            return Err(refuse(
                &a.key,
                "swept twice; give its values in one list".into(),
            ));
        }
    }
    let total = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
        .filter(|&n| n <= MAX_POINTS);
    let Some(total) = total else {
        return Err(refuse(
            axes.first().map_or("", |a| a.key.as_str()),
            format!("more than {MAX_POINTS} points"),
        ));
    };
    let texts: Vec<Vec<String>> = axes.iter().map(Axis::texts).collect();
    let mut out = Vec::with_capacity(total);
    for index in 0..total {
        let mut config = base.clone();
        let mut values = Vec::with_capacity(axes.len());
        let mut rest = index;
        let mut chosen = vec![0; axes.len()];
        for (i, a) in axes.iter().enumerate().rev() {
            chosen[i] = rest % a.values.len();
            rest /= a.values.len();
        }
        for ((a, t), &c) in axes.iter().zip(&texts).zip(&chosen) {
            config = a.values[c].apply_to(config);
            values.push((a.key.clone(), t[c].clone()));
        }
        out.push(Point { values, config });
    }
    Ok(out)
}

/// A point and its result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PointResult {
    /// `(key, value)` per axis.
    pub values: Vec<(String, String)>,
    /// The result.
    pub result: RadioResult,
}

/// Check every point before any runs (so that a point that cannot run fails the
/// sweep at once), then run them in order, on this thread (`radio-sim-host` runs
/// them on every core); `None` if `cancel` was raised (it is
/// looked at between points).
///
/// # Errors
///
/// The first point's [`ConfigError`], with the point's values.
pub fn run(points: &[Point], cancel: &AtomicBool) -> Result<Option<Vec<PointResult>>, ConfigError> {
    check(points)?;
    let mut out = Vec::with_capacity(points.len());
    for p in points {
        if cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let Some(result) = driver::run_with(&p.config, cancel).map_err(|e| at_point(p, e))? else {
            return Ok(None);
        };
        out.push(PointResult {
            values: p.values.clone(),
            result,
        });
    }
    Ok(Some(out))
}

/// Check every point's configuration, in order.
///
/// # Errors
///
/// The first point's [`ConfigError`] that cannot run, with the point's values
/// ([`at_point`]).
pub fn check(points: &[Point]) -> Result<(), ConfigError> {
    for p in points {
        p.config.validate().map_err(|e| at_point(p, e))?;
    }
    Ok(())
}

/// `e` with the point's values added to its message: `... (at sweep point
/// stations=3 load=0.2)`; `e` itself for a point of no axis (a single run).
pub fn at_point(p: &Point, e: ConfigError) -> ConfigError {
    if p.values.is_empty() {
        // A single run: no point to name.
        return e;
    }
    let at: Vec<String> = p.values.iter().map(|(k, v)| format!("{k}={v}")).collect();
    ConfigError::Value {
        key: e.key(),
        problem: format!("{} (at sweep point {})", problem_of(&e), at.join(" ")),
    }
}

fn problem_of(e: &ConfigError) -> String {
    let text = e.to_string();
    let prefix = format!("{}: ", e.key());
    text.strip_prefix(&prefix)
        .map_or(text.clone(), str::to_string)
}
