//! A scenario run over several seeds: the text summary, the CSV of means and 95 %
//! half-widths per strategy, and the mean time series.

use std::fmt::Write as _;

use super::format::{csv_estimate, csv_num, heading, pm};
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
