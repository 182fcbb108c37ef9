//! The look shared by every chart: size, palette, line widths and text sizes, chosen
//! to stay legible when a 1024 × 640 PNG is shown at its natural size.
//!
//! Every length is given in pixels of the finished chart through [`px`]: a PNG is
//! drawn at [`SUPERSAMPLE`] times its size and averaged down, which places text
//! glyphs (positioned to whole pixels by the rasteriser) and thin lines to within a
//! fraction of a pixel.

use std::cell::Cell;

use plotters::chart::{ChartBuilder, ChartContext, MeshStyle, SeriesLabelPosition};
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::{DrawingArea, DrawingBackend, Ranged, WHITE};
use plotters::style::{Color, FontDesc, IntoFont, RGBColor, ShapeStyle, TextStyle};

use super::figure::PlotError;
use super::font::FAMILY;

/// Default chart size, pixels.
pub const SIZE: (u32, u32) = (1024, 640);

/// A colour-blind-safe palette (Okabe & Ito), in the order series take it.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermilion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(230, 159, 0),   // orange
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(120, 120, 120), // grey
    RGBColor(0, 0, 0),       // black
];

/// The background.
pub const BACKGROUND: RGBColor = RGBColor(255, 255, 255);

/// Colour number `i` of the palette (wrapping).
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// How many times larger, in each direction, a PNG is drawn before averaging down.
pub const SUPERSAMPLE: u32 = 2;

thread_local! {
    static SCALE: Cell<u32> = const { Cell::new(1) };
}

/// Run `f` with every [`px`] length multiplied by `scale` (on this thread).
pub fn with_scale<R>(scale: u32, f: impl FnOnce() -> R) -> R {
    let old = SCALE.with(|s| s.replace(scale.max(1)));
    let r = f();
    SCALE.with(|s| s.set(old));
    r
}

/// `n` pixels of the finished chart, in pixels of the canvas being drawn.
pub fn px(n: i32) -> i32 {
    n * SCALE.with(Cell::get) as i32
}

/// [`px`] for sizes.
pub fn upx(n: u32) -> u32 {
    n * SCALE.with(Cell::get)
}

/// Stroke width of data lines, pixels.
pub const LINE_WIDTH: u32 = 2;

/// A line of colour `c`, `w` pixels wide.
pub fn stroke(c: RGBColor, w: u32) -> ShapeStyle {
    c.stroke_width(upx(w))
}

/// A data line of colour `i`.
pub fn line(i: usize) -> ShapeStyle {
    stroke(colour(i), LINE_WIDTH)
}

fn font(size: i32) -> FontDesc<'static> {
    (FAMILY, f64::from(px(size))).into_font()
}

/// The title font.
pub fn title() -> FontDesc<'static> {
    font(26)
}

/// Axis descriptions.
pub fn axis_label() -> FontDesc<'static> {
    font(20)
}

/// Tick labels.
pub fn tick_label() -> FontDesc<'static> {
    font(16)
}

/// Legend entries.
pub fn legend() -> TextStyle<'static> {
    font(16).into()
}

/// A chart builder on `area` with the house margin and axis-label areas.
pub fn chart_builder<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
) -> ChartBuilder<'a, 'b, DB> {
    let mut b = ChartBuilder::on(area);
    b.margin(px(16))
        .x_label_area_size(px(56))
        .y_label_area_size(px(84));
    b
}

/// The house grid and axes: label fonts, ten y labels, two light grid lines between
/// bold ones, black axes and 5-pixel tick marks.
pub fn grid<'m, 'a, 'b, X: Ranged, Y: Ranged, DB: DrawingBackend>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
    mesh.axis_desc_style(axis_label())
        .label_style(tick_label())
        .y_labels(10)
        .max_light_lines(2)
        .light_line_style(stroke(RGBColor(238, 238, 238), 1))
        .bold_line_style(stroke(RGBColor(200, 200, 200), 1))
        .axis_style(stroke(RGBColor(0, 0, 0), 1))
        .set_all_tick_mark_size(px(5))
}

/// Pixels between a legend's border and its entries.
pub const LEGEND_MARGIN: u32 = 12;

/// Pixels a legend entry's sample (line, marker, box) takes before its text.
pub const LEGEND_SAMPLE: u32 = 28;

/// Draw the legend of every labelled series at `pos`, on a translucent white box.
///
/// # Errors
///
/// [`PlotError`] when plotters cannot draw the legend.
pub fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    pos: SeriesLabelPosition,
) -> Result<(), PlotError> {
    chart
        .configure_series_labels()
        .position(pos)
        .label_font(legend())
        .background_style(WHITE.mix(0.88))
        .border_style(stroke(RGBColor(160, 160, 160), 1))
        .margin(upx(LEGEND_MARGIN))
        .legend_area_size(px(LEGEND_SAMPLE as i32))
        .draw()?;
    Ok(())
}

/// A number for a tick label: integers without a decimal point, others with up to
/// four significant digits, very large or small ones in scientific notation.
///
/// ```
/// use sim_host::chart::style::tick;
/// assert_eq!(tick(256.0), "256");
/// assert_eq!(tick(0.25), "0.25");
/// assert_eq!(tick(0.1 + 0.2), "0.3");
/// assert_eq!(tick(1e7), "1e7");
/// assert_eq!(tick(-0.0), "0");
/// ```
pub fn tick(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        let e = a.log10().floor();
        let m = v / 10f64.powf(e);
        let m = format!("{m:.2}");
        let m = m.trim_end_matches('0').trim_end_matches('.');
        return format!("{m}e{e}");
    }
    if (v - v.round()).abs() < 1e-9 * a.max(1.0) {
        return format!("{}", v.round() as i64);
    }
    let digits = (3 - a.log10().floor() as i32).clamp(0, 8) as usize;
    let s = format!("{v:.digits$}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
