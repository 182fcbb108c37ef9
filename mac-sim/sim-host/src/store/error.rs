//! Why a results database could not be used: one error type for every model's store,
//! each message one line that names the file and says what to do.

use std::fmt;
use std::path::PathBuf;

use sim_kit::shard::Shard;

/// What was found wrong in a damaged file.
#[derive(Debug)]
#[non_exhaustive]
pub enum Damage {
    /// SQLite's integrity check failed: its first finding.
    Check(String),
    /// SQLite found the file malformed while reading it.
    Malformed(rusqlite::Error),
    /// The lookup of a run returned the row of another run (a damaged index).
    OtherRun {
        /// The row's id.
        id: i64,
        /// The seed asked for.
        seed: u64,
    },
    /// Several rows hold one run.
    Rows {
        /// The run's seed.
        seed: u64,
        /// How many.
        count: usize,
    },
    /// A row's record does not match its checksum.
    Checksum {
        /// The row's id.
        id: i64,
    },
    /// A row's column holds a value of the wrong kind.
    Value {
        /// The row's id.
        id: i64,
        /// The column.
        column: String,
    },
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Check(s) => write!(f, "SQLite's integrity check says '{s}'"),
            Self::Malformed(e) => write!(f, "{e}"),
            Self::OtherRun { id, seed } => write!(
                f,
                "looking up the run with seed {seed} gives row {id}, which holds another run"
            ),
            Self::Rows { seed, count } => {
                write!(f, "{count} rows hold the run with seed {seed}")
            }
            Self::Checksum { id } => write!(f, "row {id} does not match its checksum"),
            Self::Value { id, column } => write!(f, "row {id} has a malformed {column}"),
        }
    }
}

/// Why a path cannot hold or give a results database.
#[derive(Debug)]
#[non_exhaustive]
pub enum Unusable {
    /// The folder it would be in does not exist (or is not a folder).
    NoFolder(PathBuf),
    /// The path is a folder.
    IsFolder,
    /// The file to read does not exist.
    Missing,
    /// The file could not be created (permission, read-only file system, ...).
    Create(std::io::Error),
    /// SQLite cannot open the file.
    Open(rusqlite::Error),
    /// The file was created but SQLite cannot write it.
    CannotWrite(String),
    /// The file is in WAL mode with writes still in its `-wal` file, and its folder
    /// cannot be written, so SQLite cannot read it there.
    PendingWal,
}

impl fmt::Display for Unusable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoFolder(d) => write!(
                f,
                "its folder '{}' does not exist: create it or give another path",
                d.display()
            ),
            Self::IsFolder => write!(f, "it is a folder: give a file name"),
            Self::Missing => write!(f, "no such file"),
            Self::Create(e) => write!(
                f,
                "it cannot be created ({e}): give a path in a folder you can write"
            ),
            Self::Open(e) => write!(f, "SQLite cannot open it ({e})"),
            Self::CannotWrite(why) => write!(
                f,
                "it cannot be written ({why}): give a path in a folder you can write"
            ),
            Self::PendingWal => write!(
                f,
                "its last writes are still in its -wal file and its folder is read-only: copy both files to a writable folder"
            ),
        }
    }
}

/// What a store that cannot be written lacks.
#[derive(Debug)]
#[non_exhaustive]
pub enum Lacking {
    /// Runs of the sweep.
    Runs {
        /// Runs it does not hold.
        missing: usize,
        /// Runs of the sweep (of the shard).
        of: usize,
    },
    /// The mark of this shard.
    Shard(Shard),
}

/// Why the results database could not be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// The path cannot hold or give a results database.
    Unusable(PathBuf, Unusable),
    /// The file is not an SQLite database.
    NotADatabase(PathBuf),
    /// The file is damaged: nothing was read from it.
    Damaged(PathBuf, Damage),
    /// The file cannot be written and the sweep needs to write to it.
    ReadOnly {
        /// The file.
        path: PathBuf,
        /// Why it cannot be written.
        why: String,
        /// What it lacks.
        lacking: Lacking,
    },
    /// SQLite failed on this file while working (disk full, I/O error, ...).
    Sql(PathBuf, rusqlite::Error),
    /// The run is stored already with other results: the file is damaged, or was
    /// written by another build of the model.
    Duplicate {
        /// The file.
        path: PathBuf,
        /// The run's seed.
        seed: u64,
    },
    /// Another process held the file's lock for the whole wait
    /// ([`LOCK_WAIT`](super::LOCK_WAIT)).
    Busy {
        /// The file.
        path: PathBuf,
        /// How long it was waited for.
        waited: std::time::Duration,
    },
    /// The file holds results of another model or model version.
    ModelVersion {
        /// The file.
        path: PathBuf,
        /// The version it records.
        found: String,
        /// The version this program writes.
        expected: &'static str,
    },
    /// The file is not a results database of this program (of this layout).
    Schema(PathBuf),
    /// The file is a results database of this program's layout written before
    /// parameters were added to the schema: their columns are missing.
    ParametersAdded {
        /// The file.
        path: PathBuf,
        /// The parameters' columns it lacks.
        missing: Vec<String>,
    },
    /// The file is a results database of another layout (an older mac-sim's).
    SchemaVersion {
        /// The file.
        path: PathBuf,
        /// The schema version it records.
        found: String,
        /// The schema version this program reads.
        expected: &'static str,
    },
    /// A shard's file belongs to another campaign than the first shard's.
    Campaign {
        /// The file.
        path: PathBuf,
        /// Its campaign.
        found: String,
        /// The first shard's campaign.
        expected: String,
    },
    /// A file given to merge was not written with `--shard`.
    NotAShard(PathBuf),
    /// Two shards of different counts (`K/N` with another N), or the same shard twice.
    Shards(String),
    /// Two files hold different results for the same run.
    Conflict {
        /// The run's point (JSON).
        point: String,
        /// The run's seed.
        seed: u64,
    },
    /// The merge's output file exists already.
    Exists(PathBuf),
    /// The merged file could not be moved into place.
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for StoreError {
    /// One line: a damaged file's text (a table name SQLite quotes, say) may hold any
    /// byte, and control characters are shown as spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = Text(self).to_string();
        let line: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        f.write_str(&line)
    }
}

/// A [`StoreError`]'s message as written, before it is made one line.
struct Text<'a>(&'a StoreError);

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            StoreError::Unusable(p, why) => {
                write!(f, "results database '{}': {why}", p.display())
            }
            StoreError::NotADatabase(p) => write!(
                f,
                "'{}' is not an SQLite database: give a file written by mac-sim with --db or by merge, or a new file name",
                p.display()
            ),
            StoreError::Damaged(p, d) => write!(
                f,
                "results database '{}' is damaged ({d}); nothing was read from it: restore a copy, or move it aside and start a new file",
                p.display()
            ),
            StoreError::ReadOnly { path, why, lacking } => {
                write!(
                    f,
                    "results database '{}' cannot be written ({why}) ",
                    path.display()
                )?;
                match lacking {
                    Lacking::Runs { missing, of } => write!(
                        f,
                        "and lacks {missing} of the sweep's {of} runs: copy it to a writable folder to resume, or give a new file"
                    ),
                    Lacking::Shard(s) => write!(
                        f,
                        "and is not marked as shard {s}: copy it to a writable folder, or give a new file"
                    ),
                }
            }
            StoreError::Sql(p, e) => write!(f, "results database '{}': {e}", p.display()),
            StoreError::Duplicate { path, seed } => write!(
                f,
                "results database '{}' already holds the run with seed {seed} with other results: the file is damaged or was written by another build; move it aside and start a new file",
                path.display()
            ),
            StoreError::Busy { path, waited } => write!(
                f,
                "results database '{}' was locked by another process for {} s: let it finish, or give another file",
                path.display(),
                waited.as_secs()
            ),
            StoreError::ModelVersion {
                path,
                found,
                expected,
            } => write!(
                f,
                "results database '{}' holds results of '{found}', not of '{expected}': use a new file",
                path.display()
            ),
            StoreError::Schema(p) => write!(
                f,
                "'{}' is not a results database of this mac-sim's layout: give a file written by mac-sim with --db or by merge, or a new file name",
                p.display()
            ),
            StoreError::ParametersAdded { path, missing } => write!(
                f,
                "results database '{}' was written before the parameter column(s) {} existed: finish its campaign with the mac-sim that began it, or use a new file",
                path.display(),
                missing.join(", ")
            ),
            StoreError::SchemaVersion {
                path,
                found,
                expected,
            } => write!(
                f,
                "results database '{}' has schema {found}, this mac-sim reads schema {expected}: use a new file",
                path.display()
            ),
            StoreError::Campaign {
                path,
                found,
                expected,
            } => write!(
                f,
                "'{}' is a shard of campaign {found}, not of campaign {expected}: shards of different sweeps cannot be merged",
                path.display()
            ),
            StoreError::NotAShard(p) => write!(
                f,
                "'{}' was not written with --shard: merge takes shard files",
                p.display()
            ),
            StoreError::Shards(s) => write!(f, "shards do not fit together: {s}"),
            StoreError::Conflict { point, seed } => write!(
                f,
                "two files hold different results for the run with seed {seed} at {point}"
            ),
            StoreError::Exists(p) => write!(f, "'{}' exists: merge writes a new file", p.display()),
            StoreError::Io(p, e) => write!(f, "cannot write '{}': {e}", p.display()),
        }
    }
}

impl std::error::Error for StoreError {}
