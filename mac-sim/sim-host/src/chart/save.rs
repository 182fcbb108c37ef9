//! Drawing a [`Figure`] into memory (SVG text, RGB pixels) and writing it as PNG and
//! SVG, each atomically (temporary name, then rename).

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::figure::{Figure, PlotError};
use super::font;
use super::style::{self, BACKGROUND};
use crate::output::atomic::{OutputError, write_atomic};

/// Draw `fig` into an SVG document.
///
/// # Errors
///
/// [`PlotError`] when plotters refuses to draw.
pub fn to_svg(fig: &impl Figure) -> Result<String, PlotError> {
    font::ensure_registered();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, fig.size()).into_drawing_area();
        root.fill(&BACKGROUND)?;
        fig.draw(&root)?;
        root.present()?;
    }
    Ok(svg)
}

/// Draw `fig` into an RGB pixel buffer (`width × height × 3` bytes): at
/// [`Figure::supersample`] times the size, then each block of pixels averaged.
///
/// # Errors
///
/// [`PlotError`] when plotters refuses to draw.
pub fn to_rgb(fig: &impl Figure) -> Result<Vec<u8>, PlotError> {
    font::ensure_registered();
    let (w, h) = fig.size();
    let k = fig.supersample().clamp(1, 4);
    let (bw, bh) = (w * k, h * k);
    let mut big = vec![0u8; bw as usize * bh as usize * 3];
    style::with_scale(k, || -> Result<(), PlotError> {
        let root = BitMapBackend::with_buffer(&mut big, (bw, bh)).into_drawing_area();
        root.fill(&BACKGROUND)?;
        fig.draw(&root)?;
        root.present()?;
        Ok(())
    })?;
    if k == 1 {
        return Ok(big);
    }
    let (w, h, k) = (w as usize, h as usize, k as usize);
    let bw = w * k;
    let mut out = vec![0u8; w * h * 3];
    for y in 0..h {
        for x in 0..w {
            for c in 0..3 {
                let mut sum = 0u32;
                for dy in 0..k {
                    let row = (y * k + dy) * bw;
                    for dx in 0..k {
                        sum += u32::from(big[(row + x * k + dx) * 3 + c]);
                    }
                }
                let n = (k * k) as u32;
                out[(y * w + x) * 3 + c] = ((sum + n / 2) / n) as u8;
            }
        }
    }
    Ok(out)
}

/// The names of the files [`save`] writes for `stem`: `stem.png` and `stem.svg`.
pub fn file_names(stem: &str) -> [String; 2] {
    [format!("{stem}.png"), format!("{stem}.svg")]
}

/// Write `fig` as `dir/stem.png` and `dir/stem.svg`, each atomically. Returns the two
/// paths.
///
/// # Errors
///
/// [`OutputError`] when a file cannot be written or the chart cannot be drawn;
/// neither file is left half-written.
pub fn save(fig: &impl Figure, dir: &Path, stem: &str) -> Result<[PathBuf; 2], OutputError> {
    font::ensure_registered();
    let [png, svg_path] = file_names(stem).map(|n| dir.join(n));
    fn render(p: &Path) -> impl FnOnce(PlotError) -> OutputError + '_ {
        move |e| OutputError::Render(p.to_path_buf(), Box::new(e))
    }
    let rgb = to_rgb(fig).map_err(render(&png))?;
    let (w, h) = fig.size();
    let bytes = encode_png(&rgb, w, h).map_err(|e| render(&png)(PlotError::backend(e)))?;
    write_atomic(&png, &bytes)?;
    let svg = to_svg(fig).map_err(render(&svg_path))?;
    write_atomic(&svg_path, svg.as_bytes())?;
    Ok([png, svg_path])
}

/// `rgb` (8-bit RGB, `w` x `h`) as a PNG file's bytes, encoded as plotters' bitmap
/// backend saves one (the `image` crate's default PNG settings: fast compression,
/// adaptive filtering), so the files are the same; in memory, so that a failure to
/// write the file is an I/O error of its own ([`write_atomic`]).
fn encode_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    enc.set_filter(png::FilterType::Sub);
    enc.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut writer = enc.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()?;
    Ok(out)
}
