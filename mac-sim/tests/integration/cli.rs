//! End-to-end tests of the `mac-sim` binary: output, determinism and every bad input.

use crate::common::{assert_args_fail, mac_sim, stderr, stdout};

#[test]
fn default_run_prints_a_readable_report() {
    let o = mac_sim(&["--duration", "2s"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    for needle in [
        "mac-sim: CSMA/CD on a shared 10 Mb/s bus",
        "32 placed evenly over 2500 m",
        "1518 bytes",
        "throughput",
        "Mb/s",
        "Metcalfe-Boggs",
        "conservation    holds",
        "Attempts per delivered frame",
        "p99",
        "Backoff after c collisions (slots)",
        "Jain's index",
        "capture",
    ] {
        assert!(s.contains(needle), "missing {needle:?} in\n{s}");
    }
    assert!(o.stderr.is_empty());
}

#[test]
fn no_arguments_runs_the_default() {
    let o = mac_sim(&[]);
    assert!(o.status.success());
    let s = stdout(&o);
    assert!(s.contains("simulated       10 s, seed 1"), "{s}");
}

#[test]
fn same_seed_is_byte_identical_other_seed_differs() {
    let args = [
        "run", "-n", "16", "--load", "0.8", "-f", "64-1518", "-p", "random", "-d", "1s", "--seed",
        "7",
    ];
    let a = mac_sim(&args);
    let b = mac_sim(&args);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let mut other = args;
    other[args.len() - 1] = "8";
    assert_ne!(mac_sim(&other).stdout, a.stdout);
}

#[test]
fn json_output_parses_and_balances() {
    let o = mac_sim(&["run", "-n", "8", "-d", "500ms", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    let k = &v["conservation"];
    assert_eq!(k["holds"], true);
    let g = k["generated_frames"].as_u64().unwrap();
    let sum: u64 = [
        "delivered_frames",
        "dropped_excessive_frames",
        "dropped_overflow_frames",
        "in_system_frames",
    ]
    .iter()
    .map(|f| k[f].as_u64().unwrap())
    .sum();
    assert_eq!(g, sum);
    assert_eq!(v["config"]["stations"], 8);
    assert!(v["throughput_mbps"].as_f64().unwrap() > 5.0);
    assert_eq!(v["backoff"].as_array().unwrap().len(), 16);
}

#[test]
fn csv_output_has_matching_header_and_row() {
    let o = mac_sim(&["run", "-n", "4", "-d", "200ms", "--csv"]);
    assert!(o.status.success());
    let s = stdout(&o);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].split(',').count(), lines[1].split(',').count());
    // The run's parameters first, named as the schema names them.
    assert!(
        lines[0].starts_with("medium,stations,placement,placement_seed,length_m,bit_rate_bps,")
    );
    assert!(lines[1].starts_with(",4,even,,2500,10000000,"));
}

#[test]
fn slotted_and_theory_subcommands() {
    let o = mac_sim(&["slotted", "-n", "10", "-f", "64", "--successes", "20000"]);
    assert!(o.status.success());
    let s = stdout(&o);
    assert!(
        s.contains("efficiency") && s.contains("acquisition A"),
        "{s}"
    );
    let o = mac_sim(&["slotted", "-n", "10", "--successes", "1000", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["successes"], 1000);
    let o = mac_sim(&["slotted", "--successes", "1000", "--csv"]);
    assert_eq!(stdout(&o).lines().count(), 2);
    let o = mac_sim(&["theory"]);
    assert!(o.status.success());
    let s = stdout(&o);
    // Q = 2: A = 0.5, W = 1.
    assert!(s.contains("       2  0.50000  1.00000"), "{s}");
    assert!(s.contains("511.5"));
    assert!(s.contains("7151 slots"));
}

/// The bench command's plumbing (one child process per N, JSON rows back); its
/// figures are not checked here, only that they are there and sane.
#[test]
fn bench_runs_small_and_reports_rows() {
    let o = mac_sim(&["bench", "--stations", "2,8", "--budget-ms", "20", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["traffic"], "saturated");
    assert_eq!(rows[3]["traffic"], "poisson");
    assert_eq!(rows[3]["stations"], 8);
    for r in rows {
        assert!(r["events"].as_u64().unwrap() > 0);
        assert!(r["textbook_sim_s_per_s"].as_f64().unwrap() > 0.0);
    }
}

/// The steady-state row: measured after the warm-up, in its own child process, for
/// the N of --steady-stations (each must also be in --stations).
#[test]
fn bench_steady_row_follows_the_warm_up() {
    let o = mac_sim(&[
        "bench",
        "--stations",
        "2,8",
        "--steady-stations",
        "8",
        "--warmup-ms",
        "2",
        "--budget-ms",
        "20",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for r in &rows[..4] {
        assert_eq!(r["mode"], "start");
        assert_eq!(r["warmup_ms"], 0.0);
    }
    let s = &rows[4];
    assert_eq!(s["mode"], "steady");
    assert_eq!(s["traffic"], "saturated");
    assert_eq!(s["stations"], 8);
    assert_eq!(s["warmup_ms"], 2.0);
    assert!(s["events"].as_u64().unwrap() > 0);
    assert!(s["events_per_slot"].as_f64().unwrap() > 0.0);
    assert!(s["textbook_sim_s_per_s"].as_f64().unwrap() > 0.0);
    let o = mac_sim(&[
        "bench",
        "--stations",
        "8",
        "--steady-stations",
        "8",
        "--warmup-ms",
        "1",
        "--budget-ms",
        "10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("steady state after W ms warm-up"));
    let o = mac_sim(&[
        "bench",
        "--stations",
        "8",
        "--steady-stations",
        "8",
        "--no-steady",
        "--budget-ms",
        "10",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
}

#[test]
fn help_is_shown_with_units_and_exit_zero() {
    let o = mac_sim(&["run", "--help"]);
    assert!(o.status.success());
    let s = stdout(&o);
    for unit in [
        "bit times",
        "metres",
        "bytes",
        "fraction of the bit rate",
        "s, ms, us or ns",
    ] {
        assert!(s.contains(unit), "help lacks {unit:?}");
    }
}

/// Every bad input: exit status 2, nothing on stdout, exactly one line on stderr.
#[test]
fn every_bad_input_is_one_line_and_exit_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["--stations", "0"], "at least 1"),
        (&["--stations", "abc"], "stations"),
        (&["--stations", "-3"], "error"),
        (&["--stations", "99999999"], "4194304"),
        (&["slotted", "--stations", "99999999"], "4194304"),
        (&["--load", "1000"], "offered load"),
        (&["--frame-bytes", "63"], "63 bytes"),
        (&["--frame-bytes", "1519"], "1519 bytes"),
        (&["--frame-bytes", "100-64"], "not understood"),
        (&["--frame-bytes", "big"], "not understood"),
        (&["--frame-bytes", "64:0"], "not understood"),
        (&["--load", "-0.5"], "offered load"),
        (&["--load", "NaN"], "offered load"),
        (&["--load", "0"], "offered load"),
        (&["--load", "inf"], "offered load"),
        (&["--duration", "0s"], "duration"),
        (&["--duration", "10"], "duration"),
        (&["--duration", "-1s"], "duration"),
        (&["--backoff-limit", "33"], "backoff limit 33"),
        (&["--backoff-limit", "300"], "backoff limit"),
        (
            &[
                "--backoff-limit",
                "32",
                "--slot-bits",
                "1000000",
                "--duration",
                "100000s",
            ],
            "too long",
        ),
        (&["--attempt-limit", "0"], "attempt limit 0"),
        (&["--attempt-limit", "5000"], "attempt limit"),
        (&["--placement", "ring"], "unknown placement 'ring'"),
        (&["--length-m", "-1"], "bus length"),
        (&["--length-m", "NaN"], "bus length"),
        (&["--length-m", "6000"], "late collisions"),
        (&["--bit-rate", "0"], "bit rate"),
        (&["--bit-rate", "fast"], "bit rate"),
        (&["--velocity", "0"], "signal speed"),
        (&["--slot-bits", "0"], "slot"),
        (&["--jam-bits", "0"], "jam"),
        (&["--queue-limit", "0"], "queue limit"),
        (&["--capture-window", "0"], "capture window"),
        (&["--backoff", "fixed:0"], "fixed window"),
        (&["--backoff", "poly:0"], "degree"),
        (
            &["--backoff", "poly:x"],
            "backoff: 'poly:x' is not a backoff algorithm",
        ),
        (
            &["--carrier-extension", "maybe"],
            "carrier_extension: 'maybe' is not true or false",
        ),
        (&["--backoff", "random"], "random"),
        (&["--no-such-flag"], "no-such-flag"),
        (&["run", "--json", "--csv"], "cannot be used"),
        (&["slotted", "--stations", "0"], "at least 1"),
        (&["slotted", "--frame-bytes", "10"], "10 bytes"),
        (&["slotted", "--probability", "2"], "probability"),
        (&["slotted", "--successes", "0"], "successes"),
        (&["slotted", "--probability", "1"], "slots"),
        (&["slotted", "--probability", "1e-300"], "too small"),
        (&["slotted", "--probability", "1e-9"], "slots"),
        (&["theory", "--backoff-limit", "99"], "backoff limit 99"),
        (&["theory", "--attempt-limit", "0"], "attempt limit 0"),
        (&["bench", "--stations", "0"], "at least 1"),
        (&["bench", "--budget-ms", "0"], "budget"),
        (&["bench", "--steady-stations", "0"], "at least 1"),
        (&["bench", "--warmup-ms", "0"], "warm-up"),
        (&["bench", "--warmup-ms", "100001"], "warm-up"),
        (&["frobnicate"], "frobnicate"),
    ];
    for (args, needle) in cases {
        assert_args_fail(args, needle);
    }
}

/// A flag that no run reads is refused (exit 2, one line naming it), not ignored; in a
/// sweep, only when no point reads it. A scenario file stating every parameter (a
/// `run --json` result) is not checked, so a result still re-runs from itself.
#[test]
fn a_flag_without_effect_is_refused() {
    assert_args_fail(
        &["run", "--queue-limit", "5", "-d", "1ms"],
        "queue_limit: has no effect with saturated traffic",
    );
    assert_args_fail(
        &["run", "--placement-seed", "3", "-d", "1ms"],
        "placement_seed: has no effect unless the placement is random",
    );
    assert_args_fail(
        &["run", "-b", "fixed:8", "--backoff-limit", "4", "-d", "1ms"],
        "backoff_limit: has no effect with the fixed window",
    );
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("s");
    assert_args_fail(
        &[
            "sweep",
            "-n",
            "2",
            "--queue-limit",
            "5",
            "-r",
            "1",
            "-d",
            "5ms",
            "-q",
            "-o",
            out.to_str().unwrap(),
        ],
        "queue_limit: has no effect",
    );
    assert!(!out.exists());
    // Read by some point of the sweep: accepted.
    let o = mac_sim(&[
        "sweep",
        "-n",
        "2",
        "-l",
        "0.5,saturated",
        "--queue-limit",
        "5",
        "-r",
        "1",
        "-d",
        "5ms",
        "-q",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        mac_sim(&["run", "-p", "random", "--placement-seed", "3", "-d", "1ms"])
            .status
            .success()
    );
}

/// A CSMA/CD figure with nothing to measure is undefined, in every form: an empty CSV
/// cell, `null` in JSON and `-` in the text, never 0 or 1 (in a microsecond no frame
/// ends: a 64-byte frame takes 51.2 us at 10 Mb/s).
#[test]
fn undefined_figures_are_empty_null_or_a_dash() {
    let run = ["run", "-n", "3", "-d", "1us"];
    let with = |extra: &[&str]| {
        let mut a = run.to_vec();
        a.extend_from_slice(extra);
        let o = mac_sim(&a);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let csv = with(&["--csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    let head: Vec<&str> = lines[0].split(',').collect();
    let row: Vec<&str> = lines[1].split(',').collect();
    let cell = |name: &str| row[head.iter().position(|h| *h == name).unwrap()];
    assert_eq!(cell("delivered_frames"), "0");
    for name in [
        "access_delay_mean_us",
        "access_delay_p99_us",
        "total_delay_max_us",
        "attempts_per_frame",
        "jain_fairness_index",
        "capture_max_window_share_fraction",
    ] {
        assert_eq!(cell(name), "", "{name}");
    }
    let v: serde_json::Value = serde_json::from_str(&with(&["--json"])).unwrap();
    for (key, v) in [
        ("jain_fairness_index", &v["jain_fairness_index"]),
        ("attempts_per_frame", &v["attempts_per_frame"]),
        ("access_delay.mean_us", &v["access_delay"]["mean_us"]),
        (
            "capture.max_window_share_fraction",
            &v["capture"]["max_window_share_fraction"],
        ),
    ] {
        assert!(v.is_null(), "{key}: {v}");
    }
    let text = with(&[]);
    assert!(
        text.contains("(undefined: no station delivered a frame)"),
        "{text}"
    );
    assert!(text.contains("access (head of queue)          -"), "{text}");
    let stations = with(&["--per-station"]);
    assert!(stations.contains("-us"), "{stations}");
}
