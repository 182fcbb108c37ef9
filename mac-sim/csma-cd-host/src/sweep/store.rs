//! The results database: every run of a sweep, its parameters and all its metrics, in
//! an SQLite file, so that a sweep resumes where it stopped, grows without recomputing,
//! and can be split into shards that are merged afterwards.
//!
//! # Schema
//!
//! ```sql
//! meta(key TEXT PRIMARY KEY, value TEXT)  -- schema_version, model_version;
//!                                         -- campaign and shard in a shard's file
//! runs(id INTEGER PRIMARY KEY AUTOINCREMENT,
//!      point TEXT,          -- the point's parameters as JSON (seed 0): with seed, the key
//!      seed INTEGER,        -- this run's seed (a u64 stored as its i64 bit pattern)
//!      replication INTEGER,
//!      -- the point's parameters, one column each, named and written as every
//!      -- results file names them (`Scenario::columns`, the seed aside; `frames` is
//!      -- an integer for one frame size, so it sorts as a number, text for a range
//!      -- or a mix):
//!      medium, stations, placement, length_m, bit_rate_bps, frames, frame_mean_bits,
//!      traffic, load (NULL: saturated), duration_s, warmup_s, backoff, ...,
//!      events INTEGER,
//!      -- one REAL column per metric of `record::METRICS`, NULL where it has no
//!      -- value (the total delay of a saturated point):
//!      throughput_mbps, goodput_mbps, utilisation_fraction, access_delay_mean_us,
//!      access_delay_p99_us, total_delay_mean_us, total_delay_p99_us,
//!      collision_rate_per_attempt, drop_rate_per_frame,
//!      drop_excessive_collisions_per_frame, drop_queue_overflow_per_frame,
//!      jain_fairness_index, attempts_per_frame, capture_max_window_share_fraction,
//!      delivered_frames,
//!      record_sha256 TEXT,  -- the checksum of the run's record (below)
//!      UNIQUE(point, seed))
//! backoff(run_id INTEGER REFERENCES runs(id), collisions INTEGER, draws INTEGER,
//!         mean_slots REAL, std_error REAL, expected_slots REAL,
//!         PRIMARY KEY(run_id, collisions))
//! ```
//!
//! A run is identified by its point and its seed: its results are a function of those
//! two alone (and of the model, whose version the file records: a file written by
//! another model version is refused, so results of two models never mix). Run ids are
//! never reused (`AUTOINCREMENT`), so backoff rows left behind by a run deleted by
//! hand never attach to a later run.
//!
//! # What is read is verified
//!
//! A damaged file never gives numbers:
//!
//! * **On open**, SQLite's `PRAGMA integrity_check` (the whole file: every page, every
//!   index against its table, the UNIQUE key): a file that fails it is refused with
//!   [`StoreError::Damaged`] before anything is read or written. `quick_check` would be
//!   cheaper but does not compare indexes with their tables, and a damaged index is
//!   what hands a lookup another run's row (BENCHMARKS.md has both costs).
//! * **Every run read** carries its own key and a checksum of its record: the row a
//!   lookup returns must hold the point and seed asked for, and
//!   `record_sha256` must be the SHA-256 of the row (every column from `point` to
//!   the last metric, in table order) followed by its backoff rows (`collisions,
//!   draws, mean_slots, std_error, expected_slots`, by `collisions`). Each value is
//!   hashed as a tag byte and its bytes: NULL `00`; INTEGER `01` and the i64 in 8
//!   bytes little-endian; REAL `02` and the f64's bits in 8 bytes little-endian (−0
//!   as +0, as SQLite gives a REAL column back); TEXT `03`, its length in UTF-8
//!   bytes as a u64 little-endian, the bytes. A row that fails either check is never
//!   used: the read stops with [`StoreError::Damaged`].
//! * **A run is stored once**: a second row for a stored key is an error
//!   ([`StoreError::Duplicate`]), never a silent duplicate or a skipped write.
//!
//! SHA-256 (the `sha2` crate, already the golden tests' digest) rather than a CRC:
//! the damage to catch is any bytes written anywhere, not only short bursts, and a
//! 256-bit digest makes an accidental match out of the question where a CRC-32 lets
//! one damaged row in four billion through; hashing a record of about 1 kB is
//! negligible beside the run that made it.
//!
//! # Safe against a crash, readable on read-only media
//!
//! Each finished run is written in one transaction, in WAL mode with `synchronous =
//! NORMAL`: a process killed at any moment leaves every committed run readable and no
//! half-written one; a power cut may lose the last few commits but does not corrupt
//! the file (SQLite's guarantees for WAL mode). The file goes into WAL mode only when
//! a run is to be stored ([`Store::ready_to_store`]: a sweep whose runs are all stored
//! never writes to it), and back to a rollback journal (`journal_mode = DELETE`) when
//! the store is closed, so a finished campaign is one file with no `-wal` or `-shm`
//! beside it, which SQLite reads on read-only media (a WAL-mode file needs to create
//! its `-shm` there). [`Store::open`] falls back to reading a file it cannot write: a
//! sweep whose runs are all stored then writes its results, one that lacks runs is
//! refused before it runs ([`StoreError::ReadOnly`]); [`Store::open_read_only`] never
//! writes (merge inputs, the Python package's `read_campaign`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, params};
use sha2::{Digest, Sha256};

use csma_cd::config::RunConfig;
use csma_cd::exact::backoff_stats::BackoffRow;
use csma_cd::scenario::Scenario;
use csma_cd::sweep::key::{FNV_OFFSET, fnv1a_from, point_key};
use csma_cd::sweep::record::METRICS;
use csma_cd::sweep::record::RunRecord;
use csma_cd::sweep::shard::Shard;
use csma_cd::table::{Cell, Row};

/// The version of the file layout: 2 added goodput, total delay, the drop rate per
/// cause and the delivered frames to the runs (schema 1 had nine metrics); 3 stated
/// every parameter in its own column; 4 added each run's checksum (`record_sha256`),
/// stores one frame size as an integer and never reuses a run id.
pub const SCHEMA_VERSION: &str = "4";

/// The version of the model whose results a file holds (exact model 2: the IEEE 802.3
/// deference and the `ifg_rule`/`jam_rule` parameters; 3: a figure of nothing, such
/// as Jain's index or the attempts per frame of a run that delivered no frame, is
/// undefined, NULL, where model 2 stored 1 or 0). Change it with any change that
/// changes a run's results (the golden outputs tell): a database is then refused
/// rather than mixing two models' results.
pub const MODEL_VERSION: &str = concat!("csma-cd ", env!("CARGO_PKG_VERSION"), ", exact model 3");

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
    /// The run is stored already: another process is writing the same runs into the
    /// file, or its key index is damaged.
    Duplicate {
        /// The file.
        path: PathBuf,
        /// The run's seed.
        seed: u64,
    },
    /// The file holds results of another model version.
    ModelVersion {
        /// The file.
        path: PathBuf,
        /// The version it records.
        found: String,
    },
    /// The file is not a results database of this program.
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
    /// A file given to merge was not written by `sweep --shard`.
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
                "'{}' is not an SQLite database: give a file written by mac-sim sweep --db or merge, or a new file name",
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
                "results database '{}' already holds the run with seed {seed}: another process is writing the same runs into it (run one sweep per file at a time; --shard splits a sweep), or the file is damaged",
                path.display()
            ),
            StoreError::ModelVersion { path, found } => write!(
                f,
                "results database '{}' holds results of '{found}', not of '{MODEL_VERSION}': use a new file",
                path.display()
            ),
            StoreError::Schema(p) => write!(
                f,
                "'{}' is not a results database of mac-sim (schema {SCHEMA_VERSION})",
                p.display()
            ),
            StoreError::ParametersAdded { path, missing } => write!(
                f,
                "results database '{}' was written before the parameter column(s) {} existed: finish its campaign with the mac-sim that began it, or use a new file",
                path.display(),
                missing.join(", ")
            ),
            StoreError::SchemaVersion { path, found } => write!(
                f,
                "results database '{}' has schema {found}, this mac-sim reads schema {SCHEMA_VERSION} (every run now carries a checksum of its record, which older files lack): use a new file",
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
                "'{}' was not written by sweep --shard: merge takes shard files",
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

/// A run's key: its point (parameters as JSON, seed 0) and its seed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunKey {
    /// The point's parameters, canonical JSON.
    pub point: String,
    /// The run's seed.
    pub seed: u64,
}

impl RunKey {
    /// The key of the run of `point` (any seed in it is ignored) with `seed`.
    pub fn new(point: &RunConfig, seed: u64) -> Self {
        Self {
            point: point_key(point),
            seed,
        }
    }
}

/// The identity of a campaign: a hash of every run's key (point and seed), in sweep
/// order, as 16 hex digits. Two shards belong together only if their campaigns match.
pub fn campaign_id(keys: &[RunKey]) -> String {
    let h = keys.iter().fold(FNV_OFFSET, |h, k| {
        fnv1a_from(fnv1a_from(h, k.point.as_bytes()), &k.seed.to_le_bytes())
    });
    format!("{h:016x}")
}

/// An open results database.
pub struct Store {
    /// The file, as messages name it.
    path: PathBuf,
    conn: Mutex<Connection>,
    /// The columns of `runs` from `point` to the last metric, in table order.
    columns: Vec<String>,
    /// Why the file is not written (`None`: it is).
    read_only: Option<String>,
    /// Whether the file is in WAL mode (it goes into it when a run is to be stored).
    wal: AtomicBool,
}

const CREATE: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    point TEXT NOT NULL,
    seed INTEGER NOT NULL,
    replication INTEGER NOT NULL,
    {parameters}
    events INTEGER NOT NULL,
    {metrics}
    record_sha256 TEXT NOT NULL,
    UNIQUE (point, seed)
);
CREATE TABLE backoff (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    collisions INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    mean_slots REAL NOT NULL,
    std_error REAL NOT NULL,
    expected_slots REAL NOT NULL,
    PRIMARY KEY (run_id, collisions)
);
";

/// The columns of a backoff row, in the order they are hashed.
const BACKOFF_COLUMNS: &str = "collisions, draws, mean_slots, std_error, expected_slots";

/// The parameter columns of a point, as every results file names them, the seed
/// aside (each run has its own, in the `seed` column), and one frame size as an
/// integer (so `ORDER BY frames` puts 64 before 1518).
fn parameter_columns(point: &RunConfig) -> Vec<(String, Cell)> {
    Scenario::columns(point)
        .into_iter()
        .filter(|(k, _)| k != "seed")
        .map(|(k, c)| match c {
            Cell::Text(t) if k == "frames" => match t.parse::<u64>() {
                Ok(bytes) => (k, Cell::Int(bytes)),
                Err(_) => (k, Cell::Text(t)),
            },
            c => (k, c),
        })
        .collect()
}

/// The columns of `runs` from `point` to the last metric, in table order.
fn run_columns() -> Vec<String> {
    ["point", "seed", "replication"]
        .into_iter()
        .map(String::from)
        .chain(
            parameter_columns(&RunConfig::default())
                .into_iter()
                .map(|(n, _)| n),
        )
        .chain(["events".to_string()])
        .chain(METRICS.iter().map(|(n, _)| n.to_string()))
        .collect()
}

/// The columns, quoted, for a statement.
fn quoted(columns: &[String]) -> String {
    columns
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A cell as an SQLite value (the parameter columns have no declared type, so each
/// value keeps its own: integer, real, text or NULL).
fn sql_value(c: Cell) -> Value {
    match c {
        Cell::Int(v) => Value::Integer(v as i64),
        Cell::Num(v) | Cell::Exact(v) if v.is_finite() => Value::Real(v),
        Cell::Num(_) | Cell::Exact(_) | Cell::Empty => Value::Null,
        Cell::Text(t) => Value::Text(t),
        Cell::Bool(b) => Value::Integer(i64::from(b)),
    }
}

/// A metric as an SQLite value: NULL for none (NaN).
fn metric_value(m: f64) -> Value {
    if m.is_nan() {
        Value::Null
    } else {
        Value::Real(m)
    }
}

/// Feed one value to the checksum, as the module docs define it.
fn feed(h: &mut Sha256, v: ValueRef<'_>) {
    match v {
        ValueRef::Null => h.update([0]),
        ValueRef::Real(x) if x.is_nan() => h.update([0]),
        ValueRef::Integer(i) => {
            h.update([1]);
            h.update(i.to_le_bytes());
        }
        ValueRef::Real(x) => {
            h.update([2]);
            let x = if x == 0.0 { 0.0 } else { x };
            h.update(x.to_bits().to_le_bytes());
        }
        ValueRef::Text(t) => {
            h.update([3]);
            h.update((t.len() as u64).to_le_bytes());
            h.update(t);
        }
        ValueRef::Blob(b) => {
            h.update([4]);
            h.update((b.len() as u64).to_le_bytes());
            h.update(b);
        }
    }
}

/// The checksum of a run's row and its backoff rows (see the module docs), as 64
/// lowercase hex digits.
fn checksum(run: &[Value], backoff: &[[Value; 5]]) -> String {
    let mut h = Sha256::new();
    for v in run.iter().chain(backoff.iter().flatten()) {
        feed(&mut h, v.into());
    }
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(64);
    for b in h.finalize() {
        hex.push(char::from(HEX[usize::from(b >> 4)]));
        hex.push(char::from(HEX[usize::from(b & 15)]));
    }
    hex
}

/// A backoff row as the values stored.
fn backoff_values(row: &BackoffRow) -> [Value; 5] {
    [
        Value::Integer(i64::from(row.collisions)),
        Value::Integer(row.draws as i64),
        Value::Real(row.mean_slots),
        Value::Real(row.std_error),
        Value::Real(row.expected_slots),
    ]
}

/// A run's row as read, before it is verified.
struct RawRun {
    id: i64,
    /// The columns from `point` to the last metric.
    values: Vec<Value>,
    sha: Value,
}

/// A run read and verified.
struct StoredRun {
    id: i64,
    values: Vec<Value>,
    key: RunKey,
    replication: u32,
    record: RunRecord,
}

/// Why [`Store::connect`] failed: the file cannot be written (so it may still be
/// read), or anything else.
enum ConnectError {
    CannotWrite(String),
    Store(StoreError),
}

impl From<StoreError> for ConnectError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

/// Whether an SQLite error says the file or its folder cannot be written.
fn cannot_write(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied)
    )
}

/// Whether an SQLite error says the file is damaged or not a database.
fn damaged(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
    )
}

/// `path` as an SQLite URI naming the file read-only and unchanging (`immutable=1`).
fn immutable_uri(path: &Path) -> Option<String> {
    let abs = std::path::absolute(path).ok()?;
    let mut uri = String::from("file:");
    for b in abs.to_str()?.bytes() {
        match b {
            b'%' | b'?' | b'#' => uri.push_str(&format!("%{b:02X}")),
            _ => uri.push(b as char),
        }
    }
    uri.push_str("?immutable=1");
    Some(uri)
}

/// The folder that would hold `path`, which must exist.
fn check_folder(path: &Path) -> Result<(), StoreError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(StoreError::Unusable(
            path.to_path_buf(),
            Unusable::NoFolder(dir.to_path_buf()),
        ))
    }
}

impl Store {
    /// Open the database at `path` to read and write it, creating it if missing. A
    /// file that exists but cannot be written (a read-only file, folder or file
    /// system) is opened to be read: [`Store::ready_to_store`] then says whether the
    /// work needs to write.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unusable`] if its folder does not exist or it cannot be created
    /// or opened, [`StoreError::NotADatabase`], [`StoreError::Damaged`] if SQLite's
    /// integrity check fails, [`StoreError::Schema`] if it is another program's,
    /// [`StoreError::SchemaVersion`] if an older mac-sim's,
    /// [`StoreError::ModelVersion`] if it holds another model version's results.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Self::open_as(path, path)
    }

    /// [`Store::open`] of `path`, named `shown` in every message (a merge's hidden
    /// staging file is named as the output the user gave).
    fn open_as(path: &Path, shown: &Path) -> Result<Self, StoreError> {
        let unusable = |why| StoreError::Unusable(shown.to_path_buf(), why);
        check_folder(path).map_err(|e| match e {
            StoreError::Unusable(_, why) => unusable(why),
            e => e,
        })?;
        let created = match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => return Err(unusable(Unusable::IsFolder)),
            Ok(_) => false,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                match std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)
                {
                    Ok(_) => true,
                    // Made by another process since we looked: open it as it is.
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => false,
                    Err(e) => return Err(unusable(Unusable::Create(e))),
                }
            }
            Err(e) => return Err(unusable(Unusable::Create(e))),
        };
        match Self::connect(path, shown, true) {
            Ok(s) => Ok(s),
            Err(ConnectError::CannotWrite(why)) if !created => {
                let mut s = match Self::connect(path, shown, false) {
                    Ok(s) => s,
                    Err(ConnectError::Store(e)) => return Err(e),
                    Err(ConnectError::CannotWrite(why)) => {
                        return Err(unusable(Unusable::CannotWrite(why)));
                    }
                };
                s.read_only = Some(why);
                Ok(s)
            }
            Err(e) => {
                if created {
                    for suffix in ["", "-wal", "-shm", "-journal"] {
                        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                    }
                }
                Err(match e {
                    ConnectError::Store(e) => e,
                    ConnectError::CannotWrite(why) => unusable(Unusable::CannotWrite(why)),
                })
            }
        }
    }

    /// Open the database at `path` to read it only: nothing is ever written to the
    /// file or beside it, so it may be on read-only media.
    ///
    /// # Errors
    ///
    /// As [`Store::open`], and [`StoreError::Unusable`] if the file does not exist.
    pub fn open_read_only(path: &Path) -> Result<Self, StoreError> {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                Err(StoreError::Unusable(path.to_path_buf(), Unusable::IsFolder))
            }
            Ok(_) => match Self::connect(path, path, false) {
                Ok(mut s) => {
                    s.read_only = Some("opened to be read".into());
                    Ok(s)
                }
                Err(ConnectError::Store(e)) => Err(e),
                Err(ConnectError::CannotWrite(why)) => Err(StoreError::Unusable(
                    path.to_path_buf(),
                    Unusable::CannotWrite(why),
                )),
            },
            Err(_) => Err(StoreError::Unusable(path.to_path_buf(), Unusable::Missing)),
        }
    }

    /// Connect to the existing (possibly empty) file `path`, named `shown`; check it
    /// whole, then create the tables in an empty file (`write`) or check that it is a
    /// results database of this schema and model.
    fn connect(path: &Path, shown: &Path, write: bool) -> Result<Self, ConnectError> {
        let named = shown.to_path_buf();
        let open_error = |e| StoreError::Unusable(named.clone(), Unusable::Open(e));
        let flags = if write {
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX
        } else {
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
        };
        let mut conn = Connection::open_with_flags(path, flags).map_err(|e| {
            if write && cannot_write(&e) {
                ConnectError::CannotWrite(e.to_string())
            } else {
                open_error(e).into()
            }
        })?;
        if write && conn.is_readonly("main").unwrap_or(false) {
            return Err(ConnectError::CannotWrite(
                "a read-only file or file system".into(),
            ));
        }
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .map_err(open_error)?;
        let verdict = match integrity(&conn) {
            // A WAL-mode file whose folder cannot be written: SQLite cannot make its
            // `-shm` there. With no writes waiting in its `-wal`, the file alone is
            // the database: read it as unchanging.
            Err(e) if !write && e.sqlite_error_code() == Some(ErrorCode::CannotOpen) => {
                let wal = PathBuf::from(format!("{}-wal", path.display()));
                if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
                    return Err(StoreError::Unusable(named, Unusable::PendingWal).into());
                }
                let uri = immutable_uri(path).ok_or_else(|| open_error(e))?;
                conn = Connection::open_with_flags(&uri, flags | OpenFlags::SQLITE_OPEN_URI)
                    .map_err(open_error)?;
                integrity(&conn)
            }
            v => v,
        };
        match verdict {
            Ok(v) if v == "ok" => {}
            Ok(v) => return Err(StoreError::Damaged(named, Damage::Check(v)).into()),
            Err(e) if write && cannot_write(&e) => {
                return Err(ConnectError::CannotWrite(e.to_string()));
            }
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::NotADatabase) => {
                return Err(StoreError::NotADatabase(named).into());
            }
            Err(e) if damaged(&e) => {
                return Err(StoreError::Damaged(named, Damage::Malformed(e)).into());
            }
            Err(e) => return Err(open_error(e).into()),
        }
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(open_error)?;
        let columns = run_columns();
        if tables == 0 {
            if !write {
                return Err(StoreError::Schema(named).into());
            }
            create(&conn, &columns).map_err(|e| {
                if cannot_write(&e) {
                    ConnectError::CannotWrite(e.to_string())
                } else {
                    open_error(e).into()
                }
            })?;
        }
        check_versions(&conn, &named)?;
        check_schema(&conn, &named, &columns)?;
        // Nothing is written yet: a campaign whose runs are all stored is only read.
        // WAL mode comes with the first run to store (`ready_to_store`).
        if write {
            conn.pragma_update(None, "synchronous", "NORMAL")
                .map_err(open_error)?;
        }
        let wal = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get::<_, String>(0))
            .is_ok_and(|m| m.eq_ignore_ascii_case("wal"));
        Ok(Self {
            path: named,
            conn: Mutex::new(conn),
            columns,
            read_only: None,
            wal: AtomicBool::new(wal),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection usable: SQLite rolls
        // back the open transaction.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn sql(&self, e: rusqlite::Error) -> StoreError {
        StoreError::Sql(self.path.clone(), e)
    }

    /// An error while reading: damage if SQLite says so, else SQLite failing.
    fn read_error(&self, e: rusqlite::Error) -> StoreError {
        if damaged(&e) {
            StoreError::Damaged(self.path.clone(), Damage::Malformed(e))
        } else {
            self.sql(e)
        }
    }

    /// Whether the file is only read (opened by [`Store::open_read_only`], or it
    /// cannot be written).
    pub fn is_read_only(&self) -> bool {
        self.read_only.is_some()
    }

    /// Get ready to store `missing` of the sweep's `of` runs, before any runs: with
    /// none missing nothing is ever written to the file; else it goes into WAL mode,
    /// which a file that cannot be written (or whose folder cannot be) refuses.
    ///
    /// # Errors
    ///
    /// [`StoreError::ReadOnly`] if runs are missing and the file cannot be written.
    pub fn ready_to_store(&self, missing: usize, of: usize) -> Result<(), StoreError> {
        if missing == 0 {
            return Ok(());
        }
        self.writable().map_err(|why| StoreError::ReadOnly {
            path: self.path.clone(),
            why,
            lacking: Lacking::Runs { missing, of },
        })
    }

    /// Put the file in WAL mode to write it, once; why it cannot be written if not.
    fn writable(&self) -> Result<(), String> {
        if let Some(why) = &self.read_only {
            return Err(why.clone());
        }
        if self.wal.load(Ordering::SeqCst) {
            return Ok(());
        }
        let conn = self.lock();
        let mode: String = conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
            .map_err(|e| e.to_string())?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(format!("SQLite keeps it in journal mode {mode}"));
        }
        self.wal.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// The records stored for `keys`, in order (`None` where a run is missing). Every
    /// row is verified (see the module docs).
    ///
    /// # Errors
    ///
    /// [`StoreError::Damaged`] if a row is not the run asked for or does not match
    /// its checksum, or SQLite finds the file malformed; [`StoreError::Sql`] if the
    /// file cannot be read.
    pub fn load(&self, keys: &[RunKey]) -> Result<Vec<Option<RunRecord>>, StoreError> {
        let conn = self.lock();
        // One read transaction for every lookup: one lock of the file, not two per run.
        let read = conn
            .unchecked_transaction()
            .map_err(|e| self.read_error(e))?;
        let mut run = conn
            .prepare_cached(&format!(
                "SELECT id, {}, record_sha256 FROM runs WHERE point = ?1 AND seed = ?2",
                quoted(&self.columns)
            ))
            .map_err(|e| self.read_error(e))?;
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            let mut found = run
                .query_map(params![k.point, k.seed as i64], |r| self.raw(r))
                .and_then(|it| it.collect::<Result<Vec<_>, _>>())
                .map_err(|e| self.read_error(e))?;
            if found.len() > 1 {
                return Err(self.damaged(Damage::Rows {
                    seed: k.seed,
                    count: found.len(),
                }));
            }
            let Some(raw) = found.pop() else {
                out.push(None);
                continue;
            };
            let stored = self.verify(&conn, raw)?;
            if stored.key != *k {
                return Err(self.damaged(Damage::OtherRun {
                    id: stored.id,
                    seed: k.seed,
                }));
            }
            out.push(Some(stored.record));
        }
        drop(run);
        read.commit().map_err(|e| self.read_error(e))?;
        Ok(out)
    }

    fn damaged(&self, d: Damage) -> StoreError {
        StoreError::Damaged(self.path.clone(), d)
    }

    /// A row of `SELECT id, <columns>, record_sha256`.
    fn raw(&self, r: &rusqlite::Row<'_>) -> rusqlite::Result<RawRun> {
        let n = self.columns.len();
        Ok(RawRun {
            id: r.get(0)?,
            values: (1..=n)
                .map(|i| r.get_ref(i).map(owned))
                .collect::<Result<_, _>>()?,
            sha: owned(r.get_ref(n + 1)?),
        })
    }

    /// Read a run's backoff rows, check the run against its checksum and decode it.
    fn verify(&self, conn: &Connection, raw: RawRun) -> Result<StoredRun, StoreError> {
        let mut q = conn
            .prepare_cached(&format!(
                "SELECT {BACKOFF_COLUMNS} FROM backoff WHERE run_id = ?1 ORDER BY collisions"
            ))
            .map_err(|e| self.read_error(e))?;
        let backoff = q
            .query_map([raw.id], |r| {
                let v = |i| r.get_ref(i).map(owned);
                Ok([v(0)?, v(1)?, v(2)?, v(3)?, v(4)?])
            })
            .and_then(|it| it.collect::<Result<Vec<[Value; 5]>, _>>())
            .map_err(|e| self.read_error(e))?;
        if raw.sha != Value::Text(checksum(&raw.values, &backoff)) {
            return Err(self.damaged(Damage::Checksum { id: raw.id }));
        }
        let id = raw.id;
        let bad = |column: &str| {
            StoreError::Damaged(
                self.path.clone(),
                Damage::Value {
                    id,
                    column: column.to_string(),
                },
            )
        };
        let int = |v: &Value, column: &str| match v {
            Value::Integer(i) => Ok(*i),
            _ => Err(bad(column)),
        };
        let real = |v: &Value, column: &str| match v {
            Value::Real(x) => Ok(*x),
            Value::Integer(i) => Ok(*i as f64),
            _ => Err(bad(column)),
        };
        let v = &raw.values;
        let point = match &v[0] {
            Value::Text(t) => t.clone(),
            _ => return Err(bad("point")),
        };
        let seed = int(&v[1], "seed")? as u64;
        let replication =
            u32::try_from(int(&v[2], "replication")?).map_err(|_| bad("replication"))?;
        let first_metric = v.len() - METRICS.len();
        let events = int(&v[first_metric - 1], "events")? as u64;
        let mut metrics = [0.0; METRICS.len()];
        for (i, m) in metrics.iter_mut().enumerate() {
            let c = &v[first_metric + i];
            // NULL: a metric without a value (see `METRICS`).
            *m = match c {
                Value::Null => f64::NAN,
                c => real(c, METRICS[i].0)?,
            };
        }
        let backoff = backoff
            .iter()
            .map(|b| {
                Ok(BackoffRow {
                    collisions: u32::try_from(int(&b[0], "backoff collisions")?)
                        .map_err(|_| bad("backoff collisions"))?,
                    draws: int(&b[1], "backoff draws")? as u64,
                    mean_slots: real(&b[2], "backoff mean_slots")?,
                    std_error: real(&b[3], "backoff std_error")?,
                    expected_slots: real(&b[4], "backoff expected_slots")?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(StoredRun {
            id,
            values: raw.values,
            key: RunKey { point, seed },
            replication,
            record: RunRecord {
                metrics,
                events,
                backoff,
            },
        })
    }

    /// Every stored run, verified, in id order.
    fn runs(&self) -> Result<Vec<StoredRun>, StoreError> {
        let conn = self.lock();
        let read = conn
            .unchecked_transaction()
            .map_err(|e| self.read_error(e))?;
        let mut q = conn
            .prepare(&format!(
                "SELECT id, {}, record_sha256 FROM runs ORDER BY id",
                quoted(&self.columns)
            ))
            .map_err(|e| self.read_error(e))?;
        let raws = q
            .query_map([], |r| self.raw(r))
            .and_then(|it| it.collect::<Result<Vec<_>, _>>())
            .map_err(|e| self.read_error(e))?;
        let runs = raws
            .into_iter()
            .map(|raw| self.verify(&conn, raw))
            .collect::<Result<Vec<_>, _>>()?;
        drop(q);
        read.commit().map_err(|e| self.read_error(e))?;
        let mut keys: Vec<&RunKey> = runs.iter().map(|r| &r.key).collect();
        keys.sort();
        if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
            return Err(self.damaged(Damage::Rows {
                seed: w[0].seed,
                count: 2,
            }));
        }
        Ok(runs)
    }

    /// Store the record of replication `replication` of `point`, the run `key`
    /// ([`RunKey::new`] of the point and its seed), with its checksum, in one
    /// transaction.
    ///
    /// # Errors
    ///
    /// [`StoreError::Duplicate`] if the run is stored already, [`StoreError::ReadOnly`]
    /// if the file cannot be written, [`StoreError::Sql`] if writing fails.
    pub fn put(
        &self,
        key: &RunKey,
        point: &RunConfig,
        replication: u32,
        record: &RunRecord,
    ) -> Result<(), StoreError> {
        self.ready_to_store(1, 1)?;
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(|e| self.sql(e))?;
        self.insert(&tx, key, point, replication, record)?;
        tx.commit().map_err(|e| self.sql(e))
    }

    fn insert(
        &self,
        conn: &Connection,
        key: &RunKey,
        point: &RunConfig,
        replication: u32,
        r: &RunRecord,
    ) -> Result<(), StoreError> {
        let values: Vec<Value> = [
            Value::Text(key.point.clone()),
            Value::Integer(key.seed as i64),
            Value::Integer(i64::from(replication)),
        ]
        .into_iter()
        .chain(
            parameter_columns(point)
                .into_iter()
                .map(|(_, c)| sql_value(c)),
        )
        .chain([Value::Integer(r.events as i64)])
        .chain(r.metrics.iter().map(|&m| metric_value(m)))
        .collect();
        let backoff: Vec<[Value; 5]> = r.backoff.iter().map(backoff_values).collect();
        let sha = checksum(&values, &backoff);
        let placeholders: Vec<String> = (1..=values.len() + 1).map(|i| format!("?{i}")).collect();
        conn.prepare_cached(&format!(
            "INSERT INTO runs ({}, record_sha256) VALUES ({})",
            quoted(&self.columns),
            placeholders.join(", ")
        ))
        .and_then(|mut s| {
            s.execute(rusqlite::params_from_iter(
                values.into_iter().chain([Value::Text(sha)]),
            ))
        })
        .map_err(|e| match e {
            // The key's UNIQUE constraint, not any other (NOT NULL, say).
            rusqlite::Error::SqliteFailure(f, _)
                if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
            {
                StoreError::Duplicate {
                    path: self.path.clone(),
                    seed: key.seed,
                }
            }
            e => self.sql(e),
        })?;
        let id = conn.last_insert_rowid();
        let mut b = conn
            .prepare_cached(&format!(
                "INSERT INTO backoff (run_id, {BACKOFF_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
            ))
            .map_err(|e| self.sql(e))?;
        for row in backoff {
            b.execute(rusqlite::params_from_iter(
                [Value::Integer(id)].into_iter().chain(row),
            ))
            .map_err(|e| self.sql(e))?;
        }
        Ok(())
    }

    /// Record that this file is shard `shard` of the campaign `campaign` (a file
    /// marked so already is left as it is).
    ///
    /// # Errors
    ///
    /// [`StoreError::Campaign`] or [`StoreError::Shards`] if the file already belongs
    /// to another campaign or shard; [`StoreError::ReadOnly`] if it is not marked and
    /// cannot be written; [`StoreError::Sql`] if it cannot be written.
    pub fn mark_shard(&self, campaign: &str, shard: Shard) -> Result<(), StoreError> {
        let conn = self.lock();
        let (c, s) = shard_of(&conn, &self.path)?;
        if let Some(c) = c.as_ref().filter(|c| *c != campaign) {
            return Err(StoreError::Campaign {
                path: self.path.clone(),
                found: c.clone(),
                expected: campaign.to_string(),
            });
        }
        if let Some(s) = s.as_ref().filter(|s| **s != shard.to_string()) {
            return Err(StoreError::Shards(format!(
                "'{}' holds shard {s}, not {shard}",
                self.path.display()
            )));
        }
        if c.is_some() && s.is_some() {
            return Ok(());
        }
        drop(conn);
        self.writable().map_err(|why| StoreError::ReadOnly {
            path: self.path.clone(),
            why,
            lacking: Lacking::Shard(shard),
        })?;
        self.lock()
            .execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('campaign', ?1), ('shard', ?2)",
                params![campaign, shard.to_string()],
            )
            .map(|_| ())
            .map_err(|e| self.sql(e))
    }

    /// Runs stored.
    ///
    /// # Errors
    ///
    /// [`StoreError::Sql`] if the file cannot be read.
    pub fn len(&self) -> Result<u64, StoreError> {
        self.lock()
            .query_row("SELECT count(*) FROM runs", [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(|e| self.read_error(e))
    }

    /// Whether no run is stored.
    ///
    /// # Errors
    ///
    /// [`StoreError::Sql`] if the file cannot be read.
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        self.len().map(|n| n == 0)
    }
}

impl Drop for Store {
    /// A store that was written goes back to a rollback journal: the campaign is then
    /// one file, readable on read-only media, with no `-wal` or `-shm` left beside it.
    /// If another connection still has the file open, it stays in WAL mode (the last
    /// one to close it switches it).
    fn drop(&mut self) {
        if self.read_only.is_none() && *self.wal.get_mut() {
            let conn = self.conn.get_mut().unwrap_or_else(|p| p.into_inner());
            let _ = conn.busy_timeout(std::time::Duration::ZERO);
            let _ = conn.pragma_update(None, "journal_mode", "DELETE");
        }
    }
}

/// SQLite's integrity check of the whole file: `ok`, or its first finding (without
/// the line that names the schema, `*** in database main ***`).
fn integrity(conn: &Connection) -> rusqlite::Result<String> {
    let text: String = conn.query_row("PRAGMA integrity_check(1)", [], |r| {
        Ok(String::from_utf8_lossy(r.get_ref(0)?.as_bytes().unwrap_or(b"?")).into_owned())
    })?;
    let findings: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("*** in database"))
        .collect();
    Ok(findings.join("; "))
}

/// A value as read, owned: text that is not UTF-8 (only damage makes it) is kept as
/// its bytes, so that it fails the checksum rather than stopping the program.
fn owned(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(t) => Value::Text(t.to_string()),
            Err(_) => Value::Blob(t.to_vec()),
        },
        v => v.into(),
    }
}

/// Create the tables of an empty file and record its versions, in one transaction.
fn create(conn: &Connection, columns: &[String]) -> rusqlite::Result<()> {
    let parameters: Vec<String> = parameter_columns(&RunConfig::default())
        .iter()
        .map(|(n, _)| format!("\"{n}\","))
        .collect();
    let metrics: Vec<String> = METRICS.iter().map(|(n, _)| format!("{n} REAL,")).collect();
    debug_assert_eq!(columns.len(), 4 + parameters.len() + metrics.len());
    let create = CREATE
        .replace("{parameters}", &parameters.join("\n    "))
        .replace("{metrics}", &metrics.join("\n    "));
    conn.execute_batch(&format!(
        "BEGIN; {create} INSERT INTO meta (key, value) VALUES ('schema_version', '{SCHEMA_VERSION}'), ('model_version', '{MODEL_VERSION}'); COMMIT;"
    ))
}

fn check_versions(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let get = |k: &str| -> Result<Option<String>, StoreError> {
        conn.query_row("SELECT value FROM meta WHERE key = ?1", [k], |r| r.get(0))
            .optional()
            .map_err(|_| StoreError::Schema(path.to_path_buf()))
    };
    match get("schema_version")? {
        Some(v) if v == SCHEMA_VERSION => {}
        Some(found) => {
            return Err(StoreError::SchemaVersion {
                path: path.to_path_buf(),
                found,
            });
        }
        None => return Err(StoreError::Schema(path.to_path_buf())),
    }
    match get("model_version")? {
        Some(v) if v == MODEL_VERSION => Ok(()),
        found => Err(StoreError::ModelVersion {
            path: path.to_path_buf(),
            found: found.unwrap_or_default(),
        }),
    }
}

/// The file's tables and indexes are those this mac-sim creates, statement for
/// statement (the integrity check does not read the schema's text, and damage there
/// could rename a column or change its type).
fn check_schema(conn: &Connection, path: &Path, columns: &[String]) -> Result<(), StoreError> {
    let schema = |conn: &Connection| -> rusqlite::Result<Vec<(String, String, Option<String>)>> {
        conn.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")?
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })?
            .collect()
    };
    let expected = Connection::open_in_memory()
        .and_then(|mem| create(&mem, columns).and_then(|()| schema(&mem)))
        .map_err(|e| StoreError::Sql(path.to_path_buf(), e))?;
    match schema(conn) {
        Ok(found) if found == expected => Ok(()),
        _ => Err(missing_parameters(conn, columns).map_or_else(
            || StoreError::Schema(path.to_path_buf()),
            |missing| StoreError::ParametersAdded {
                path: path.to_path_buf(),
                missing,
            },
        )),
    }
}

/// The columns of `columns` that the file's `runs` table lacks, when they are all
/// parameters' (a file of this layout from before parameters were added); `None`
/// otherwise.
fn missing_parameters(conn: &Connection, columns: &[String]) -> Option<Vec<String>> {
    let found: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('runs')")
        .ok()?
        .query_map([], |r| r.get::<_, String>(0))
        .ok()?
        .collect::<Result<_, _>>()
        .ok()?;
    let missing: Vec<String> = columns
        .iter()
        .filter(|c| !found.contains(c))
        .cloned()
        .collect();
    let parameters: Vec<String> = parameter_columns(&RunConfig::default())
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let only_parameters = missing.iter().all(|m| parameters.contains(m));
    (only_parameters && !missing.is_empty() && found.len() > 3).then_some(missing)
}

/// The campaign and shard a file records, if any.
fn shard_of(
    conn: &Connection,
    path: &Path,
) -> Result<(Option<String>, Option<String>), StoreError> {
    let get = |k: &str| {
        conn.query_row("SELECT value FROM meta WHERE key = ?1", [k], |r| r.get(0))
            .optional()
            .map_err(|e| StoreError::Sql(path.to_path_buf(), e))
    };
    Ok((get("campaign")?, get("shard")?))
}

/// What [`merge`] combined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Runs in the merged file.
    pub runs: u64,
    /// Shards merged.
    pub shards: usize,
    /// The shard count N of the campaign.
    pub of: u32,
}

/// Merge the shard files `inputs` (written by `sweep --shard K/N`) into a new file
/// `out`. The inputs are only read ([`Store::open_read_only`]) and every run in them
/// is verified; the runs are written in key order, so the merged file holds the same
/// rows whatever the order of the inputs; it appears only when complete.
///
/// # Errors
///
/// [`StoreError::Exists`] if `out` exists; [`StoreError::Unusable`] if `out` cannot
/// be created or an input cannot be opened; [`StoreError::NotADatabase`],
/// [`StoreError::Damaged`], [`StoreError::NotAShard`], [`StoreError::Campaign`],
/// [`StoreError::Shards`] or [`StoreError::ModelVersion`] for inputs that cannot serve
/// or do not belong together; [`StoreError::Conflict`] if two inputs disagree on a
/// run; [`StoreError::Sql`] or [`StoreError::Io`] if writing fails.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Merged, StoreError> {
    if out.exists() {
        return Err(StoreError::Exists(out.to_path_buf()));
    }
    check_folder(out)?;
    let tmp = sim_host::output::atomic::temp_path(out);
    let result = (|| {
        // The output first: a folder that cannot be written is found before any
        // input is read.
        let store = Store::open_as(&tmp, out)?;
        if let Some(why) = &store.read_only {
            return Err(StoreError::Unusable(
                out.to_path_buf(),
                Unusable::CannotWrite(why.clone()),
            ));
        }
        let (rows, seen) = read_shards(inputs)?;
        {
            let mut conn = store.lock();
            let tx = conn.transaction().map_err(|e| store.sql(e))?;
            for (key, (point, replication, record)) in &rows {
                store.insert(&tx, key, point, *replication, record)?;
            }
            tx.commit().map_err(|e| store.sql(e))?;
        }
        drop(store);
        std::fs::rename(&tmp, out).map_err(|e| StoreError::Io(out.to_path_buf(), e))?;
        Ok(Merged {
            runs: rows.len() as u64,
            shards: seen.len(),
            of: seen.first().map_or(0, |s| s.count()),
        })
    })();
    if result.is_err() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", tmp.display()));
        }
    }
    result
}

/// The runs of merge's inputs, verified, by key, and the shards they are.
#[allow(clippy::type_complexity)]
fn read_shards(
    inputs: &[PathBuf],
) -> Result<
    (
        std::collections::BTreeMap<RunKey, (RunConfig, u32, RunRecord)>,
        Vec<Shard>,
    ),
    StoreError,
> {
    let mut campaign: Option<String> = None;
    let mut seen: Vec<Shard> = Vec::new();
    let mut rows = std::collections::BTreeMap::new();
    for path in inputs {
        let store = Store::open_read_only(path)?;
        let (c, s) = shard_of(&store.lock(), path)?;
        let (Some(c), Some(s)) = (c, s) else {
            return Err(StoreError::NotAShard(path.clone()));
        };
        let s: Shard = s.parse().map_err(|_| StoreError::NotAShard(path.clone()))?;
        match &campaign {
            None => campaign = Some(c),
            Some(e) if *e != c => {
                return Err(StoreError::Campaign {
                    path: path.clone(),
                    found: c,
                    expected: e.clone(),
                });
            }
            Some(_) => {}
        }
        if let Some(first) = seen.first().filter(|f| f.count() != s.count()) {
            return Err(StoreError::Shards(format!(
                "'{}' is shard {s}, the first file shard {first}",
                path.display()
            )));
        }
        if seen.contains(&s) {
            return Err(StoreError::Shards(format!(
                "shard {s} is given twice ('{}')",
                path.display()
            )));
        }
        seen.push(s);
        for run in store.runs()? {
            let point: RunConfig = serde_json::from_str(&run.key.point)
                .map_err(|_| StoreError::Schema(path.clone()))?;
            match rows.get(&run.key) {
                Some((_, _, r)) if *r != run.record => {
                    return Err(StoreError::Conflict {
                        point: run.key.point,
                        seed: run.key.seed,
                    });
                }
                Some(_) => {}
                None => {
                    rows.insert(run.key, (point, run.replication, run.record));
                }
            }
        }
    }
    Ok((rows, seen))
}

/// The runs of the results database at `path`, read only and each verified, as rows
/// named as the `runs` table's columns (`id`, `point`, `seed`, ... the last metric;
/// not the checksum), in id order; and the header (those names) for a file with no
/// run. Integers read back as the unsigned values stored (a seed as itself).
///
/// # Errors
///
/// As [`Store::open_read_only`], and [`StoreError::Damaged`] if a run fails its
/// checks.
pub fn read_runs(path: &Path) -> Result<(Row, Vec<Row>), StoreError> {
    let store = Store::open_read_only(path)?;
    let names: Vec<String> = ["id".to_string()]
        .into_iter()
        .chain(store.columns.iter().cloned())
        .collect();
    let header = Row(names.iter().map(|n| (n.clone(), Cell::Empty)).collect());
    let cell = |v: Value| match v {
        Value::Null => Cell::Empty,
        // Every integer stored is an unsigned value written as its i64 bit pattern.
        Value::Integer(i) => Cell::Int(i as u64),
        Value::Real(x) => Cell::Exact(x),
        Value::Text(t) => Cell::Text(t),
        Value::Blob(b) => Cell::Text(String::from_utf8_lossy(&b).into_owned()),
    };
    let rows = store
        .runs()?
        .into_iter()
        .map(|run| {
            Row(names
                .iter()
                .cloned()
                .zip(
                    [Value::Integer(run.id)]
                        .into_iter()
                        .chain(run.values)
                        .map(cell),
                )
                .collect())
        })
        .collect();
    Ok((header, rows))
}
