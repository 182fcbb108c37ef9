//! [`StormError`]: a storm parameter the simulator cannot accept.

use std::fmt;

/// A storm parameter the simulator cannot accept. `Display` is one line.
#[derive(Clone, Debug, PartialEq)]
pub enum StormError {
    /// A scenario name that is not a preset.
    UnknownScenario(String),
    /// A strategy specification that does not parse.
    Strategy(String),
    /// Any other parameter out of range: the message says which and why.
    Param(String),
}

impl fmt::Display for StormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StormError::UnknownScenario(s) => write!(
                f,
                "unknown scenario '{s}': use one of {}, {} (or --list)",
                crate::names::PRESETS.join(", "),
                crate::names::CONTENTION
            ),
            StormError::Strategy(s) => write!(f, "strategy: {s}"),
            StormError::Param(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for StormError {}
