//! The results database: every run of a sweep, its parameters and all its metrics, in
//! an SQLite file, so that a sweep resumes where it stopped, grows without recomputing,
//! and can be split into shards that are merged afterwards.
//!
//! # Schema
//!
//! ```sql
//! meta(key TEXT PRIMARY KEY, value TEXT)  -- schema_version, model_version;
//!                                         -- campaign and shard in a shard's file
//! runs(id INTEGER PRIMARY KEY,
//!      point TEXT,          -- the point's parameters as JSON (seed 0): with seed, the key
//!      seed INTEGER,        -- this run's seed (a u64 stored as its i64 bit pattern)
//!      replication INTEGER,
//!      -- the point's parameters, one column each, named and written as every
//!      -- results file names them (`Scenario::columns`, the seed aside):
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
//!      UNIQUE(point, seed))
//! backoff(run_id INTEGER REFERENCES runs(id), collisions INTEGER, draws INTEGER,
//!         mean_slots REAL, std_error REAL, expected_slots REAL,
//!         PRIMARY KEY(run_id, collisions))
//! ```
//!
//! A run is identified by its point and its seed: its results are a function of those
//! two alone (and of the model, whose version the file records: a file written by
//! another model version is refused, so results of two models never mix).
//!
//! # Safe against a crash
//!
//! Each finished run is written in one transaction, in WAL mode with `synchronous =
//! NORMAL`: a process killed at any moment leaves every committed run readable and no
//! half-written one; a power cut may lose the last few commits but does not corrupt
//! the file (SQLite's guarantees for WAL mode).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use csma_cd::config::RunConfig;
use csma_cd::exact::backoff_stats::BackoffRow;
use csma_cd::scenario::Scenario;
use csma_cd::sweep::key::{FNV_OFFSET, fnv1a_from, point_key};
use csma_cd::sweep::record::METRICS;
use csma_cd::sweep::record::RunRecord;
use csma_cd::sweep::shard::Shard;
use csma_cd::table::Cell;

/// The version of the file layout: 2 added goodput, total delay, the drop rate per
/// cause and the delivered frames to the runs (schema 1 had nine metrics).
pub const SCHEMA_VERSION: &str = "3";

/// The version of the model whose results a file holds (exact model 2: the IEEE 802.3
/// deference and the `ifg_rule`/`jam_rule` parameters). Change it with any change
/// that changes a run's results (the golden outputs tell): a database is then refused
/// rather than mixing two models' results.
pub const MODEL_VERSION: &str = concat!("csma-cd ", env!("CARGO_PKG_VERSION"), ", exact model 2");

/// Why the results database could not be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// SQLite failed on this file (cannot open, not a database, disk full, ...).
    Sql(PathBuf, rusqlite::Error),
    /// The file holds results of another model version.
    ModelVersion {
        /// The file.
        path: PathBuf,
        /// The version it records.
        found: String,
    },
    /// The file is not a results database of this program.
    Schema(PathBuf),
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sql(p, e) => write!(f, "results database '{}': {e}", p.display()),
            Self::ModelVersion { path, found } => write!(
                f,
                "results database '{}' holds results of '{found}', not of '{MODEL_VERSION}': use a new file",
                path.display()
            ),
            Self::Schema(p) => write!(
                f,
                "'{}' is not a results database of mac-sim (schema {SCHEMA_VERSION})",
                p.display()
            ),
            Self::SchemaVersion { path, found } => write!(
                f,
                "results database '{}' has schema {found}, this mac-sim reads schema {SCHEMA_VERSION} (runs now state every parameter, named as the results files name them): use a new file",
                path.display()
            ),
            Self::Campaign {
                path,
                found,
                expected,
            } => write!(
                f,
                "'{}' is a shard of campaign {found}, not of campaign {expected}: shards of different sweeps cannot be merged",
                path.display()
            ),
            Self::NotAShard(p) => write!(
                f,
                "'{}' was not written by sweep --shard: merge takes shard files",
                p.display()
            ),
            Self::Shards(s) => write!(f, "shards do not fit together: {s}"),
            Self::Conflict { point, seed } => write!(
                f,
                "two files hold different results for the run with seed {seed} at {point}"
            ),
            Self::Exists(p) => write!(f, "'{}' exists: merge writes a new file", p.display()),
            Self::Io(p, e) => write!(f, "cannot write '{}': {e}", p.display()),
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
    path: PathBuf,
    conn: Mutex<Connection>,
}

const CREATE: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    point TEXT NOT NULL,
    seed INTEGER NOT NULL,
    replication INTEGER NOT NULL,
    {parameters}
    events INTEGER NOT NULL,
    {metrics}
    UNIQUE (point, seed)
);
CREATE TABLE IF NOT EXISTS backoff (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    collisions INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    mean_slots REAL NOT NULL,
    std_error REAL NOT NULL,
    expected_slots REAL NOT NULL,
    PRIMARY KEY (run_id, collisions)
);
";

fn metric_columns() -> String {
    METRICS.map(|(n, _)| n).join(", ")
}

/// The parameter columns of a point, as every results file names them, the seed
/// aside (each run has its own, in the `seed` column).
fn parameter_columns(point: &RunConfig) -> Vec<(String, Cell)> {
    Scenario::columns(point)
        .into_iter()
        .filter(|(k, _)| k != "seed")
        .collect()
}

/// A cell as an SQLite value (the parameter columns have no declared type, so each
/// value keeps its own: integer, real, text or NULL).
fn sql_value(c: Cell) -> rusqlite::types::Value {
    use rusqlite::types::Value;
    match c {
        Cell::Int(v) => Value::Integer(v as i64),
        Cell::Num(v) | Cell::Exact(v) if v.is_finite() => Value::Real(v),
        Cell::Num(_) | Cell::Exact(_) | Cell::Empty => Value::Null,
        Cell::Text(t) => Value::Text(t),
        Cell::Bool(b) => Value::Integer(i64::from(b)),
    }
}

impl Store {
    /// Open the database at `path`, creating it if missing.
    ///
    /// # Errors
    ///
    /// [`StoreError::Sql`] if the file cannot be opened or is not a database,
    /// [`StoreError::Schema`] if it is another program's, [`StoreError::SchemaVersion`] if
    /// an older mac-sim's, [`StoreError::ModelVersion`]
    /// if it holds another model version's results.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let sql = |e| StoreError::Sql(path.to_path_buf(), e);
        let conn = Connection::open(path).map_err(sql)?;
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .map_err(sql)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(sql)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(sql)?;
        let fresh: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(sql)?;
        if fresh == 0 {
            let columns: Vec<String> = METRICS.iter().map(|(n, _)| format!("{n} REAL,")).collect();
            let parameters: Vec<String> = parameter_columns(&RunConfig::default())
                .iter()
                .map(|(n, _)| format!("\"{n}\","))
                .collect();
            let create = CREATE
                .replace("{parameters}", &parameters.join("\n    "))
                .replace("{metrics}", &columns.join("\n    "));
            conn.execute_batch(&create).map_err(sql)?;
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', ?1), ('model_version', ?2)",
                params![SCHEMA_VERSION, MODEL_VERSION],
            )
            .map_err(sql)?;
        }
        check_versions(&conn, path)?;
        Ok(Self {
            path: path.to_path_buf(),
            conn: Mutex::new(conn),
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

    /// The records stored for `keys`, in order (`None` where a run is missing).
    ///
    /// # Errors
    ///
    /// [`StoreError::Sql`] if the file cannot be read.
    pub fn load(&self, keys: &[RunKey]) -> Result<Vec<Option<RunRecord>>, StoreError> {
        let conn = self.lock();
        let mut run = conn
            .prepare_cached(&format!(
                "SELECT id, events, {} FROM runs WHERE point = ?1 AND seed = ?2",
                metric_columns()
            ))
            .map_err(|e| self.sql(e))?;
        let mut rows = conn
            .prepare_cached(
                "SELECT collisions, draws, mean_slots, std_error, expected_slots FROM backoff WHERE run_id = ?1 ORDER BY collisions",
            )
            .map_err(|e| self.sql(e))?;
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            let found = run
                .query_row(params![k.point, k.seed as i64], |r| {
                    let id: i64 = r.get(0)?;
                    let events: i64 = r.get(1)?;
                    let mut metrics = [0.0; METRICS.len()];
                    for (i, m) in metrics.iter_mut().enumerate() {
                        // NULL: a metric without a value (see `METRICS`).
                        *m = r.get::<_, Option<f64>>(i + 2)?.unwrap_or(f64::NAN);
                    }
                    Ok((id, events as u64, metrics))
                })
                .optional()
                .map_err(|e| self.sql(e))?;
            let Some((id, events, metrics)) = found else {
                out.push(None);
                continue;
            };
            let backoff = rows
                .query_map(params![id], |r| {
                    Ok(BackoffRow {
                        collisions: r.get(0)?,
                        draws: r.get::<_, i64>(1)? as u64,
                        mean_slots: r.get(2)?,
                        std_error: r.get(3)?,
                        expected_slots: r.get(4)?,
                    })
                })
                .and_then(|it| it.collect::<Result<Vec<_>, _>>())
                .map_err(|e| self.sql(e))?;
            out.push(Some(RunRecord {
                metrics,
                events,
                backoff,
            }));
        }
        Ok(out)
    }

    /// Store the record of replication `replication` of `point`, the run `key`
    /// ([`RunKey::new`] of the point and its seed), in one transaction. A run already
    /// stored is left as it is.
    ///
    /// # Errors
    ///
    /// [`StoreError::Sql`] if the file cannot be written.
    pub fn put(
        &self,
        key: &RunKey,
        point: &RunConfig,
        replication: u32,
        record: &RunRecord,
    ) -> Result<(), StoreError> {
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(|e| self.sql(e))?;
        insert(&tx, key, point, replication, record).map_err(|e| self.sql(e))?;
        tx.commit().map_err(|e| self.sql(e))
    }

    /// Record that this file is shard `shard` of the campaign `campaign`.
    ///
    /// # Errors
    ///
    /// [`StoreError::Campaign`] or [`StoreError::Shards`] if the file already belongs
    /// to another campaign or shard; [`StoreError::Sql`] if it cannot be written.
    pub fn mark_shard(&self, campaign: &str, shard: Shard) -> Result<(), StoreError> {
        let conn = self.lock();
        let (c, s) = shard_of(&conn, &self.path)?;
        if let Some(c) = c.filter(|c| c != campaign) {
            return Err(StoreError::Campaign {
                path: self.path.clone(),
                found: c,
                expected: campaign.to_string(),
            });
        }
        if let Some(s) = s.filter(|s| *s != shard.to_string()) {
            return Err(StoreError::Shards(format!(
                "'{}' holds shard {s}, not {shard}",
                self.path.display()
            )));
        }
        conn.execute(
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
            .map_err(|e| self.sql(e))
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

fn insert(
    conn: &Connection,
    key: &RunKey,
    point: &RunConfig,
    replication: u32,
    r: &RunRecord,
) -> rusqlite::Result<()> {
    let params = parameter_columns(point);
    let names: Vec<String> = params.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    let fixed = 4 + params.len();
    let placeholders: Vec<String> = (1..=fixed + METRICS.len())
        .map(|i| format!("?{i}"))
        .collect();
    let n = conn
        .prepare_cached(&format!(
            "INSERT OR IGNORE INTO runs (point, seed, replication, {}, events, {}) VALUES ({})",
            names.join(", "),
            metric_columns(),
            placeholders.join(", ")
        ))?
        .execute(rusqlite::params_from_iter(
            [
                rusqlite::types::Value::Text(key.point.clone()),
                rusqlite::types::Value::Integer(key.seed as i64),
                rusqlite::types::Value::Integer(i64::from(replication)),
            ]
            .into_iter()
            .chain(params.into_iter().map(|(_, c)| sql_value(c)))
            .chain([rusqlite::types::Value::Integer(r.events as i64)])
            .chain(r.metrics.iter().map(|&m| {
                if m.is_nan() {
                    rusqlite::types::Value::Null
                } else {
                    rusqlite::types::Value::Real(m)
                }
            })),
        ))?;
    if n == 0 {
        return Ok(());
    }
    let id = conn.last_insert_rowid();
    let mut b = conn.prepare_cached(
        "INSERT INTO backoff (run_id, collisions, draws, mean_slots, std_error, expected_slots) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for row in &r.backoff {
        b.execute(params![
            id,
            row.collisions,
            row.draws as i64,
            row.mean_slots,
            row.std_error,
            row.expected_slots
        ])?;
    }
    Ok(())
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
/// `out`. The runs are written in key order, so the merged file holds the same rows
/// whatever the order of the inputs; it appears only when complete.
///
/// # Errors
///
/// [`StoreError::Exists`] if `out` exists; [`StoreError::NotAShard`],
/// [`StoreError::Campaign`], [`StoreError::Shards`] or [`StoreError::ModelVersion`]
/// for inputs that do not belong together; [`StoreError::Conflict`] if two inputs
/// disagree on a run; [`StoreError::Sql`] or [`StoreError::Io`] for file failures.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Merged, StoreError> {
    if out.exists() {
        return Err(StoreError::Exists(out.to_path_buf()));
    }
    let mut campaign: Option<String> = None;
    let mut seen: Vec<Shard> = Vec::new();
    let mut rows: std::collections::BTreeMap<RunKey, (RunConfig, u32, RunRecord)> =
        std::collections::BTreeMap::new();
    for path in inputs {
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| StoreError::Sql(path.clone(), e))?;
        check_versions(&conn, path)?;
        let (c, s) = shard_of(&conn, path)?;
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
        let store = Store {
            path: path.clone(),
            conn: Mutex::new(conn),
        };
        for (key, point, replication) in store.keys()? {
            let Some(record) = store.load(std::slice::from_ref(&key))?.pop().flatten() else {
                continue;
            };
            match rows.get(&key) {
                Some((_, _, r)) if *r != record => {
                    return Err(StoreError::Conflict {
                        point: key.point,
                        seed: key.seed,
                    });
                }
                Some(_) => {}
                None => {
                    rows.insert(key, (point, replication, record));
                }
            }
        }
    }
    let of = seen.first().map_or(0, |s| s.count());
    let tmp = sim_host::output::atomic::temp_path(out);
    let result = (|| {
        let store = Store::open(&tmp)?;
        {
            let mut conn = store.lock();
            let tx = conn.transaction().map_err(|e| store.sql(e))?;
            for (key, (point, replication, record)) in &rows {
                insert(&tx, key, point, *replication, record).map_err(|e| store.sql(e))?;
            }
            tx.commit().map_err(|e| store.sql(e))?;
            conn.pragma_update(None, "journal_mode", "DELETE")
                .map_err(|e| store.sql(e))?;
        }
        drop(store);
        std::fs::rename(&tmp, out).map_err(|e| StoreError::Io(out.to_path_buf(), e))
    })();
    if result.is_err() {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", tmp.display()));
        }
    }
    result.map(|()| Merged {
        runs: rows.len() as u64,
        shards: seen.len(),
        of,
    })
}

impl Store {
    /// Every stored run's key, point and replication, in key order.
    fn keys(&self) -> Result<Vec<(RunKey, RunConfig, u32)>, StoreError> {
        let conn = self.lock();
        let mut q = conn
            .prepare("SELECT point, seed, replication FROM runs ORDER BY point, seed")
            .map_err(|e| self.sql(e))?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)? as u64,
                    r.get::<_, u32>(2)?,
                ))
            })
            .and_then(|it| it.collect::<Result<Vec<_>, _>>())
            .map_err(|e| self.sql(e))?;
        rows.into_iter()
            .map(|(point, seed, rep)| {
                let cfg: RunConfig = serde_json::from_str(&point)
                    .map_err(|_| StoreError::Schema(self.path.clone()))?;
                Ok((RunKey { point, seed }, cfg, rep))
            })
            .collect()
    }
}
