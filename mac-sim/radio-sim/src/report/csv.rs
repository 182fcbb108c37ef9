//! CSV: one header and one row per run (a sweep: per point, its axes first). Numbers
//! are written in full; text values never hold a comma.

use crate::metrics::RadioResult;
use crate::sweep::PointResult;

/// The columns after a sweep's axes.
pub const COLUMNS: &[&str] = &[
    "stations",
    "topology",
    "radius_m",
    "area_m",
    "traffic",
    "load",
    "to",
    "payload",
    "loss",
    "capture_db",
    "rule",
    "rule_parameters",
    "warmup_s",
    "duration_s",
    "seed",
    "senders",
    "links",
    "offered",
    "delivered",
    "delivery_ratio",
    "attempts_per_frame",
    "collision_probability",
    "throughput",
    "goodput_kbps",
    "drops_no_ack",
    "drops_channel_busy",
    "drops_radio_error",
    "drops_queue",
    "delay_p50_us",
    "delay_p90_us",
    "delay_p99_us",
    "delay_max_us",
    "collisions",
    "captures",
    "half_duplex_losses",
    "random_losses",
    "events",
];

/// The header line (no newline), after the axes' keys.
pub fn header(axes: &[String]) -> String {
    let mut cols: Vec<&str> = axes.iter().map(String::as_str).collect();
    cols.extend_from_slice(COLUMNS);
    cols.join(",")
}

/// One row (no newline).
pub fn row(r: &RadioResult) -> String {
    let c = &r.config;
    let mut params: Vec<String> = c
        .rule
        .parameters()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    params.extend(
        c.rule
            .countdown
            .map(|d| format!("countdown={}", crate::config::countdown_name(d))),
    );
    let cells: Vec<String> = vec![
        c.stations.to_string(),
        c.topology.name().to_string(),
        c.radius_m.to_string(),
        c.area_m.to_string(),
        c.traffic.name().to_string(),
        c.load.to_string(),
        c.to.name().to_string(),
        c.payload.to_string(),
        c.loss.to_string(),
        c.capture_db.map_or_else(String::new, |d| d.to_string()),
        c.rule.rule.name().to_string(),
        params.join(";"),
        c.warmup.as_secs_f64().to_string(),
        c.duration.as_secs_f64().to_string(),
        c.seed.to_string(),
        r.senders.to_string(),
        r.links.to_string(),
        r.offered.to_string(),
        r.delivered.to_string(),
        r.delivery_ratio.to_string(),
        r.attempts_per_frame.to_string(),
        r.collision_probability.to_string(),
        r.throughput.to_string(),
        r.goodput_kbps.to_string(),
        r.drops.no_ack.to_string(),
        r.drops.channel_busy.to_string(),
        r.drops.radio_error.to_string(),
        r.drops.queue.to_string(),
        r.delay.p50_us.to_string(),
        r.delay.p90_us.to_string(),
        r.delay.p99_us.to_string(),
        r.delay.max_us.to_string(),
        r.channel.collisions.to_string(),
        r.channel.captures.to_string(),
        r.channel.half_duplex_losses.to_string(),
        r.channel.random_losses.to_string(),
        r.events.to_string(),
    ];
    cells.join(",")
}

/// One run: the header and its row.
pub fn single(r: &RadioResult) -> String {
    format!("{}\n{}\n", header(&[]), row(r))
}

/// A sweep: the header and one row per point, the axes' values first.
pub fn sweep(keys: &[String], points: &[PointResult]) -> String {
    let mut out = header(keys);
    out.push('\n');
    for p in points {
        for (_, v) in &p.values {
            out.push_str(v);
            out.push(',');
        }
        out.push_str(&row(&p.result));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_has_a_cell_per_column() {
        let mut c = crate::RadioConfig::default();
        c.set("rule", "beb").unwrap();
        c.set("duration", "50ms").unwrap();
        c.set("warmup", "0s").unwrap();
        let r = crate::run(&c).unwrap();
        assert_eq!(row(&r).split(',').count(), COLUMNS.len());
    }
}
