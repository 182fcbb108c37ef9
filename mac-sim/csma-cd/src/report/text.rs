//! The human-readable report.

use std::fmt::Write as _;

use crate::config::{BackoffAlgorithm, FrameSizes, IfgRule, JamRule, Placement, Traffic};
use crate::exact::per_station::StationResult;
use crate::exact::results::RunResult;
use crate::slotted::SlottedResult;
use crate::theory;

fn frames(f: &FrameSizes) -> String {
    match f {
        FrameSizes::Fixed(b) => format!("{b} bytes"),
        FrameSizes::Uniform { min, max } => format!("uniform {min}..{max} bytes"),
        FrameSizes::Mix(v) => {
            let parts: Vec<String> = v.iter().map(|(b, w)| format!("{b}:{w}")).collect();
            format!("mix {} (bytes:weight)", parts.join(","))
        }
    }
}

fn rate(bps: u64) -> String {
    if bps % 1_000_000_000 == 0 {
        format!("{} Gb/s", bps / 1_000_000_000)
    } else if bps % 1_000_000 == 0 {
        format!("{} Mb/s", bps / 1_000_000)
    } else {
        format!("{bps} b/s")
    }
}

/// The report of a run of the exact model.
pub fn run_report(r: &RunResult) -> String {
    let c = &r.config;
    let mut s = String::new();
    let placement = match c.placement {
        Placement::Point => "all at one point".to_string(),
        Placement::Even => format!("evenly over {} m", c.bus_length_m),
        Placement::Random => format!("at random over {} m", c.bus_length_m),
    };
    let traffic = match c.traffic {
        Traffic::Saturated => "saturated (always a frame ready)".to_string(),
        Traffic::Poisson { load } => format!(
            "Poisson, offered load G = {load} of the bit rate, queue {} frames/station",
            c.queue_limit
        ),
    };
    let backoff = match c.backoff {
        BackoffAlgorithm::Beb => format!(
            "truncated BEB (backoff limit {}, attempt limit {})",
            c.backoff_limit, c.attempt_limit
        ),
        BackoffAlgorithm::Fixed { window } => format!(
            "fixed window of {window} slots (attempt limit {})",
            c.attempt_limit
        ),
        BackoffAlgorithm::Polynomial { degree } => format!(
            "polynomial, window c^{degree}+1 slots up to 2^{} (attempt limit {})",
            c.backoff_limit, c.attempt_limit
        ),
    };
    let _ = writeln!(
        s,
        "mac-sim: CSMA/CD on a shared {} bus",
        rate(c.phy.bit_rate)
    );
    let _ = writeln!(s, "  stations        {} placed {}", c.stations, placement);
    let _ = writeln!(s, "  frames          {}", frames(&c.frames));
    let _ = writeln!(s, "  traffic         {traffic}");
    let _ = writeln!(s, "  backoff         {backoff}");
    let _ = writeln!(
        s,
        "  timing          slot {} bits, preamble+SFD {} bits, gap {} bits, jam {} bits, signal {} m/s",
        c.phy.slot_bits,
        c.phy.preamble_bits,
        c.phy.ifg_bits,
        c.phy.jam_bits,
        c.phy.velocity_m_per_s
    );
    let _ = writeln!(
        s,
        "  deference       {}; {}",
        match c.ifg_rule {
            IfgRule::Ieee8023 => "IEEE 802.3 gap, 64 + 32 bits (4.2.3.2.1)",
            IfgRule::Restart => "restarting gap (--ifg-rule restart)",
            IfgRule::None => "gap without first part (--ifg-rule none)",
        },
        match c.jam_rule {
            JamRule::Preamble => "jam after preamble+SFD (4.2.3.2.4)",
            JamRule::Immediate => "jam at once (--jam-rule immediate)",
        }
    );
    if let Some(m) = c.medium {
        let p = m.params();
        let _ = writeln!(
            s,
            "  medium          {m} preset: bus up to {} m ({})",
            p.max_length_m, p.clauses
        );
    }
    if c.phy.carrier_extension || c.phy.burst_limit_bits > 0 {
        let extension = if c.phy.carrier_extension {
            "carrier extension to the slot (4.2.3.4)"
        } else {
            "no carrier extension"
        };
        let bursting = if c.phy.burst_limit_bits > 0 {
            format!(
                "frame bursting, burstLimit {} bits (4.2.3.2.7)",
                c.phy.burst_limit_bits
            )
        } else {
            "no frame bursting".to_string()
        };
        let _ = writeln!(s, "  extension       {extension}; {bursting}");
    }
    let _ = writeln!(
        s,
        "  simulated       {} s, seed {}, {} events",
        r.simulated_s, c.seed, r.events
    );
    if !c.warmup.is_zero() {
        let _ = writeln!(
            s,
            "  warm-up         {} s before them, not measured",
            c.warmup.as_secs_f64()
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "Throughput");
    let _ = writeln!(
        s,
        "  throughput      {:>10.3} Mb/s (frame bits delivered)",
        r.throughput_mbps
    );
    let _ = writeln!(
        s,
        "  goodput         {:>10.3} Mb/s (payload: frame minus 18 header/FCS bytes)",
        r.goodput_mbps
    );
    let _ = writeln!(
        s,
        "  utilisation     {:>10.4}  (measured efficiency)",
        r.utilisation
    );
    let _ = writeln!(
        s,
        "  Metcalfe-Boggs  {:>10.4}  (predicted for Q = {} saturated stations, P = {:.0} bits, C = {} bits)",
        r.metcalfe_boggs_efficiency,
        c.stations,
        c.frames.mean_bits(),
        c.phy.slot_bits
    );
    let _ = writeln!(s);
    let k = &r.conservation;
    let _ = writeln!(s, "Frames");
    let _ = writeln!(s, "  generated       {:>10}", k.generated);
    let _ = writeln!(s, "  delivered       {:>10}", k.delivered);
    let _ = writeln!(
        s,
        "  dropped         {:>10}  after {} attempts",
        k.dropped_excessive, c.attempt_limit
    );
    let _ = writeln!(s, "  queue overflow  {:>10}", k.dropped_overflow);
    let _ = writeln!(s, "  still queued    {:>10}", k.in_system);
    let _ = writeln!(
        s,
        "  conservation    {}  (generated = delivered + dropped + overflow + queued)",
        if k.holds { "holds" } else { "VIOLATED" }
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "Collisions");
    let _ = writeln!(s, "  attempts        {:>10}", r.attempts);
    let _ = writeln!(
        s,
        "  collided        {:>10}  ({} per attempt)",
        r.collided_attempts,
        fixed(r.collisions_per_attempt, 4)
    );
    let _ = writeln!(
        s,
        "  collision events{:>10}  (busy periods with a collision)",
        r.collision_events
    );
    let _ = writeln!(
        s,
        "  attempts/frame  {:>10}  (mean, delivered frames)",
        fixed(r.mean_attempts, 3)
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "Attempts per delivered frame");
    let total: u64 = r.attempts_histogram.iter().sum();
    let last = r
        .attempts_histogram
        .iter()
        .rposition(|&n| n > 0)
        .unwrap_or(0);
    for (i, &n) in r.attempts_histogram.iter().enumerate().take(last + 1) {
        let share = if total == 0 {
            0.0
        } else {
            n as f64 / total as f64
        };
        let bar = "#".repeat((share * 40.0).round() as usize);
        let _ = writeln!(
            s,
            "  {:>4}  {:>10}  {:>7.3}%  {}",
            i + 1,
            n,
            share * 100.0,
            bar
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Delay (microseconds)        mean        p50        p95        p99        max"
    );
    for (name, d) in [
        ("access (head of queue)", &r.access_delay),
        ("total (arrival)", &r.total_delay),
    ] {
        let _ = writeln!(
            s,
            "  {:<22} {:>10} {:>10} {:>10} {:>10} {:>10}",
            name,
            fixed(d.mean_us, 1),
            fixed(d.p50_us, 1),
            fixed(d.p95_us, 1),
            fixed(d.p99_us, 1),
            fixed(d.max_us, 1)
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "Backoff after c collisions (slots)");
    let _ = writeln!(s, "     c       draws    measured   std.err    expected");
    for row in &r.backoff {
        if row.draws == 0 {
            let why = if row.collisions >= c.attempt_limit {
                "(frame dropped: no backoff)"
            } else {
                "(no draws)"
            };
            let _ = writeln!(
                s,
                "  {:>4}  {:>10}  {:>10}  {:>8}  {:>10.1}  {}",
                row.collisions, 0, "-", "-", row.expected_slots, why
            );
            continue;
        }
        let _ = writeln!(
            s,
            "  {:>4}  {:>10}  {:>10.3}  {:>8.3}  {:>10.1}",
            row.collisions, row.draws, row.mean_slots, row.std_error, row.expected_slots
        );
    }
    let _ = writeln!(s);
    let cap = &r.capture;
    let _ = writeln!(s, "Fairness");
    if r.jain_index.is_nan() {
        let _ = writeln!(
            s,
            "  Jain's index    {:>10}  (undefined: no station delivered a frame)",
            "-"
        );
    } else {
        let _ = writeln!(
            s,
            "  Jain's index    {:>10.4}  (1 = equal per-station throughput)",
            r.jain_index
        );
    }
    if cap.window == 0 {
        let _ = writeln!(s, "  capture         - (no success)");
    } else {
        let _ = writeln!(
            s,
            "  capture         longest run {} successes by station {}; largest share {:.1}% by station {} in a window of {} successes",
            cap.longest_run,
            cap.longest_run_station,
            cap.max_window_share * 100.0,
            cap.max_window_station,
            cap.window
        );
    }
    s
}

/// The report of a slotted run.
pub fn slotted_report(r: &SlottedResult) -> String {
    let c = &r.config;
    let mut s = String::new();
    let _ = writeln!(s, "mac-sim slotted: Metcalfe & Boggs contention model");
    let _ = writeln!(
        s,
        "  Q = {} stations, P = {} bit times/frame, C = {} bit times/slot, seed {}",
        c.stations, c.frame_bits, c.slot_bits, c.seed
    );
    let _ = writeln!(
        s,
        "  slots: {} acquired, {} idle, {} collided ({} events)",
        r.successes, r.idle_slots, r.collision_slots, r.events
    );
    let _ = writeln!(s, "                  measured   predicted");
    let _ = writeln!(
        s,
        "  efficiency      {:>9.5}   {:>9.5}",
        r.efficiency, r.predicted_efficiency
    );
    let _ = writeln!(
        s,
        "  acquisition A   {:>9.5}   {:>9.5}",
        r.acquisition, r.predicted_acquisition
    );
    let _ = writeln!(
        s,
        "  wasted slots W  {:>9.5}   {:>9.5}",
        r.wait_slots,
        theory::mb_wait_slots(u64::from(c.stations))
    );
    let _ = writeln!(
        s,
        "  collision rate  {:>9.5}   (collision slots per contention slot)",
        r.collision_rate
    );
    let _ = writeln!(s, "  Jain's index    {:>9.5}", r.jain_index);
    s
}

/// The analytic tables of `mac-sim theory`.
pub fn theory_report(slot_bits: u32, beb: &backoff_core::BebConfig) -> String {
    let mut s = String::new();
    let sizes = [64u32, 128, 256, 512, 1024, 1518];
    let _ = writeln!(
        s,
        "Metcalfe & Boggs efficiency P/(P + W*C), C = {slot_bits} bit times, P = frame bytes x 8"
    );
    let _ = write!(s, "  {:>6} {:>8} {:>8}", "Q", "A", "W");
    for b in sizes {
        let _ = write!(s, " {:>7}B", b);
    }
    let _ = writeln!(s);
    for q in [1u64, 2, 3, 4, 5, 8, 10, 16, 32, 64, 128, 256, 1024] {
        let _ = write!(
            s,
            "  {:>6} {:>8.5} {:>8.5}",
            q,
            theory::mb_acquisition(q),
            theory::mb_wait_slots(q)
        );
        for b in sizes {
            let _ = write!(
                s,
                " {:>8.4}",
                theory::mb_efficiency(q, f64::from(b) * 8.0, f64::from(slot_bits))
            );
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(
        s,
        "  (as Q grows, A -> 1/e = 0.36788 and W -> e - 1 = 1.71828)"
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Mean BEB backoff after c collisions: E(c) = (2^min(c,{}) - 1)/2 slots",
        beb.backoff_limit()
    );
    let _ = writeln!(
        s,
        "  {:>4} {:>8} {:>12} {:>12}",
        "c", "window", "E(c) slots", "s.d. slots"
    );
    for c in 1..beb.attempt_limit().max(2) {
        let _ = writeln!(
            s,
            "  {:>4} {:>8} {:>12.1} {:>12.2}",
            c,
            beb.window(c),
            theory::beb_expected_backoff(beb, c),
            theory::beb_backoff_sd(beb, c)
        );
        if c >= 64 {
            break;
        }
    }
    let _ = writeln!(
        s,
        "  worst-case total backoff before discard: {} slots; frame dropped after {} attempts",
        backoff_core::theory::worst_case_total_backoff(beb).floor(),
        beb.attempt_limit()
    );
    s
}

/// The most stations [`per_station_table`] lists; `--json` and `--csv` have them all.
pub const TEXT_STATION_ROWS: usize = 64;

/// The per-station table of `mac-sim run --per-station`: the first
/// `TEXT_STATION_ROWS` stations, numbered `0..N` along the bus.
pub fn per_station_table(rows: &[StationResult]) -> String {
    let mut s = String::new();
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Per station (numbered 0..{} along the bus)",
        rows.len().saturating_sub(1)
    );
    let _ = writeln!(
        s,
        "  {:>7} {:>10} {:>10} {:>10} {:>10} {:>12} {:>12}",
        "station", "Mb/s", "delivered", "dropped", "collided", "access mean", "access p99"
    );
    for r in rows.iter().take(TEXT_STATION_ROWS) {
        let _ = writeln!(
            s,
            "  {:>7} {:>10.3} {:>10} {:>10} {:>10} {:>10}us {:>10}us",
            r.station,
            r.throughput_mbps,
            r.delivered,
            r.dropped,
            r.collisions,
            fixed(r.access_delay_mean_us, 1),
            fixed(r.access_delay_p99_us, 1)
        );
    }
    if rows.len() > TEXT_STATION_ROWS {
        let _ = writeln!(
            s,
            "  ... the first {TEXT_STATION_ROWS} of {} stations; --json or --csv list them all",
            rows.len()
        );
    }
    s
}

/// `v` with `decimals` decimals, or `-` when it is undefined (NaN: a delay of no
/// frame).
fn fixed(v: f64, decimals: usize) -> String {
    if v.is_nan() {
        "-".to_string()
    } else {
        format!("{v:.decimals$}")
    }
}
