//! A storm sweep as text, CSV and JSON.

use std::fmt::Write as _;

use serde::Serialize;

use super::format::{csv_estimate, heading, pm, recover_decimals};
use crate::comparison::Comparison;
use crate::sweep::{Axis, SweepPoint};

/// A sweep with what it swept, for JSON.
#[derive(Serialize)]
struct SweepRecord<'a> {
    scenario: &'a str,
    param: &'a str,
    points: &'a [SweepPoint],
}

/// The sweep as JSON.
pub fn sweep_json(sc: &Comparison, spec: &Axis, points: &[SweepPoint]) -> String {
    sim_kit::output::json::to_string(&SweepRecord {
        scenario: &sc.name,
        param: spec.key.as_str(),
        points,
    })
}

/// The sweep as a table: a line per value and strategy.
pub fn sweep_report(sc: &Comparison, spec: &Axis, points: &[SweepPoint]) -> String {
    let mut s = heading(&sc.name, &sc.title, &sc.expectation);
    let seeds = points
        .first()
        .and_then(|p| p.strategies.first())
        .map_or(0, |st| st.seeds.len());
    let _ = writeln!(
        s,
        "sweep of {} over {} values, {seeds} seeds each; mean ± half-width of the 95 % confidence interval\n",
        spec.key.as_str(),
        points.len()
    );
    let _ = writeln!(
        s,
        "{:>12} {:<32} {:>11} {:>11} {:>13} {:>9} {:>13} {:>7} {:>13}",
        spec.key.as_str(),
        "strategy",
        "load~",
        "load>",
        "succ~",
        "recovered",
        "recover s",
        "drained",
        "drain s"
    );
    let prec = sc.runs.first().map_or(1, |c| recover_decimals(c) + 1);
    for p in points {
        for st in &p.strategies {
            let _ = writeln!(
                s,
                "{:>12} {:<32} {:>11} {:>11} {:>13} {:>9} {:>13} {:>7} {:>13}",
                p.value.to_string(),
                st.strategy,
                pm(&st.load_during, 2),
                pm(&st.load_after, 2),
                pm(&st.during_success_ratio, 3),
                format!("{}/{}", st.recovered, st.seeds.len()),
                pm(&st.recover_s, prec),
                format!("{}/{}", st.drained, st.seeds.len()),
                pm(&st.drain_s, prec)
            );
        }
    }
    let _ = writeln!(
        s,
        "\nload = attempts reaching the server per second / the same before the triggers (~ during them, > after them); succ~ = client success during them."
    );
    s
}

/// The header of [`sweep_csv`].
pub const SWEEP_HEADER: &str = "scenario,param,value,strategy,seeds,recovered,recover_s,recover_s_ci95,drained,drain_s,drain_s_ci95,load_during,load_during_ci95,load_after,load_after_ci95,during_success_ratio,during_success_ratio_ci95,during_completed,during_completed_ci95,wasted_fraction,wasted_fraction_ci95";

/// The sweep as CSV, header included: a line per value and strategy.
pub fn sweep_csv(sc: &Comparison, spec: &Axis, points: &[SweepPoint]) -> String {
    let mut s = format!("{SWEEP_HEADER}\n");
    let e = csv_estimate;
    for p in points {
        for st in &p.strategies {
            let _ = writeln!(
                s,
                "{},{},{},\"{}\",{},{},{},{},{},{},{},{},{},{}",
                sc.name,
                spec.key.as_str(),
                p.value,
                st.strategy,
                st.seeds.len(),
                st.recovered,
                e(&st.recover_s),
                st.drained,
                e(&st.drain_s),
                e(&st.load_during),
                e(&st.load_after),
                e(&st.during_success_ratio),
                e(&st.during_completed),
                e(&st.wasted_fraction)
            );
        }
    }
    s
}
