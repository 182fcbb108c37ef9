//! The sweep library: identical bytes on 1 and 2 threads (with independent and with
//! common random numbers), the seeds of each mode, an interruption through the
//! cancel flag writes nothing, and every sweep and single-run chart is a real image.

use crate::common::InterruptAfter;

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use csma_cd::config::RunConfig;
use csma_cd::sweep::{Axis, RandomNumbers, SweepSpec};
use csma_cd::sweep::{to_csv, to_json};
use csma_cd_host::charts as run_charts;
use csma_cd_host::job::run_observed;
use csma_cd_host::sweep::all_charts;
use csma_cd_host::sweep::{SweepError, SweepOptions, run_sweep};
use sim_host::chart::Figure;
use sim_host::chart::to_rgb;
use sim_kit::progress::Quiet;
use sim_kit::time::Time;

fn spec() -> SweepSpec {
    let mut s = SweepSpec {
        axes: axes(&[
            ("stations", "2,8,32"),
            ("load", "0.3,0.9,saturated"),
            ("frames", "64,1518"),
            ("backoff", "beb,linear"),
        ]),
        replications: 3,
        seed: 42,
        ..SweepSpec::default()
    };
    s.base.duration = Some(Time::from_ms(30));
    s
}

fn axes(lists: &[(&str, &str)]) -> Vec<Axis> {
    lists
        .iter()
        .map(|(k, v)| Axis::parse(k, v).unwrap())
        .collect()
}

fn pool(n: usize) -> rayon::ThreadPool {
    sim_host::runner::pool(n).unwrap()
}

#[test]
fn results_are_byte_identical_on_one_and_two_threads_in_both_seed_modes() {
    let stop = AtomicBool::new(false);
    let run = |s: &SweepSpec, threads: usize| {
        let dir = tempfile::tempdir().unwrap();
        let opts = SweepOptions {
            out_dir: dir.path().to_path_buf(),
            plots: false,
            db: None,
            shard: None,
        };
        let out = pool(threads)
            .install(|| run_sweep(s, &opts, &Quiet, &stop))
            .unwrap();
        assert_eq!(out.points.len(), 36);
        let csv = std::fs::read(dir.path().join("results.csv")).unwrap();
        let json = std::fs::read(dir.path().join("results.json")).unwrap();
        assert_eq!(csv, to_csv(&out.points, s.seed).into_bytes());
        assert_eq!(json, to_json(&out.points, s.seed).into_bytes());
        (csv, json)
    };
    let mut by_mode = Vec::new();
    for mode in [RandomNumbers::Independent, RandomNumbers::Common] {
        let s = SweepSpec {
            random_numbers: mode,
            ..spec()
        };
        let one = run(&s, 1);
        assert!(one == run(&s, 2), "{mode:?}: 1 and 2 threads differ");
        let csv = String::from_utf8(one.0.clone()).unwrap();
        assert!(csv.contains(&format!(",{},", mode.name())), "{mode:?}");
        // Another seed really gives other numbers.
        let other = SweepSpec { seed: 43, ..s };
        assert_ne!(run(&other, 2).0, one.0, "{mode:?}");
        by_mode.push(one);
    }
    assert_ne!(
        by_mode[0].0, by_mode[1].0,
        "the two seed modes gave the same runs"
    );
}

#[test]
fn common_random_numbers_share_seeds_across_points_and_independent_streams_do_not() {
    let s = spec();
    let points = s.validate().unwrap();
    let crn = SweepSpec {
        random_numbers: RandomNumbers::Common,
        ..s.clone()
    };
    for r in 0..3 {
        let ind: HashSet<u64> = points.iter().map(|p| s.run_seed(p, r)).collect();
        assert_eq!(
            ind.len(),
            points.len(),
            "replication {r}: two points share a seed"
        );
        let common: HashSet<u64> = points.iter().map(|p| crn.run_seed(p, r)).collect();
        assert_eq!(common.len(), 1, "replication {r}");
    }
    // A point's seeds depend on its parameters, not on the rest of the grid: a
    // sweep of one of its points gives it the same seeds.
    let one = SweepSpec {
        axes: axes(&[
            ("stations", "8"),
            ("load", "0.9"),
            ("frames", "1518"),
            ("backoff", "beb"),
        ]),
        ..s.clone()
    };
    let p = &one.validate().unwrap()[0];
    let same = points.iter().find(|q| *q == p).unwrap();
    assert_eq!(one.run_seed(p, 2), s.run_seed(same, 2));
}

#[test]
fn saturated_points_have_no_total_delay_and_poisson_points_do() {
    let s = SweepSpec {
        axes: axes(&[("stations", "16"), ("load", "0.5,saturated")]),
        replications: 2,
        ..spec()
    };
    let dir = tempfile::tempdir().unwrap();
    let opts = SweepOptions {
        out_dir: dir.path().to_path_buf(),
        plots: false,
        db: None,
        shard: None,
    };
    let out = run_sweep(&s, &opts, &Quiet, &AtomicBool::new(false)).unwrap();
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("results.json")).unwrap()).unwrap();
    for (row, p) in json.as_array().unwrap().iter().zip(&out.points) {
        let total = &row["total_delay_mean_us"];
        let access = row["access_delay_mean_us"].as_f64().unwrap();
        if p.load().is_some() {
            // Queueing included: never below the access delay.
            assert!(total.as_f64().unwrap() >= access, "{row}");
            assert!(
                row["goodput_mbps"].as_f64().unwrap() < row["throughput_mbps"].as_f64().unwrap()
            );
        } else {
            assert!(
                total.is_null() && row["total_delay_p99_us"].is_null(),
                "{row}"
            );
        }
        let drops = row["drop_rate_per_frame"].as_f64().unwrap();
        let parts = row["drop_excessive_collisions_per_frame"].as_f64().unwrap()
            + row["drop_queue_overflow_per_frame"].as_f64().unwrap();
        assert!((drops - parts).abs() < 1e-12, "{row}");
    }
    let table = csma_cd_host::sweep::table(&out.points);
    assert!(table.lines().next().unwrap().contains("dropped"), "{table}");
    let saturated = table.lines().find(|l| l.contains("saturated")).unwrap();
    assert!(
        saturated.contains(" - ") && saturated.contains('%'),
        "{saturated}"
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
    let charts = all_charts(&out.points);
    let names: Vec<&str> = charts.iter().map(|c| c.0).collect();
    assert_eq!(
        names,
        [
            "utilisation_vs_stations",
            "delay_vs_load",
            "access_delay_vs_load",
            "throughput_vs_load",
            "drops_vs_load",
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
    let chart = |stem: &str| &charts.iter().find(|c| c.0 == stem).unwrap().1;
    let curves = 2 * 2 * 3; // two algorithms x two frame sizes x three station counts
    let delay = chart("delay_vs_load");
    // Total delay: mean and p99 per curve; the saturated points are left out, and
    // the chart says why, and states the queue limit.
    assert_eq!(delay.series.len(), curves * 2);
    let note = delay.note.as_deref().unwrap();
    assert!(
        note.contains("Queue limit 100 frames per station"),
        "{note}"
    );
    assert!(note.contains("Saturated points are not drawn"), "{note}");
    assert!(delay.y.label.contains("queueing included"));
    // Access delay, throughput and drops draw each saturated point as a line at its
    // level across the loads.
    let saturated = |c: &sim_host::chart::LineChart| {
        c.series
            .iter()
            .filter(|s| s.name.ends_with("saturated"))
            .inspect(|s| assert_eq!(s.points.len(), 2))
            .count()
    };
    let access = chart("access_delay_vs_load");
    assert_eq!(
        (access.series.len(), saturated(access)),
        (curves * 3, curves)
    );
    let tput = chart("throughput_vs_load");
    // Throughput, goodput and saturated per curve, and the offered load.
    assert_eq!(
        (tput.series.len(), saturated(tput)),
        (curves * 3 + 1, curves)
    );
    let drops = chart("drops_vs_load");
    assert_eq!((drops.series.len(), saturated(drops)), (curves * 3, curves));
    assert!(
        drops
            .note
            .as_deref()
            .unwrap()
            .contains("queue limit 100 frames")
    );

    let cfg = RunConfig {
        stations: 6,
        duration: Time::from_ms(200),
        ..RunConfig::default()
    };
    let (r, per_station) = run_observed(&cfg, &AtomicBool::new(false), &Quiet)
        .unwrap()
        .unwrap();
    assert_real_image("attempts", &run_charts::attempts_histogram(&r));
    let ps = run_charts::per_station_throughput(&r, &per_station);
    assert_eq!(ps.bars.len(), 6);
    // Stations are numbered 0..N-1, as in the reports and traces.
    let xs: Vec<f64> = ps.bars.iter().map(|b| b.0).collect();
    assert_eq!(xs, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    assert!(ps.x_label.contains("0..5"), "{}", ps.x_label);
    assert_eq!(ps.y_label, "throughput (Mb/s)");
    let total: f64 = ps.bars.iter().map(|b| b.1).sum();
    assert!((total - r.throughput_mbps).abs() < 1e-9 * r.throughput_mbps.max(1.0));
    assert_real_image("per-station", &ps);
    assert_real_image("backoff", &run_charts::backoff_vs_expected(&r));
    let timeline = csma_cd::exact::CaptureTimeline::new(&cfg, 50);
    let (_, timeline) = csma_cd::exact::run_with_observer(&cfg, timeline).unwrap();
    let capture = run_charts::capture_timeline(&r, &timeline);
    // The busiest station of each window, the station with the most successes of the
    // run (named in the title, above 2 stations) and the fair share; a share's axis
    // ends at 1.
    assert_eq!(capture.series.len(), 3);
    let (followed, most) = timeline.busiest_station().unwrap();
    assert!(
        capture.title.contains(&format!(
            "share of station {followed}, the one with the most successes ({most} of"
        )),
        "{}",
        capture.title
    );
    assert_eq!(capture.series[1].name, format!("station {followed}"));
    assert_eq!(capture.y.range, Some((0.0, 1.0)));
    assert_real_image("capture", &capture);

    // Thousands of stations are grouped into at most 512 bars of the mean per station.
    let many = RunConfig {
        stations: 2000,
        duration: Time::from_ms(20),
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
    assert_eq!(ps.bars[0].0, 0.0);
    assert_real_image("per-station grouped", &ps);
}
