//! The storm model on a host: the parallel runner gives exactly the engine's
//! sequential results, a scenario over seeds is made of the single runs, and the
//! charts have what they should.

use retry_storm::{ComparisonResult, StormResult, presets, run_sequential};
use retry_storm_host::run_comparison;

const SEEDS: [u64; 3] = [1, 2, 3];

fn scenario(name: &str, seed: u64) -> ComparisonResult {
    let o = presets::Options {
        settings: vec![retry_storm::file::Setting::new("seed", seed.to_string())],
        ..Default::default()
    };
    run_comparison(&presets::scenario(name, &o).unwrap()).unwrap()
}

/// The parallel runner returns exactly what one run after another gives (compared
/// as JSON: undefined ratios are NaN, which is never equal to itself).
#[test]
fn parallel_runs_equal_sequential_runs() {
    use sim_kit::output::json::to_string;
    let sc = presets::scenario("shard", &presets::Options::default()).unwrap();
    let par = run_comparison(&sc).unwrap();
    for (cfg, got) in sc.runs.iter().zip(&par.runs) {
        let one = retry_storm::run(cfg).unwrap();
        assert_eq!(to_string(&one), to_string(got), "{}", cfg.strategy.name);
    }
    assert_eq!(to_string(&par), to_string(&run_sequential(&sc).unwrap()));
}

/// The contention experiment over seeds in parallel is the engine's summary of the
/// seeds run one after another.
#[test]
fn contention_over_seeds_in_parallel_equals_in_order() {
    use retry_storm::contention::{ContentionConfig, over_seeds, run_contention};
    use retry_storm_host::contention::run_contention_seeds;
    let cfg = ContentionConfig {
        clients: vec![5, 10],
        ..ContentionConfig::default()
    };
    let runs: Vec<_> = (0..3)
        .map(|k| cfg.replication(k))
        .map(|c| (c.seed, run_contention(&c).unwrap()))
        .collect();
    assert_eq!(
        run_contention_seeds(&cfg, 3).unwrap(),
        over_seeds(&runs).unwrap()
    );
    assert!(run_contention_seeds(&cfg, 0).is_err());
    assert!(run_contention_seeds(&cfg, 1001).is_err());
}

/// The scenario chart: six panels, one series per strategy, the trigger shaded, and
/// an image with ink in every panel; the contention chart has one line per jitter.
#[test]
fn charts_have_a_line_per_strategy_and_the_trigger_shaded() {
    use retry_storm::contention::{ContentionConfig, run_contention};
    use retry_storm_host::chart::{contention_chart, scenario_chart};
    use sim_host::chart::Figure;
    use sim_host::chart::LegendAt;
    use sim_host::chart::to_rgb;
    let r = scenario("shard", 1);
    let fig = scenario_chart(&r);
    assert_eq!(fig.charts.len(), 6);
    for c in &fig.charts {
        assert_eq!(c.series.len(), 3, "{}", c.title);
        // The legend beside the plot hides no data; a ratio's axis ends at 1.
        assert_eq!(c.legend, LegendAt::Outside, "{}", c.title);
        if c.title.contains("ratio") {
            assert_eq!(c.y.range, Some((0.0, 1.0)), "{}", c.title);
        }
        assert_eq!(c.shades.len(), 1);
        assert_eq!((c.shades[0].from, c.shades[0].to), (20.0, 60.0));
        assert!(c.series.iter().all(|s| !s.points.is_empty()), "{}", c.title);
    }
    let (w, h) = fig.size();
    let rgb = to_rgb(&fig).unwrap();
    assert_eq!(rgb.len(), (w * h * 3) as usize);
    // Each of the six panels has non-white pixels.
    for row in 0..3 {
        for col in 0..2 {
            let y0 = row * (h as usize / 3);
            let x0 = col * (w as usize / 2);
            let inked = (y0..y0 + h as usize / 3).any(|y| {
                (x0..x0 + w as usize / 2).any(|x| {
                    let i = (y * w as usize + x) * 3;
                    rgb[i..i + 3] != [255, 255, 255]
                })
            });
            assert!(inked, "panel {row},{col} is blank");
        }
    }
    let rows = run_contention(&ContentionConfig {
        clients: vec![5, 10],
        ..ContentionConfig::default()
    })
    .unwrap();
    let fig = contention_chart(&rows);
    assert_eq!(fig.charts.len(), 2);
    assert!(fig.charts.iter().all(|c| c.legend == LegendAt::Outside));
    assert!(
        fig.charts
            .iter()
            .all(|c| c.series.len() == retry_storm::contention::KINDS.len())
    );
}

/// Over seeds: the replicated summary is made of exactly the single runs with seeds
/// `seed, seed + 1, ...`.
#[test]
fn seeds_summary_agrees_with_the_single_runs() {
    use retry_storm_host::replicate::run_seeds;
    let sc = presets::scenario("deadline", &presets::Options::default()).unwrap();
    let rep = run_seeds(&sc, 3).unwrap();
    let singles: Vec<ComparisonResult> = SEEDS.iter().map(|&s| scenario("deadline", s)).collect();
    for (i, st) in rep.strategies.iter().enumerate() {
        assert_eq!(st.seeds, SEEDS);
        let runs: Vec<&StormResult> = singles.iter().map(|r| &r.runs[i]).collect();
        let recovered = runs
            .iter()
            .filter(|r| r.summary.recovery.seconds().is_some())
            .count() as u32;
        assert_eq!(st.recovered, recovered, "{}", st.strategy);
        let amp: f64 = runs
            .iter()
            .map(|r| r.summary.during.mean_amplification)
            .sum::<f64>()
            / 3.0;
        assert!((st.during_mean_amplification.mean - amp).abs() < 1e-12);
        assert_eq!(st.events, runs.iter().map(|r| r.events).sum::<u64>());
    }
    // Plain retries never recover, with deadlines every seed does.
    assert_eq!(rep.strategies[0].recovered, 0);
    assert_eq!(rep.strategies[1].recovered, 3);
}
