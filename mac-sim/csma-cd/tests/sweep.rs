//! The sweep library: identical bytes on 1 and 2 threads, an interruption through the
//! cancel flag writes nothing, and every sweep and single-run chart is a real image.

mod common;
use common::InterruptAfter;

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use csma_cd::config::{BackoffAlgorithm, FrameSizes, RunConfig, Traffic};
use csma_cd::report::charts as run_charts;
use csma_cd::sweep::charts as sweep_charts;
use csma_cd::sweep::execute::{SweepError, SweepOptions, run_sweep};
use csma_cd::sweep::job::run_observed;
use csma_cd::sweep::spec::SweepSpec;
use csma_cd::sweep::summary::{to_csv, to_json};
use sim_kit::chart::figure::Figure;
use sim_kit::chart::save::to_rgb;
use sim_kit::runner::progress::Quiet;
use sim_kit::time::Time;

fn spec() -> SweepSpec {
    let mut s = SweepSpec {
        stations: vec![2, 8, 32],
        frames: vec![FrameSizes::Fixed(64), FrameSizes::Fixed(1518)],
        loads: vec![
            Traffic::Poisson { load: 0.3 },
            Traffic::Poisson { load: 0.9 },
            Traffic::Saturated,
        ],
        backoffs: vec![
            BackoffAlgorithm::Beb,
            BackoffAlgorithm::Polynomial { degree: 1 },
        ],
        replications: 3,
        seed: 42,
        ..SweepSpec::default()
    };
    s.base.duration_ps = Time::from_ms(30);
    s
}

fn pool(n: usize) -> rayon::ThreadPool {
    sim_kit::runner::threads::pool(n).unwrap()
}

#[test]
fn results_are_byte_identical_on_one_and_two_threads() {
    let s = spec();
    let stop = AtomicBool::new(false);
    let mut outputs = Vec::new();
    for threads in [1, 2] {
        let dir = tempfile::tempdir().unwrap();
        let opts = SweepOptions {
            out_dir: dir.path().to_path_buf(),
            plots: false,
            db: None,
            shard: None,
        };
        let out = pool(threads)
            .install(|| run_sweep(&s, &opts, &Quiet, &stop))
            .unwrap();
        assert_eq!(out.points.len(), 36);
        let csv = std::fs::read(dir.path().join("results.csv")).unwrap();
        let json = std::fs::read(dir.path().join("results.json")).unwrap();
        assert_eq!(csv, to_csv(&out.points, s.seed).into_bytes());
        assert_eq!(json, to_json(&out.points, s.seed).into_bytes());
        outputs.push((csv, json));
    }
    assert!(outputs[0] == outputs[1], "1 and 2 threads differ");
    // And another seed really gives other numbers.
    let other = SweepSpec { seed: 43, ..s };
    let dir = tempfile::tempdir().unwrap();
    let opts = SweepOptions {
        out_dir: dir.path().to_path_buf(),
        plots: false,
        db: None,
        shard: None,
    };
    run_sweep(&other, &opts, &Quiet, &stop).unwrap();
    assert_ne!(
        std::fs::read(dir.path().join("results.csv")).unwrap(),
        outputs[0].0
    );
}

#[test]
fn an_interrupted_sweep_writes_no_results() {
    let s = spec();
    for (after, pre_raised) in [(0, true), (5, false)] {
        let dir = tempfile::tempdir().unwrap();
        let opts = SweepOptions {
            out_dir: dir.path().join("out"),
            plots: true,
            db: None,
            shard: None,
        };
        let flag = AtomicBool::new(pre_raised);
        let r =
            pool(2).install(|| run_sweep(&s, &opts, &InterruptAfter { flag: &flag, after }, &flag));
        match r {
            Err(e @ SweepError::Interrupted { .. }) => {
                let msg = e.to_string();
                assert!(
                    msg.contains("of 108 runs; no results were written"),
                    "{msg}"
                );
            }
            other => panic!("expected an interruption, got {other:?}"),
        }
        // Nothing at all was left: not the directory, not a staging folder.
        assert!(!opts.out_dir.exists(), "the output directory appeared");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

/// Many colours (anti-aliased text, several series) and a sensible share of ink.
fn assert_real_image(name: &str, fig: &impl Figure) {
    let rgb = to_rgb(fig).unwrap();
    let px: Vec<[u8; 3]> = rgb.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    let colours: HashSet<[u8; 3]> = px.iter().copied().collect();
    let ink = px.iter().filter(|&&p| p != [255, 255, 255]).count() as f64 / px.len() as f64;
    assert!(colours.len() > 40, "{name}: {} colours", colours.len());
    assert!((0.02..0.7).contains(&ink), "{name}: ink {ink}");
}

#[test]
fn every_chart_of_a_sweep_and_of_a_run_is_a_real_image() {
    let s = spec();
    let dir = tempfile::tempdir().unwrap();
    let opts = SweepOptions {
        out_dir: dir.path().to_path_buf(),
        plots: true,
        db: None,
        shard: None,
    };
    let out = run_sweep(&s, &opts, &Quiet, &AtomicBool::new(false)).unwrap();
    let charts = sweep_charts::all(&out.points);
    let names: Vec<&str> = charts.iter().map(|c| c.0).collect();
    assert_eq!(
        names,
        [
            "utilisation_vs_stations",
            "delay_vs_load",
            "backoff_vs_expected",
            "fairness_vs_stations"
        ]
    );
    for (name, chart) in &charts {
        assert_real_image(name, chart);
        // Every curve has points; titles and axes say what they show with units.
        assert!(chart.series.iter().all(|s| !s.points.is_empty()), "{name}");
        assert!(
            chart.y.label.contains('(') && !chart.x.label.is_empty(),
            "{name}"
        );
        assert!(dir.path().join(format!("{name}.png")).is_file());
    }
    let delay = &charts[1].1;
    // Two algorithms x two frame sizes x three station counts, mean and p99 each.
    assert_eq!(delay.series.len(), 2 * 2 * 3 * 2);

    let cfg = RunConfig {
        stations: 6,
        duration_ps: Time::from_ms(200),
        ..RunConfig::default()
    };
    let (r, per_station) = run_observed(&cfg, &AtomicBool::new(false), &Quiet)
        .unwrap()
        .unwrap();
    assert_real_image("attempts", &run_charts::attempts_histogram(&r));
    let ps = run_charts::per_station_throughput(&r, &per_station);
    assert_eq!(ps.bars.len(), 6);
    assert_eq!(ps.y_label, "throughput (Mb/s)");
    let total: f64 = ps.bars.iter().map(|b| b.1).sum();
    assert!((total - r.throughput_mbps).abs() < 1e-9 * r.throughput_mbps.max(1.0));
    assert_real_image("per-station", &ps);
    assert_real_image("backoff", &run_charts::backoff_vs_expected(&r));

    // Thousands of stations are grouped into at most 512 bars of the mean per station.
    let many = RunConfig {
        stations: 2000,
        duration_ps: Time::from_ms(20),
        ..RunConfig::default()
    };
    let (r, per_station) = run_observed(&many, &AtomicBool::new(false), &Quiet)
        .unwrap()
        .unwrap();
    let ps = run_charts::per_station_throughput(&r, &per_station);
    assert_eq!(ps.bars.len(), 500); // groups of 4
    // 2000 stations share 10 Mb/s: a few kb/s each.
    assert_eq!(ps.y_label, "throughput (kb/s)");
    let total: f64 = ps.bars.iter().map(|b| b.1 * 4.0 / 1e3).sum();
    assert!((total - r.throughput_mbps).abs() < 1e-9 * r.throughput_mbps.max(1.0));
    assert!(ps.x_label.contains("group of 4"));
    assert_real_image("per-station grouped", &ps);
}
