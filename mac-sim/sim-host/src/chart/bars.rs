//! A generic bar chart: one bar per numbered item (a histogram bin, a station), on a
//! linear or logarithmic value axis, with an optional horizontal reference line
//! (e.g. the fair share) and a note under the title.
//!
//! ```
//! use sim_host::chart::BarChart;
//! use sim_host::chart::to_rgb;
//! let chart = BarChart::new("Attempts per frame", "attempts", "frames")
//!     .bars(vec![(1.0, 900.0), (2.0, 80.0), (3.0, 15.0)])
//!     .log_values()
//!     .reference(10.0, "threshold");
//! assert!(to_rgb(&chart).unwrap().iter().any(|&b| b != 255));
//! ```

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use super::figure::{Figure, PlotError};
use super::style::{self, SIZE};
use super::ticks::log_ticks;
use super::title::title_and_note;

/// A bar chart (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// Title.
    pub title: String,
    /// Lines of text under the title (e.g. summary statistics), separated by `\n`.
    pub note: Option<String>,
    /// Label of the item axis, with unit.
    pub x_label: String,
    /// Label of the value axis, with unit.
    pub y_label: String,
    /// `(position, value)`: bars are centred on integer-spaced positions.
    pub bars: Vec<(f64, f64)>,
    /// Value axis logarithmic (base 10); bars start at the bottom of the axis.
    pub log: bool,
    /// A horizontal line at this value, with a legend entry.
    pub reference: Option<(f64, String)>,
    /// Legend entry of the bars.
    pub bar_label: String,
    /// Palette index of the bars.
    pub colour: usize,
    /// Pixels.
    pub size: (u32, u32),
}

impl BarChart {
    /// An empty chart of the default size.
    pub fn new(title: &str, x_label: &str, y_label: &str) -> Self {
        Self {
            title: title.into(),
            note: None,
            x_label: x_label.into(),
            y_label: y_label.into(),
            bars: Vec::new(),
            log: false,
            reference: None,
            bar_label: String::new(),
            colour: 0,
            size: SIZE,
        }
    }

    /// Set the bars.
    pub fn bars(mut self, bars: Vec<(f64, f64)>) -> Self {
        self.bars = bars;
        self
    }

    /// A logarithmic value axis.
    pub fn log_values(mut self) -> Self {
        self.log = true;
        self
    }

    /// A reference line.
    pub fn reference(mut self, value: f64, label: &str) -> Self {
        self.reference = Some((value, label.into()));
        self
    }

    /// A note under the title.
    pub fn note(mut self, note: &str) -> Self {
        self.note = Some(note.into());
        self
    }

    /// The legend entry of the bars (none if empty).
    pub fn bar_label(mut self, label: &str) -> Self {
        self.bar_label = label.into();
        self
    }

    fn x_range(&self) -> (f64, f64) {
        let lo = self.bars.iter().map(|b| b.0).fold(f64::INFINITY, f64::min);
        let hi = self
            .bars
            .iter()
            .map(|b| b.0)
            .fold(f64::NEG_INFINITY, f64::max);
        if lo.is_finite() && hi.is_finite() {
            (lo - 0.6, hi + 0.6)
        } else {
            (0.0, 1.0)
        }
    }

    fn y_range(&self) -> (f64, f64) {
        let vals = self
            .bars
            .iter()
            .map(|b| b.1)
            .chain(self.reference.iter().map(|r| r.0))
            .filter(|v| v.is_finite() && (!self.log || *v > 0.0));
        let (lo, hi) = vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
        if !(lo.is_finite() && hi.is_finite()) {
            return if self.log { (1.0, 10.0) } else { (0.0, 1.0) };
        }
        if self.log {
            (lo / 2.0, hi * 2.0)
        } else {
            (0.0, if hi > 0.0 { hi * 1.12 } else { 1.0 })
        }
    }
}

impl Figure for BarChart {
    fn size(&self) -> (u32, u32) {
        self.size
    }

    fn supersample(&self) -> u32 {
        style::SUPERSAMPLE
    }

    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let (x0, x1) = self.x_range();
        let (y0, y1) = self.y_range();
        let (area, title) = title_and_note(area, &self.title, self.note.as_deref())?;
        if self.log {
            let t = log_ticks(y0, y1, 10.0);
            let y = (y0..y1)
                .log_scale()
                .with_key_points(t.labelled)
                .with_light_points(t.light);
            draw_in(self, &area, title, x0..x1, y, y0)
        } else {
            draw_in(self, &area, title, x0..x1, y0..y1, y0)
        }
    }
}

fn draw_in<DB, Y>(
    c: &BarChart,
    area: &DrawingArea<DB, Shift>,
    title: Option<&str>,
    x: std::ops::Range<f64>,
    y: Y,
    base: f64,
) -> Result<(), PlotError>
where
    DB: DrawingBackend,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let (x0, x1) = (x.start, x.end);
    let mut b = style::chart_builder(area);
    if let Some(t) = title {
        b.caption(t, style::title());
    }
    let mut chart = b.build_cartesian_2d(x, y)?;
    let integer_ticks = |v: &f64| {
        if (v - v.round()).abs() < 1e-9 {
            style::tick(*v)
        } else {
            String::new()
        }
    };
    let log = c.log;
    // A log axis is labelled at its ticks' values (see `ticks`).
    let yfmt = |v: &f64| style::tick(*v);
    let n = c.bars.len().max(1);
    style::grid(
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(c.x_label.as_str())
            .y_desc(c.y_label.as_str())
            .x_labels(n.min(20) + 1)
            .x_label_formatter(&integer_ticks)
            .y_label_formatter(&yfmt),
    )
    .draw()?;
    let col = style::colour(c.colour);
    // Bars narrower than a few pixels are drawn as touching columns.
    let half = if n > 200 { 0.5 } else { 0.38 };
    let bars = chart.draw_series(
        c.bars
            .iter()
            .filter(|b| b.1.is_finite() && (!log || b.1 > 0.0))
            .map(|&(x, v)| {
                Rectangle::new([(x - half, base), (x + half, v)], col.mix(0.85).filled())
            }),
    )?;
    if !c.bar_label.is_empty() {
        bars.label(c.bar_label.as_str()).legend(move |(px, py)| {
            Rectangle::new(
                [
                    (px, py - style::px(7)),
                    (px + style::px(20), py + style::px(7)),
                ],
                col.filled(),
            )
        });
    }
    if let Some((v, label)) = &c.reference {
        let rc = style::colour(1);
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x0, *v), (x1, *v)],
                style::upx(10),
                style::upx(6),
                style::stroke(rc, style::LINE_WIDTH),
            ))?
            .label(label.as_str())
            .legend(move |(px, py)| {
                let st = style::stroke(rc, style::LINE_WIDTH);
                EmptyElement::at((px, py))
                    + PathElement::new(vec![(0, 0), (style::px(8), 0)], st)
                    + PathElement::new(vec![(style::px(13), 0), (style::px(21), 0)], st)
            });
    }
    if !c.bar_label.is_empty() || c.reference.is_some() {
        style::draw_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    }
    Ok(())
}
