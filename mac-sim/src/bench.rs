//! The performance measurement behind `mac-sim bench`: events per wall-clock second of
//! the exact model for growing N, beside the textbook slot-by-slot loop, with the
//! process's peak memory.
//!
//! Each measurement runs the model in steps of simulated time until a wall-clock
//! budget is spent, so every N gets a comparable amount of work however slow or fast
//! it is. Wall-clock figures naturally differ between machines and runs; event counts
//! do not.

use std::time::Instant;

use serde::Serialize;

use crate::config::RunConfig;
use crate::engine::Engine;
use crate::error::ConfigError;
use crate::model::csma_cd::CsmaCd;
use crate::model::textbook::run_textbook;
use crate::time::{PS_PER_SEC, Time};

/// One row of the benchmark.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchRow {
    /// Stations.
    pub stations: u32,
    /// Wall time to build the model (allocate and seed N stations), seconds.
    pub setup_s: f64,
    /// Wall time of the measured run, seconds.
    pub wall_s: f64,
    /// Simulated time covered, seconds.
    pub simulated_s: f64,
    /// Events handled.
    pub events: u64,
    /// Events per wall-clock second.
    pub events_per_s: f64,
    /// Delivered frames per wall-clock second.
    pub frames_per_s: f64,
    /// Simulated seconds per wall-clock second.
    pub sim_s_per_s: f64,
    /// Utilisation reached (sanity check of the run).
    pub utilisation: f64,
    /// Textbook loop: simulated seconds per wall-clock second.
    pub textbook_sim_s_per_s: f64,
    /// Textbook loop: delivered frames per wall-clock second.
    pub textbook_frames_per_s: f64,
    /// Textbook loop: station-slot visits per wall-clock second.
    pub textbook_visits_per_s: f64,
    /// `sim_s_per_s / textbook_sim_s_per_s`.
    pub speedup: f64,
    /// Peak resident memory of the process so far (VmHWM), MiB; 0 if unknown.
    pub peak_rss_mib: f64,
}

/// Peak resident set size of this process in MiB, from `/proc/self/status` (Linux).
pub fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Measure N saturated stations (the default run's other parameters) for about
/// `budget_s` wall seconds each for the event model and the textbook loop.
pub fn bench_one(stations: u32, budget_s: f64, seed: u64) -> Result<BenchRow, ConfigError> {
    let cfg = RunConfig {
        stations,
        seed,
        duration_ps: 1000 * PS_PER_SEC,
        ..RunConfig::default()
    };
    let t0 = Instant::now();
    let (model, queue) = CsmaCd::new(&cfg)?;
    let mut engine = Engine::with_queue(model, queue);
    let setup_s = t0.elapsed().as_secs_f64();
    let start = Instant::now();
    let step: Time = PS_PER_SEC / 1000; // 1 ms of simulated time per step
    let mut sim: Time = 0;
    while start.elapsed().as_secs_f64() < budget_s && sim < cfg.duration_ps {
        sim += step;
        engine.run_until(sim);
    }
    let wall_s = start.elapsed().as_secs_f64();
    let m = engine.model();
    let delivered = m.delivered();
    let simulated_s = sim as f64 / PS_PER_SEC as f64;
    let utilisation = delivered as f64 * 1518.0 * 8.0 / (cfg.phy.bit_rate as f64 * simulated_s);
    let events = engine.events();
    drop(engine);

    // The textbook loop, same N, frames and seed, in chunks of slots.
    let start = Instant::now();
    let chunk = (10_000_000 / u64::from(stations)).max(1);
    let (mut slots, mut tb_delivered, mut visits) = (0u64, 0u64, 0u64);
    let mut round = 0;
    while start.elapsed().as_secs_f64() < budget_s {
        let r = run_textbook(stations, 1518, chunk, seed.wrapping_add(round));
        slots += r.slots;
        tb_delivered += r.delivered;
        visits += r.station_visits;
        round += 1;
    }
    let tb_wall = start.elapsed().as_secs_f64();
    let slot_s = 512.0 / cfg.phy.bit_rate as f64;
    let tb_sim_per_s = slots as f64 * slot_s / tb_wall;
    let sim_s_per_s = simulated_s / wall_s;
    Ok(BenchRow {
        stations,
        setup_s,
        wall_s,
        simulated_s,
        events,
        events_per_s: events as f64 / wall_s,
        frames_per_s: delivered as f64 / wall_s,
        sim_s_per_s,
        utilisation,
        textbook_sim_s_per_s: tb_sim_per_s,
        textbook_frames_per_s: tb_delivered as f64 / tb_wall,
        textbook_visits_per_s: visits as f64 / tb_wall,
        speedup: sim_s_per_s / tb_sim_per_s,
        peak_rss_mib: peak_rss_mib(),
    })
}

/// The benchmark table as text.
pub fn report(rows: &[BenchRow]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "mac-sim bench: saturated stations, 1518-byte frames, 10 Mb/s, 2500 m bus, BEB (one core)"
    );
    let _ = writeln!(
        s,
        "{:>9} {:>8} {:>12} {:>12} {:>11} {:>10} {:>6} | {:>11} {:>11} {:>9} | {:>9}",
        "stations",
        "setup s",
        "events",
        "events/s",
        "frames/s",
        "sim s/s",
        "util",
        "slot-loop",
        "frames/s",
        "speedup",
        "peak MiB"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:>9} {:>8.3} {:>12} {:>12.3e} {:>11.0} {:>10.3} {:>6.3} | {:>11.4} {:>11.0} {:>9.1} | {:>9.1}",
            r.stations,
            r.setup_s,
            r.events,
            r.events_per_s,
            r.frames_per_s,
            r.sim_s_per_s,
            r.utilisation,
            r.textbook_sim_s_per_s,
            r.textbook_frames_per_s,
            r.speedup,
            r.peak_rss_mib
        );
    }
    let _ = writeln!(
        s,
        "events/s: attempts, transmission ends and arrivals handled per wall second; sim s/s: simulated seconds per wall second;"
    );
    let _ = writeln!(
        s,
        "slot-loop: the textbook loop over all stations in every 51.2 us slot (simulated seconds per wall second); speedup = sim s/s ratio."
    );
    s
}
