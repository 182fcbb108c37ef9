//! The charts of a CSMA/CD sweep, built from its [`PointSummary`] rows:
//!
//! * utilisation versus stations, one curve per frame size (and per any other swept
//!   parameter), 95 % CI bars, the Metcalfe-Boggs prediction dashed beside each
//!   saturated curve;
//! * mean (solid) and p99 (dashed) access delay versus offered load, one pair per
//!   backoff algorithm (log scale: the hockey stick);
//! * measured mean backoff after c collisions versus the algorithm's expectation,
//!   `E(c) = (2^min(c,10) − 1)/2` for BEB (log scale);
//! * Jain's fairness index versus stations.
//!
//! A chart is made only when its x parameter takes at least two values.

use crate::config::{BackoffAlgorithm, FrameSizes, Traffic};
use crate::sweep::summary::PointSummary;
use sim_kit::chart::line::{Axis, LegendAt, LineChart, Series, Spread};

fn frame_label(f: &FrameSizes) -> String {
    format!("{} B", f.label())
}

fn load_label(t: &Traffic) -> String {
    match t {
        Traffic::Saturated => "saturated".into(),
        Traffic::Poisson { load } => format!("G = {load}"),
    }
}

/// Points grouped by everything but one parameter, in first-seen order.
struct Groups<'a> {
    keys: Vec<String>,
    members: Vec<Vec<&'a PointSummary>>,
}

fn group<'a>(points: &'a [PointSummary], key: impl Fn(&PointSummary) -> String) -> Groups<'a> {
    let mut g = Groups {
        keys: Vec::new(),
        members: Vec::new(),
    };
    for p in points {
        let k = key(p);
        match g.keys.iter().position(|x| *x == k) {
            Some(i) => g.members[i].push(p),
            None => {
                g.keys.push(k);
                g.members.push(vec![p]);
            }
        }
    }
    g
}

fn distinct<T: PartialEq>(points: &[PointSummary], f: impl Fn(&PointSummary) -> T) -> usize {
    let mut seen: Vec<T> = Vec::new();
    for p in points {
        let v = f(p);
        if !seen.contains(&v) {
            seen.push(v);
        }
    }
    seen.len()
}

/// What is the same for every point (for titles): the parameters that do not vary.
fn fixed_note(points: &[PointSummary], skip: &[&str]) -> String {
    let Some(p0) = points.first() else {
        return String::new();
    };
    let c = &p0.config;
    let mut parts = Vec::new();
    if !skip.contains(&"stations") && distinct(points, |p| p.config.stations) == 1 {
        parts.push(format!("N = {}", c.stations));
    }
    if !skip.contains(&"frames") && distinct(points, |p| p.config.frames.clone()) == 1 {
        parts.push(frame_label(&c.frames));
    }
    if !skip.contains(&"load") && distinct(points, |p| p.config.traffic) == 1 {
        parts.push(load_label(&c.traffic));
    }
    if !skip.contains(&"backoff") && distinct(points, |p| p.config.backoff) == 1 {
        parts.push(c.backoff.label());
    }
    parts.push(format!("{} Mb/s", c.phy.bit_rate as f64 / 1e6));
    parts.join(", ")
}

/// Label of a curve: the values of the varying parameters other than `x`.
fn curve_label(points: &[PointSummary], p: &PointSummary, x: &str) -> String {
    let mut parts = Vec::new();
    if x != "frames" && distinct(points, |q| q.config.frames.clone()) > 1 {
        parts.push(frame_label(&p.config.frames));
    }
    if x != "backoff" && distinct(points, |q| q.config.backoff) > 1 {
        parts.push(p.config.backoff.label());
    }
    if x != "load" && distinct(points, |q| q.config.traffic) > 1 {
        parts.push(load_label(&p.config.traffic));
    }
    if x != "stations" && distinct(points, |q| q.config.stations) > 1 {
        parts.push(format!("N = {}", p.config.stations));
    }
    if parts.is_empty() {
        "simulated".into()
    } else {
        parts.join(", ")
    }
}

fn stations_axis(points: &[PointSummary]) -> Axis {
    let lo = points.iter().map(|p| p.config.stations).min().unwrap_or(1);
    let hi = points.iter().map(|p| p.config.stations).max().unwrap_or(1);
    if hi >= 8 * lo.max(1) {
        Axis::log2("stations N (log scale)")
    } else {
        Axis::linear("stations N")
    }
}

fn by_stations(points: &[PointSummary]) -> Groups<'_> {
    group(points, |p| {
        format!(
            "{:?}|{:?}|{:?}",
            p.config.frames, p.config.backoff, p.config.traffic
        )
    })
}

/// A curve of the mean of `metric` with 95 % CI bars, over the points of `m` that
/// have an x value.
fn ci_series(
    label: &str,
    m: &[&PointSummary],
    metric: &str,
    x: impl Fn(&PointSummary) -> Option<f64>,
) -> Series {
    let est: Vec<_> = m
        .iter()
        .filter_map(|p| Some((x(p)?, p.metric(metric)?)))
        .collect();
    Series::new(label, est.iter().map(|(x, e)| (*x, e.mean)).collect())
        .error_bars(est.iter().map(|(_, e)| (e.lo(), e.hi())).collect())
}

/// "simulated" with the curve's label, and the 95 % interval named.
fn sim_label(label: &str) -> String {
    if label == "simulated" {
        "simulated (95% CI)".into()
    } else {
        format!("{label} simulated (95% CI)")
    }
}

/// Utilisation versus stations with CI bars and Metcalfe-Boggs beside it.
pub fn throughput_vs_stations(points: &[PointSummary]) -> Option<LineChart> {
    if distinct(points, |p| p.config.stations) < 2 {
        return None;
    }
    let bit_rate = points.first()?.config.phy.bit_rate as f64 / 1e6;
    let mut chart = LineChart::new(
        &format!(
            "Channel utilisation vs stations ({})",
            fixed_note(points, &["stations", "frames"])
        ),
        stations_axis(points),
        Axis::linear(&format!("utilisation (fraction of {bit_rate} Mb/s)")).range(0.0, 1.05),
    )
    .legend_at(LegendAt::LowerLeft);
    let g = by_stations(points);
    let mut mb_done: Vec<FrameSizes> = Vec::new();
    for (i, m) in g.members.iter().enumerate() {
        let label = curve_label(points, m[0], "stations");
        chart = chart.series(
            ci_series(&sim_label(&label), m, "utilisation_fraction", |p| {
                Some(f64::from(p.config.stations))
            })
            .colour(i),
        );
        let f = &m[0].config.frames;
        if m[0].config.traffic == Traffic::Saturated && !mb_done.contains(f) {
            mb_done.push(f.clone());
            let name = if label == "simulated" {
                "Metcalfe-Boggs".to_string()
            } else {
                format!("{label} Metcalfe-Boggs")
            };
            chart = chart.series(
                Series::new(
                    &name,
                    m.iter()
                        .map(|p| (f64::from(p.config.stations), p.mb_efficiency))
                        .collect(),
                )
                .dashed()
                .colour(i),
            );
        }
    }
    Some(chart)
}

/// Jain's fairness index versus stations.
pub fn fairness_vs_stations(points: &[PointSummary]) -> Option<LineChart> {
    if distinct(points, |p| p.config.stations) < 2 {
        return None;
    }
    // From a round 0.05 below the lowest interval up to 1, so that small differences
    // between near-fair curves are visible.
    let lowest = points
        .iter()
        .filter_map(|p| p.metric("jain_fairness_index"))
        .map(|e| e.lo())
        .fold(1.0, f64::min);
    let bottom = ((lowest - 0.02) / 0.05).floor().clamp(0.0, 19.0) * 0.05;
    let mut chart = LineChart::new(
        &format!(
            "Fairness between stations ({})",
            fixed_note(points, &["stations"])
        ),
        stations_axis(points),
        Axis::linear("Jain's index over per-station throughput (1 = equal shares)")
            .range(bottom, 1.005),
    )
    .legend_at(LegendAt::LowerLeft);
    for (i, m) in by_stations(points).members.iter().enumerate() {
        let label = curve_label(points, m[0], "stations");
        chart = chart.series(
            ci_series(&label, m, "jain_fairness_index", |p| {
                Some(f64::from(p.config.stations))
            })
            .colour(i),
        );
    }
    Some(chart)
}

/// Mean and p99 access delay versus offered load (Poisson points only).
pub fn delay_vs_load(points: &[PointSummary]) -> Option<LineChart> {
    let poisson: Vec<PointSummary> = points
        .iter()
        .filter(|p| p.load().is_some())
        .cloned()
        .collect();
    if distinct(&poisson, |p| p.config.traffic) < 2 {
        return None;
    }
    let mut chart = LineChart::new(
        &format!(
            "Access delay vs offered load ({})",
            fixed_note(&poisson, &["load"])
        ),
        Axis::linear("offered load G (fraction of the bit rate)"),
        Axis::log("access delay, head of queue to delivery (µs, log scale)"),
    )
    .legend_at(LegendAt::UpperLeft);
    let g = group(&poisson, |p| {
        format!(
            "{:?}|{:?}|{}",
            p.config.frames, p.config.backoff, p.config.stations
        )
    });
    for (i, m) in g.members.iter().enumerate() {
        let label = curve_label(&poisson, m[0], "load");
        let label = if label == "simulated" {
            m[0].config.backoff.label()
        } else {
            label
        };
        for (metric, kind) in [
            ("access_delay_mean_us", "mean"),
            ("access_delay_p99_us", "p99"),
        ] {
            let s = ci_series(&format!("{label} {kind}"), m, metric, |p| p.load()).colour(i);
            // The p99 of a few replications is too noisy for bars: a dashed line.
            chart = chart.series(if kind == "p99" {
                Series {
                    spread: Spread::None,
                    ..s.dashed()
                }
            } else {
                s
            });
        }
    }
    Some(chart)
}

/// Measured mean backoff after c collisions beside its expectation, pooled over all
/// points of each backoff algorithm.
pub fn backoff_vs_expected(points: &[PointSummary]) -> Option<LineChart> {
    let g = group(points, |p| format!("{:?}", p.config.backoff));
    let mut chart = LineChart::new(
        "Mean backoff after c collisions vs E(c) = (2^min(c,10) − 1)/2",
        Axis::linear("collisions of the frame so far, c"),
        Axis::log("mean backoff (slots, log scale)"),
    )
    .legend_at(LegendAt::LowerRight);
    let mut any = false;
    for (i, m) in g.members.iter().enumerate() {
        // Pool (draws, sum) per c over the group's points.
        let mut pooled: Vec<(u32, u64, f64, f64)> = Vec::new();
        for p in m {
            for &(c, n, mean, exp) in &p.backoff {
                match pooled.iter_mut().find(|b| b.0 == c) {
                    Some(b) => {
                        b.1 += n;
                        b.2 += mean * n as f64;
                    }
                    None => pooled.push((c, n, mean * n as f64, exp)),
                }
            }
        }
        pooled.sort_by_key(|b| b.0);
        let measured: Vec<(f64, f64)> = pooled
            .iter()
            .filter(|b| b.1 > 0)
            .map(|b| (f64::from(b.0), b.2 / b.1 as f64))
            .collect();
        if measured.is_empty() {
            continue;
        }
        any = true;
        let name = m[0].config.backoff.label();
        let expected_name = if m[0].config.backoff == BackoffAlgorithm::Beb {
            "BEB expected E(c)".to_string()
        } else {
            format!("{name} expected")
        };
        chart = chart
            .series(Series::new(&format!("{name} measured"), measured).colour(i))
            .series(
                Series::new(
                    &expected_name,
                    pooled.iter().map(|b| (f64::from(b.0), b.3)).collect(),
                )
                .dashed()
                .colour(i),
            );
    }
    any.then_some(chart)
}

/// The file stems of every sweep chart, applicable or not.
pub const STEMS: [&str; 4] = [
    "utilisation_vs_stations",
    "delay_vs_load",
    "backoff_vs_expected",
    "fairness_vs_stations",
];

/// Every applicable sweep chart with its file stem (one of [`STEMS`]).
pub fn all(points: &[PointSummary]) -> Vec<(&'static str, LineChart)> {
    STEMS
        .into_iter()
        .zip([
            throughput_vs_stations(points),
            delay_vs_load(points),
            backoff_vs_expected(points),
            fairness_vs_stations(points),
        ])
        .filter_map(|(n, c)| c.map(|c| (n, c)))
        .collect()
}
