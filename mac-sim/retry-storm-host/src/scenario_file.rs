//! A scenario by name or path: a preset of [`retry_storm::presets`], or else a
//! scenario file read from disk and parsed by [`presets::from_file_text`] (a storm
//! scenario) or [`presets::experiment_from_file_text`] (either kind).

use std::path::Path;

use retry_storm::error::{FileError, FileProblem};
use retry_storm::file::Experiment;
use retry_storm::presets::{self, Options};
use retry_storm::{Scenario, StormError};

/// A preset by name, or else the scenario file at `name_or_path`, with `opts` applied.
///
/// # Errors
///
/// [`StormError::UnknownScenario`] for a name that is neither a preset nor a file
/// that exists (and does not look like a path: no `/` and no `.toml`);
/// [`StormError::File`] for a file that cannot be read or used; the [`StormError`] of
/// [`StormConfig::validate`](retry_storm::StormConfig::validate) for options that do
/// not fit the scenario.
pub fn load(name_or_path: &str, opts: &Options) -> Result<Scenario, StormError> {
    if presets::text(name_or_path).is_some() {
        return presets::scenario(name_or_path, opts);
    }
    let text = read(name_or_path)?;
    presets::from_file_text(&text, name_or_path, opts)
}

/// A preset by name (the contention experiment among them), or else the scenario
/// file of either kind at `name_or_path`, with `opts` applied.
///
/// # Errors
///
/// As [`load`]; for a contention experiment, the errors of
/// [`presets::contention_with_options`].
pub fn load_experiment(name_or_path: &str, opts: &Options) -> Result<Experiment, StormError> {
    if name_or_path == retry_storm::contention::NAME || presets::text(name_or_path).is_some() {
        return presets::experiment(name_or_path, opts);
    }
    let text = read(name_or_path)?;
    presets::experiment_from_file_text(&text, name_or_path, opts)
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
