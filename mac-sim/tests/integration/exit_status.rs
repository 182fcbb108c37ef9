//! One exit-status table for every subcommand: 2 for bad arguments and output paths
//! that cannot be written (found before anything runs: here a directory that stands
//! where a result file goes), and the table itself in `--help` (the signals' statuses
//! are tested in `signals`).

use crate::common::{assert_args_fail, mac_sim, stderr};

#[test]
fn bad_arguments_exit_2_in_every_subcommand() {
    for (args, needle) in [
        (&["run", "-n", "0"][..], "at least 1"),
        (&["slotted", "-f", "10"], "frame size 10"),
        (&["theory", "--slot-bits", "0"], "slot of 0 bit times"),
        (&["bench", "--budget-ms", "0"], "budget must be"),
        (
            &["bench", "--stations", "2,8", "--steady-stations", "16"],
            "--steady-stations 16 is not among --stations",
        ),
        (&["sweep", "-n", "2", "--shard", "1/2"], "--db"),
        (
            &["sweep", "-n", "2", "--db", "x.db", "--shard", "3/2"],
            "K/N",
        ),
        (&["merge", "-o", "m.db"], "SHARD"),
        (&["sweep", "-n", "0"], "stations"),
        (&["sweep", "-n", "2", "-j", "100000"], "per core"),
        (&["storm", "--scenario", "nope"], "unknown scenario"),
        (&["no-such-command"], "see mac-sim --help"),
    ] {
        assert_args_fail(args, needle);
    }
}

/// A directory named like the first result file: refused before the work runs (the
/// write used to fail after it, with exit 1).
fn blocked_write_exits_2(args: &[&str], dir: &std::path::Path, blocker: &str) {
    std::fs::create_dir_all(dir.join(blocker)).unwrap();
    let o = mac_sim(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("mac-sim: error: cannot write"), "{err}");
    assert!(err.contains("a folder is in the way"), "{err}");
    // Nothing new is left: the target holds only the blocker, its parent only the
    // target (no staging folder).
    let names = |d: &std::path::Path| -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(names(dir), vec![blocker.to_string()], "{args:?}");
    let parent = dir.parent().unwrap();
    let here = dir.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        names(parent)
            .iter()
            .all(|n| !n.starts_with(&format!(".{here}"))),
        "{args:?}: a staging folder was left in {}",
        parent.display()
    );
}

#[test]
fn a_folder_in_the_way_exits_2_in_every_subcommand_that_writes_files() {
    let d = tempfile::tempdir().unwrap();
    let sweep = d.path().join("sweep");
    let s = sweep.to_str().unwrap();
    blocked_write_exits_2(
        &["sweep", "-n", "2", "-d", "1ms", "-r", "1", "-q", "-o", s],
        &sweep,
        "results.csv",
    );
    let storm = d.path().join("storm");
    let st = storm.to_str().unwrap();
    blocked_write_exits_2(
        &["storm", "--scenario", "contention", "--out", st],
        &storm,
        "storm-contention.json",
    );
    let plot = d.path().join("plot");
    let p = plot.to_str().unwrap();
    blocked_write_exits_2(
        &["run", "-d", "1ms", "--plot", p],
        &plot,
        "attempts_histogram.png",
    );
}

#[test]
fn help_states_the_exit_statuses() {
    let o = mac_sim(&["--help"]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    for needle in [
        "Exit status",
        "1 the environment",
        "2 bad arguments",
        "129 SIGHUP",
        "130 SIGINT",
        "143 SIGTERM",
    ] {
        assert!(out.contains(needle), "--help lacks {needle:?}");
    }
}
