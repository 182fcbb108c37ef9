//! `mac-sim run --per-station` and the capture chart of `--plot`: the stations'
//! figures add up to the run's in every output format, with and without a warm-up;
//! stations are numbered `0..N-1`; the capture timeline of two saturated stations
//! shows the capture effect and its PNG is whole.

use crate::common::{assert_args_fail, mac_sim, stderr, stdout};
use serde_json::Value;

fn run_json(args: &[&str]) -> Value {
    let o = mac_sim(&[&["run", "-q", "--per-station", "--json"], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// The stations' delivered, dropped and collided attempts sum to the run's totals,
/// and the stations are 0..N-1 in order.
fn check_sums(v: &Value, n: usize) {
    let st = v["stations"].as_array().expect("a stations array");
    assert_eq!(st.len(), n);
    for (i, s) in st.iter().enumerate() {
        assert_eq!(s["station"].as_u64(), Some(i as u64));
    }
    let sum = |k: &str| st.iter().map(|s| s[k].as_u64().unwrap()).sum::<u64>();
    assert_eq!(
        sum("delivered_frames"),
        v["conservation"]["delivered_frames"].as_u64().unwrap()
    );
    assert_eq!(
        sum("dropped_frames"),
        v["conservation"]["dropped_excessive_frames"]
            .as_u64()
            .unwrap()
    );
    assert_eq!(
        sum("collided_attempts"),
        v["collided_attempts"].as_u64().unwrap()
    );
    let tp: f64 = st
        .iter()
        .map(|s| s["throughput_mbps"].as_f64().unwrap())
        .sum();
    let total = v["throughput_mbps"].as_f64().unwrap();
    assert!((tp - total).abs() < 1e-9 * total, "{tp} vs {total}");
}

#[test]
fn json_station_sums_are_the_run_totals_with_and_without_warm_up() {
    // attemptLimit 3 so that frames are dropped.
    let args = [
        "-n",
        "9",
        "-l",
        "0.95",
        "-d",
        "300ms",
        "--attempt-limit",
        "3",
    ];
    let whole = run_json(&args);
    check_sums(&whole, 9);
    assert!(
        whole["conservation"]["dropped_excessive_frames"]
            .as_u64()
            .unwrap()
            > 0
    );
    let warm = run_json(&[&args[..], &["--warmup", "100ms"]].concat());
    check_sums(&warm, 9);
    assert!(
        warm["conservation"]["delivered_frames"].as_u64()
            < whole["conservation"]["delivered_frames"].as_u64()
    );
    // Without --per-station there is no "stations" key, as before.
    let o = mac_sim(&["run", "-q", "-n", "3", "-d", "10ms", "--json"]);
    let plain: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(plain.get("stations").is_none());
}

#[test]
fn a_per_station_json_result_reruns_as_a_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json");
    let o = mac_sim(&[
        "run",
        "-q",
        "-n",
        "3",
        "-d",
        "50ms",
        "--per-station",
        "--json",
    ]);
    std::fs::write(&path, &o.stdout).unwrap();
    let again = mac_sim(&[
        "run",
        "-q",
        "--per-station",
        "--json",
        "--scenario",
        path.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(again.stdout, o.stdout);
}

#[test]
fn csv_is_one_tidy_table_of_stations() {
    let o = mac_sim(&[
        "run",
        "-q",
        "-n",
        "5",
        "-l",
        "0.9",
        "-d",
        "200ms",
        "--warmup",
        "50ms",
        "--per-station",
        "--csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 5, "one line per station");
    assert!(rows.iter().all(|r| r.len() == header.len()));
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let num = |r: &Vec<&str>, name: &str| r[col(name)].parse::<f64>().unwrap();
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(num(r, "station"), i as f64);
        // The run's columns are repeated on every line.
        assert_eq!(r[..col("station")], rows[0][..col("station")]);
    }
    let sum = |name: &str| rows.iter().map(|r| num(r, name)).sum::<f64>();
    assert_eq!(
        sum("station_delivered_frames"),
        num(&rows[0], "delivered_frames")
    );
    assert_eq!(
        sum("station_dropped_frames"),
        num(&rows[0], "dropped_excessive_frames")
    );
    assert_eq!(
        sum("station_collided_attempts"),
        num(&rows[0], "collided_attempts")
    );
    assert_eq!(num(&rows[0], "warmup_s"), 0.05);
    // The run's part of the header is the one of a run without --per-station.
    let plain = stdout(&mac_sim(&["run", "-q", "-n", "2", "-d", "10ms", "--csv"]));
    assert!(text.starts_with(&format!("{},station,", plain.lines().next().unwrap())));
}

#[test]
fn text_report_lists_the_first_64_stations_from_0() {
    let o = mac_sim(&["run", "-q", "-n", "3", "-d", "50ms", "--per-station"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("Per station (numbered 0..2 along the bus)"),
        "{text}"
    );
    let first: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Per station"))
        .skip(2)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(first, ["0", "1", "2"]);

    let o = mac_sim(&[
        "run",
        "-q",
        "-n",
        "100",
        "-l",
        "0.5",
        "-d",
        "20ms",
        "--per-station",
    ]);
    let text = stdout(&o);
    let rows = text
        .lines()
        .skip_while(|l| !l.starts_with("Per station"))
        .skip(2)
        .take_while(|l| !l.contains("..."))
        .count();
    assert_eq!(rows, 64);
    assert!(text.contains("the first 64 of 100 stations"), "{text}");
}

#[test]
fn per_station_bad_inputs_fail_in_one_line() {
    assert_args_fail(
        &["run", "-n", "65537", "-d", "1ms", "--per-station"],
        "at most 65536 stations",
    );
    assert_args_fail(&["slotted", "--per-station"], "--per-station");
    assert_args_fail(&["sweep", "--per-station"], "--per-station");
}

/// Decode a PNG completely with an independent decoder: every chunk present and
/// intact (the decoder checks the CRCs and the image data's length).
fn decode_png(path: &std::path::Path) -> (u32, u32) {
    let file = std::fs::File::open(path).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("the whole image");
    reader.finish().expect("the PNG ends properly (IEND)");
    (info.width, info.height)
}

/// Two saturated stations capture the bus in turns: the chart is written whole,
/// and its note counts the windows (of 200) in which one station took over 90 % of
/// the successes. Without capture (each success station 0's with
/// probability 1/2, independently), a window of about 8 successes is that lopsided
/// with probability 2/2^8 ≈ 0.8 % (all 8 by one station), about 2 of 200 windows;
/// 100 or more cannot come from chance (the seed is fixed, so the run is
/// deterministic; it gives 190).
#[test]
fn capture_chart_of_two_stations_is_written_whole_and_shows_capture() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("charts");
    let scenario = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/capture-2-stations.toml"
    );
    let o = mac_sim(&[
        "run",
        "-q",
        "--scenario",
        scenario,
        "--plot",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (w, h) = decode_png(&out.join("capture_timeline.png"));
    assert!(w >= 640 && h >= 400, "{w}x{h}");
    let svg = std::fs::read_to_string(out.join("capture_timeline.svg")).unwrap();
    assert!(svg.trim_end().ends_with("</svg>"));
    let windows = svg
        .split("over 90% of the successes in ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse::<u32>().ok())
        .expect("the note counts the captured windows");
    assert!(windows >= 100, "{windows} of 200 windows captured");
    // Every chart of --plot is whole.
    for name in [
        "attempts_histogram",
        "per_station_throughput",
        "backoff_vs_expected",
    ] {
        decode_png(&out.join(format!("{name}.png")));
    }
}
