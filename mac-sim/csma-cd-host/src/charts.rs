//! The charts of one run of the exact model (`mac-sim run --plot DIR`):
//!
//! * attempts per delivered frame (histogram, log scale);
//! * throughput of every station beside the fair share, with Jain's index and the
//!   capture statistics in the note, so that unfairness and capture show;
//! * the capture effect over time: the share of the successes in each window of the
//!   run taken by station 0 (up to two stations) or by the station with the most
//!   successes (above two, named in the title), and each window's busiest station's;
//! * measured mean backoff after c collisions with 95 % intervals beside the
//!   algorithm's expectation (log scale).

use csma_cd::exact::RunResult;
use csma_cd::exact::{CaptureTimeline, CaptureWindow};
use sim_host::chart::BarChart;
use sim_host::chart::{Axis, LegendAt, LineChart, Series};

/// The file stems of the charts, in the order `run --plot` draws them (each is
/// written as `STEM.png` and `STEM.svg`); the capture timeline is drawn when the run
/// kept its windows.
pub const STEMS: [&str; 4] = [
    "attempts_histogram",
    "per_station_throughput",
    "backoff_vs_expected",
    "capture_timeline",
];

/// The names of every file the charts of one run may be written as, for checking the
/// folder before the run.
pub fn file_names() -> Vec<String> {
    STEMS
        .iter()
        .flat_map(|s| sim_host::chart::file_names(s))
        .collect()
}

fn describe(r: &RunResult) -> String {
    let c = &r.config;
    let traffic = match c.traffic {
        csma_cd::config::Traffic::Saturated => "saturated".to_string(),
        csma_cd::config::Traffic::Poisson { load } => format!("G = {load}"),
    };
    format!(
        "N = {}, {} B, {traffic}, {}, {} s",
        c.stations,
        c.frames.label(),
        c.backoff.label(),
        r.simulated_s
    )
}

/// Attempts per delivered frame.
pub fn attempts_histogram(r: &RunResult) -> BarChart {
    let bars: Vec<(f64, f64)> = r
        .attempts_histogram
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(i, &n)| (i as f64 + 1.0, n as f64))
        .collect();
    BarChart::new(
        "Transmission attempts per delivered frame",
        "attempts needed to deliver the frame",
        "frames (log scale)",
    )
    .bars(bars)
    .log_values()
    .note(&format!(
        "{}\n{} frames delivered, {:.3} attempts each on average, {} dropped after {} attempts",
        describe(r),
        r.conservation.delivered,
        r.mean_attempts,
        r.conservation.dropped_excessive,
        r.config.attempt_limit
    ))
}

/// The most bars the per-station chart draws; more stations are grouped.
pub const MAX_STATION_BARS: usize = 512;

/// Throughput of each station (numbered `0..N` along the bus, as in the reports) and
/// the fair share. Above
/// [`MAX_STATION_BARS`] stations, consecutive stations are grouped and each bar is the
/// mean throughput per station of its group.
pub fn per_station_throughput(r: &RunResult, delivered_bits: &[u64]) -> BarChart {
    let secs = r.simulated_s.max(f64::MIN_POSITIVE);
    let k = delivered_bits.len().div_ceil(MAX_STATION_BARS).max(1);
    let bars: Vec<(f64, f64)> = delivered_bits
        .chunks(k)
        .enumerate()
        .map(|(i, g)| {
            let mean = g.iter().sum::<u64>() as f64 / g.len() as f64;
            (i as f64, mean / secs)
        })
        .collect();
    let fair = r.throughput_mbps * 1e6 / delivered_bits.len().max(1) as f64;
    // Bits per second in the unit that keeps the numbers readable.
    let top = bars.iter().map(|b| b.1).fold(fair, f64::max);
    let (scale, unit) = if top >= 1e6 {
        (1e6, "Mb/s")
    } else if top >= 1e3 {
        (1e3, "kb/s")
    } else {
        (1.0, "b/s")
    };
    let bars: Vec<(f64, f64)> = bars.into_iter().map(|(x, v)| (x, v / scale)).collect();
    let fair = fair / scale;
    let x_label = if k == 1 {
        format!(
            "station (numbered 0..{} along the bus)",
            delivered_bits.len().saturating_sub(1)
        )
    } else {
        format!(
            "group of {k} neighbouring stations along the bus: group g holds stations g·{k} to g·{k} + {} (mean per station)",
            k - 1
        )
    };
    BarChart::new(
        "Throughput of each station",
        &x_label,
        &format!("throughput ({unit})"),
    )
    .bars(bars)
    .bar_label("delivered")
    .reference(fair, "fair share (total / N)")
    .note(&format!(
        "{}\nJain's index {:.4}; longest run of successes by one station {}; one station took {:.0}% of a {}-frame window",
        describe(r),
        r.jain_index,
        r.capture.longest_run,
        r.capture.max_window_share * 100.0,
        r.capture.window
    ))
}

/// The station the capture timeline follows: station 0 with one or two stations
/// (with two, its share tells the other's), otherwise the station with the most
/// successes over the measured time (the lowest-numbered of a tie), with that number.
pub fn followed_station(r: &RunResult, t: &CaptureTimeline) -> (u32, Option<u64>) {
    if r.config.stations <= 2 {
        return (0, None);
    }
    match t.busiest_station() {
        Some((s, n)) => (s, Some(n)),
        None => (0, None),
    }
}

/// The capture effect over time: the share of the successes in each window of the
/// measured time taken by the followed station ([`followed_station`]: station 0 up to
/// two stations, otherwise the one with the most successes, named in the title), and
/// above two stations the share of each window's busiest station, beside the fair
/// share 1/N (windows without a success are left out and counted in the note). The
/// share axis runs from 0 to 1, the legend beside the plot.
pub fn capture_timeline(r: &RunResult, t: &CaptureTimeline) -> LineChart {
    let windows = t.windows();
    let mid = |w: &CaptureWindow| (w.start_s + w.end_s) / 2.0;
    let points = |share: fn(&CaptureWindow) -> Option<f64>| -> Vec<(f64, f64)> {
        windows
            .iter()
            .filter_map(|w| share(w).map(|s| (mid(w), s)))
            .collect()
    };
    let n = r.config.stations;
    let (t0, t1) = (
        windows.first().map_or(0.0, |w| w.start_s),
        windows.last().map_or(1.0, |w| w.end_s),
    );
    let width_ms = windows.first().map_or(0.0, |w| (w.end_s - w.start_s) * 1e3);
    let successes: u64 = windows.iter().map(|w| w.successes).sum();
    let empty = windows.iter().filter(|w| w.successes == 0).count();
    let captured = windows
        .iter()
        .filter_map(CaptureWindow::busiest_share)
        .filter(|&s| s > 0.9)
        .count();
    let (station, most) = followed_station(r, t);
    let title = match most {
        Some(k) => format!(
            "Capture effect: share of station {station}, the one with the most successes ({k} of {successes})"
        ),
        None => format!("Capture effect: station {station}'s share of the successes over time"),
    };
    let followed: Vec<(f64, f64)> = windows
        .iter()
        .zip(t.station_successes(station))
        .filter(|(w, _)| w.successes > 0)
        .map(|(w, k)| (mid(w), k as f64 / w.successes as f64))
        .collect();
    let mut chart = LineChart::new(
        &title,
        Axis::linear("simulated time (s)").range(t0, t1),
        Axis::linear("share of the window's successes").range(0.0, 1.0),
    )
    .legend_at(LegendAt::Outside)
    .note(&format!(
        "{}
{} windows of {width_ms:.1} ms, {:.1} successes each on average{}\none station took over 90% of the successes in {captured} windows; longest run {} successes by station {}",
        describe(r),
        windows.len(),
        successes as f64 / windows.len().max(1) as f64,
        if empty == 0 {
            String::new()
        } else {
            format!(" ({empty} without a success, left out)")
        },
        r.capture.longest_run,
        r.capture.longest_run_station
    ));
    // The busiest station of each window first, so that the followed station's line
    // is drawn over it where the two are the same.
    if n > 2 {
        chart = chart.series(
            Series::new(
                "the window's busiest station",
                points(CaptureWindow::busiest_share),
            )
            .no_markers()
            .colour(1),
        );
    }
    chart = chart.series(
        Series::new(&format!("station {station}"), followed)
            .no_markers()
            .colour(0),
    );
    chart.series(
        Series::new(
            &format!("fair share 1/N = {:.3}", 1.0 / f64::from(n.max(1))),
            vec![
                (t0, 1.0 / f64::from(n.max(1))),
                (t1, 1.0 / f64::from(n.max(1))),
            ],
        )
        .dashed()
        .no_markers()
        .colour(2),
    )
}

/// Measured mean backoff after c collisions (95 % intervals) and its expectation.
pub fn backoff_vs_expected(r: &RunResult) -> LineChart {
    let rows: Vec<_> = r.backoff.iter().filter(|b| b.draws > 0).collect();
    let name = r.config.backoff.label();
    LineChart::new(
        &format!("Mean backoff after c collisions ({})", describe(r)),
        Axis::linear("collisions of the frame so far, c"),
        Axis::log("mean backoff (slots, log scale)"),
    )
    .legend_at(LegendAt::LowerRight)
    .series(
        Series::new(
            &format!("{name} measured (95% CI)"),
            rows.iter()
                .map(|b| (f64::from(b.collisions), b.mean_slots))
                .collect(),
        )
        .error_bars(
            rows.iter()
                .map(|b| {
                    let h = 1.96 * b.std_error;
                    (b.mean_slots - h, b.mean_slots + h)
                })
                .collect(),
        )
        .colour(1),
    )
    .series(
        Series::new(
            if r.config.backoff == csma_cd::config::BackoffAlgorithm::Beb {
                "E(c) = (2^min(c,10) − 1)/2"
            } else {
                "expected (window − 1)/2"
            },
            r.backoff
                .iter()
                .filter(|b| b.collisions < r.config.attempt_limit)
                .map(|b| (f64::from(b.collisions), b.expected_slots))
                .collect(),
        )
        .dashed()
        .colour(0),
    )
}
