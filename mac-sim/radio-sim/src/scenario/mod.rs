//! The radio model's parameters ([`Scenario`], one table in `table.rs` that every
//! door reads) and its scenario files: a run written in TOML, the keys of
//! [`FIELDS`] at the top level and optional `[[station]]` tables with positions
//! ([`read`]), laid over the defaults and under the command line's flags
//! ([`ScenarioFile::config`]).
//!
//! A file that cannot be used gives one [`FileError`]: the file, the line, the key and
//! what is wrong. Unknown keys are refused, so a misspelt key is never ignored.
//!
//! ```
//! use radio_sim::scenario::parse;
//! let text = "rule = \"beb\"\nstations = 3\ntopology = \"line\"\nduration = \"2s\"\n";
//! let c = parse(text, "line.toml").unwrap();
//! assert_eq!(c.stations, 3);
//! let bad = parse(&text.replace("stations", "stationz"), "line.toml").unwrap_err();
//! assert!(bad.to_string().starts_with("line.toml:2: stationz: unknown parameter"), "{bad}");
//! ```
//!
//! ## Adding a parameter
//!
//! A field of [`RadioConfig`] and its default (`config.rs`), a row in the table
//! (`table.rs`), and its range in [`RadioConfig::validate`] if it has one. The flags,
//! files, sweeps, columns and `--keys` follow from the row.

mod codecs;
mod effect;
mod table;

use sim_kit::locate;

use crate::config::{Position, RadioConfig, Topology};

pub use codecs::{CountdownName, OffOr, RuleDefault, RuleOr, Turnaround, TurnaroundOr};
pub use effect::{check_effect, has_effect};
pub use table::{FIELDS, FieldError, KEYS, Scenario};

/// The reference of every key, as `mac-sim radio --keys` prints it: generated from
/// the table.
pub fn reference() -> String {
    let mut out = sim_kit::schema::reference::<Scenario>(
        "Keys of mac-sim radio. A scenario file sets them at its top level (durations \
         as strings with a unit, \"10s\"; [[station]] tables with x and y in metres give \
         positions); the command line sets them with --KEY VALUE (- for _) or --set \
         KEY=VALUE, over the file; --sweep KEY=V1,V2 runs every combination.",
    );
    out.push_str("  [[station]] x = metres, y = metres (one table per station, in order)\n");
    out.push_str("      a position per station; implies topology \"positions\"\n");
    out
}

/// A scenario file that cannot be used: the kit's one file error
/// ([`sim_kit::locate::FileError`]), `FILE:LINE: KEY: PROBLEM`.
pub type FileError = sim_kit::locate::FileError;

impl RadioConfig {
    /// Sets the key `key` from its text form, as a flag or a file does (not
    /// validated: [`RadioConfig::validate`] checks ranges).
    ///
    /// ```
    /// use radio_sim::RadioConfig;
    /// let mut c = RadioConfig::default();
    /// c.set("load", "0.25").unwrap();
    /// assert_eq!(c.load, 0.25);
    /// assert!(c.set("lode", "1").unwrap_err().to_string().starts_with("lode: unknown parameter"));
    /// assert!(c.set("load", "high").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// A [`FieldError`] for an unknown key or text that is not a value of its kind.
    pub fn set(&mut self, key: &str, text: &str) -> Result<(), FieldError> {
        let mut one = Scenario::default();
        one.set(key, text)?;
        *self = one.apply_to(core::mem::take(self));
        Ok(())
    }
}

/// A scenario file as read: its parameters and its `[[station]]` positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScenarioFile {
    /// The keys the file sets.
    pub scenario: Scenario,
    /// The positions of its `[[station]]` tables, in order (none without).
    pub positions: Vec<Position>,
}

impl ScenarioFile {
    /// The configuration: the defaults, then the file, then `top` (the command
    /// line's flags). Positions imply topology `positions` and their number of
    /// stations unless the file sets them.
    pub fn config(&self, top: &Scenario) -> RadioConfig {
        let mut c = self.scenario.apply_to(RadioConfig::default());
        if !self.positions.is_empty() {
            c.positions.clone_from(&self.positions);
            if self.scenario.topology.is_none() {
                c.topology = Topology::Positions;
            }
            if self.scenario.stations.is_none() {
                c.stations = u16::try_from(self.positions.len()).unwrap_or(u16::MAX);
            }
        }
        top.apply_to(c)
    }
}

/// The configuration of the scenario in `text` over the defaults (not validated);
/// `origin` names the file in errors.
///
/// # Errors
///
/// As [`read`].
pub fn parse(text: &str, origin: &str) -> Result<RadioConfig, FileError> {
    Ok(read(text, origin)?.config(&Scenario::default()))
}

/// Read the scenario file `text`; `origin` names the file in errors.
///
/// # Errors
///
/// A [`FileError`] with the line and key: TOML that cannot be read, an unknown key, a
/// value that is not of its key's kind, a `[[station]]` table without `x` and `y` or
/// with another key.
pub fn read(text: &str, origin: &str) -> Result<ScenarioFile, FileError> {
    let err = |table: &str, index: usize, key: &str, problem: String| FileError {
        file: origin.to_string(),
        line: Some(locate::line_of_key(text, table, index, key)),
        key: key.to_string(),
        problem,
    };
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |s| locate::line_of(text, s.start));
        FileError {
            file: origin.to_string(),
            line: Some(line),
            key: locate::key_on_line(text, line),
            problem: e.message().trim().to_string(),
        }
    })?;
    let mut out = ScenarioFile::default();
    for (key, value) in &table {
        if key == "station" {
            out.positions = positions(value, &err)?;
            continue;
        }
        let text_value = match value {
            toml::Value::Integer(i) => i.to_string(),
            // The point stays, so that 5.0 is refused where a whole number is
            // expected, as on the command line.
            toml::Value::Float(x) => format!("{x:?}"),
            toml::Value::String(s) => s.clone(),
            toml::Value::Boolean(b) => b.to_string(),
            other => {
                return Err(err(
                    "",
                    0,
                    key,
                    format!(
                        "{} is not a value (a number, a string or a boolean)",
                        other.type_str()
                    ),
                ));
            }
        };
        out.scenario
            .set(key, &text_value)
            .map_err(|e| err("", 0, key, e.error.to_string()))?;
    }
    Ok(out)
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
        assert_eq!(e.problem, "'high' is not a number");
        assert_eq!((e.line, e.key.as_str()), (Some(2), "load"));
        let e = parse("stations = 3\n\nloss = [2.0]\n", "f.toml").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (Some(3), "loss"));
        let e = parse("stations = = 3\n", "f.toml").unwrap_err();
        assert_eq!(e.line, Some(1));
        let e = parse(
            "[[station]]\nx = 1\ny = 2\n[[station]]\nx = 1\nz = 2\n",
            "f.toml",
        )
        .unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (Some(6), "z"));
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
