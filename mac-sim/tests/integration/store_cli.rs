//! The results database through the binary: a damaged file never gives numbers (bytes
//! written into every page in turn, then the sweep resumed: the results of the
//! undamaged campaign or one line and status 2), a finished campaign reads from
//! read-only media, and one exit status for `--db` and `merge` problems.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{assert_usage_error, files_below, mac_sim, stderr};

/// The sweep of these tests: 3 replications of 1 ms runs, one thread (so the file's
/// pages hold the same rows in the same places every time), no charts.
fn sweep_args<'a>(stations: &'a str, db: Option<&'a str>, out: &'a str) -> Vec<&'a str> {
    let mut a = vec![
        "sweep",
        "-n",
        stations,
        "-r",
        "3",
        "-d",
        "2ms",
        "-s",
        "3",
        "-j",
        "1",
        "--no-plots",
        "-q",
        "-o",
        out,
    ];
    if let Some(db) = db {
        a.extend(["--db", db]);
    }
    a
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(o: &Output, what: &str) {
    assert!(o.status.success(), "{what}: {}", stderr(o));
}

/// SQLite's page size, from the file header (bytes 16-17, big-endian; 1 means 65536).
fn page_size(db: &[u8]) -> usize {
    match u16::from_be_bytes([db[16], db[17]]) {
        1 => 65536,
        n => usize::from(n),
    }
}

#[test]
fn bytes_written_into_any_page_give_the_right_results_or_one_line_never_other_numbers() {
    let d = tempfile::tempdir().unwrap();
    let base = d.path().join("base.db");
    // The campaign holds 9 of the 12 runs of the sweep resumed below: resuming it
    // reads the 9 back and stores 3 more in the damaged file.
    ok(
        &mac_sim(&sweep_args(
            "1,2,4",
            Some(s(&base)),
            s(&d.path().join("first")),
        )),
        "the campaign",
    );
    let want = d.path().join("want");
    ok(
        &mac_sim(&sweep_args("1,2,4,8", None, s(&want))),
        "the sweep in one go",
    );
    let want = files_below(&want);
    let pristine = std::fs::read(&base).unwrap();
    for suffix in ["-wal", "-shm", "-journal"] {
        assert!(
            !Path::new(&format!("{}{suffix}", base.display())).exists(),
            "a finished campaign is one file, with no {suffix}"
        );
    }
    let page = page_size(&pristine);
    assert_eq!(pristine.len() % page, 0);
    let pages = pristine.len() / page;
    assert!(
        pages >= 8,
        "{pages} pages: tables, indexes and runs each have one"
    );
    let (mut same, mut refused) = (0, Vec::new());
    let db = d.path().join("damaged.db");
    for p in 0..pages {
        // Every 192 bytes, from the page header (the file header on page 1) and
        // the cell pointers to the cells written from the end of the page, and its
        // last 16 bytes: about 200 cases, a few seconds in a debug build.
        for at in (0..page - 16).step_by(192).chain([page - 16]) {
            let mut bytes = pristine.clone();
            let start = p * page + at;
            for (i, b) in bytes[start..start + 16].iter_mut().enumerate() {
                *b = 0x41 + i as u8;
            }
            if bytes == pristine {
                continue;
            }
            std::fs::write(&db, &bytes).unwrap();
            let out = d.path().join(format!("out-{p}-{at}"));
            let o = mac_sim(&sweep_args("1,2,4,8", Some(s(&db)), s(&out)));
            let what = format!("16 bytes at offset {at} of page {}", p + 1);
            if o.status.success() {
                assert_eq!(files_below(&out), want, "{what}: other results, exit 0");
                same += 1;
            } else {
                // A refusal: one line naming the file, status 2, nothing published.
                assert_usage_error(&o, "damaged.db");
                assert!(!out.exists(), "{what}: results published with an error");
                refused.push(stderr(&o));
            }
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
        }
    }
    // Each guard had work to do: SQLite's integrity check on open, the runs'
    // checksums (damage inside a value, which no index covers), and the check that
    // the file is a database at all; damage in space no row uses changes nothing.
    let count = |needle: &str| refused.iter().filter(|e| e.contains(needle)).count();
    assert!(same > 0, "no damage left the results as they were");
    assert!(count("integrity check") > 0, "{refused:#?}");
    assert!(count("does not match its checksum") > 0, "{refused:#?}");
    assert!(count("not an SQLite database") > 0, "{refused:#?}");
    eprintln!(
        "{} cases: {same} gave the undamaged results, {} were refused",
        same + refused.len(),
        refused.len()
    );
}

/// Runs the binary with `args` while `dir` cannot be written: by its permissions,
/// and where they do not stop us (root) in a mount namespace of the command's own
/// in which `dir` is mounted read-only (`unshare --mount`). `None` where neither
/// can be had.
fn mac_sim_read_only(dir: &Path, args: &[&str]) -> Option<Output> {
    use std::os::unix::fs::PermissionsExt;
    let set = |file: u32, folder: u32| {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(file)).unwrap();
        }
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(folder)).unwrap();
    };
    set(0o444, 0o555);
    let probe = dir.join(".probe");
    let writable = std::fs::write(&probe, "x").is_ok();
    let _ = std::fs::remove_file(&probe);
    let out = if !writable {
        Some(mac_sim(args))
    } else {
        let script = r#"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" || exit 97
shift
exec "$@""#;
        Command::new("unshare")
            .args(["--mount", "sh", "-c", script, "sh", s(dir)])
            .arg(env!("CARGO_BIN_EXE_mac-sim"))
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.code() != Some(97))
    };
    set(0o644, 0o755);
    if out.is_none() {
        eprintln!("no read-only folder can be had here (root without unshare): case not exercised");
    }
    out
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_finished_campaign_is_read_from_read_only_media_and_an_unfinished_one_refused() {
    let d = tempfile::tempdir().unwrap();
    let media = d.path().join("media");
    std::fs::create_dir(&media).unwrap();
    let c = media.join("c.db");
    let one_go = d.path().join("one-go");
    ok(
        &mac_sim(&sweep_args("1,2", Some(s(&c)), s(&one_go))),
        "the campaign",
    );
    for k in ["1/2", "2/2"] {
        let shard = media.join(format!("s{}.db", &k[..1]));
        let mut a = sweep_args("1,2", Some(s(&shard)), "unused");
        a.extend(["--shard", k]);
        ok(&mac_sim(&a), "a shard");
    }
    let before = names(&media);
    assert_eq!(before, ["c.db", "s1.db", "s2.db"], "one file per campaign");

    let out = d.path().join("from-read-only");
    let Some(o) = mac_sim_read_only(&media, &sweep_args("1,2", Some(s(&c)), s(&out))) else {
        return;
    };
    ok(&o, "the finished campaign on read-only media");
    assert_eq!(files_below(&out), files_below(&one_go));
    // Merge reads its inputs only.
    let merged = d.path().join("merged.db");
    let o = mac_sim_read_only(
        &media,
        &[
            "merge",
            "-o",
            s(&merged),
            s(&media.join("s1.db")),
            s(&media.join("s2.db")),
        ],
    )
    .unwrap();
    ok(&o, "merge of shards on read-only media");
    let from_merged = d.path().join("from-merged");
    ok(
        &mac_sim(&sweep_args("1,2", Some(s(&merged)), s(&from_merged))),
        "the merged campaign",
    );
    assert_eq!(files_below(&from_merged), files_below(&one_go));
    // A sweep that needs runs the file lacks cannot store them: refused before
    // running, naming the file and what to do.
    let grown = d.path().join("grown");
    let o = mac_sim_read_only(&media, &sweep_args("1,2,4", Some(s(&c)), s(&grown))).unwrap();
    assert_usage_error(&o, "lacks 3 of the sweep's 9 runs");
    assert!(
        stderr(&o).contains("c.db' cannot be written"),
        "{}",
        stderr(&o)
    );
    assert!(!grown.exists());
    // A new file cannot be made there.
    let o = mac_sim_read_only(
        &media,
        &sweep_args("1", Some(s(&media.join("new.db"))), s(&grown)),
    )
    .unwrap();
    assert_usage_error(&o, "new.db': it cannot be created");
    assert_eq!(
        names(&media),
        before,
        "nothing was written beside the files"
    );
}

#[test]
fn db_and_merge_problems_exit_2_alike_with_one_line_naming_the_file() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    let missing = d.path().join("no-such-folder").join("c.db");
    let text = d.path().join("text.db");
    std::fs::write(&text, "not a database at all, just some text\n".repeat(200)).unwrap();
    let shard = d.path().join("s1.db");
    let mut a = sweep_args("1,2", Some(s(&shard)), "unused");
    a.extend(["--shard", "1/2"]);
    ok(&mac_sim(&a), "a shard");

    // A missing folder.
    let o = mac_sim(&sweep_args("1", Some(s(&missing)), s(&out)));
    assert_usage_error(&o, "no-such-folder' does not exist");
    let o = mac_sim(&["merge", "-o", s(&missing), s(&shard)]);
    assert_usage_error(&o, "no-such-folder' does not exist");
    let o = mac_sim(&["merge", "-o", s(&d.path().join("m.db")), s(&missing)]);
    assert_usage_error(&o, "c.db': no such file");
    // A file that is not a database.
    for o in [
        mac_sim(&sweep_args("1", Some(s(&text)), s(&out))),
        mac_sim(&["merge", "-o", s(&d.path().join("m.db")), s(&text)]),
    ] {
        assert_usage_error(&o, "text.db' is not an SQLite database");
    }
    // A folder that cannot be written, for a new database and a merge's output.
    let ro = d.path().join("read-only");
    std::fs::create_dir(&ro).unwrap();
    let new = ro.join("new.db");
    let shard_s = s(&shard);
    for (args, needle) in [
        (
            sweep_args("1", Some(s(&new)), s(&out)),
            "new.db': it cannot be created",
        ),
        (
            vec!["merge", "-o", s(&new), shard_s],
            "new.db': it cannot be created",
        ),
    ] {
        if let Some(o) = mac_sim_read_only(&ro, &args) {
            assert_usage_error(&o, needle);
        }
    }
    assert!(!out.exists());
    assert!(names(&ro).is_empty());
    assert!(!d.path().join("m.db").exists());
    let left: Vec<PathBuf> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".partial-"))
        .collect();
    assert!(left.is_empty(), "staging files left: {left:?}");
}

/// Two processes may grow one campaign file at once: started together on a new file,
/// both finish with the results of the sweep in one go, and every run is stored once
/// (a run both compute is stored by the first; the second finds it stored with the
/// same values and goes on). One run takes about 40 ms in the debug build and each
/// process runs on one thread, so they compute the same runs at the same time.
#[test]
fn two_processes_grow_one_campaign_file_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.db");
    let args = |out: &str| -> Vec<String> {
        [
            "sweep",
            "-n",
            "1,2,4,8,16",
            "-l",
            "0.5,saturated",
            "-r",
            "3",
            "-d",
            "100s",
            "-s",
            "5",
            "-j",
            "1",
            "-q",
            "-o",
            out,
        ]
        .iter()
        .map(|a| a.to_string())
        .collect()
    };
    let one = dir.path().join("one");
    ok(
        &mac_sim(&args(s(&one)).iter().map(String::as_str).collect::<Vec<_>>()),
        "one go",
    );
    let spawn = |out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_mac-sim"))
            .args(args(s(out)))
            .args(["--db", s(&db)])
            .output()
    };
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let (oa, ob) = std::thread::scope(|sc| {
        let ta = sc.spawn(|| spawn(&a).unwrap());
        let tb = sc.spawn(|| spawn(&b).unwrap());
        (ta.join().unwrap(), tb.join().unwrap())
    });
    ok(&oa, "the first process");
    ok(&ob, "the second process");
    assert_eq!(files_below(&a), files_below(&one));
    assert_eq!(files_below(&b), files_below(&one));
    let runs: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
        .unwrap();
    assert_eq!(runs, 30, "each run stored once");
}

/// A file another process holds locked is waited for (30 s), then refused with exit
/// status 1 and one line saying so. The test holds the lock itself, with an open
/// write transaction, for longer than the wait.
#[test]
fn a_database_locked_by_another_process_is_waited_for_then_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.db");
    let out = dir.path().join("out");
    ok(
        &mac_sim(&sweep_args("1,2", Some(s(&db)), s(&out))),
        "the first sweep",
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let start = std::time::Instant::now();
    let o = mac_sim(&sweep_args(
        "1,2,4",
        Some(s(&db)),
        s(&dir.path().join("out2")),
    ));
    let waited = start.elapsed();
    conn.execute_batch("ROLLBACK").unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("locked by another process") && err.lines().count() == 1,
        "{err}"
    );
    assert!(waited.as_secs() >= 25, "gave up after {waited:?}, not 30 s");
    assert!(!dir.path().join("out2").exists());
}
