//! A figure's title, with an optional note under it wrapped to the figure's width.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, RGBColor, Text};

use super::figure::PlotError;
use super::style;
use sim_kit::output::wrap;

/// The longest note line, in characters, that fits the default figure width.
const NOTE_WIDTH: usize = 110;

/// Draw `title` with the lines of `note` under it (each wrapped to the figure's
/// width) at the top of `area` and return the
/// area left for the plot, with no caption to add; without a note, return `area` and
/// `title` as the plot's caption.
///
/// # Errors
///
/// [`PlotError`] when plotters refuses to split the area or draw the text.
pub fn title_and_note<'t, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &'t str,
    note: Option<&str>,
) -> Result<(DrawingArea<DB, Shift>, Option<&'t str>), PlotError> {
    let Some(note) = note else {
        return Ok((area.clone(), Some(title)));
    };
    let lines: Vec<String> = note.lines().flat_map(|l| wrap(l, NOTE_WIDTH)).collect();
    let (top, rest) = area.split_vertically(style::px(52 + 24 * lines.len() as i32));
    top.draw(&Text::new(
        title,
        (style::px(20), style::px(12)),
        style::title(),
    ))?;
    for (i, line) in lines.iter().enumerate() {
        top.draw(&Text::new(
            line.as_str(),
            (style::px(20), style::px(46 + 24 * i as i32)),
            style::axis_label().color(&RGBColor(80, 80, 80)),
        ))?;
    }
    Ok((rest, None))
}
