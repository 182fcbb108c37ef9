//! What the storm report says: defaults that fit a short scenario, the recovery
//! verdict of an idle server and of one still owed a backlog of retries, `--clients`
//! against `--sweep clients`, the load that reaches the server through a chain, and
//! the multi-seed result with every seed's.

use retry_storm::comparison::replication;
use retry_storm::file::parse;
use retry_storm::recovery::{Drain, Recovery};
use retry_storm::replicate::Replicated;
use retry_storm::{presets, report, run, sweep};

/// A short scenario: an outage from 3 s to 6 s in 10 s, no warm-up or sustain given.
const SHORT: &str = r#"
horizon = "10s"
[load]
kind = "open"
rate = 50.0
clients = 10
[server]
workers = 20
service = "exponential"
mean = "50ms"
[[trigger]]
kind = "outage"
start = "3s"
end = "6s"
[[strategy]]
spec = "exp-full+retries=3"
"#;

#[test]
fn defaults_that_do_not_fit_are_scaled_and_said_written_ones_are_refused() {
    let sc = parse(SHORT, "short.toml").unwrap();
    let r = run(&sc.runs[0]).unwrap();
    // Warm-up: half of the 3 s before the trigger, on whole bins: 1 s. Sustain: half
    // of the 4 bins after the trigger: 2 s.
    assert_eq!(r.config.warmup_ps.as_secs_f64(), 1.0);
    assert_eq!(r.config.recovery.sustain_ps.as_secs_f64(), 2.0);
    let keys: Vec<&str> = r.summary.fitted.iter().map(|f| f.key).collect();
    assert_eq!(keys, ["warmup", "recovery.sustain"]);
    assert!(r.summary.before.success_ratio.is_finite());
    let text = report::report(&sc.result(vec![r]));
    assert!(
        text.contains(
            "note: warmup not set; its default 5 s does not fit in the 3 s before the first trigger (or in the horizon), so 1 s is used\n"
        ),
        "{text}"
    );
    assert!(text.contains("note: recovery.sustain not set; its default 5 s does not fit in the 4 s after the last trigger, so 2 s is used\n"));
    // The same values written: refused, naming the key and its line.
    let e = parse(
        &SHORT.replace("horizon = \"10s\"", "horizon = \"10s\"\nwarmup = \"5s\""),
        "short.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("short.toml:3: warmup: warm-up 5 s leaves no baseline"),
        "{e}"
    );
    let e = parse(
        &format!("{SHORT}[recovery]\nsustain = \"5s\"\n"),
        "short.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("short.toml:18: sustain: recovery sustain 5 s is longer than the 4 s"),
        "{e}"
    );
    // A preset's own values fit: nothing scaled, nothing said.
    let p = presets::scenario("pause", &presets::Options::default()).unwrap();
    let r = run(&p.runs[0]).unwrap();
    assert!(r.summary.fitted.is_empty());
    assert!(!report::report(&p.result(vec![r])).contains("note:"));
}

#[test]
fn an_idle_server_recovers_and_a_backlog_of_retries_delays_only_the_drain() {
    // One request every few seconds: most bins after the outage see nothing end.
    let idle = SHORT
        .replace("horizon = \"10s\"", "horizon = \"60s\"")
        .replace("rate = 50.0", "rate = 0.2")
        .replace("start = \"3s\"", "start = \"20s\"")
        .replace("end = \"6s\"", "end = \"30s\"")
        .replace("exp-full+retries=3", "none");
    let sc = parse(&idle, "idle.toml").unwrap();
    let r = run(&sc.runs[0]).unwrap();
    assert!(r.series[30..].iter().any(|b| b.completed == 0));
    assert!(
        matches!(r.summary.recovery, Recovery::Recovered { .. }),
        "{}",
        r.summary.verdict
    );
    // Clients that sleep 20 s before each retry come back after the outage: the
    // server is calm at once, but the backlog of retrying requests is not. The
    // server's recovery is reported at once, the clients' drain 10 s or more later.
    let slow = idle
        .replace("rate = 0.2", "rate = 50.0")
        .replace("\"none\"", "\"fixed=20s+retries=3\"");
    let sc = parse(&slow, "slow.toml").unwrap();
    let r = run(&sc.runs[0]).unwrap();
    let after = &r.series[30..];
    assert!(after[0].concurrency < r.summary.concurrency_threshold);
    assert!(after[0].retrying > r.summary.retrying_threshold);
    assert_eq!(r.summary.recovery, Recovery::Recovered { after_s: 0.0 });
    match r.summary.drain {
        Drain::Drained { after_s } => assert!(after_s >= 10.0, "{after_s}"),
        other => panic!("{other:?}"),
    }
}

/// The server's recovery does not wait for clients that sleep on their backoff: on
/// `waves` full jitter's server is back no later than without jitter (the verdict
/// read 9.1 s against 5.5 s when it waited for the drain), and the drain is its own
/// figure.
#[test]
fn full_jitter_recovers_the_server_no_later_than_no_jitter_on_waves() {
    let sc = presets::scenario("waves", &presets::Options::default()).unwrap();
    let runs: Vec<_> = sc.runs.iter().map(|c| run(c).unwrap()).collect();
    let (plain, full) = (&runs[0].summary, &runs[1].summary);
    let (p, f) = (
        plain.recovery.seconds().unwrap(),
        full.recovery.seconds().unwrap(),
    );
    assert!(f <= p, "full jitter {f} s, no jitter {p} s");
    assert!(
        p <= 1.0,
        "the server is back within a second of the outage: {p} s"
    );
    // The clients' backlog drains later than the server recovers.
    let d = full.drain.seconds().unwrap();
    assert!(d > f, "drained {d} s, recovered {f} s");
}

#[test]
fn clients_flag_and_clients_sweep_give_the_same_runs() {
    for name in ["pause", "partial", "budget-scope"] {
        let flag = presets::scenario(
            name,
            &presets::Options {
                clients: Some(7),
                ..Default::default()
            },
        )
        .unwrap();
        let src = presets::Source::preset(name).unwrap();
        let spec = sweep::parse_axis("clients=7").unwrap();
        let (_, swept) = sweep::plan(&src, &presets::Options::default(), &spec).unwrap();
        assert_eq!(flag.runs, swept, "{name}");
    }
}

/// A swept key of the file at each value gives the runs of the scenario with the key
/// set to that value, and only the key differs from the scenario's own runs.
#[test]
fn a_swept_key_gives_the_runs_of_the_key_set() {
    use retry_storm::file::Setting;
    let src = presets::Source::preset("pause").unwrap();
    let none = presets::Options::default();
    let base = src.scenario(&none).unwrap();
    let spec = sweep::parse_axis("trigger.end=25s,35s").unwrap();
    let (_, swept) = sweep::plan(&src, &none, &spec).unwrap();
    assert_eq!(swept.len(), 2 * base.runs.len());
    for (i, end) in ["25s", "35s"].into_iter().enumerate() {
        let set = src
            .scenario(&none.with(Setting::new("trigger.end", end)))
            .unwrap();
        let at = &swept[i * base.runs.len()..(i + 1) * base.runs.len()];
        assert_eq!(set.runs, at, "{end}");
        for (r, b) in at.iter().zip(&base.runs) {
            let mut r = r.clone();
            assert_ne!(r.triggers[0].end_ps, b.triggers[0].end_ps);
            r.triggers[0].end_ps = b.triggers[0].end_ps;
            r.recovery = b.recovery;
            assert_eq!(
                &r, b,
                "only the trigger's end (and the recovery rule fitted to it) differ"
            );
        }
    }
}

#[test]
fn a_chain_reports_the_load_that_reaches_the_server() {
    let sc = presets::scenario("layers", &presets::Options::default()).unwrap();
    let r = run(&sc.runs[0]).unwrap();
    let s = &r.summary;
    let layers = s.during.layer_attempts_per_s.len();
    assert_eq!(layers, 3);
    // The server sees the last layer's attempts, more than the clients send.
    let last = s.during.layer_attempts_per_s[layers - 1];
    assert_eq!(s.during.server_attempts_per_s, last);
    assert!(last > 2.0 * s.during.attempts_per_s, "{last}");
    assert!(s.load_during > s.during.attempts_per_s / s.before.attempts_per_s);
    assert!(!s.after.layer_attempts_per_s.is_empty());
    assert_eq!(r.series[25].layer_attempts_per_s.len(), 3);
    let text = report::report(&sc.result(vec![r]));
    assert!(text.contains("clients -> api ~"), "{text}");
}

#[test]
fn many_seeds_keep_every_seed_and_the_series_columns() {
    let sc = presets::scenario("partial", &presets::Options::default()).unwrap();
    let grid: Vec<Vec<_>> = sc
        .runs
        .iter()
        .map(|c| (0..2).map(|k| run(&replication(c, k)).unwrap()).collect())
        .collect();
    let r = Replicated::from_grid(&sc, &grid);
    // Each seed's result is what that one seed gives alone.
    let o = presets::Options {
        settings: vec![retry_storm::file::Setting::new("seed", (2).to_string())],
        ..Default::default()
    };
    let alone = retry_storm::run_sequential(&presets::scenario("partial", &o).unwrap()).unwrap();
    // As JSON: an undefined figure (NaN) is unequal to itself, its `null` is not.
    let as_json = sim_kit::output::json::to_string::<retry_storm::ComparisonResult>;
    assert_eq!(as_json(&r.per_seed[1]), as_json(&alone));
    let json = sim_kit::output::json::to_string(&r);
    assert!(json.contains("\"per_seed\""));
    // The series: the single-seed columns, and seed 2's lines are its own.
    let many = report::replicated_series_csv(&r);
    let one = report::series_csv(&alone);
    assert_eq!(many.lines().next(), one.lines().next());
    assert!(many.contains(&one[one.find('\n').unwrap() + 1..]));
    assert_eq!(many.lines().count(), 1 + 2 * (one.lines().count() - 1));
}
