//! A scenario run over several seeds: the text summary, the CSV of means and 95 %
//! half-widths per strategy, and the mean time series.

use std::fmt::Write as _;

use super::format::{csv_estimate, fitted_lines, heading, pm, recover_decimals, secs};
use super::scenario_result::{SERIES_HEADER, series_rows};
use crate::replicate::Replicated;

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
    let first = r.per_seed.first().and_then(|x| x.runs.first());
    if let Some(run) = first {
        s.push_str(&fitted_lines(&run.summary.fitted));
    }
    let prec = first.map_or(1, |run| recover_decimals(&run.config) + 1);
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<32} {:>11} {:>11} {:>11} {:>13} {:>8} {:>11} | {:>11} {:>11} {:>13} | {:>9} {:>13} {:>7} {:>13}",
        "strategy",
        "amp~",
        "amp^",
        "load~",
        "succ~",
        "ended~",
        "cv~",
        "amp>",
        "load>",
        "succ>",
        "recovered",
        "recover s",
        "drained",
        "drain s"
    );
    for st in &r.strategies {
        let _ = writeln!(
            s,
            "{:<32} {:>11} {:>11} {:>11} {:>13} {:>8} {:>11} | {:>11} {:>11} {:>13} | {:>9} {:>13} {:>7} {:>13}",
            st.strategy,
            pm(&st.during_mean_amplification, 2),
            pm(&st.during_peak_amplification, 2),
            pm(&st.load_during, 2),
            pm(&st.during_success_ratio, 3),
            super::format::f(st.during_completed.mean, 0),
            pm(&st.during_attempts_cv, 2),
            pm(&st.after_mean_amplification, 2),
            pm(&st.load_after, 2),
            pm(&st.after_success_ratio, 3),
            format!("{}/{}", st.recovered, st.seeds.len()),
            pm(&st.recover_s, prec),
            format!("{}/{}", st.drained, st.seeds.len()),
            pm(&st.drain_s, prec)
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
        "\nsucc~: over the runs where enough requests ended during the triggers (ended~ on average: at least {} and {} % of the new requests), - when none;\nrecover s: over the runs whose server recovered, drain s: over those whose retrying clients drained, each a whole number of bins{}; a run that did not recover within the horizon is metastable.",
        crate::recovery::MIN_ENDED,
        crate::recovery::MIN_ENDED_SHARE * 100.0,
        first.map_or(String::new(), |run| format!(
            " of {}",
            secs(run.config.bin_ps)
        ))
    );
    s
}

/// The header of [`replicated_csv`].
pub const REPLICATED_HEADER: &str = "scenario,strategy,seeds,recovered,recover_s,recover_s_ci95,drained,drain_s,drain_s_ci95,during_mean_amplification,during_mean_amplification_ci95,during_peak_amplification,during_peak_amplification_ci95,during_success_ratio,during_success_ratio_ci95,during_completed,during_completed_ci95,during_attempts_cv,during_attempts_cv_ci95,after_mean_amplification,after_mean_amplification_ci95,after_success_ratio,after_success_ratio_ci95,after_completed,after_completed_ci95,load_during,load_during_ci95,load_after,load_after_ci95,wasted_fraction,wasted_fraction_ci95";

/// One line per strategy over all seeds (means and 95 % half-widths), header included.
pub fn replicated_csv(r: &Replicated) -> String {
    let mut s = format!("{REPLICATED_HEADER}\n");
    let e = csv_estimate;
    for st in &r.strategies {
        let _ = writeln!(
            s,
            "{},\"{}\",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.name,
            st.strategy,
            st.seeds.len(),
            st.recovered,
            e(&st.recover_s),
            st.drained,
            e(&st.drain_s),
            e(&st.during_mean_amplification),
            e(&st.during_peak_amplification),
            e(&st.during_success_ratio),
            e(&st.during_completed),
            e(&st.during_attempts_cv),
            e(&st.after_mean_amplification),
            e(&st.after_success_ratio),
            e(&st.after_completed),
            e(&st.load_during),
            e(&st.load_after),
            e(&st.wasted_fraction)
        );
    }
    s
}

/// The header of [`replicated_series_csv`]: the single-seed series' columns.
pub const REPLICATED_SERIES_HEADER: &str = SERIES_HEADER;

/// Every seed's time series, with the columns of the single-seed series (a line per
/// seed, strategy and bin, the seed in its column), header included: the lines of
/// one seed are those the same scenario run with that seed gives. The means over
/// the seeds with their 95 % intervals are in the JSON (`series`).
pub fn replicated_series_csv(r: &Replicated) -> String {
    let mut s = format!("{REPLICATED_SERIES_HEADER}\n");
    for one in &r.per_seed {
        series_rows(&mut s, one);
    }
    s
}
