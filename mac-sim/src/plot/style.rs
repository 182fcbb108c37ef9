//! The look shared by every chart: size, palette, line widths and text sizes, chosen
//! to stay legible when a 1024 × 640 PNG is shown at its natural size.

use plotters::chart::{ChartContext, SeriesLabelPosition};
use plotters::coord::CoordTranslate;
use plotters::prelude::{DrawingBackend, WHITE};
use plotters::style::{Color, FontDesc, IntoFont, RGBColor, ShapeStyle, TextStyle};

use super::save::PlotError;

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

/// Stroke width of data lines, pixels.
pub const LINE_WIDTH: u32 = 2;

/// A data line of colour `i`.
pub fn line(i: usize) -> ShapeStyle {
    colour(i).stroke_width(LINE_WIDTH)
}

/// The title font.
pub fn title() -> FontDesc<'static> {
    (FAMILY, 26).into_font()
}

/// Axis descriptions.
pub fn axis_label() -> FontDesc<'static> {
    (FAMILY, 20).into_font()
}

/// Tick labels.
pub fn tick_label() -> FontDesc<'static> {
    (FAMILY, 16).into_font()
}

/// Legend entries.
pub fn legend() -> TextStyle<'static> {
    (FAMILY, 16).into_font().into()
}

/// Draw the legend of every labelled series at `pos`, on a translucent white box.
pub fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    pos: SeriesLabelPosition,
) -> Result<(), PlotError> {
    chart
        .configure_series_labels()
        .position(pos)
        .label_font(legend())
        .background_style(WHITE.mix(0.88))
        .border_style(RGBColor(160, 160, 160))
        .margin(12)
        .draw()?;
    Ok(())
}

/// A number for a tick label: integers without a decimal point, others with up to
/// four significant digits, very large or small ones in scientific notation.
///
/// ```
/// use mac_sim::plot::style::tick;
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
