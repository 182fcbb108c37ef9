//! The number formats the reports share: text cells, durations, CSV fields and
//! estimates with their confidence intervals, and the heading of a report.

use sim_kit::stats::Estimate;
use sim_kit::time::Time;

use crate::config::{Fitted, StormConfig};
use crate::recovery::recovery_decimals;

/// The decimals of a run's time to recover: its bins' resolution (and the
/// triggers' end's).
pub(super) fn recover_decimals(c: &StormConfig) -> usize {
    c.trigger_window()
        .map_or(0, |(_, end)| recovery_decimals(c.bin_ps, end))
}

/// One line per default scaled to fit the run (none when none was).
pub(super) fn fitted_lines(fitted: &[Fitted]) -> String {
    let mut s = String::new();
    for x in fitted {
        let room = match x.key {
            "warmup" => "before the first trigger (or in the horizon)",
            _ => "after the last trigger",
        };
        s.push_str(&format!(
            "note: {} not set; its default {} does not fit in the {} {room}, so {} is used\n",
            x.key,
            secs(x.default),
            secs(x.room),
            secs(x.fitted)
        ));
    }
    s
}

/// A number with `prec` decimals; `-` when undefined.
pub(super) fn f(x: f64, prec: usize) -> String {
    if x.is_finite() {
        format!("{x:.prec$}")
    } else {
        "-".into()
    }
}

/// A duration in seconds from 1 s up, in milliseconds below.
pub(super) fn secs(t: Time) -> String {
    let v = t.as_secs_f64();
    if v >= 1.0 {
        format!("{} s", style_num(v))
    } else {
        format!("{} ms", style_num(v * 1000.0))
    }
}

/// A whole number without decimals, any other with three.
pub(super) fn style_num(v: f64) -> String {
    if v == v.round() {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// An estimate as text: the mean, with its 95 % half-width when there are two or
/// more samples; `-` when undefined.
pub(super) fn pm(e: &Estimate, prec: usize) -> String {
    if !e.mean.is_finite() {
        "-".into()
    } else if e.n < 2 {
        format!("{:.prec$}", e.mean)
    } else {
        format!("{:.prec$}±{:.prec$}", e.mean, e.half_width)
    }
}

/// A CSV number: six decimals, empty when undefined.
pub(super) fn csv_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        String::new()
    }
}

/// An estimate as two CSV fields: the mean and the 95 % half-width.
pub(super) fn csv_estimate(x: &Estimate) -> String {
    format!("{},{}", csv_num(x.mean), csv_num(x.half_width))
}

/// The first two lines of a report: the scenario and what it should show.
pub(super) fn heading(name: &str, title: &str, expectation: &str) -> String {
    format!("mac-sim storm: {name} — {title}\nexpected: {expectation}\n")
}
