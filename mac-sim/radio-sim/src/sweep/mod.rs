//! Sweeps: `KEY=V1,V2,...` axes (any key of [`crate::scenario::keys::KEYS`]; numbers
//! also as ranges, `0.1..=0.9:0.2`, see [`sim_kit::range`]) and their cartesian
//! product, each point a [`RadioConfig`] set through the same
//! [`set`](crate::scenario::keys::set) as files and flags. The first axis varies
//! slowest.
//!
//! ```
//! use radio_sim::RadioConfig;
//! use radio_sim::sweep::{Axis, points};
//! let axes = [Axis::parse("stations=2,3").unwrap(), Axis::parse("load=0.1..=0.3:0.1").unwrap()];
//! let p = points(&RadioConfig::default(), &axes).unwrap();
//! assert_eq!(p.len(), 6);
//! assert_eq!(p[1].values, [("stations".to_string(), "2".to_string()), ("load".to_string(), "0.2".to_string())]);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::config::{ConfigError, RadioConfig};
use crate::driver;
use crate::metrics::RadioResult;
use crate::scenario::keys::{self, KeyError};

/// The most points one sweep may have.
pub const MAX_POINTS: usize = 10_000;

/// One axis: a key and its values, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// The key.
    pub key: String,
    /// Its values, in order.
    pub values: Vec<String>,
}

impl Axis {
    /// Parse `KEY=V1,V2,...`.
    ///
    /// # Errors
    ///
    /// A [`KeyError`] for a missing `=`, an unknown key, no value, a bad range or a
    /// value given twice (each value itself is checked when the points are made).
    pub fn parse(spec: &str) -> Result<Self, KeyError> {
        let Some((key, list)) = spec.split_once('=') else {
            return Err(KeyError {
                key: spec.to_string(),
                problem: "a sweep is KEY=V1,V2,...".to_string(),
            });
        };
        let key = key.trim();
        let err = |problem: String| KeyError {
            key: key.to_string(),
            problem,
        };
        if keys::doc(key).is_none() {
            return Err(err(
                "unknown key (mac-sim radio --keys lists them)".to_string()
            ));
        }
        let mut values = Vec::new();
        for item in list.split(',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(err(format!("empty value in '{list}'")));
            }
            if item.contains("..") {
                let nums = sim_kit::range::values(item).map_err(|e| err(e.to_string()))?;
                values.extend(nums.iter().map(|v| v.to_string()));
            } else {
                values.push(item.to_string());
            }
        }
        let mut seen = values.clone();
        seen.sort();
        seen.dedup();
        if seen.len() != values.len() {
            return Err(err(format!("a value is given twice in '{list}'")));
        }
        Ok(Self {
            key: key.to_string(),
            values,
        })
    }
}

/// One point of a sweep: the axes' values and the configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// `(key, value)` per axis.
    pub values: Vec<(String, String)>,
    /// `base` with those values set.
    pub config: RadioConfig,
}

/// Every combination of the axes' values over `base`.
///
/// # Errors
///
/// A [`KeyError`] for a key given on two axes, a value the key does not take, or more
/// than [`MAX_POINTS`] points.
pub fn points(base: &RadioConfig, axes: &[Axis]) -> Result<Vec<Point>, KeyError> {
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].iter().any(|b| b.key == a.key) {
            return Err(KeyError {
                key: a.key.clone(),
                problem: "swept twice".to_string(),
            });
        }
    }
    let total = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
        .filter(|&n| n <= MAX_POINTS);
    let Some(total) = total else {
        return Err(KeyError {
            key: axes.first().map_or_else(String::new, |a| a.key.clone()),
            problem: format!("more than {MAX_POINTS} points"),
        });
    };
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
        for (a, &c) in axes.iter().zip(&chosen) {
            let v = &a.values[c];
            keys::set(&mut config, &a.key, v)?;
            values.push((a.key.clone(), v.clone()));
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
/// sweep at once), then run them in order; `None` if `cancel` was raised (it is
/// looked at between points).
///
/// # Errors
///
/// The first point's [`ConfigError`], with the point's values.
pub fn run(points: &[Point], cancel: &AtomicBool) -> Result<Option<Vec<PointResult>>, ConfigError> {
    for p in points {
        p.config.validate().map_err(|e| at_point(p, e))?;
    }
    let mut out = Vec::with_capacity(points.len());
    for p in points {
        if cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        out.push(PointResult {
            values: p.values.clone(),
            result: driver::run(&p.config).map_err(|e| at_point(p, e))?,
        });
    }
    Ok(Some(out))
}

fn at_point(p: &Point, e: ConfigError) -> ConfigError {
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
