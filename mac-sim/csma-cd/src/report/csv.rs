//! CSV output: one header line and one line per run, so replications and sweeps can be
//! concatenated; with per-station results, one line per station
//! ([`per_station_rows`]). A run's columns state every parameter of the run, named
//! as the schema names them, and its results, named as a sweep names them.

use crate::exact::per_station::StationResult;
use crate::exact::results::RunResult;
use crate::scenario::Scenario;
use crate::slotted::SlottedResult;
use crate::table::{self, Cell, Row};

/// The columns of a run of the exact model: its parameters as the schema names
/// them ([`Scenario::columns`]), then its results, named as a sweep's results name
/// the same quantities (`utilisation_fraction`, `access_delay_mean_us`, ...).
pub fn run_columns(r: &RunResult) -> Row {
    let a = &r.access_delay;
    let t = &r.total_delay;
    let k = &r.conservation;
    let mut cols = Scenario::columns(&r.config);
    let int = |name: &str, v: u64| (name.to_string(), Cell::Int(v));
    let num = |name: &str, v: f64| (name.to_string(), Cell::Num(v));
    cols.extend([
        num("simulated_s", r.simulated_s),
        int("events", r.events),
        int("generated_frames", k.generated),
        int("delivered_frames", k.delivered),
        int("dropped_excessive_frames", k.dropped_excessive),
        int("dropped_overflow_frames", k.dropped_overflow),
        int("in_system_frames", k.in_system),
        num("throughput_mbps", r.throughput_mbps),
        num("utilisation_fraction", r.utilisation),
        num("goodput_mbps", r.goodput_mbps),
        num("mb_efficiency_fraction", r.metcalfe_boggs_efficiency),
        int("attempts", r.attempts),
        int("collided_attempts", r.collided_attempts),
        int("collision_events", r.collision_events),
        num("collision_rate_per_attempt", r.collisions_per_attempt),
        num("attempts_per_frame", r.mean_attempts),
        num("access_delay_mean_us", a.mean_us),
        num("access_delay_p50_us", a.p50_us),
        num("access_delay_p95_us", a.p95_us),
        num("access_delay_p99_us", a.p99_us),
        num("access_delay_max_us", a.max_us),
        num("total_delay_mean_us", t.mean_us),
        num("total_delay_p50_us", t.p50_us),
        num("total_delay_p95_us", t.p95_us),
        num("total_delay_p99_us", t.p99_us),
        num("total_delay_max_us", t.max_us),
        num("jain_fairness_index", r.jain_index),
        int("capture_longest_run_frames", r.capture.longest_run),
        num(
            "capture_max_window_share_fraction",
            r.capture.max_window_share,
        ),
    ]);
    Row(cols)
}

/// The CSV of a run of the exact model: the header and one line of
/// [`run_columns`], each ending with a newline.
pub fn run_csv(r: &RunResult) -> String {
    table::to_csv(&[run_columns(r)])
}

/// The header of [`slotted_row`].
pub const SLOTTED_HEADER: &str = "stations,frame_bits,slot_bits,seed,successes,idle_slots,collision_slots,efficiency,predicted_efficiency,acquisition,predicted_acquisition,wait_slots,collision_rate,jain_fairness_index";

/// One CSV line (no newline) for a slotted run.
pub fn slotted_row(r: &SlottedResult) -> String {
    let c = &r.config;
    format!(
        "{},{},{},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6}",
        c.stations,
        c.frame_bits,
        c.slot_bits,
        c.seed,
        r.successes,
        r.idle_slots,
        r.collision_slots,
        r.efficiency,
        r.predicted_efficiency,
        r.acquisition,
        r.predicted_acquisition,
        r.wait_slots,
        r.collision_rate,
        r.jain_index
    )
}

/// The CSV of a run with per-station results (`--csv --per-station`): one tidy table,
/// the run's columns ([`run_columns`]) then the station's (`station`,
/// `station_throughput_mbps`, `station_delivered_frames`, `station_dropped_frames`,
/// `station_collided_attempts`, `station_access_delay_mean_us`,
/// `station_access_delay_p99_us`), one line per station (in order, `0..N` along the
/// bus) that repeats the run's columns before its own, so that one `read_csv` gives
/// every station with its run's parameters, and the tables of several runs
/// concatenate. Ends with a newline.
pub fn per_station_rows(r: &RunResult, stations: &[StationResult]) -> String {
    let rows = per_station_table(r, stations);
    if rows.is_empty() {
        return format!("{}\n", run_columns(r).header());
    }
    table::to_csv(&rows)
}

/// The rows of [`per_station_rows`], one per station, for a door that builds its
/// own table from them (Python's DataFrame).
pub fn per_station_table(r: &RunResult, stations: &[StationResult]) -> Vec<Row> {
    let run = run_columns(r);
    stations
        .iter()
        .map(|st| {
            let mut cols = run.0.clone();
            cols.extend([
                ("station".to_string(), Cell::Int(u64::from(st.station))),
                (
                    "station_throughput_mbps".into(),
                    Cell::Num(st.throughput_mbps),
                ),
                ("station_delivered_frames".into(), Cell::Int(st.delivered)),
                ("station_dropped_frames".into(), Cell::Int(st.dropped)),
                ("station_collided_attempts".into(), Cell::Int(st.collisions)),
                (
                    "station_access_delay_mean_us".into(),
                    Cell::Num(st.access_delay_mean_us),
                ),
                (
                    "station_access_delay_p99_us".into(),
                    Cell::Num(st.access_delay_p99_us),
                ),
            ]);
            Row(cols)
        })
        .collect()
}
