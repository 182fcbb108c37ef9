//! The text report: what was run, the summary, drops, delays, the channel's counts,
//! and with `per_station` a table of every station.

use std::fmt::Write as _;

use crate::metrics::RadioResult;
use crate::sweep::PointResult;

/// `x` with `prec` decimals, or `-` when undefined (NaN).
fn fixed(x: f64, prec: usize) -> String {
    if x.is_finite() {
        format!("{x:.prec$}")
    } else {
        "-".to_string()
    }
}

/// The report of one run.
pub fn report(r: &RadioResult, per_station: bool) -> String {
    let c = &r.config;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "radio: {} stations, phy {}, topology {}, {} traffic{}, to {}, {} B payload, rule {}",
        c.stations,
        phy_text(c),
        c.topology.name(),
        c.traffic.name(),
        if c.traffic == crate::Traffic::Poisson {
            format!(" at load {}", c.load)
        } else {
            String::new()
        },
        c.to.name(),
        c.payload,
        c.rule.rule.name(),
    );
    let _ = writeln!(
        o,
        "  {} senders, {} links, loss {}, capture {}, seed {}, measured {} s after {} s",
        r.senders,
        r.links,
        c.loss,
        c.capture()
            .map_or_else(|| "off".to_string(), |d| format!("{d} dB")),
        c.seed,
        c.duration.as_secs_f64(),
        c.warmup.as_secs_f64(),
    );
    let _ = writeln!(o);
    let rows: [(&str, String); 9] = [
        ("offered frames", r.offered.to_string()),
        ("delivered frames", r.delivered.to_string()),
        ("delivery ratio", fixed(r.delivery_ratio, 4)),
        ("throughput S", format!("{:.4}", r.throughput)),
        ("goodput", format!("{:.2} kb/s", r.goodput_kbps)),
        ("attempts per frame", fixed(r.attempts_per_frame, 4)),
        (
            "collision probability",
            format!(
                "{} ({} of {} data transmissions)",
                fixed(r.collision_probability, 4),
                r.overlapped_transmissions,
                r.data_transmissions
            ),
        ),
        (
            "drops",
            format!(
                "{} (no ACK {}, channel busy {}, radio error {}, queue {})",
                r.drops.total(),
                r.drops.no_ack,
                r.drops.channel_busy,
                r.drops.radio_error,
                r.drops.queue
            ),
        ),
        (
            "delay (us)",
            format!(
                "p50 {}, p90 {}, p99 {}, max {}, mean {}",
                fixed(r.delay.p50_us, 0),
                fixed(r.delay.p90_us, 0),
                fixed(r.delay.p99_us, 0),
                fixed(r.delay.max_us, 0),
                fixed(r.delay.mean_us, 0)
            ),
        ),
    ];
    for (k, v) in rows {
        let _ = writeln!(o, "  {k:<22} {v}");
    }
    let ch = &r.channel;
    let _ = writeln!(
        o,
        "  {:<22} {} transmissions; arrivals: {} intact, {} collided, {} captured, {} half duplex, {} lost",
        "channel",
        ch.transmissions,
        ch.intact,
        ch.collisions,
        ch.captures,
        ch.half_duplex_losses,
        ch.random_losses
    );
    let _ = writeln!(
        o,
        "  {:<22} {} duplicates suppressed, {} frames not received exactly once",
        "receivers", r.duplicates_suppressed, r.exactly_once_violations
    );
    let _ = writeln!(
        o,
        "  {:<22} {} ({} stale deadlines)",
        "events", r.events, r.stale_events
    );
    if per_station {
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "  {:>7} {:>10} {:>9} {:>10} {:>9} {:>8} {:>14}",
            "station", "neighbours", "offered", "delivered", "attempts", "dropped", "mean delay us"
        );
        for s in &r.per_station {
            let _ = writeln!(
                o,
                "  {:>7} {:>10} {:>9} {:>10} {:>9} {:>8} {:>14}",
                s.station,
                s.neighbours,
                s.offered,
                s.delivered,
                s.attempts,
                s.dropped,
                fixed(s.mean_delay_us, 0)
            );
        }
    }
    o
}

/// A sweep: one line per point with its values and the main figures.
pub fn sweep(keys: &[String], points: &[PointResult]) -> String {
    let mut o = String::new();
    let mut head: Vec<String> = keys.to_vec();
    for h in [
        "S",
        "delivery",
        "att/frame",
        "p_coll",
        "p50 us",
        "p99 us",
        "drops",
    ] {
        head.push(h.to_string());
    }
    let rows: Vec<Vec<String>> = points
        .iter()
        .map(|p| {
            let r = &p.result;
            let mut row: Vec<String> = p.values.iter().map(|(_, v)| v.clone()).collect();
            row.extend([
                format!("{:.4}", r.throughput),
                fixed(r.delivery_ratio, 4),
                fixed(r.attempts_per_frame, 3),
                fixed(r.collision_probability, 4),
                fixed(r.delay.p50_us, 0),
                fixed(r.delay.p99_us, 0),
                r.drops.total().to_string(),
            ]);
            row
        })
        .collect();
    let widths: Vec<usize> = (0..head.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].len())
                .chain([head[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect();
        format!("  {}\n", parts.join("  "))
    };
    o.push_str(&format!("radio sweep: {} points\n", points.len()));
    o.push_str(&line(&head));
    for r in &rows {
        o.push_str(&line(r));
    }
    o
}

/// The PHY as the first line names it: `ieee802154-2450`, or `lora SF7/125 kHz/4/5`
/// with the duty cycle when one is kept.
fn phy_text(c: &crate::RadioConfig) -> String {
    let mut t = c.phy.name().to_string();
    if c.phy == crate::Phy::Lora {
        t.push_str(&format!(
            " SF{}/{} kHz/{}",
            c.spreading_factor,
            crate::config::bandwidth_name(c.bandwidth),
            crate::config::coding_rate_name(c.coding_rate)
        ));
    }
    if let Some(pct) = c.duty_cycle_pct {
        t.push_str(&format!(", duty cycle {pct} %"));
    }
    t
}
