//! Reports of `mac-sim storm`: a text summary, the time series as CSV, and (through
//! [`sim_kit::output::json`]) everything as JSON, each a string. Writing them and the
//! charts into the files of `--out` is the host layer's (`retry_storm_host::files`).

mod sweep;

pub use sweep::{SWEEP_HEADER, sweep_csv, sweep_json, sweep_report};

use std::fmt::Write as _;

use crate::config::{Load, ServiceTime, StormConfig, TriggerKind};
use crate::contention::{self, ContentionOverSeeds, ContentionRow};
use crate::replicate::Replicated;
use crate::{ScenarioResult, presets};
use sim_kit::stats::ci::Estimate;
use sim_kit::time::Time;

/// The scenarios with their one-line descriptions and expected outcomes.
pub fn list() -> String {
    let mut s = String::from("mac-sim storm scenarios (--scenario NAME):\n");
    for name in presets::NAMES {
        if let Ok(sc) = presets::scenario(name, &presets::Options::default()) {
            let _ = writeln!(
                s,
                "\n  {name}\n    {}\n    expected: {}",
                sc.title, sc.expectation
            );
            let names: Vec<&str> = sc.runs.iter().map(|r| r.strategy.name.as_str()).collect();
            let _ = writeln!(s, "    strategies: {}", names.join("; "));
        }
    }
    let _ = writeln!(
        s,
        "\n  {}\n    N clients update one record under optimistic concurrency; calls and completion time per jitter kind",
        contention::NAME
    );
    s
}

/// The contention table over seeds: means ± 95 % half-widths.
pub fn contention_seeds_report(rows: &[ContentionOverSeeds]) -> String {
    let mut s = String::from(
        "mac-sim storm: contention — N clients update one record under optimistic concurrency, retrying on conflict
",
    );
    if let Some(r) = rows.first() {
        let _ = writeln!(
            s,
            "{} seeds ({}..={}); mean ± half-width of the 95 % confidence interval
",
            r.seeds.len(),
            r.seeds.first().copied().unwrap_or(0),
            r.seeds.last().copied().unwrap_or(0)
        );
    }
    let _ = writeln!(
        s,
        "{:<14} {:>8} {:>18} {:>18}",
        "jitter", "clients", "calls", "completion ms"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<14} {:>8} {:>18} {:>18}",
            r.jitter,
            r.clients,
            pm(&r.calls, 1),
            pm(&r.completion_ms, 1)
        );
    }
    s
}

/// The contention table over seeds as CSV, header included.
pub fn contention_seeds_csv(rows: &[ContentionOverSeeds]) -> String {
    let mut s =
        String::from("jitter,clients,seeds,calls,calls_hw,completion_ms,completion_ms_hw\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{}",
            r.jitter,
            r.clients,
            r.seeds.len(),
            csv_estimate(&r.calls),
            csv_estimate(&r.completion_ms)
        );
    }
    s
}

fn f(x: f64, prec: usize) -> String {
    if x.is_finite() {
        format!("{x:.prec$}")
    } else {
        "-".into()
    }
}

fn secs(t: Time) -> String {
    let v = t.as_secs_f64();
    if v >= 1.0 {
        format!("{} s", style_num(v))
    } else {
        format!("{} ms", style_num(v * 1000.0))
    }
}

fn style_num(v: f64) -> String {
    if v == v.round() {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// The parameters of a run in one line: load, server, timeouts, trigger, seed,
/// horizon and bins (what the title of a preset says, after any changes).
pub fn describe(c: &StormConfig) -> String {
    let load = match c.load {
        Load::Open {
            rate_per_s,
            clients,
        } => format!(
            "open loop {} requests/s from {clients} clients",
            style_num(rate_per_s)
        ),
        Load::Closed { clients, think_ps } => {
            format!(
                "closed loop, {clients} clients thinking {} (mean)",
                secs(think_ps)
            )
        }
        Load::Capped {
            rate_per_s,
            max_active,
        } => format!(
            "open loop {} requests/s, at most {max_active} active clients",
            style_num(rate_per_s)
        ),
    };
    let service = match c.server.service {
        ServiceTime::Fixed(t) => secs(t),
        ServiceTime::Exponential(t) => format!("exp. mean {}", secs(t)),
    };
    let mut server = match c.server.workers {
        Some(w) => format!("{w} workers x {service}"),
        None => format!("latency {service}"),
    };
    if let Some(sl) = c.server.slowdown {
        let _ = write!(
            server,
            ", x{}^((concurrency - {})/{}) above {} (at most {})",
            style_num(sl.factor),
            sl.limit,
            style_num(sl.k),
            sl.limit,
            secs(sl.max_ps)
        );
    }
    let timeouts: Vec<String> = c.timeouts_ps.iter().map(|&t| secs(t)).collect();
    let triggers: Vec<String> = c
        .triggers
        .iter()
        .map(|t| {
            let what = match t.kind {
                TriggerKind::Outage => "outage".to_string(),
                TriggerKind::Pause => "pause".to_string(),
                TriggerKind::Partial { fraction } => {
                    format!("{} % of requests fail", style_num(fraction * 100.0))
                }
                TriggerKind::Shard { shards, failing } => {
                    format!("shard {failing} of {shards} fails")
                }
                TriggerKind::CapacityLoss { fraction } => {
                    format!("{} % of the workers lost", style_num(fraction * 100.0))
                }
                TriggerKind::LoadSpike { factor } => {
                    format!("load x {}", style_num(factor))
                }
            };
            format!("{what} from {} to {}", secs(t.start_ps), secs(t.end_ps))
        })
        .collect();
    let trigger = if triggers.is_empty() {
        "no trigger".to_string()
    } else {
        triggers.join(", ")
    };
    format!(
        "{load}; {server}; timeout {}; {trigger}; seed {}, horizon {}, bins of {}",
        timeouts.join("/"),
        c.seed,
        secs(c.horizon_ps),
        secs(c.bin_ps)
    )
}

/// The first two lines of a report: the scenario and what it should show.
pub(crate) fn heading(name: &str, title: &str, expectation: &str) -> String {
    format!("mac-sim storm: {name} — {title}\nexpected: {expectation}\n")
}

/// The text summary of a scenario: one line per strategy, then the verdicts.
pub fn report(r: &ScenarioResult) -> String {
    let mut s = heading(&r.name, &r.title, &r.expectation);
    if let Some(first) = r.runs.first() {
        let _ = writeln!(s, "{}", describe(&first.config));
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<32} {:>7} {:>7} | {:>7} {:>7} {:>6} {:>6} {:>7} {:>6} | {:>7} {:>6} {:>7} | {:>9} {:>8}",
        "strategy",
        "succ<",
        "conc<",
        "amp~",
        "amp^",
        "load~",
        "load^",
        "succ~",
        "cv~",
        "amp>",
        "load>",
        "succ>",
        "recover s",
        "events"
    );
    for run in &r.runs {
        let m = &run.summary;
        let _ = writeln!(
            s,
            "{:<32} {:>7} {:>7} | {:>7} {:>7} {:>6} {:>6} {:>7} {:>6} | {:>7} {:>6} {:>7} | {:>9} {:>8}",
            run.strategy,
            f(m.before.success_ratio, 3),
            f(m.before.concurrency, 1),
            f(m.during.mean_amplification, 2),
            f(m.during.peak_amplification, 2),
            f(m.load_during, 2),
            f(m.load_peak, 2),
            f(m.during.success_ratio, 3),
            f(m.during.attempts_cv, 2),
            f(m.after.mean_amplification, 2),
            f(m.load_after, 2),
            f(m.after.success_ratio, 3),
            m.recovery.seconds().map_or("never".into(), |x| f(x, 1)),
            run.events
        );
    }
    let _ = writeln!(s);
    for run in &r.runs {
        let _ = writeln!(s, "{:<32} {}", run.strategy, run.summary.verdict);
    }
    let _ = writeln!(s, "\nRequests (whole run):");
    for run in &r.runs {
        let c = &run.counts;
        let _ = writeln!(
            s,
            "{:<32} {} issued, {} attempts, {} succeeded; failed: {} policy gave up, {} budget, {} retry breaker, {} breaker open, {} deadline, {} turned away; {} in flight at the end",
            run.strategy,
            c.offered,
            c.attempts,
            c.succeeded,
            c.gave_up,
            c.budget,
            c.retry_breaker,
            c.breaker_open,
            c.deadline,
            c.turned_away,
            c.in_flight
        );
        let _ = writeln!(
            s,
            "{:<32} attempts: {} timed out, {} errors; server: {} answers nobody waited for ({} % of its work: done for nobody), {} stopped at the deadline, {} dropped unstarted",
            "",
            c.timeouts,
            c.errors,
            c.wasted,
            f(c.wasted_fraction() * 100.0, 1),
            c.cancelled,
            c.expired
        );
        if c.rejected > 0 {
            let _ = writeln!(
                s,
                "{:<32} {} attempts rejected at once by load shedding or the rate limiter",
                "", c.rejected
            );
        }
    }
    if r.runs.iter().any(|x| !x.layers.is_empty()) {
        let _ = writeln!(
            s,
            "\nCall chain: attempts each caller sent while a trigger was active, per logical request issued then:"
        );
        for run in &r.runs {
            let layers: Vec<String> = run
                .layers
                .iter()
                .map(|l| {
                    format!(
                        "{} -> {} {} ({} late answers)",
                        l.caller,
                        l.callee,
                        f(l.per_request_during, 2),
                        l.wasted
                    )
                })
                .collect();
            let _ = writeln!(s, "{:<32} {}", run.strategy, layers.join("; "));
        }
    }
    let _ = writeln!(
        s,
        "\n<: before the trigger, ~: during it, >: after it; amp = attempts / new requests (~ mean, ^ peak bin),\nload = attempts per second / the pre-trigger attempts per second (^ peak bin during or after), succ = client success ratio,\nconc = server concurrency, cv = variation of attempts per bin over the trigger's second half (waves: large)."
    );
    if let Some(rule) = r.runs.first().map(|x| x.config.recovery) {
        let _ = writeln!(
            s,
            "Recovered: the first time after the trigger ends from which, for {} s, every bin has success >= {} % of the baseline and concurrency <= {} x baseline + {}.",
            rule.sustain_ps.as_secs_f64(),
            rule.success_fraction * 100.0,
            rule.conc_factor,
            rule.conc_slack
        );
    }
    s
}

/// A CSV number: six decimals, empty when undefined.
fn csv_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        String::new()
    }
}

/// An estimate as two CSV fields: the mean and the 95 % half-width.
pub(crate) fn csv_estimate(x: &Estimate) -> String {
    format!("{},{}", csv_num(x.mean), csv_num(x.half_width))
}

/// The header of [`series_csv`].
pub const SERIES_HEADER: &str = "scenario,strategy,seed,t_s,offered_per_s,attempts_per_s,retries_per_s,amplification,success_ratio,completed,attempt_success_ratio,concurrency,concurrency_max,queue,latency_p50_ms,latency_p99_ms";

/// Every run's time series as CSV (header included), one line per bin and strategy.
pub fn series_csv(r: &ScenarioResult) -> String {
    let mut s = format!("{SERIES_HEADER}\n");
    let g = csv_num;
    for run in &r.runs {
        for b in &run.series {
            let _ = writeln!(
                s,
                "{},\"{}\",{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                r.name,
                run.strategy,
                run.config.seed,
                g(b.t_s),
                g(b.offered_per_s),
                g(b.attempts_per_s),
                g(b.retries_per_s),
                g(b.amplification),
                g(b.success_ratio),
                b.completed,
                g(b.attempt_success_ratio),
                g(b.concurrency),
                b.concurrency_max,
                g(b.queue),
                g(b.latency_p50_ms),
                g(b.latency_p99_ms)
            );
        }
    }
    s
}

/// The header of [`summary_csv`].
pub const SUMMARY_HEADER: &str = "scenario,strategy,seed,events,offered,attempts,succeeded,before_success,before_concurrency,during_mean_amp,during_peak_amp,during_success,during_attempts_cv,after_mean_amp,after_peak_amp,after_success,load_during,load_peak,load_after,wasted_fraction,recover_s,verdict";

/// One summary line per strategy, header included.
pub fn summary_csv(r: &ScenarioResult) -> String {
    let mut s = format!("{SUMMARY_HEADER}\n");
    let g = csv_num;
    for run in &r.runs {
        let m = &run.summary;
        let c = &run.counts;
        let _ = writeln!(
            s,
            "{},\"{}\",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},\"{}\"",
            r.name,
            run.strategy,
            run.config.seed,
            run.events,
            c.offered,
            c.attempts,
            c.succeeded,
            g(m.before.success_ratio),
            g(m.before.concurrency),
            g(m.during.mean_amplification),
            g(m.during.peak_amplification),
            g(m.during.success_ratio),
            g(m.during.attempts_cv),
            g(m.after.mean_amplification),
            g(m.after.peak_amplification),
            g(m.after.success_ratio),
            g(m.load_during),
            g(m.load_peak),
            g(m.load_after),
            g(c.wasted_fraction()),
            m.recovery.seconds().map_or(String::new(), g),
            m.verdict
        );
    }
    s
}

/// The contention table as text.
pub fn contention_report(rows: &[ContentionRow]) -> String {
    let mut s = String::from(
        "mac-sim storm: contention — N clients update one record under optimistic concurrency, retrying on conflict\n\n",
    );
    let _ = writeln!(
        s,
        "{:<14} {:>8} {:>10} {:>12} {:>14}",
        "jitter", "clients", "calls", "calls/client", "completion ms"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<14} {:>8} {:>10} {:>12.2} {:>14.1}",
            r.jitter, r.clients, r.calls, r.calls_per_client, r.completion_ms
        );
    }
    s
}

/// The contention table as CSV, header included.
pub fn contention_csv(rows: &[ContentionRow]) -> String {
    let mut s = String::from("jitter,clients,calls,calls_per_client,completion_ms\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{:.6},{:.6}",
            r.jitter, r.clients, r.calls, r.calls_per_client, r.completion_ms
        );
    }
    s
}

pub(crate) fn pm(e: &Estimate, prec: usize) -> String {
    if !e.mean.is_finite() {
        "-".into()
    } else if e.n < 2 {
        format!("{:.prec$}", e.mean)
    } else {
        format!("{:.prec$}±{:.prec$}", e.mean, e.half_width)
    }
}

/// The text summary of a scenario over several seeds: means ± 95 % half-widths.
pub fn replicated_report(r: &Replicated) -> String {
    let mut s = heading(&r.name, &r.title, &r.expectation);
    if let Some(first) = r.strategies.first() {
        let _ = writeln!(
            s,
            "{} seeds ({}..={}); mean ± half-width of the 95 % confidence interval",
            first.seeds.len(),
            first.seeds.first().copied().unwrap_or(0),
            first.seeds.last().copied().unwrap_or(0)
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<32} {:>11} {:>11} {:>11} {:>13} {:>11} | {:>11} {:>11} {:>13} | {:>9} {:>13}",
        "strategy",
        "amp~",
        "amp^",
        "load~",
        "succ~",
        "cv~",
        "amp>",
        "load>",
        "succ>",
        "recovered",
        "recover s"
    );
    for st in &r.strategies {
        let _ = writeln!(
            s,
            "{:<32} {:>11} {:>11} {:>11} {:>13} {:>11} | {:>11} {:>11} {:>13} | {:>9} {:>13}",
            st.strategy,
            pm(&st.during_amplification, 2),
            pm(&st.during_peak_amplification, 2),
            pm(&st.load_during, 2),
            pm(&st.during_success, 3),
            pm(&st.during_attempts_cv, 2),
            pm(&st.after_amplification, 2),
            pm(&st.load_after, 2),
            pm(&st.after_success, 3),
            format!("{}/{}", st.recovered, st.seeds.len()),
            pm(&st.recover_s, 1)
        );
    }
    if r.strategies
        .iter()
        .any(|st| !st.layers_per_request.is_empty())
    {
        let _ = writeln!(
            s,
            "\nCall chain: attempts each layer sent per logical request while a trigger was active, the clients first:"
        );
        for st in &r.strategies {
            let layers: Vec<String> = st.layers_per_request.iter().map(|e| pm(e, 2)).collect();
            let _ = writeln!(s, "{:<32} {}", st.strategy, layers.join(" -> "));
        }
    }
    let _ = writeln!(
        s,
        "\nrecover s: over the runs that recovered; a run that did not recover within the horizon is metastable."
    );
    s
}

/// The header of [`replicated_csv`].
pub const REPLICATED_HEADER: &str = "scenario,strategy,seeds,recovered,recover_s,recover_s_hw,during_amp,during_amp_hw,during_peak_amp,during_peak_amp_hw,during_success,during_success_hw,during_attempts_cv,during_attempts_cv_hw,after_amp,after_amp_hw,after_success,after_success_hw,load_during,load_during_hw,load_after,load_after_hw,wasted_fraction,wasted_fraction_hw";

/// One line per strategy over all seeds (means and 95 % half-widths), header included.
pub fn replicated_csv(r: &Replicated) -> String {
    let mut s = format!("{REPLICATED_HEADER}\n");
    let e = csv_estimate;
    for st in &r.strategies {
        let _ = writeln!(
            s,
            "{},\"{}\",{},{},{},{},{},{},{},{},{},{},{},{}",
            r.name,
            st.strategy,
            st.seeds.len(),
            st.recovered,
            e(&st.recover_s),
            e(&st.during_amplification),
            e(&st.during_peak_amplification),
            e(&st.during_success),
            e(&st.during_attempts_cv),
            e(&st.after_amplification),
            e(&st.after_success),
            e(&st.load_during),
            e(&st.load_after),
            e(&st.wasted_fraction)
        );
    }
    s
}

/// The header of [`replicated_series_csv`].
pub const REPLICATED_SERIES_HEADER: &str = "scenario,strategy,t_s,attempts_per_s,attempts_per_s_hw,amplification,amplification_hw,success_ratio,success_ratio_hw,attempt_success_ratio,attempt_success_ratio_hw,concurrency,concurrency_hw,latency_p99_ms,latency_p99_ms_hw";

/// The mean time series over seeds, with 95 % half-widths, header included.
pub fn replicated_series_csv(r: &Replicated) -> String {
    let mut s = format!("{REPLICATED_SERIES_HEADER}\n");
    let e = csv_estimate;
    for st in &r.strategies {
        for b in &st.series {
            let _ = writeln!(
                s,
                "{},\"{}\",{},{},{},{},{},{},{}",
                r.name,
                st.strategy,
                csv_num(b.t_s),
                e(&b.attempts_per_s),
                e(&b.amplification),
                e(&b.success_ratio),
                e(&b.attempt_success_ratio),
                e(&b.concurrency),
                e(&b.latency_p99_ms)
            );
        }
    }
    s
}
