//! Charts with `plotters`, written as PNG and SVG.
//!
//! The shared part knows nothing about CSMA/CD:
//!
//! * [`font`]: the bundled font (text renders without system fonts);
//! * [`style`]: size, palette, text sizes and tick formatting;
//! * [`save`]: the [`save::Figure`] trait, PNG + SVG writing with atomic rename, and
//!   in-memory rendering for tests;
//! * [`line`](mod@line): a generic line chart (linear or log axes, error bars or bands, shaded
//!   x-intervals, legend);
//! * [`bars`]: a generic bar chart (histograms, per-item values) with a reference line.
//!
//! The CSMA/CD charts build on it:
//!
//! * [`sweep_charts`]: utilisation, delay, backoff and fairness across a sweep;
//! * [`run_charts`]: attempts histogram, per-station throughput and backoff of one run.
//!
//! and so do the retry-storm charts:
//!
//! * [`storm`]: the storm time-series panels and the contention chart.

pub mod bars;
pub mod font;
pub mod line;
pub mod run_charts;
pub mod save;
pub mod storm;
pub mod style;
pub mod sweep_charts;
