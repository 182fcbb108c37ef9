//! Scenario files: the schema as readable TOML (`mac-sim run --scenario FILE.toml`),
//! with units written out (`duration = "10s"`, `bit_rate = "10M"`, `frames =
//! "64:7,594:4,1518:1"`, `load = 0.6` or `"saturated"`), and the `"scenario"` key of a
//! run's JSON result, so a result re-runs from its own file. Every key is optional;
//! unknown keys are refused. Errors name the file, the line and the key.

use sim_kit::locate::{key_line, key_on_line, line_of, unknown_key};

use super::{FieldError, Scenario};
use crate::config::RunConfig;

/// A scenario that could not be read: the kit's one file error
/// ([`sim_kit::locate::FileError`]: the file, the line when known, the key when known,
/// and what is wrong), `FILE:LINE: KEY: PROBLEM`.
pub type ScenarioError = sim_kit::locate::FileError;

/// The text of a value in a file: a string as it is, a number or a boolean as
/// written (a float keeps its point, `5.0`, so that a whole-number key refuses it as
/// the command line does); `None` for an array or a table.
fn toml_text(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(x) => Some(format!("{x:?}")),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn json_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

impl Scenario {
    /// Reads TOML text.
    ///
    /// # Errors
    ///
    /// The text is not TOML, has an unknown key or a value that is not of its
    /// parameter's kind; the error's file is empty (see
    /// [`Scenario::from_file_text`]).
    pub fn from_toml(text: &str) -> Result<Scenario, ScenarioError> {
        let err = |line: usize, key: String, message: String| {
            ScenarioError::new("", known(line), key, message)
        };
        let table: toml::Table = toml::from_str(text).map_err(|e| {
            let line = e.span().map_or(0, |s| line_of(text, s.start));
            let mut msg = e.message().trim().to_string();
            let key = unknown_key(&msg).unwrap_or_else(|| key_on_line(text, line));
            if msg.contains("too large") {
                // TOML's integers are 64-bit signed; a seed may be any u64.
                msg.push_str(&format!(
                    ": TOML's integers stop at {}; write a larger one as a string ({key} = \"18446744073709551615\")",
                    i64::MAX
                ));
            }
            err(line, key, msg)
        })?;
        let mut s = Scenario::default();
        for (key, value) in &table {
            let line = key_line(text, key, 0);
            let value = toml_text(value).ok_or_else(|| {
                err(
                    line,
                    key.clone(),
                    "expected a single value, not an array or a table".into(),
                )
            })?;
            s.set(key, &value)
                .map_err(|e| err(line, key.clone(), e.error.to_string()))?;
        }
        Ok(s)
    }

    /// Reads the `"scenario"` object of a `mac-sim run --json` result.
    fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let err = |line: usize, key: String, message: String| {
            ScenarioError::new("", known(line), key, message)
        };
        // Bad JSON (a word not quoted, a comma missing) names the key on its line.
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|x| err(x.line(), key_on_line(text, x.line()), x.to_string()))?;
        let Some(obj) = v.get("scenario").and_then(serde_json::Value::as_object) else {
            return Err(err(
                0,
                "scenario".into(),
                "no \"scenario\" object (a `mac-sim run --json` result has one)".into(),
            ));
        };
        // Lines are looked for after the `"scenario"` key, where its block starts.
        let start = text
            .lines()
            .position(|l| l.trim_start().starts_with("\"scenario\""))
            .unwrap_or(0);
        let mut s = Scenario::default();
        for (key, value) in obj {
            let line = key_line(text, key, start);
            let value = json_text(value)
                .ok_or_else(|| err(line, key.clone(), "expected a single value".into()))?;
            s.set(key, &value)
                .map_err(|e| err(line, key.clone(), e.error.to_string()))?;
        }
        Ok(s)
    }

    /// Reads the text of a scenario file named `file` (for the messages): TOML, or
    /// with `json` a `mac-sim run --json` result, whose `"scenario"` key is read;
    /// checks every value. Reading the file itself is the host's
    /// (`csma_cd_host::scenario_file::load`).
    ///
    /// # Errors
    ///
    /// One [`ScenarioError`] naming the file, the line and the key: bad syntax, an
    /// unknown key, a value not of its kind or out of range.
    pub fn from_file_text(
        file: &str,
        text: &str,
        json: bool,
    ) -> Result<(Scenario, RunConfig), ScenarioError> {
        let parsed = if json {
            Self::from_json(text)
        } else {
            Self::from_toml(text)
        };
        let s = parsed.map_err(|e| ScenarioError {
            file: file.to_string(),
            ..e
        })?;
        let cfg = s.to_config().map_err(|e| located(file, text, json, e))?;
        Ok((s, cfg))
    }
}

/// A [`FieldError`] of the file `file` with the line of its key.
fn located(file: &str, text: &str, json: bool, e: FieldError) -> ScenarioError {
    let start = if json {
        text.lines()
            .position(|l| l.trim_start().starts_with("\"scenario\""))
            .unwrap_or(0)
    } else {
        0
    };
    ScenarioError::new(
        file,
        known(key_line(text, &e.key, start)),
        e.key,
        e.error.to_string(),
    )
}

/// A 1-based line, `None` for 0 (not found).
fn known(line: usize) -> Option<usize> {
    (line > 0).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_line_and_key() {
        let e = Scenario::from_toml("seed = 1\nqueue_limt = 3\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (Some(2), "queue_limt"));
        let e = Scenario::from_toml("seed = -1\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (Some(1), "seed"));
        let e = Scenario::from_toml("stations = [1, 2]\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (Some(1), "stations"));
        let json = "{\n  \"config\": {\n    \"stations\": 0\n  },\n  \"scenario\": {\n    \"stations\": 0\n  }\n}\n";
        let e = Scenario::from_file_text("r.json", json, true).unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (Some(6), "stations"), "{e}");
        let json = "{\"scenario\": {\"stations\": \"many\"}}";
        let e = Scenario::from_file_text("r.json", json, true).unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (Some(1), "stations"), "{e}");
        let json = "{\n  \"scenario\": {\n    \"stations\": four,\n    \"seed\": 1\n  }\n}\n";
        let e = Scenario::from_file_text("r.json", json, true).unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (Some(3), "stations"), "{e}");
    }

    /// A value means the same in a file as on the command line: a whole-number key
    /// refuses `5.0` and `1e3` in a file, a flag and a sweep's list alike; a seed
    /// above TOML's largest integer is told to be written as a string, and is read so;
    /// an empty medium is refused, not taken as none.
    #[test]
    fn a_file_a_flag_and_a_list_read_a_value_alike() {
        let e = Scenario::from_toml("stations = 5.0\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (Some(1), "stations"), "{e}");
        assert!(e.problem.contains("'5.0' is not a whole number"), "{e}");
        assert!(Scenario::default().set("stations", "5.0").is_err());
        assert!(Scenario::list("stations", "4,5.0").is_err());
        assert!(Scenario::list("attempt_limit", "1e3").is_err());
        assert!(Scenario::default().set("attempt_limit", "1e3").is_err());
        assert_eq!(Scenario::list("stations", "1..=4:x2,5").unwrap().len(), 4);
        assert_eq!(
            Scenario::from_toml("length_m = 100.0\n").unwrap().length_m,
            Some(100.0)
        );
        let e = Scenario::from_toml("seed = 18446744073709551615\n").unwrap_err();
        assert!(e.problem.contains("as a string"), "{e}");
        let s = Scenario::from_toml("seed = \"18446744073709551615\"\n").unwrap();
        assert_eq!(s.seed, Some(u64::MAX));
        assert!(Scenario::default().set("medium", "").is_err());
        assert_eq!(
            Scenario::from_toml("medium = \"none\"\n").unwrap().medium,
            Some(None)
        );
    }

    /// Values that some parameters refuse, as TOML and as JSON: text no parameter
    /// reads, numbers out of most ranges, a boolean, an array.
    const BAD: &[&str] = &[
        "\"not a value\"",
        "-1",
        "0",
        "1e300",
        "4294967296",
        "true",
        "[1]",
    ];

    /// Every parameter of the table, alone given each of `BAD` in a file that sets
    /// every parameter (TOML, or the `"scenario"` block of a result whose `"config"`
    /// block comes first with the same keys): each value refused is one line naming
    /// the file, the parameter's line and its key; text is refused by every one.
    #[test]
    fn every_key_with_a_bad_value_is_named_with_its_line() {
        let good = Scenario::from_config(&RunConfig::default()).scalars();
        assert_eq!(good.len(), super::super::FIELDS.len());
        let toml_value = |v: &crate::scenario::value::Scalar| {
            toml::to_string(&std::collections::BTreeMap::from([("k", v)]))
                .unwrap()
                .trim()
                .trim_start_matches("k = ")
                .to_string()
        };
        let json_value = |v: &crate::scenario::value::Scalar| serde_json::to_string(v).unwrap();
        for f in super::super::FIELDS {
            let mut refused = 0;
            for bad in BAD {
                // TOML: a comment, then one line per key.
                let mut toml = String::from("# every key\n");
                let mut line = 0;
                for (i, (k, v)) in good.iter().enumerate() {
                    let v = if *k == f.key {
                        bad.to_string()
                    } else {
                        toml_value(v)
                    };
                    toml.push_str(&format!("{k} = {v}\n"));
                    if *k == f.key {
                        line = i + 2;
                    }
                }
                // JSON: the same keys in "config" first, then in "scenario".
                let block = |with_bad: bool| {
                    good.iter()
                        .map(|(k, v)| {
                            let v = if with_bad && *k == f.key {
                                bad.to_string()
                            } else {
                                json_value(v)
                            };
                            format!("    \"{k}\": {v}")
                        })
                        .collect::<Vec<_>>()
                        .join(",\n")
                };
                let json = format!(
                    "{{\n  \"config\": {{\n{}\n  }},\n  \"scenario\": {{\n{}\n  }}\n}}\n",
                    block(false),
                    block(true)
                );
                let json_line = 3 + good.len() + 2 + (line - 2);
                for (name, text, is_json, line) in [
                    ("every.toml", &toml, false, line),
                    ("every.json", &json, true, json_line),
                ] {
                    let Err(e) = Scenario::from_file_text(name, text, is_json) else {
                        assert!(!bad.starts_with('"'), "{} = {bad} accepted", f.key);
                        continue;
                    };
                    refused += 1;
                    let shown = e.to_string();
                    assert_eq!(
                        (e.line, e.key.as_str()),
                        (Some(line), f.key),
                        "{name}: {} = {bad}: {shown}",
                        f.key
                    );
                    assert!(
                        shown.starts_with(&format!("{name}:{line}: {}: ", f.key)),
                        "{shown}"
                    );
                    assert_eq!(shown.lines().count(), 1, "{shown}");
                }
            }
            assert!(refused >= 2, "{}: nothing refused", f.key);
        }
    }
}
