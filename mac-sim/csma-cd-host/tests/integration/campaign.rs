//! The results database: a sweep interrupted and resumed, a sweep grown by points and
//! replications, and a sweep run in shards and merged all write the same bytes as the
//! sweep run in one go, and compute no run twice.

use crate::common::InterruptAfter;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use csma_cd::sweep::shard::Shard;
use csma_cd::sweep::spec::{Axis, RandomNumbers, SweepSpec};
use csma_cd_host::sweep::execute::{SweepError, SweepOptions, SweepOutcome, run_sweep};
use csma_cd_host::sweep::store::{Store, StoreError, merge};
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
