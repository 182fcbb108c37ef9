//! What a chart is to the rest of the kit: a [`Figure`] that draws itself on any
//! plotters drawing area, and the [`PlotError`] drawing can end in.

use std::fmt;

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingAreaErrorKind, DrawingBackend};

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
