//! What a chart is to the rest of the kit: a [`Figure`] that draws itself on any
//! plotters drawing area, and the [`PlotError`] drawing can end in.

use std::fmt;

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingAreaErrorKind, DrawingBackend, RGBColor, Text};

use super::style;

/// What kind of failure stopped a chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlotErrorKind {
    /// The drawing backend (bitmap encoder, SVG writer) failed.
    Backend,
    /// The drawing area was split or shared in a way plotters refused.
    Layout,
}

/// Why a chart could not be drawn: its kind and the message plotters gave.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotError {
    kind: PlotErrorKind,
    detail: String,
}

impl PlotError {
    /// A backend failure with the backend's own message.
    pub fn backend(detail: impl fmt::Display) -> Self {
        Self {
            kind: PlotErrorKind::Backend,
            detail: detail.to_string(),
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> PlotErrorKind {
        self.kind
    }

    /// The message of the library that failed.
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for PlotError {}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for PlotError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        let kind = match e {
            DrawingAreaErrorKind::BackendError(_) => PlotErrorKind::Backend,
            _ => PlotErrorKind::Layout,
        };
        Self {
            kind,
            detail: e.to_string(),
        }
    }
}

/// Something that can draw itself on any plotters drawing area.
pub trait Figure {
    /// Size in pixels (the SVG uses the same units).
    fn size(&self) -> (u32, u32);
    /// Draw on `area`, which has been filled with the background.
    ///
    /// # Errors
    ///
    /// [`PlotError`] when plotters refuses a drawing operation.
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), PlotError>;
    /// How many times larger the PNG is drawn before averaging down (1: not at all).
    /// A figure that measures every length with [`super::style::px`] can return
    /// [`super::style::SUPERSAMPLE`].
    fn supersample(&self) -> u32 {
        1
    }
}

/// The longest note line, in characters, that fits the default figure width.
const NOTE_WIDTH: usize = 110;

/// `line` cut at spaces into pieces of at most `width` characters (a longer word
/// stays whole, on a piece of its own).
fn wrap(line: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in line.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    out.push(cur);
    out
}

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

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn long_note_lines_wrap_at_spaces() {
        assert_eq!(wrap("short", 10), vec!["short"]);
        assert_eq!(wrap("aaa bbb ccc ddd", 7), vec!["aaa bbb", "ccc ddd"]);
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            vec!["averyveryverylongword", "x"]
        );
        assert_eq!(wrap("", 5), vec![""]);
    }
}
