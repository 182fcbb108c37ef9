//! The bundled font: DejaVu Sans (a 52 KB subset, licence in `assets/fonts/`),
//! registered with plotters' `ab_glyph` text path, so charts have text on a machine
//! with no system fonts and no fontconfig.

use std::sync::OnceLock;

use plotters::style::{FontStyle, register_font};

/// The font file compiled into the binary.
pub static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// The family name charts ask for.
pub const FAMILY: &str = "sans-serif";

/// Register the bundled font for every style under [`FAMILY`] (once per process).
/// Returns whether the font could be used.
pub fn ensure_registered() -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    *OK.get_or_init(|| {
        [
            FontStyle::Normal,
            FontStyle::Bold,
            FontStyle::Italic,
            FontStyle::Oblique,
        ]
        .into_iter()
        .all(|style| register_font(FAMILY, style, DEJAVU_SANS).is_ok())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn bundled_font_parses() {
        assert!(super::ensure_registered());
        assert!(super::DEJAVU_SANS.len() < 100_000);
    }
}
