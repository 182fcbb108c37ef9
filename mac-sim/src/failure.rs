//! The binary's one error type and its exit statuses.
//!
//! Every subcommand returns `Result<(), Failure>`; `main` prints the failure as one
//! line, `mac-sim: error: …`, on standard error and exits with [`Failure::status`]:
//!
//! | status | meaning |
//! | --- | --- |
//! | 0 | success |
//! | 1 | the environment failed while working: a result file could not be written, a finished run could not be stored (the disk is full, another process held the results database locked for 30 s, it holds the run with other results), standard output closed with an error, threads could not be started, a run failed |
//! | 2 | bad arguments, found before anything runs: an option, value or combination the simulators cannot accept, an output path that is not a usable directory, or a file the command reads or writes that cannot serve (a results database or merge output whose folder is missing or cannot be written, a file that is not a results database, is damaged or is of another schema or model, shards that do not belong together or disagree, a database that cannot be written and lacks runs); a folder where an output file goes, or two outputs that clash; work whose estimated memory exceeds what the process may have or `--max-memory` |
//! | 129 | stopped by SIGHUP (the terminal closed): nothing was published |
//! | 130 | stopped by SIGINT (Ctrl-C): nothing was published |
//! | 143 | stopped by SIGTERM (`kill`, `timeout`, a batch system's time limit): nothing was published |
//!
//! One rule for files: what is wrong with a file or folder the user named is a bad
//! argument (2), whichever command finds it (`sweep --db` and `merge` alike); a
//! failure of the machine while the work goes on is the environment (1).
//!
//! A signal stops the command as [`crate::interrupt`] says: 128 + the signal's number,
//! whether it came during the work or after it, and no temporary is left; a results
//! database keeps its finished runs. A second signal quits at once with its own status.

use std::fmt;

use csma_cd::CaptureError;
use csma_cd::ConfigError;
use csma_cd_host::SweepError;
use retry_storm::StormError;
use sim_host::OutputError;
use sim_host::StoreError;

use crate::interrupt::{self, Signal};

/// The exit-status table, as printed at the end of `mac-sim --help`.
pub const EXIT_STATUS_HELP: &str = "Exit status: 0 success; 1 the environment failed while working (a result file could not be written or a run stored, threads could not start, a run failed); 2 bad arguments, an unusable output directory, an output path that cannot be written or outputs that clash, or a results database that cannot serve (its folder missing or not writable, not a database, damaged, another schema or model), or work that would not fit in memory, found before anything runs; stopped by a signal, nothing published, no temporary left (a database keeps its finished runs): 129 SIGHUP, 130 SIGINT (Ctrl-C), 143 SIGTERM.";

/// What kind of failure ended the command; decides the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// Bad arguments: exit status 2.
    Usage,
    /// The environment or I/O failed: exit status 1.
    Environment,
    /// A signal stopped the command: exit status 128 + its number.
    Interrupted(Signal),
}

impl FailureKind {
    /// A signal stopped the command: the one received (Ctrl-C if none was, as when a
    /// library reports a cancel flag raised by other means).
    fn interrupted() -> Self {
        Self::Interrupted(interrupt::received().unwrap_or(Signal::Interrupt))
    }
}

/// Why a command failed: its kind and the underlying error, shown as one line.
#[derive(Debug)]
pub struct Failure {
    kind: FailureKind,
    error: Box<dyn std::error::Error + Send + Sync>,
}

impl Failure {
    /// Bad arguments, with the error that says which.
    pub fn usage(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self {
            kind: FailureKind::Usage,
            error: error.into(),
        }
    }

    /// An environment or I/O failure.
    pub fn environment(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self {
            kind: FailureKind::Environment,
            error: error.into(),
        }
    }

    /// A signal stopped the command: `what` says what was left undone.
    pub fn interrupted(what: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self {
            kind: FailureKind::interrupted(),
            error: what.into(),
        }
    }

    /// The process exit status, from the table in the module docs.
    pub fn status(&self) -> u8 {
        match self.kind {
            FailureKind::Usage => 2,
            FailureKind::Environment => 1,
            FailureKind::Interrupted(s) => s.status(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)
    }
}

impl From<ConfigError> for Failure {
    fn from(e: ConfigError) -> Self {
        Self::usage(e)
    }
}

impl From<csma_cd::SpecError> for Failure {
    fn from(e: csma_cd::SpecError) -> Self {
        Self::usage(e)
    }
}

impl From<CaptureError> for Failure {
    fn from(e: CaptureError) -> Self {
        match e {
            CaptureError::Config(e) => e.into(),
            CaptureError::Io(e) => Self::environment(e),
        }
    }
}

impl From<StormError> for Failure {
    fn from(e: StormError) -> Self {
        match e {
            // Every storm command publishes through one gate, so nothing is.
            StormError::Interrupted => {
                Self::interrupted("storm interrupted; nothing was published")
            }
            e => Self::usage(e),
        }
    }
}

/// A result file that could not be written: the environment failed. (An output path
/// refused before the work starts is a usage error: see `sim_host::output::plan::check`
/// at the call sites.)
impl From<OutputError> for Failure {
    fn from(e: OutputError) -> Self {
        Self::environment(e)
    }
}

impl From<SweepError> for Failure {
    fn from(e: SweepError) -> Self {
        let kind = match &e {
            SweepError::Spec(_) | SweepError::OutputDir(_) | SweepError::ShardWithoutDb => {
                FailureKind::Usage
            }
            SweepError::Store(e) => store_kind(e),
            SweepError::Interrupted { .. } => FailureKind::interrupted(),
            SweepError::Run(_) | SweepError::Write(_) => FailureKind::Environment,
        };
        Self {
            kind,
            error: Box::new(e),
        }
    }
}

/// A file or folder the user named that cannot serve (a missing or read-only folder,
/// a file that is not a database, a damaged one, another program's or model's file,
/// shards that do not belong together or disagree, an output file in the way) is a
/// bad argument, found before anything runs, for `sweep --db` and `merge` alike;
/// SQLite or the disk failing while the work goes on, or another process storing the
/// same runs, is the environment.
fn store_kind(e: &StoreError) -> FailureKind {
    match e {
        StoreError::Sql(..)
        | StoreError::Io(..)
        | StoreError::Duplicate { .. }
        | StoreError::Busy { .. } => FailureKind::Environment,
        _ => FailureKind::Usage,
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Self {
        Self {
            kind: store_kind(&e),
            error: Box::new(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_status() {
        assert_eq!(Failure::usage("x").status(), 2);
        assert_eq!(Failure::environment("x").status(), 1);
        let interrupted = Failure::from(SweepError::Interrupted {
            runs_done: 1,
            runs: 2,
            db: None,
        });
        assert_eq!(interrupted.status(), 130);
        let by = |s| Failure {
            kind: FailureKind::Interrupted(s),
            error: "x".into(),
        };
        assert_eq!(by(Signal::Terminate).status(), 143);
        assert_eq!(by(Signal::Hangup).status(), 129);
    }

    #[test]
    fn a_database_that_cannot_serve_is_2_a_failure_while_storing_is_1() {
        use sim_host::{Damage, Unusable};
        use std::path::PathBuf;
        let p = || PathBuf::from("c.db");
        for e in [
            StoreError::Unusable(p(), Unusable::NoFolder(PathBuf::from("x"))),
            StoreError::Unusable(p(), Unusable::Missing),
            StoreError::NotADatabase(p()),
            StoreError::Damaged(p(), Damage::Checksum { id: 1 }),
            StoreError::Schema(p()),
        ] {
            assert_eq!(Failure::from(e).status(), 2);
        }
        let sql = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
            None,
        );
        assert_eq!(Failure::from(StoreError::Sql(p(), sql)).status(), 1);
        let twice = StoreError::Duplicate { path: p(), seed: 1 };
        assert_eq!(Failure::from(twice).status(), 1);
    }
}
