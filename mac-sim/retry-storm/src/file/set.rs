//! Settings on top of a scenario file: `--set KEY=VALUE` and each value of
//! `--sweep KEY=LIST`, for every key of the reference ([`super::keys`]) of either
//! experiment's file. A key is its table's name and the key joined by dots
//! (`horizon`, `load.rate`, `server.slowdown.limit`, `contention.base`); a key of a
//! table that can be repeated names which one, counted from 1 (`trigger.2.start`),
//! or nothing when the file has exactly one (`trigger.start`).
//!
//! A setting replaces the key's value or adds it, creating its table if the file has
//! none (`recovery.sustain`); the file with its settings is then read as any file is,
//! so a set value is checked by the same rules and in the same words. An error at a
//! set key names the setting (`--set load.rate=x: ...`), any other names the file's
//! line, as without settings.
//!
//! ```
//! use retry_storm::file::{Setting, parse_with};
//! let text = "horizon = \"60s\"\n[load]\nkind = \"open\"\nrate = 50.0\nclients = 10\n\
//!             [server]\nworkers = 20\nservice = \"fixed\"\nmean = \"100ms\"\n\
//!             [[strategy]]\nspec = \"exp-full\"\n";
//! let set = [Setting::parse("load.rate=80").unwrap(), Setting::parse("horizon=90s").unwrap()];
//! let sc = parse_with(text, "mine.toml", &set).unwrap();
//! assert_eq!(sc.runs[0].horizon_ps, sim_kit::time::Time::from_secs(90));
//! let bad = parse_with(text, "mine.toml", &[Setting::parse("server.workers=0").unwrap()]);
//! assert!(bad.unwrap_err().to_string().starts_with("--set server.workers=0: "));
//! let unknown = parse_with(text, "mine.toml", &[Setting::parse("server.worker=1").unwrap()]);
//! assert!(unknown.unwrap_err().to_string().contains("mac-sim storm --keys"));
//! ```

use std::fmt;

use serde::Serialize;
use sim_kit::locate;

use super::keys::{KeyDoc, TABLES};
use crate::error::{FileError, FileProblem, Param, StormError};

/// One setting: a key of a scenario file (a dotted path, see the module's docs) and
/// its value as text, written as in `--set` (`8`, `100ms`, `open`, `100ms,200ms`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Setting {
    /// The key, e.g. `server.workers` or `trigger.2.start`.
    pub key: String,
    /// The value as text.
    pub value: String,
    /// How the user gave it, for errors (`--horizon 60s`); `None` for
    /// `--set KEY=VALUE`.
    #[serde(skip)]
    pub given_as: Option<String>,
}

impl Setting {
    /// The setting `key` = `value`.
    pub fn new(key: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            key: key.into(),
            value: value.into(),
            given_as: None,
        }
    }

    /// This setting, given as `text` (a flag and its value, `--horizon 60s`, or a
    /// sweep's value, `--sweep horizon=60s`): its errors start with `text`.
    pub fn given_as(mut self, text: impl Into<String>) -> Self {
        self.given_as = Some(text.into());
        self
    }

    /// How the user gave it: `--set KEY=VALUE`, or what [`given_as`](Self::given_as)
    /// says.
    pub fn shown(&self) -> String {
        self.given_as
            .clone()
            .unwrap_or_else(|| format!("--set {self}"))
    }

    /// Read `KEY=VALUE`. Whether the key exists and the value fits it is checked
    /// when the setting is applied to a file ([`parse_with`](super::parse_with)).
    ///
    /// # Errors
    ///
    /// [`StormError::Param`] ([`Param::Set`]) for text without `=` or with an empty
    /// key.
    pub fn parse(text: &str) -> Result<Self, StormError> {
        match text.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok(Self::new(k.trim(), v.trim())),
            _ => Err(StormError::param(Param::Set, text)),
        }
    }

    /// A [`FileError`] that blames this setting.
    fn error(&self, problem: FileProblem) -> FileError {
        FileError {
            file: self.shown(),
            line: None,
            key: String::new(),
            problem,
        }
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, self.value)
    }
}

/// What a key names: a table of the reference, which of its tables if it can be
/// repeated (0-based, `None` for "the only one"), and the key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Target {
    /// The table's name (`server.slowdown`; empty for the top level).
    pub table: &'static str,
    /// Whether the table can be repeated (`[[trigger]]`).
    pub array: bool,
    /// Which of a repeated table, counted from 0, if the key says.
    pub index: Option<usize>,
    /// The key's line of the reference.
    pub doc: &'static KeyDoc,
}

impl Target {
    /// Whether the key's value is a list.
    pub fn is_list(&self) -> bool {
        self.doc.value.starts_with("list of ")
    }

    /// Whether the key's value is written as text: a name, a duration, text.
    pub fn is_text(&self) -> bool {
        is_text(
            self.doc
                .value
                .strip_prefix("list of ")
                .unwrap_or(self.doc.value),
        )
    }
}

/// The keys that are not a scenario's parameters: the one that chooses the schema.
const NOT_SETTABLE: [&str; 1] = ["experiment"];

/// The target of `key`.
///
/// # Errors
///
/// The problem in words: a key the reference does not list, or one that cannot be
/// set.
pub(crate) fn resolve(key: &str) -> Result<Target, String> {
    if NOT_SETTABLE.contains(&key) {
        return Err(format!(
            "{key} chooses the file's schema and cannot be set: choose the scenario"
        ));
    }
    for t in TABLES {
        let name = t.header.trim_matches(|c| c == '[' || c == ']');
        let array = t.header.starts_with("[[");
        let rest = if name.is_empty() {
            Some(key)
        } else {
            key.strip_prefix(name).and_then(|r| r.strip_prefix('.'))
        };
        let Some(rest) = rest else { continue };
        let (index, leaf) = match rest.split_once('.') {
            Some((n, leaf)) if array => match n.parse::<usize>() {
                Ok(n) if n >= 1 => (Some(n - 1), leaf),
                _ => {
                    return Err(format!(
                        "{n} is not a table's number: {name}.N.KEY counts the [[{name}]] tables from 1"
                    ));
                }
            },
            _ => (None, rest),
        };
        if let Some(doc) = t.keys.iter().find(|d| d.key == leaf) {
            return Ok(Target {
                table: name,
                array,
                index,
                doc,
            });
        }
    }
    Err("no such key: see mac-sim storm --keys".to_string())
}

/// Whether a value described as `desc` in the reference is written as a TOML string:
/// text, a strategy's specification, a duration or an instant, a name.
fn is_text(desc: &str) -> bool {
    desc == "text"
        || desc == "strategy"
        || desc.starts_with("duration")
        || desc.starts_with("instant")
        || desc.starts_with('"')
}

/// The TOML value of `text` for a key described as `desc`: a string for text,
/// names and durations; else the TOML value it reads as (a number, a boolean), or
/// the string itself when it reads as none, for the schema to refuse in its words.
fn scalar(desc: &str, text: &str) -> toml::Value {
    let text = text.trim();
    if is_text(desc) {
        return toml::Value::String(text.to_string());
    }
    match toml::from_str::<toml::Table>(&format!("v = {text}")) {
        Ok(mut t) if t.len() == 1 => t.remove("v").unwrap_or(toml::Value::Boolean(false)),
        _ => toml::Value::String(text.to_string()),
    }
}

/// The TOML value of a setting of `target`: a list's items are comma-separated.
fn value_of(target: &Target, text: &str) -> toml::Value {
    match target.doc.value.strip_prefix("list of ") {
        Some(item) => toml::Value::Array(
            sim_kit::schema::split_items(text)
                .map(|x| scalar(item, x))
                .collect(),
        ),
        None => scalar(target.doc.value, text),
    }
}

/// Put `value` at `target` in `root`, creating the tables on the way; returns the
/// index of the repeated table it went into (0 for a table that is not repeated).
fn put(root: &mut toml::Table, target: &Target, value: toml::Value) -> Result<usize, String> {
    let mut table = root;
    let mut index = 0;
    if !target.table.is_empty() {
        let parts: Vec<&str> = target.table.split('.').collect();
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            let entry = table.entry(part.to_string());
            if last && target.array {
                let name = target.table;
                let toml::Value::Array(items) = entry.or_insert(toml::Value::Array(Vec::new()))
                else {
                    return Err(format!(
                        "the file's {name} is not a list of [[{name}]] tables"
                    ));
                };
                index = match (target.index, items.len()) {
                    (_, 0) => return Err(format!("the file has no [[{name}]] table")),
                    (None, 1) => 0,
                    (None, n) => {
                        return Err(format!(
                            "the file has {n} [[{name}]] tables: say which, {name}.1.{} to {name}.{n}.{}",
                            target.doc.key, target.doc.key
                        ));
                    }
                    (Some(k), n) if k >= n => {
                        return Err(format!(
                            "the file has {n} [[{name}]] table{}",
                            if n == 1 { "" } else { "s" }
                        ));
                    }
                    (Some(k), _) => k,
                };
                let toml::Value::Table(t) = &mut items[index] else {
                    return Err(format!("the file's {name} is not a list of tables"));
                };
                table = t;
            } else {
                let toml::Value::Table(t) = entry.or_insert(toml::Value::Table(toml::Table::new()))
                else {
                    return Err(format!(
                        "the file's {} is not a table",
                        parts[..=i].join(".")
                    ));
                };
                table = t;
            }
        }
    }
    table.insert(target.doc.key.to_string(), value);
    Ok(index)
}

/// A setting applied: where it went.
struct Applied<'a> {
    setting: &'a Setting,
    table: &'static str,
    index: usize,
    key: &'static str,
    /// Whether the setting created its table: then every error in it is the
    /// setting's (a key the new table lacks).
    created: bool,
}

/// Whether `root` has the table of `target` (for a repeated one, any).
fn has_table(root: &toml::Table, target: &Target) -> bool {
    let mut table = root;
    for part in target.table.split('.').filter(|p| !p.is_empty()) {
        match table.get(part) {
            Some(toml::Value::Table(t)) => table = t,
            Some(toml::Value::Array(a)) => return !a.is_empty(),
            _ => return false,
        }
    }
    true
}

/// The file `text` from `origin` with `settings` applied, read by `parse` (the
/// reading of a storm scenario or of a contention experiment); without settings,
/// `parse` of the text itself.
///
/// # Errors
///
/// The [`FileError`] of `parse`, naming the setting when its key is at fault and
/// else the line of the file; a [`FileError`] naming a setting whose key the
/// reference does not list or whose table the file does not have (or has several of,
/// without saying which).
pub(crate) fn apply<T>(
    text: &str,
    origin: &str,
    settings: &[Setting],
    parse: impl Fn(&str, &str) -> Result<T, FileError>,
) -> Result<T, FileError> {
    if settings.is_empty() {
        return parse(text, origin);
    }
    let mut root: toml::Table =
        toml::from_str(text).map_err(|e| super::toml_error(text, origin, &e))?;
    let mut applied = Vec::with_capacity(settings.len());
    for (i, s) in settings.iter().enumerate() {
        if settings[..i].iter().any(|o| o.key == s.key) {
            return Err(s.error(FileProblem::Setting("the key is set twice".into())));
        }
        let target = resolve(&s.key).map_err(|m| s.error(FileProblem::Setting(m)))?;
        let created = !has_table(&root, &target);
        let index = put(&mut root, &target, value_of(&target, &s.value))
            .map_err(|m| s.error(FileProblem::Setting(m)))?;
        applied.push(Applied {
            setting: s,
            table: target.table,
            index,
            key: target.doc.key,
            created,
        });
    }
    let edited = toml::to_string(&root).map_err(|e| FileError {
        file: origin.to_string(),
        line: None,
        key: String::new(),
        problem: FileProblem::Toml(e.to_string()),
    })?;
    parse(&edited, origin).map_err(|e| blame(e, &edited, text, &applied))
}

/// The settings of `applied`, as the user gave them, for an error in the file that
/// they may have caused.
fn shown(applied: &[Applied<'_>]) -> String {
    let all: Vec<String> = applied.iter().map(|a| a.setting.shown()).collect();
    all.join(", ")
}

/// An error of the edited file: the setting's, if it is at a set key, else at the
/// key's line in the file as written.
fn blame(e: FileError, edited: &str, original: &str, applied: &[Applied<'_>]) -> FileError {
    let Some(line) = e.line else { return e };
    let (table, index) = table_at(edited, line);
    if let Some(a) = applied
        .iter()
        .find(|a| a.table == table && a.index == index && (a.created || a.key == e.key))
    {
        return a.setting.error(e.problem);
    }
    let line = if e.key.is_empty() || e.key == table {
        locate::line_of_key(original, "", 0, &table)
    } else {
        locate::line_of_key(original, &table, index, &e.key)
    };
    FileError {
        line: Some(line),
        problem: FileProblem::WithSettings(Box::new(e.problem), shown(applied)),
        ..e
    }
}

/// The table that `line` (1-based) of `text` is in, and which of its name (0-based):
/// the last `[table]` or `[[table]]` header at or above it.
fn table_at(text: &str, line: usize) -> (String, usize) {
    let lines: Vec<&str> = text.lines().take(line).collect();
    let header = |l: &str| {
        let l = l.trim();
        l.starts_with('[')
            .then(|| l.trim_matches(|c| c == '[' || c == ']').trim().to_string())
    };
    let Some((at, name)) = lines
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, l)| header(l).map(|n| (i, n)))
    else {
        return (String::new(), 0);
    };
    let index = lines[..at]
        .iter()
        .filter(|l| header(l).as_deref() == Some(name.as_str()))
        .count();
    (name, index)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "horizon = \"60s\"\n[load]\nkind = \"open\"\nrate = 50.0\nclients = 10\n\
        [server]\nworkers = 20\nservice = \"fixed\"\nmean = \"100ms\"\n\
        [[trigger]]\nkind = \"outage\"\nstart = \"20s\"\nend = \"30s\"\n\
        [[strategy]]\nspec = \"exp-full\"\n[[strategy]]\nspec = \"none\"\n";

    fn set(pairs: &[&str]) -> Result<crate::Comparison, FileError> {
        let s: Vec<Setting> = pairs.iter().map(|p| Setting::parse(p).unwrap()).collect();
        super::super::parse_with(FILE, "f.toml", &s)
    }

    #[test]
    fn every_key_of_the_reference_resolves_to_its_table() {
        for t in TABLES {
            let name = t.header.trim_matches(|c| c == '[' || c == ']');
            for k in t.keys {
                let key = if name.is_empty() {
                    k.key.to_string()
                } else {
                    format!("{name}.{}", k.key)
                };
                if NOT_SETTABLE.contains(&k.key) {
                    assert!(resolve(&key).is_err());
                    continue;
                }
                let r = resolve(&key).unwrap_or_else(|e| panic!("{key}: {e}"));
                assert_eq!((r.table, r.doc.key), (name, k.key), "{key}");
            }
        }
    }

    #[test]
    fn values_take_their_keys_type() {
        let sc = set(&[
            "load.rate=80",
            "server.workers=30",
            "trigger.start=10s",
            "recovery.sustain=2s",
            "timeouts=200ms,300ms",
            "server.slowdown.limit=5",
            "server.slowdown.factor=1.5",
            "server.slowdown.step=2",
            "server.slowdown.max=10s",
            "strategy.2.spec=immediate",
        ])
        .unwrap();
        let r = &sc.runs[0];
        assert_eq!(r.server.workers, Some(30));
        assert_eq!(r.triggers[0].start_ps, sim_kit::time::Time::from_secs(10));
        assert_eq!(r.timeouts_ps.len(), 2);
        assert_eq!(r.recovery.sustain_ps, sim_kit::time::Time::from_secs(2));
        assert_eq!(sc.runs[1].strategy.name, "immediate");
        assert!(r.server.slowdown.is_some());
    }

    #[test]
    fn errors_name_the_setting_or_the_line() {
        let e = |pairs: &[&str]| set(pairs).unwrap_err().to_string();
        assert!(
            e(&["load.rate=x"]).starts_with("--set load.rate=x: "),
            "{}",
            e(&["load.rate=x"])
        );
        assert!(e(&["server.workers=2.5"]).starts_with("--set server.workers=2.5: "));
        assert!(e(&["trigger.end=90s"]).starts_with("--set trigger.end=90s: "));
        assert!(e(&["strategy.spec=none"]).contains("strategy.1.spec to strategy.2.spec"));
        assert!(e(&["strategy.3.spec=none"]).contains("has 2 [[strategy]] tables"));
        assert!(e(&["trigger.0.start=1s"]).contains("counts the [[trigger]] tables from 1"));
        assert!(e(&["chain.name=x"]).contains("no [[chain]] table"));
        assert!(e(&["experiment=contention"]).contains("cannot be set"));
        assert!(e(&["nope=1"]).contains("mac-sim storm --keys"));
        // A strategy is text, even when it would read as a TOML number.
        assert!(e(&["strategy.1.spec=inf"]).contains("unknown part 'inf'"));
        assert!(e(&["horizon=1s", "horizon=2s"]).contains("set twice"));
        // A partial table created by a setting: its missing keys are the setting's.
        assert!(e(&["server.rate_limit.burst=5"]).starts_with("--set server.rate_limit.burst=5"));
        // A setting that makes a key of the file wrong: the file's line.
        let closed = e(&["load.kind=closed"]);
        assert!(closed.starts_with("f.toml:4: rate: "), "{closed}");
        assert!(
            closed.ends_with("(with --set load.kind=closed)"),
            "{closed}"
        );
        for m in [closed, e(&["load.rate=x"])] {
            assert_eq!(m.lines().count(), 1);
        }
    }

    #[test]
    fn tables_of_a_line() {
        let text = "a = 1\n[x]\nb = 2\n[[t]]\nc = 3\n[[t]]\nc = 4\n";
        assert_eq!(table_at(text, 1), (String::new(), 0));
        assert_eq!(table_at(text, 3), ("x".into(), 0));
        assert_eq!(table_at(text, 7), ("t".into(), 1));
    }
}
