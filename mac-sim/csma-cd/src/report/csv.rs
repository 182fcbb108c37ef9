//! CSV output: one header line and one line per run, so replications and sweeps can be
//! concatenated; with per-station results, one line per station
//! ([`per_station_rows`]).

use std::fmt::Write as _;

use crate::exact::per_station::StationResult;
use crate::exact::results::RunResult;
use crate::slotted::SlottedResult;

/// The header of [`run_row`].
pub const RUN_HEADER: &str = "stations,placement,bus_m,bit_rate,frame_mean_bits,traffic,load,backoff,seed,simulated_s,events,generated,delivered,dropped_excessive,dropped_overflow,in_system,throughput_mbps,utilisation,goodput_mbps,mb_efficiency,attempts,collided_attempts,collision_events,collisions_per_attempt,mean_attempts,access_mean_us,access_p50_us,access_p95_us,access_p99_us,access_max_us,total_mean_us,total_p50_us,total_p95_us,total_p99_us,total_max_us,jain_index,capture_longest_run,capture_max_window_share,warmup_s";

/// One CSV line (no newline) for a run of the exact model.
pub fn run_row(r: &RunResult) -> String {
    let c = &r.config;
    let (traffic, load) = match c.traffic {
        crate::config::Traffic::Saturated => ("saturated", String::new()),
        crate::config::Traffic::Poisson { load } => ("poisson", load.to_string()),
    };
    let backoff = match c.backoff {
        crate::config::BackoffAlgorithm::Beb => format!("beb{}", c.backoff_limit),
        crate::config::BackoffAlgorithm::Fixed { window } => format!("fixed{window}"),
        crate::config::BackoffAlgorithm::Polynomial { degree } => format!("poly{degree}"),
    };
    let placement = match c.placement {
        crate::config::Placement::Point => "point",
        crate::config::Placement::Even => "even",
        crate::config::Placement::Random => "random",
    };
    let a = &r.access_delay;
    let t = &r.total_delay;
    let k = &r.conservation;
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{},{},{},{:.6},{:.6},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.6},{},{:.6},{}",
        c.stations,
        placement,
        c.bus_length_m,
        c.phy.bit_rate,
        c.frames.mean_bits(),
        traffic,
        load,
        backoff,
        c.seed,
        r.simulated_s,
        r.events,
        k.generated,
        k.delivered,
        k.dropped_excessive,
        k.dropped_overflow,
        k.in_system,
        r.throughput_mbps,
        r.utilisation,
        r.goodput_mbps,
        r.metcalfe_boggs_efficiency,
        r.attempts,
        r.collided_attempts,
        r.collision_events,
        r.collisions_per_attempt,
        r.mean_attempts,
        a.mean_us,
        a.p50_us,
        a.p95_us,
        a.p99_us,
        a.max_us,
        t.mean_us,
        t.p50_us,
        t.p95_us,
        t.p99_us,
        t.max_us,
        r.jain_index,
        r.capture.longest_run,
        r.capture.max_window_share,
        c.warmup_ps.as_secs_f64()
    )
}

/// The header of [`slotted_row`].
pub const SLOTTED_HEADER: &str = "stations,frame_bits,slot_bits,seed,successes,idle_slots,collision_slots,efficiency,predicted_efficiency,acquisition,predicted_acquisition,wait_slots,collision_rate,jain_index";

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

/// The station columns of [`per_station_rows`], after the run's.
pub const STATION_COLUMNS: &str = "station,station_throughput_mbps,station_delivered,station_dropped,station_collisions,station_access_mean_us,station_access_p99_us";

/// The CSV of a run with per-station results (`--csv --per-station`): one tidy table,
/// a header of [`RUN_HEADER`] and [`STATION_COLUMNS`], then one line per station
/// (in order, `0..N` along the bus) that repeats the run's columns before its own,
/// so that one `read_csv` gives every station with its run's parameters, and the
/// tables of several runs concatenate. Ends with a newline.
pub fn per_station_rows(r: &RunResult, stations: &[StationResult]) -> String {
    let run = run_row(r);
    let mut s = format!("{RUN_HEADER},{STATION_COLUMNS}\n");
    for st in stations {
        let _ = writeln!(
            s,
            "{run},{},{:.6},{},{},{},{:.3},{:.3}",
            st.station,
            st.throughput_mbps,
            st.delivered,
            st.dropped,
            st.collisions,
            st.access_delay_mean_us,
            st.access_delay_p99_us
        );
    }
    s
}
