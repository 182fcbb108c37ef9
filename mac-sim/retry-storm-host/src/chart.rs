//! Charts of `mac-sim storm`: a scenario's time series, one line per strategy, with
//! the trigger window shaded (the seed articles' charts), and the contention
//! experiment's calls and completion time per jitter kind.

use plotters::coord::Shift;
use plotters::prelude::*;

use retry_storm::contention::{ContentionRow, KINDS};
use retry_storm::metrics::BinRow;
use retry_storm::replicate::{BinEstimate, Replicated, StrategyOverSeeds};
use retry_storm::sweep::SweepPoint;
use retry_storm::{ComparisonResult, StormConfig};
use sim_host::chart::style::SIZE;
use sim_host::chart::{Axis, LegendAt, LineChart, Series, Stroke};
use sim_host::chart::{Figure, PlotError};
use sim_kit::stats::Estimate;
use sim_kit::time::Time;

/// Several line charts in a grid of equal panels, drawn as one figure; the legends
/// beside their plots all as wide as the widest, so that the plots line up.
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
        // One width for every legend beside its plot, so that the plots line up.
        let mut legend = 0;
        for (chart, cell) in self.charts.iter().zip(cells.iter()) {
            if chart.legend == LegendAt::Outside {
                legend = legend.max(chart.outside_legend_width(cell)?);
            }
        }
        for (chart, cell) in self.charts.iter().zip(cells.iter()) {
            let mut chart = chart.clone();
            chart.legend_width = chart.legend_width.max(legend);
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

/// The measure a panel plots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Measure {
    Attempts,
    Amplification,
    Success,
    AttemptSuccess,
    Concurrency,
    LatencyP99,
}

/// The field of a bin that `$m` names: the same names in a single run's [`BinRow`]
/// and in a replicated [`BinEstimate`].
macro_rules! measure_of {
    ($m:expr, $b:expr) => {
        match $m {
            Measure::Attempts => $b.attempts_per_s,
            Measure::Amplification => $b.amplification,
            Measure::Success => $b.success_ratio,
            Measure::AttemptSuccess => $b.attempt_success_ratio,
            Measure::Concurrency => $b.concurrency,
            Measure::LatencyP99 => $b.latency_p99_ms,
        }
    };
}

impl Measure {
    fn of_row(self, b: &BinRow) -> f64 {
        measure_of!(self, b)
    }

    fn of_estimate(self, b: &BinEstimate) -> Estimate {
        measure_of!(self, b)
    }

    /// A ratio, between 0 and 1.
    fn is_ratio(self) -> bool {
        matches!(self, Measure::Success | Measure::AttemptSuccess)
    }
}

/// The six panels of a storm figure: title, axis label, look, measure.
const PANELS: [(&str, &str, Look, Measure); 6] = [
    (
        "Server attempts",
        "attempts per second",
        Look::Line,
        Measure::Attempts,
    ),
    (
        "Load amplification",
        "attempts / new requests",
        Look::DotsMaybeLog,
        Measure::Amplification,
    ),
    (
        "Client success ratio",
        "requests succeeded / ended",
        Look::Dots,
        Measure::Success,
    ),
    (
        "Attempt success ratio",
        "attempts answered OK / ended",
        Look::Dots,
        Measure::AttemptSuccess,
    ),
    (
        "Server concurrency",
        "requests in the server (mean)",
        Look::Line,
        Measure::Concurrency,
    ),
    (
        "Latency p99",
        "p99 latency of successes (ms)",
        Look::Dots,
        Measure::LatencyP99,
    ),
];

/// An empty panel: title, axes (a ratio fixed to 0..1), the legend beside the plot
/// (nothing under it), and the trigger window shaded.
fn panel(title: String, y: Axis, m: Measure, trigger: Option<(f64, f64)>) -> LineChart {
    let mut c = LineChart::new(&title, Axis::linear("time (s)"), y).legend_at(LegendAt::Outside);
    if m.is_ratio() {
        c.y = c.y.clone().range(0.0, 1.0);
    }
    if let Some((from, to)) = trigger {
        c = c.shade(from, to, "trigger");
    }
    c
}

/// A series drawn the way its panel's look says: markers only unless it is a line.
fn styled(s: Series, look: Look) -> Series {
    let mut s = s.no_markers();
    if look != Look::Line {
        s.stroke = Stroke::None;
        s.markers = true;
    }
    s
}

/// The trigger window of a run, in seconds.
pub fn trigger_window(cfg: &StormConfig) -> Option<(f64, f64)> {
    let s = |t: Time| t.as_secs_f64();
    cfg.trigger_window().map(|(a, b)| (s(a), s(b)))
}

/// The time-series figure of a scenario: six panels (attempts/s, amplification,
/// client and attempt success ratios, concurrency, p99 latency), one line per
/// strategy (dots where a bin can be undefined, so that gaps show), the trigger
/// window shaded.
pub fn scenario_chart(r: &ComparisonResult) -> Panels {
    let trigger = r.runs.first().and_then(|x| trigger_window(&x.config));
    let charts = PANELS
        .iter()
        .map(|&(title, unit, look, m)| {
            let lines: Vec<Vec<(f64, f64)>> = r
                .runs
                .iter()
                .map(|run| {
                    run.series
                        .iter()
                        .map(|b| (b.t_s, m.of_row(b)))
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
            let y = if look == Look::DotsMaybeLog && hi > 30.0 * lo {
                Axis::log(&format!("{unit}, log scale"))
            } else {
                Axis::linear(unit)
            };
            let mut c = panel(format!("{} — {title}", r.name), y, m, trigger);
            for (i, (run, pts)) in r.runs.iter().zip(lines).enumerate() {
                c = c.series(styled(Series::new(&run.strategy, pts).colour(i), look));
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
    let seeds = r.strategies.first().map_or(0, |s| s.seeds.len()) as u32;
    let charts = PANELS
        .iter()
        .map(|&(title, unit, look, m)| {
            let name = format!("{} — {title}, mean of {seeds} seeds", r.name);
            let mut c = panel(name, Axis::linear(unit), m, trigger);
            let hi_max = if m.is_ratio() { 1.0 } else { f64::INFINITY };
            for (i, st) in r.strategies.iter().enumerate() {
                let pts: Vec<(f64, Estimate)> = st
                    .series
                    .iter()
                    .map(|b| (b.t_s, m.of_estimate(b)))
                    .filter(|p| p.1.mean.is_finite() && p.1.n == seeds)
                    .collect();
                let line = pts.iter().map(|&(t, e)| (t, e.mean)).collect();
                let spread = pts
                    .iter()
                    .map(|&(_, e)| (e.lo().max(0.0), e.hi().min(hi_max)))
                    .collect();
                let s = Series::new(&st.strategy, line).colour(i);
                let s = if look == Look::Line {
                    s.band(spread)
                } else {
                    s.error_bars(spread)
                };
                c = c.series(styled(s, look));
            }
            c
        })
        .collect();
    Panels { charts, columns: 2 }
}

/// The contention figure: calls and completion time against clients, one line per
/// jitter kind, on log axes (without jitter both grow far faster), the legends beside
/// the plots.
pub fn contention_chart(rows: &[ContentionRow]) -> Panels {
    let chart = |title: &str, unit: &str, get: fn(&ContentionRow) -> f64| {
        let mut c = LineChart::new(title, Axis::linear("clients"), Axis::log(unit))
            .legend_at(LegendAt::Outside);
        for (i, name) in KINDS.iter().enumerate() {
            let pts: Vec<_> = rows
                .iter()
                .filter(|r| r.jitter == *name)
                .map(|r| (f64::from(r.clients), get(r)))
                .collect();
            // A file may compare only some kinds; each keeps its colour.
            if !pts.is_empty() {
                c = c.series(Series::new(name, pts).colour(i));
            }
        }
        c
    };
    Panels {
        charts: vec![
            chart("Contention — total calls", "calls, log scale", |r| {
                r.calls as f64
            }),
            chart(
                "Contention — completion time",
                "time until the last client succeeds (ms), log scale",
                |r| r.completion_ms,
            ),
        ],
        columns: 2,
    }
}

/// The sweep figure: the normalised load after the triggers, the success ratio during
/// them and the seeds that recovered (both from 0 to 1), against the swept parameter,
/// one line per strategy with its 95 % interval, the legends beside the plots.
pub fn sweep_chart(name: &str, param: &str, points: &[SweepPoint]) -> Panels {
    type Get = fn(&StrategyOverSeeds) -> Estimate;
    let recovered: Get = |s| {
        let n = s.seeds.len().max(1) as f64;
        Estimate {
            mean: f64::from(s.recovered) / n,
            half_width: 0.0,
            n: s.seeds.len() as u32,
        }
    };
    // Title, axis, measure, and whether it is a share (an axis from 0 to 1).
    let panels: [(&str, &str, Get, bool); 3] = [
        (
            "load after the triggers",
            "attempts/s over before",
            |s| s.load_after,
            false,
        ),
        (
            "client success during the triggers",
            "ratio",
            |s| s.during_success_ratio,
            true,
        ),
        ("seeds that recovered", "share", recovered, true),
    ];
    let names: Vec<&str> = points
        .first()
        .map(|p| p.strategies.iter().map(|s| s.strategy.as_str()).collect())
        .unwrap_or_default();
    let charts = panels
        .iter()
        .map(|&(title, unit, get, share)| {
            let y = Axis::linear(unit);
            let y = if share { y.range(0.0, 1.0) } else { y };
            let mut c = LineChart::new(&format!("{name} — {title}"), Axis::linear(param), y)
                .legend_at(LegendAt::Outside);
            for (i, strategy) in names.iter().enumerate() {
                let est: Vec<(f64, Estimate)> = points
                    .iter()
                    .enumerate()
                    .filter_map(|(k, p)| p.strategies.get(i).map(|s| (p.value.x(k), get(s))))
                    .filter(|(_, e)| e.mean.is_finite())
                    .collect();
                let line = est.iter().map(|&(x, e)| (x, e.mean)).collect();
                let bars = est.iter().map(|&(_, e)| (e.lo(), e.hi())).collect();
                c = c.series(Series::new(strategy, line).colour(i).error_bars(bars));
            }
            c
        })
        .collect();
    Panels { charts, columns: 3 }
}
