//! `mac-sim radio --sweep ... --db`: a radio sweep kept in a results database, as
//! `sweep --db` keeps a CSMA/CD one. A sweep resumed or grown from its file, or split
//! into shards and merged, prints the bytes of the sweep run in one go; a file that
//! cannot serve is refused in one line with exit status 2, before any run.
//! (`scripts/campaign/test-campaign.sh` kills a radio sweep with SIGKILL and runs it
//! under GNU parallel and Slurm.)

use std::path::Path;

use crate::common::{assert_args_fail, assert_usage_error, mac_sim, stderr, stdout};

/// A radio sweep over `stations` and two rules with `extra` options, its CSV on
/// stdout.
fn sweep(stations: &str, extra: &[&str]) -> std::process::Output {
    sweep_as("--csv", stations, extra)
}

/// The same sweep printed as `format` (`--csv` or `--json`).
fn sweep_as(format: &str, stations: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "radio",
        "--sweep",
        stations,
        "--sweep",
        "rule=beb,dcf",
        "--duration",
        "300ms",
        "--warmup",
        "0s",
        format,
        "-q",
    ];
    args.extend_from_slice(extra);
    mac_sim(&args)
}

fn ok(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o)
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

#[test]
fn a_stored_sweep_prints_what_one_go_prints_and_grows_without_recomputing() {
    let dir = tempfile::tempdir().unwrap();
    let db = path(dir.path(), "c.db");
    let one_go = ok(&sweep("stations=3,5", &[]));
    assert_eq!(ok(&sweep("stations=3,5", &["--db", &db])), one_go);
    // Every run read back: the same bytes, nothing computed.
    let again = sweep("stations=3,5", &["--db", &db]);
    assert_eq!(ok(&again), one_go);
    // Grown by one station count: four runs read, two computed.
    let grown = sweep("stations=3,5,7", &["--db", &db]);
    assert_eq!(ok(&grown), ok(&sweep("stations=3,5,7", &[])));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (runs, stations): (i64, i64) = conn
        .query_row(
            "SELECT count(*), (SELECT count(*) FROM stations) FROM runs",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(runs, 6);
    assert_eq!(
        stations,
        2 * (3 + 5 + 7),
        "one row per station of every run"
    );
    // The JSON of the stored sweep is the one-go JSON too (every figure, per station).
    assert_eq!(
        ok(&sweep_as("--json", "stations=3,5,7", &["--db", &db])),
        ok(&sweep_as("--json", "stations=3,5,7", &[]))
    );
}

#[test]
fn shards_merged_print_what_one_go_prints() {
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<String> = (1..=3)
        .map(|k| {
            let db = path(dir.path(), &format!("s{k}.db"));
            let o = sweep(
                "stations=3,5,7",
                &["--db", &db, "--shard", &format!("{k}/3")],
            );
            assert!(o.status.success(), "{}", stderr(&o));
            assert_eq!(stdout(&o), "", "a shard prints no results");
            db
        })
        .collect();
    let merged = path(dir.path(), "m.db");
    let mut args = vec!["merge", "-q", "-o", merged.as_str()];
    args.extend(shards.iter().map(String::as_str));
    let o = mac_sim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        ok(&sweep("stations=3,5,7", &["--db", &merged])),
        ok(&sweep("stations=3,5,7", &[]))
    );
    // A shard of another sweep does not belong.
    let other = path(dir.path(), "other.db");
    ok(&sweep("stations=4,6", &["--db", &other, "--shard", "1/3"]));
    let out = path(dir.path(), "m2.db");
    let o = mac_sim(&["merge", "-o", &out, &shards[0], &other]);
    assert_usage_error(&o, "shards of different sweeps cannot be merged");
}

#[test]
fn a_file_that_cannot_serve_is_refused_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    // A CSMA/CD campaign is not a radio one, and the reverse.
    let csma = path(dir.path(), "csma.db");
    let o = mac_sim(&[
        "sweep",
        "-n",
        "2",
        "-d",
        "1ms",
        "-r",
        "1",
        "--db",
        &csma,
        "-q",
        "-o",
        &path(dir.path(), "out"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = sweep("stations=3,5", &["--db", &csma]);
    assert_usage_error(&o, "holds results of 'csma-cd");
    let radio = path(dir.path(), "radio.db");
    ok(&sweep("stations=3,5", &["--db", &radio]));
    let o = mac_sim(&[
        "sweep",
        "-n",
        "2",
        "-d",
        "1ms",
        "-r",
        "1",
        "--db",
        &radio,
        "-q",
        "-o",
        &path(dir.path(), "out2"),
    ]);
    assert_usage_error(&o, "holds results of 'radio-sim");
    // Shards of two models.
    let s1 = path(dir.path(), "r1.db");
    ok(&sweep("stations=3,5", &["--db", &s1, "--shard", "1/2"]));
    let c2 = path(dir.path(), "c2.db");
    let o = mac_sim(&[
        "sweep",
        "-n",
        "2",
        "-d",
        "1ms",
        "-r",
        "1",
        "--db",
        &c2,
        "--shard",
        "2/2",
        "-q",
        "-o",
        &path(dir.path(), "out3"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = mac_sim(&["merge", "-o", &path(dir.path(), "mixed.db"), &s1, &c2]);
    assert_usage_error(&o, "holds results of 'csma-cd");
    assert!(!dir.path().join("mixed.db").exists());
    // A run's record changed in the file: its checksum no longer matches.
    rusqlite::Connection::open(&radio)
        .unwrap()
        .execute(
            "UPDATE runs SET delivered_frames = delivered_frames + 1 WHERE id = 1",
            [],
        )
        .unwrap();
    let o = sweep("stations=3,5", &["--db", &radio]);
    assert_usage_error(&o, "does not match its checksum");
    // Not a database at all.
    let junk = path(dir.path(), "junk.db");
    std::fs::write(&junk, vec![7u8; 4096]).unwrap();
    assert_usage_error(
        &sweep("stations=3", &["--db", &junk]),
        "is not an SQLite database",
    );
}

#[test]
fn campaign_options_out_of_place_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = path(dir.path(), "c.db");
    assert_args_fail(&["radio", "--db", &db], "--sweep");
    assert_args_fail(
        &["radio", "--sweep", "stations=3", "--shard", "1/2"],
        "--db",
    );
    assert_args_fail(
        &[
            "radio",
            "--sweep",
            "stations=3",
            "--db",
            &db,
            "--shard",
            "3/2",
        ],
        "must be K/N",
    );
    assert_args_fail(
        &[
            "radio",
            "--sweep",
            "stations=3",
            "--db",
            &db,
            "--shard",
            "1/2",
            "-o",
            &path(dir.path(), "r.csv"),
        ],
        "--output",
    );
    // The database and the output are the same file.
    assert_args_fail(
        &["radio", "--sweep", "stations=3", "--db", &db, "-o", &db],
        "--db",
    );
    assert!(!dir.path().join("c.db").exists(), "nothing was created");
}
