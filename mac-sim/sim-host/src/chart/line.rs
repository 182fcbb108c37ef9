//! A generic line chart: several series over linear or logarithmic axes, each with
//! optional error bars or a shaded band, optional shaded x-intervals (e.g. a trigger
//! window), a title, axis labels and a legend.
//!
//! ```
//! use sim_host::chart::line::{Axis, LineChart, Series};
//! use sim_host::chart::save::to_rgb;
//! let chart = LineChart::new("Goodput", Axis::linear("time (s)"), Axis::linear("goodput (Mb/s)"))
//!     .series(Series::new("jittered", vec![(0.0, 9.0), (1.0, 4.0), (2.0, 8.5)])
//!         .band(vec![(8.5, 9.5), (3.0, 5.0), (8.0, 9.0)]))
//!     .series(Series::new("no jitter", vec![(0.0, 9.0), (1.0, 1.0), (2.0, 2.0)]).dashed())
//!     .shade(0.5, 1.2, "outage");
//! let rgb = to_rgb(&chart).unwrap();
//! assert!(rgb.iter().any(|&b| b != 255));
//! ```

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use super::figure::{Figure, PlotError};
use super::style::{self, SIZE};
use super::title::title_and_note;

/// How an axis maps values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Linear.
    Linear,
    /// Logarithmic with this base (ticks at its powers): 10, or 2 for doubling sweeps.
    /// Values ≤ 0 are not drawn.
    Log(f64),
}

/// One axis: its label (with the unit) and scale, and optionally a fixed range.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Label, with the unit in parentheses.
    pub label: String,
    /// Scale.
    pub scale: Scale,
    /// Fixed `(min, max)`; computed from the data (with a margin) if `None`.
    pub range: Option<(f64, f64)>,
}

impl Axis {
    /// A linear axis with its range from the data.
    pub fn linear(label: &str) -> Self {
        Self {
            label: label.into(),
            scale: Scale::Linear,
            range: None,
        }
    }

    /// A base-10 logarithmic axis.
    pub fn log(label: &str) -> Self {
        Self {
            scale: Scale::Log(10.0),
            ..Self::linear(label)
        }
    }

    /// A base-2 logarithmic axis.
    pub fn log2(label: &str) -> Self {
        Self {
            scale: Scale::Log(2.0),
            ..Self::linear(label)
        }
    }

    /// The same axis with a fixed range.
    pub fn range(mut self, min: f64, max: f64) -> Self {
        self.range = Some((min, max));
        self
    }
}

/// How a series shows the uncertainty of its points.
#[derive(Clone, Debug, PartialEq)]
pub enum Spread {
    /// Not at all.
    None,
    /// A vertical bar from `lo` to `hi` at each point.
    ErrorBars(Vec<(f64, f64)>),
    /// A translucent band between the `lo` and `hi` curves.
    Band(Vec<(f64, f64)>),
}

/// The stroke of a series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// A continuous line.
    Solid,
    /// A dashed line (e.g. a theoretical prediction).
    Dashed,
    /// No line: markers only.
    None,
}

/// One curve.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// `(x, y)` points, drawn in order.
    pub points: Vec<(f64, f64)>,
    /// Uncertainty, one `(lo, hi)` per point.
    pub spread: Spread,
    /// Line style.
    pub stroke: Stroke,
    /// Whether to mark each point with a circle.
    pub markers: bool,
    /// Palette index.
    pub colour: usize,
}

impl Series {
    /// A solid line with markers, colour 0.
    pub fn new(name: &str, points: Vec<(f64, f64)>) -> Self {
        Self {
            name: name.into(),
            points,
            spread: Spread::None,
            stroke: Stroke::Solid,
            markers: true,
            colour: 0,
        }
    }

    /// Palette colour `i`.
    pub fn colour(mut self, i: usize) -> Self {
        self.colour = i;
        self
    }

    /// Dashed, without markers.
    pub fn dashed(mut self) -> Self {
        self.stroke = Stroke::Dashed;
        self.markers = false;
        self
    }

    /// Without markers.
    pub fn no_markers(mut self) -> Self {
        self.markers = false;
        self
    }

    /// Error bars `(lo, hi)`, one per point.
    pub fn error_bars(mut self, lo_hi: Vec<(f64, f64)>) -> Self {
        self.spread = Spread::ErrorBars(lo_hi);
        self
    }

    /// A shaded band `(lo, hi)`, one per point.
    pub fn band(mut self, lo_hi: Vec<(f64, f64)>) -> Self {
        self.spread = Spread::Band(lo_hi);
        self
    }
}

/// A shaded x-interval behind the data, with a legend entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Shade {
    /// Start, x units.
    pub from: f64,
    /// End, x units.
    pub to: f64,
    /// Legend entry.
    pub label: String,
}

/// Where the legend sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegendAt {
    /// Top right corner of the plot area.
    UpperRight,
    /// Top left.
    UpperLeft,
    /// Bottom right.
    LowerRight,
    /// Bottom left.
    LowerLeft,
}

/// A line chart (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    /// Title.
    pub title: String,
    /// Lines of text under the title (e.g. what is not drawn and why), separated by
    /// `\n`.
    pub note: Option<String>,
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// Curves, drawn in order, legend in order.
    pub series: Vec<Series>,
    /// Shaded intervals, drawn first.
    pub shades: Vec<Shade>,
    /// Legend position.
    pub legend: LegendAt,
    /// Pixels.
    pub size: (u32, u32),
}

impl LineChart {
    /// An empty chart of the default size with the legend top right.
    pub fn new(title: &str, x: Axis, y: Axis) -> Self {
        Self {
            title: title.into(),
            note: None,
            x,
            y,
            series: Vec::new(),
            shades: Vec::new(),
            legend: LegendAt::UpperRight,
            size: SIZE,
        }
    }

    /// Add a series.
    pub fn series(mut self, s: Series) -> Self {
        self.series.push(s);
        self
    }

    /// Shade `from..to` on the x axis.
    pub fn shade(mut self, from: f64, to: f64, label: &str) -> Self {
        self.shades.push(Shade {
            from,
            to,
            label: label.into(),
        });
        self
    }

    /// A note under the title; a second note adds lines.
    pub fn note(mut self, note: &str) -> Self {
        self.note = Some(match self.note.take() {
            Some(n) => format!("{n}\n{note}"),
            None => note.into(),
        });
        self
    }

    /// Move the legend.
    pub fn legend_at(mut self, at: LegendAt) -> Self {
        self.legend = at;
        self
    }

    /// The x and y ranges the chart will use.
    pub fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for s in &self.series {
            for &(x, y) in &s.points {
                xs.push(x);
                ys.push(y);
            }
            if let Spread::ErrorBars(v) | Spread::Band(v) = &s.spread {
                for &(lo, hi) in v {
                    ys.push(lo);
                    ys.push(hi);
                }
            }
        }
        for sh in &self.shades {
            xs.push(sh.from);
            xs.push(sh.to);
        }
        (
            self.x
                .range
                .unwrap_or_else(|| auto_range(&xs, self.x.scale, false)),
            self.y
                .range
                .unwrap_or_else(|| auto_range(&ys, self.y.scale, true)),
        )
    }
}

/// A range covering `values` (finite, and positive on a log scale) with a margin; the
/// y axis of a linear chart of non-negative data starts at 0.
fn auto_range(values: &[f64], scale: Scale, pad: bool) -> (f64, f64) {
    let ok = |v: &&f64| v.is_finite() && (scale == Scale::Linear || **v > 0.0);
    let lo = values
        .iter()
        .filter(ok)
        .copied()
        .fold(f64::INFINITY, f64::min);
    let hi = values
        .iter()
        .filter(ok)
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    match scale {
        Scale::Linear => {
            if !(lo.is_finite() && hi.is_finite()) {
                return (0.0, 1.0);
            }
            let lo = if pad && lo >= 0.0 { 0.0 } else { lo };
            let span = if hi > lo { hi - lo } else { hi.abs().max(1.0) };
            let m = if pad { span * 0.08 } else { span * 0.03 };
            (if pad && lo == 0.0 { 0.0 } else { lo - m }, hi + m)
        }
        Scale::Log(b) => {
            if !(lo.is_finite() && hi.is_finite()) {
                return (1.0, b);
            }
            let f = if pad { 1.6 } else { 1.15 };
            (lo / f, if hi > lo { hi * f } else { lo * b })
        }
    }
}

/// A tick label on a log axis: only at powers of the base (and 2×, 5× for base 10),
/// so the light grid lines stay unlabelled.
fn log_tick(v: f64, base: f64) -> String {
    if v.is_nan() || v <= 0.0 {
        return String::new();
    }
    let e = (v.ln() / base.ln()).round();
    let p = base.powf(e);
    if (v / p - 1.0).abs() < 1e-6 {
        return style::tick(p);
    }
    if base == 10.0 {
        let d = 10f64.powf(v.log10().floor());
        let m = v / d;
        for k in [2.0, 5.0] {
            if (m - k).abs() < 1e-6 {
                return style::tick(k * d);
            }
        }
    }
    String::new()
}

fn legend_pos(at: LegendAt) -> SeriesLabelPosition {
    match at {
        LegendAt::UpperRight => SeriesLabelPosition::UpperRight,
        LegendAt::UpperLeft => SeriesLabelPosition::UpperLeft,
        LegendAt::LowerRight => SeriesLabelPosition::LowerRight,
        LegendAt::LowerLeft => SeriesLabelPosition::LowerLeft,
    }
}

impl Figure for LineChart {
    fn size(&self) -> (u32, u32) {
        self.size
    }

    fn supersample(&self) -> u32 {
        style::SUPERSAMPLE
    }

    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let ((x0, x1), (y0, y1)) = self.ranges();
        let (area, title) = title_and_note(area, &self.title, self.note.as_deref())?;
        let area = &area;
        match (self.x.scale, self.y.scale) {
            (Scale::Linear, Scale::Linear) => draw_in(self, area, title, x0..x1, y0..y1),
            (Scale::Log(b), Scale::Linear) => {
                draw_in(self, area, title, (x0..x1).log_scale().base(b), y0..y1)
            }
            (Scale::Linear, Scale::Log(b)) => {
                draw_in(self, area, title, x0..x1, (y0..y1).log_scale().base(b))
            }
            (Scale::Log(a), Scale::Log(b)) => draw_in(
                self,
                area,
                title,
                (x0..x1).log_scale().base(a),
                (y0..y1).log_scale().base(b),
            ),
        }
    }
}

fn visible(scale: Scale, v: f64) -> bool {
    v.is_finite() && (scale == Scale::Linear || v > 0.0)
}

fn draw_in<DB, X, Y>(
    c: &LineChart,
    area: &DrawingArea<DB, Shift>,
    title: Option<&str>,
    x: X,
    y: Y,
) -> Result<(), PlotError>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let ((_, _), (ylo, yhi)) = c.ranges();
    let mut b = style::chart_builder(area);
    if let Some(t) = title {
        b.caption(t, style::title());
    }
    let mut chart = b.build_cartesian_2d(x, y)?;
    let xfmt = |v: &f64| match c.x.scale {
        Scale::Linear => style::tick(*v),
        Scale::Log(b) => log_tick(*v, b),
    };
    let yfmt = |v: &f64| match c.y.scale {
        Scale::Linear => style::tick(*v),
        Scale::Log(b) => log_tick(*v, b),
    };
    style::grid(
        chart
            .configure_mesh()
            .x_desc(c.x.label.as_str())
            .y_desc(c.y.label.as_str())
            .x_label_formatter(&xfmt)
            .y_label_formatter(&yfmt)
            .x_labels(12),
    )
    .draw()?;

    for (i, sh) in c.shades.iter().enumerate() {
        let fill = style::colour(6 + i).mix(0.18);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(sh.from, ylo), (sh.to, yhi)],
                fill.filled(),
            )))?
            .label(sh.label.as_str())
            .legend(move |(px, py)| {
                Rectangle::new(
                    [
                        (px, py - style::px(7)),
                        (px + style::px(20), py + style::px(7)),
                    ],
                    fill.filled(),
                )
            });
    }

    for s in &c.series {
        let col = style::colour(s.colour);
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|&(x, y)| visible(c.x.scale, x) && visible(c.y.scale, y))
            .collect();
        match &s.spread {
            Spread::None => {}
            Spread::ErrorBars(v) => {
                chart.draw_series(s.points.iter().zip(v).filter_map(|(&(x, y), &(lo, hi))| {
                    let lo = if c.y.scale == Scale::Linear {
                        lo
                    } else {
                        lo.max(ylo)
                    };
                    (visible(c.x.scale, x)
                        && visible(c.y.scale, y)
                        && lo.is_finite()
                        && hi.is_finite())
                    .then(|| {
                        ErrorBar::new_vertical(x, lo, y, hi, style::stroke(col, 2), style::upx(10))
                    })
                }))?;
            }
            Spread::Band(v) => {
                let mut poly: Vec<(f64, f64)> = Vec::new();
                let band: Vec<(f64, f64, f64)> = s
                    .points
                    .iter()
                    .zip(v)
                    .filter(|((x, _), (lo, hi))| {
                        visible(c.x.scale, *x) && visible(c.y.scale, *lo) && visible(c.y.scale, *hi)
                    })
                    .map(|(&(x, _), &(lo, hi))| (x, lo, hi))
                    .collect();
                poly.extend(band.iter().map(|&(x, _, hi)| (x, hi)));
                poly.extend(band.iter().rev().map(|&(x, lo, _)| (x, lo)));
                if poly.len() >= 3 {
                    chart
                        .draw_series(std::iter::once(Polygon::new(poly, col.mix(0.2).filled())))?;
                }
            }
        }
        let legend_stroke = s.stroke;
        let anno = match s.stroke {
            Stroke::Solid => {
                chart.draw_series(LineSeries::new(pts.clone(), style::line(s.colour)))?
            }
            Stroke::Dashed => chart.draw_series(DashedLineSeries::new(
                pts.clone(),
                style::upx(10),
                style::upx(6),
                style::line(s.colour),
            ))?,
            Stroke::None => chart.draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?,
        };
        anno.label(s.name.as_str()).legend(move |(px, py)| {
            let st = style::stroke(col, style::LINE_WIDTH);
            let p = style::px;
            match legend_stroke {
                Stroke::Dashed => {
                    EmptyElement::at((px, py))
                        + PathElement::new(vec![(0, 0), (p(8), 0)], st)
                        + PathElement::new(vec![(p(13), 0), (p(21), 0)], st)
                }
                Stroke::Solid => {
                    EmptyElement::at((px, py))
                        + PathElement::new(vec![(0, 0), (p(21), 0)], st)
                        + PathElement::new(vec![(p(10), 0), (p(11), 0)], st)
                }
                Stroke::None => {
                    EmptyElement::at((px, py))
                        + PathElement::new(vec![(p(10), 0), (p(11), 0)], st)
                        + PathElement::new(vec![(p(10), 0), (p(11), 0)], st)
                }
            }
        });
        if s.markers {
            chart.draw_series(
                pts.iter()
                    .map(|&p| Circle::new(p, style::upx(4), col.filled())),
            )?;
        }
    }
    if !c.series.is_empty() || !c.shades.is_empty() {
        style::draw_legend(&mut chart, legend_pos(c.legend))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_data_and_spreads() {
        let c = LineChart::new("t", Axis::log2("n"), Axis::linear("u")).series(
            Series::new("a", vec![(1.0, 0.5), (256.0, 0.9)])
                .error_bars(vec![(0.4, 0.6), (0.85, 0.95)]),
        );
        let ((x0, x1), (y0, y1)) = c.ranges();
        assert!(x0 < 1.0 && x0 > 0.0 && x1 > 256.0);
        assert_eq!(y0, 0.0);
        assert!(y1 > 0.95);
        // Nothing to show: a sane default rather than an empty or inverted range.
        let e = LineChart::new("t", Axis::log("x"), Axis::linear("y"));
        assert_eq!(e.ranges(), ((1.0, 10.0), (0.0, 1.0)));
    }

    #[test]
    fn log_ticks_only_at_round_values() {
        assert_eq!(log_tick(100.0, 10.0), "100");
        assert_eq!(log_tick(20.0, 10.0), "20");
        assert_eq!(log_tick(30.0, 10.0), "");
        assert_eq!(log_tick(64.0, 2.0), "64");
        assert_eq!(log_tick(96.0, 2.0), "");
    }
}
