//! The results database: a sweep interrupted and resumed, a sweep grown by points and
//! replications, and a sweep run in shards and merged all write the same bytes as the
//! sweep run in one go, and compute no run twice.

use crate::common::InterruptAfter;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use csma_cd::sweep::Shard;
use csma_cd::sweep::{Axis, RandomNumbers, SweepSpec};
use csma_cd_host::sweep::store::{Damage, Store, StoreError, merge, read_runs, run_key};
use csma_cd_host::sweep::{SweepError, SweepOptions, SweepOutcome, run_sweep};
use sim_kit::progress::{Progress, Quiet, Snapshot};
use sim_kit::time::Time;

fn spec(stations: Vec<u32>, replications: u32) -> SweepSpec {
    let list: Vec<String> = stations.iter().map(u32::to_string).collect();
    let mut s = SweepSpec {
        axes: vec![Axis::parse("stations", &list.join(",")).unwrap()],
        replications,
        seed: 7,
        ..SweepSpec::default()
    };
    s.base.duration = Some(Time::from_ms(20));
    s
}

fn opts(out: &Path, db: Option<&Path>, shard: Option<Shard>) -> SweepOptions {
    SweepOptions {
        out_dir: out.to_path_buf(),
        plots: true,
        db: db.map(Path::to_path_buf),
        shard,
    }
}

fn sweep(s: &SweepSpec, o: &SweepOptions) -> Result<SweepOutcome, SweepError> {
    run_sweep(s, o, &Quiet, &AtomicBool::new(false))
}

/// Every file of a directory, sorted, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn interrupted_then_resumed_equals_one_go_and_runs_nothing_twice() {
    let t = tempfile::tempdir().unwrap();
    let s = spec(vec![1, 4, 16], 3);
    let one_go = t.path().join("one-go");
    sweep(&s, &opts(&one_go, None, None)).unwrap();

    let db = t.path().join("c.db");
    let out = t.path().join("resumed");
    let flag = AtomicBool::new(false);
    let r = run_sweep(
        &s,
        &opts(&out, Some(&db), None),
        &InterruptAfter {
            flag: &flag,
            after: 4,
        },
        &flag,
    );
    assert!(matches!(r, Err(SweepError::Interrupted { .. })), "{r:?}");
    assert!(!out.exists(), "an interrupted sweep published results");
    let kept = Store::open(&db).unwrap().len().unwrap();
    assert!((4..9).contains(&kept), "{kept} runs kept");

    let o = sweep(&s, &opts(&out, Some(&db), None)).unwrap();
    assert_eq!((o.runs, o.stored), (9, kept as usize));
    assert_eq!(files(&out), files(&one_go));
    // Resuming a finished campaign runs nothing and writes the same bytes again.
    let again = t.path().join("again");
    let o = sweep(&s, &opts(&again, Some(&db), None)).unwrap();
    assert_eq!(o.stored, 9);
    assert_eq!(files(&again), files(&one_go));
}

/// Raises the cancel flag when the runs have all finished: a Ctrl-C that arrives after
/// the last run, while the results are being written.
struct InterruptAtEnd<'a>(&'a AtomicBool);

impl Progress for InterruptAtEnd<'_> {
    fn begin(&self, _: usize, _: usize) {}
    fn update(&self, _: &Snapshot) {}
    fn end(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[test]
fn a_late_interruption_publishes_nothing_but_keeps_the_runs() {
    let t = tempfile::tempdir().unwrap();
    let s = spec(vec![1, 4], 2);
    let db = t.path().join("c.db");
    let out = t.path().join("out");
    let flag = AtomicBool::new(false);
    let r = run_sweep(
        &s,
        &opts(&out, Some(&db), None),
        &InterruptAtEnd(&flag),
        &flag,
    );
    assert!(matches!(r, Err(SweepError::Interrupted { .. })), "{r:?}");
    assert!(!out.exists(), "results published after the interruption");
    for e in std::fs::read_dir(t.path()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(name.starts_with("c.db"), "left behind: {name}");
    }
    assert_eq!(Store::open(&db).unwrap().len().unwrap(), 4);
}

/// An empty file where the database goes (made by another process, or by `touch`, in
/// the moment between a look and the creation) is a new database, not an error.
#[test]
fn an_empty_file_is_a_new_database() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("c.db");
    std::fs::write(&db, b"").unwrap();
    let s = spec(vec![1, 4], 1);
    let o = sweep(&s, &opts(&t.path().join("out"), Some(&db), None)).unwrap();
    assert_eq!((o.runs, o.stored), (2, 0));
    assert_eq!(Store::open(&db).unwrap().len().unwrap(), 2);
}

#[test]
fn a_grown_sweep_computes_only_the_new_runs() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("c.db");
    let small = spec(vec![1, 4], 2);
    sweep(&small, &opts(&t.path().join("small"), Some(&db), None)).unwrap();
    let grown = spec(vec![1, 4, 16], 3);
    let o = sweep(&grown, &opts(&t.path().join("grown"), Some(&db), None)).unwrap();
    assert_eq!(
        (o.runs, o.stored),
        (9, 4),
        "two points x two replications were stored"
    );
    let fresh = t.path().join("fresh");
    sweep(&grown, &opts(&fresh, None, None)).unwrap();
    assert_eq!(files(&t.path().join("grown")), files(&fresh));
}

#[test]
fn shards_merged_equal_the_sweep_in_one_go_in_both_seed_modes() {
    for mode in [RandomNumbers::Independent, RandomNumbers::Common] {
        shards_merged_equal_one_go(SweepSpec {
            random_numbers: mode,
            ..spec(vec![1, 2, 8, 32], 3)
        });
    }
}

fn shards_merged_equal_one_go(s: SweepSpec) {
    let t = tempfile::tempdir().unwrap();
    let one_go = t.path().join("one-go");
    sweep(&s, &opts(&one_go, None, None)).unwrap();
    let shards: Vec<PathBuf> = (1..=4).map(|k| t.path().join(format!("s{k}.db"))).collect();
    let mut total = 0;
    for (k, db) in shards.iter().enumerate() {
        let shard = Shard::new(k as u32 + 1, 4).unwrap();
        let o = sweep(&s, &opts(&t.path().join("unused"), Some(db), Some(shard))).unwrap();
        assert!(o.points.is_empty() && o.files.is_empty());
        total += o.runs;
    }
    assert_eq!(total, 12, "every run in exactly one shard");
    assert!(!t.path().join("unused").exists(), "a shard wrote results");
    // The merge does not depend on the order of its inputs.
    let merged = t.path().join("merged.db");
    let m = merge(&merged, &shards).unwrap();
    assert_eq!((m.runs, m.shards, m.of), (12, 4, 4));
    let out = t.path().join("from-shards");
    let o = sweep(&s, &opts(&out, Some(&merged), None)).unwrap();
    assert_eq!(o.stored, 12, "nothing was run again");
    assert_eq!(files(&out), files(&one_go));
    let reversed: Vec<PathBuf> = shards.iter().rev().cloned().collect();
    let merged2 = t.path().join("merged2.db");
    merge(&merged2, &reversed).unwrap();
    let out2 = t.path().join("from-reversed");
    sweep(&s, &opts(&out2, Some(&merged2), None)).unwrap();
    assert_eq!(files(&out2), files(&one_go));
}

#[test]
fn merge_refuses_what_does_not_belong_together() {
    let t = tempfile::tempdir().unwrap();
    let a = spec(vec![1, 2], 2);
    let b = spec(vec![1, 4], 2);
    let run_shard = |s: &SweepSpec, name: &str, k: u32, n: u32| {
        let db = t.path().join(name);
        sweep(s, &opts(&t.path().join("x"), Some(&db), Shard::new(k, n))).unwrap();
        db
    };
    let a1 = run_shard(&a, "a1.db", 1, 2);
    let a2 = run_shard(&a, "a2.db", 2, 2);
    let b2 = run_shard(&b, "b2.db", 2, 2);
    let a3 = run_shard(&a, "a3of3.db", 3, 3);
    let out = |n: &str| t.path().join(n);
    assert!(matches!(
        merge(&out("m1.db"), &[a1.clone(), b2]),
        Err(StoreError::Campaign { .. })
    ));
    assert!(matches!(
        merge(&out("m2.db"), &[a1.clone(), a3]),
        Err(StoreError::Campaign { .. } | StoreError::Shards(_))
    ));
    assert!(matches!(
        merge(&out("m3.db"), &[a1.clone(), a1.clone()]),
        Err(StoreError::Shards(_))
    ));
    // A database that is not a shard, and a file that is not a database.
    let plain = t.path().join("plain.db");
    sweep(&a, &opts(&t.path().join("y"), Some(&plain), None)).unwrap();
    assert!(matches!(
        merge(&out("m4.db"), &[a1.clone(), plain]),
        Err(StoreError::NotAShard(_))
    ));
    let text = t.path().join("text.db");
    std::fs::write(&text, "not a database at all, just some text\n".repeat(200)).unwrap();
    assert!(merge(&out("m5.db"), std::slice::from_ref(&text)).is_err());
    assert!(Store::open(&text).is_err());
    // An existing output is never overwritten; a failed merge leaves no file.
    assert!(matches!(
        merge(&a1, std::slice::from_ref(&a2)),
        Err(StoreError::Exists(_))
    ));
    for n in ["m1.db", "m2.db", "m3.db", "m4.db", "m5.db"] {
        assert!(!out(n).exists(), "{n} left behind");
    }
    merge(&out("ok.db"), &[a1, a2]).unwrap();
}

/// A database of a one-run sweep in `dir` whose `meta` then says `key` = `value`.
fn database_with_meta(dir: &Path, key: &str, value: &str) -> PathBuf {
    let db = dir.join("old.db");
    sweep(&spec(vec![1], 1), &opts(&dir.join("o"), Some(&db), None)).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("UPDATE meta SET value = ?1 WHERE key = ?2", [value, key])
        .unwrap();
    db
}

#[test]
fn a_database_of_another_model_version_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let db = database_with_meta(t.path(), "model_version", "csma-cd 0.0.1, exact model 0");
    assert!(matches!(
        Store::open(&db),
        Err(StoreError::ModelVersion { .. })
    ));
}

#[test]
fn a_database_of_an_older_schema_is_refused_with_a_clear_message() {
    let t = tempfile::tempdir().unwrap();
    let db = database_with_meta(t.path(), "schema_version", "1");
    let Err(e) = Store::open(&db) else {
        panic!("an old schema was accepted")
    };
    assert!(matches!(e, StoreError::SchemaVersion { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.contains("has schema 1, this mac-sim reads schema 4") && msg.contains("use a new file"),
        "{msg}"
    );
    // And a sweep on it stops before running anything.
    let r = sweep(
        &spec(vec![1, 2], 1),
        &opts(&t.path().join("p"), Some(&db), None),
    );
    assert!(matches!(
        r,
        Err(SweepError::Store(StoreError::SchemaVersion { .. }))
    ));
    assert!(!t.path().join("p").exists());
}

/// A database written before a parameter was added lacks its column: refused with a
/// message that names the column and says what to do, not "not a results database".
#[test]
fn a_database_from_before_a_parameter_was_added_names_the_parameter() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("old.db");
    sweep(
        &spec(vec![1], 1),
        &opts(&t.path().join("o"), Some(&db), None),
    )
    .unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("ALTER TABLE runs DROP COLUMN placement_seed")
        .unwrap();
    drop(conn);
    let Err(e) = Store::open(&db) else {
        panic!("a file without a parameter's column was accepted")
    };
    assert!(
        matches!(&e, StoreError::ParametersAdded { missing, .. } if missing == &["placement_seed"]),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("was written before the parameter column(s) placement_seed existed")
    );
}

#[test]
fn a_resumed_sweep_in_each_seed_mode_reads_back_its_own_runs_only() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("c.db");
    let ind = spec(vec![1, 4], 2);
    let crn = SweepSpec {
        random_numbers: RandomNumbers::Common,
        ..ind.clone()
    };
    let o = sweep(&ind, &opts(&t.path().join("a"), Some(&db), None)).unwrap();
    assert_eq!((o.runs, o.stored), (4, 0));
    // Common random numbers are other seeds: other runs, none read back.
    let o = sweep(&crn, &opts(&t.path().join("b"), Some(&db), None)).unwrap();
    assert_eq!((o.runs, o.stored), (4, 0));
    for (s, name) in [(&ind, "a"), (&crn, "b")] {
        let again = t.path().join(format!("{name}-again"));
        let o = sweep(s, &opts(&again, Some(&db), None)).unwrap();
        assert_eq!(o.stored, 4, "{name}: everything read back");
        assert_eq!(files(&again), files(&t.path().join(name)));
    }
    assert_eq!(Store::open(&db).unwrap().len().unwrap(), 8);
}

/// A finished campaign of `s` in `dir/c.db`, and the files of the sweep.
fn campaign(dir: &Path, s: &SweepSpec) -> PathBuf {
    let db = dir.join("c.db");
    sweep(s, &opts(&dir.join("first"), Some(&db), None)).unwrap();
    db
}

/// `sql` run on the file as any SQLite tool would.
fn edit(db: &Path, sql: &str) {
    rusqlite::Connection::open(db)
        .unwrap()
        .execute_batch(sql)
        .unwrap();
}

#[test]
fn a_run_whose_record_was_changed_in_the_file_is_never_used() {
    for (what, sql) in [
        (
            "a metric",
            "UPDATE runs SET utilisation_fraction = 0.5 WHERE id = 2",
        ),
        (
            "the events",
            "UPDATE runs SET events = events + 1 WHERE id = 2",
        ),
        ("a parameter", "UPDATE runs SET stations = 3 WHERE id = 2"),
        (
            "a backoff row",
            "UPDATE backoff SET mean_slots = mean_slots + 1 WHERE run_id = 2 AND collisions = 1",
        ),
        (
            "the keys of two runs swapped",
            "CREATE TEMP TABLE k AS SELECT id, point, seed FROM runs WHERE id IN (1, 2);
             UPDATE runs SET point = point || '~' WHERE id IN (1, 2);
             UPDATE runs SET point = (SELECT point FROM k WHERE id = 3 - runs.id),
                             seed = (SELECT seed FROM k WHERE id = 3 - runs.id) WHERE id IN (1, 2);",
        ),
    ] {
        let t = tempfile::tempdir().unwrap();
        let s = spec(vec![2, 4], 2);
        let db = campaign(t.path(), &s);
        edit(&db, sql);
        let out = t.path().join("again");
        let r = sweep(&s, &opts(&out, Some(&db), None));
        let Err(SweepError::Store(e)) = r else {
            panic!("{what}: {r:?}")
        };
        assert!(
            matches!(e, StoreError::Damaged(_, Damage::Checksum { .. })),
            "{what}: {e:?}"
        );
        let msg = e.to_string();
        assert!(
            msg.contains("c.db' is damaged (row ")
                && msg.contains("does not match its checksum")
                && msg.contains("restore a copy, or move it aside and start a new file"),
            "{what}: {msg}"
        );
        assert!(!out.exists(), "{what}: results published");
        // Merge and the Python package's reader verify every run the same way.
        assert!(
            matches!(read_runs(&db), Err(StoreError::Damaged(..))),
            "{what}"
        );
    }
}

#[test]
fn a_run_is_stored_once_again_with_other_values_is_an_error() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("c.db");
    let s = spec(vec![2], 1);
    let o = sweep(&s, &opts(&t.path().join("a"), None, None)).unwrap();
    let points = s.validate().unwrap();
    let key = run_key(&points[0], s.run_seed(&points[0], 0));
    let store = Store::open(&db).unwrap();
    store.put(&key, &points[0], 0, &o.records[0]).unwrap();
    // The same run again, as another process sharing the file would store it: left
    // as it is.
    store.put(&key, &points[0], 0, &o.records[0]).unwrap();
    assert_eq!(store.len().unwrap(), 1);
    // The same key with other values: an error, and the stored run is kept.
    let mut other = o.records[0].clone();
    other.events += 1;
    let again = store.put(&key, &points[0], 0, &other);
    assert!(
        matches!(again, Err(StoreError::Duplicate { seed, .. }) if seed == key.seed),
        "{again:?}"
    );
    assert_eq!(store.len().unwrap(), 1);
    assert_eq!(store.load(&[key]).unwrap()[0].as_ref(), Some(&o.records[0]));
}

#[test]
fn one_frame_size_is_stored_as_an_integer_so_it_sorts_as_a_number() {
    let t = tempfile::tempdir().unwrap();
    let mut s = spec(vec![2], 1);
    s.axes
        .push(Axis::parse("frames", "1518,64,512,64:7+1518:1").unwrap());
    let db = campaign(t.path(), &s);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let frames: Vec<(String, String)> = conn
        .prepare("SELECT CAST(frames AS TEXT), typeof(frames) FROM runs ORDER BY frames")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let want = [
        ("64", "integer"),
        ("512", "integer"),
        ("1518", "integer"),
        ("64:7,1518:1", "text"),
    ];
    assert_eq!(frames, want.map(|(a, b)| (a.to_string(), b.to_string())));
    // And it reads back: the campaign resumes with nothing to run.
    let o = sweep(&s, &opts(&t.path().join("again"), Some(&db), None)).unwrap();
    assert_eq!(o.stored, 4);
}

#[test]
fn a_finished_campaign_is_one_file_read_without_writing() {
    let t = tempfile::tempdir().unwrap();
    let s = spec(vec![1, 2], 2);
    let db = campaign(t.path(), &s);
    let mut names: Vec<String> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["c.db", "first"], "no -wal or -shm left beside it");
    let header = std::fs::read(&db).unwrap();
    assert_eq!(header[18..20], [1, 1], "a rollback-journal file, not WAL");
    let before = std::fs::read(&db).unwrap();
    // Resuming it runs nothing and writes nothing to the file.
    let o = sweep(&s, &opts(&t.path().join("again"), Some(&db), None)).unwrap();
    assert_eq!(o.stored, 4);
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "a resume wrote to the file"
    );
    let store = Store::open_read_only(&db).unwrap();
    assert!(store.is_read_only());
    assert_eq!(store.len().unwrap(), 4);
    drop(store);
    let (header, rows) = read_runs(&db).unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(header.0[0].0, "id");
    assert!(header.0.iter().all(|(n, _)| n != "record_sha256"));
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "reading wrote to the file"
    );
}
