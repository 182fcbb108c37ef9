//! The results database of every model: each run of a sweep, its parameters and all
//! its results, in an SQLite file, so that a sweep resumes where it stopped, grows
//! without recomputing, and can be split into shards that are merged afterwards.
//!
//! The store knows no model. A model states its [`Layout`]: the parameter columns of
//! a point (from its schema, named as its results files name them), the columns of a
//! run's record with their SQL types, an optional table of detail rows per run, and
//! how a record becomes those values and back. [`Store`] does the rest the same way
//! for every model: the file's checks, the checksums, the shards, [`merge`] and
//! [`read_runs`].
//!
//! # Schema
//!
//! ```sql
//! meta(key TEXT PRIMARY KEY, value TEXT)  -- schema_version, model_version;
//!                                         -- campaign and shard in a shard's file
//! runs(id INTEGER PRIMARY KEY AUTOINCREMENT,
//!      point TEXT,          -- the run's key: its point's parameters (see RunKey)
//!      seed INTEGER,        -- this run's seed (a u64 stored as its i64 bit pattern)
//!      replication INTEGER,
//!      -- the point's parameters, one column each (Layout::parameters), then the
//!      -- run's record (Layout::results), NULL where a figure has no value:
//!      ...,
//!      record_sha256 TEXT,  -- the checksum of the run's record (below)
//!      UNIQUE(point, seed))
//! <detail>(run_id INTEGER REFERENCES runs(id), <key>, ..., PRIMARY KEY(run_id, <key>))
//!                           -- a model's detail rows, if its layout has them
//! ```
//!
//! A run is identified by its point and its seed: its results are a function of those
//! two alone (and of the model, whose version the file records: a file written by
//! another model or version is refused, so results of two models never mix). Run ids
//! are never reused (`AUTOINCREMENT`), so detail rows left behind by a run deleted by
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
//!   what hands a lookup another run's row (BENCHMARKS.md has both costs). The
//!   file's tables must be those this program creates, statement for statement.
//! * **Every run read** carries its own key and a checksum of its record: the row a
//!   lookup returns must hold the point and seed asked for, and
//!   `record_sha256` must be the SHA-256 of the row (every column from `point` to
//!   the last of the record, in table order) followed by its detail rows (their
//!   columns after `run_id`, in order of the detail key). Each value is hashed as a
//!   tag byte and its bytes: NULL `00`; INTEGER `01` and the i64 in 8 bytes
//!   little-endian; REAL `02` and the f64's bits in 8 bytes little-endian (−0 as +0,
//!   as SQLite gives a REAL column back); TEXT `03`, its length in UTF-8 bytes as a
//!   u64 little-endian, the bytes. A row that fails either check is never used: the
//!   read stops with [`StoreError::Damaged`].
//! * **A run is stored once**: a second row for a stored key is an error
//!   ([`StoreError::Duplicate`]), never a silent duplicate or a skipped write.
//!
//! SHA-256 rather than a CRC: the damage to catch is any bytes written anywhere, not
//! only short bursts, and a 256-bit digest makes an accidental match out of the
//! question where a CRC-32 lets one damaged row in four billion through; hashing a
//! record of about 1 kB is negligible beside the run that made it.
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
//!
//! Inside the module: `error` (the one error type) ← `file` (the store) ← `merge`
//! (merge and read); `campaign` runs a sweep's missing runs into a store.

mod campaign;
mod error;
mod file;
mod merge;

use rusqlite::types::Value;
use sim_kit::hash::{FNV_OFFSET, fnv1a_from};
use sim_kit::output::table::Cell;

pub use campaign::{CampaignError, Job, Ran, run_campaign};
pub use error::{Damage, Lacking, StoreError, Unusable};
pub use file::{LOCK_WAIT, Store};
pub use merge::{Merged, merge, model_of, read_runs};

/// A value of a column as SQLite stores it (integer, real, text, blob or NULL).
pub type SqlValue = Value;

/// A column of a model's record: its name and its SQL type with its constraints
/// (`"INTEGER NOT NULL"`, `"REAL"`, `"TEXT NOT NULL"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The column's name, as the model's results files name the figure.
    pub name: String,
    /// Its SQL type and constraints.
    pub sql: &'static str,
}

impl Column {
    /// A column named `name` of type `sql`.
    pub fn new(name: impl Into<String>, sql: &'static str) -> Self {
        Self {
            name: name.into(),
            sql,
        }
    }
}

/// A table of detail rows each run may have (CSMA/CD's backoff statistics per
/// collision count): its name, its columns after `run_id`, and the one that orders
/// them and, with the run, keys them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detail {
    /// The table's name.
    pub table: &'static str,
    /// Its columns after `run_id`, the key first.
    pub columns: Vec<Column>,
}

/// How a model's runs are stored: what a model gives the store so that the store
/// needs to know nothing else of it.
pub trait Layout {
    /// One point's parameters.
    type Point;
    /// What one run gives, as it is stored and read back.
    type Record;

    /// The version of the file's layout; a file of another is refused.
    const SCHEMA_VERSION: &'static str;
    /// The model and the version of its results (change it with any change that
    /// changes a run's results); a file of another is refused, so that results of two
    /// models never mix.
    const MODEL_VERSION: &'static str;

    /// The parameter columns of `point` with their values, named as the model's
    /// results files name them, the seed aside (each run has its own).
    fn parameters(point: &Self::Point) -> Vec<(String, Cell)>;

    /// The names of the parameter columns, in order ([`Layout::parameters`] of any
    /// point gives these names).
    fn parameter_names() -> Vec<String>;

    /// The columns of a run's record, after the parameters.
    fn results() -> Vec<Column>;

    /// The table of detail rows per run, if the model has one.
    fn detail() -> Option<Detail> {
        None
    }

    /// A record as the values of [`Layout::results`], in order, and its detail rows
    /// (each the values of the detail table's columns).
    fn encode(record: &Self::Record) -> (Vec<Value>, Vec<Vec<Value>>);

    /// A record from the values of [`Layout::results`] and its detail rows, as
    /// [`Layout::encode`] gave them.
    ///
    /// # Errors
    ///
    /// The name of a column whose value is not of its kind (only a damaged file,
    /// whose checksum happens to match, could hold one).
    fn decode(results: &[Value], detail: &[Vec<Value>]) -> Result<Self::Record, String>;
}

/// A run's key: its point (the point's identity text, the seed aside) and its seed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunKey {
    /// The point's identity, as the model writes it.
    pub point: String,
    /// The run's seed.
    pub seed: u64,
}

/// The identity of a campaign: a hash of every run's key (point and seed), in sweep
/// order, as 16 hex digits. Two shards belong together only if their campaigns match.
///
/// ```
/// use sim_host::store::{RunKey, campaign_id};
/// let k = |seed| RunKey { point: "p".into(), seed };
/// assert_eq!(campaign_id(&[k(1), k(2)]).len(), 16);
/// assert_ne!(campaign_id(&[k(1), k(2)]), campaign_id(&[k(2), k(1)]));
/// ```
pub fn campaign_id(keys: &[RunKey]) -> String {
    let h = keys.iter().fold(FNV_OFFSET, |h, k| {
        fnv1a_from(fnv1a_from(h, k.point.as_bytes()), &k.seed.to_le_bytes())
    });
    format!("{h:016x}")
}

/// A cell of a results table as an SQLite value (the parameter columns have no
/// declared type, so each value keeps its own: integer, real, text or NULL; a
/// number that is not finite is NULL).
pub fn sql_value(c: Cell) -> Value {
    match c {
        Cell::Int(v) => Value::Integer(v as i64),
        Cell::Num(v) | Cell::Exact(v) if v.is_finite() => Value::Real(v),
        Cell::Num(_) | Cell::Exact(_) | Cell::Empty => Value::Null,
        Cell::Text(t) => Value::Text(t),
        Cell::Bool(b) => Value::Integer(i64::from(b)),
    }
}

/// A figure as an SQLite value: NULL for none (NaN).
pub fn real_value(m: f64) -> Value {
    if m.is_nan() {
        Value::Null
    } else {
        Value::Real(m)
    }
}

/// A stored integer (an unsigned value written as its i64 bit pattern) as a `u64`;
/// `None` if the value is not an integer.
pub fn unsigned(v: &Value) -> Option<u64> {
    match v {
        Value::Integer(i) => Some(*i as u64),
        _ => None,
    }
}

/// A stored figure as an `f64`: NULL is NaN (no value), an integer is read as a
/// number; `None` for text or bytes.
pub fn real(v: &Value) -> Option<f64> {
    match v {
        Value::Null => Some(f64::NAN),
        Value::Real(x) => Some(*x),
        Value::Integer(i) => Some(*i as f64),
        _ => None,
    }
}
