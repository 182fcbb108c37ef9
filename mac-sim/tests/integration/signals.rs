//! Signals and the outputs they leave: SIGTERM and SIGHUP stop `run`, `sweep`,
//! `storm`, `merge` and `bench` as Ctrl-C does, with 128 + the signal's number, no
//! temporary left and nothing published, also when they come after the work (a late
//! signal, made to come at that instant by `MAC_SIM_TEST_PAUSE_BEFORE_PUBLISH`, with no
//! timing involved); a results database keeps its finished runs; a second signal
//! quits at once and still leaves no temporary.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{mac_sim, stderr, tree};

/// The signals a batch system or a closed terminal sends, with the status each gives.
const TERM_AND_HUP: [(&str, i32); 2] = [("TERM", 143), ("HUP", 129)];

/// The variable that makes a command wait just before it publishes.
const PAUSE: &str = "MAC_SIM_TEST_PAUSE_BEFORE_PUBLISH";

/// Start the binary with `args`, standard output and error piped; with `pause`, it
/// waits before publishing until its standard input is closed.
fn start(args: &[&str], pause: bool) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mac-sim"));
    cmd.args(args)
        .stdin(if pause { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if pause {
        cmd.env(PAUSE, "1");
    }
    cmd.spawn().expect("the binary starts")
}

/// Send `SIG<name>` to `child` with the shell's own `kill` (no procps needed).
fn send(child: &Child, name: &str) {
    let killed = Command::new("sh")
        .args(["-c", &format!("kill -{name} {}", child.id())])
        .status()
        .unwrap();
    assert!(killed.success());
}

/// Poll `done` until it holds; fail naming `what` after two minutes.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether the process `pid` catches SIGTERM (its handler is installed: bit 15 of
/// `SigCgt` in `/proc/PID/status`), so that a signal sent now reaches the command's
/// own handling, with no sleep involved.
fn catches_sigterm(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (15 - 1)) != 0)
}

/// The CPU time the process `pid` has used, in clock ticks (fields 14 and 15 of
/// `/proc/PID/stat`, user and system time; 100 a second on Linux).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // After the command's name in parentheses, field 3 onwards.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)
}

/// Read standard error up to the first line that contains `needle`; every line read.
fn read_until(err: &mut BufReader<ChildStderr>, needle: &str) -> String {
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        let n = err.read_line(&mut line).unwrap();
        seen.push_str(&line);
        assert!(n > 0, "no line with {needle:?} on stderr: {seen}");
        if line.contains(needle) {
            return seen;
        }
    }
}

/// Wait for `child` to exit (two minutes at most); its status code, standard output
/// and the rest of its standard error.
fn finish(mut child: Child, mut err: BufReader<ChildStderr>) -> (Option<i32>, String, String) {
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("the command did not stop");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    (status.code(), out, rest)
}

/// Whether a temporary (a hidden `.NAME.partial-HOST-PID-N` file or folder) is in
/// `dir`.
fn has_temporary(dir: &Path) -> bool {
    tree(dir).iter().any(|p| p.contains(".partial-"))
}

/// The last line of `text`.
fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

#[test]
fn sigterm_and_sighup_during_a_run_with_trace_and_pcap_leave_nothing() {
    for (sig, status) in TERM_AND_HUP {
        let d = tempfile::tempdir().unwrap();
        let p = |name: &str| d.path().join(name).to_str().unwrap().to_string();
        let (trace, pcap) = (p("t.csv"), p("c.pcapng"));
        // A run far longer than the test (about a minute), stopped within milliseconds.
        let args = [
            "run", "-q", "-d", "1000s", "--trace", &trace, "--pcap", &pcap,
        ];
        let mut child = start(&args, false);
        // The signals are received before any temporary is made: once the trace's
        // temporary is there, the run is on.
        wait_for("the trace's temporary", || has_temporary(d.path()));
        send(&child, sig);
        let err = BufReader::new(child.stderr.take().unwrap());
        let (code, out, err) = finish(child, err);
        assert_eq!(code, Some(status), "SIG{sig}: {err}");
        assert!(out.is_empty(), "SIG{sig}: printed {out}");
        assert!(
            err.contains(&format!("interrupted by SIG{sig}")),
            "SIG{sig}: {err}"
        );
        assert_eq!(
            last_line(&err),
            "mac-sim: error: run interrupted; nothing was written",
            "SIG{sig}"
        );
        assert_eq!(
            tree(d.path()),
            Vec::<String>::new(),
            "SIG{sig}: left behind"
        );
    }
}

/// SIGKILL leaves a process no chance to clean up: a run killed while it writes a
/// trace and a capture leaves its temporaries (and no output), and the next run that
/// writes in that folder removes them (they are this machine's, of a process that no
/// longer runs). A temporary of a running process is kept.
#[test]
fn the_temporaries_of_a_killed_run_go_with_the_next_run_in_the_folder() {
    let d = tempfile::tempdir().unwrap();
    let p = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    let (trace, pcap) = (p("t.csv"), p("c.pcapng"));
    let mut child = start(
        &[
            "run", "-q", "-d", "1000s", "--trace", &trace, "--pcap", &pcap,
        ],
        false,
    );
    wait_for("the trace's temporary", || has_temporary(d.path()));
    let kill = Command::new("sh")
        .args(["-c", &format!("kill -KILL {}", child.id())])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9)
    );
    let left = tree(d.path());
    assert!(
        !left.is_empty() && left.iter().all(|n| n.contains(".partial-")),
        "{left:?}"
    );
    // A temporary of a process that still runs (this test's own) is kept.
    let mine = left[0].replacen(
        &format!("-{}-", child.id()),
        &format!("-{}-", std::process::id()),
        1,
    );
    assert_ne!(mine, left[0]);
    std::fs::write(d.path().join(&mine), "x").unwrap();
    let o = mac_sim(&["run", "-q", "-d", "1ms", "--trace", &trace]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut after = tree(d.path());
    after.sort();
    let mut expected = vec![mine, "t.csv".to_string()];
    expected.sort();
    assert_eq!(after, expected);
}

/// Runs stored in the database at `db`.
/// A CSMA/CD run and sweep, a radio run, a radio sweep and a storm of hundreds of
/// thousands of simulated seconds (hours of work) stop at the first SIGTERM or SIGHUP,
/// within the test's bound: a run looks at the flag every few milliseconds of its
/// work, not only at its end. Nothing is printed or published.
#[test]
fn sigterm_and_sighup_stop_a_long_run_of_every_model() {
    let run = ["run", "-n", "32", "-d", "1000000s", "-q", "--plot"];
    let csma_sweep = [
        "sweep", "-n", "32,64", "-r", "2", "-d", "1000000s", "-q", "-o",
    ];
    let one = ["radio", "-n", "20", "-d", "1000000s", "--output"];
    let sweep = [
        "radio",
        "--sweep",
        "stations=10,20",
        "-d",
        "1000000s",
        "-q",
        "--output",
    ];
    let storm = [
        "storm",
        "--scenario",
        "pause",
        "-d",
        "100000s",
        "-q",
        "--out",
    ];
    let runs = [&run[..], &csma_sweep[..], &one[..], &sweep[..], &storm[..]];
    for ((sig, status), first) in TERM_AND_HUP.into_iter().flat_map(|s| runs.map(|r| (s, r))) {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("r.txt");
        // The memory check is not what is tested here: the radio's and the storm's
        // bounds for a run this long exceed a small machine's memory.
        let mut args = first.to_vec();
        args.push(out.to_str().unwrap());
        args.extend(["--max-memory", "none"]);
        let mut child = start(&args, false);
        wait_for("the signal handler", || catches_sigterm(child.id()));
        // A fifth of a second of work done: the runs are under way, in their loops.
        wait_for("the runs", || cpu_ticks(child.id()) >= 20);
        send(&child, sig);
        let err = BufReader::new(child.stderr.take().unwrap());
        let (code, printed, err) = finish(child, err);
        assert_eq!(code, Some(status), "SIG{sig}: {err}");
        assert!(printed.is_empty(), "SIG{sig}: printed {printed}");
        let said = match (args[0], args[1]) {
            ("run", _) => "run interrupted; nothing was written",
            ("sweep", _) => "sweep interrupted after 0 of 4 runs; no results were written",
            ("storm", _) => "storm interrupted; nothing was published",
            (_, "--sweep") => "radio sweep interrupted; nothing was published",
            _ => "radio interrupted; nothing was published",
        };
        assert_eq!(
            last_line(&err),
            format!("mac-sim: error: {said}"),
            "SIG{sig}"
        );
        assert!(
            err.contains(&format!("interrupted by SIG{sig}")),
            "SIG{sig}: {err}"
        );
        assert!(tree(d.path()).is_empty(), "SIG{sig}: {:?}", tree(d.path()));
    }
}

/// As a batch system stops a job (`timeout -k`, Slurm: SIGTERM, then SIGKILL a little
/// later): a run of 10^6 simulated seconds of each model, and a CSMA/CD sweep, stop
/// at the SIGTERM, long before the SIGKILL would come, with the signal's status,
/// their note and nothing printed or published.
#[test]
fn under_timeout_k_a_long_run_of_every_model_stops_at_the_sigterm() {
    let runs: [&[&str]; 5] = [
        &["run", "-n", "32", "-d", "1000000s", "-q", "--plot"],
        &[
            "sweep", "-n", "32,64", "-r", "2", "-d", "1000000s", "-q", "-o",
        ],
        &[
            "radio",
            "-n",
            "20",
            "-d",
            "1000000s",
            "--max-memory",
            "none",
            "--output",
        ],
        &[
            "storm",
            "--scenario",
            "outage-open",
            "--set",
            "load.rate=20",
            "-d",
            "1000000s",
            "-q",
            "--out",
        ],
        &[
            "radio",
            "--sweep",
            "stations=10,20",
            "-d",
            "1000000s",
            "-q",
            "--max-memory",
            "none",
            "--output",
        ],
    ];
    for run in runs {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let started = Instant::now();
        let o = Command::new("timeout")
            .args(["-k", "60", "--preserve-status", "1"])
            .arg(env!("CARGO_BIN_EXE_mac-sim"))
            .args(run)
            .arg(&out)
            .output()
            .expect("timeout (coreutils) runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(143), "{run:?}: {err}");
        // Stopped by the SIGTERM a second in, not by the SIGKILL a minute later.
        assert!(started.elapsed() < Duration::from_secs(50), "{run:?}");
        assert!(o.stdout.is_empty(), "{run:?}");
        assert!(err.contains("interrupted by SIGTERM"), "{run:?}: {err}");
        assert!(last_line(&err).contains("interrupted"), "{run:?}: {err}");
        assert!(tree(d.path()).is_empty(), "{run:?}: {:?}", tree(d.path()));
    }
}

/// The runs stored in `db` so far: 0 before the sweep has made the file (opened
/// read-only, never created here: the sweep must find no file it did not make).
fn stored(db: &Path) -> i64 {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let Ok(c) = rusqlite::Connection::open_with_flags(db, flags) else {
        return 0;
    };
    c.busy_timeout(Duration::from_secs(30)).unwrap();
    c.query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
        .unwrap_or(0)
}

#[test]
fn sigterm_and_sighup_during_a_sweep_keep_the_finished_runs_and_publish_nothing() {
    for (sig, status) in TERM_AND_HUP {
        let d = tempfile::tempdir().unwrap();
        let (db, out) = (d.path().join("runs.db"), d.path().join("out"));
        let (db_s, out_s) = (db.to_str().unwrap(), out.to_str().unwrap());
        // Far more work than can finish before the signal: 2000 runs of 10 s.
        let args = [
            "sweep", "-n", "1..=1000", "-r", "2", "-d", "10s", "--db", db_s, "-o", out_s,
        ];
        let mut child = start(&args, false);
        let mut err = BufReader::new(child.stderr.take().unwrap());
        read_until(&mut err, "sweep: 2000 runs to do");
        wait_for("a finished run in the database", || stored(&db) > 0);
        let before = stored(&db);
        send(&child, sig);
        let (code, printed, err) = finish(child, err);
        assert_eq!(code, Some(status), "SIG{sig}: {err}");
        assert!(printed.is_empty(), "SIG{sig}: printed {printed}");
        // The message says the finished runs are kept, where, and how to resume.
        assert!(
            last_line(&err).starts_with("mac-sim: error: sweep interrupted after ")
                && last_line(&err).ends_with(&format!(
                    "no results were written, but {db_s} keeps every finished run: \
                     run the same command again to resume"
                )),
            "SIG{sig}: {err}"
        );
        assert!(!out.exists(), "SIG{sig}: results published");
        assert!(!has_temporary(d.path()), "SIG{sig}: {:?}", tree(d.path()));
        let after = stored(&db);
        assert!(after >= before, "SIG{sig}: {after} runs kept of {before}");
        // The database is whole.
        let c = rusqlite::Connection::open(&db).unwrap();
        let check: String = c
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok", "SIG{sig}");
    }
}

/// Start `args` paused before publishing, send `SIG<sig>` at that instant, wait for
/// the command to take it, then let it go on: its status, output and stderr.
fn late_signal(args: &[&str], sig: &str) -> (Option<i32>, String, String) {
    let mut child = start(args, true);
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = read_until(&mut err, "paused before publishing");
    send(&child, sig);
    seen += &read_until(&mut err, &format!("interrupted by SIG{sig}"));
    drop(child.stdin.take());
    let (code, out, rest) = finish(child, err);
    (code, out, seen + &rest)
}

#[test]
fn a_late_signal_publishes_no_part_of_a_run_and_exits_with_its_status() {
    let d = tempfile::tempdir().unwrap();
    let p = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    let (trace, pcap, plot) = (p("t.csv"), p("c.pcapng"), p("plots"));
    let args = [
        "run", "-q", "-d", "10ms", "--json", "--trace", &trace, "--pcap", &pcap, "--plot", &plot,
    ];
    let (code, out, err) = late_signal(&args, "TERM");
    assert_eq!(code, Some(143), "{err}");
    assert!(out.is_empty(), "the result was printed: {out}");
    assert_eq!(
        last_line(&err),
        "mac-sim: error: run interrupted after it ended; nothing was published"
    );
    assert_eq!(tree(d.path()), Vec::<String>::new(), "left behind");
    // Without the signal, the same command publishes the whole set.
    let o = mac_sim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let names = tree(d.path());
    assert!(
        names.contains(&"t.csv".to_string())
            && names.contains(&"c.pcapng".to_string())
            && names.contains(&"plots/capture_timeline.svg".to_string()),
        "{names:?}"
    );
}

#[test]
fn a_late_signal_publishes_nothing_of_a_sweep_or_a_storm() {
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("runs.db");
    let out = d.path().join("out");
    let (code, printed, err) = late_signal(
        &[
            "sweep",
            "-q",
            "-n",
            "1,2",
            "-r",
            "1",
            "-d",
            "1ms",
            "--db",
            db.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        "HUP",
    );
    assert_eq!(code, Some(129), "{err}");
    assert!(printed.is_empty(), "{printed}");
    assert!(
        !out.exists() && !has_temporary(d.path()),
        "{:?}",
        tree(d.path())
    );
    assert_eq!(stored(&db), 2, "the finished runs are kept");

    let storm = d.path().join("storm");
    let (code, printed, err) = late_signal(
        &[
            "storm",
            "--scenario",
            "contention",
            "--clients",
            "5",
            "--out",
            storm.to_str().unwrap(),
        ],
        "TERM",
    );
    assert_eq!(code, Some(143), "{err}");
    assert!(printed.is_empty(), "{printed}");
    assert_eq!(
        last_line(&err),
        "mac-sim: error: storm interrupted; nothing was published"
    );
    assert!(
        !storm.exists() && !has_temporary(d.path()),
        "{:?}",
        tree(d.path())
    );
}

#[test]
fn a_second_signal_quits_at_once_and_leaves_no_temporary() {
    let d = tempfile::tempdir().unwrap();
    let p = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    let (trace, plot) = (p("t.csv"), p("plots"));
    let args = [
        "run", "-q", "-d", "10ms", "--trace", &trace, "--plot", &plot,
    ];
    let mut child = start(&args, true);
    let mut err = BufReader::new(child.stderr.take().unwrap());
    read_until(&mut err, "paused before publishing");
    assert!(has_temporary(d.path()), "{:?}", tree(d.path()));
    send(&child, "TERM");
    read_until(&mut err, "interrupted by SIGTERM");
    // Still waiting on its standard input: the second signal must end it.
    send(&child, "HUP");
    let stdin = child.stdin.take();
    let (code, out, err) = finish(child, err);
    drop(stdin);
    assert_eq!(code, Some(129), "{err}");
    assert!(out.is_empty());
    assert_eq!(
        last_line(&err),
        "mac-sim: error: interrupted by SIGHUP: stopped at once; nothing was published"
    );
    assert_eq!(tree(d.path()), Vec::<String>::new(), "left behind");
}

/// Two shard databases of one small sweep in `dir`.
fn shards(dir: &Path) -> Vec<PathBuf> {
    (1..=2)
        .map(|k| {
            let db = dir.join(format!("s{k}.db"));
            let o = mac_sim(&[
                "sweep",
                "-q",
                "-n",
                "1,2",
                "-r",
                "1",
                "-d",
                "1ms",
                "--db",
                db.to_str().unwrap(),
                "--shard",
                &format!("{k}/2"),
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            db
        })
        .collect()
}

#[test]
fn a_signal_stops_a_merge_at_once_and_leaves_no_file() {
    let d = tempfile::tempdir().unwrap();
    let dbs = shards(d.path());
    let before = tree(d.path());
    let merged = d.path().join("merged.db");
    let mut args = vec!["merge", "-o", merged.to_str().unwrap()];
    args.extend(dbs.iter().map(|p| p.to_str().unwrap()));
    let mut child = start(&args, true);
    let mut err = BufReader::new(child.stderr.take().unwrap());
    // The merge is done and waits to be published: one signal ends it.
    read_until(&mut err, "paused before publishing");
    send(&child, "TERM");
    let stdin = child.stdin.take();
    let (code, _, err) = finish(child, err);
    drop(stdin);
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains("interrupted by SIGTERM"), "{err}");
    // (Reading a shard leaves its own -wal and -shm beside it, as a finished merge
    // does: not this command's temporaries.)
    let left: Vec<String> = tree(d.path())
        .into_iter()
        .filter(|n| !n.ends_with("-wal") && !n.ends_with("-shm"))
        .collect();
    assert_eq!(left, before, "left behind");
}

/// The processes whose parent is `pid` (from /proc).
fn children(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                // The fields after the command's name, in parentheses: state, ppid.
                .and_then(|s| s.rsplit_once(')').map(|(_, r)| r.to_string()))
                .and_then(|r| r.split_whitespace().nth(1)?.parse::<u32>().ok())
                == Some(pid)
        })
        .collect()
}

#[test]
fn sigterm_stops_a_bench_and_its_measuring_child() {
    // One measurement of ten minutes, in a child process.
    let mut child = start(
        &[
            "bench",
            "-q",
            "--stations",
            "2",
            "--no-steady",
            "--budget-ms",
            "600000",
        ],
        false,
    );
    let mut kids = Vec::new();
    wait_for("the measuring child", || {
        kids = children(child.id());
        !kids.is_empty()
    });
    send(&child, "TERM");
    let err = BufReader::new(child.stderr.take().unwrap());
    let (code, out, err) = finish(child, err);
    assert_eq!(code, Some(143), "{err}");
    assert!(out.is_empty(), "{out}");
    for k in kids {
        wait_for("the measuring child to end", || {
            std::fs::read_to_string(format!("/proc/{k}/stat"))
                .map(|s| s.contains(") Z "))
                .unwrap_or(true)
        });
    }
}
