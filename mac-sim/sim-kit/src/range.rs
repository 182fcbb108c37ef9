//! Value lists for sweep axes: `1,2,4`, `1..=1024:x2` (geometric), `0.1..=1.0:0.1`
//! (arithmetic), `8..16` (exclusive, step 1), and any comma-separated mix of them.
//!
//! Arithmetic values are computed as `start + i·step` (no accumulated error) and
//! rounded to 12 significant digits, so `0.1..=1.0:0.1` gives exactly `0.3`, not
//! `0.30000000000000004`, and the inclusive end is reached despite rounding.
//!
//! ```
//! use sim_kit::range::values;
//! assert_eq!(values("1..=256:x2").unwrap(), [1., 2., 4., 8., 16., 32., 64., 128., 256.]);
//! assert_eq!(values("0.1..=0.5:0.1").unwrap(), [0.1, 0.2, 0.3, 0.4, 0.5]);
//! assert_eq!(values("64,512,1518").unwrap(), [64., 512., 1518.]);
//! assert_eq!(values("1..4,10").unwrap(), [1., 2., 3., 10.]);
//! assert!(values("8..=4").is_err());
//! ```

use std::fmt;

/// The most values one axis may have.
pub const MAX_VALUES: usize = 100_000;

/// Why a value list was refused. `Display` gives one line naming the bad part.
#[derive(Clone, Debug, PartialEq)]
pub enum RangeError {
    /// Nothing given.
    Empty,
    /// An item that is neither a number nor a range.
    Syntax(String),
    /// A range with no values, e.g. `8..=4` or `4..4`.
    EmptyRange(String),
    /// A step that is zero, negative or not finite; a factor not above 1.
    Step(String),
    /// A geometric range must start above zero.
    GeometricStart(String),
    /// More than [`MAX_VALUES`] values.
    TooMany(String),
    /// A step too small to move the values at their precision (12 significant digits),
    /// e.g. `0.5..=0.5:1e-300` or `1e20..=1e20:1`: the range could never advance.
    Stuck(String),
    /// The same value twice.
    Duplicate(String),
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(
                f,
                "empty list: give values such as 1,2,4 or a range such as 1..=256:x2"
            ),
            Self::Syntax(s) => write!(
                f,
                "'{s}' is not a number or a range (forms: 4, 1..=64, 1..=256:x2, 0.1..=1.0:0.1, 8..16)"
            ),
            Self::EmptyRange(s) => write!(f, "range '{s}' is empty"),
            Self::Step(s) => write!(
                f,
                "range '{s}': the step must be a positive number and a factor (xF) greater than 1"
            ),
            Self::GeometricStart(s) => {
                write!(f, "range '{s}': a geometric range (xF) must start above 0")
            }
            Self::TooMany(s) => write!(f, "'{s}' has more than {MAX_VALUES} values"),
            Self::Stuck(s) => write!(
                f,
                "range '{s}': the step is too small to change the values (they keep 12 significant digits)"
            ),
            Self::Duplicate(s) => write!(f, "value {s} is given more than once"),
        }
    }
}

impl std::error::Error for RangeError {}

/// `v` rounded to 12 significant digits (exactly, through decimal formatting).
fn clean(v: f64) -> f64 {
    format!("{v:.11e}").parse().unwrap_or(v)
}

fn number(s: &str, item: &str) -> Result<f64, RangeError> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| RangeError::Syntax(item.to_string()))?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(RangeError::Syntax(item.to_string()))
    }
}

/// The values of one item (a number or a range).
fn item_values(item: &str, out: &mut Vec<f64>) -> Result<(), RangeError> {
    let t = item.trim();
    if t.is_empty() {
        return Err(RangeError::Syntax(item.to_string()));
    }
    let Some((start, rest)) = t.split_once("..") else {
        out.push(clean(number(t, item)?));
        return Ok(());
    };
    let (inclusive, rest) = match rest.strip_prefix('=') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let (end, step) = match rest.split_once(':') {
        Some((e, s)) => (e, Some(s.trim())),
        None => (rest, None),
    };
    let a = number(start, item)?;
    let b = number(end, item)?;
    let too_many = || RangeError::TooMany(item.to_string());
    let before = out.len();
    let keep = |v: f64, tol: f64| {
        if inclusive { v <= b + tol } else { v < b - tol }
    };
    match step {
        Some(f) if f.starts_with('x') || f.starts_with('*') => {
            let f = number(&f[1..], item)?;
            if f <= 1.0 {
                return Err(RangeError::Step(item.to_string()));
            }
            if a <= 0.0 {
                return Err(RangeError::GeometricStart(item.to_string()));
            }
            let mut v = a;
            while keep(clean(v), b.abs() * 1e-12) {
                if out.len() - before >= MAX_VALUES {
                    return Err(too_many());
                }
                if out.len() > before && out.last() == Some(&clean(v)) {
                    return Err(RangeError::Stuck(item.to_string()));
                }
                out.push(clean(v));
                v *= f;
            }
        }
        _ => {
            let s = match step {
                Some(s) => number(s, item)?,
                None => 1.0,
            };
            if s <= 0.0 {
                return Err(RangeError::Step(item.to_string()));
            }
            if (b - a) / s > MAX_VALUES as f64 {
                return Err(too_many());
            }
            let mut i = 0u32;
            loop {
                let v = clean(a + f64::from(i) * s);
                if !keep(v, s * 1e-9) {
                    break;
                }
                // A step below the values' resolution gives the same value again and
                // again; the count check above cannot see it, as (b - a) / s may be 0.
                if out.len() > before && out.last() == Some(&v) {
                    return Err(RangeError::Stuck(item.to_string()));
                }
                if out.len() - before >= MAX_VALUES {
                    return Err(too_many());
                }
                out.push(v);
                i += 1;
            }
        }
    }
    if out.len() == before {
        return Err(RangeError::EmptyRange(item.to_string()));
    }
    Ok(())
}

/// Parse a comma-separated list of numbers and ranges (see the module docs). The
/// values keep their order; a value given twice is an error.
///
/// # Errors
///
/// [`RangeError`] naming the part that does not parse, an empty or backwards range, a
/// bad step, or more than [`MAX_VALUES`] values or a duplicate.
pub fn values(spec: &str) -> Result<Vec<f64>, RangeError> {
    if spec.trim().is_empty() {
        return Err(RangeError::Empty);
    }
    let mut out = Vec::new();
    for item in spec.split(',') {
        item_values(item, &mut out)?;
        if out.len() > MAX_VALUES {
            return Err(RangeError::TooMany(spec.to_string()));
        }
    }
    let mut seen: Vec<f64> = out.clone();
    seen.sort_by(f64::total_cmp);
    if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
        return Err(RangeError::Duplicate(w[0].to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(values("1..=1024:x2").unwrap().len(), 11);
        assert_eq!(values("0.1..=1.0:0.1").unwrap().len(), 10);
        assert_eq!(values("0.1..=1.0:0.1").unwrap()[9], 1.0);
        assert_eq!(values("0..1:0.25").unwrap(), [0.0, 0.25, 0.5, 0.75]);
        assert_eq!(values("1..=10:x3").unwrap(), [1.0, 3.0, 9.0]);
        assert_eq!(values(" 5 ").unwrap(), [5.0]);
        assert_eq!(values("4..=4").unwrap(), [4.0]);
        assert_eq!(values("1..=2:0.5").unwrap(), [1.0, 1.5, 2.0]);
    }

    #[test]
    fn refusals() {
        use RangeError::*;
        type Check = fn(&RangeError) -> bool;
        let cases: [(&str, Check); 18] = [
            ("", |e| matches!(e, Empty)),
            ("  ", |e| matches!(e, Empty)),
            ("8..=4", |e| matches!(e, EmptyRange(_))),
            ("4..4", |e| matches!(e, EmptyRange(_))),
            ("1..=8:0", |e| matches!(e, Step(_))),
            ("1..=8:-1", |e| matches!(e, Step(_))),
            ("1..=8:x1", |e| matches!(e, Step(_))),
            ("0..=8:x2", |e| matches!(e, GeometricStart(_))),
            ("1..=1e9", |e| matches!(e, TooMany(_))),
            ("1,,2", |e| matches!(e, Syntax(_))),
            ("a..=4", |e| matches!(e, Syntax(_))),
            ("1..=4:xz", |e| matches!(e, Syntax(_))),
            ("1-4", |e| matches!(e, Syntax(_))),
            ("1,2,1", |e| matches!(e, Duplicate(_))),
            ("0.5..=0.5:1e-300", |e| matches!(e, Stuck(_))),
            ("1e20..=1e20:1", |e| matches!(e, Stuck(_))),
            ("1e20..=2e20:1", |e| matches!(e, TooMany(_))),
            ("1..=2:x1.0000000000001", |e| matches!(e, Stuck(_))),
        ];
        for (spec, ok) in cases {
            let e = values(spec).unwrap_err();
            assert!(ok(&e), "{spec}: {e:?}");
            assert!(!e.to_string().contains('\n'));
        }
        assert!(values("NaN").is_err() && values("inf").is_err());
    }
}
