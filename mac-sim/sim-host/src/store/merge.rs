//! Shards merged into one file, and a file's runs read as rows: both on the values
//! as stored, so they need no model's decoding.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::types::Value;
use rusqlite::{Connection, OpenFlags};

use sim_kit::output::table::{Cell, Row};
use sim_kit::shard::Shard;

use super::error::{StoreError, Unusable};
use super::file::{Store, StoredRun, check_folder, shard_of};
use super::{Layout, RunKey};

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

/// Merge the shard files `inputs` (written with `--shard K/N`) into a new file
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
pub fn merge<L: Layout>(out: &Path, inputs: &[PathBuf]) -> Result<Merged, StoreError> {
    if out.exists() {
        return Err(StoreError::Exists(out.to_path_buf()));
    }
    check_folder(out)?;
    let tmp = crate::output::atomic::temp_path(out);
    let result = (|| {
        // The output first: a folder that cannot be written is found before any
        // input is read.
        let store = Store::<L>::open_as(&tmp, out)?;
        if let Some(why) = store.why_read_only() {
            return Err(StoreError::Unusable(
                out.to_path_buf(),
                Unusable::CannotWrite(why.to_string()),
            ));
        }
        let (rows, seen) = read_shards::<L>(inputs)?;
        {
            let mut conn = store.lock();
            let tx = conn.transaction().map_err(|e| store.sql(e))?;
            for (key, run) in rows.iter() {
                store.insert(&tx, key.seed, run.values.clone(), &run.detail)?;
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
fn read_shards<L: Layout>(
    inputs: &[PathBuf],
) -> Result<(BTreeMap<RunKey, StoredRun>, Vec<Shard>), StoreError> {
    let mut campaign: Option<String> = None;
    let mut seen: Vec<Shard> = Vec::new();
    let mut rows: BTreeMap<RunKey, StoredRun> = BTreeMap::new();
    for path in inputs {
        let store = Store::<L>::open_read_only(path)?;
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
            // Runs agree when every stored value does, their records and detail rows
            // (a figure with no value is NULL in both).
            match rows.get(&run.key) {
                Some(r) if r.values != run.values || r.detail != run.detail => {
                    return Err(StoreError::Conflict {
                        point: run.key.point,
                        seed: run.key.seed,
                    });
                }
                Some(_) => {}
                None => {
                    rows.insert(run.key.clone(), run);
                }
            }
        }
    }
    Ok((rows, seen))
}

/// The runs of the results database at `path`, read only and each verified, as rows
/// named as the `runs` table's columns (`id`, `point`, `seed`, ... the last figure;
/// not the checksum, nor a record stored as bytes: its figures are in the columns),
/// in id order; and the header (those names) for a file with no run. Integers read
/// back as the unsigned values stored (a seed as itself).
///
/// # Errors
///
/// As [`Store::open_read_only`], and [`StoreError::Damaged`] if a run fails its
/// checks.
pub fn read_runs<L: Layout>(path: &Path) -> Result<(Row, Vec<Row>), StoreError> {
    let store = Store::<L>::open_read_only(path)?;
    let bytes: Vec<String> = L::results()
        .into_iter()
        .filter(|c| c.sql.starts_with("BLOB"))
        .map(|c| c.name)
        .collect();
    let names: Vec<String> = ["id".to_string()]
        .into_iter()
        .chain(store.columns().iter().cloned())
        .collect();
    let shown = |n: &String| !bytes.contains(n);
    let header = Row(names
        .iter()
        .filter(|n| shown(n))
        .map(|n| (n.clone(), Cell::Empty))
        .collect());
    let cell = |v: Value| match v {
        Value::Null => Cell::Empty,
        // Every integer stored is an unsigned value written as its i64 bit pattern.
        Value::Integer(i) => Cell::Int(i as u64),
        Value::Real(x) => Cell::Exact(x),
        Value::Text(t) => Cell::Text(t),
        // Not reached for a layout's byte columns, which are left out.
        Value::Blob(b) => Cell::Text(format!("{} bytes", b.len())),
    };
    let rows = store
        .runs()?
        .into_iter()
        .map(|run| {
            Row(names
                .iter()
                .cloned()
                .zip([Value::Integer(run.id)].into_iter().chain(run.values))
                .filter(|(n, _)| shown(n))
                .map(|(n, v)| (n, cell(v)))
                .collect())
        })
        .collect();
    Ok((header, rows))
}

/// The model version a results database records (`meta.model_version`), read without
/// writing: which model's layout reads it. `None` for a file that is not a results
/// database of this program (then opening it with any layout says why).
pub fn model_of(path: &Path) -> Option<String> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .ok()?;
    conn.query_row(
        "SELECT value FROM meta WHERE key = 'model_version'",
        [],
        |r| r.get::<_, String>(0),
    )
    .ok()
}
