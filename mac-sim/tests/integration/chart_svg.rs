//! What the charts show a reader, read back from their SVG: the text elements with
//! their position and anchor (tick labels are right-aligned on the y axis, centred
//! under the x axis; legend entries left-aligned). The shares' axes end at 1, a log
//! axis has labels enough to read its values, the capture timeline names the station
//! it follows, and a storm panel's legend lies beside its plot, not on it.

use std::path::Path;

use crate::common::{mac_sim, stderr, stdout};

/// One `<text>` of an SVG: x, y, anchor, content (entities of `'` and `&` decoded).
#[derive(Debug)]
struct Text {
    x: f64,
    y: f64,
    anchor: String,
    text: String,
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let rest = tag.split(&format!(" {name}=\"")).nth(1)?;
    Some(rest.split('"').next()?.to_string())
}

fn texts(svg: &str) -> Vec<Text> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|t| {
            let (tag, rest) = t.split_once('>')?;
            let body = rest.split("</text>").next()?;
            Some(Text {
                x: attr(&format!(" {tag}"), "x")?.parse().ok()?,
                y: attr(&format!(" {tag}"), "y")?.parse().ok()?,
                anchor: attr(&format!(" {tag}"), "text-anchor").unwrap_or_default(),
                text: body.trim().replace("&apos;", "'").replace("&amp;", "&"),
            })
        })
        .collect()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The numeric tick labels of the y axes (right-aligned numbers), as (text, x, y).
fn y_ticks(t: &[Text]) -> Vec<(&str, f64, f64)> {
    t.iter()
        .filter(|t| t.anchor == "end" && t.text.parse::<f64>().is_ok())
        .map(|t| (t.text.as_str(), t.x, t.y))
        .collect()
}

/// The label at the top of the y axis (smallest y) among `ticks`.
fn top_label<'a>(ticks: &[(&'a str, f64, f64)]) -> &'a str {
    ticks
        .iter()
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .expect("a y axis with labels")
        .0
}

#[test]
fn run_plot_follows_the_busiest_station_with_shares_up_to_1_and_a_labelled_log_axis() {
    let d = tempfile::tempdir().unwrap();
    let o = mac_sim(&[
        "run",
        "-n",
        "6",
        "-d",
        "300ms",
        "--per-station",
        "--csv",
        "--plot",
        d.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The station with the most frames delivered, from the per-station CSV.
    let out = stdout(&o);
    let mut lines = out.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (st, dl) = (col("station"), col("station_delivered_frames"));
    let rows: Vec<(u32, u64)> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .map(|r| (r[st].parse().unwrap(), r[dl].parse().unwrap()))
        .collect();
    let most = rows.iter().map(|r| r.1).max().unwrap();
    let busiest = rows.iter().find(|r| r.1 == most).unwrap().0;

    let t = texts(&read(&d.path().join("capture_timeline.svg")));
    let title = &t[0].text;
    assert!(
        title.contains(&format!(
            "share of station {busiest}, the one with the most successes ({most} of"
        )),
        "{title}"
    );
    assert!(t.iter().any(|x| x.text == format!("station {busiest}")));
    assert_eq!(top_label(&y_ticks(&t)), "1", "the share axis ends at 1");

    // The attempts histogram's log axis: a label at every power of ten it spans, and
    // enough labels to read the tallest bar.
    let t = texts(&read(&d.path().join("attempts_histogram.svg")));
    let values: Vec<f64> = y_ticks(&t).iter().map(|l| l.0.parse().unwrap()).collect();
    assert!(values.len() >= 4, "{values:?}");
    let (lo, hi) = (
        values[0].min(values[values.len() - 1]),
        values[0].max(values[values.len() - 1]),
    );
    let mut p = 10f64.powf(lo.log10().ceil());
    while p <= hi {
        assert!(
            values.iter().any(|v| (v / p - 1.0).abs() < 1e-9),
            "{p} unlabelled: {values:?}"
        );
        p *= 10.0;
    }
}

#[test]
fn sweep_drop_chart_is_on_a_log_axis_up_to_1_and_says_which_line_is_hidden() {
    let d = tempfile::tempdir().unwrap();
    let o = mac_sim(&[
        "sweep",
        "-n",
        "64",
        "-l",
        "0.5,0.9,saturated",
        "-r",
        "2",
        "-d",
        "1s",
        "-q",
        "-o",
        d.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = texts(&read(&d.path().join("drops_vs_load.svg")));
    let ticks = y_ticks(&t);
    assert_eq!(top_label(&ticks), "1");
    assert!(ticks.len() >= 3, "{ticks:?}");
    assert!(t.iter().any(|x| x.text.contains("log scale")));
    // No queue overflows in 1 s: every drop is one of excessive collisions (about 1 %
    // at load 0.9), so the dashed line lies on the solid one, and its legend entry
    // says so.
    assert!(
        t.iter()
            .any(|x| x.text == "BEB collisions only (on the solid line: same values)"),
        "{:?}",
        t.iter().map(|x| &x.text).collect::<Vec<_>>()
    );
    // Utilisation is a share of the bit rate: its axis ends at 1 too (a sweep of
    // stations draws it).
    let d2 = tempfile::tempdir().unwrap();
    let o = mac_sim(&[
        "sweep",
        "-n",
        "2,8",
        "-r",
        "2",
        "-d",
        "50ms",
        "-q",
        "-o",
        d2.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for chart in ["utilisation_vs_stations", "fairness_vs_stations"] {
        let t = texts(&read(&d2.path().join(format!("{chart}.svg"))));
        assert_eq!(top_label(&y_ticks(&t)), "1", "{chart}");
    }
}

#[test]
fn storm_legends_lie_beside_their_panels_and_ratios_end_at_1() {
    let d = tempfile::tempdir().unwrap();
    let o = mac_sim(&[
        "storm",
        "--scenario",
        "pause",
        "--out",
        d.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = texts(&read(&d.path().join("storm-pause.svg")));
    // Panels of 1024 x 640 in two columns.
    let panel = |x: f64, y: f64| ((x / 1024.0) as u32, (y / 640.0) as u32);
    let legend: Vec<&Text> = t
        .iter()
        .filter(|x| x.anchor == "start" && (x.text == "trigger" || x.text.contains("jitter")))
        .collect();
    assert_eq!(legend.len(), 12, "two entries or more in each of 6 panels");
    for l in &legend {
        // Right of every x tick label (the plot's right end) of its panel.
        let right = t
            .iter()
            .filter(|x| {
                x.anchor == "middle"
                    && x.text.parse::<f64>().is_ok()
                    && panel(x.x, x.y) == panel(l.x, l.y)
            })
            .map(|x| x.x)
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            right.is_finite() && l.x > right,
            "{l:?} inside its plot (right end {right})"
        );
    }
    // All panels share one legend width, so their plots (and the x tick labels of
    // one time axis) line up in each column.
    for col in 0..2 {
        let ends: Vec<f64> = (0..3)
            .map(|row| {
                t.iter()
                    .filter(|x| {
                        x.anchor == "middle"
                            && x.text.parse::<f64>().is_ok()
                            && panel(x.x, x.y) == (col, row)
                    })
                    .map(|x| x.x)
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .collect();
        assert!(ends.iter().all(|&e| e == ends[0]), "column {col}: {ends:?}");
    }
    // The two success-ratio panels (second row) end at 1.
    let ticks = y_ticks(&t);
    for col in 0..2 {
        let row: Vec<_> = ticks
            .iter()
            .copied()
            .filter(|l| panel(l.1, l.2) == (col, 1))
            .collect();
        assert_eq!(top_label(&row), "1", "panel ({col}, 1)");
    }
}
