//! A generic line chart: several series over linear or logarithmic axes, each with
//! optional error bars or a shaded band, optional shaded x-intervals (e.g. a trigger
//! window), a title, axis labels and a legend.
//!
//! ```
//! use sim_host::chart::{Axis, LineChart, Series};
//! use sim_host::chart::to_rgb;
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
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::figure::{Figure, PlotError};
use super::style::{self, SIZE};
use super::ticks::log_ticks;
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
    /// Right of the plot area, outside it, from its top: nothing drawn is hidden
    /// under the legend, and the plot is narrower by the legend's width.
    Outside,
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
    /// The least width of an outside legend ([`LegendAt::Outside`]), pixels of the
    /// finished chart (0: as wide as its entries): the panels of one figure share one
    /// (see [`LineChart::outside_legend_width`]), so that their plots line up.
    pub legend_width: u32,
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
            legend_width: 0,
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

    /// The width, pixels of the finished chart, its legend's entries need beside the
    /// plot when drawn on `area`.
    ///
    /// # Errors
    ///
    /// [`PlotError`] when the text cannot be measured.
    pub fn outside_legend_width<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<u32, PlotError> {
        let labels = self.legend_labels();
        let names = self.shades.iter().map(|s| s.label.as_str());
        let w = legend_width(area, names.chain(labels.iter().map(String::as_str)))?;
        Ok(w / style::upx(1))
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

/// How close, as a fraction of the axis, two values must be to be drawn on top of
/// each other (about two pixels of a default chart).
const COINCIDE: f64 = 0.004;

impl LineChart {
    /// The legend entry of each series, in order: its name, and if the series cannot
    /// be seen because every point of it lies on a series drawn later (within two
    /// pixels), what hides it: `"NAME (under OTHER)"`, or for a dashed series drawn
    /// over a solid one of the same colour, `"NAME (on the solid line: same values)"`.
    pub fn legend_labels(&self) -> Vec<String> {
        let ((_, _), (y0, y1)) = self.ranges();
        let (xs, ys) = (self.x.scale, self.y.scale);
        let visible_pts = |s: &Series| -> Vec<(f64, f64)> {
            s.points
                .iter()
                .copied()
                .filter(|&(x, y)| visible(xs, x) && visible(ys, y))
                .collect()
        };
        let pts: Vec<Vec<(f64, f64)>> = self.series.iter().map(visible_pts).collect();
        let close = |a: f64, b: f64| match ys {
            Scale::Linear => (a - b).abs() <= COINCIDE * (y1 - y0).abs(),
            Scale::Log(_) => (a.ln() - b.ln()).abs() <= COINCIDE * (y1 / y0).ln().abs(),
        };
        let coincide = |i: usize, j: usize| {
            let (a, b) = (&pts[i], &pts[j]);
            !a.is_empty()
                && a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(p, q)| (p.0 - q.0).abs() <= 1e-9 * p.0.abs().max(1.0) && close(p.1, q.1))
        };
        let mut labels: Vec<String> = self.series.iter().map(|s| s.name.clone()).collect();
        let mut said = vec![false; self.series.len()];
        for i in 0..self.series.len() {
            for j in i + 1..self.series.len() {
                if !coincide(i, j) {
                    continue;
                }
                let (under, over) = (&self.series[i], &self.series[j]);
                let (k, text) = match (under.stroke, over.stroke) {
                    (Stroke::Solid, Stroke::Dashed) if under.colour == over.colour => {
                        (j, " (on the solid line: same values)".to_string())
                    }
                    (Stroke::Solid | Stroke::None, Stroke::Dashed) => continue,
                    _ => (i, format!(" (under {})", over.name)),
                };
                if !said[k] {
                    said[k] = true;
                    labels[k].push_str(&text);
                }
            }
        }
        labels
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

fn legend_pos(at: LegendAt) -> SeriesLabelPosition {
    match at {
        LegendAt::UpperRight => SeriesLabelPosition::UpperRight,
        LegendAt::UpperLeft => SeriesLabelPosition::UpperLeft,
        LegendAt::LowerRight => SeriesLabelPosition::LowerRight,
        LegendAt::LowerLeft => SeriesLabelPosition::LowerLeft,
        // Placed by `draw_in`, beside the plot area.
        LegendAt::Outside => SeriesLabelPosition::UpperRight,
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
        let log = |lo: f64, hi: f64, b: f64| {
            let t = log_ticks(lo, hi, b);
            (lo..hi)
                .log_scale()
                .base(b)
                .with_key_points(t.labelled)
                .with_light_points(t.light)
        };
        match (self.x.scale, self.y.scale) {
            (Scale::Linear, Scale::Linear) => draw_in(self, area, title, x0..x1, y0..y1),
            (Scale::Log(b), Scale::Linear) => draw_in(self, area, title, log(x0, x1, b), y0..y1),
            (Scale::Linear, Scale::Log(b)) => draw_in(self, area, title, x0..x1, log(y0, y1, b)),
            (Scale::Log(a), Scale::Log(b)) => {
                draw_in(self, area, title, log(x0, x1, a), log(y0, y1, b))
            }
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
    let labels = c.legend_labels();
    // Every legend entry: the shades', then the series'.
    let entries: Vec<(&str, Sample)> = c
        .shades
        .iter()
        .enumerate()
        .map(|(i, sh)| (sh.label.as_str(), Sample::Shade(shade_fill(i))))
        .chain(c.series.iter().zip(&labels).map(|(s, l)| {
            let sample = Sample::Line {
                colour: style::colour(s.colour),
                stroke: s.stroke,
                whiskers: matches!(s.spread, Spread::ErrorBars(_)),
            };
            (l.as_str(), sample)
        }))
        .collect();
    // An outside legend gets a strip of its own right of the plot.
    let (area, outside) = if c.legend == LegendAt::Outside && !entries.is_empty() {
        let w = legend_width(area, entries.iter().map(|e| e.0))?.max(style::upx(c.legend_width));
        let w = w as i32;
        let (aw, _) = area.dim_in_pixel();
        let (plot, strip) = area.split_horizontally(aw as i32 - w - style::px(16));
        (plot, Some((strip, w)))
    } else {
        (area.clone(), None)
    };
    let area = &area;
    let mut b = style::chart_builder(area);
    if outside.is_some() {
        b.margin_right(style::px(LEGEND_GAP));
    }
    if let Some(t) = title {
        b.caption(t, style::title());
    }
    let mut chart = b.build_cartesian_2d(x, y)?;
    let xfmt = |v: &f64| style::tick(*v);
    let yfmt = |v: &f64| style::tick(*v);
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

    let mut samples = entries.iter().map(|e| e.1);
    for (i, sh) in c.shades.iter().enumerate() {
        let fill = shade_fill(i);
        let sample = samples.next().unwrap_or(Sample::Shade(fill));
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(sh.from, ylo), (sh.to, yhi)],
                fill.filled(),
            )))?
            .label(sh.label.as_str())
            .legend(move |p| sample_element!(sample, p));
    }

    for (s, label) in c.series.iter().zip(&labels) {
        let col = style::colour(s.colour);
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|&(x, y)| visible(c.x.scale, x) && visible(c.y.scale, y))
            .collect();
        if let Spread::Band(v) = &s.spread {
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
                chart.draw_series(std::iter::once(Polygon::new(poly, col.mix(0.2).filled())))?;
            }
        }
        let whiskers = matches!(s.spread, Spread::ErrorBars(_));
        let sample = samples.next().unwrap_or(Sample::Line {
            colour: col,
            stroke: s.stroke,
            whiskers,
        });
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
        anno.label(label.as_str())
            .legend(move |p| sample_element!(sample, p));
        if s.markers {
            // Hollow where whiskers are drawn, so that a whisker shorter than the
            // marker still shows across it.
            let fill = if whiskers {
                style::BACKGROUND.filled()
            } else {
                col.filled()
            };
            chart.draw_series(pts.iter().map(|&p| {
                EmptyElement::at(p)
                    + Circle::new((0, 0), style::upx(4), fill)
                    + Circle::new((0, 0), style::upx(4), style::stroke(col, 2))
            }))?;
        }
        if let Spread::ErrorBars(v) = &s.spread {
            chart.draw_series(s.points.iter().zip(v).filter_map(|(&(x, y), &(lo, hi))| {
                let lo = if c.y.scale == Scale::Linear {
                    lo
                } else {
                    lo.max(ylo)
                };
                (visible(c.x.scale, x) && visible(c.y.scale, y) && lo.is_finite() && hi.is_finite())
                    .then(|| {
                        ErrorBar::new_vertical(x, lo, y, hi, style::stroke(col, 2), style::upx(12))
                    })
            }))?;
        }
    }
    match outside {
        Some((strip, legend_w)) => {
            let top = if title.is_some() {
                style::px(16 + 40)
            } else {
                style::px(16)
            };
            draw_outside_legend(&strip, &entries, top, legend_w)
        }
        None if !entries.is_empty() => style::draw_legend(&mut chart, legend_pos(c.legend)),
        None => Ok(()),
    }
}

/// The fill of shaded interval `i`.
fn shade_fill(i: usize) -> RGBAColor {
    style::colour(6 + i).mix(0.18)
}

/// What a legend entry shows before its text.
#[derive(Clone, Copy, Debug)]
enum Sample {
    /// A box of a shaded interval's fill.
    Shade(RGBAColor),
    /// A series: its line (solid, dashed, or a marker alone), with a whisker across it
    /// when the series has error bars.
    Line {
        colour: RGBColor,
        stroke: Stroke,
        whiskers: bool,
    },
}

/// The sample of legend entry `$sample` (a [`Sample`]) whose left end is at `$at`: one
/// element type for every kind (unused parts are empty), so that a legend closure can
/// return it.
macro_rules! sample_element {
    ($sample:expr, $at:expr) => {{
        let p = style::px;
        let (x, y): (i32, i32) = $at;
        let (fill, colour, stroke, whiskers) = match $sample {
            Sample::Shade(fill) => (Some(fill), RGBColor(0, 0, 0), None, false),
            Sample::Line {
                colour,
                stroke,
                whiskers,
            } => (None, colour, Some(stroke), whiskers),
        };
        let st = style::stroke(colour, style::LINE_WIDTH);
        let (first, second) = match stroke {
            None => (vec![], vec![]),
            Some(Stroke::Dashed) => (vec![(0, 0), (p(8), 0)], vec![(p(13), 0), (p(21), 0)]),
            Some(Stroke::Solid) => (vec![(0, 0), (p(21), 0)], vec![]),
            Some(Stroke::None) => (vec![], vec![]),
        };
        let dot = if stroke == Some(Stroke::None) {
            style::upx(4)
        } else {
            0
        };
        // A whisker across the sample when the series has error bars.
        let (w, cap) = if whiskers { (p(9), p(4)) } else { (0, 0) };
        let (bw, bh) = if fill.is_some() {
            (p(20), p(7))
        } else {
            (0, 0)
        };
        let fill = fill.unwrap_or(style::BACKGROUND.mix(0.0));
        EmptyElement::at((x, y))
            + Rectangle::new([(0, -bh), (bw, bh)], fill.filled())
            + PathElement::new(first, st)
            + PathElement::new(second, st)
            + Circle::new((p(10), 0), dot, colour.filled())
            + PathElement::new(vec![(p(10), -w), (p(10), w)], st)
            + PathElement::new(vec![(p(10) - cap, -w), (p(10) + cap, -w)], st)
            + PathElement::new(vec![(p(10) - cap, w), (p(10) + cap, w)], st)
    }};
}
use sample_element;

/// Draw a legend box `w` pixels wide of `entries` at the top left of `strip` (`top`
/// pixels down, to line up with the plot area), in the look of [`style::draw_legend`].
fn draw_outside_legend<DB: DrawingBackend>(
    strip: &DrawingArea<DB, Shift>,
    entries: &[(&str, Sample)],
    top: i32,
    w: i32,
) -> Result<(), PlotError> {
    let font = style::legend();
    let m = style::px(style::LEGEND_MARGIN as i32);
    let line_h = strip.estimate_text_size("Ag", &font)?.1 as i32 + style::px(6);
    let h = 2 * m + line_h * entries.len() as i32;
    strip.draw(&Rectangle::new(
        [(0, top), (w, top + h)],
        style::BACKGROUND.filled(),
    ))?;
    strip.draw(&Rectangle::new(
        [(0, top), (w, top + h)],
        style::stroke(RGBColor(160, 160, 160), 1),
    ))?;
    for (i, (label, sample)) in entries.iter().enumerate() {
        let y = top + m + line_h * i as i32 + line_h / 2;
        strip.draw(&sample_element!(*sample, (m, y)))?;
        strip.draw(&Text::new(
            *label,
            (m + style::px(style::LEGEND_SAMPLE as i32), y),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// Pixels between the plot area and an outside legend.
const LEGEND_GAP: i32 = 12;

/// The width of a legend box holding `labels` (as [`style::draw_legend`] lays it out).
fn legend_width<'l, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    labels: impl Iterator<Item = &'l str>,
) -> Result<u32, PlotError> {
    let font = style::legend();
    let mut w = 0;
    for l in labels {
        w = w.max(area.estimate_text_size(l, &font)?.0);
    }
    Ok(w + style::upx(style::LEGEND_SAMPLE) + 2 * style::upx(style::LEGEND_MARGIN))
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
    fn a_series_hidden_by_another_says_so_in_the_legend() {
        let a = vec![(0.1, 0.02), (0.5, 0.04), (0.9, 0.3)];
        let b: Vec<(f64, f64)> = a.iter().map(|&(x, y)| (x, y * 1.001)).collect();
        let far: Vec<(f64, f64)> = a.iter().map(|&(x, y)| (x, y + 0.1)).collect();
        let c = LineChart::new("t", Axis::linear("x"), Axis::linear("y"))
            .series(Series::new("both causes", a.clone()).colour(0))
            .series(Series::new("collisions", b.clone()).dashed().colour(0))
            .series(Series::new("first", a.clone()).colour(1))
            .series(Series::new("second", b).colour(2))
            .series(Series::new("apart", far).colour(3));
        assert_eq!(
            c.legend_labels(),
            [
                "both causes (under first)",
                "collisions (on the solid line: same values)",
                "first (under second)",
                "second",
                "apart"
            ]
        );
        // A dashed line of another colour over a solid one leaves both visible.
        let d = LineChart::new("t", Axis::linear("x"), Axis::log("y"))
            .series(Series::new("a", a.clone()).colour(0))
            .series(Series::new("b", a).dashed().colour(1));
        assert_eq!(d.legend_labels(), ["a", "b"]);
    }

    /// The x of the text element `content` in `svg`.
    fn text_x(svg: &str, content: &str) -> f64 {
        svg.split("<text ")
            .find(|t| {
                t.split_once('>')
                    .is_some_and(|(_, b)| b.trim().starts_with(content))
            })
            .and_then(|t| t.split("x=\"").nth(1))
            .and_then(|t| t.split('"').next())
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| panic!("no text {content:?}"))
    }

    #[test]
    fn an_outside_legend_lies_right_of_the_plot() {
        let chart = |at| {
            LineChart::new("t", Axis::linear("x").range(0.0, 7.0), Axis::linear("y"))
                .series(Series::new("alpha", vec![(0.0, 1.0), (7.0, 2.0)]))
                .shade(1.0, 2.0, "window")
                .legend_at(at)
        };
        let outside = crate::chart::save::to_svg(&chart(LegendAt::Outside)).unwrap();
        let inside = crate::chart::save::to_svg(&chart(LegendAt::UpperRight)).unwrap();
        // The last x tick label marks the plot's right end.
        for label in ["alpha", "window"] {
            assert!(text_x(&outside, label) > text_x(&outside, "7"), "{label}");
            assert!(text_x(&inside, label) < text_x(&inside, "7"), "{label}");
        }
    }
}
