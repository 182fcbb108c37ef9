//! End-to-end tests of `mac-sim storm`: reports, files, determinism and every bad
//! input (one line on stderr, exit status 2).

use crate::common::{assert_args_fail, mac_sim, stderr, stdout};

#[test]
fn list_names_every_scenario() {
    let o = mac_sim(&["storm", "--list"]);
    assert!(o.status.success());
    let s = stdout(&o);
    for name in retry_storm::presets::NAMES {
        assert!(
            s.contains(&format!("\n  {name}\n")),
            "{name} missing in\n{s}"
        );
    }
    assert!(s.contains("contention"));
}

#[test]
fn report_csv_json_and_series() {
    let o = mac_sim(&["storm", "--scenario", "shard", "--seed", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("mac-sim storm: shard"), "{s}");
    assert!(s.contains("breaker 10 %"));
    assert!(s.contains("recovered"), "{s}");

    let csv = stdout(&mac_sim(&["storm", "--scenario", "shard", "--csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert_eq!(lines[0], retry_storm::report::SUMMARY_HEADER);

    let series = stdout(&mac_sim(&["storm", "--scenario", "shard", "--series"]));
    assert_eq!(series.lines().count(), 1 + 3 * 80);
    let fine = stdout(&mac_sim(&[
        "storm",
        "--scenario",
        "shard",
        "--series",
        "--bin",
        "250ms",
    ]));
    assert_eq!(fine.lines().count(), 1 + 3 * 320);

    let json = stdout(&mac_sim(&["storm", "--scenario", "shard", "--json"]));
    assert!(json.contains("\"verdict\""));
    assert!(json.contains("\"series\""));
}

#[test]
fn same_seed_is_byte_identical() {
    let a = mac_sim(&["storm", "--scenario", "partial", "--series", "-s", "5"]);
    let b = mac_sim(&["storm", "--scenario", "partial", "--series", "-s", "5"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn strategies_clients_and_horizon_can_be_changed() {
    let o = mac_sim(&[
        "storm",
        "--scenario",
        "pause",
        "--clients",
        "200",
        "--horizon",
        "60s",
        "--timeouts",
        "100ms,200ms,300ms",
        "--strategy",
        "none",
        "--strategy",
        "exp-decorrelated+retries=4+tokens=10/0.1",
        "--csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert_eq!(s.lines().count(), 3, "{s}");
    assert!(s.contains("\"exp-decorrelated+retries=4+tokens=10/0.1\""));
}

#[test]
fn seeds_report_means_with_intervals_and_write_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = mac_sim(&[
        "storm",
        "--scenario",
        "partial",
        "--seeds",
        "3",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("3 seeds (1..=3)"), "{s}");
    assert!(s.contains('±'), "{s}");
    assert!(s.contains("3/3"), "{s}");
    for f in [
        "storm-partial-seeds.json",
        "storm-partial-seeds-summary.csv",
        "storm-partial-seeds-series.csv",
        "storm-partial-seeds.png",
        "storm-partial-seeds.svg",
    ] {
        assert!(d.join(f).exists(), "{f}");
    }
    let csv = stdout(&mac_sim(&[
        "storm",
        "--scenario",
        "partial",
        "--seeds",
        "3",
        "--csv",
    ]));
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert_eq!(
        csv.lines().next(),
        Some(retry_storm::report::REPLICATED_HEADER)
    );
    let series = stdout(&mac_sim(&[
        "storm",
        "--scenario",
        "partial",
        "--seeds",
        "2",
        "--series",
    ]));
    // Every seed's lines, with the single-seed columns: 2 seeds x 3 strategies x 90 bins.
    assert_eq!(
        series.lines().next(),
        Some(retry_storm::report::SERIES_HEADER)
    );
    assert_eq!(series.lines().count(), 1 + 2 * 3 * 90);
}

#[test]
fn report_states_the_changed_parameters() {
    let o = mac_sim(&[
        "storm",
        "--scenario",
        "pause",
        "--clients",
        "200",
        "--timeouts",
        "100ms,300ms",
        "-d",
        "60s",
    ]);
    assert!(o.status.success());
    let s = stdout(&o);
    assert!(
        s.contains("closed loop, 200 clients thinking 10 s (mean); 8 workers x exp. mean 100 ms; timeout 100 ms/300 ms; pause from 20 s to 30 s; seed 1, horizon 60 s"),
        "{s}"
    );
}

#[test]
fn out_writes_data_and_chart_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("storm");
    let o = mac_sim(&[
        "storm",
        "--scenario",
        "outage-open",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in [
        "storm-outage-open.json",
        "storm-outage-open-summary.csv",
        "storm-outage-open-series.csv",
        "storm-outage-open.png",
        "storm-outage-open.svg",
    ] {
        let len = std::fs::metadata(d.join(f)).map(|m| m.len()).unwrap_or(0);
        assert!(len > 500, "{f}: {len} bytes");
    }
    let png = std::fs::read(d.join("storm-outage-open.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let o = mac_sim(&[
        "storm",
        "--scenario",
        "contention",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(d.join("storm-contention.png").exists());
    assert!(stdout(&o).contains("decorrelated"));
}

#[test]
fn bad_input_gets_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let not_a_dir = file.to_str().unwrap();
    // Whole command lines.
    let cases: &[(&[&str], &str)] = &[
        (&["storm"], "needs --scenario"),
        (&["storm", "--scenario", "nope"], "unknown scenario 'nope'"),
        (
            &["storm", "--scenario", "contention", "-d", "5s"],
            "contention takes only",
        ),
        // A results database keeps a storm scenario's sweep: a contention sweep has
        // none to keep, and the file would be silently left unmade.
        (
            &[
                "storm",
                "--scenario",
                "contention",
                "--sweep",
                "contention.base=1ms,5ms",
                "--db",
                "c.db",
            ],
            "contention takes only",
        ),
        (
            &["storm", "--scenario", "contention", "--clients", "0"],
            "client counts must be between 1 and 10000",
        ),
    ];
    for (args, needle) in cases {
        assert_args_fail(args, needle);
    }
    // Options after `storm --scenario pause`.
    let pause_cases: &[(&[&str], &str)] = &[
        (&["--clients", "0"], "0 clients"),
        (&["--clients", "x"], "invalid value"),
        (&["--clients", "-5"], "'-5'"),
        (
            &["--horizon", "10"],
            "--horizon 10: '10' must be a positive time",
        ),
        (&["--horizon", "-1s"], "--horizon -1s: '-1s'"),
        (&["--horizon", "25s"], "trigger must end within"),
        (&["--seed", "-1"], "'-1'"),
        (&["--timeouts", "1s,0s"], "--timeouts 1s,0s: '0s'"),
        (&["--timeouts", "1s,,2s"], "--timeouts 1s,,2s: ''"),
        (&["--set", "nope=1"], "--set nope=1: no such key"),
        (&["--set", "x"], "use KEY=VALUE"),
        (
            &["--set", "server.workers=0"],
            "--set server.workers=0: the server needs at least 1 worker",
        ),
        (
            &["--set", "server.workers=2.5"],
            "--set server.workers=2.5: invalid type",
        ),
        (&["--set", "trigger.2.end=1s"], "has 1 [[trigger]] table"),
        (&["--set", "experiment=contention"], "cannot be set"),
        (&["--set", "seed=1", "--set", "seed=2"], "set twice"),
        (
            &["-d", "60s", "--set", "horizon=50s"],
            "also set by its own flag",
        ),
        (
            &["--sweep", "server.workers=10,0"],
            "--sweep server.workers=0: ",
        ),
        (&["--sweep", "timeouts=1s"], "is a list"),
        (&["--sweep", "horizon=60s,60s"], "given twice"),
        (
            &["--sweep", "load.kind=open"],
            "(with --sweep load.kind=open)",
        ),
        (&["--sweep", "nope=1,2"], "no such key"),
        (&["--strategy", "bogus"], "unknown part 'bogus'"),
        (&["--strategy", "exp+budget=250"], "percentage '250'"),
        (&["--strategy", "fixed=0s"], "duration '0s'"),
        (
            &["--strategy", "exp+base=5s+cap=1s"],
            "base must not exceed",
        ),
        (&["--strategy", "none+retries=2"], "cannot have retries"),
        (&["--strategy", "exp+exp-full"], "more than one"),
        (&["--strategy", "tokens=0/0.1"], "tokens '0/0.1'"),
        (&["--strategy", ""], "empty part"),
        (&["--json", "--csv"], "cannot be used with"),
        (&["--out", not_a_dir], "not a directory"),
    ];
    for (extra, needle) in pause_cases {
        let mut args = vec!["storm", "--scenario", "pause"];
        args.extend_from_slice(extra);
        assert_args_fail(&args, needle);
    }
}

/// `--set KEY=VALUE` gives what the file edited to that value gives, for a key the
/// file has and for one it creates, and `--sweep KEY=LIST` takes any key: its values
/// are the CSV's and JSON's values, as written (numbers as numbers, durations as text).
#[test]
fn set_and_sweep_any_key_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let preset = include_str!("../../retry-storm/scenarios/pause.toml");
    let cases = [
        ("server.workers=30", "workers = 40", "workers = 30"),
        ("trigger.end=35s", "end = \"30s\"", "end = \"35s\""),
        ("server.rtt=20ms", "[server]", "[server]\nrtt = \"20ms\""),
    ];
    for (set, from, to) in cases {
        assert!(preset.contains(from), "{from}");
        let path = dir.path().join("pause.toml");
        std::fs::write(&path, preset.replacen(from, to, 1)).unwrap();
        let edited = mac_sim(&["storm", "--scenario", path.to_str().unwrap(), "--csv"]);
        let with_set = mac_sim(&["storm", "--scenario", "pause", "--set", set, "--csv"]);
        assert!(with_set.status.success(), "{}", stderr(&with_set));
        assert_eq!(stdout(&with_set), stdout(&edited), "{set}");
        let plain = mac_sim(&["storm", "--scenario", "pause", "--csv"]);
        assert_ne!(stdout(&with_set), stdout(&plain), "{set} changed nothing");
    }
    let sweep = mac_sim(&[
        "storm",
        "--scenario",
        "pause",
        "--sweep",
        "trigger.end=25s,35s",
        "--json",
    ]);
    assert!(sweep.status.success(), "{}", stderr(&sweep));
    let v: serde_json::Value = serde_json::from_str(&stdout(&sweep)).unwrap();
    assert_eq!(v["param"], "trigger.end");
    assert_eq!(v["points"][1]["value"], "35s");
    let sweep = mac_sim(&[
        "storm",
        "--scenario",
        "pause",
        "--sweep",
        "server.workers=30,50",
        "--csv",
    ]);
    let text = stdout(&sweep);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(
        rows[0].starts_with("pause,server.workers,30,")
            && rows[3].starts_with("pause,server.workers,50,")
    );
}

/// A contention experiment swept over a key of its file: at each value, the table of
/// the experiment with that key set, after the columns `param` and `value`; a
/// parameter that is not a key of its file is refused before any runs.
#[test]
fn a_contention_experiment_sweeps_a_key_of_its_file() {
    let base = [
        "storm",
        "--scenario",
        "contention",
        "--set",
        "contention.clients=10,20",
    ];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        let o = mac_sim(&a);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let swept = with(&["--sweep", "contention.base=1ms,5ms", "--csv"]);
    let mut lines = swept.lines();
    let header = lines.next().unwrap();
    for base_ms in ["1ms", "5ms"] {
        let one = with(&["--set", &format!("contention.base={base_ms}"), "--csv"]);
        let mut rows = one.lines();
        assert_eq!(header, format!("param,value,{}", rows.next().unwrap()));
        for row in rows {
            assert_eq!(
                lines.next().unwrap(),
                format!("contention.base,{base_ms},{row}")
            );
        }
    }
    assert_eq!(lines.next(), None);
    assert_args_fail(
        &[
            "storm",
            "--scenario",
            "contention",
            "--sweep",
            "utilisation=0.5",
        ],
        "a contention experiment sweeps a key of its file",
    );
}

/// A scenario file of one's own: the shipped preset read from its path gives the same
/// report as the preset's name, and bad files fail with file, line and key.
#[test]
fn scenario_files_by_path() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let path = format!("{dir}/retry-storm/scenarios/shard.toml");
    let by_path = mac_sim(&["storm", "--scenario", &path, "--csv"]);
    assert!(by_path.status.success(), "{}", stderr(&by_path));
    let by_name = mac_sim(&["storm", "--scenario", "shard", "--csv"]);
    assert_eq!(stdout(&by_path), stdout(&by_name));

    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    for (from, to, needle) in [
        ("rate = 200.0", "rat = 200.0", ":11: rat: unknown field"),
        (
            "start = \"20s\"",
            "start = \"20\"",
            ":22: start: '20' must be a positive time",
        ),
        (
            "end = \"60s\"",
            "end = \"90s\"",
            ":23: end: the trigger must end within the horizon",
        ),
        (
            "spec = \"breaker=10\"",
            "spec = \"breaker=x\"",
            ":35: spec: strategy: 'breaker=x'",
        ),
    ] {
        let bad = tmp.path().join("bad.toml");
        std::fs::write(&bad, text.replacen(from, to, 1)).unwrap();
        let bad = bad.to_string_lossy().into_owned();
        assert_args_fail(&["storm", "--scenario", &bad], &format!("{bad}{needle}"));
    }
    assert_args_fail(
        &["storm", "--scenario", "no/such.toml"],
        "no/such.toml: cannot read the scenario file",
    );
}

/// Each key of `[recovery]` and `[server.rate_limit]` is named with its own line, and
/// a warm-up that leaves no baseline before the first trigger is refused, naming
/// `warmup` in a file and the horizon's flag when `-d` makes the horizon too short.
#[test]
fn storm_files_name_their_own_keys_and_refuse_a_covering_warm_up() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{dir}/retry-storm/scenarios/pause.toml")).unwrap();
    let limited = text.replacen(
        "error_time = \"1ms\"  # how long an error answer takes\n",
        "error_time = \"1ms\"\n[server.rate_limit]\nper_s = 100.0\nburst = 10\n",
        1,
    );
    let tmp = tempfile::tempdir().unwrap();
    for (from, to, needle) in [
        (
            "concurrency_factor = 2.0",
            "concurrency_factor = 0.5",
            ":45: concurrency_factor: recovery concurrency factor 0.5 must be at least 1",
        ),
        (
            "concurrency_slack = 5.0",
            "concurrency_slack = -5.0",
            ":46: concurrency_slack: recovery concurrency slack -5 must be 0 or more",
        ),
        (
            "per_s = 100.0",
            "per_s = 0.0",
            ":32: per_s: rate limit 0 per second must be positive",
        ),
        (
            "burst = 10",
            "burst = 0",
            ":33: burst: rate limit burst 0 must be at least 1",
        ),
        (
            "sustain = \"5s\"",
            "sustain = \"95s\"",
            ":47: sustain: recovery sustain 95 s is longer than the 90 s from the first bin after the last trigger to the horizon",
        ),
        (
            "warmup = \"5s\"",
            "warmup = \"20s\"",
            ":13: warmup: warm-up 20 s leaves no baseline before the first trigger at 20 s: set warmup",
        ),
    ] {
        let bad = tmp.path().join("bad.toml");
        std::fs::write(&bad, limited.replacen(from, to, 1)).unwrap();
        let bad = bad.to_string_lossy().into_owned();
        assert_args_fail(&["storm", "--scenario", &bad], &format!("{bad}{needle}"));
    }
    // Without a trigger, a horizon (-d) shorter than the warm-up.
    let quiet = tmp.path().join("quiet.toml");
    let start = text.find("[[trigger]]").unwrap();
    let end = text.find("# Healthy bin").unwrap();
    std::fs::write(&quiet, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let quiet = quiet.to_string_lossy().into_owned();
    let o = mac_sim(&["storm", "--scenario", &quiet, "-d", "30s", "--csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_args_fail(
        &["storm", "--scenario", &quiet, "-d", "3s"],
        "warm-up 5 s is longer than the horizon 3 s: set warmup shorter, leave it out (the default is then fitted), or the horizon longer (-d/--horizon)",
    );
}

/// The keys of re-evaluated latency and of what a rejection says are named with their
/// own line, with status 2, before any run.
#[test]
fn storm_files_name_the_latency_and_reject_answer_keys() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{dir}/retry-storm/scenarios/pause.toml")).unwrap();
    let from = "error_time = \"1ms\"  # how long an error answer takes\n";
    let tmp = tempfile::tempdir().unwrap();
    for (to, key, needle) in [
        (
            "latency = \"re-evaluated\"\n",
            "latency",
            "re-evaluated latency needs a slowdown ([server.slowdown])",
        ),
        (
            "reject_answer = \"error\"\nretry_after = \"2s\"\n",
            "retry_after",
            "a Retry-After of 2 s needs rejections that carry it",
        ),
        (
            "reject_answer = \"later\"\n",
            "reject_answer",
            "unknown variant `later`",
        ),
        ("latency = 1\n", "latency", "wanted string"),
    ] {
        let changed = text.replacen(from, &format!("{from}{to}"), 1);
        let line = 1 + changed
            .lines()
            .position(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("{key}"));
        let bad = tmp.path().join("bad.toml");
        std::fs::write(&bad, changed).unwrap();
        let bad = bad.to_string_lossy().into_owned();
        assert_args_fail(
            &["storm", "--scenario", &bad],
            &format!("{bad}:{line}: {key}: {needle}"),
        );
    }
}

/// Contention takes --clients and --seeds, and has the immediate-retry baseline.
#[test]
fn contention_seeds_clients_and_baseline() {
    let o = mac_sim(&[
        "storm",
        "--scenario",
        "contention",
        "--clients",
        "20",
        "--seeds",
        "3",
        "--csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = stdout(&o);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 5, "{csv}");
    // Immediate retries and no jitter: one winner per round, 20 * 21 / 2 calls always.
    assert!(
        lines[1].starts_with("immediate,20,3,210.000000,0.000000,"),
        "{csv}"
    );
    assert!(
        lines[2].starts_with("no-jitter,20,3,210.000000,0.000000,"),
        "{csv}"
    );
}

/// A storm parameter swept: a line per value and strategy, the files of --out, and
/// bad sweeps refused with status 2.
#[test]
fn sweep_a_storm_parameter() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let dir_s = dir.to_string_lossy().into_owned();
    let o = mac_sim(&[
        "storm",
        "--scenario",
        "metastable",
        "--sweep",
        "utilisation=0.4,0.93",
        "--seeds",
        "2",
        "--csv",
        "--out",
        &dir_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = stdout(&o);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * 2, "{csv}");
    assert_eq!(lines[0], retry_storm::report::SWEEP_HEADER);
    assert!(
        lines[4].starts_with("metastable,utilisation,0.93,\"1 retry after 1 s\",2,0,"),
        "{csv}"
    );
    for f in ["csv", "json", "png", "svg"] {
        assert!(
            dir.join(format!("storm-metastable-sweep.{f}")).exists(),
            "{f}"
        );
    }
    for (args, needle) in [
        (
            &["storm", "--scenario", "pause", "--sweep", "speed=1,2"][..],
            "sweep 'speed=1,2'",
        ),
        (
            &["storm", "--scenario", "pause", "--sweep", "rate=10,20"][..],
            "sweep rate=10 does not fit",
        ),
        (
            &["storm", "--scenario", "outage-open", "--sweep", "retries=1"][..],
            "sweep retries=1 does not fit",
        ),
        (
            &["storm", "--scenario", "contention", "--sweep", "retries=1"][..],
            "a contention experiment sweeps a key of its file",
        ),
        (
            &[
                "storm",
                "--scenario",
                "pause",
                "--sweep",
                "rate=10..=10:1e-300",
            ][..],
            "sweep 'rate=10..=10:1e-300': range '10..=10:1e-300': the step is too small",
        ),
        (
            &["storm", "--scenario", "pause", "--sweep", "rate=8..=4"][..],
            "range '8..=4' is empty",
        ),
    ] {
        assert_args_fail(args, needle);
    }
}

/// `--clients 7` and `--sweep clients=7` mean the same: the same runs, so the same
/// summaries over the seeds, for a closed loop and an open one.
#[test]
fn clients_flag_and_clients_sweep_give_the_same_runs() {
    for (scenario, horizon) in [("pause", "40s"), ("partial", "80s")] {
        let json = |args: &[&str]| -> serde_json::Value {
            let mut all = vec![
                "storm",
                "--scenario",
                scenario,
                "-d",
                horizon,
                "--seeds",
                "2",
            ];
            all.extend_from_slice(args);
            all.push("--json");
            let o = mac_sim(&all);
            assert!(o.status.success(), "{}", stderr(&o));
            serde_json::from_str(&stdout(&o)).unwrap()
        };
        let flag = json(&["--clients", "7"]);
        let swept = json(&["--sweep", "clients=7"]);
        assert_eq!(
            flag["strategies"], swept["points"][0]["strategies"],
            "{scenario}"
        );
        // Every seed's full result sits beside the summary.
        assert_eq!(flag["per_seed"].as_array().unwrap().len(), 2);
        assert_eq!(flag["per_seed"][1]["runs"][0]["config"]["seed"], 2);
    }
}

#[test]
fn help_lists_every_strategy_part() {
    let o = mac_sim(&["storm", "--help"]);
    assert!(o.status.success());
    // clap wraps the text: compare with the lines joined.
    let help = stdout(&o).split_whitespace().collect::<Vec<_>>().join(" ");
    for part in retry_storm::spec::PARTS {
        assert!(
            help.contains(&format!(" {part},")) || help.contains(&format!(" {part};")),
            "storm --help does not list the strategy part {part}"
        );
    }
}

/// `storm --help` ends with the reference of every scenario file key, and `storm
/// --keys` prints that reference alone: both come from the schema's one list.
#[test]
fn storm_help_and_keys_print_the_reference_of_the_scenario_keys() {
    let reference = retry_storm::file::reference();
    let o = mac_sim(&["storm", "--keys"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), reference);
    let o = mac_sim(&["storm", "--help"]);
    assert!(o.status.success());
    let help = stdout(&o);
    assert!(
        help.trim_end().ends_with(reference.trim_end()),
        "storm --help does not end with the keys' reference:\n{help}"
    );
    for t in retry_storm::file::TABLES {
        for k in t.keys {
            assert!(
                reference.contains(&format!(
                    "\n  {:<20}{}",
                    k.key,
                    k.value.split_whitespace().next().unwrap_or_default()
                )),
                "{} {} is not in the reference",
                t.header,
                k.key
            );
        }
    }
}

/// The contention experiment as a scenario file: the shipped preset read from its
/// path gives the preset's output; a file of one's own chooses its kinds, client
/// counts and call time, takes --clients and --seed, and a bad one fails with file,
/// line and key (exit status 2).
#[test]
fn contention_files_by_path() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let path = format!("{dir}/retry-storm/scenarios/contention.toml");
    let by_path = mac_sim(&["storm", "--scenario", &path, "--csv"]);
    assert!(by_path.status.success(), "{}", stderr(&by_path));
    let by_name = mac_sim(&["storm", "--scenario", "contention", "--csv"]);
    assert_eq!(stdout(&by_path), stdout(&by_name));

    let tmp = tempfile::tempdir().unwrap();
    let mine = tmp.path().join("mine.toml");
    let text = "experiment = \"contention\"\n\n[contention]\nclients = [20, 30]\ncall = \"exponential\"\nmean = \"1ms\"\nkinds = [\"no-jitter\", \"full\"]\nbase = \"5ms\"\ncap = \"2s\"\n";
    std::fs::write(&mine, text).unwrap();
    let mine_s = mine.to_string_lossy().into_owned();
    let o = mac_sim(&["storm", "--scenario", &mine_s, "--csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = stdout(&o);
    let kinds: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(kinds, ["no-jitter", "no-jitter", "full", "full"], "{csv}");
    // Drawn call times: rounds no longer have exactly one winner each.
    assert!(!csv.contains("no-jitter,20,210,"), "{csv}");
    let again = mac_sim(&["storm", "--scenario", &mine_s, "--csv"]);
    assert_eq!(stdout(&again), csv);
    let o = mac_sim(&[
        "storm",
        "--scenario",
        &mine_s,
        "--clients",
        "5",
        "--seeds",
        "2",
        "--csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1 + 2, "{}", stdout(&o));
    assert_args_fail(
        &["storm", "--scenario", &mine_s, "-d", "5s"],
        "contention takes only",
    );

    for (from, to, needle) in [
        (
            "kinds = [\"no-jitter\", \"full\"]",
            "kinds = [\"no-jitter\", \"fulll\"]",
            ":7: kinds: unknown variant `fulll`",
        ),
        (
            "clients = [20, 30]",
            "clients = [20, 0]",
            ":4: clients: contention: client counts must be between 1 and 10000",
        ),
        (
            "cap = \"2s\"",
            "cap = \"1ms\"",
            ":8: base: the backoff base must not exceed the cap",
        ),
        (
            "mean = \"1ms\"",
            "jitter = 1",
            ":6: jitter: unknown field `jitter`",
        ),
        (
            "call = \"exponential\"",
            "call = \"normal\"",
            ":5: call: unknown variant `normal`",
        ),
        (
            "experiment = \"contention\"",
            "experiment = \"contend\"",
            ":1: experiment: unknown variant `contend`",
        ),
    ] {
        let bad = tmp.path().join("bad.toml");
        std::fs::write(&bad, text.replacen(from, to, 1)).unwrap();
        let bad = bad.to_string_lossy().into_owned();
        assert_args_fail(&["storm", "--scenario", &bad], &format!("{bad}{needle}"));
    }
}

/// The report card: the example configurations, its doors, and every bad input in one
/// line with exit status 2.
#[test]
fn policy_report_card_and_its_bad_inputs() {
    let root = env!("CARGO_MANIFEST_DIR");
    let grpc = format!("{root}/retry-storm/policies/grpc-retry.json");
    let o = mac_sim(&["storm", "--policy", &grpc]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(
        s.starts_with("report card: gRPC retryPolicy at 100 requests/s"),
        "{s}"
    );
    for incident in ["outage", "pause", "partial", "slow", "overload"] {
        assert!(s.contains(&format!("\n{incident} ")), "{s}");
    }
    let csv = stdout(&mac_sim(&["storm", "--policy", &grpc, "--csv"]));
    assert_eq!(csv.lines().count(), 6, "{csv}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&mac_sim(&["storm", "--policy", &grpc, "--json"]))).unwrap();
    assert_eq!(json["rows"].as_array().unwrap().len(), 5);

    let dir = tempfile::tempdir().unwrap();
    let legacy = dir.path().join("legacy.ini");
    std::fs::write(&legacy, "[default]\nretry_mode = legacy\n").unwrap();
    let legacy = legacy.to_str().unwrap();
    let missing = dir.path().join("nope.json");
    let missing = missing.to_str().unwrap();
    for (args, says) in [
        (
            vec!["storm", "--policy", legacy],
            "legacy.ini:2: retry_mode: retry_mode legacy is not modelled",
        ),
        (
            vec!["storm", "--policy", missing],
            "nope.json: cannot read the policy file",
        ),
        (
            vec!["storm", "--policy", &grpc, "--rate", "0"],
            "--rate 0: must be a positive number",
        ),
        (
            vec!["storm", "--policy", &grpc, "--capacity", "inf"],
            "--capacity inf: must be a positive number",
        ),
        (
            vec!["storm", "--policy", &grpc, "--timeouts", "1s,2s"],
            "--timeouts: the report card takes one timeout",
        ),
        (
            vec!["storm", "--policy", &grpc, "--timeouts", "0s"],
            "--timeouts 0s: the report card takes one timeout",
        ),
        (
            vec!["storm", "--policy", &grpc, "--scenario", "pause"],
            "cannot be used with",
        ),
        (
            vec!["storm", "--rate", "5", "--scenario", "pause"],
            "--policy",
        ),
    ] {
        let o = mac_sim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(e.contains(says), "{args:?}: {e}");
        assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
    }
}

/// In `waves`' total outage only 34 requests end inside the window (they began just
/// before it) and every other one is still retrying: the success ratio over them read
/// 1.000. It is now undefined (`-`, JSON `null`, an empty CSV cell) with its count
/// beside it, in every door.
#[test]
fn the_success_ratio_of_a_total_outage_is_undefined_with_its_count() {
    let args = ["storm", "--scenario", "waves", "-d", "45s"];
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&mac_sim(&[&args[..], &["--json"]].concat()))).unwrap();
    let during = &json["runs"][0]["summary"]["during"];
    assert!(during["success_ratio"].is_null(), "{during}");
    assert_eq!(during["completed"], 34);
    let csv = stdout(&mac_sim(&[&args[..], &["--csv"]].concat()));
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    // The strategy's name holds a comma: count from the end of the line.
    let from_end = |name: &str| row[row.len() - (header.len() - col(name))];
    assert_eq!(from_end("during_success_ratio"), "");
    assert_eq!(from_end("during_completed"), "34");
    let text = stdout(&mac_sim(&args));
    let line = text
        .lines()
        .find(|l| l.starts_with("exp, no jitter") && l.contains('|'))
        .unwrap();
    assert!(line.contains("       -      34 "), "{line}");
}

/// `retry_after` is carried by a rejection: a file with nothing that rejects (no
/// `queue_limit`, no `[server.rate_limit]`) is refused on the key's line rather than
/// run with the key silently ignored; with a rate limiter it runs.
#[test]
fn retry_after_with_nothing_that_rejects_is_refused() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{dir}/retry-storm/scenarios/pause.toml")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.toml");
    std::fs::write(
        &bad,
        text.replacen("workers = 40\n", "workers = 40\nretry_after = \"2s\"\n", 1),
    )
    .unwrap();
    let bad = bad.to_string_lossy().into_owned();
    assert_args_fail(
        &["storm", "--scenario", &bad],
        &format!(
            "{bad}:28: retry_after: has no effect without something that rejects (queue_limit or [server.rate_limit]): remove it, or add that"
        ),
    );
    assert_args_fail(
        &[
            "storm",
            "--scenario",
            "pause",
            "--set",
            "server.retry_after=2s",
        ],
        "--set server.retry_after=2s: has no effect without something that rejects",
    );
    let o = mac_sim(&[
        "storm",
        "--scenario",
        &bad,
        "-d",
        "40s",
        "--csv",
        "--set",
        "server.queue_limit=50",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `storm --help` names the files `--out` writes as they are written.
#[test]
fn help_names_the_files_of_out_as_written() {
    let help = stdout(&mac_sim(&["storm", "--help"]));
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_string_lossy().into_owned();
    let o = mac_sim(&["storm", "--scenario", "shard", "-q", "--out", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    for entry in std::fs::read_dir(tmp.path()).unwrap() {
        let name = entry
            .unwrap()
            .file_name()
            .to_string_lossy()
            .replace("shard", "NAME");
        assert!(help.contains(&name), "{name} not in the help");
    }
    assert!(!help.contains(" NAME.json"), "the old name");
}

/// A contention file's `name` and `title` are used as a storm file's are: the
/// report's heading, and the files of `--out` (one seed, over seeds, swept); the old
/// kind `none` is refused with its new word.
#[test]
fn contention_files_use_their_name_and_title() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("file.toml");
    let text = "experiment = \"contention\"\nname = \"mine\"\ntitle = \"my own title\"\nexpectation = \"fewer calls\"\n\n[contention]\nclients = [5]\nkinds = [\"no-jitter\", \"full\"]\n";
    std::fs::write(&file, text).unwrap();
    let path = file.to_string_lossy().into_owned();
    let o = mac_sim(&["storm", "--scenario", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(
        s.starts_with("mac-sim storm: mine — my own title\nexpected: fewer calls\n"),
        "{s}"
    );
    for (k, (args, files)) in [
        (
            vec![],
            vec![
                "storm-mine.csv",
                "storm-mine.json",
                "storm-mine.png",
                "storm-mine.svg",
            ],
        ),
        (
            vec!["--seeds", "2"],
            vec!["storm-mine-seeds.csv", "storm-mine-seeds.json"],
        ),
        (
            vec!["--sweep", "contention.base=1ms,2ms"],
            vec!["storm-mine-sweep.csv", "storm-mine-sweep.json"],
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let out = tmp.path().join(format!("out{k}"));
        let out_s = out.to_string_lossy().into_owned();
        let o = mac_sim(
            &[
                &["storm", "--scenario", &path, "-q", "--out", &out_s][..],
                &args,
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(crate::common::tree(&out), files, "{args:?}");
    }
    std::fs::write(&file, text.replace("\"no-jitter\"", "\"none\"")).unwrap();
    assert_args_fail(
        &["storm", "--scenario", &path],
        &format!("{path}:8: kinds: \"none\" is now \"no-jitter\""),
    );
}
