//! `mac-sim run --trace`: the file holds every event of the run, in the format its
//! extension names, and a path that cannot be written fails before the run.

use crate::common::{assert_args_fail, mac_sim, stderr, stdout};

fn only_file(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn csv_and_jsonl_traces_match_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let args = [
        "run", "-n", "4", "--load", "0.7", "-d", "50ms", "--json", "--trace",
    ];
    let o = mac_sim(&[&args[..], &[csv.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("time_ps,station,kind,collisions,backoff_slots,frame_bits,access_delay_ps")
    );
    let kinds: Vec<String> = lines
        .map(|l| l.split(',').nth(2).unwrap().to_owned())
        .collect();
    let n = |k: &str| kinds.iter().filter(|x| *x == k).count() as u64;
    assert_eq!(
        n("success"),
        r["conservation"]["delivered_frames"].as_u64().unwrap()
    );
    assert_eq!(n("transmit"), r["attempts"].as_u64().unwrap());
    assert_eq!(n("collision"), r["collided_attempts"].as_u64().unwrap());

    let jsonl = dir.path().join("t.jsonl");
    let o = mac_sim(&[&args[..], &[jsonl.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let j = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(j.lines().count(), kinds.len());
    for l in j.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert!(v["station"].as_u64().unwrap() < 4);
    }
    // No temporary file is left beside them.
    let mut files = only_file(dir.path());
    files.sort();
    assert_eq!(files, ["t.csv", "t.jsonl"]);
}

#[test]
fn unwritable_trace_paths_fail_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = |s: &str| dir.path().join(s).to_string_lossy().into_owned();
    // A long run: it must not start.
    let base = ["run", "-d", "1000s", "--trace"];
    assert_args_fail(&[&base[..], &[&p("no/such/dir/t.csv")]].concat(), "t.csv");
    assert_args_fail(&[&base[..], &[&p("t.txt")]].concat(), ".csv or .jsonl");
    assert_args_fail(&[&base[..], &[&p("t")]].concat(), ".csv or .jsonl");
    let d = p("adir.csv");
    std::fs::create_dir(&d).unwrap();
    assert_args_fail(&[&base[..], &[&d]].concat(), "a folder is in the way");
    // A bad configuration leaves no trace file behind either.
    let t = p("t.csv");
    assert_args_fail(&["run", "-n", "0", "--trace", &t], "");
    assert_eq!(only_file(dir.path()), ["adir.csv"]);
}
