//! End-to-end tests of `mac-sim radio`: the report, CSV and JSON read back, sweeps,
//! scenario files, atomic output, determinism, and every bad input (one line on
//! stderr, exit status 2).

use crate::common::{assert_args_fail, assert_usage_error, mac_sim, stderr, stdout};

/// A short run (on the earlier rule, whose parameters the tests do not set).
const SHORT: &[&str] = &[
    "radio",
    "--rule",
    "beb",
    "--duration",
    "300ms",
    "--warmup",
    "0s",
];

fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = SHORT.to_vec();
    v.extend_from_slice(extra);
    v
}

fn scenario(name: &str) -> String {
    format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_text_report_has_the_summary_drops_and_delays() {
    let o = mac_sim(&args(&["-n", "5", "--per-station"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    for needle in [
        "radio: 5 stations, phy ieee802154-2450, topology all",
        "delivery ratio",
        "throughput S",
        "collision probability",
        "drops",
        "delay (us)",
        "station",
    ] {
        assert!(s.contains(needle), "{needle} missing in\n{s}");
    }
    // The per-station table: a row per station after its header.
    let table = s.split("mean delay us").nth(1).unwrap();
    assert_eq!(table.trim().lines().count(), 5, "{s}");
}

#[test]
fn csv_and_json_parse_back_and_agree() {
    let csv = stdout(&mac_sim(&args(&["-n", "4", "--csv"])));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2, "{csv}");
    let head: Vec<&str> = lines[0].split(',').collect();
    let row: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(lines[0], radio_sim::report::csv::header());
    assert_eq!(head.len(), row.len());
    let cell = |name: &str| row[head.iter().position(|h| *h == name).unwrap()];

    let json = stdout(&mac_sim(&args(&["-n", "4", "--json"])));
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["config"]["stations"], 4);
    assert_eq!(v["delivered_frames"].to_string(), cell("delivered_frames"));
    assert_eq!(v["offered_frames"].to_string(), cell("offered_frames"));
    assert_eq!(v["per_station"].as_array().unwrap().len(), 4);
    let s: f64 = cell("throughput_fraction").parse().unwrap();
    assert!((v["throughput_fraction"].as_f64().unwrap() - s).abs() < 1e-12);
    assert_eq!(v["exactly_once_violations"], 0);
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let a = mac_sim(&args(&[
        "--topology",
        "random",
        "-n",
        "15",
        "--to",
        "neighbour",
        "--json",
    ]));
    let b = mac_sim(&args(&[
        "--topology",
        "random",
        "-n",
        "15",
        "--to",
        "neighbour",
        "--json",
    ]));
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let c = mac_sim(&args(&[
        "--topology",
        "random",
        "-n",
        "15",
        "--to",
        "neighbour",
        "--json",
        "--seed",
        "9",
    ]));
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn a_sweep_runs_the_cartesian_product() {
    let o = mac_sim(&args(&[
        "--traffic",
        "poisson",
        "--sweep",
        "stations=3,5",
        "--sweep",
        "load=0.1,0.2,0.3",
        "--sweep",
        "radius=20,40",
        "--sweep",
        "rule=beb",
        "--topology",
        "random",
        "--csv",
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = stdout(&o);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * 3 * 2, "{csv}");
    // Every column once: the swept values are in their parameters' columns.
    let head: Vec<&str> = lines[0].split(',').collect();
    let mut unique = head.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), head.len(), "{}", lines[0]);
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let point = |l: &str| {
        let c: Vec<&str> = l.split(',').collect();
        [col("stations"), col("load"), col("radius_m"), col("rule")].map(|i| c[i].to_string())
    };
    let mut points: Vec<[String; 4]> = lines[1..].iter().map(|l| point(l)).collect();
    // The first axis varies slowest.
    assert_eq!(points[0], ["3", "0.1", "20", "beb"]);
    assert_eq!(points[11], ["5", "0.3", "40", "beb"]);
    points.sort();
    points.dedup();
    assert_eq!(points.len(), 12, "every combination once");

    let json = stdout(&mac_sim(&args(&["--sweep", "stations=2,3", "--json"])));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["points"].as_array().unwrap().len(), 2);
    assert_eq!(v["points"][1]["result"]["config"]["stations"], 3);
    let text = stdout(&mac_sim(&args(&["--sweep", "stations=2,3"])));
    assert!(text.starts_with("radio sweep: 2 points"), "{text}");
}

#[test]
fn the_shipped_scenarios_run_and_flags_override_them() {
    // (file, a duration that holds frames: LoRa's take 50 ms and more each, at 4 % load)
    for (name, duration, ns) in [
        ("radio-random-30.toml", "200ms", 200_000_000_000u64),
        ("radio-hidden-line.toml", "200ms", 200_000_000_000),
        ("radio-star-20.toml", "200ms", 200_000_000_000),
        ("radio-board.toml", "20s", 20_000_000_000_000),
    ] {
        let o = mac_sim(&[
            "radio",
            "--scenario",
            &scenario(name),
            "--duration",
            duration,
            "--warmup",
            "0s",
            "--json",
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["config"]["duration"], ns, "{name}");
        assert!(v["delivered_frames"].as_u64().unwrap() > 0, "{name}");
    }
    let o = mac_sim(&[
        "radio",
        "--scenario",
        &scenario("radio-hidden-line.toml"),
        "--duration",
        "100ms",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["config"]["topology"], "positions");
    assert_eq!(v["links"], 2, "A and C are hidden from each other");
}

#[test]
fn output_is_written_whole_to_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.csv");
    let o = mac_sim(&args(&["--csv", "--output", path.to_str().unwrap()]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let direct = stdout(&mac_sim(&args(&["--csv"])));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), direct);
    // A folder in the way: refused before the run, nothing written.
    let o = mac_sim(&args(&["--output", dir.path().to_str().unwrap()]));
    assert_usage_error(&o, "a folder is in the way");
    let missing = dir.path().join("no/such/dir/r.txt");
    let o = mac_sim(&args(&["--output", missing.to_str().unwrap()]));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1);
}

#[test]
fn keys_lists_every_key() {
    let o = mac_sim(&["radio", "--keys"]);
    assert!(o.status.success());
    let s = stdout(&o);
    for f in radio_sim::scenario::FIELDS {
        assert!(s.contains(&format!("  {} = ", f.key)), "{} missing", f.key);
        // Every key is a flag too, with the same help.
        let help = stdout(&mac_sim(&["radio", "--help"]));
        assert!(
            help.contains(&format!("{} <", f.flag())),
            "{} missing",
            f.flag()
        );
    }
    assert_args_fail(
        &["radio", "--keys", "--csv"],
        "--keys takes no other option",
    );
}

#[test]
fn bad_inputs_are_one_line_and_status_2() {
    // Rule parameters: the wrong rule's, and out of the standard's ranges.
    assert_args_fail(
        &["radio", "--rule", "dcf", "--min-be", "3"],
        "min_be: not a parameter of rule dcf",
    );
    assert_args_fail(&["radio", "--max-be", "9"], "max_be");
    assert_args_fail(&["radio", "--max-csma-backoffs", "6"], "max_csma_backoffs");
    assert_args_fail(&["radio", "--rule", "dcf", "--cw-min", "0"], "cw_min");
    assert_args_fail(
        &["radio", "--rule", "dcf", "--max-stage", "17"],
        "max_stage",
    );
    assert_args_fail(
        &["radio", "--rule", "beb", "--max-be", "5"],
        "max_be: not a parameter of rule beb",
    );
    // Unknown keys and bad values.
    assert_args_fail(&args(&["--set", "lode=1"]), "lode: unknown parameter");
    assert_args_fail(&args(&["--set", "load"]), "expected KEY=VALUE");
    assert_args_fail(&args(&["--stations", "1"]), "stations: 1 must be 2 to 254");
    assert_args_fail(&args(&["--stations", "300"]), "stations");
    assert_args_fail(&args(&["--payload", "119"]), "payload");
    assert_args_fail(&args(&["--loss", "1.5"]), "loss");
    assert_args_fail(&args(&["--topology", "ring"]), "topology");
    assert_args_fail(&args(&["--duration", "10"]), "duration");
    assert_args_fail(&args(&["--sweep", "stations"]), "KEY=V1,V2");
    assert_args_fail(
        &args(&["--sweep", "colour=1,2"]),
        "colour: unknown parameter",
    );
    assert_args_fail(
        &args(&["--sweep", "stations=2,1"]),
        "stations: 1 must be 2 to 254 (at sweep point stations=1)",
    );
    assert_args_fail(
        &args(&["--stations", "5.0"]),
        "stations: '5.0' is not a whole number",
    );
    assert_args_fail(&args(&["--sweep", "rule=beb,csma"]), "rule");
    assert_args_fail(
        &args(&["--sweep", "load=0.1,0.1"]),
        "0.1 is given more than once",
    );
    assert_args_fail(
        &args(&["--sweep", "rule=beb,beb"]),
        "rule: 'beb' is not given once",
    );
    // A setting without effect is refused, not ignored; in a sweep, only when no
    // point uses it.
    assert_args_fail(
        &args(&["--load", "0.3"]),
        "load: has no effect with traffic \"saturated\" (it is for traffic \"poisson\")",
    );
    assert_args_fail(
        &args(&["--set", "queue=8"]),
        "queue: has no effect with traffic \"saturated\"",
    );
    assert_args_fail(
        &args(&["--spacing", "5"]),
        "spacing: has no effect with topology \"all\"",
    );
    assert_args_fail(
        &args(&["--sweep", "load=0.1,0.2"]),
        "load: has no effect with traffic \"saturated\"",
    );
    // A step below the values' precision: refused, not allocated until abort.
    assert_args_fail(
        &args(&["--sweep", "load=0.5..=0.5:1e-300"]),
        "the step is too small",
    );
    // Threads only where there is more than one run.
    assert_args_fail(&args(&["-j", "2"]), "--threads is for a sweep or a check");
    assert_args_fail(
        &["radio", "--keys", "-j", "2"],
        "--keys takes no other option",
    );
    // Conflicting flags.
    assert_args_fail(&args(&["--json", "--csv"]), "cannot be used with");
    assert_args_fail(&args(&["--csv", "--per-station"]), "cannot be used with");
    assert_args_fail(&args(&["--bogus"]), "--bogus");
    assert_args_fail(
        &args(&["--per-station", "--sweep", "stations=2,3"]),
        "--per-station is for one run",
    );
    // Missing and bad files.
    assert_args_fail(&args(&["--scenario", "/no/such/radio.toml"]), "cannot read");
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let unknown = file("u.toml", "stations = 3\nlode = 0.2\n");
    assert_args_fail(
        &["radio", "--scenario", &unknown],
        "u.toml:2: lode: unknown parameter",
    );
    let bad_value = file("v.toml", "rule = \"beb\"\n\nload = \"high\"\n");
    assert_args_fail(
        &["radio", "--scenario", &bad_value],
        "v.toml:3: load: 'high' is not a number",
    );
    let range = file("r.toml", "rule = \"beb\"\nstations = 500\n");
    assert_args_fail(
        &["radio", "--scenario", &range],
        "r.toml:2: stations: 500 must be 2 to 254",
    );
    let broken = file("b.toml", "rule = \"beb\"\nstations = = 3\n");
    assert_args_fail(&["radio", "--scenario", &broken], "b.toml:2:");
    let positions = file(
        "p.toml",
        "rule = \"beb\"\ntopology = \"all\"\n[[station]]\nx = 0\ny = 0\n[[station]]\nx = 1\ny = 0\n",
    );
    assert_args_fail(
        &["radio", "--scenario", &positions],
        "need topology \"positions\"",
    );
}

#[test]
fn every_rule_runs_and_the_default_is_the_standards() {
    let o = mac_sim(&["radio", "-n", "6", "--duration", "300ms", "--warmup", "0s"]);
    assert!(stdout(&o).contains("rule ieee802154"), "{}", stdout(&o));
    for rule in ["ieee802154", "beb", "dcf"] {
        let o = mac_sim(&[
            "radio",
            "-n",
            "6",
            "--duration",
            "300ms",
            "--rule",
            rule,
            "--csv",
        ]);
        assert!(o.status.success(), "{rule}: {}", stderr(&o));
    }
}

#[test]
fn a_check_prints_its_table_and_draws_its_chart() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("charts");
    let plot_arg = plot.to_str().unwrap();
    let o = mac_sim(&["radio", "--check", "hidden", "--plot", plot_arg]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("A and C hidden") && text.contains("A and C in range"),
        "{text}"
    );
    assert!(plot.join("radio-hidden.png").is_file() && plot.join("radio-hidden.svg").is_file());
    // CSV: one row per point, the same numbers.
    let o = mac_sim(&["radio", "--check", "hidden", "--csv"]);
    let csv = stdout(&o);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * 6, "{csv}");
    assert!(lines[0].starts_with("series,load,g,throughput"));
    // Bad uses: one line, status 2, nothing written.
    assert_args_fail(&["radio", "--check", "bogus"], "'bogus' is not a check");
    assert_args_fail(
        &["radio", "--check", "aloha", "-n", "5"],
        "--check takes only",
    );
    assert_args_fail(&["radio", "--plot", plot_arg], "--check");
}

/// A value that only the run's check refuses (the rule's range, a combination) names
/// the scenario file and its line when the file set it, as a value of the wrong
/// kind does; a flag that replaced it, or a sweep axis, is not blamed on the file.
#[test]
fn a_file_value_the_run_refuses_names_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("r.toml");
    std::fs::write(&f, "stations = 3\n\nmin_be = 300\n").unwrap();
    let f = f.to_str().unwrap();
    assert_args_fail(
        &["radio", "--scenario", f, "--duration", "1s"],
        &format!("{f}:3: min_be: 300 is out of range"),
    );
    let o = mac_sim(&[
        "radio",
        "--scenario",
        f,
        "--min-be",
        "300",
        "--duration",
        "1s",
    ]);
    let err = stderr(&o);
    assert!(err.contains("mac-sim: error: min_be: "), "{err}");
    assert!(!err.contains("r.toml"), "{err}");
    let o = mac_sim(&["radio", "--scenario", f, "--min-be", "3", "-d", "1s"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_args_fail(
        &[
            "radio",
            "--scenario",
            f,
            "--sweep",
            "stations=3,4",
            "-d",
            "1s",
        ],
        &format!("{f}:3: min_be: 300 is out of range"),
    );
}

/// `cca_threshold_dbm` was added to the radio model by its field, its default, its
/// range and one row of the table, and nothing else: it reaches every door.
#[test]
fn a_new_key_reaches_every_door() {
    let keys = stdout(&mac_sim(&["radio", "--keys"]));
    assert!(
        keys.contains("  cca_threshold_dbm = DBM (default off)"),
        "{keys}"
    );
    let help = stdout(&mac_sim(&["radio", "--help"]));
    assert!(help.contains("--cca-threshold-dbm <DBM>"), "{help}");
    // Flag, --set and a file give the same run.
    let flag = stdout(&mac_sim(&args(&[
        "-n",
        "4",
        "--cca-threshold-dbm",
        "-70",
        "--csv",
    ])));
    let set = stdout(&mac_sim(&args(&[
        "-n",
        "4",
        "--set",
        "cca_threshold_dbm=-70",
        "--csv",
    ])));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    std::fs::write(&file, "cca_threshold_dbm = -70\n").unwrap();
    let from_file = stdout(&mac_sim(&args(&[
        "-n",
        "4",
        "--scenario",
        file.to_str().unwrap(),
        "--csv",
    ])));
    assert_eq!(flag, set);
    assert_eq!(flag, from_file);
    // The column, with its unit in the name, and the JSON.
    let lines: Vec<&str> = flag.lines().collect();
    let head: Vec<&str> = lines[0].split(',').collect();
    let i = head.iter().position(|h| *h == "cca_threshold_dbm").unwrap();
    assert_eq!(lines[1].split(',').nth(i), Some("-70"));
    let json = stdout(&mac_sim(&args(&[
        "-n",
        "4",
        "--cca-threshold-dbm",
        "-70",
        "--json",
    ])));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["config"]["cca_threshold_dbm"], -70.0);
    // A sweep axis, off included.
    let csv = stdout(&mac_sim(&args(&[
        "-n",
        "4",
        "--sweep",
        "cca_threshold_dbm=off,-70",
        "--csv",
    ])));
    let cells: Vec<Option<&str>> = csv.lines().skip(1).map(|l| l.split(',').nth(i)).collect();
    assert_eq!(cells, [Some(""), Some("-70")]);
    // Its range, from the one check.
    assert_args_fail(
        &args(&["--cca-threshold-dbm", "inf"]),
        "cca_threshold_dbm: inf is not a finite number of dBm",
    );
}

/// A figure with nothing to measure is undefined, in every form: an empty CSV cell,
/// `null` in JSON and `-` in the text, never 0 (a millisecond is too short for any
/// frame to end: a 50-byte frame takes about 2 ms on the air).
#[test]
fn undefined_figures_are_empty_null_or_a_dash() {
    let run = ["radio", "-n", "3", "-d", "1ms", "--warmup", "0s"];
    let with = |extra: &str| {
        let mut a = run.to_vec();
        a.push(extra);
        let o = mac_sim(&a);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let csv = with("--csv");
    let lines: Vec<&str> = csv.lines().collect();
    let head: Vec<&str> = lines[0].split(',').collect();
    let row: Vec<&str> = lines[1].split(',').collect();
    let cell = |name: &str| row[head.iter().position(|h| *h == name).unwrap()];
    assert_eq!(cell("delivered_frames"), "0");
    for name in [
        "delivery_fraction",
        "attempts_per_frame",
        "delay_p50_us",
        "delay_max_us",
    ] {
        assert_eq!(cell(name), "", "{name}");
    }
    let v: serde_json::Value = serde_json::from_str(&with("--json")).unwrap();
    assert!(
        v["delivery_fraction"].is_null() && v["delay"]["p50_us"].is_null(),
        "{v}"
    );
    assert!(v["per_station"][1]["mean_delay_us"].is_null());
    let text = with("--per-station");
    assert!(text.contains("delivery ratio         -\n"), "{text}");
    assert!(
        text.contains("p50 -, p90 -, p99 -, max -, mean -"),
        "{text}"
    );
}

/// The LoRa PHY: the radio board as flashed, from the shipped scenario and from
/// flags, through every door, and every bad LoRa setting refused in one line.
#[test]
fn the_lora_phy_is_the_radio_board_as_flashed() {
    let o = mac_sim(&[
        "radio",
        "--scenario",
        &scenario("radio-board.toml"),
        "--duration",
        "120s",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let c = &v["config"];
    assert_eq!(
        (
            &c["phy"],
            &c["spreading_factor"],
            &c["bandwidth"],
            &c["coding_rate"]
        ),
        (
            &serde_json::json!("lora"),
            &serde_json::json!(7),
            &serde_json::json!("125"),
            &serde_json::json!("4/5")
        )
    );
    assert_eq!(c["duty_cycle_pct"], 1.0);
    assert_eq!(c["capture_db"], "phy");
    assert!(v["delivery_fraction"].as_f64().unwrap() > 0.9, "{v}");
    let text = stdout(&mac_sim(&[
        "radio",
        "--phy",
        "lora",
        "-n",
        "3",
        "-d",
        "2s",
        "--duty-cycle",
        "1",
    ]));
    assert!(
        text.starts_with("radio: 3 stations, phy lora SF7/125 kHz/4/5, duty cycle 1 %,"),
        "{text}"
    );
    assert!(text.contains("capture 6 dB"), "{text}");
    // A sweep over the spreading factor: one column each, slower frames each step.
    let csv = stdout(&mac_sim(&[
        "radio",
        "--phy",
        "lora",
        "-n",
        "3",
        "-d",
        "20s",
        "--sweep",
        "spreading_factor=7,9,12",
        "--csv",
    ]));
    let lines: Vec<&str> = csv.lines().collect();
    let head: Vec<&str> = lines[0].split(',').collect();
    let sf = head.iter().position(|h| *h == "spreading_factor").unwrap();
    let sfs: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(sf).unwrap())
        .collect();
    assert_eq!(sfs, ["7", "9", "12"]);
    // Bad LoRa settings, each named.
    for (extra, message) in [
        (
            &["--phy", "lora", "--sf", "13"][..],
            "spreading_factor: 13 is not 7 to 12",
        ),
        (
            &["--sf", "9"][..],
            "spreading_factor: has no effect with phy \"ieee802154-2450\"",
        ),
        (
            &["--phy", "lora", "--bandwidth", "100"][..],
            "bandwidth: '100' is not a LoRa bandwidth in kHz",
        ),
        (
            &["--phy", "lora", "--coding-rate", "4/9"][..],
            "coding_rate: '4/9' is not 4/5, 4/6, 4/7 or 4/8",
        ),
        (
            &["--phy", "lora", "--preamble", "5"][..],
            "preamble: 5 is not 6 symbols or more",
        ),
        (
            &["--duty-cycle", "0"][..],
            "duty_cycle: 0 is not above 0 and at most 100 (%)",
        ),
        (
            &["--phy", "lora", "--payload", "247"][..],
            "payload: 247 must be 4 to 246 bytes (phy lora)",
        ),
        (
            &["--payload", "119"][..],
            "payload: 119 must be 4 to 118 bytes (phy ieee802154-2450)",
        ),
        (
            &["--phy", "zigbee"][..],
            "phy: 'zigbee' is not ieee802154-2450 or lora",
        ),
    ] {
        let mut a = vec!["radio", "-d", "1s"];
        a.extend_from_slice(extra);
        assert_args_fail(&a, message);
    }
}
