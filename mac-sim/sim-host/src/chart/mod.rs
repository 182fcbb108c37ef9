//! Charts with `plotters`, written as PNG and SVG. Nothing here knows a model: the
//! CSMA/CD and retry-storm charts are built from these pieces in their own crates.
//!
//! * `figure`: the [`figure::Figure`] trait every chart implements, and
//!   [`figure::PlotError`];
//! * `font`: the bundled font (text renders without system fonts);
//! * [`style`]: size, palette, text sizes and tick formatting;
//! * `title`: a figure's title with an optional note under it, wrapped to the width;
//! * `save`: rendering to SVG text or RGB pixels, and PNG + SVG files written
//!   atomically;
//! * `line`(mod@line): a line chart (linear or log axes, error bars or bands, shaded
//!   x-intervals, legend);
//! * `ticks`: the labelled and light ticks of a logarithmic axis;
//! * `bars`: a bar chart (histograms, per-item values) with a reference line.

pub(crate) mod bars;
pub(crate) mod figure;
pub(crate) mod font;
pub(crate) mod line;
pub(crate) mod save;
pub mod style;
pub(crate) mod ticks;
pub(crate) mod title;

pub use bars::BarChart;
pub use figure::{Figure, PlotError, PlotErrorKind};
pub use line::{Axis, LegendAt, LineChart, Scale, Series, Shade, Spread, Stroke};
pub use save::{file_names, save, to_rgb, to_svg};
