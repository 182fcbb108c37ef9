//! Scenario files: a radio run written in TOML, the keys of [`keys::KEYS`] at the top
//! level and optional `[[station]]` tables with positions, read into a
//! [`RadioConfig`].
//!
//! A file that cannot be used gives one [`FileError`]: the file, the line, the key and
//! what is wrong. Unknown keys are refused, so a misspelt key is never ignored.
//!
//! ```
//! use radio_sim::scenario::parse;
//! let text = "rule = \"beb\"\nstations = 3\ntopology = \"line\"\nduration = \"2s\"\n";
//! let c = parse(text, "line.toml").unwrap();
//! assert_eq!(c.stations, 3);
//! let bad = parse(&text.replace("stations", "station"), "line.toml").unwrap_err();
//! assert!(bad.to_string().starts_with("line.toml:2: station: "), "{bad}");
//! ```

pub mod keys;

use core::fmt;

use sim_kit::locate;

use crate::config::{Position, RadioConfig, Topology};
use keys::Kind;

/// A scenario file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// The file as named.
    pub file: String,
    /// The line (1-based).
    pub line: usize,
    /// The key.
    pub key: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.file, self.line, self.key, self.problem
        )
    }
}

impl std::error::Error for FileError {}

/// Read the scenario in `text` over the defaults; `origin` names the file in errors.
///
/// # Errors
///
/// A [`FileError`] with the line and key: TOML that cannot be read, an unknown key, a
/// value of the wrong type or out of range, a `[[station]]` table without `x` and `y`
/// or with another key.
pub fn parse(text: &str, origin: &str) -> Result<RadioConfig, FileError> {
    let mut c = RadioConfig::default();
    apply(&mut c, text, origin)?;
    Ok(c)
}

/// Read the scenario in `text` over `c` (see [`parse`]); the keys it set, in the
/// file's order (`[[station]]` tables not included), so that a caller can tell which
/// settings were given ([`keys::check_effect`]).
///
/// # Errors
///
/// As [`parse`].
pub fn apply(c: &mut RadioConfig, text: &str, origin: &str) -> Result<Vec<String>, FileError> {
    let err = |table: &str, index: usize, key: &str, problem: String| FileError {
        file: origin.to_string(),
        line: locate::line_of_key(text, table, index, key),
        key: key.to_string(),
        problem,
    };
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |s| locate::line_of(text, s.start));
        FileError {
            file: origin.to_string(),
            line,
            key: locate::key_on_line(text, line),
            problem: e.message().trim().to_string(),
        }
    })?;
    let mut has_topology = false;
    let mut has_stations = false;
    let mut given = Vec::new();
    for (key, value) in &table {
        if key == "station" {
            c.positions = positions(value, &err)?;
            continue;
        }
        let Some(d) = keys::doc(key) else {
            return Err(err(
                "",
                0,
                key,
                "unknown key (mac-sim radio --keys lists them)".to_string(),
            ));
        };
        let text_value = match (d.kind, value) {
            (Kind::Integer, toml::Value::Integer(i)) => i.to_string(),
            (Kind::Number, toml::Value::Integer(i)) => i.to_string(),
            (Kind::Number, toml::Value::Float(x)) => x.to_string(),
            (Kind::Text, toml::Value::String(s)) => s.clone(),
            _ => {
                return Err(err(
                    "",
                    0,
                    key,
                    format!("{} is not {}", value.type_str(), d.value),
                ));
            }
        };
        keys::set(c, key, &text_value).map_err(|e| err("", 0, key, e.problem))?;
        has_topology |= key == "topology";
        has_stations |= key == "stations";
        given.push(key.clone());
    }
    if !c.positions.is_empty() {
        if !has_topology {
            c.topology = Topology::Positions;
        }
        if !has_stations {
            c.stations = u16::try_from(c.positions.len()).unwrap_or(u16::MAX);
        }
    }
    Ok(given)
}

fn positions(
    value: &toml::Value,
    err: &impl Fn(&str, usize, &str, String) -> FileError,
) -> Result<Vec<Position>, FileError> {
    let Some(list) = value.as_array() else {
        return Err(err(
            "",
            0,
            "station",
            "must be [[station]] tables with x and y".to_string(),
        ));
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, t) in list.iter().enumerate() {
        let Some(t) = t.as_table() else {
            return Err(err("", 0, "station", "must be a table".to_string()));
        };
        if let Some(other) = t.keys().find(|k| *k != "x" && *k != "y") {
            return Err(err(
                "station",
                i,
                other,
                "unknown key (a [[station]] has x and y)".to_string(),
            ));
        }
        let coord = |name: &str| -> Result<f64, FileError> {
            match t.get(name) {
                Some(toml::Value::Float(x)) if x.is_finite() => Ok(*x),
                Some(toml::Value::Integer(n)) => Ok(*n as f64),
                Some(_) => Err(err("station", i, name, "must be metres".to_string())),
                None => Err(err("station", i, "station", format!("{name} is missing"))),
            }
        };
        out.push(Position {
            x: coord("x")?,
            y: coord("y")?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_give_the_line_and_key() {
        let e = parse("stations = 3\nload = \"high\"\n", "f.toml").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (2, "load"));
        let e = parse("stations = 3\n\nloss = 2.0\n", "f.toml").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (3, "loss"));
        let e = parse("stations = = 3\n", "f.toml").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse(
            "[[station]]\nx = 1\ny = 2\n[[station]]\nx = 1\nz = 2\n",
            "f.toml",
        )
        .unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (6, "z"));
    }

    #[test]
    fn positions_imply_their_topology_and_count() {
        let c = parse(
            "[[station]]\nx = 0\ny = 0\n[[station]]\nx = 5.5\ny = 0\n",
            "p",
        )
        .unwrap();
        assert_eq!(c.topology, Topology::Positions);
        assert_eq!(c.stations, 2);
        assert_eq!(c.positions[1].x, 5.5);
    }
}
