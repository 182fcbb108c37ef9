//! One name per figure in every door: each figure column of a model's CSV is the name
//! of the same figure in its JSON, where a JSON object groups names by a prefix. A
//! column is a JSON path from any level down joined by `_` (`access_delay.mean_us`
//! is `access_delay_mean_us`, `counts.offered` is `offered`); an interval's columns
//! `X` and `X_ci95` are its JSON `X.mean` and `X.ci95`; a per-station table's
//! `station_X` is a station's `X`. The parameter columns are the schema's own
//! (`duration_s`, the text form `"1s"` in the JSON's scenario block), so they are
//! left out; the Python package's tables are these CSVs and its summaries these JSONs.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::{mac_sim, stdout};

/// Every name a JSON figure goes by: each path's suffixes joined by `_`, with an
/// interval's `mean` dropped.
fn json_names(v: &Value) -> BTreeSet<String> {
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    path.push(k.clone());
                    walk(x, path, out);
                    path.pop();
                }
            }
            Value::Array(a) if a.first().is_some_and(Value::is_object) => {
                for x in a {
                    walk(x, path, out);
                }
            }
            _ => {
                for i in 0..path.len() {
                    out.insert(path[i..].join("_"));
                    if path.last().is_some_and(|l| l == "mean") && i + 1 < path.len() {
                        out.insert(path[i..path.len() - 1].join("_"));
                    }
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

/// The CSV's header names that no JSON name matches, parameter columns and `skip`
/// left out.
fn unmatched(model_args: &[&str], params: &[&str], skip: &[&str]) -> Vec<String> {
    let csv = stdout(&mac_sim(&[model_args, &["--csv"]].concat()));
    let json: Value =
        serde_json::from_str(&stdout(&mac_sim(&[model_args, &["--json"]].concat()))).unwrap();
    let names = json_names(&json);
    let header = csv.lines().next().expect("a header");
    header
        .split(',')
        .filter(|c| !params.contains(c) && !skip.contains(c))
        .filter(|c| {
            !names.contains(*c)
                && !c
                    .strip_prefix("station_")
                    .is_some_and(|rest| names.contains(rest))
        })
        .map(str::to_string)
        .collect()
}

/// The parameter columns of a model: its CSV header's columns up to `last`, the
/// schema's last key, which come first.
fn parameter_columns(model_args: &[&str], last: &str) -> Vec<String> {
    let csv = stdout(&mac_sim(&[model_args, &["--csv"]].concat()));
    let header: Vec<String> = csv
        .lines()
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    let end = header
        .iter()
        .position(|c| c == last)
        .expect("the last parameter's column");
    header[..=end].to_vec()
}

#[test]
fn csma_cd_tables_name_each_figure_as_its_json_does() {
    let args = ["run", "-n", "3", "-d", "20ms", "--per-station"];
    let params = parameter_columns(&args, "jam_rule");
    let params: Vec<&str> = params.iter().map(String::as_str).collect();
    assert_eq!(unmatched(&args, &params, &[]), Vec::<String>::new());
    assert_eq!(unmatched(&args[..5], &params, &[]), Vec::<String>::new());
}

#[test]
fn radio_tables_name_each_figure_as_its_json_does() {
    let args = ["radio", "-n", "4", "-d", "200ms"];
    let params = parameter_columns(&args, "seed");
    let params: Vec<&str> = params.iter().map(String::as_str).collect();
    assert_eq!(unmatched(&args, &params, &[]), Vec::<String>::new());
}

#[test]
fn storm_tables_name_each_figure_as_its_json_does() {
    let one = ["storm", "--scenario", "pause", "-d", "40s"];
    // A single run's JSON keeps the counts that its `wasted_fraction` and the
    // recovery and drain that its `recover_s` and `drain_s` are computed from; over
    // seeds they are figures.
    let derived = ["wasted_fraction", "recover_s", "drain_s"];
    let params = ["scenario", "strategy", "seed"];
    assert_eq!(unmatched(&one, &params, &derived), Vec::<String>::new());
    let seeds = ["storm", "--scenario", "pause", "-d", "40s", "--seeds", "2"];
    assert_eq!(
        unmatched(&seeds, &["scenario", "strategy", "seeds"], &[]),
        Vec::<String>::new()
    );
    // The figures a single run and a run over seeds share have one name.
    let header = |args: &[&str]| -> BTreeSet<String> {
        stdout(&mac_sim(&[args, &["--csv"]].concat()))
            .lines()
            .next()
            .unwrap()
            .split(',')
            .map(str::to_string)
            .collect()
    };
    let over_seeds = header(&seeds);
    for name in [
        "during_mean_amplification",
        "during_peak_amplification",
        "during_success_ratio",
        "after_mean_amplification",
        "after_success_ratio",
        "load_during",
        "load_after",
        "wasted_fraction",
        "recover_s",
        "drain_s",
    ] {
        assert!(
            header(&one).contains(name) && over_seeds.contains(name),
            "{name}"
        );
        assert!(over_seeds.contains(&format!("{name}_ci95")), "{name}_ci95");
    }
}

#[test]
fn an_unmatched_column_is_seen() {
    // The check can fail: a JSON without a figure leaves its column unmatched.
    let names = json_names(
        &serde_json::json!({"delay": {"mean_us": 1.0}, "x": {"mean": 2.0, "ci95": 0.1}}),
    );
    assert!(names.contains("delay_mean_us") && names.contains("mean_us"));
    assert!(names.contains("x") && names.contains("x_ci95"));
    assert!(!names.contains("delay"));
}
