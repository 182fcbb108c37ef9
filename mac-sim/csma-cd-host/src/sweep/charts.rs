//! The charts of a CSMA/CD sweep, built from its [`PointSummary`] rows:
//!
//! * utilisation versus stations, one curve per frame size (and per any other swept
//!   parameter), 95 % CI bars, the Metcalfe-Boggs prediction dashed beside each
//!   saturated curve;
//! * mean (solid) and p99 (dashed) total delay versus offered load, queueing
//!   included, the queue limit stated on the chart: the hockey stick near capacity;
//! * the same for the access delay (head of queue to delivery, log scale);
//! * throughput and goodput versus offered load, beside the offered load;
//! * the drop rate (both causes, and excessive collisions alone) versus offered load;
//! * measured mean backoff after c collisions versus the algorithm's expectation,
//!   `E(c) = (2^min(c,10) − 1)/2` for BEB (log scale);
//! * Jain's fairness index versus stations.
//!
//! A chart is made only when its x parameter takes at least two values. On the load
//! charts a saturated point of the same parameters is drawn as a horizontal line
//! across the loads (its level is what the curve meets beyond capacity), except on
//! the total delay chart, whose note says why it has none.

use csma_cd::config::{BackoffAlgorithm, FrameSizes, Traffic};
use csma_cd::sweep::PointSummary;
use sim_host::chart::{Axis, LegendAt, LineChart, Series, Spread};

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

fn group<'a>(
    points: impl IntoIterator<Item = &'a PointSummary>,
    key: impl Fn(&PointSummary) -> String,
) -> Groups<'a> {
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

/// The note of a chart whose legend promises 95 % intervals: how to see a narrow one.
const CI_NOTE: &str = "Whiskers: 95% confidence intervals; one narrower than its hollow marker is the line across it.";

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
        Axis::linear(&format!("utilisation (fraction of {bit_rate} Mb/s)")).range(0.0, 1.0),
    )
    .legend_at(LegendAt::LowerLeft)
    .note(CI_NOTE);
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
            .range(bottom, 1.0),
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

/// The Poisson points of a load chart grouped into curves (one per frame size,
/// algorithm and station count), each with the saturated point of the same
/// parameters if the sweep has one; `None` unless the load takes two values.
struct LoadCurves<'a> {
    poisson: Vec<PointSummary>,
    curves: Vec<(String, Vec<&'a PointSummary>, Option<&'a PointSummary>)>,
    /// The offered loads drawn, lowest and highest.
    span: (f64, f64),
    /// Whether some saturated point exists.
    saturated: bool,
}

fn load_curves(points: &[PointSummary]) -> Option<LoadCurves<'_>> {
    let poisson: Vec<PointSummary> = points
        .iter()
        .filter(|p| p.load().is_some())
        .cloned()
        .collect();
    if distinct(&poisson, |p| p.config.traffic) < 2 {
        return None;
    }
    let key = |p: &PointSummary| {
        format!(
            "{:?}|{:?}|{}",
            p.config.frames, p.config.backoff, p.config.stations
        )
    };
    let g = group(points.iter().filter(|p| p.load().is_some()), key);
    let curves = g
        .members
        .into_iter()
        .map(|m| {
            let label = curve_label(&poisson, m[0], "load");
            let label = if label == "simulated" {
                m[0].config.backoff.label()
            } else {
                label
            };
            let sat = points
                .iter()
                .find(|p| p.load().is_none() && key(p) == key(m[0]));
            (label, m, sat)
        })
        .collect();
    let loads = poisson.iter().filter_map(PointSummary::load);
    let span = (
        loads.clone().fold(f64::INFINITY, f64::min),
        loads.fold(f64::NEG_INFINITY, f64::max),
    );
    Some(LoadCurves {
        poisson,
        curves,
        span,
        saturated: points.iter().any(|p| p.load().is_none()),
    })
}

impl LoadCurves<'_> {
    /// A horizontal line across the loads drawn at the saturated value of `metric`,
    /// if the curve has a saturated point and the metric a value there.
    fn saturated_line(
        &self,
        label: &str,
        sat: Option<&PointSummary>,
        metric: &str,
    ) -> Option<Series> {
        let y = sat?.metric(metric)?.mean;
        y.is_finite().then(|| {
            Series::new(
                &format!("{label} saturated"),
                vec![(self.span.0, y), (self.span.1, y)],
            )
            .no_markers()
        })
    }

    /// The chart's axes and title for `what` against the offered load.
    fn chart(&self, what: &str, y: Axis) -> LineChart {
        LineChart::new(
            &format!(
                "{what} vs offered load ({})",
                fixed_note(&self.poisson, &["load"])
            ),
            Axis::linear("offered load G (fraction of the bit rate, Poisson arrivals)"),
            y,
        )
        .legend_at(LegendAt::UpperLeft)
    }

    /// A note naming the saturated lines, if the sweep has saturated points.
    fn saturated_note(&self, chart: LineChart) -> LineChart {
        if self.curves.iter().any(|c| c.2.is_some()) {
            chart.note("Horizontal lines without markers: the saturated point's level (every station always has a frame).")
        } else {
            chart
        }
    }
}

/// The queue limit of the points, for a chart's note: one value or a range.
fn queue_limit_note(points: &[PointSummary]) -> String {
    format!(
        "Queue limit {} per station (the frame being sent included): a frame arriving at a full queue is dropped.",
        queue_limit(points)
    )
}

/// The queue limit of the points: one value or a range, in frames.
fn queue_limit(points: &[PointSummary]) -> String {
    let limits = points.iter().map(|p| p.config.queue_limit);
    let lo = limits.clone().min().unwrap_or(0);
    let hi = limits.max().unwrap_or(0);
    if lo == hi {
        format!("{lo} frames")
    } else {
        format!("{lo} to {hi} frames")
    }
}

/// `s` with its values and spread divided by `k` (a change of unit).
fn scaled(mut s: Series, k: f64) -> Series {
    for p in &mut s.points {
        p.1 /= k;
    }
    if let Spread::ErrorBars(v) | Spread::Band(v) = &mut s.spread {
        for b in v {
            *b = (b.0 / k, b.1 / k);
        }
    }
    s
}

impl LoadCurves<'_> {
    /// Every curve's `solid` metric with CI bars and its `dashed` metric without
    /// (the p99 of a few replications is too noisy for bars), each `(legend suffix,
    /// metric)`, values divided by `k`, and the saturated point's `solid` metric as
    /// a horizontal line where it has a value (total delay has none).
    fn draw(
        &self,
        mut chart: LineChart,
        solid: (&str, &str),
        dashed: (&str, &str),
        k: f64,
    ) -> LineChart {
        let load = PointSummary::load;
        for (i, (label, m, sat)) in self.curves.iter().enumerate() {
            let line = ci_series(&format!("{label} {}", solid.0), m, solid.1, load).colour(i);
            let dash = Series {
                spread: Spread::None,
                ..ci_series(&format!("{label} {}", dashed.0), m, dashed.1, load)
            }
            .dashed()
            .colour(i);
            chart = chart.series(scaled(line, k)).series(scaled(dash, k));
            if let Some(s) = self.saturated_line(&format!("{label} {}", solid.0), *sat, solid.1) {
                chart = chart.series(scaled(s.colour(i), k));
            }
        }
        chart
    }
}

/// Mean and p99 total delay (arrival to delivery, queueing included) versus offered
/// load, Poisson points only (a saturated point has no total delay: the chart says
/// so), with the queue limit stated: the hockey stick of delay near capacity.
pub fn delay_vs_load(points: &[PointSummary]) -> Option<LineChart> {
    let lc = load_curves(points)?;
    // Milliseconds once the delays reach a tenth of a second.
    let top = lc
        .poisson
        .iter()
        .filter_map(|p| p.metric("total_delay_p99_us"))
        .map(|e| e.mean)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let (k, unit) = if top >= 1e5 {
        (1e3, "ms")
    } else {
        (1.0, "µs")
    };
    let mut chart = lc
        .chart(
            "Total delay",
            Axis::linear(&format!(
                "total delay, arrival to delivery, queueing included ({unit})"
            )),
        )
        .note(&queue_limit_note(&lc.poisson));
    if lc.saturated {
        chart = chart.note(
            "Saturated points are not drawn: every station always has a frame, so the queueing delay is unbounded.",
        );
    }
    Some(lc.draw(
        chart,
        ("mean", "total_delay_mean_us"),
        ("p99", "total_delay_p99_us"),
        k,
    ))
}

/// Mean and p99 access delay (head of queue to delivery) versus offered load, the
/// saturated point's mean as a horizontal line (log scale).
pub fn access_delay_vs_load(points: &[PointSummary]) -> Option<LineChart> {
    let lc = load_curves(points)?;
    let mut chart = lc.chart(
        "Access delay",
        Axis::log("access delay, head of queue to delivery (µs, log scale)"),
    );
    chart = lc.saturated_note(chart);
    Some(lc.draw(
        chart,
        ("mean", "access_delay_mean_us"),
        ("p99", "access_delay_p99_us"),
        1.0,
    ))
}

/// Throughput (solid, CI bars) and goodput (dashed) versus offered load, beside the
/// offered load itself; the saturated throughput as a horizontal line.
pub fn throughput_vs_load(points: &[PointSummary]) -> Option<LineChart> {
    let lc = load_curves(points)?;
    let bit_rate = lc.poisson.first()?.config.phy.bit_rate as f64 / 1e6;
    let mut chart = lc.chart(
        "Throughput and goodput",
        Axis::linear("delivered bits per second (Mb/s)"),
    );
    chart = lc.saturated_note(chart).note(
        "Throughput counts whole frames, goodput their payload (frame minus 18 bytes of header and FCS).",
    );
    let chart = lc.draw(
        chart,
        ("throughput", "throughput_mbps"),
        ("goodput", "goodput_mbps"),
        1.0,
    );
    let offered = Series::new(
        "offered load",
        vec![
            (lc.span.0, lc.span.0 * bit_rate),
            (lc.span.1, lc.span.1 * bit_rate),
        ],
    )
    .dashed()
    .colour(lc.curves.len());
    Some(chart.series(offered))
}

/// The drop rate (both causes, solid with CI bars) and its part from excessive
/// collisions (dashed) versus offered load; the saturated drop rate as a horizontal
/// line. The rate axis is logarithmic up to 1, so that rates of a few per thousand
/// stay readable beside a saturated line near 1 (a rate of 0 has no point, and the
/// note says so); linear from 0 to 1 when no frame was dropped at all.
pub fn drops_vs_load(points: &[PointSummary]) -> Option<LineChart> {
    let lc = load_curves(points)?;
    let attempt = lc.poisson.first()?.config.attempt_limit;
    let both = "drop_rate_per_frame";
    let excessive = "drop_excessive_collisions_per_frame";
    let curve_points = lc
        .curves
        .iter()
        .flat_map(|c| c.1.iter().copied().chain(c.2));
    let values: Vec<f64> = curve_points
        .flat_map(|p| [p.metric(both), p.metric(excessive)])
        .flatten()
        .flat_map(|e| [e.mean, e.lo()])
        .collect();
    let lowest = values
        .iter()
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold(f64::INFINITY, f64::min);
    let some_zero = values.iter().step_by(2).any(|&v| v == 0.0);
    let y = if lowest.is_finite() {
        // Down to the decade below the lowest rate or interval drawn.
        let bottom = 10f64.powf((lowest / 1.3).log10().floor()).min(0.1);
        Axis::log("dropped per frame generated (fraction, log scale)").range(bottom, 1.0)
    } else {
        Axis::linear("dropped per frame generated (fraction)").range(0.0, 1.0)
    };
    let mut chart = lc.chart("Drop rate", y).legend_at(LegendAt::Outside);
    chart = lc
        .saturated_note(chart)
        .note(&format!(
            "Dropped: after {attempt} attempts that all collided (dashed: this cause alone), or arriving at a full queue (queue limit {} per station).",
            queue_limit(&lc.poisson)
        ));
    if lowest.is_finite() && some_zero {
        chart = chart.note("A load with no frame dropped (rate 0) has no point on the log scale.");
    }
    Some(lc.draw(
        chart,
        ("dropped", both),
        ("collisions only", excessive),
        1.0,
    ))
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
pub const STEMS: [&str; 7] = [
    "utilisation_vs_stations",
    "delay_vs_load",
    "access_delay_vs_load",
    "throughput_vs_load",
    "drops_vs_load",
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
            access_delay_vs_load(points),
            throughput_vs_load(points),
            drops_vs_load(points),
            backoff_vs_expected(points),
            fairness_vs_stations(points),
        ])
        .filter_map(|(n, c)| c.map(|c| (n, c)))
        .collect()
}
