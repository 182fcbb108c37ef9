//! Scenario files: every preset is a file that reads back to runnable runs, and every
//! kind of bad file gives one line naming the file, the line and the key.

use retry_storm::error::{FileError, FileProblem};
use retry_storm::file::{Experiment, parse, parse_contention, parse_experiment};
use retry_storm::presets;

const GOOD: &str = r#"# a small scenario
horizon = "60s"
bin = "500ms"

[load]
kind = "closed"
clients = 100
think = "1s"

[server]
workers = 10
service = "exponential"
mean = "50ms"

[[trigger]]
kind = "partial"
start = "10s"
end = "20s"
fraction = 0.5

[recovery]
sustain = "2s"

[[strategy]]
name = "backoff"
spec = "exp-full+retries=3"

[[strategy]]
spec = "none"
timeouts = ["200ms", "300ms"]
"#;

fn err(text: &str) -> FileError {
    match parse(text, "s.toml") {
        Err(e) => e,
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

#[test]
fn a_file_gives_the_runs_it_describes() {
    let sc = parse(GOOD, "dir/small.toml").unwrap();
    assert_eq!(sc.name, "small");
    assert_eq!(sc.runs.len(), 2);
    assert_eq!(sc.runs[0].strategy.name, "backoff");
    assert_eq!(sc.runs[1].strategy.name, "none");
    assert_eq!(sc.runs[1].timeouts_ps.len(), 2);
    assert_eq!(sc.runs[0].timeouts_ps.len(), 1);
    assert_eq!(
        sc.runs[0].recovery.sustain_ps,
        sim_kit::time::Time::from_secs(2)
    );
    let r = retry_storm::run_sequential(&sc).unwrap();
    assert!(r.runs.iter().all(|x| x.counts.balanced()));
}

#[test]
fn every_preset_is_a_file_that_reads() {
    for (name, text) in presets::FILES {
        let sc = parse(text, name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sc.name, name);
        assert!(!sc.title.is_empty() && !sc.expectation.is_empty());
    }
    assert_eq!(presets::FILES.len(), presets::NAMES.len());
}

#[test]
fn bad_files_name_file_line_and_key() {
    // (replace this, with that, expected line, key, problem kind)
    let cases: &[(&str, &str, usize, &str)] = &[
        ("think = \"1s\"", "thnk = \"1s\"", 8, "thnk"),
        ("mean = \"50ms\"", "mean = \"50\"", 13, "mean"),
        ("mean = \"50ms\"", "mean = 50", 13, "mean"),
        ("kind = \"closed\"", "kind = \"closd\"", 6, "kind"),
        ("fraction = 0.5", "fraction = 1.5", 19, "fraction"),
        ("end = \"20s\"", "end = \"90s\"", 18, "end"),
        ("spec = \"none\"", "spec = \"exp+budget=250\"", 29, "spec"),
        ("think = \"1s\"", "rate = 5.0", 8, "rate"),
        ("kind = \"partial\"", "kind = \"outage\"", 19, "fraction"),
        ("workers = 10", "workers = 0", 11, "workers"),
        ("horizon = \"60s\"", "horizon = \"60s", 2, "horizon"),
    ];
    for &(from, to, line, key) in cases {
        let text = GOOD.replacen(from, to, 1);
        let e = err(&text);
        assert_eq!(e.file, "s.toml");
        assert_eq!((e.line, e.key.as_str()), (Some(line), key), "{to}: {e}");
        let shown = e.to_string();
        assert_eq!(shown.lines().count(), 1, "{shown}");
        assert!(shown.starts_with(&format!("s.toml:{line}: ")), "{shown}");
    }
    let e = err(&GOOD.replacen("think = \"1s\"\n", "", 1));
    assert_eq!(
        (e.key.as_str(), &e.problem),
        ("think", &FileProblem::Missing)
    );
    let e = err(&GOOD.replacen("[[strategy]]", "[[strategies]]", 2));
    assert!(matches!(e.problem, FileProblem::Toml(_)), "{e}");
    // The second trigger is the wrong one: its lines are named.
    let two = format!(
        "{GOOD}\n[[trigger]]\nkind = \"load-spike\"\nstart = \"0s\"\nend = \"5s\"\nfactor = -1.0\n"
    );
    let e = err(&two);
    assert_eq!((e.line, e.key.as_str()), (Some(36), "factor"), "{e}");
    let e = err(&two.replace("load-spike", "capacity-loss"));
    assert_eq!(e.key, "fraction", "{e}"); // a capacity loss takes a fraction
}

#[test]
fn several_triggers_of_every_kind() {
    let text = format!(
        "{GOOD}\n[[trigger]]\nkind = \"load-spike\"\nstart = \"6s\"\nend = \"8s\"\nfactor = 2.0\n\n[[trigger]]\nkind = \"capacity-loss\"\nstart = \"30s\"\nend = \"40s\"\nfraction = 0.5\n"
    );
    let sc = parse(&text, "s.toml").unwrap();
    assert_eq!(sc.runs[0].triggers.len(), 3);
    assert_eq!(
        sc.runs[0].trigger_window(),
        Some((
            sim_kit::time::Time::from_secs(6),
            sim_kit::time::Time::from_secs(40)
        ))
    );
}

/// The example of mac-sim/README.md (a three-service chain and a capacity loss) is a
/// working scenario, and the error the README shows for it is the one given.
#[test]
fn the_readme_example_runs() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("mac-sim/README.md");
    let start = readme.find("```toml\n# chain.toml").expect("the example") + 8;
    let len = readme[start..].find("```").expect("its end");
    let text = &readme[start..start + len];
    let sc = parse(text, "chain.toml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(sc.runs.len(), 2);
    assert_eq!(sc.runs[0].chain.len(), 2);
    assert!(matches!(
        sc.runs[0].triggers[0].kind,
        retry_storm::config::TriggerKind::CapacityLoss { .. }
    ));
    let r = retry_storm::run_sequential(&sc).unwrap();
    let layers = &r.runs[0].layers;
    assert_eq!(layers.len(), 3);
    // Each layer's retries add to the load below it.
    assert!(layers[2].per_request_during > layers[1].per_request_during);
    assert!(layers[1].per_request_during > layers[0].per_request_during);
    let bad = text.replacen("fraction = 0.5", "fraction = 1.5", 1);
    let e = parse(&bad, "chain.toml").unwrap_err().to_string();
    let shown = readme
        .lines()
        .find_map(|l| l.strip_prefix("mac-sim: error: chain.toml:"))
        .expect("the README's error line");
    assert_eq!(e, format!("chain.toml:{shown}"));
}

#[test]
fn shedding_and_rate_limit_keys() {
    let text = GOOD.replacen(
        "mean = \"50ms\"",
        "mean = \"50ms\"\nqueue_limit = 5\nretry_after = \"2s\"\n[server.rate_limit]\nper_s = 30.0\nburst = 4",
        1,
    );
    let sc = parse(&text, "s.toml").unwrap_or_else(|e| panic!("{e}"));
    let s = &sc.runs[0].server;
    assert_eq!(s.queue_limit, Some(5));
    assert_eq!(s.retry_after_ps, sim_kit::time::Time::from_secs(2));
    assert_eq!(s.rate_limit.map(|r| r.burst), Some(4));
    // Each key of [server.rate_limit] is named with its own line (17 and 18).
    let e = err(&text.replacen("burst = 4", "burst = 0", 1));
    assert_eq!((e.line, e.key.as_str()), (Some(18), "burst"), "{e}");
    assert!(e.to_string().contains("burst 0"), "{e}");
    let e = err(&text.replacen("per_s = 30.0", "per_s = -1.0", 1));
    assert_eq!((e.line, e.key.as_str()), (Some(17), "per_s"), "{e}");
    assert!(
        e.to_string()
            .starts_with("s.toml:17: per_s: rate limit -1 "),
        "{e}"
    );
    let e = err(&text.replacen("workers = 10\n", "", 1));
    assert_eq!((e.line, e.key.as_str()), (Some(13), "queue_limit"), "{e}");
    assert!(
        e.to_string()
            .contains("queue_limit needs a server with workers"),
        "{e}"
    );
    let backlog = text.replacen("queue_limit = 5", "listen_backlog = 5", 1);
    assert_eq!(
        parse(&backlog, "s.toml").unwrap().runs[0]
            .server
            .listen_backlog,
        Some(5)
    );
    // Without workers a listen backlog bounds only what a pause takes in.
    let latency_model = parse(&backlog.replacen("workers = 10\n", "", 1), "s.toml").unwrap();
    assert_eq!(latency_model.runs[0].server.listen_backlog, Some(5));
}

/// The shipped preset is the experiment's defaults; each kind of file read as the
/// other is refused on its `experiment` line; either reads through
/// `parse_experiment`.
#[test]
fn the_preset_and_the_two_kinds_of_file() {
    let preset = retry_storm::presets::CONTENTION_FILE;
    let c = parse_contention(preset, "contention").unwrap();
    assert_eq!(
        c.config,
        retry_storm::contention::ContentionConfig::default()
    );
    assert!(matches!(
        parse_experiment(preset, "contention"),
        Ok(Experiment::Contention(_))
    ));
    let e = parse(preset, "contention").unwrap_err();
    assert_eq!(e.key, "experiment", "{e}");
    assert!(
        e.to_string()
            .contains("this file is a contention experiment, not a storm scenario"),
        "{e}"
    );
    let storm = retry_storm::presets::text("pause").unwrap();
    assert!(matches!(
        parse_experiment(storm, "pause"),
        Ok(Experiment::Storm(_))
    ));
    let marked = format!("experiment = \"storm\"\n{storm}");
    assert!(matches!(
        parse_experiment(&marked, "pause"),
        Ok(Experiment::Storm(_))
    ));
    let e = parse_contention(&marked, "pause").unwrap_err();
    assert_eq!((e.line, e.key.as_str()), (Some(1), "experiment"), "{e}");
    // A misspelt experiment is the storm schema's error, on its line.
    let e = parse_experiment("experiment = \"contend\"\n", "x.toml").unwrap_err();
    assert_eq!((e.line, e.key.as_str()), (Some(1), "experiment"), "{e}");
}
