//! End-to-end tests of `mac-sim sweep` and `mac-sim run --plot`: the files they write,
//! byte-identical results on 1 and 2 threads, every bad input (exit status 2 and one
//! line), and a real Ctrl-C (SIGINT) that leaves no results file behind.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common;
use crate::common::{assert_args_fail, assert_usage_error, mac_sim, stderr};

/// A tiny sweep into `out`.
fn tiny_sweep(out: &Path) -> Output {
    let o = out.to_str().unwrap();
    mac_sim(&["sweep", "-n", "1,2", "-d", "1ms", "-o", o])
}

fn no_results(dir: &Path) {
    for name in ["results.csv", "results.json"] {
        assert!(!dir.join(name).exists(), "{name} written");
    }
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(!n.contains("results"), "left behind: {n}");
        }
    }
}

const SMALL: [&str; 10] = [
    "sweep", "-n", "1,4,16", "-f", "64,1518", "-r", "3", "-d", "50ms", "-q",
];

#[test]
fn sweep_writes_results_and_charts_identically_on_one_and_two_threads() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let run = |dir: &Path, threads: &str| {
        let mut args = SMALL.to_vec();
        let d = dir.to_str().unwrap();
        args.extend(["-o", d, "-j", threads]);
        let o = mac_sim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(o.stderr.is_empty(), "--quiet printed {}", stderr(&o));
        o
    };
    let oa = run(a.path(), "1");
    let ob = run(b.path(), "2");
    assert_eq!(oa.stdout, ob.stdout);
    for f in ["results.csv", "results.json"] {
        let x = std::fs::read(a.path().join(f)).unwrap();
        let y = std::fs::read(b.path().join(f)).unwrap();
        assert_eq!(x, y, "{f} differs between 1 and 2 threads");
    }
    // The same with common random numbers.
    let crn = |threads: &str| {
        let dir = tempfile::tempdir().unwrap();
        let mut args = SMALL.to_vec();
        args.extend(["--common-random-numbers", "--no-plots", "-j", threads]);
        args.extend(["-o", dir.path().to_str().unwrap()]);
        let o = mac_sim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let csv = std::fs::read(dir.path().join("results.csv")).unwrap();
        (o.stdout, csv)
    };
    assert_eq!(
        crn("1"),
        crn("2"),
        "common random numbers: 1 and 2 threads differ"
    );
    let csv = std::fs::read_to_string(a.path().join("results.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 6, "header + 6 points");
    let header = lines[0];
    for col in [
        "stations",
        "frames",
        "traffic",
        "load",
        "throughput_mbps",
        "throughput_mbps_ci95",
        "access_delay_mean_us",
        "access_delay_p99_us_ci95",
        "collision_rate_per_attempt",
        "drop_rate_per_frame",
        "drop_queue_overflow_per_frame",
        "goodput_mbps",
        "total_delay_mean_us",
        "total_delay_p99_us_ci95",
        "random_numbers",
        "queue_limit",
        "jain_fairness_index",
        "mb_efficiency_fraction",
    ] {
        assert!(header.split(',').any(|c| c == col), "no column {col}");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.path().join("results.json")).unwrap()).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 6);
    assert_eq!(json[0]["stations"], 1);
    // The JSON objects have exactly the CSV's columns.
    let mut keys: Vec<&str> = json[0]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    let mut cols: Vec<&str> = header.split(',').collect();
    keys.sort_unstable();
    cols.sort_unstable();
    assert_eq!(keys, cols);
    for stem in [
        "utilisation_vs_stations",
        "backoff_vs_expected",
        "fairness_vs_stations",
    ] {
        for ext in ["png", "svg"] {
            let p = a.path().join(format!("{stem}.{ext}"));
            let len = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
            assert!(len > 8_000, "{} is {len} bytes", p.display());
        }
    }
    // Only a load sweep has a delay-versus-load chart; one left by an earlier sweep in
    // the same directory is removed rather than passed off as this sweep's.
    assert!(!a.path().join("delay_vs_load.png").exists());
    std::fs::write(a.path().join("delay_vs_load.png"), "stale").unwrap();
    run(a.path(), "2");
    assert!(!a.path().join("delay_vs_load.png").exists());
}

#[test]
fn load_sweep_with_two_algorithms_draws_the_hockey_stick() {
    let d = tempfile::tempdir().unwrap();
    let o = mac_sim(&[
        "sweep",
        "-n",
        "16",
        "-l",
        "0.2..=0.8:0.3,saturated",
        "-b",
        "beb,linear",
        "-r",
        "2",
        "-d",
        "50ms",
        "-q",
        "--no-plots",
        "-o",
        d.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = std::fs::read_to_string(d.path().join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 8);
    assert!(csv.contains(",poisson,0.5,0.05,0,linear,"), "{csv}");
    assert!(csv.contains(",saturated,,0.05,0,beb,"));
    assert!(
        !d.path().join("delay_vs_load.png").exists(),
        "--no-plots drew"
    );
}

/// The table and the CSV of a one-point sweep with these extra arguments.
fn one_point(extra: &[&str]) -> (String, String) {
    let d = tempfile::tempdir().unwrap();
    let mut args = vec!["sweep", "-q", "-r", "2", "-d", "50ms", "--no-plots"];
    args.extend_from_slice(extra);
    args.extend(["-o", d.path().to_str().unwrap()]);
    let o = mac_sim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    (
        String::from_utf8(o.stdout).unwrap(),
        std::fs::read_to_string(d.path().join("results.csv")).unwrap(),
    )
}

#[test]
fn a_weighted_mix_sweeps_as_run_takes_it() {
    let (table, csv) = one_point(&["-n", "50", "-l", "0.6", "-f", "64:7,594:4,1518:1"]);
    // One point: the mix, in the text form run takes (quoted in the CSV) ...
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(
        csv.contains("\n,50,even,,2500,10000000,\"64:7,594:4,1518:1\","),
        "{csv}"
    );
    assert!(table.contains("64:7+594:4+1518:1"), "{table}");
    // ... which the sweep reads back, beside other sizes.
    let (_, two) = one_point(&["-n", "50", "-l", "0.6", "-f", "1518,64:7+594:4+1518:1"]);
    assert_eq!(two.lines().count(), 3, "{two}");
    assert_eq!(
        two.lines().nth(1),
        csv.lines().nth(1),
        "the mix point changed"
    );
}

#[test]
fn the_table_shows_total_delay_and_the_drop_rate() {
    let (table, _) = one_point(&["-n", "16", "-l", "0.5,saturated"]);
    let head = table.lines().next().unwrap();
    assert!(
        head.contains("total mean us") && head.contains("dropped"),
        "{head}"
    );
    let sat = table.lines().find(|l| l.contains("saturated")).unwrap();
    assert!(sat.contains('%'), "{sat}");
}

#[test]
fn common_random_numbers_is_a_choice_and_recorded() {
    let args = ["-n", "4", "-l", "0.5", "-b", "beb,linear"];
    let (_, independent) = one_point(&args);
    let mut crn = args.to_vec();
    crn.push("--common-random-numbers");
    let (_, common) = one_point(&crn);
    assert!(independent.contains(",independent,") && common.contains(",common,"));
    assert_ne!(independent, common.replace(",common,", ",independent,"));
}

/// Every parameter `run` takes can be swept, by its own flag with a list or by
/// `--sweep KEY=LIST`, and the sweep's CSV names the parameters as `run --csv` does.
#[test]
fn any_parameter_sweeps_and_both_csvs_name_parameters_alike() {
    let (table, csv) = one_point(&[
        "-n",
        "2",
        "--sweep",
        "slot_bits=512,1024",
        "--jam-bits",
        "32,48",
        "--velocity",
        "2e8,1e8",
    ]);
    assert_eq!(csv.lines().count(), 1 + 8, "{csv}");
    let head = table.lines().next().unwrap();
    for col in ["velocity", "slot_bits", "jam_bits"] {
        assert!(head.contains(col), "{head}");
    }
    let run = common::stdout(&mac_sim(&["run", "-q", "-n", "2", "-d", "10ms", "--csv"]));
    let run_params: Vec<&str> = run
        .lines()
        .next()
        .unwrap()
        .split(',')
        .take_while(|c| *c != "simulated_s")
        .filter(|c| *c != "seed")
        .collect();
    let sweep_params: Vec<&str> = csv
        .lines()
        .next()
        .unwrap()
        .split(',')
        .take_while(|c| *c != "replications")
        .collect();
    assert_eq!(run_params, sweep_params);
    for (col, values) in [
        ("slot_bits", ["512", "1024"]),
        ("velocity", ["200000000", "100000000"]),
    ] {
        let at = sweep_params.iter().position(|c| *c == col).unwrap();
        let seen: std::collections::BTreeSet<&str> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(at).unwrap())
            .collect();
        assert_eq!(seen, values.into_iter().collect(), "{col}");
    }
}

#[test]
fn bad_sweep_arguments_fail_with_one_line_and_status_2() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    let o = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["-n", "8..=4"], "range '8..=4' is empty"),
        (&["-n", "4..4"], "is empty"),
        (&["-n", ""], "empty list"),
        (&["-n", "1..=8:y2"], "not a number or a range"),
        (&["-n", "1..=8:x1"], "factor"),
        (
            &["-n", "0,1"],
            "stations: the number of stations must be at least 1",
        ),
        (&["-r", "0"], "replications: must be at least 1"),
        (&["-r", "-1"], "-1"),
        (&["-f", "63"], "frame size"),
        (&["-l", "0"], "above 0"),
        (&["-l", "0.5..=0.1"], "is empty"),
        // Steps below the values' precision: refused, not allocated until abort.
        (&["-l", "0.5..=0.5:1e-300"], "the step is too small"),
        (&["--length-m", "1e20..=1e20:1"], "the step is too small"),
        (&["-b", "exponential"], "not a backoff algorithm"),
        (&["-d", "0s"], "duration"),
        (&["-j", "0"], "--threads must be at least 1"),
        (&["-n", "1..=100000", "-r", "100"], "more than"),
        (&["--attempt-limit", "0"], "attempt limit"),
        (&["-f", "64:0,1518:1"], "not understood"),
        (&["-f", "64:7,2000:1"], "2000 bytes"),
        (&["-f", "1518,64:7,594:4"], "join a mix's parts with +"),
        (&["-f", "64:7+594:x"], "not understood"),
        (&["-f", "1518,1518"], "more than once"),
        (
            &["--sweep", "slot_bits=0,512"],
            "slot_bits: timing: slot of 0",
        ),
        (
            &["--sweep", "slot_bitz=512"],
            "slot_bitz: unknown parameter",
        ),
        (&["--sweep", "slot_bits"], "give KEY=LIST"),
        (
            &["--slot-bits", "512", "--sweep", "slot-bits=512,4096"],
            "slot_bits: swept twice",
        ),
        (
            &["--jam-rule", "preamble,late"],
            "jam_rule: unknown jam rule 'late'",
        ),
        (
            &["--medium", "100BASE-TX,10BASE9"],
            "medium: unknown medium",
        ),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["sweep", "-q", "-o", o];
        args.extend_from_slice(extra);
        assert_args_fail(&args, needle);
        no_results(&out);
    }
}

#[test]
fn output_directory_that_is_a_file_or_unwritable_is_refused_before_running() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let f = file.to_str().unwrap();
    assert_usage_error(&tiny_sweep(&file), "is not a directory");
    assert_usage_error(&tiny_sweep(&file.join("sub")), "is not a directory");
    assert_usage_error(&tiny_sweep(Path::new("")), "a value is required for '--out");
    let o = mac_sim(&["run", "-d", "1ms", "--plot", f]);
    assert_usage_error(&o, "is not a directory");

    // An unwritable directory: a read-only one, unless we are root (who may write
    // anyway), then /sys, which not even root can create files in.
    let ro = d.path().join("read-only");
    std::fs::create_dir(&ro).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    let writable = |p: &Path| {
        let probe = p.join(".probe");
        let ok = std::fs::write(&probe, "x").is_ok();
        let _ = std::fs::remove_file(&probe);
        ok
    };
    let target = if !writable(&ro) {
        Some(ro.clone())
    } else if Path::new("/sys").is_dir() && !writable(Path::new("/sys")) {
        Some(Path::new("/sys").to_path_buf())
    } else {
        None
    };
    match target {
        Some(t) => {
            assert_usage_error(&tiny_sweep(&t), "is not writable");
            // A folder to be made inside it: the folder that would hold it is named.
            assert_usage_error(&tiny_sweep(&t.join("mac-sim-out")), "is not writable");
        }
        None => eprintln!("no unwritable directory available here; case not exercised"),
    }
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn run_plot_draws_four_charts_and_still_prints_the_report() {
    let d = tempfile::tempdir().unwrap();
    let o = mac_sim(&[
        "run",
        "-n",
        "8",
        "-d",
        "200ms",
        "--plot",
        d.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Metcalfe-Boggs"));
    assert!(stderr(&o).contains("wrote 8 chart files"));
    for stem in [
        "attempts_histogram",
        "per_station_throughput",
        "backoff_vs_expected",
        "capture_timeline",
    ] {
        for ext in ["png", "svg"] {
            let len = std::fs::metadata(d.path().join(format!("{stem}.{ext}")))
                .map(|m| m.len())
                .unwrap_or(0);
            let min = if ext == "png" { 20_000 } else { 3_000 };
            assert!(len > min, "{stem}.{ext}: {len} bytes");
        }
    }
}

#[test]
fn sigint_stops_the_sweep_with_status_130_and_no_results() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    // Far more work than can finish before the signal: 2000 runs of 100 simulated s.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mac-sim"))
        .args(["sweep", "-n", "1..=1000", "-r", "2", "-d", "100s", "-o"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first line means the handler is installed and runs are about to start.
    let mut err = child.stderr.take().unwrap();
    let mut first = Vec::new();
    {
        use std::io::Read;
        let mut byte = [0u8; 1];
        while err.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
            first.push(byte[0]);
        }
    }
    assert!(
        String::from_utf8_lossy(&first).contains("sweep: 2000 runs to do"),
        "{}",
        String::from_utf8_lossy(&first)
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    // The shell's own `kill`, so no procps is needed.
    let killed = Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let mut rest = String::new();
    {
        use std::io::Read;
        err.read_to_string(&mut rest).unwrap();
    }
    assert_eq!(status.code(), Some(130), "stderr: {rest}");
    let last = rest.lines().last().unwrap_or("");
    assert!(
        last.starts_with("mac-sim: error: sweep interrupted after ")
            && last.ends_with("no results were written"),
        // (Without --db nothing is kept, and the message does not say otherwise.)
        "{rest}"
    );
    no_results(&out);
}

#[test]
fn a_database_of_an_older_mac_sim_is_refused_with_status_2_before_running() {
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("old.db");
    let db_s = db.to_str().unwrap();
    let out = d.path().join("out");
    let sweep = |o: &Path| {
        mac_sim(&[
            "sweep",
            "-n",
            "1,2",
            "-r",
            "1",
            "-d",
            "1ms",
            "-q",
            "--db",
            db_s,
            "-o",
            o.to_str().unwrap(),
        ])
    };
    let o = sweep(&d.path().join("first"));
    assert!(o.status.success(), "{}", stderr(&o));
    // What a mac-sim of schema 1 would have left.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE meta SET value = '1' WHERE key = 'schema_version'",
            [],
        )
        .unwrap();
    let o = sweep(&out);
    assert_usage_error(&o, "has schema 1, this mac-sim reads schema 4");
    no_results(&out);
}

#[test]
fn a_sweep_into_a_folder_of_earlier_results_says_it_replaces_them() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    let o = out.to_str().unwrap();
    let args = ["sweep", "-n", "1,2", "-d", "1ms", "--no-plots", "-o", o];
    // A new folder: nothing to replace, nothing said.
    let first = mac_sim(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        !stderr(&first).contains("earlier sweep"),
        "{}",
        stderr(&first)
    );
    // Again: both files are named before the runs start.
    let again = mac_sim(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    let note = format!(
        "mac-sim: sweep: {o} holds an earlier sweep's 2 files (results.json, results.csv): \
         this sweep replaces them when it finishes (stop it before then to keep them, or give -o another folder)"
    );
    let err = stderr(&again);
    let lines: Vec<&str> = err.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == note)
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        lines[..at].iter().any(|l| l.contains("runs to do")),
        "{err}"
    );
    // Another file in the folder is not the sweep's, and is not named.
    std::fs::remove_file(out.join("results.json")).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let third = mac_sim(&args);
    assert!(
        stderr(&third).contains(&format!("{o} holds an earlier sweep's file results.csv: ")),
        "{}",
        stderr(&third)
    );
    assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), b"mine");
    // --quiet says nothing.
    let mut quiet = args.to_vec();
    quiet.push("-q");
    assert!(mac_sim(&quiet).stderr.is_empty());
}
