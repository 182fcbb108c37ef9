//! The performance measurement behind `mac-sim bench`: events per wall-clock second of
//! the exact model for growing N, beside the textbook slot-by-slot loop, with the
//! process's peak memory.
//!
//! Each measurement runs the model in steps of simulated time until a wall-clock
//! budget is spent, so every N gets a comparable amount of work however slow or fast
//! it is. Wall-clock figures naturally differ between machines and runs; event counts
//! do not.
//!
//! Two modes:
//!
//! * **from t = 0** ([`bench_one`]): the budget starts with the model. With many
//!   saturated stations this measures the start-up transient, in which all N stations
//!   transmit at t = 0 and every one of them acts in the first slots.
//! * **steady state after W ms warm-up** ([`bench_steady`], saturated only): both the
//!   event model and the textbook loop first run to the simulated time W (not timed),
//!   then the budget measures the interval that follows, once the stations' attempt
//!   counters have spread.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use csma_cd::config::{RunConfig, Traffic};
use csma_cd::error::ConfigError;
use csma_cd::exact::CsmaCd;
use csma_cd::textbook::Textbook;
use sim_kit::engine::Engine;
use sim_kit::time::Time;

/// One row of the benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchRow {
    /// `start` (measured from t = 0) or `steady` (measured after `warmup_ms` of
    /// simulated time).
    #[serde(default = "start_mode")]
    pub mode: String,
    /// Simulated warm-up before the measurement, milliseconds; 0 in `start` mode.
    #[serde(default)]
    pub warmup_ms: f64,
    /// Wall time the event model took for the warm-up, seconds; 0 in `start` mode.
    #[serde(default)]
    pub warmup_wall_s: f64,
    /// `saturated`, or `poisson` at the offered load `load`.
    pub traffic: String,
    /// Offered load (Poisson), fraction of the bit rate; 0 when saturated.
    pub load: f64,
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
    /// Events per simulated 512-bit slot (51.2 µs) in the measured interval.
    #[serde(default)]
    pub events_per_slot: f64,
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
    /// Peak resident memory (VmHWM) of the process that measured this N, MiB; 0 if
    /// unknown.
    pub peak_rss_mib: f64,
}

fn start_mode() -> String {
    "start".to_string()
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

/// Measure N stations (the default run's other parameters; saturated, or Poisson at
/// total offered load `load`) for about `budget_s` wall seconds each for the event
/// model and the textbook loop.
///
/// # Errors
///
/// [`ConfigError`] if the configuration for `stations` is invalid.
pub fn bench_one(
    stations: u32,
    load: Option<f64>,
    budget_s: f64,
    seed: u64,
) -> Result<BenchRow, ConfigError> {
    measure(stations, load, 0, budget_s, seed)
}

/// Measure N saturated stations in steady state: run the event model and the textbook
/// loop to the simulated time `warmup_ms` (not timed, beyond the event model's
/// warm-up wall time, which is reported), then measure each for about `budget_s` wall
/// seconds from there.
///
/// # Errors
///
/// [`ConfigError`] if the configuration for `stations` is invalid.
pub fn bench_steady(
    stations: u32,
    warmup_ms: u64,
    budget_s: f64,
    seed: u64,
) -> Result<BenchRow, ConfigError> {
    measure(stations, None, warmup_ms, budget_s, seed)
}

/// Run the engine in steps of simulated time from `from` until `budget_s` wall seconds
/// are spent or `end` is reached; the simulated time reached.
fn drive(engine: &mut Engine<CsmaCd>, from: Time, end: Time, budget_s: f64) -> Time {
    let start = Instant::now();
    // Steps adapted so that each takes between 1/200 and 1/20 of the budget: short
    // enough not to overshoot it, long enough that the clock reading between steps
    // costs nothing.
    let mut step = Time::from_us(1);
    let mut sim = from;
    while start.elapsed().as_secs_f64() < budget_s && sim < end {
        let t0 = Instant::now();
        sim = (sim + step).min(end);
        engine.run_until(sim);
        let dt = t0.elapsed().as_secs_f64();
        if dt < budget_s / 200.0 {
            step = step.saturating_mul(2);
        } else if dt > budget_s / 20.0 {
            step = (step / 2).max(Time::from_us(1));
        }
    }
    sim
}

fn measure(
    stations: u32,
    load: Option<f64>,
    warmup_ms: u64,
    budget_s: f64,
    seed: u64,
) -> Result<BenchRow, ConfigError> {
    let cfg = RunConfig {
        stations,
        seed,
        traffic: load.map_or(Traffic::Saturated, |load| Traffic::Poisson { load }),
        duration: Time::from_secs(100_000),
        ..RunConfig::default()
    };
    let slot_s = 512.0 / cfg.phy.bit_rate as f64;
    let warmup = Time::from_ms(warmup_ms);
    let t0 = Instant::now();
    let (model, queue) = CsmaCd::new(&cfg)?;
    let mut engine = Engine::with_queue(model, queue);
    let setup_s = t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    if !warmup.is_zero() {
        engine.run_until(warmup);
    }
    let warmup_wall_s = t0.elapsed().as_secs_f64();
    let (events0, delivered0) = (engine.events(), engine.model().delivered());
    let start = Instant::now();
    let sim = drive(&mut engine, warmup, cfg.duration, budget_s);
    let wall_s = start.elapsed().as_secs_f64();
    let delivered = engine.model().delivered() - delivered0;
    let events = engine.events() - events0;
    let simulated_s = (sim - warmup).as_secs_f64();
    let utilisation = delivered as f64 * 1518.0 * 8.0 / (cfg.phy.bit_rate as f64 * simulated_s);
    drop(engine);

    // The textbook loop, same N, frames, traffic and seed, the same warm-up, then in
    // pieces of slots.
    let mut tb = Textbook::new(stations, 1518, load, seed);
    let warmup_slots = (warmup.as_secs_f64() / slot_s).round() as u64;
    tb.run(warmup_slots);
    let tb0 = tb.result();
    let start = Instant::now();
    let chunk = (10_000_000 / u64::from(stations)).max(1);
    while start.elapsed().as_secs_f64() < budget_s {
        tb.run(chunk);
    }
    let tb_wall = start.elapsed().as_secs_f64();
    let tbr = tb.result();
    let slots = tbr.slots - tb0.slots;
    let tb_delivered = tbr.delivered - tb0.delivered;
    let visits = tbr.station_visits - tb0.station_visits;
    let tb_sim_per_s = slots as f64 * slot_s / tb_wall;
    let sim_s_per_s = simulated_s / wall_s;
    Ok(BenchRow {
        mode: if warmup_ms > 0 { "steady" } else { "start" }.to_string(),
        warmup_ms: warmup_ms as f64,
        warmup_wall_s: if warmup_ms > 0 { warmup_wall_s } else { 0.0 },
        traffic: if load.is_some() {
            "poisson"
        } else {
            "saturated"
        }
        .to_string(),
        load: load.unwrap_or(0.0),
        stations,
        setup_s,
        wall_s,
        simulated_s,
        events,
        events_per_s: events as f64 / wall_s,
        frames_per_s: delivered as f64 / wall_s,
        sim_s_per_s,
        events_per_slot: events as f64 / (simulated_s / slot_s),
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
        "mac-sim bench: 1518-byte frames, 10 Mb/s, 2500 m bus, BEB, one core"
    );
    let _ = writeln!(
        s,
        "{:>12} {:>9} {:>8} {:>12} {:>10} {:>10} {:>10} {:>6} | {:>10} {:>10} {:>9} | {:>8}",
        "traffic",
        "stations",
        "setup s",
        "events",
        "events/s",
        "frames/s",
        "sim s/s",
        "util",
        "loop s/s",
        "frames/s",
        "speedup",
        "peak MiB"
    );
    for r in rows.iter().filter(|r| r.mode != "steady") {
        let traffic = if r.traffic == "poisson" {
            format!("poisson {}", r.load)
        } else {
            r.traffic.clone()
        };
        let _ = writeln!(
            s,
            "{:>12} {:>9} {:>8.3} {:>12} {:>10.3e} {:>10.3e} {:>10.3e} {:>6.3} | {:>10.3e} {:>10.3e} {:>9.3} | {:>8.1}",
            traffic,
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
        "events/s: attempts, transmission ends and arrivals handled per wall second. sim s/s: simulated seconds per wall second."
    );
    let _ = writeln!(
        s,
        "loop: the textbook slot-by-slot loop over every station (51.2 us slots); speedup = event model sim s/s / loop sim s/s."
    );
    let _ = writeln!(
        s,
        "peak MiB: peak resident memory (VmHWM) of the process that ran both rows of this N (one process per N)."
    );
    let steady: Vec<&BenchRow> = rows.iter().filter(|r| r.mode == "steady").collect();
    if !steady.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "steady state after W ms warm-up, saturated (rows above: measured from t = 0)"
        );
        let _ = writeln!(
            s,
            "{:>9} {:>6} {:>9} {:>12} {:>10} {:>10} {:>10} {:>10} | {:>10} {:>10} {:>9} | {:>8}",
            "stations",
            "W ms",
            "W wall s",
            "events",
            "events/s",
            "frames/s",
            "sim s/s",
            "ev/slot",
            "loop s/s",
            "frames/s",
            "speedup",
            "peak MiB"
        );
        for r in steady {
            let _ = writeln!(
                s,
                "{:>9} {:>6} {:>9.2} {:>12} {:>10.3e} {:>10.3e} {:>10.3e} {:>10.1} | {:>10.3e} {:>10.3e} {:>9.3} | {:>8.1}",
                r.stations,
                r.warmup_ms,
                r.warmup_wall_s,
                r.events,
                r.events_per_s,
                r.frames_per_s,
                r.sim_s_per_s,
                r.events_per_slot,
                r.textbook_sim_s_per_s,
                r.textbook_frames_per_s,
                r.speedup,
                r.peak_rss_mib
            );
        }
        let _ = writeln!(
            s,
            "W: both the event model and the loop first run to simulated time W (untimed; W wall s: the event model's warm-up wall time), then each is measured over the interval that follows."
        );
        let _ = writeln!(
            s,
            "ev/slot: events per simulated 51.2 us slot in that interval (the loop visits all N stations per slot)."
        );
    }
    s
}
