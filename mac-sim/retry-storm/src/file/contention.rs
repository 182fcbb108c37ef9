//! Contention files: the optimistic-concurrency experiment of [`crate::contention`]
//! written as a scenario file (`experiment = "contention"` and a `[contention]`
//! table), in the storm files' style: TOML, unknown keys refused, each error one line
//! with the file, the line and the key. [`parse_experiment`] reads either kind of file.

use sim_kit::locate;
use sim_kit::time::Time;

use super::schema::{self, ContentionFile, ExperimentName, ServiceKind};
use crate::comparison::Comparison;
use crate::config::ServiceTime;
use crate::contention::ContentionConfig;
use crate::error::{FileError, FileProblem, Param, StormError};

/// A contention experiment read from a file: its name, what it is and its
/// parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct ContentionScenario {
    /// Its name (the `name` key, else the file's stem).
    pub name: String,
    /// One line on what it is.
    pub title: String,
    /// What it is expected to show.
    pub expectation: String,
    /// The experiment's parameters.
    pub config: ContentionConfig,
}

/// What a scenario file describes: a storm scenario or a contention experiment.
#[derive(Clone, Debug)]
pub enum Experiment {
    /// A storm scenario (the default, or `experiment = "storm"`).
    Storm(Comparison),
    /// A contention experiment (`experiment = "contention"`).
    Contention(ContentionScenario),
}

/// Read the scenario file in `text`, of either kind: the top-level `experiment` key
/// chooses the schema (`"storm"`, the default, or `"contention"`). `origin` names the
/// file in errors and, without a `name` key, gives the experiment its name.
///
/// ```
/// use retry_storm::file::{Experiment, parse_experiment};
/// let text = "experiment = \"contention\"\n[contention]\nclients = [20]\n";
/// let Ok(Experiment::Contention(c)) = parse_experiment(text, "mine.toml") else {
///     panic!("a contention file")
/// };
/// assert_eq!((c.name.as_str(), c.config.clients.as_slice()), ("mine", &[20][..]));
/// ```
///
/// # Errors
///
/// The [`FileError`] of [`super::parse`] for a storm file; for a contention file, one
/// with the line and key of a value that cannot be read or used.
pub fn parse_experiment(text: &str, origin: &str) -> Result<Experiment, FileError> {
    // A file that cannot be read at all gets its error from the storm schema.
    match super::experiment_of(text, origin)? {
        Some(ExperimentName::Contention) => {
            parse_contention(text, origin).map(Experiment::Contention)
        }
        _ => super::parse(text, origin).map(Experiment::Storm),
    }
}

/// Read the contention file in `text` (`origin` names it in errors).
///
/// # Errors
///
/// A [`FileError`] with the line and key: TOML that cannot be read, an unknown key, a
/// value of the wrong type or out of range, or a file that is not a contention
/// experiment.
pub fn parse_contention(text: &str, origin: &str) -> Result<ContentionScenario, FileError> {
    let at = |table: &str, key: &str, problem: FileProblem| FileError {
        file: origin.to_string(),
        line: Some(locate::line_of_key(text, table, 0, key)),
        key: key.to_string(),
        problem,
    };
    if super::experiment_of(text, origin)? == Some(ExperimentName::Storm) {
        let problem = FileProblem::OtherExperiment {
            is: "storm scenario",
            wanted: "contention experiment",
        };
        return Err(at("", "experiment", problem));
    }
    // The kind "none" was renamed "no-jitter": in --strategy, none means no retries.
    let old_none = toml::from_str::<toml::Table>(text).ok().is_some_and(|t| {
        t.get("contention")
            .and_then(|c| c.get("kinds"))
            .and_then(toml::Value::as_array)
            .is_some_and(|k| k.iter().any(|v| v.as_str() == Some("none")))
    });
    if old_none {
        let problem = FileProblem::Renamed {
            old: "none",
            new: "no-jitter",
            why: "exponential backoff without jitter (in --strategy, none means no retries)",
        };
        return Err(at("contention", "kinds", problem));
    }
    let f: ContentionFile =
        toml::from_str(text).map_err(|e| super::toml_error(text, origin, &e))?;
    let d = ContentionConfig::default();
    let t = f.contention.as_ref();
    if t.is_some_and(|t| t.sigma.is_some() && t.call != Some(ServiceKind::LogNormal)) {
        return Err(at("contention", "sigma", FileProblem::NotForKind));
    }
    let get =
        |k: fn(&schema::ContentionTable) -> Option<schema::Duration>| t.and_then(k).map(|x| x.0);
    let mean = get(|t| t.mean).unwrap_or_else(|| d.call.mean_ps());
    let config = ContentionConfig {
        clients: t.and_then(|t| t.clients.clone()).unwrap_or(d.clients),
        call: match t.and_then(|t| t.call) {
            Some(ServiceKind::Exponential) => ServiceTime::Exponential(mean),
            Some(ServiceKind::LogNormal) => ServiceTime::LogNormal {
                mean,
                sigma: t
                    .and_then(|t| t.sigma)
                    .ok_or_else(|| at("contention", "sigma", FileProblem::Missing))?,
            },
            Some(ServiceKind::Fixed) | None => ServiceTime::Fixed(mean),
        },
        kinds: t.and_then(|t| t.kinds.clone()).unwrap_or(d.kinds),
        base_ns: get(|t| t.base).map_or(d.base_ns, Time::as_ns),
        cap_ns: get(|t| t.cap).map_or(d.cap_ns, Time::as_ns),
        seed: f.seed.unwrap_or(d.seed),
    };
    config.validate().map_err(|e| {
        let key = match &e {
            StormError::Param { param, .. } => match param {
                Param::ContentionClients => "clients",
                Param::ContentionBase => "base",
                Param::ContentionKinds => "kinds",
                Param::ServiceSigma => "sigma",
                _ => "mean",
            },
            _ => "",
        };
        at("contention", key, FileProblem::Invalid(Box::new(e)))
    })?;
    let stem = std::path::Path::new(origin)
        .file_stem()
        .map_or_else(|| origin.to_string(), |s| s.to_string_lossy().into_owned());
    Ok(ContentionScenario {
        name: f.name.unwrap_or(stem),
        title: f.title.unwrap_or_default(),
        expectation: f.expectation.unwrap_or_default(),
        config,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// A table: its header (empty for the top level) and its keys, each with a good
    /// value and a bad one.
    type Table = (
        &'static str,
        &'static [(&'static str, &'static str, &'static str)],
    );

    /// Every key of a contention file: (header, [(key, good, bad)]); the bad values
    /// are out of range where the key has a range, else of the wrong type.
    const FULL: &[Table] = &[
        (
            "",
            &[
                ("experiment", "\"contention\"", "\"storm\""),
                ("name", "\"mine\"", "1"),
                ("title", "\"every key\"", "[]"),
                ("expectation", "\"nothing\"", "2"),
                ("seed", "7", "-1"),
            ],
        ),
        (
            "[contention]",
            &[
                ("clients", "[10, 20]", "[0, 20]"),
                ("call", "\"lognormal\"", "\"normal\""),
                ("mean", "\"2ms\"", "\"2\""),
                ("sigma", "0.5", "0.0"),
                ("kinds", "[\"full\", \"no-jitter\"]", "[\"full\", \"full\"]"),
                ("base", "\"5ms\"", "\"5s\""),
                ("cap", "\"2s\"", "\"0s\""),
            ],
        ),
    ];

    /// The file with key `bad` (table, key) given its bad value, and the line of
    /// each key.
    fn text(bad: Option<(usize, usize)>) -> (String, Vec<Vec<usize>>) {
        let (mut out, mut lines, mut line) = (String::new(), Vec::new(), 0);
        for (t, (header, keys)) in FULL.iter().enumerate() {
            if !header.is_empty() {
                out.push_str(&format!("{header}\n"));
                line += 1;
            }
            let mut at = Vec::new();
            for (k, (key, good, worse)) in keys.iter().enumerate() {
                let v = if bad == Some((t, k)) { worse } else { good };
                out.push_str(&format!("{key} = {v}\n"));
                line += 1;
                at.push(line);
            }
            lines.push(at);
        }
        (out, lines)
    }

    #[test]
    fn the_full_file_is_good() {
        let c = parse_contention(&text(None).0, "full.toml").unwrap();
        assert_eq!(c.name, "mine");
        let want = ContentionConfig {
            clients: vec![10, 20],
            call: ServiceTime::LogNormal {
                mean: Time::from_ms(2),
                sigma: 0.5,
            },
            kinds: vec![
                crate::contention::Kind::Full,
                crate::contention::Kind::NoJitter,
            ],
            base_ns: 5_000_000,
            cap_ns: 2_000_000_000,
            seed: 7,
        };
        assert_eq!(c.config, want);
    }

    #[test]
    fn every_key_with_a_bad_value_is_named_with_its_line() {
        for (t, (header, keys)) in FULL.iter().enumerate() {
            for (k, (key, _, bad)) in keys.iter().enumerate() {
                let (text, lines) = text(Some((t, k)));
                let line = lines[t][k];
                let e = parse_contention(&text, "full.toml")
                    .expect_err(&format!("{header} {key} = {bad} accepted"));
                let shown = e.to_string();
                assert_eq!(
                    (e.line, e.key.as_str()),
                    (Some(line), *key),
                    "{header} {key} = {bad}: {shown}"
                );
                assert_eq!(shown.lines().count(), 1, "{shown}");
                assert!(
                    shown.starts_with(&format!("full.toml:{line}: {key}: ")),
                    "{shown}"
                );
            }
        }
    }

    /// `none` was this file's word for exponential backoff without jitter, and is
    /// `--strategy`'s for no retries: an old file is refused on its line with the new
    /// word.
    #[test]
    fn the_old_kind_none_points_to_no_jitter() {
        let text = "experiment = \"contention\"\n[contention]\nkinds = [\"full\", \"none\"]\n";
        let e = parse_contention(text, "old.toml").unwrap_err();
        assert_eq!(
            e.to_string(),
            "old.toml:3: kinds: \"none\" is now \"no-jitter\": exponential backoff without jitter (in --strategy, none means no retries)"
        );
        let new = text.replace("\"none\"", "\"no-jitter\"");
        assert!(parse_contention(&new, "new.toml").is_ok());
    }

    /// The keys serde expects in each table, from its "unknown field" message: a key
    /// added to the schema must be added to the walk.
    #[test]
    fn the_walk_covers_every_key_of_the_schema() {
        let (full, _) = text(None);
        for (header, keys) in FULL {
            let unknown = "not_a_key_of_the_schema = 1\n";
            let bad = if header.is_empty() {
                format!("{unknown}{full}")
            } else {
                full.replacen(&format!("{header}\n"), &format!("{header}\n{unknown}"), 1)
            };
            let e = parse_contention(&bad, "full.toml").expect_err("an unknown key");
            let FileProblem::Toml(message) = &e.problem else {
                panic!("{e}")
            };
            let mut expected: BTreeSet<&str> = message
                .split_once("expected")
                .unwrap_or_else(|| panic!("{message}"))
                .1
                .split('`')
                .skip(1)
                .step_by(2)
                .collect();
            if header.is_empty() {
                assert!(expected.remove("contention"), "{message}");
            }
            let walked: BTreeSet<&str> = keys.iter().map(|(k, _, _)| *k).collect();
            assert_eq!(expected, walked, "{header}");
            // The reference (`storm --keys`) documents the contention table's keys.
            if *header == "[contention]" {
                let table = super::super::keys::TABLES
                    .iter()
                    .find(|t| t.header == *header)
                    .expect("the reference has the contention table");
                let listed: BTreeSet<&str> = table.keys.iter().map(|k| k.key).collect();
                assert_eq!(listed, walked, "the reference's {header} differs");
            }
        }
    }
}
