//! `--scenario FILE`: scenario files, the JSON round trip, flags over the file, and
//! one line with file, line and key for every bad file.

use crate::common;
use crate::common::{assert_args_fail, mac_sim, stdout};

fn scenario(name: &str) -> String {
    format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn default_scenario_is_the_default_run() {
    let plain = mac_sim(&["run", "-q", "-d", "200ms"]);
    let file = mac_sim(&[
        "run",
        "-q",
        "-d",
        "200ms",
        "--scenario",
        &scenario("default-32.toml"),
    ]);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(stdout(&plain), stdout(&file));
}

#[test]
fn every_example_scenario_runs() {
    for name in [
        "default-32.toml",
        "mix-50-stations.toml",
        "fast-ethernet-hub.toml",
        "gigabit-hub.toml",
        "capture-2-stations.toml",
    ] {
        let o = mac_sim(&["run", "-q", "-d", "20ms", "--scenario", &scenario(name)]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", common::stderr(&o));
    }
}

/// A file runs, its JSON result re-runs to the same bytes, and the scenario in the
/// result, written back as TOML, runs to the same bytes again.
#[test]
fn file_json_file_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let first = mac_sim(&[
        "run",
        "-q",
        "--json",
        "-d",
        "100ms",
        "--scenario",
        &scenario("mix-50-stations.toml"),
    ]);
    assert_eq!(first.status.code(), Some(0));
    let json = write(&dir, "result.json", &stdout(&first));
    let again = mac_sim(&["run", "-q", "--json", "--scenario", &json]);
    assert_eq!(stdout(&first), stdout(&again));

    let v: serde_json::Value = serde_json::from_str(&stdout(&first)).unwrap();
    let s: csma_cd::scenario::Scenario = serde_json::from_value(v["scenario"].clone()).unwrap();
    assert_eq!(s.stations, Some(50));
    assert_eq!(s.get("frames").as_deref(), Some("64:7,594:4,1518:1"));
    let toml = write(&dir, "back.toml", &toml::to_string(&s).unwrap());
    let third = mac_sim(&["run", "-q", "--json", "--scenario", &toml]);
    assert_eq!(stdout(&first), stdout(&third));
}

/// Only flags the user wrote override the file: `-n 10` replaces the file's 50
/// stations, the file's mix and load stay, and `-d` left at its default does not
/// undo the file's duration.
#[test]
fn flags_given_override_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        &dir,
        "s.toml",
        "stations = 50\nload = 0.6\nframes = \"64:7,594:4,1518:1\"\nduration = \"30ms\"\nseed = 9\n",
    );
    let o = mac_sim(&[
        "run",
        "-q",
        "--json",
        "--scenario",
        &f,
        "-n",
        "10",
        "-s",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let s = &v["scenario"];
    assert_eq!(s["stations"], 10);
    assert_eq!(s["seed"], 1);
    assert_eq!(s["load"], 0.6);
    assert_eq!(s["duration"], "30ms");
    assert_eq!(s["frames"], "64:7,594:4,1518:1");
    // The same run from flags alone.
    let flags = mac_sim(&[
        "run",
        "-q",
        "--json",
        "-n",
        "10",
        "-l",
        "0.6",
        "-f",
        "64:7,594:4,1518:1",
        "-d",
        "30ms",
    ]);
    assert_eq!(stdout(&o), stdout(&flags));
}

#[test]
fn sweep_takes_its_base_model_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = mac_sim(&[
        "sweep",
        "--scenario",
        &scenario("fast-ethernet-hub.toml"),
        "-n",
        "2",
        "-r",
        "1",
        "-d",
        "10ms",
        "-q",
        "--no-plots",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.starts_with("medium,stations,placement,placement_seed,length_m,bit_rate_bps,"));
    assert!(csv.contains("\n100BASE-TX,2,even,,200,100000000,"), "{csv}");
}

/// Each bad file: exit 2 and one line naming the file, the line and the key.
#[test]
fn bad_files_name_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "unknown.toml",
            "stations = 4\nstationz = 3\n",
            ":2: stationz",
        ),
        ("range.toml", "stations = 4\nload = 7000\n", ":2: load"),
        ("zero.toml", "seed = 3\n\nstations = 0\n", ":3: stations"),
        (
            "type.toml",
            "duration = \"1s\"\nstations = \"many\"\n",
            ":2: stations",
        ),
        ("unit.toml", "bit_rate = \"10X\"\n", ":1: bit_rate"),
        ("rule.toml", "# c\nifg_rule = \"8022\"\n", ":2: ifg_rule"),
        ("algo.toml", "backoff = \"quadratic\"\n", ":1: backoff"),
        ("syntax.toml", "stations = [\n", ":1: stations"),
        (
            "unknown.json",
            "{\n  \"scenario\": {\n    \"stations\": 3,\n    \"foo\": 1\n  }\n}\n",
            ":4: foo",
        ),
        ("none.json", "{\"x\": 1}\n", ": scenario"),
        (
            "medium.toml",
            "stations = 2\nmedium = \"100BASE-FX\"\n",
            ":2: medium",
        ),
        (
            "domain.toml",
            "medium = \"100BASE-TX\"\nlength_m = 300.0\n",
            ":2: length_m",
        ),
        (
            "rate.toml",
            "medium = \"1000BASE-T\"\n\nbit_rate = \"100M\"\n",
            ":3: bit_rate",
        ),
    ];
    for (name, text, needle) in cases {
        let f = write(&dir, name, text);
        assert_args_fail(&["run", "-q", "--scenario", &f], &format!("{name}{needle}"));
    }
    let missing = dir.path().join("missing.toml");
    assert_args_fail(
        &["run", "--scenario", missing.to_str().unwrap()],
        "missing.toml: cannot read",
    );
    let f = write(&dir, "u.toml", "stationz = 3\n");
    let out = dir.path().join("o");
    assert_args_fail(
        &["sweep", "--scenario", &f, "-q", "-o", out.to_str().unwrap()],
        "u.toml:1: stationz",
    );
}

/// A real `run --json` result, edited in its `"scenario"` block: a value of the wrong
/// type and one out of range are each named by the key and its line in that block,
/// never the line of the same key in the `"config"` block above it.
#[test]
fn an_edited_json_result_names_the_line_in_its_scenario_block() {
    let dir = tempfile::tempdir().unwrap();
    let o = mac_sim(&["run", "-q", "-n", "4", "-d", "10ms", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    let block = lines
        .iter()
        .position(|l| l.starts_with("  \"scenario\": {"))
        .expect("a scenario block");
    let line_of = |key: &str, from: usize| {
        from + 1
            + lines[from..]
                .iter()
                .position(|l| l.trim_start().starts_with(&format!("\"{key}\":")))
                .unwrap_or_else(|| panic!("{key} after line {from}"))
    };
    for (key, value, needle) in [
        ("stations", "\"four\"", "'four' is not a whole number"),
        ("stations", "0", "the number of stations must be at least 1"),
        ("seed", "[1]", "expected a single value"),
        ("seed", "one", "expected value"),
        ("attempt_limit", "0", "attempt"),
    ] {
        // The key is in the "config" block too, above: the line named is the scenario's.
        let line = line_of(key, block);
        assert!(
            line_of(key, 0) < line,
            "{key} is not in the config block too"
        );
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let (name, _) = edited[line - 1].split_once(':').unwrap();
        let comma = if edited[line - 1].ends_with(',') {
            ","
        } else {
            ""
        };
        edited[line - 1] = format!("{name}: {value}{comma}");
        let f = write(&dir, "result.json", &(edited.join("\n") + "\n"));
        assert_args_fail(
            &["run", "-q", "--scenario", &f],
            &format!("result.json:{line}: {key}: {needle}"),
        );
    }
}

/// `--warmup` and the file's `warmup` key: the report says it, JSON and CSV carry
/// it, the flag overrides the file, and one not shorter than the run is refused.
#[test]
fn warm_up_from_flag_and_file() {
    let dir = tempfile::tempdir().unwrap();
    let o = mac_sim(&["run", "-q", "-n", "4", "-d", "50ms", "--warmup", "10ms"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("  warm-up         0.01 s before them"),
        "{}",
        stdout(&o)
    );
    let plain = stdout(&mac_sim(&["run", "-q", "-n", "4", "-d", "50ms"]));
    assert!(!plain.contains("warm-up"));

    let f = write(
        &dir,
        "w.toml",
        "stations = 4\nduration = \"50ms\"\nwarmup = \"10ms\"\n",
    );
    let j = mac_sim(&["run", "-q", "--json", "--scenario", &f]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&j)).unwrap();
    assert_eq!(v["scenario"]["warmup"], "10ms");
    assert_eq!(v["simulated_s"], 0.04);
    let j = mac_sim(&["run", "-q", "--json", "--scenario", &f, "--warmup", "20ms"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&j)).unwrap();
    assert_eq!(v["scenario"]["warmup"], "20ms");
    let csv = stdout(&mac_sim(&["run", "-q", "--csv", "--scenario", &f]));
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let at = header.iter().position(|h| *h == "warmup_s").unwrap();
    assert_eq!(row[at], "0.01", "{csv}");

    assert_args_fail(
        &["run", "-d", "1s", "--warmup", "1s"],
        "warm-up 1 s must be shorter",
    );
    let bad = write(&dir, "bad.toml", "duration = \"1s\"\nwarmup = \"2s\"\n");
    assert_args_fail(&["run", "--scenario", &bad], "bad.toml:2: warmup");
    assert_args_fail(&["run", "--warmup", "soon"], "soon");
    let out = dir.path().join("o");
    assert_args_fail(
        &[
            "sweep",
            "-q",
            "-d",
            "10ms",
            "--warmup",
            "10ms",
            "-o",
            out.to_str().unwrap(),
        ],
        "warm-up",
    );
}

/// `--medium` and the file's `medium` key: the preset's parameters in the report and
/// the JSON, a file's preset re-runs from its JSON (bursting turned off included),
/// flags over the preset, and one line for a preset that does not exist, a bus
/// longer than its collision domain or a bit rate of another medium.
#[test]
fn ethernet_presets_from_flag_and_file() {
    let dir = tempfile::tempdir().unwrap();
    let o = mac_sim(&[
        "run",
        "-q",
        "--medium",
        "100base-tx",
        "-n",
        "4",
        "-d",
        "20ms",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("shared 100 Mb/s bus"), "{text}");
    assert!(text.contains("evenly over 200 m"), "{text}");
    assert!(
        text.contains("100BASE-TX preset: bus up to 205 m"),
        "{text}"
    );

    let first = mac_sim(&[
        "run",
        "-q",
        "--json",
        "-d",
        "5ms",
        "--burst-limit",
        "0",
        "--scenario",
        &scenario("gigabit-hub.toml"),
    ]);
    assert_eq!(first.status.code(), Some(0), "{}", common::stderr(&first));
    let v: serde_json::Value = serde_json::from_str(&stdout(&first)).unwrap();
    assert_eq!(v["scenario"]["medium"], "1000BASE-T");
    assert_eq!(v["scenario"]["carrier_extension"], true);
    assert_eq!(v["scenario"]["burst_limit_bits"], 0);
    let json = write(&dir, "gig.json", &stdout(&first));
    let again = mac_sim(&["run", "-q", "--json", "--scenario", &json]);
    assert_eq!(stdout(&first), stdout(&again));

    // A flag's bus length within the domain overrides the preset's default.
    let o = mac_sim(&[
        "run",
        "-q",
        "--medium",
        "10BASE2",
        "--length-m",
        "900",
        "-d",
        "5ms",
    ]);
    assert!(stdout(&o).contains("evenly over 900 m"), "{}", stdout(&o));
    assert_args_fail(
        &["run", "--medium", "token-ring"],
        "unknown medium 'token-ring'",
    );
    assert_args_fail(
        &["run", "--medium", "100BASE-TX", "--length-m", "300"],
        "collision domain of 100BASE-TX",
    );
    assert_args_fail(
        &["run", "--medium", "1000BASE-T", "--bit-rate", "100M"],
        "medium 1000BASE-T has a bit rate of 1000000000 b/s",
    );
    assert_args_fail(
        &["run", "--bit-rate", "100M", "-f", "64"],
        "the longest bus that fits is 512 m (change --length-m",
    );
    assert_args_fail(
        &["sweep", "-n", "2", "--medium", "fddi"],
        "unknown medium 'fddi'",
    );
}

/// Every parameter of the schema is a flag of `run --help` and `sweep --help` (the
/// sweep's seed is its own), which is where mac-sim/README.md sends a reader for the
/// list of keys.
#[test]
fn every_parameter_is_documented_and_a_flag() {
    let readme = include_str!("../../README.md");
    assert!(readme.contains("`mac-sim run --help` lists every one"));
    let run_help = stdout(&mac_sim(&["run", "--help"]));
    let sweep_help = stdout(&mac_sim(&["sweep", "--help"]));
    for f in csma_cd::scenario::FIELDS {
        assert!(
            run_help.contains(&f.flag()),
            "run --help lacks {}",
            f.flag()
        );
        assert!(
            f.key == "seed" || sweep_help.contains(&f.flag()),
            "sweep --help lacks {}",
            f.flag()
        );
    }
}
