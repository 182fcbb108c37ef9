//! `mac-sim storm --sweep ... --db`: a storm sweep kept in a results database, as
//! `sweep --db` keeps a CSMA/CD one. A sweep resumed or grown from its file, or split
//! into shards and merged, prints the bytes of the sweep run in one go; a file that
//! cannot serve is refused in one line with exit status 2, before any run.
//! (`scripts/campaign/test-campaign.sh` kills a storm sweep with SIGKILL and runs one
//! under GNU parallel.)

use std::path::Path;

use crate::common::{assert_args_fail, assert_usage_error, mac_sim, stderr, stdout};

/// A storm sweep of `values` of the utilisation, two seeds, as CSV (or `--json`).
fn sweep(values: &str, extra: &[&str]) -> std::process::Output {
    let spec = format!("utilisation={values}");
    let mut args = vec![
        "storm",
        "--scenario",
        "metastable",
        "--sweep",
        spec.as_str(),
        "--seeds",
        "2",
        "-n",
        "20",
        "-q",
    ];
    if !extra.contains(&"--json") {
        args.push("--csv");
    }
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
fn a_stored_storm_sweep_prints_what_one_go_prints() {
    let dir = tempfile::tempdir().unwrap();
    let db = path(dir.path(), "s.db");
    let one_go = ok(&sweep("0.4,0.93", &[]));
    assert_eq!(ok(&sweep("0.4,0.93", &["--db", &db])), one_go);
    assert_eq!(ok(&sweep("0.4,0.93", &["--db", &db])), one_go);
    // Grown: the stored runs are read, the new value's run.
    assert_eq!(
        ok(&sweep("0.4,0.6,0.93", &["--db", &db, "--json"])),
        ok(&sweep("0.4,0.6,0.93", &["--json"]))
    );
    let runs: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
        .unwrap();
    assert_eq!(runs, 3 * 2 * 2, "3 values x 2 strategies x 2 seeds");
    // Shards merged.
    let shards: Vec<String> = (1..=2)
        .map(|k| {
            let s = path(dir.path(), &format!("s{k}.db"));
            let o = sweep("0.4,0.6,0.93", &["--db", &s, "--shard", &format!("{k}/2")]);
            assert_eq!(ok(&o), "", "a shard prints no results");
            s
        })
        .collect();
    let merged = path(dir.path(), "m.db");
    let o = mac_sim(&["merge", "-q", "-o", &merged, &shards[0], &shards[1]]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        ok(&sweep("0.4,0.6,0.93", &["--db", &merged])),
        ok(&sweep("0.4,0.6,0.93", &[]))
    );
}

#[test]
fn a_storm_file_that_cannot_serve_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = path(dir.path(), "s.db");
    ok(&sweep("0.4", &["--db", &db]));
    // A radio sweep on a storm file, and the reverse.
    let o = mac_sim(&[
        "radio",
        "--sweep",
        "stations=3",
        "--duration",
        "100ms",
        "--db",
        &db,
    ]);
    assert_usage_error(&o, "holds results of 'retry-storm");
    // A record changed in the file: its checksum no longer matches.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE runs SET record = x'00' WHERE id = 1", [])
        .unwrap();
    assert_usage_error(&sweep("0.4", &["--db", &db]), "does not match its checksum");
    assert_args_fail(
        &["storm", "--scenario", "metastable", "--db", &db],
        "--sweep",
    );
    assert_args_fail(
        &[
            "storm",
            "--scenario",
            "metastable",
            "--sweep",
            "utilisation=0.4",
            "--shard",
            "1/2",
        ],
        "--db",
    );
}
