//! The store: one results database file, opened, checked whole, read run by run with
//! each run verified, and written one run per transaction (see the module docs of
//! [`crate::store`]).

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, params};
use sha2::{Digest, Sha256};

use sim_kit::shard::Shard;

use super::error::{Damage, Lacking, StoreError, Unusable};
use super::{Column, Layout, RunKey};

/// An open results database of the model whose runs `L` lays out.
pub struct Store<L> {
    /// The file, as messages name it.
    path: PathBuf,
    conn: Mutex<Connection>,
    /// The columns of `runs` from `point` to the last metric, in table order.
    columns: Vec<String>,
    /// Why the file is not written (`None`: it is).
    read_only: Option<String>,
    /// Whether the file is in WAL mode (it goes into it when a run is to be stored).
    wal: AtomicBool,
    layout: PhantomData<fn() -> L>,
}

/// How long a store waits for another process's lock on the file before it gives
/// up: SQLite's busy timeout, and the wait to put the file in WAL mode.
pub const LOCK_WAIT: Duration = Duration::from_secs(30);

/// Why a store cannot write its file.
enum NotWritable {
    /// It cannot be written at all: why.
    ReadOnly(String),
    /// Another process held its lock for [`LOCK_WAIT`].
    Busy,
}

/// The columns of `runs` from `point` to the last of the record, in table order.
fn run_columns<L: Layout>() -> Vec<String> {
    ["point", "seed", "replication"]
        .into_iter()
        .map(String::from)
        .chain(L::parameter_names())
        .chain(L::results().into_iter().map(|c| c.name))
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

/// The checksum of a run's row and its detail rows (see the module docs), as 64
/// lowercase hex digits.
pub(super) fn checksum(run: &[Value], detail: &[Vec<Value>]) -> String {
    let mut h = Sha256::new();
    for v in run.iter().chain(detail.iter().flatten()) {
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

/// A run's row as read, before it is verified.
pub(super) struct RawRun {
    id: i64,
    /// The columns from `point` to the last metric.
    values: Vec<Value>,
    sha: Value,
}

/// A run read and verified: its id, its values (from `point` to the last of the
/// record), its detail rows and its key.
pub(super) struct StoredRun {
    pub(super) id: i64,
    pub(super) values: Vec<Value>,
    pub(super) detail: Vec<Vec<Value>>,
    pub(super) key: RunKey,
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

/// Whether an SQLite error says another connection held the file's lock for the
/// whole busy timeout ([`LOCK_WAIT`]).
fn busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
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
pub(super) fn check_folder(path: &Path) -> Result<(), StoreError> {
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

impl<L: Layout> Store<L> {
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
    pub(super) fn open_as(path: &Path, shown: &Path) -> Result<Self, StoreError> {
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
        conn.busy_timeout(LOCK_WAIT).map_err(open_error)?;
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
            Err(e) if busy(&e) => {
                return Err(StoreError::Busy {
                    path: named,
                    waited: LOCK_WAIT,
                }
                .into());
            }
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
        let columns = run_columns::<L>();
        if tables == 0 {
            if !write {
                return Err(StoreError::Schema(named).into());
            }
            create_if_empty::<L>(&mut conn).map_err(|e| {
                if cannot_write(&e) {
                    ConnectError::CannotWrite(e.to_string())
                } else {
                    open_error(e).into()
                }
            })?;
        }
        check_versions::<L>(&conn, &named)?;
        check_schema::<L>(&conn, &named, &columns)?;
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
            layout: PhantomData,
        })
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection usable: SQLite rolls
        // back the open transaction.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(super) fn sql(&self, e: rusqlite::Error) -> StoreError {
        if busy(&e) {
            StoreError::Busy {
                path: self.path.clone(),
                waited: LOCK_WAIT,
            }
        } else {
            StoreError::Sql(self.path.clone(), e)
        }
    }

    /// An error while reading: damage if SQLite says so, else SQLite failing.
    fn read_error(&self, e: rusqlite::Error) -> StoreError {
        if damaged(&e) {
            StoreError::Damaged(self.path.clone(), Damage::Malformed(e))
        } else {
            self.sql(e)
        }
    }

    /// Why the file is only read, if it is.
    pub(super) fn why_read_only(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// The columns of `runs` from `point` to the last of the record, in table order.
    pub(super) fn columns(&self) -> &[String] {
        &self.columns
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
        self.writable().map_err(|e| match e {
            NotWritable::ReadOnly(why) => StoreError::ReadOnly {
                path: self.path.clone(),
                why,
                lacking: Lacking::Runs { missing, of },
            },
            NotWritable::Busy => StoreError::Busy {
                path: self.path.clone(),
                waited: LOCK_WAIT,
            },
        })
    }

    /// Put the file in WAL mode to write it, once; why it cannot be written if not.
    /// The switch needs the file to itself: while another process holds it, the switch
    /// is tried again for up to [`LOCK_WAIT`] (SQLite does not wait for it itself).
    fn writable(&self) -> Result<(), NotWritable> {
        if let Some(why) = &self.read_only {
            return Err(NotWritable::ReadOnly(why.clone()));
        }
        if self.wal.load(Ordering::SeqCst) {
            return Ok(());
        }
        let conn = self.lock();
        let until = Instant::now() + LOCK_WAIT;
        let mode: String = loop {
            match conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0)) {
                Ok(mode) => break mode,
                Err(e) if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => {
                    if Instant::now() >= until {
                        return Err(NotWritable::Busy);
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(NotWritable::ReadOnly(e.to_string())),
            }
        };
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(NotWritable::ReadOnly(format!(
                "SQLite keeps it in journal mode {mode}"
            )));
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
    pub fn load(&self, keys: &[RunKey]) -> Result<Vec<Option<L::Record>>, StoreError> {
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
            out.push(Some(self.decode(stored)?));
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

    /// Read a run's detail rows and check the run against its checksum and its key's
    /// columns.
    fn verify(&self, conn: &Connection, raw: RawRun) -> Result<StoredRun, StoreError> {
        let detail = match L::detail() {
            None => Vec::new(),
            Some(d) => {
                let names: Vec<String> = d.columns.iter().map(|c| c.name.clone()).collect();
                let mut q = conn
                    .prepare_cached(&format!(
                        "SELECT {} FROM {} WHERE run_id = ?1 ORDER BY {}",
                        names.join(", "),
                        d.table,
                        names[0]
                    ))
                    .map_err(|e| self.read_error(e))?;
                q.query_map([raw.id], |r| {
                    (0..names.len())
                        .map(|i| r.get_ref(i).map(owned))
                        .collect::<Result<Vec<_>, _>>()
                })
                .and_then(|it| it.collect::<Result<Vec<_>, _>>())
                .map_err(|e| self.read_error(e))?
            }
        };
        if raw.sha != Value::Text(checksum(&raw.values, &detail)) {
            return Err(self.damaged(Damage::Checksum { id: raw.id }));
        }
        let id = raw.id;
        let bad = |column: &str| {
            self.damaged(Damage::Value {
                id,
                column: column.to_string(),
            })
        };
        let v = &raw.values;
        let point = match &v[0] {
            Value::Text(t) => t.clone(),
            _ => return Err(bad("point")),
        };
        let seed = super::unsigned(&v[1]).ok_or_else(|| bad("seed"))?;
        super::unsigned(&v[2])
            .and_then(|r| u32::try_from(r).ok())
            .ok_or_else(|| bad("replication"))?;
        Ok(StoredRun {
            id,
            values: raw.values,
            detail,
            key: RunKey { point, seed },
        })
    }

    /// A verified run's record.
    fn decode(&self, run: StoredRun) -> Result<L::Record, StoreError> {
        let first = run.values.len() - L::results().len();
        L::decode(&run.values[first..], &run.detail)
            .map_err(|column| self.damaged(Damage::Value { id: run.id, column }))
    }

    /// Every stored run, verified, in id order.
    pub(super) fn runs(&self) -> Result<Vec<StoredRun>, StoreError> {
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

    /// Store the record of replication `replication` of `point`, the run `key` (the
    /// point's identity and the run's seed), with its checksum, in one transaction.
    /// A run stored already with the same values (another process sharing the file
    /// computed it too: a run's results are a function of its key) is left as it is.
    ///
    /// # Errors
    ///
    /// [`StoreError::Duplicate`] if the run is stored already with other values,
    /// [`StoreError::ReadOnly`] if the file cannot be written, [`StoreError::Busy`] if
    /// another process holds it for [`LOCK_WAIT`], [`StoreError::Sql`] if writing fails.
    pub fn put(
        &self,
        key: &RunKey,
        point: &L::Point,
        replication: u32,
        record: &L::Record,
    ) -> Result<(), StoreError> {
        self.ready_to_store(1, 1)?;
        let (results, detail) = L::encode(record);
        let values: Vec<Value> = [
            Value::Text(key.point.clone()),
            Value::Integer(key.seed as i64),
            Value::Integer(i64::from(replication)),
        ]
        .into_iter()
        .chain(
            L::parameters(point)
                .into_iter()
                .map(|(_, c)| super::sql_value(c)),
        )
        .chain(results)
        .collect();
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(|e| self.sql(e))?;
        match self.insert(&tx, key.seed, values.clone(), &detail) {
            Ok(()) => tx.commit().map_err(|e| self.sql(e)),
            Err(StoreError::Duplicate { path, seed }) => {
                tx.rollback().map_err(|e| self.sql(e))?;
                match self.find(&conn, key)? {
                    Some(run) if run.values == values && run.detail == detail => Ok(()),
                    _ => Err(StoreError::Duplicate { path, seed }),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// The run stored under `key`, verified, if any.
    fn find(&self, conn: &Connection, key: &RunKey) -> Result<Option<StoredRun>, StoreError> {
        let mut q = conn
            .prepare_cached(&format!(
                "SELECT id, {}, record_sha256 FROM runs WHERE point = ?1 AND seed = ?2",
                quoted(&self.columns)
            ))
            .map_err(|e| self.read_error(e))?;
        let raw = q
            .query_map(params![key.point, key.seed as i64], |r| self.raw(r))
            .and_then(|mut it| it.next().transpose())
            .map_err(|e| self.read_error(e))?;
        raw.map(|raw| self.verify(conn, raw)).transpose()
    }

    /// Insert a run's row (`values`: from `point` to the last of the record) with
    /// its checksum, and its detail rows.
    pub(super) fn insert(
        &self,
        conn: &Connection,
        seed: u64,
        values: Vec<Value>,
        detail: &[Vec<Value>],
    ) -> Result<(), StoreError> {
        let sha = checksum(&values, detail);
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
                    seed,
                }
            }
            e => self.sql(e),
        })?;
        if let Some(d) = L::detail() {
            let id = conn.last_insert_rowid();
            let names: Vec<String> = d.columns.iter().map(|c| c.name.clone()).collect();
            let places: Vec<String> = (2..=names.len() + 1).map(|i| format!("?{i}")).collect();
            let mut b = conn
                .prepare_cached(&format!(
                    "INSERT INTO {} (run_id, {}) VALUES (?1, {})",
                    d.table,
                    names.join(", "),
                    places.join(", ")
                ))
                .map_err(|e| self.sql(e))?;
            for row in detail {
                b.execute(rusqlite::params_from_iter(
                    [Value::Integer(id)].into_iter().chain(row.iter().cloned()),
                ))
                .map_err(|e| self.sql(e))?;
            }
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
        self.writable().map_err(|e| match e {
            NotWritable::ReadOnly(why) => StoreError::ReadOnly {
                path: self.path.clone(),
                why,
                lacking: Lacking::Shard(shard),
            },
            NotWritable::Busy => StoreError::Busy {
                path: self.path.clone(),
                waited: LOCK_WAIT,
            },
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

impl<L> Drop for Store<L> {
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
pub(super) fn owned(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(t) => Value::Text(t.to_string()),
            Err(_) => Value::Blob(t.to_vec()),
        },
        v => v.into(),
    }
}

/// The statements that create an empty file's tables.
fn create_sql<L: Layout>() -> String {
    let line = |c: &Column| format!("{} {},", c.name, c.sql);
    let parameters: Vec<String> = L::parameter_names()
        .iter()
        .map(|n| format!("\"{n}\","))
        .chain(L::results().iter().map(line))
        .collect();
    let mut sql = format!(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    point TEXT NOT NULL,
    seed INTEGER NOT NULL,
    replication INTEGER NOT NULL,
    {}
    record_sha256 TEXT NOT NULL,
    UNIQUE (point, seed)
);
",
        parameters.join("\n    ")
    );
    if let Some(d) = L::detail() {
        let columns: Vec<String> = d.columns.iter().map(line).collect();
        sql.push_str(&format!(
            "CREATE TABLE {} (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    {}
    PRIMARY KEY (run_id, {})
);
",
            d.table,
            columns.join("\n    "),
            d.columns[0].name
        ));
    }
    sql
}

/// Create the tables of an empty file and record its versions, in one transaction.
fn create<L: Layout>(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(&format!("BEGIN; {} COMMIT;", create_statements::<L>()))
}

/// The tables and the versions of an empty file, as statements.
fn create_statements<L: Layout>() -> String {
    format!(
        "{} INSERT INTO meta (key, value) VALUES ('schema_version', '{}'), ('model_version', '{}');",
        create_sql::<L>(),
        L::SCHEMA_VERSION,
        L::MODEL_VERSION
    )
}

/// Create the tables of a file that has none, in one transaction that holds the
/// file's write lock from its start: of two processes that found the same new file
/// empty, the second waits for the first and then finds the tables made.
fn create_if_empty<L: Layout>(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let tables: i64 = tx.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
    if tables == 0 {
        tx.execute_batch(&create_statements::<L>())?;
    }
    tx.commit()
}

fn check_versions<L: Layout>(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let get = |k: &str| -> Result<Option<String>, StoreError> {
        conn.query_row("SELECT value FROM meta WHERE key = ?1", [k], |r| r.get(0))
            .optional()
            .map_err(|_| StoreError::Schema(path.to_path_buf()))
    };
    let model = get("model_version")?;
    // Another model's file is named as such first: its layout differs too, but what
    // the user needs to hear is whose results it holds.
    let name = |v: &str| v.split(' ').next().unwrap_or("").to_string();
    if let Some(found) = model.as_ref().filter(|m| name(m) != name(L::MODEL_VERSION)) {
        return Err(StoreError::ModelVersion {
            path: path.to_path_buf(),
            found: found.clone(),
            expected: L::MODEL_VERSION,
        });
    }
    match get("schema_version")? {
        Some(v) if v == L::SCHEMA_VERSION => {}
        Some(found) => {
            return Err(StoreError::SchemaVersion {
                path: path.to_path_buf(),
                found,
                expected: L::SCHEMA_VERSION,
            });
        }
        None => return Err(StoreError::Schema(path.to_path_buf())),
    }
    match model {
        Some(v) if v == L::MODEL_VERSION => Ok(()),
        found => Err(StoreError::ModelVersion {
            path: path.to_path_buf(),
            found: found.unwrap_or_default(),
            expected: L::MODEL_VERSION,
        }),
    }
}

/// The file's tables and indexes are those this mac-sim creates, statement for
/// statement (the integrity check does not read the schema's text, and damage there
/// could rename a column or change its type).
fn check_schema<L: Layout>(
    conn: &Connection,
    path: &Path,
    columns: &[String],
) -> Result<(), StoreError> {
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
        .and_then(|mem| create::<L>(&mem).and_then(|()| schema(&mem)))
        .map_err(|e| StoreError::Sql(path.to_path_buf(), e))?;
    match schema(conn) {
        Ok(found) if found == expected => Ok(()),
        _ => Err(missing_parameters::<L>(conn, columns).map_or_else(
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
fn missing_parameters<L: Layout>(conn: &Connection, columns: &[String]) -> Option<Vec<String>> {
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
    let parameters = L::parameter_names();
    let only_parameters = missing.iter().all(|m| parameters.contains(m));
    (only_parameters && !missing.is_empty() && found.len() > 3).then_some(missing)
}

/// The campaign and shard a file records, if any.
pub(super) fn shard_of(
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
