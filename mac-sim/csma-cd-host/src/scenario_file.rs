//! A scenario file read from disk: TOML, or a `mac-sim run --json` result (a `.json`
//! file), parsed and checked by [`Scenario::from_file_text`].

use std::path::Path;

use csma_cd::config::RunConfig;
use csma_cd::scenario::{Scenario, ScenarioError};

/// Reads the scenario file at `path` (TOML, or a `.json` result) and checks every
/// value.
///
/// # Errors
///
/// One [`ScenarioError`] naming the file, the line and the key: an unreadable file,
/// bad syntax, an unknown key, a wrong type or a value out of range.
pub fn load(path: &Path) -> Result<(Scenario, RunConfig), ScenarioError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| ScenarioError::new(file.as_str(), None, "", format!("cannot read: {e}")))?;
    let json = path.extension().is_some_and(|x| x == "json");
    Scenario::from_file_text(&file, &text, json)
}
