//! CSV: one header and one row per run (a sweep: per point). The first columns state
//! the run's parameters, every key of the schema with its unit in the column's name
//! (`radius_m`, `warmup_s`; empty where a key is not set: `capture_db` off, a rule's
//! own default); then the figures. Numbers are written in full; text values never
//! hold a comma.

use sim_kit::output::table::{Cell, Row};

use crate::metrics::RadioResult;
use crate::scenario::Scenario;
use crate::sweep::PointResult;

/// The figures' columns, after the parameters'.
pub const FIGURES: &[&str] = &[
    "senders",
    "links",
    "offered_frames",
    "delivered_frames",
    "delivery_fraction",
    "attempts_per_frame",
    "collision_probability",
    "throughput_fraction",
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

/// The header line (no newline): the parameters' columns, then [`FIGURES`].
pub fn header() -> String {
    let mut cols = Scenario::column_names();
    cols.extend(FIGURES.iter().map(|c| (*c).to_string()));
    cols.join(",")
}

/// One row (no newline).
pub fn row(r: &RadioResult) -> String {
    let params = Row(Scenario::columns(&r.config)).csv_line();
    let figures: Vec<String> = vec![
        r.senders.to_string(),
        r.links.to_string(),
        r.offered.to_string(),
        r.delivered.to_string(),
        num(r.delivery_ratio),
        num(r.attempts_per_frame),
        num(r.collision_probability),
        num(r.throughput),
        num(r.goodput_kbps),
        r.drops.no_ack.to_string(),
        r.drops.channel_busy.to_string(),
        r.drops.radio_error.to_string(),
        r.drops.queue.to_string(),
        num(r.delay.p50_us),
        num(r.delay.p90_us),
        num(r.delay.p99_us),
        num(r.delay.max_us),
        r.channel.collisions.to_string(),
        r.channel.captures.to_string(),
        r.channel.half_duplex_losses.to_string(),
        r.channel.random_losses.to_string(),
        r.events.to_string(),
    ];
    format!("{params},{}", figures.join(","))
}

/// A number in full; empty when undefined (NaN): the kit's exact table cell.
fn num(x: f64) -> String {
    Cell::Exact(x).csv()
}

/// One run: the header and its row.
pub fn single(r: &RadioResult) -> String {
    format!("{}\n{}\n", header(), row(r))
}

/// A sweep: the header and one row per point (each point's swept values are in its
/// parameters' columns).
pub fn sweep(points: &[PointResult]) -> String {
    let mut out = header();
    out.push('\n');
    for p in points {
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
        assert_eq!(row(&r).split(',').count(), header().split(',').count());
        assert!(
            header().starts_with("stations,topology,radius_m,area_m,spacing_m,phy,"),
            "{}",
            header()
        );
        // A rule's own default is an empty cell; capture off too.
        let cells: Vec<String> = header().split(',').map(str::to_string).collect();
        let row = row(&r);
        let cell = |name: &str| {
            row.split(',')
                .nth(cells.iter().position(|c| c == name).unwrap())
                .unwrap()
                .to_string()
        };
        assert_eq!(
            (cell("min_be"), cell("capture_db"), cell("warmup_s")),
            (String::new(), String::new(), "0".to_string())
        );
    }
}
