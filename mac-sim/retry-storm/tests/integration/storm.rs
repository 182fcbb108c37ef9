//! The qualitative outcome of every `mac-sim storm` scenario, over several seeds.
//!
//! Each assertion compares strategies within a seed, or a figure against a wide
//! margin around its theoretical value, so it holds for any seed, not just the ones
//! run here (seeds 1 to 3). The margins are stated next to each check; the measured
//! values they guard (seed 1, from `mac-sim storm --scenario NAME`) are quoted so a
//! reader can see how much room there is.

use retry_storm::metrics::BinRow;
use retry_storm::recovery::Recovery;
use retry_storm::{ComparisonResult, StormResult, presets, run_sequential};
use sim_kit::time::Time;

const SEEDS: [u64; 3] = [1, 2, 3];

fn scenario(name: &str, seed: u64) -> ComparisonResult {
    let o = presets::Options {
        settings: vec![retry_storm::file::Setting::new("seed", (seed).to_string())],
        ..Default::default()
    };
    run_sequential(&presets::scenario(name, &o).unwrap()).unwrap()
}

fn by<'a>(r: &'a ComparisonResult, name: &str) -> &'a StormResult {
    r.runs
        .iter()
        .find(|x| x.strategy == name)
        .unwrap_or_else(|| panic!("no strategy {name}"))
}

fn trigger_bins(run: &StormResult) -> Vec<&BinRow> {
    let (start, end) = run.config.trigger_window().unwrap();
    let s = |t: Time| t.as_secs_f64();
    run.series
        .iter()
        .filter(|b| b.t_s >= s(start) && b.t_s < s(end))
        .collect()
}

#[test]
fn pause_fixed_interval_is_metastable_full_jitter_recovers() {
    for seed in SEEDS {
        let r = scenario("pause", seed);
        let fixed = by(&r, "fixed 100 ms");
        let jitter = by(&r, "exp + full jitter");
        // Fixed: 1000 clients / (1 s timeout + 100 ms) ≈ 909 attempts/s against 400/s
        // of capacity: the queue only grows (seed 1: 45 000 requests queued at 120 s).
        assert_eq!(fixed.summary.recovery, Recovery::Metastable, "seed {seed}");
        assert!(
            fixed.summary.after.concurrency > 100.0 * fixed.summary.before.concurrency,
            "seed {seed}: {:?}",
            fixed.summary.after
        );
        assert!(fixed.summary.verdict.contains("metastable"));
        // Full jitter: recovered 20 s after the pause (seed 1); allow up to 60 s.
        let after = jitter.summary.recovery.seconds();
        assert!(after.is_some_and(|s| s <= 60.0), "seed {seed}: {after:?}");
    }
}

#[test]
fn open_loop_outage_amplifies_four_times_backoff_only_delays_it() {
    for seed in SEEDS {
        let r = scenario("outage-open", seed);
        let none = by(&r, "no retries");
        let immediate = by(&r, "3 immediate retries");
        let exp = by(&r, "3 retries, exp 1 s");
        // Without retries nothing is amplified; with 3 retries every failing request
        // is tried 4 times (seed 1: 1.00 and 4.00).
        assert!((none.summary.during.mean_amplification - 1.0).abs() < 0.02);
        assert!((immediate.summary.during.mean_amplification - 4.0).abs() < 0.1);
        // Backoff reaches the same 4x in the second half of the 30 s outage ...
        let late = |run: &StormResult| {
            let bins = trigger_bins(run);
            let half = &bins[bins.len() / 2..];
            let (a, o): (f64, f64) = half.iter().fold((0.0, 0.0), |(a, o), b| {
                (a + b.attempts_per_s, o + b.offered_per_s)
            });
            a / o
        };
        assert!(late(exp) > 3.8, "seed {seed}: {}", late(exp));
        // ... but later: its first bin at 3.5x comes 1 + 2 + 4 = 7 s after the outage
        // starts (no jitter); immediate retries are there in the first bin.
        let first_at = |run: &StormResult| {
            trigger_bins(run)
                .iter()
                .position(|b| b.amplification >= 3.5)
                .unwrap()
        };
        assert_eq!(first_at(immediate), 0, "seed {seed}");
        assert!(first_at(exp) >= 5, "seed {seed}: {}", first_at(exp));
    }
}

/// Coefficient of variation of attempts per bin over the second half of the trigger,
/// computed here from the series as a check of the summary's figure.
fn late_cv(run: &StormResult) -> f64 {
    let bins = trigger_bins(run);
    let half: Vec<f64> = bins[bins.len() / 2..]
        .iter()
        .map(|b| b.attempts_per_s)
        .collect();
    let n = half.len() as f64;
    let mean = half.iter().sum::<f64>() / n;
    let var = half.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    let cv = var.sqrt() / mean;
    assert!((cv - run.summary.during.attempts_cv).abs() < 1e-9);
    cv
}

#[test]
fn no_jitter_retries_in_waves_full_jitter_is_smooth() {
    for seed in SEEDS {
        let r = scenario("waves", seed);
        let plain = late_cv(by(&r, "exp, no jitter"));
        let full = late_cv(by(&r, "exp + full jitter"));
        // Coefficient of variation of attempts per 100 ms bin in the second half of
        // the outage (seed 1: 3.6 without jitter, 0.22 with): synchronised waves are
        // spikes with silence between them; with full jitter the count per bin is
        // Poisson-like (about 20 per bin: CV about 1/sqrt(20) = 0.22).
        assert!(plain > 1.5, "seed {seed}: {plain}");
        assert!(full < 0.6, "seed {seed}: {full}");
        assert!(plain > 4.0 * full, "seed {seed}: {plain} vs {full}");
    }
}

#[test]
fn budget_and_retry_breaker_hold_amplification_and_recover_sooner() {
    for seed in SEEDS {
        let r = scenario("budget", seed);
        let plain = by(&r, "3 retries");
        for name in ["3 retries + budget 10 %", "3 retries + retry breaker 10 %"] {
            let g = by(&r, name);
            // Seed 1: 3.4x for plain retries, 1.3x (budget) and 1.1x (breaker).
            assert!(plain.summary.during.mean_amplification > 2.5, "seed {seed}");
            assert!(
                g.summary.during.mean_amplification < 1.5,
                "seed {seed} {name}: {}",
                g.summary.during.mean_amplification
            );
            // Recovery: seed 1 took 29 s with plain retries, 3-4 s with a guard.
            let plain_s = plain.summary.recovery.seconds().unwrap_or(f64::INFINITY);
            let g_s = g.summary.recovery.seconds().unwrap();
            assert!(
                g_s <= 10.0 && g_s + 10.0 <= plain_s,
                "seed {seed} {name}: {g_s} vs {plain_s}"
            );
        }
    }
}

#[test]
fn partial_failure_budget_and_breaker_lower_client_success() {
    for seed in SEEDS {
        let r = scenario("partial", seed);
        let ok = |n: &str| by(&r, n).summary.during.success_ratio;
        let plain = ok("3 retries");
        let budget = ok("3 retries + budget 10 %");
        let breaker = ok("3 retries + retry breaker 10 %");
        // Theory: 1 − 0.3^4 = 0.992 with all retries; the breaker (30 % > 10 %) stops
        // retrying: about 0.70; the budget allows about 0.2 retries per request: about
        // 0.84. Seed 1: 0.991, 0.842, 0.704.
        assert!(plain > 0.97, "seed {seed}: {plain}");
        assert!(budget < plain - 0.05, "seed {seed}: {budget}");
        assert!(breaker < 0.8 && breaker > 0.6, "seed {seed}: {breaker}");
    }
}

#[test]
fn shard_breaker_at_ten_percent_cuts_everyone_off_at_fifty_it_does_not_trip() {
    for seed in SEEDS {
        let r = scenario("shard", seed);
        let ok = |n: &str| by(&r, n).summary.during.success_ratio;
        // One shard of five fails: 80 % success without a breaker (seed 1: 0.800).
        let none = ok("no breaker");
        assert!((none - 0.8).abs() < 0.03, "seed {seed}: {none}");
        // 20 % errors trip a 10 % breaker: healthy shards are cut off too (0.18).
        assert!(
            ok("breaker 10 %") < 0.5,
            "seed {seed}: {}",
            ok("breaker 10 %")
        );
        // A 50 % breaker never trips: the same success as without (0.800).
        assert!((ok("breaker 50 %") - none).abs() < 0.01, "seed {seed}");
        assert_eq!(by(&r, "breaker 50 %").counts.breaker_open, 0);
        assert!(by(&r, "breaker 10 %").counts.breaker_open > 1000);
    }
}

#[test]
fn deadline_propagation_shortens_recovery() {
    for seed in SEEDS {
        let r = scenario("deadline", seed);
        let plain = by(&r, "3 retries");
        let deadline = by(&r, "3 retries + deadline");
        // Seed 1: plain retries never recover (the server works on abandoned requests
        // for up to 60 s each); with deadlines it recovers 2 s after the pause.
        let plain_s = plain.summary.recovery.seconds().unwrap_or(f64::INFINITY);
        let d = deadline.summary.recovery.seconds().unwrap();
        assert!(
            d <= 10.0 && d + 20.0 <= plain_s,
            "seed {seed}: {d} vs {plain_s}"
        );
        assert!(deadline.counts.cancelled + deadline.counts.expired > 0);
        assert_eq!(plain.counts.cancelled + plain.counts.expired, 0);
    }
}

#[test]
fn contention_jitter_cuts_calls_and_time() {
    use retry_storm::contention::{ContentionConfig, run_contention};
    for seed in SEEDS {
        let cfg = ContentionConfig {
            clients: vec![50],
            seed,
            ..ContentionConfig::default()
        };
        let rows = run_contention(&cfg).unwrap();
        let get = |j: &str| rows.iter().find(|r| r.jitter == j).unwrap();
        // Without jitter every round has exactly one winner: 50 · 51 / 2 calls.
        assert_eq!(get("no-jitter").calls, 1275);
        // With any jitter kind, under a third of that (seed 1: 180 to 233).
        for j in ["full", "equal", "decorrelated"] {
            assert!(get(j).calls * 3 < 1275, "seed {seed} {j}: {}", get(j).calls);
            assert!(get(j).completion_ms < get("no-jitter").completion_ms / 5.0);
        }
    }
}

#[test]
fn contention_stops_on_the_cancel_flag_and_runs_the_same_in_slices() {
    use retry_storm::StormError;
    use retry_storm::contention::{ContentionConfig, run_contention_with, run_one};
    use std::sync::atomic::AtomicBool;
    let cfg = ContentionConfig {
        clients: vec![200],
        ..ContentionConfig::default()
    };
    assert_eq!(
        run_contention_with(&cfg, &AtomicBool::new(true)),
        Err(StormError::Interrupted)
    );
    // The slices (one millisecond of simulated time) change nothing: without
    // jitter every round still has exactly one winner, 200 · 201 / 2 calls.
    let (calls, _) = run_one(&cfg, None, 200).unwrap();
    assert_eq!(calls, 200 * 201 / 2);
}

#[test]
fn same_seed_same_result_other_seed_differs() {
    let a = scenario("budget", 7);
    let b = scenario("budget", 7);
    let c = scenario("budget", 8);
    let json = |r: &ComparisonResult| sim_kit::output::json::to_string(r);
    assert_eq!(json(&a), json(&b));
    assert_ne!(json(&a), json(&c));
}

/// Every preset, every strategy: logical requests are conserved, and the series adds
/// up to the counters.
#[test]
fn requests_are_conserved_in_every_preset() {
    for name in presets::NAMES {
        let r = scenario(name, 4);
        for run in &r.runs {
            let c = &run.counts;
            assert!(c.balanced(), "{name} / {}: {c:?}", run.strategy);
            let bin_s = run.config.bin_ps.as_secs_f64();
            let offered: f64 = run.series.iter().map(|b| b.offered_per_s * bin_s).sum();
            let attempts: f64 = run.series.iter().map(|b| b.attempts_per_s * bin_s).sum();
            assert!(
                (offered - c.offered as f64).abs() < 0.5,
                "{name}: {offered} vs {c:?}"
            );
            assert!(
                (attempts - c.attempts as f64).abs() < 0.5,
                "{name}: {attempts}"
            );
            let ended: u64 = run.series.iter().map(|b| b.completed).sum();
            assert_eq!(ended, c.succeeded + c.failed(), "{name} / {}", run.strategy);
        }
    }
}

/// The load and timeout variants no preset uses: a cap on active clients turns
/// arrivals away while the server is paused, timeouts drawn from a list all occur,
/// and a total request deadline ends requests early.
#[test]
fn capped_clients_timeout_lists_and_request_deadlines() {
    use retry_storm::config::Load;
    use retry_storm::run;
    use retry_storm::strategy::Strategy;
    let sc = presets::scenario("budget", &presets::Options::default()).unwrap();
    let mut cfg = sc.runs[0].clone();
    cfg.load = Load::Capped {
        rate_per_s: 100.0,
        max_active: 50,
        when_busy: retry_storm::config::WhenBusy::TurnAway,
    };
    cfg.timeouts_ps = vec![Time::from_ms(100), Time::from_ms(200), Time::from_ms(300)];
    cfg.strategy = Strategy::parse("fixed=50ms+deadline=1s").unwrap();
    let r = run(&cfg).unwrap();
    let c = r.counts;
    assert!(c.balanced(), "{c:?}");
    // During the 10 s pause each of the 50 clients is busy for its 1 s deadline, so
    // they take about 50 of the 100 arrivals per second: about 500 are turned away
    // (seed 1: 529).
    assert!(c.turned_away > 300 && c.turned_away < 800, "{c:?}");
    // Every failed request ran into its 1 s deadline (fixed retries never give up).
    assert!(c.deadline > 0 && c.gave_up == 0, "{c:?}");
    // Pause-time latencies of successful requests stay below the deadline.
    assert!(
        r.series
            .iter()
            .all(|b| b.latency_p99_ms.is_nan() || b.latency_p99_ms <= 1000.0)
    );
    // Outside the pause, service times (exponential, mean 100 ms) exceed a 100 ms
    // timeout about a third of the time: attempts time out, are retried, and succeed.
    assert!(c.timeouts > 0 && c.succeeded > 10_000, "{c:?}");
}

/// Every parameter out of range is refused with a one-line error, never a panic.
#[test]
fn bad_parameters_are_refused() {
    use retry_storm::config::{ErrorWork, Load, ServiceTime, Slowdown, Trigger, TriggerKind};
    use retry_storm::contention::{ContentionConfig, run_contention};
    use retry_storm::run;
    let base = presets::scenario("budget", &presets::Options::default())
        .unwrap()
        .runs[0]
        .clone();
    let trig = base.triggers[0];
    let mut cases: Vec<(retry_storm::StormConfig, &str)> = Vec::new();
    let mut c = base.clone();
    c.server.workers = Some(0);
    cases.push((c, "at least 1 worker"));
    let mut c = base.clone();
    c.server.slowdown = Some(Slowdown {
        limit: 1,
        factor: 1.0,
        k: 1.0,
        max_ps: Time::from_ps(1 << 50),
    });
    cases.push((c, "slowdown factor"));
    let mut c = base.clone();
    c.timeouts_ps = vec![];
    cases.push((c, "timeout"));
    let mut c = base.clone();
    c.load = Load::Open {
        rate_per_s: f64::NAN,
        clients: 1,
    };
    cases.push((c, "request rate"));
    let mut c = base.clone();
    c.load = Load::Closed {
        clients: 10,
        think_ps: Time::ZERO,
    };
    cases.push((c, "think time"));
    let mut c = base.clone();
    c.triggers = vec![Trigger {
        kind: TriggerKind::Partial { fraction: 1.5 },
        ..trig
    }];
    cases.push((c, "failure fraction"));
    let mut c = base.clone();
    c.triggers = vec![Trigger {
        kind: TriggerKind::Shard {
            shards: 5,
            failing: 5,
        },
        ..trig
    }];
    cases.push((c, "failing shard"));
    let mut c = base.clone();
    c.triggers.push(Trigger {
        kind: TriggerKind::LoadSpike { factor: 0.0 },
        ..trig
    });
    cases.push((c, "load spike factor"));
    let mut c = base.clone();
    c.server.workers = None;
    c.triggers.push(Trigger {
        kind: TriggerKind::CapacityLoss { fraction: 0.5 },
        ..trig
    });
    cases.push((c, "capacity loss needs a server with workers"));
    let mut c = base.clone();
    c.triggers = vec![Trigger {
        end_ps: trig.start_ps,
        ..trig
    }];
    cases.push((c, "end after it starts"));
    let mut c = base.clone();
    c.bin_ps = Time::from_ps(1);
    cases.push((c, "bins"));
    let mut c = base.clone();
    c.users = 0;
    cases.push((c, "user"));
    let mut c = base.clone();
    c.recovery.success_fraction = 2.0;
    cases.push((c, "recovery success fraction 2 "));
    let mut c = base.clone();
    c.recovery.conc_factor = 0.5;
    cases.push((c, "recovery concurrency factor 0.5 "));
    let mut c = base.clone();
    c.recovery.conc_slack = -1.0;
    cases.push((c, "recovery concurrency slack -1 "));
    // A warm-up or sustain window the user wrote is refused when it does not fit.
    let mut c = base.clone();
    c.warmup_ps = trig.start_ps;
    c.defaulted.warmup = false;
    cases.push((c, "leaves no baseline before the first trigger"));
    let mut c = base.clone();
    c.warmup_ps = trig.start_ps - c.bin_ps / 2;
    c.defaulted.warmup = false;
    cases.push((c, "leaves no baseline before the first trigger"));
    let mut c = base.clone();
    c.triggers.clear();
    c.warmup_ps = c.horizon_ps + Time::from_ps(1);
    c.defaulted.warmup = false;
    cases.push((c, "longer than the horizon"));
    let mut c = base.clone();
    c.recovery.sustain_ps = c.horizon_ps;
    c.defaulted.sustain = false;
    cases.push((c, "recovery sustain 120 s is longer than the"));
    let mut c = base.clone();
    let mean = c.server.service.mean_ps();
    c.server.service = ServiceTime::LogNormal { mean, sigma: 3.5 };
    cases.push((c, "lognormal sigma 3.5 must be above 0 and at most 3"));
    let mut c = base.clone();
    c.server.service = ServiceTime::LogNormal { mean, sigma: 0.0 };
    cases.push((c, "lognormal sigma 0 must be above 0"));
    let mut c = base.clone();
    c.server.error_work = Some(ErrorWork::Fraction(1.5));
    cases.push((c, "error work fraction 1.5 must be above 0 and at most 1"));
    let mut c = base.clone();
    c.triggers[0].error_work = Some(ErrorWork::Time(Time::ZERO));
    cases.push((c, "the error work must be a positive time"));
    for (cfg, needle) in cases {
        let e = run(&cfg).unwrap_err().to_string();
        assert!(
            e.contains(needle) && !e.contains('\n'),
            "{e} lacks {needle}"
        );
    }
    for clients in [vec![], vec![0], vec![20_000]] {
        let cfg = ContentionConfig {
            clients,
            ..ContentionConfig::default()
        };
        assert!(run_contention(&cfg).is_err());
    }
}

/// `c` run with a load spike x3 from `from_s` to `to_s` as its only trigger.
fn with_spike(mut c: retry_storm::StormConfig, from_s: u64, to_s: u64) -> StormResult {
    use retry_storm::config::{Trigger, TriggerKind};
    c.triggers = vec![Trigger {
        start_ps: Time::from_secs(from_s),
        end_ps: Time::from_secs(to_s),
        kind: TriggerKind::LoadSpike { factor: 3.0 },
        error_work: None,
    }];
    retry_storm::run(&c).unwrap()
}

/// New requests per second over the bins in `[from, to)` seconds.
fn mean_offered(r: &StormResult, from: f64, to: f64) -> f64 {
    let v: Vec<f64> = r
        .series
        .iter()
        .filter(|b| b.t_s >= from && b.t_s < to)
        .map(|b| b.offered_per_s)
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// A capacity loss queues work the way a smaller server would, and the server takes
/// it back when the workers return; a load spike multiplies the offered load in its
/// window and nowhere else. Over three seeds each.
#[test]
fn capacity_loss_and_load_spike_act_in_their_window() {
    use retry_storm::config::{Trigger, TriggerKind};
    for seed in SEEDS {
        let mut o = presets::Options {
            settings: vec![retry_storm::file::Setting::new("seed", (seed).to_string())],
            ..Default::default()
        };
        o.strategies = Some(vec![
            retry_storm::strategy::Strategy::parse("none").unwrap(),
        ]);
        let mut c = presets::scenario("outage-open", &o).unwrap().runs[0].clone();
        // 100 requests/s on 50 workers of 50 ms: 10 % busy. Losing 96 % leaves 2
        // workers for 5 Erlangs of work: the queue grows and requests time out.
        c.triggers = vec![Trigger {
            start_ps: Time::from_secs(20),
            end_ps: Time::from_secs(40),
            kind: TriggerKind::CapacityLoss { fraction: 0.96 },
            error_work: None,
        }];
        let r = retry_storm::run(&c).unwrap();
        let m = &r.summary;
        assert!(m.during.concurrency > 20.0 * m.before.concurrency, "{m:?}");
        assert!(m.during.success_ratio < 0.5, "{m:?}");
        assert!(
            matches!(m.recovery, Recovery::Recovered { after_s } if after_s < 10.0),
            "{m:?}"
        );
        // A spike x3 from 20 s to 40 s: offered load triples there, not elsewhere.
        let r = with_spike(c.clone(), 20, 40);
        let offered = |from, to| mean_offered(&r, from, to);
        let (before, during, after) =
            (offered(5.0, 20.0), offered(20.0, 40.0), offered(40.0, 80.0));
        // 2000 arrivals in 20 s: their mean is within 5 % of 300/s with a margin of
        // over 4 standard deviations (sd of a Poisson mean: sqrt(300/20) = 3.9/s).
        assert!((during / 300.0 - 1.0).abs() < 0.06, "{during}");
        assert!((before / 100.0 - 1.0).abs() < 0.1, "{before}");
        assert!((after / 100.0 - 1.0).abs() < 0.1, "{after}");
    }
}

/// The seed articles' claims, each by a shipped scenario over three seeds.
mod fidelity {
    use super::*;

    /// Three layers of three attempts: 27 attempts per request at the failing bottom
    /// while the outage lasts (3 and 9 above it). Every attempt fails fast, so only
    /// the requests that straddle the window's edges can fall short: at 50 requests/s
    /// over 20 s, the bounds allow for 40 of them.
    #[test]
    fn layered_retries_multiply_load() {
        for seed in SEEDS {
            let r = scenario("layers", seed);
            let l = &r.runs[0].layers;
            assert_eq!(l.len(), 3);
            assert_eq!(
                (l[2].caller.as_str(), l[2].callee.as_str()),
                ("auth", "server")
            );
            let per = |k: usize| l[k].per_request_during;
            assert!((2.9..=3.01).contains(&per(0)), "{l:?}");
            assert!((8.7..=9.01).contains(&per(1)), "{l:?}");
            assert!((26.0..=27.01).contains(&per(2)), "{l:?}");
        }
    }

    /// A budget per client against one shared by all: per client, the floors of one
    /// retry per second add up over 100 clients; the shared budget holds the load far
    /// lower. Both below plain retries (about 4x during the outage).
    #[test]
    fn shared_budget_holds_load_lower_than_per_client() {
        for seed in SEEDS {
            let r = scenario("budget-scope", seed);
            let load = |n: &str| by(&r, n).summary.load_during;
            let (plain, per, shared) = (
                load("3 retries"),
                load("budget 10 % per client"),
                load("budget 10 % shared"),
            );
            assert!(plain > 3.5, "{plain}");
            assert!(per > 1.4 && per < 2.5, "{per}");
            assert!(shared < 1.3, "{shared}");
        }
    }

    /// At 93 % utilisation one retry after 1 s keeps the server overloaded after a
    /// 5 s stall (metastable) in every seed; the same clients at 45 % utilisation
    /// recover, and within the horizon.
    #[test]
    fn metastable_at_93_percent_recovers_lower() {
        for seed in SEEDS {
            let r = scenario("metastable", seed);
            let retry = by(&r, "1 retry after 1 s");
            assert_eq!(retry.summary.recovery, Recovery::Metastable, "{seed}");
            assert!(retry.summary.load_after > 1.8, "{:?}", retry.summary);
            let o = presets::Options {
                settings: vec![retry_storm::file::Setting::new("seed", (seed).to_string())],
                ..Default::default()
            };
            let mut c = presets::scenario("metastable", &o).unwrap().runs[1].clone();
            c.load = retry_storm::config::Load::Open {
                rate_per_s: 45.0,
                clients: 10,
            };
            let low = retry_storm::run(&c).unwrap();
            assert!(
                matches!(low.summary.recovery, Recovery::Recovered { .. }),
                "{seed}: {:?}",
                low.summary
            );
        }
    }
}

/// Deadline propagation against a retry budget in the `deadline` scenario, over three
/// seeds. Propagation recovers in every seed (the server drops the abandoned work);
/// the budget alone does not, although it holds the load near 1.2x: the latency curve
/// doubles every 100 concurrent requests, and the work nobody waits for any more stays
/// in the server. The articles rank the budget above propagation; the model does not,
/// for this reason (mac-sim/README.md gives the numbers).
#[test]
fn deadline_propagation_against_a_budget() {
    use retry_storm::strategy::Strategy;
    for seed in SEEDS {
        let o = presets::Options {
            settings: vec![retry_storm::file::Setting::new("seed", (seed).to_string())],
            strategies: Some(
                [
                    "exp-full+retries=3+deadline",
                    "exp-full+retries=3+budget=10",
                ]
                .iter()
                .map(|s| Strategy::parse(s).unwrap())
                .collect(),
            ),
            ..Default::default()
        };
        let r = run_sequential(&presets::scenario("deadline", &o).unwrap()).unwrap();
        let (deadline, budget) = (&r.runs[0].summary, &r.runs[1].summary);
        assert!(
            matches!(deadline.recovery, Recovery::Recovered { after_s } if after_s < 10.0),
            "{deadline:?}"
        );
        assert_eq!(budget.recovery, Recovery::Metastable, "{budget:?}");
        assert!(budget.load_after < 1.5, "{budget:?}");
    }
}

/// Load shedding with Retry-After (`shedding`, three seeds): clients that honour it
/// send less load during the spike and more of their requests succeed. A rate limiter
/// rejects beyond its rate the same way.
#[test]
fn retry_after_honoured_against_ignored() {
    for seed in SEEDS {
        let r = scenario("shedding", seed);
        let (ignored, honoured) = (
            by(&r, "Retry-After ignored"),
            by(&r, "Retry-After honoured"),
        );
        assert!(ignored.counts.rejected > 0 && honoured.counts.rejected > 0);
        assert!(
            honoured.summary.load_during < 0.8 * ignored.summary.load_during,
            "{seed}: {} {}",
            honoured.summary.load_during,
            ignored.summary.load_during
        );
        assert!(
            honoured.summary.during.success_ratio > ignored.summary.during.success_ratio + 0.1,
            "{seed}"
        );
        // A rate limit of 90/s with a burst of 20 instead of the queue limit: during
        // the spike (160 requests/s offered) about 70/s and their retries are refused.
        let mut c = ignored.config.clone();
        c.server.queue_limit = None;
        c.server.rate_limit = Some(retry_storm::shedding::RateLimit {
            per_s: 90.0,
            burst: 20,
        });
        let limited = retry_storm::run(&c).unwrap();
        let admitted = limited.counts.attempts - limited.counts.rejected;
        // Admissions never exceed the bucket: 90/s over 90 s plus the burst.
        assert!(admitted <= 90 * 90 + 20, "{admitted}");
        assert!(limited.counts.rejected > 500, "{}", limited.counts.rejected);
    }
}

/// A listen backlog in place of the queue limit (the `shedding` scenario, three
/// seeds): the same attempts find the queue full, but a full backlog drops them
/// without an answer, so none is rejected and each is known to its client only by
/// its timeout: every dropped attempt is a timed-out one, and clients that honour
/// Retry-After get nothing to honour.
#[test]
fn a_full_listen_backlog_drops_unanswered() {
    for seed in SEEDS {
        let r = scenario("shedding", seed);
        let shed = by(&r, "Retry-After ignored");
        let mut c = shed.config.clone();
        c.server.listen_backlog = c.server.queue_limit.take();
        let dropped = retry_storm::run(&c).unwrap();
        let n = &dropped.counts;
        assert!(n.dropped > 100 && n.rejected == 0, "{seed}: {n:?}");
        assert!(n.timeouts >= n.dropped, "{seed}: {n:?}");
        assert!(n.balanced(), "{seed}");
        // A rejection is answered at once and a drop only after the 1 s timeout: the
        // shedding server sees its rejected attempts retried sooner.
        assert!(n.timeouts > shed.counts.timeouts, "{seed}");
    }
}

/// A load spike on a closed loop: clients start requests `factor` times as often (a
/// think time drawn in the window is divided by it, so the rate rises as clients end
/// the think times they drew before it: mean 10 s). 1000 clients thinking 10 s make
/// about 100 requests/s; tripled from 40 s to 100 s, after 45 s of it 95 % of the
/// clients think 3.3 s, and the rate is between 2.5 and 3.1 times the one before
/// (the response time, about 0.1 s, is not divided). Three seeds; a 15 s mean at
/// 280/s has a standard deviation of 4.3/s, a 2.5 % margin is over 2.5 of them.
#[test]
fn closed_loop_load_spike() {
    for seed in SEEDS {
        let o = presets::Options {
            settings: vec![retry_storm::file::Setting::new("seed", (seed).to_string())],
            strategies: Some(vec![
                retry_storm::strategy::Strategy::parse("exp-full").unwrap(),
            ]),
            ..Default::default()
        };
        let c = presets::scenario("pause", &o).unwrap().runs[0].clone();
        let r = with_spike(c, 40, 100);
        let mean = |from, to| mean_offered(&r, from, to);
        let (before, during) = (mean(10.0, 40.0), mean(85.0, 100.0));
        assert!((before - 100.0).abs() < 10.0, "{seed}: {before}");
        let ratio = during / before;
        assert!((2.5..3.1).contains(&ratio), "{seed}: {during} / {before}");
        assert!(r.counts.balanced());
    }
}

/// A chain whose callers propagate their deadlines to a database too slow for any
/// of them (3 s per request): the database stops every job at its deadline and does
/// no work for nobody, where without propagation it finishes work nobody waits for;
/// every logical request is accounted for either way.
#[test]
fn deadline_propagation_down_a_chain() {
    use retry_storm::strategy::Strategy;
    for seed in SEEDS {
        let o = presets::Options {
            settings: vec![retry_storm::file::Setting::new("seed", (seed).to_string())],
            ..Default::default()
        };
        let plain = presets::scenario("layers", &o).unwrap().runs[0].clone();
        // A slow database (every request 3 s) instead of a failing one: attempts time
        // out at every layer.
        let mut slow = plain.clone();
        slow.triggers.clear();
        slow.server.service = retry_storm::config::ServiceTime::Fixed(Time::from_secs(3));
        let mut propagating = slow.clone();
        propagating.strategy = Strategy::parse("exp-full+base=10ms+retries=2+deadline").unwrap();
        for l in &mut propagating.chain {
            l.strategy = Strategy::parse("exp-full+base=10ms+retries=2+deadline").unwrap();
        }
        let a = retry_storm::run(&slow).unwrap();
        let b = retry_storm::run(&propagating).unwrap();
        assert!(a.counts.balanced() && b.counts.balanced());
        assert_eq!((a.counts.succeeded, b.counts.succeeded), (0, 0));
        assert!(
            a.counts.wasted > 0 && a.counts.cancelled == 0,
            "{:?}",
            a.counts
        );
        assert!(
            b.counts.wasted == 0 && b.counts.cancelled > 0,
            "{:?}",
            b.counts
        );
    }
}

/// The AWS SDKs' standard retry quota (`quota`: 500 tokens, 5 per retry after an
/// error) through the 30 s outage of `budget-scope` (200 requests/s from 100 client
/// processes, every attempt fails). One quota shared by all clients allows 100
/// retries in all, so the outage's amplification stays near 1; one per client allows
/// 100 retries per client, spent within about 17 s at 6 retries per second each, so it
/// lies between that and plain retries (about 4x: 3 retries per failed request).
#[test]
fn the_aws_retry_quota_empties_during_an_outage_and_holds_the_load() {
    for seed in SEEDS {
        let mut base = presets::scenario(
            "budget-scope",
            &presets::Options {
                settings: vec![retry_storm::file::Setting::new("seed", (seed).to_string())],
                ..Default::default()
            },
        )
        .unwrap()
        .runs[0]
            .clone();
        let mut amp = |spec: &str| {
            base.strategy = retry_storm::strategy::Strategy::parse(spec).unwrap();
            retry_storm::run(&base)
                .unwrap()
                .summary
                .during
                .mean_amplification
        };
        let (plain, per_client, shared) = (
            amp("exp-full+retries=3"),
            amp("exp-full+retries=3+quota"),
            amp("exp-full+retries=3+quota+shared"),
        );
        // Plain: 4 attempts per request, less the retries still pending at the end.
        assert!(plain > 3.5, "seed {seed}: {plain}");
        // Shared: 100 retries over 6000 requests, 1.02x; allow 1.1.
        assert!(shared < 1.1, "seed {seed}: {shared}");
        // Per client: 100 clients x 100 retries over 6000 requests, about 2.7x; the
        // check needs only that it lies clearly between.
        assert!(
            shared + 0.5 < per_client && per_client + 0.5 < plain,
            "seed {seed}: {shared} < {per_client} < {plain}"
        );
    }
}

/// Re-evaluated latency (processor sharing): a request started in the crowd of the
/// stop speeds up as the crowd thins, so exponential backoff recovers sooner than when
/// each request keeps the latency it started with; retries every 100 ms recover in
/// neither.
#[test]
fn reevaluated_latency_recovers_sooner_than_latency_fixed_at_start() {
    for seed in SEEDS {
        let shared = scenario("reevaluated", seed);
        let fixed = scenario("at-start", seed);
        for r in [&shared, &fixed] {
            let run = by(r, "fixed 100 ms");
            assert_eq!(run.summary.recovery, Recovery::Metastable, "seed {seed}");
            assert!(r.runs.iter().all(|x| x.counts.balanced()));
        }
        // Seeds 1-3: 190-191 s after the stop re-evaluated, 209-213 s fixed at the
        // start (the backlog of clients still retrying must drain too, and it drains
        // last); the test asks for recovery within 250 s and a lead of at least 10 s.
        // smira's formula uncapped: the model's stopped server keeps every attempt of
        // the stop, and sharing beyond ~2000 of them finishes too few (seed 1: no
        // request succeeds after the stop).
        let uncapped = scenario("reevaluated-uncapped", seed);
        let run = by(&uncapped, "exponential x e");
        assert_eq!(run.summary.recovery, Recovery::Metastable, "seed {seed}");
        let soon = by(&shared, "exponential x e").summary.recovery.seconds();
        let late = by(&fixed, "exponential x e").summary.recovery.seconds();
        assert!(soon.is_some_and(|s| s <= 250.0), "seed {seed}: {soon:?}");
        assert!(
            late.is_some_and(|l| l >= soon.unwrap_or(f64::INFINITY) + 10.0),
            "seed {seed}: {soon:?} re-evaluated, {late:?} at the start"
        );
    }
}

/// The mean recovery time, seconds, of strategy `name` over `runs` (each run of the
/// scenario with one seed); `None` if any run did not recover.
fn mean_recovery(runs: &[ComparisonResult], name: &str) -> Option<f64> {
    let s: Option<Vec<f64>> = runs
        .iter()
        .map(|r| by(r, name).summary.recovery.seconds())
        .collect();
    s.map(|v| v.iter().sum::<f64>() / v.len() as f64)
}

/// The articles' open-loop outage with errors that cost the server half a service
/// time (`outage-cpu`, seeds 1 to 5, at its 2.16x headroom and at 4x): plain
/// retries lengthen the recovery at 2.16x, full jitter shortens it, and more at 2.16x
/// than at 4x; the errors keep the workers busy during the outage.
#[test]
fn outage_with_costly_errors_jitter_helps_more_with_less_headroom() {
    use retry_storm::config::Load;
    let runs = |rate: Option<f64>, error_work: bool| -> Vec<ComparisonResult> {
        (1..=5)
            .map(|seed| {
                let o = presets::Options {
                    settings: vec![retry_storm::file::Setting::new("seed", (seed).to_string())],
                    ..Default::default()
                };
                let mut sc = presets::scenario("outage-cpu", &o).unwrap();
                for c in &mut sc.runs {
                    if let (Some(r), Load::Open { rate_per_s, .. }) = (rate, &mut c.load) {
                        *rate_per_s = r;
                    }
                    if !error_work {
                        c.server.error_work = None;
                    }
                }
                run_sequential(&sc).unwrap()
            })
            .collect()
    };
    let (none, plain, jitter) = (
        "no retries",
        "3 retries, exp 100 ms",
        "3 retries, exp 100 ms, full jitter",
    );
    let tight = runs(None, true); // 2.16x headroom
    let roomy = runs(Some(100.0), true); // 4x
    let rec = |r: &[ComparisonResult], n| {
        mean_recovery(r, n).unwrap_or_else(|| panic!("{n}: a seed did not recover"))
    };
    // Seeds 1..=5 at 2.16x: none 0.1 s, plain 0.7 s, jitter 0.3 s; at 4x 0.1, 0.2, 0.1.
    let (n2, p2, j2) = (rec(&tight, none), rec(&tight, plain), rec(&tight, jitter));
    let (p4, j4) = (rec(&roomy, plain), rec(&roomy, jitter));
    assert!(p2 >= n2 + 0.3, "plain retries {p2} s against none {n2} s");
    assert!(j2 <= p2 - 0.2, "jitter {j2} s against plain {p2} s");
    assert!(
        p2 - j2 >= (p4 - j4) + 0.15,
        "jitter gains {} s at 2.16x, {} s at 4x",
        p2 - j2,
        p4 - j4
    );
    // The errors held workers: the server answered them after their work.
    assert!(tight.iter().all(|r| by(r, plain).counts.error_work > 0));
    // Free errors keep no worker busy during the outage; costly ones do (Little: about
    // 185 x 3.7 errors/s of 10 ms on average, some 7 of the 8 workers).
    let free = runs(None, false);
    let busy = |r: &ComparisonResult| {
        let bins = trigger_bins(by(r, plain));
        bins.iter().map(|b| b.concurrency).sum::<f64>() / bins.len() as f64
    };
    assert!(free.iter().all(|r| by(r, plain).counts.error_work == 0));
    assert!(free.iter().all(|r| busy(r) < 0.5));
    assert!(tight.iter().all(|r| busy(r) > 4.0));
}

/// A round trip delays every answer by the whole of it, and the client's timeout
/// covers it: 100 ms of fixed service behind a 300 ms round trip succeeds with a 1 s
/// timeout (latency 400 ms) and never with a 350 ms one, though the server does all
/// the work. Error work puts the outage's errors on the workers (concurrency above 0
/// during it), where free errors leave none.
#[test]
fn round_trip_and_error_work_reach_the_server() {
    use retry_storm::config::{ErrorWork, ServiceTime};
    let o = presets::Options {
        strategies: Some(vec![
            retry_storm::strategy::Strategy::parse("none").unwrap(),
        ]),
        ..Default::default()
    };
    let mut c = presets::scenario("outage-open", &o).unwrap().runs[0].clone();
    c.server.service = ServiceTime::Fixed(Time::from_ms(100));
    c.server.rtt_ps = Time::from_ms(300);
    c.triggers.clear();
    c.horizon_ps = Time::from_secs(20);
    let r = retry_storm::run(&c).unwrap();
    assert!(r.counts.balanced());
    assert_eq!(r.counts.timeouts, 0);
    let p50 = r.series[10].latency_p50_ms;
    assert!((p50 - 400.0).abs() < 1.0, "latency {p50} ms");
    c.timeouts_ps = vec![Time::from_ms(350)];
    let r = retry_storm::run(&c).unwrap();
    assert_eq!(r.counts.succeeded, 0);
    // Every answer comes too late (but those still on their way back at the horizon:
    // 100 requests/s for 150 ms).
    let c_ = r.counts;
    assert!(c_.served > 1000 && c_.served - c_.wasted <= 30, "{c_:?}");

    let mut c = presets::scenario("outage-open", &o).unwrap().runs[0].clone();
    let during = |r: &StormResult| -> f64 {
        let bins = trigger_bins(r);
        bins.iter().map(|b| b.concurrency).sum::<f64>() / bins.len() as f64
    };
    let free = retry_storm::run(&c).unwrap();
    assert!(during(&free) < 0.1, "{}", during(&free));
    assert_eq!(free.counts.error_work, 0);
    // 100 errors/s holding a worker 50 ms: 5 busy on average (Little).
    c.server.error_work = Some(ErrorWork::Time(Time::from_ms(50)));
    let costly = retry_storm::run(&c).unwrap();
    let conc = during(&costly);
    assert!(
        (conc - 5.0).abs() < 1.0,
        "concurrency {conc} during the outage"
    );
    assert_eq!(costly.counts.error_work, costly.counts.errors);
    assert!(costly.counts.balanced());
    // A trigger's own error work comes before the server's.
    c.triggers[0].error_work = Some(ErrorWork::Fraction(0.2)); // 10 ms on average
    let own = retry_storm::run(&c).unwrap();
    let conc = during(&own);
    assert!(
        (conc - 1.0).abs() < 0.3,
        "concurrency {conc} during the outage"
    );
}

/// "Overloaded, do not retry", honoured at every layer of the chain, sends one attempt
/// per request to the bottom where plain errors send 27 (three layers of three
/// attempts); clients that ignore it retry only at their own layer.
#[test]
fn overloaded_do_not_retry_stops_the_avalanche() {
    for seed in SEEDS {
        let r = scenario("overload", seed);
        let bottom = |run: &StormResult| run.layers.last().unwrap().per_request_during;
        let honoured = by(&r, "honoured at every layer");
        let ignored = by(&r, "ignored by the clients");
        // Seed 1: 1.00 and 3.00 attempts per request at the database.
        assert!(bottom(honoured) < 1.1, "seed {seed}: {}", bottom(honoured));
        assert!(
            (bottom(ignored) - 3.0).abs() < 0.2,
            "seed {seed}: {}",
            bottom(ignored)
        );
        // Every request of the window is refused once, and counted so.
        let c = &honoured.counts;
        assert!(
            c.refused > 500 && c.refused == c.overloaded,
            "seed {seed}: {c:?}"
        );
        assert_eq!((c.gave_up, ignored.counts.refused), (0, 0), "seed {seed}");
        assert!(c.balanced() && ignored.counts.balanced());
        // The same chain with plain errors: 26.9 per request at seed 1.
        let plain = scenario("layers", seed);
        assert!(bottom(&plain.runs[0]) > 20.0, "seed {seed}");
    }
}

/// The attempts per second of bin `t_s` over the mean of the pre-trigger bins from
/// the warm-up's end (5 s) to the trigger (20 s).
fn burst_at(run: &StormResult, from_s: f64, to_s: f64) -> f64 {
    let mean = |lo: f64, hi: f64| {
        let bins: Vec<f64> = run
            .series
            .iter()
            .filter(|b| b.t_s >= lo && b.t_s < hi)
            .map(|b| b.attempts_per_s)
            .collect();
        bins.iter().sum::<f64>() / bins.len() as f64
    };
    let peak = run
        .series
        .iter()
        .filter(|b| b.t_s >= from_s && b.t_s < to_s)
        .map(|b| b.attempts_per_s)
        .fold(0.0, f64::max);
    peak / mean(5.0, 20.0)
}

/// Arrivals that wait for a free client (`backlog`, five seeds): the demand that
/// built up behind the cap through the 10 s pause reaches the server at once when it
/// resumes, a burst held only by its capacity (40 workers x 100 ms, 4x the 100
/// requests/s; seeds 1..=5: 3.9x to 4.3x), with or without retries; turned away
/// instead, the same arrivals fail and the burst stays near the load's noise (about
/// 1.2x). A cap 30 % above the clients normally active (`backlog-cap`) holds the load
/// after the pause to 13 clients / 100 ms, 1.3x (seeds 1..=5: at most 1.6x in a bin),
/// and the line takes far longer to drain.
#[test]
fn waiting_arrivals_burst_after_a_pause() {
    use retry_storm::config::{Load, WhenBusy};
    for seed in 1..=5 {
        let r = scenario("backlog", seed);
        let cap = scenario("backlog-cap", seed);
        for (run, capped) in r.runs.iter().zip(&cap.runs) {
            let c = run.counts;
            assert!(c.balanced(), "{c:?}");
            assert_eq!(c.turned_away, 0, "{seed}: {c:?}");
            // About 60 arrivals a second wait through the pause (the 40 clients
            // give up one request a second each): several hundred at once.
            assert!(c.waited > 400 && c.max_waiting > 400, "{seed}: {c:?}");
            let burst = burst_at(run, 30.0, 40.0);
            assert!((3.5..=4.6).contains(&burst), "{seed}: {burst}");
            let held = burst_at(capped, 30.0, 40.0);
            assert!((1.1..=1.8).contains(&held), "{seed}: {held}");
            // The burst is the capacity's: the waiting line drains within 5 s with
            // 40 clients, and is still draining 10 s after the pause with 13.
            assert!(burst_at(run, 35.0, 80.0) < 1.5, "{seed}");
            assert!(burst_at(capped, 38.0, 40.0) > 1.1, "{seed}");
            // Turned away: no backlog, no burst.
            let mut away = run.config.clone();
            if let Load::Capped { when_busy, .. } = &mut away.load {
                *when_busy = WhenBusy::TurnAway;
            }
            let a = retry_storm::run(&away).unwrap();
            assert!(a.counts.turned_away > 400 && a.counts.waited == 0);
            let flat = burst_at(&a, 30.0, 80.0);
            assert!(flat < 1.5, "{seed}: {flat}");
        }
    }
    // A line of at most 100: the arrivals beyond it are turned away.
    let mut short = scenario("backlog", 1).runs[0].config.clone();
    if let Load::Capped { when_busy, .. } = &mut short.load {
        *when_busy = WhenBusy::Wait { limit: 100 };
    }
    let c = retry_storm::run(&short).unwrap().counts;
    assert!(c.balanced(), "{c:?}");
    assert_eq!(c.max_waiting, 100, "{c:?}");
    assert!(c.turned_away > 300 && c.waited > 100, "{c:?}");
}

#[test]
fn shedding_the_adaptive_rate_limiter_holds_clients_to_what_the_server_admits() {
    // The AWS SDKs' adaptive mode against load shedding: the standard mode (quota)
    // retries into the full queue during the spike; the rate limiter, cut by every
    // rejection, holds attempts back. Seed 1: amplification during the spike 1.94
    // against 0.62, success 0.666 against 1.000, 2 029 rejections against 169.
    // Margins: the limiter's amplification below 0.8 of the standard mode's, its
    // success at least 0.2 higher, its rejections under a quarter.
    let specs = [
        "exp-full+retries=3+quota",
        "exp-full+retries=3+quota+adaptive",
    ];
    for seed in SEEDS {
        let o = presets::Options {
            settings: vec![retry_storm::file::Setting::new("seed", seed.to_string())],
            strategies: Some(
                specs
                    .iter()
                    .map(|s| retry_storm::strategy::Strategy::parse(s).unwrap())
                    .collect(),
            ),
            ..Default::default()
        };
        let r = run_sequential(&presets::scenario("shedding", &o).unwrap()).unwrap();
        let (std, ada) = (by(&r, specs[0]), by(&r, specs[1]));
        let d = |x: &StormResult| x.summary.during.clone();
        assert!(
            d(ada).mean_amplification < 0.8 * d(std).mean_amplification,
            "seed {seed}: {:?} {:?}",
            d(std),
            d(ada)
        );
        assert!(
            d(ada).success_ratio > d(std).success_ratio + 0.2,
            "seed {seed}"
        );
        assert!(ada.counts.rejected * 4 < std.counts.rejected, "seed {seed}");
        assert!(ada.counts.rate_limited > 0 && std.counts.rate_limited == 0);
    }
}

#[test]
fn hedging_cuts_the_tail_of_slow_backends_and_without_its_guard_multiplies_a_shared_slowdown() {
    // Seed 1 (bins of the two trigger windows): one request in 20 on a slow backend
    // (10-30 s): p99 535 ms without hedging, 103 ms hedged, 126 ms with the guard.
    // Every request slower (50-80 s): hedging without the guard sends 2.99 attempts
    // per request and 5.5 % succeed; with the guard 1.12 and all succeed. Margins:
    // the hedged p99 below half the plain one; unguarded amplification above 2 and
    // success below one half; guarded amplification below 1.3 and success above 0.95.
    for seed in SEEDS {
        let r = scenario("hedging", seed);
        let mean = |run: &StormResult, from: f64, to: f64, f: fn(&BinRow) -> f64| {
            let b: Vec<f64> = run
                .series
                .iter()
                .filter(|b| b.t_s >= from && b.t_s < to)
                .map(f)
                .collect();
            b.iter().sum::<f64>() / b.len() as f64
        };
        let p99 = |n: &str| mean(by(&r, n), 10.0, 30.0, |b| b.latency_p99_ms);
        let amp = |n: &str| mean(by(&r, n), 50.0, 80.0, |b| b.amplification);
        let ok = |n: &str| mean(by(&r, n), 50.0, 80.0, |b| b.success_ratio);
        let (plain, hedged, guarded) = ("no hedging", "hedge 60 ms x 3", "hedge 60 ms x 3 + guard");
        assert!(
            p99(hedged) < 0.5 * p99(plain),
            "seed {seed}: {} {}",
            p99(hedged),
            p99(plain)
        );
        assert!(
            p99(guarded) < 0.5 * p99(plain),
            "seed {seed}: {}",
            p99(guarded)
        );
        assert!(
            amp(hedged) > 2.0 && ok(hedged) < 0.5,
            "seed {seed}: {} {}",
            amp(hedged),
            ok(hedged)
        );
        assert!(
            amp(guarded) < 1.3 && ok(guarded) > 0.95,
            "seed {seed}: {} {}",
            amp(guarded),
            ok(guarded)
        );
        assert_eq!(by(&r, plain).counts.hedges, 0);
        assert!(by(&r, guarded).counts.hedges < by(&r, hedged).counts.hedges / 4);
    }
}

#[test]
fn hedging_parts_are_refused_where_they_do_not_apply() {
    use retry_storm::strategy::Strategy;
    for bad in [
        "exp+hedge=50ms",
        "hedge=50ms+retries=2",
        "hedge=50ms+budget=10",
        "hedge=50ms+adaptive",
        "hedge-guard",
        "hedge=50ms+hedge-attempts=1",
    ] {
        assert!(Strategy::parse(bad).is_err(), "{bad}");
    }
    let s = Strategy::parse("hedge=50ms+hedge-attempts=9+tokens=10/0.1+hedge-guard").unwrap();
    let h = s.hedge.unwrap();
    assert_eq!(
        (h.policy.max_attempts(), h.policy.delay_nanos(), h.guard),
        (5, 50_000_000, true)
    );
    assert!(s.policy.is_none());
}

/// In a capped loop whose arrivals wait (`backlog`: a 10 s pause, a 1 s timeout, no
/// retries), a request's latency runs from when a client took it up, so no success
/// takes longer than its timeout; the wait for a free client is its own figure, and
/// after the pause it is seconds long. (When the latency counted from the arrival,
/// the p99 after the pause read seconds too.)
#[test]
fn the_wait_for_a_free_client_is_measured_apart_from_the_latency() {
    let sc = presets::scenario("backlog", &presets::Options::default()).unwrap();
    let r = retry_storm::run(&sc.runs[0]).unwrap();
    assert!(r.counts.balanced());
    let after = &r.series[30..35];
    for b in after {
        assert!(
            b.latency_p99_ms.is_nan() || b.latency_p99_ms <= 1000.0,
            "{}: latency p99 {} ms",
            b.t_s,
            b.latency_p99_ms
        );
    }
    let longest = after.iter().map(|b| b.wait_p99_ms).fold(0.0, f64::max);
    assert!(longest > 2000.0, "wait p99 {longest} ms");
    // Before the pause nobody waits long; the run's mean wait is in the counts.
    assert!(
        r.series[10].wait_p50_ms < 100.0,
        "{}",
        r.series[10].wait_p50_ms
    );
    assert!(r.counts.wait_mean_ms() > 0.0 && r.counts.taken_up > r.counts.waited);
    // Where arrivals do not wait, there is no wait to measure.
    let open = presets::scenario("outage-open", &presets::Options::default()).unwrap();
    let r = retry_storm::run(&open.runs[0]).unwrap();
    assert!(r.series.iter().all(|b| b.wait_p50_ms.is_nan()));
    assert!(r.counts.wait_mean_ms().is_nan());
}

/// Absolute normal jitter (`sigma=DUR`) is drawn from the run's seed: the same seed
/// gives the same run, another seed another; and on `waves` 200 ms of it spreads the
/// synchronised retries of plain exponential backoff (the variation of attempts per
/// bin falls by a fifth or more).
#[test]
fn absolute_normal_jitter_is_seeded_and_spreads_waves() {
    use retry_storm::strategy::Strategy;
    let o = presets::Options {
        strategies: Some(vec![
            Strategy::parse("exp+base=100ms+cap=10s").unwrap(),
            Strategy::parse("exp+base=100ms+cap=10s+sigma=200ms").unwrap(),
        ]),
        ..Default::default()
    };
    let sc = presets::scenario("waves", &o).unwrap();
    let plain = retry_storm::run(&sc.runs[0]).unwrap();
    let sigma = retry_storm::run(&sc.runs[1]).unwrap();
    let again = retry_storm::run(&sc.runs[1]).unwrap();
    assert_eq!(sigma.counts, again.counts);
    assert_eq!(sigma.events, again.events);
    let mut other = sc.runs[1].clone();
    other.seed += 1;
    assert_ne!(retry_storm::run(&other).unwrap().counts, sigma.counts);
    let (p, s) = (
        plain.summary.during.attempts_cv,
        sigma.summary.during.attempts_cv,
    );
    // Seed 1: 2.25 against 3.57; a fixed sigma spreads a 10 s delay less than full
    // jitter does (0.22), but it does spread it.
    assert!(s < 0.8 * p, "cv with sigma {s}, without {p}");
}

/// A paused server takes in at most its listen backlog of the pause's attempts, as a
/// stopped process's accept queue holds at most its backlog of connections: by
/// default 4096 (Linux's somaxconn since 5.4), with workers (queued) or without (held
/// in service); the rest are dropped unanswered. `pause_intake = "unbounded"` is the
/// old simplification, every attempt taken in.
#[test]
fn a_paused_server_takes_in_at_most_its_listen_backlog() {
    use retry_storm::config::{PauseIntake, TriggerKind};
    // `pause` with 3000 clients (and 120 workers) retrying every 100 ms through a 10 s
    // pause: over 4096 attempts wait while the server is stopped (with 1000 clients,
    // about 3800, within the default backlog).
    let o = presets::Options {
        clients: Some(3000),
        ..Default::default()
    };
    let sc = presets::scenario("pause", &o).unwrap();
    let mut c = sc.runs[0].clone();
    assert!(matches!(c.triggers[0].kind, TriggerKind::Pause));
    let (start, end) = (20, 30);
    let during = |r: &StormResult| {
        r.series[start..end]
            .iter()
            .map(|b| b.concurrency_max)
            .max()
            .unwrap()
    };
    let bounded = retry_storm::run(&c).unwrap();
    assert!(bounded.counts.dropped > 0);
    // At most the backlog queued, plus the 120 in service when it stopped.
    assert!(during(&bounded) <= 4096 + 120, "{}", during(&bounded));
    c.server.pause_intake = PauseIntake::Unbounded;
    let unbounded = retry_storm::run(&c).unwrap();
    assert_eq!(unbounded.counts.dropped, 0);
    assert!(during(&unbounded) > 8000, "{}", during(&unbounded));
    // A backlog of its own, and without workers (a latency model) the attempts held in
    // service while stopped.
    c.server.pause_intake = PauseIntake::Backlog;
    c.server.listen_backlog = Some(100);
    let small = retry_storm::run(&c).unwrap();
    assert!(during(&small) <= 100 + 120, "{}", during(&small));
    c.server.workers = None;
    c.server.listen_backlog = None;
    let latency = retry_storm::run(&c).unwrap();
    assert!(latency.counts.dropped > 0);
    assert!(during(&latency) <= 4096 + 120, "{}", during(&latency));
    assert!(latency.counts.balanced() && bounded.counts.balanced());
}
