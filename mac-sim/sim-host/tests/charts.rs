//! The shared chart code renders real, readable images: text (from the bundled font),
//! lines, error bars, bands, shaded windows and bars all leave pixels, in PNG and SVG.
//!
//! Set `SIM_KIT_KEEP_PLOTS=DIR` to keep the files for a look.

use std::collections::HashSet;
use std::path::PathBuf;

use sim_host::chart::BarChart;
use sim_host::chart::Figure;
use sim_host::chart::{Axis, LineChart, Series};
use sim_host::chart::{save, to_rgb, to_svg};

fn out_dir() -> (Option<tempfile::TempDir>, PathBuf) {
    match std::env::var_os("SIM_KIT_KEEP_PLOTS") {
        Some(d) => {
            std::fs::create_dir_all(&d).unwrap();
            (None, PathBuf::from(d))
        }
        None => {
            let t = tempfile::tempdir().unwrap();
            let p = t.path().to_path_buf();
            (Some(t), p)
        }
    }
}

/// Distinct colours and the share of pixels that are not background.
fn pixel_stats(fig: &impl Figure) -> (usize, f64) {
    let rgb = to_rgb(fig).unwrap();
    let px: Vec<[u8; 3]> = rgb.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    let colours: HashSet<[u8; 3]> = px.iter().copied().collect();
    let ink = px.iter().filter(|&&p| p != [255, 255, 255]).count();
    (colours.len(), ink as f64 / px.len() as f64)
}

fn line_chart() -> LineChart {
    let xs: [f64; 9] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];
    LineChart::new(
        "Channel utilisation versus stations",
        Axis::log2("stations N"),
        Axis::linear("utilisation (fraction of 10 Mb/s)"),
    )
    .series(
        Series::new(
            "1518 B simulated",
            xs.iter().map(|&x| (x, 0.97 - 0.01 * x.log2())).collect(),
        )
        .error_bars(
            xs.iter()
                .map(|&x| (0.96 - 0.01 * x.log2(), 0.98 - 0.01 * x.log2()))
                .collect(),
        ),
    )
    .series(
        Series::new(
            "1518 B Metcalfe-Boggs",
            xs.iter().map(|&x| (x, 0.98 - 0.008 * x.log2())).collect(),
        )
        .dashed(),
    )
    .series(
        Series::new(
            "64 B simulated",
            xs.iter().map(|&x| (x, 0.7 - 0.04 * x.log2())).collect(),
        )
        .colour(1)
        .band(
            xs.iter()
                .map(|&x| (0.68 - 0.04 * x.log2(), 0.72 - 0.04 * x.log2()))
                .collect(),
        ),
    )
    .shade(4.0, 16.0, "trigger window")
}

#[test]
fn line_chart_png_and_svg_are_non_trivial() {
    let (_keep, dir) = out_dir();
    let c = line_chart();
    let [png, svg] = save(&c, &dir, "shared-line").unwrap();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(bytes.len() > 20_000, "PNG only {} bytes", bytes.len());
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("Channel utilisation versus stations"));
    assert!(text.contains("stations N") && text.contains("trigger window"));
    // Anti-aliased text and several series colours: many distinct colours, and a
    // plausible amount of ink (not blank, not flooded).
    let (colours, ink) = pixel_stats(&c);
    assert!(colours > 50, "{colours} colours");
    assert!((0.03..0.6).contains(&ink), "ink {ink}");
    // No temporary files are left behind.
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains(".partial-"), "{name}");
    }
}

#[test]
fn text_is_drawn_with_the_bundled_font() {
    // The same chart with and without a title differs by the title's glyphs: text
    // really is rasterised (a missing font would draw nothing and still succeed).
    let with = to_rgb(&line_chart()).unwrap();
    let mut c = line_chart();
    c.title.clear();
    let without = to_rgb(&c).unwrap();
    let differing = with
        .chunks_exact(3)
        .zip(without.chunks_exact(3))
        .filter(|(a, b)| a != b)
        .count();
    assert!(differing > 2_000, "title changed only {differing} pixels");
}

#[test]
fn log_log_chart_and_bar_charts_render() {
    let (_keep, dir) = out_dir();
    let c = LineChart::new(
        "Backoff",
        Axis::linear("collisions c"),
        Axis::log("mean backoff (slots)"),
    )
    .series(
        Series::new(
            "E(c)",
            (1..=15)
                .map(|c| (f64::from(c), (2f64.powi(c.min(10)) - 1.0) / 2.0))
                .collect(),
        )
        .dashed(),
    )
    .series(
        Series::new(
            "measured",
            (1..=15)
                .map(|c| (f64::from(c), (2f64.powi(c.min(10)) - 1.0) / 2.0 * 1.02))
                .collect(),
        )
        .colour(1),
    );
    save(&c, &dir, "shared-log").unwrap();
    let (colours, ink) = pixel_stats(&c);
    assert!(colours > 30 && ink > 0.02, "{colours} {ink}");

    let h = BarChart::new("Attempts per delivered frame", "attempts", "frames")
        .bars(
            (1..=16)
                .map(|a| (f64::from(a), 1e6 / 3f64.powi(a)))
                .collect(),
        )
        .log_values()
        .bar_label("frames")
        .note("mean 1.5 attempts per frame");
    save(&h, &dir, "shared-hist").unwrap();
    let (colours, ink) = pixel_stats(&h);
    assert!(colours > 30 && ink > 0.02, "{colours} {ink}");

    let p = BarChart::new("Per-station throughput", "station", "throughput (Mb/s)")
        .bars(
            (0..64)
                .map(|s| (f64::from(s), 0.15 + 0.001 * f64::from(s % 7)))
                .collect(),
        )
        .reference(0.15, "fair share");
    let svg = to_svg(&p).unwrap();
    assert!(svg.contains("fair share"));
}
