//! A scenario by name or path: a preset of [`retry_storm::presets`], or else a
//! scenario file read from disk, as a [`Source`] that gives a storm scenario
//! ([`Source::scenario`]) or an experiment of either kind ([`Source::experiment`]).

use std::path::Path;

use retry_storm::error::{FileError, FileProblem};
use retry_storm::file::Experiment;
use retry_storm::presets::{Options, Source};
use retry_storm::{Comparison, StormError};

/// A preset by name (the contention experiment among them), or else the scenario
/// file at `name_or_path`, read.
///
/// # Errors
///
/// [`StormError::UnknownScenario`] for a name that is neither a preset nor a file
/// that exists (and does not look like a path: no `/` and no `.toml`);
/// [`StormError::File`] for a file that cannot be read.
pub fn source(name_or_path: &str) -> Result<Source, StormError> {
    match Source::preset(name_or_path) {
        Some(s) => Ok(s),
        None => Ok(Source::file(name_or_path, read(name_or_path)?)),
    }
}

/// A storm preset by name, or else the storm scenario file at `name_or_path`, with
/// `opts` applied.
///
/// # Errors
///
/// As [`source`]; then those of [`Source::scenario`].
pub fn load(name_or_path: &str, opts: &Options) -> Result<Comparison, StormError> {
    source(name_or_path)?.scenario(opts)
}

/// A preset by name (the contention experiment among them), or else the scenario
/// file of either kind at `name_or_path`, with `opts` applied.
///
/// # Errors
///
/// As [`source`]; then those of [`Source::experiment`].
pub fn load_experiment(name_or_path: &str, opts: &Options) -> Result<Experiment, StormError> {
    source(name_or_path)?.experiment(opts)
}

/// The text of the scenario file at `name_or_path`.
///
/// # Errors
///
/// [`StormError::UnknownScenario`] for a name that is not a file and does not look
/// like a path (no `/` and no `.toml`); [`StormError::File`] for a file that cannot
/// be read.
fn read(name_or_path: &str) -> Result<String, StormError> {
    let path = Path::new(name_or_path);
    let looks_like_path = name_or_path.contains('/') || name_or_path.ends_with(".toml");
    if !looks_like_path && !path.is_file() {
        return Err(StormError::UnknownScenario(name_or_path.to_string()));
    }
    std::fs::read_to_string(path).map_err(|e| {
        StormError::from(FileError {
            file: name_or_path.to_string(),
            line: None,
            key: String::new(),
            problem: FileProblem::Read(e.kind()),
        })
    })
}

/// The retry configuration at `path` for the report card: a gRPC service config, an
/// AWS config profile or a strategy ([`retry_storm::card::policy::parse`]).
///
/// # Errors
///
/// [`StormError::File`] for a file that cannot be read, or what the card cannot read
/// or express in it, with its line and key.
pub fn policy_file(path: &str) -> Result<retry_storm::card::ClientPolicy, StormError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        StormError::from(FileError {
            file: path.to_string(),
            line: None,
            key: String::new(),
            problem: FileProblem::Policy(format!("cannot read the policy file: {}", e.kind())),
        })
    })?;
    retry_storm::card::policy::parse(&text, path)
}
