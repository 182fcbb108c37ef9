//! Charts of `mac-sim storm`: a scenario's time series, one line per strategy, with
//! the trigger window shaded (the seed articles' charts), and the contention
//! experiment's calls and completion time per jitter kind.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::line::{Axis, LegendAt, LineChart, Series, Stroke};
use super::save::{Figure, PlotError};
use super::style::SIZE;
use crate::model::storm::ScenarioResult;
use crate::model::storm::contention::{ContentionRow, JITTERS};
use crate::model::storm::metrics::BinRow;
use crate::model::storm::replicate::{BinEstimate, Replicated};
use crate::stats::ci::Estimate;
use crate::time::PS_PER_SEC;

/// Several line charts in a grid of equal panels, drawn as one figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Panels {
    /// The charts, row by row.
    pub charts: Vec<LineChart>,
    /// Panels per row.
    pub columns: usize,
}

impl Panels {
    fn rows(&self) -> usize {
        self.charts.len().div_ceil(self.columns.max(1))
    }
}

impl Figure for Panels {
    fn size(&self) -> (u32, u32) {
        let (w, h) = SIZE;
        (
            w * self.columns.max(1) as u32,
            h * self.rows().max(1) as u32,
        )
    }

    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let cells = area.split_evenly((self.rows().max(1), self.columns.max(1)));
        for (chart, cell) in self.charts.iter().zip(cells.iter()) {
            chart.draw(cell)?;
        }
        Ok(())
    }
}

/// How a panel draws its lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    /// Lines (the value exists in every bin).
    Line,
    /// Markers only: the value is undefined in bins where nothing ended, and a line
    /// would bridge those gaps.
    Dots,
    /// Markers, on a log axis if the values span more than 30x (amplification: it is
    /// undefined in bins without new requests, and can reach hundreds).
    DotsMaybeLog,
}

type Metric = (&'static str, &'static str, Look, fn(&BinRow) -> f64);

/// The panels of a scenario chart: what each plots.
const METRICS: [Metric; 6] = [
    ("Server attempts", "attempts per second", Look::Line, |b| {
        b.attempts_per_s
    }),
    (
        "Load amplification",
        "attempts / new requests",
        Look::DotsMaybeLog,
        |b| b.amplification,
    ),
    (
        "Client success ratio",
        "requests succeeded / ended",
        Look::Dots,
        |b| b.success_ratio,
    ),
    (
        "Attempt success ratio",
        "attempts answered OK / ended",
        Look::Dots,
        |b| b.attempt_success_ratio,
    ),
    (
        "Server concurrency",
        "requests in the server (mean)",
        Look::Line,
        |b| b.concurrency,
    ),
    (
        "Latency p99",
        "p99 latency of successes (ms)",
        Look::Dots,
        |b| b.latency_p99_ms,
    ),
];

/// The time-series figure of a scenario: six panels (attempts/s, amplification,
/// client and attempt success ratios, concurrency, p99 latency), one line per
/// strategy (dots where a bin can be undefined, so that gaps show), the trigger
/// window shaded.
pub fn scenario_chart(r: &ScenarioResult) -> Panels {
    let trigger = r.runs.first().and_then(|x| x.config.trigger);
    let charts = METRICS
        .iter()
        .map(|&(title, unit, look, get)| {
            let lines: Vec<Vec<(f64, f64)>> = r
                .runs
                .iter()
                .map(|run| {
                    run.series
                        .iter()
                        .map(|b| (b.t_s, get(b)))
                        .filter(|p| p.1.is_finite())
                        .collect()
                })
                .collect();
            let (lo, hi) = lines
                .iter()
                .flatten()
                .map(|p| p.1)
                .filter(|&v| v > 0.0)
                .fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
            let log = look == Look::DotsMaybeLog && hi > 30.0 * lo;
            let y = if log {
                Axis::log(&format!("{unit}, log scale"))
            } else {
                Axis::linear(unit)
            };
            let mut c = LineChart::new(
                &format!("{} — {title}", r.name),
                Axis::linear("time (s)"),
                y,
            )
            .legend_at(LegendAt::UpperRight);
            if unit.contains("/ ended") {
                c = c.legend_at(LegendAt::LowerLeft);
                c.y = c.y.clone().range(0.0, 1.05);
            }
            for (i, (run, pts)) in r.runs.iter().zip(lines).enumerate() {
                let mut s = Series::new(&run.strategy, pts).colour(i).no_markers();
                if look != Look::Line {
                    s.stroke = Stroke::None;
                    s.markers = true;
                }
                c = c.series(s);
            }
            if let Some(t) = trigger {
                let s = |ps: u64| ps as f64 / PS_PER_SEC as f64;
                c = c.shade(s(t.start_ps), s(t.end_ps), "trigger");
            }
            c
        })
        .collect();
    Panels { charts, columns: 2 }
}

/// The figure of a scenario over several seeds: the same six panels, each
/// strategy's mean over the seeds with its 95 % confidence interval — a line and a
/// band where the measure exists in every bin, dots and error bars where it can be
/// undefined (only bins where every seed has a value are drawn) — and the trigger
/// window `(from, to)` (seconds) shaded. Intervals are clipped to the measure's
/// range (counts at 0, ratios at 0 and 1).
pub fn replicated_chart(r: &Replicated, trigger: Option<(f64, f64)>) -> Panels {
    type Get = fn(&BinEstimate) -> Estimate;
    let panels: [(&str, &str, Look, Get); 6] = [
        ("Server attempts", "attempts per second", Look::Line, |b| {
            b.attempts_per_s
        }),
        (
            "Load amplification",
            "attempts / new requests",
            Look::Dots,
            |b| b.amplification,
        ),
        (
            "Client success ratio",
            "requests succeeded / ended",
            Look::Dots,
            |b| b.success_ratio,
        ),
        (
            "Attempt success ratio",
            "attempts answered OK / ended",
            Look::Dots,
            |b| b.attempt_success_ratio,
        ),
        (
            "Server concurrency",
            "requests in the server (mean)",
            Look::Line,
            |b| b.concurrency,
        ),
        (
            "Latency p99",
            "p99 latency of successes (ms)",
            Look::Dots,
            |b| b.latency_p99_ms,
        ),
    ];
    let seeds = r.strategies.first().map_or(0, |s| s.seeds.len()) as u32;
    let charts = panels
        .iter()
        .map(|&(title, unit, look, get)| {
            let ratio = unit.contains("/ ended");
            let mut c = LineChart::new(
                &format!("{} — {title}, mean of {seeds} seeds", r.name),
                Axis::linear("time (s)"),
                Axis::linear(unit),
            )
            .legend_at(LegendAt::UpperRight);
            if ratio {
                c = c.legend_at(LegendAt::LowerLeft);
                c.y = c.y.clone().range(0.0, 1.05);
            }
            let hi_max = if ratio { 1.0 } else { f64::INFINITY };
            for (i, st) in r.strategies.iter().enumerate() {
                let pts: Vec<(f64, Estimate)> = st
                    .series
                    .iter()
                    .map(|b| (b.t_s, get(b)))
                    .filter(|p| p.1.mean.is_finite() && p.1.n == seeds)
                    .collect();
                let line = pts.iter().map(|&(t, e)| (t, e.mean)).collect();
                let spread = pts
                    .iter()
                    .map(|&(_, e)| (e.lo().max(0.0), e.hi().min(hi_max)))
                    .collect();
                let mut s = Series::new(&st.strategy, line).colour(i).no_markers();
                s = if look == Look::Line {
                    s.band(spread)
                } else {
                    let mut s = s.error_bars(spread);
                    s.stroke = Stroke::None;
                    s.markers = true;
                    s
                };
                c = c.series(s);
            }
            if let Some((from, to)) = trigger {
                c = c.shade(from, to, "trigger");
            }
            c
        })
        .collect();
    Panels { charts, columns: 2 }
}

/// The contention figure: calls and completion time against clients, one line per
/// jitter kind.
pub fn contention_chart(rows: &[ContentionRow]) -> Panels {
    let chart = |title: &str, unit: &str, get: fn(&ContentionRow) -> f64| {
        let mut c = LineChart::new(title, Axis::linear("clients"), Axis::linear(unit))
            .legend_at(LegendAt::UpperLeft);
        for (i, (name, _)) in JITTERS.iter().enumerate() {
            let pts = rows
                .iter()
                .filter(|r| r.jitter == *name)
                .map(|r| (f64::from(r.clients), get(r)))
                .collect();
            c = c.series(Series::new(name, pts).colour(i));
        }
        c
    };
    Panels {
        charts: vec![
            chart("Contention — total calls", "calls", |r| r.calls as f64),
            chart(
                "Contention — completion time",
                "time until the last client succeeds (ms)",
                |r| r.completion_ms,
            ),
        ],
        columns: 2,
    }
}
