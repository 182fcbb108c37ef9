//! A scenario run with one seed: the text summary, the summary CSV (a line per
//! strategy) and the time series CSV (a line per bin and strategy).

use std::fmt::Write as _;

use super::describe::describe;
use super::format::{csv_num, f, fitted_lines, heading, recover_decimals};
use crate::recovery::seconds_text;
use crate::{ComparisonResult, StormResult};

/// The text summary of a scenario: one line per strategy, then the verdicts.
pub fn report(r: &ComparisonResult) -> String {
    let mut s = heading(&r.name, &r.title, &r.expectation);
    if let Some(first) = r.runs.first() {
        let _ = writeln!(s, "{}", describe(&first.config));
        s.push_str(&fitted_lines(&first.summary.fitted));
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<32} {:>7} {:>7} | {:>7} {:>7} {:>6} {:>6} {:>7} {:>7} {:>6} | {:>7} {:>6} {:>7} | {:>9} {:>7} {:>8}",
        "strategy",
        "succ<",
        "conc<",
        "amp~",
        "amp^",
        "load~",
        "load^",
        "succ~",
        "ended~",
        "cv~",
        "amp>",
        "load>",
        "succ>",
        "recover s",
        "drain s",
        "events"
    );
    for run in &r.runs {
        let m = &run.summary;
        let _ = writeln!(
            s,
            "{:<32} {:>7} {:>7} | {:>7} {:>7} {:>6} {:>6} {:>7} {:>7} {:>6} | {:>7} {:>6} {:>7} | {:>9} {:>7} {:>8}",
            run.strategy,
            f(m.before.success_ratio, 3),
            f(m.before.concurrency, 1),
            f(m.during.mean_amplification, 2),
            f(m.during.peak_amplification, 2),
            f(m.load_during, 2),
            f(m.load_peak, 2),
            f(m.during.success_ratio, 3),
            m.during.completed,
            f(m.during.attempts_cv, 2),
            f(m.after.mean_amplification, 2),
            f(m.load_after, 2),
            f(m.after.success_ratio, 3),
            m.recovery.seconds().map_or("never".into(), |x| {
                seconds_text(x, recover_decimals(&run.config))
            }),
            m.drain.seconds().map_or("never".into(), |x| {
                seconds_text(x, recover_decimals(&run.config))
            }),
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
        if c.rate_limited > 0 {
            let _ = writeln!(
                s,
                "{:<32} {} attempts waited for the adaptive rate limiter's token",
                "", c.rate_limited
            );
        }
        if c.waited > 0 {
            let _ = writeln!(
                s,
                "{:<32} {} arrivals waited for a free client (at most {} waiting at once, {} ms on average of every arrival a client took up; not in the latency)",
                "",
                c.waited,
                c.max_waiting,
                f(c.wait_mean_ms(), 1)
            );
        }
        if c.rejected > 0 {
            let _ = writeln!(
                s,
                "{:<32} {} attempts rejected at once by load shedding or the rate limiter",
                "", c.rejected
            );
        }
        if c.dropped > 0 {
            let _ = writeln!(
                s,
                "{:<32} {} attempts dropped unanswered by the full listen backlog",
                "", c.dropped
            );
        }
        if c.error_work > 0 {
            let _ = writeln!(
                s,
                "{:<32} {} errors answered after holding a worker for their error work",
                "", c.error_work
            );
        }
        if c.overloaded > 0 || c.refused > 0 {
            let _ = writeln!(
                s,
                "{:<32} {} attempts answered \"overloaded, do not retry\"; {} requests failed: the server said do not retry",
                "", c.overloaded, c.refused
            );
        }
    }
    let _ = writeln!(s, "\nServer (per second: before < during ~ after >):");
    for run in &r.runs {
        let _ = writeln!(s, "{:<32} {}", run.strategy, server_line(run));
    }
    if r.runs.iter().any(|x| !x.layers.is_empty()) {
        let _ = writeln!(
            s,
            "\nCall chain: the load each caller sent down (attempts per second / its pre-trigger rate) during the triggers ~ and after them >:"
        );
        for run in &r.runs {
            let m = &run.summary;
            let layers: Vec<String> = run
                .layers
                .iter()
                .enumerate()
                .map(|(k, l)| {
                    let load = |w: &crate::recovery::Window| {
                        let base = m.before.layer_attempts_per_s.get(k).copied();
                        match (w.layer_attempts_per_s.get(k), base) {
                            (Some(x), Some(b)) if b > 0.0 => f(x / b, 2),
                            _ => "-".into(),
                        }
                    };
                    format!(
                        "{} -> {} ~{} >{}",
                        l.caller,
                        l.callee,
                        load(&m.during),
                        load(&m.after)
                    )
                })
                .collect();
            let _ = writeln!(s, "{:<32} {}", run.strategy, layers.join("; "));
        }
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
        "\n<: before the trigger, ~: during it, >: after it; amp = the clients' attempts / new requests (~ mean, ^ peak bin),\nload = attempts reaching the server per second / the same before the trigger (^ peak bin during or after), succ = client success ratio
over the requests that ended (ended~ of them during the trigger; - when fewer than {} or under {} % of the new requests),\nconc = server concurrency, cv = variation of attempts per bin over the trigger's second half (waves: large).",
        crate::recovery::MIN_ENDED,
        crate::recovery::MIN_ENDED_SHARE * 100.0
    );
    if let Some(first) = r.runs.first() {
        let rule = first.config.recovery;
        let _ = writeln!(
            s,
            "Recovered (the server): the first time after the trigger ends from which, for {} s, every bin has success >= {} % of the baseline (or nothing ended in it) and concurrency <= {} x baseline + {};\ndrained (the clients): the same for the backlog of retrying requests <= {} x baseline + {}; recover s and drain s in bins of {}.",
            rule.sustain_ps.as_secs_f64(),
            rule.success_fraction * 100.0,
            rule.conc_factor,
            rule.conc_slack,
            rule.conc_factor,
            rule.conc_slack,
            super::format::secs(first.config.bin_ps)
        );
    }
    s
}

/// What the server saw in a run, before, during and after the triggers: attempts
/// reaching it, its throughput, rejections, concurrency and the backlog of retrying
/// requests, per second or mean.
fn server_line(run: &StormResult) -> String {
    let m = &run.summary;
    let w = [&m.before, &m.during, &m.after];
    let three = |g: fn(&crate::recovery::Window) -> f64, prec: usize| {
        w.iter()
            .map(|x| f(g(x), prec))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "arrivals {}; served {}; rejected {}; concurrency {}; retrying {}",
        three(|x| x.server_attempts_per_s, 1),
        three(|x| x.served_per_s, 1),
        three(|x| x.rejected_per_s, 1),
        three(|x| x.concurrency, 1),
        three(|x| x.retrying, 1)
    )
}

/// The header of [`series_csv`].
///
/// With a call chain, the attempts each caller sent per bin are in the JSON
/// (`layer_attempts_per_s`); `server_attempts_per_s` is the last one's.
pub const SERIES_HEADER: &str = "scenario,strategy,seed,t_s,offered_per_s,attempts_per_s,retries_per_s,server_attempts_per_s,served_per_s,rejected_per_s,amplification,success_ratio,completed,attempt_success_ratio,concurrency,concurrency_max,queue,retrying,latency_p50_ms,latency_p99_ms,wait_p50_ms,wait_p99_ms";

/// Every run's time series as CSV (header included), one line per bin and strategy.
pub fn series_csv(r: &ComparisonResult) -> String {
    let mut s = format!("{SERIES_HEADER}\n");
    series_rows(&mut s, r);
    s
}

/// The lines of [`series_csv`] for every run of `r`, without the header.
pub(super) fn series_rows(s: &mut String, r: &ComparisonResult) {
    let g = csv_num;
    for run in &r.runs {
        for b in &run.series {
            let _ = writeln!(
                s,
                "{},\"{}\",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                r.name,
                run.strategy,
                run.config.seed,
                g(b.t_s),
                g(b.offered_per_s),
                g(b.attempts_per_s),
                g(b.retries_per_s),
                g(b.server_attempts_per_s),
                g(b.served_per_s),
                g(b.rejected_per_s),
                g(b.amplification),
                g(b.success_ratio),
                b.completed,
                g(b.attempt_success_ratio),
                g(b.concurrency),
                b.concurrency_max,
                g(b.queue),
                g(b.retrying),
                g(b.latency_p50_ms),
                g(b.latency_p99_ms),
                g(b.wait_p50_ms),
                g(b.wait_p99_ms)
            );
        }
    }
}

/// The header of [`summary_csv`].
pub const SUMMARY_HEADER: &str = "scenario,strategy,seed,events,offered,attempts,succeeded,before_success_ratio,before_completed,before_concurrency,during_mean_amplification,during_peak_amplification,during_success_ratio,during_completed,during_attempts_cv,after_mean_amplification,after_peak_amplification,after_success_ratio,after_completed,load_during,load_peak,load_after,wasted_fraction,recover_s,drain_s,verdict";

/// One summary line per strategy, header included.
pub fn summary_csv(r: &ComparisonResult) -> String {
    let mut s = format!("{SUMMARY_HEADER}\n");
    let g = csv_num;
    for run in &r.runs {
        let m = &run.summary;
        let c = &run.counts;
        let _ = writeln!(
            s,
            "{},\"{}\",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},\"{}\"",
            r.name,
            run.strategy,
            run.config.seed,
            run.events,
            c.offered,
            c.attempts,
            c.succeeded,
            g(m.before.success_ratio),
            m.before.completed,
            g(m.before.concurrency),
            g(m.during.mean_amplification),
            g(m.during.peak_amplification),
            g(m.during.success_ratio),
            m.during.completed,
            g(m.during.attempts_cv),
            g(m.after.mean_amplification),
            g(m.after.peak_amplification),
            g(m.after.success_ratio),
            m.after.completed,
            g(m.load_during),
            g(m.load_peak),
            g(m.load_after),
            g(c.wasted_fraction()),
            m.recovery.seconds().map_or(String::new(), g),
            m.drain.seconds().map_or(String::new(), g),
            m.verdict
        );
    }
    s
}
