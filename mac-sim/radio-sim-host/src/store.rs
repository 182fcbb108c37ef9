//! The radio model's results database: the host kit's store ([`sim_host::store`],
//! whose docs say how a file is laid out, checked and written) with this model's
//! [`Layout`], [`Radio`]. `mac-sim radio --sweep ... --db FILE` keeps every point's
//! run in it: a sweep resumes where it stopped, grows without recomputing, and splits
//! into shards (`--shard K/N`) that `mac-sim merge` joins.
//!
//! # Columns
//!
//! ```sql
//! runs(id, point, seed, replication,
//!      -- the point's parameters, one column each, named as the CSV names them
//!      -- (radio_sim::Scenario::columns, the seed aside):
//!      stations, topology, radius_m, ..., duration_s,
//!      -- the whole result, every figure of radio_sim::RadioResult, NULL where a
//!      -- figure is undefined (a ratio over nothing):
//!      events, stale_events, senders, links, offered_frames, delivered_frames,
//!      ended_frames, attempts,
//!      drops_no_ack, drops_channel_busy, drops_radio_error, drops_queue,
//!      data_transmissions, overlapped_transmissions, busy_assessments,
//!      throughput_fraction, goodput_kbps, delivery_fraction, attempts_per_frame,
//!      collision_probability, delay_count, delay_mean_us, delay_p50_us,
//!      delay_p90_us, delay_p99_us, delay_max_us, transmissions, collisions,
//!      captures, half_duplex_losses, random_losses, intact, duplicates_suppressed,
//!      exactly_once_violations,
//!      record_sha256, UNIQUE(point, seed))
//! stations(run_id INTEGER REFERENCES runs(id), station INTEGER, neighbours INTEGER,
//!          offered INTEGER, delivered INTEGER, attempts INTEGER, dropped INTEGER,
//!          mean_delay_us REAL, PRIMARY KEY(run_id, station))
//! ```
//!
//! A run's `point` is its configuration's identity ([`point_key`]): the parameters
//! that differ from their defaults, as the schema writes them, and the stations'
//! positions of a file; its seed is the configuration's own.

use std::path::{Path, PathBuf};

use radio_sim::metrics::{Delays, Drops, RadioResult, StationRow};
use radio_sim::sweep::Point;
use radio_sim::{RadioConfig, Scenario};
use sim_host::store::{
    self as kit, Column, Detail, Layout, Merged, RunKey, SqlValue as Value, StoreError, real,
    real_value, unsigned,
};
use sim_kit::output::table::{Cell, Row};
use sim_kit::schema::Schema;

/// The version of the file layout.
pub const SCHEMA_VERSION: &str = "radio 2";

/// The version of the model whose results a file holds. Change it with any change
/// that changes a run's results (the golden outputs tell): a database is then refused
/// rather than mixing two models' results.
pub const MODEL_VERSION: &str = concat!("radio-sim ", env!("CARGO_PKG_VERSION"), ", model 1");

/// How the radio model's runs are stored (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Radio;

/// An open results database of radio runs.
pub type Store = kit::Store<Radio>;

/// The identity of a configuration, its seed aside: `key=value` lines for every
/// parameter not at its default ([`Schema::identity`]), then the stations'
/// positions, if a file gave them.
///
/// ```
/// use radio_sim::RadioConfig;
/// use radio_sim_host::store::point_key;
/// let mut c = RadioConfig::default();
/// assert_eq!(point_key(&c), "");
/// c.set("stations", "20").unwrap();
/// c.set("seed", "7").unwrap();
/// assert_eq!(point_key(&c), "stations=20\n");
/// ```
pub fn point_key(c: &RadioConfig) -> String {
    let mut key = Scenario::identity(c, &["seed"]);
    if !c.positions.is_empty() {
        key.push_str("positions=");
        let xy: Vec<String> = c
            .positions
            .iter()
            .map(|p| format!("{} {}", p.x, p.y))
            .collect();
        key.push_str(&xy.join(","));
        key.push('\n');
    }
    key
}

/// The key of the run of `c`: its identity and its seed.
pub fn run_key(c: &RadioConfig) -> RunKey {
    RunKey {
        point: point_key(c),
        seed: c.seed,
    }
}

/// The figures of a result, in the order of the columns, each with its column and
/// whether it is a count (`INTEGER NOT NULL`) or a real (`REAL`, NULL when undefined).
enum Figure {
    Count(u64),
    Real(f64),
}

const FIGURES: &[(&str, bool)] = &[
    ("events", true),
    ("stale_events", true),
    ("senders", true),
    ("links", true),
    ("offered_frames", true),
    ("delivered_frames", true),
    ("ended_frames", true),
    ("attempts", true),
    ("drops_no_ack", true),
    ("drops_channel_busy", true),
    ("drops_radio_error", true),
    ("drops_queue", true),
    ("data_transmissions", true),
    ("overlapped_transmissions", true),
    ("busy_assessments", true),
    ("throughput_fraction", false),
    ("goodput_kbps", false),
    ("delivery_fraction", false),
    ("attempts_per_frame", false),
    ("collision_probability", false),
    ("delay_count", true),
    ("delay_mean_us", false),
    ("delay_p50_us", false),
    ("delay_p90_us", false),
    ("delay_p99_us", false),
    ("delay_max_us", false),
    ("transmissions", true),
    ("collisions", true),
    ("captures", true),
    ("half_duplex_losses", true),
    ("random_losses", true),
    ("intact", true),
    ("duplicates_suppressed", true),
    ("exactly_once_violations", true),
];

/// A result's figures in the order of [`FIGURES`].
fn figures(r: &RadioResult) -> Vec<Figure> {
    use Figure::{Count, Real};
    vec![
        Count(r.events),
        Count(r.stale_events),
        Count(u64::from(r.senders)),
        Count(u64::from(r.links)),
        Count(r.offered),
        Count(r.delivered),
        Count(r.ended),
        Count(r.attempts),
        Count(r.drops.no_ack),
        Count(r.drops.channel_busy),
        Count(r.drops.radio_error),
        Count(r.drops.queue),
        Count(r.data_transmissions),
        Count(r.overlapped_transmissions),
        Count(r.busy_assessments),
        Real(r.throughput),
        Real(r.goodput_kbps),
        Real(r.delivery_ratio),
        Real(r.attempts_per_frame),
        Real(r.collision_probability),
        Count(r.delay.count),
        Real(r.delay.mean_us),
        Real(r.delay.p50_us),
        Real(r.delay.p90_us),
        Real(r.delay.p99_us),
        Real(r.delay.max_us),
        Count(r.channel.transmissions),
        Count(r.channel.collisions),
        Count(r.channel.captures),
        Count(r.channel.half_duplex_losses),
        Count(r.channel.random_losses),
        Count(r.channel.intact),
        Count(r.duplicates_suppressed),
        Count(r.exactly_once_violations),
    ]
}

const STATIONS: &[(&str, bool)] = &[
    ("station", true),
    ("neighbours", true),
    ("offered_frames", true),
    ("delivered_frames", true),
    ("attempts", true),
    ("dropped_frames", true),
    ("mean_delay_us", false),
];

fn columns(names: &[(&str, bool)]) -> Vec<Column> {
    names
        .iter()
        .map(|&(n, count)| Column::new(n, if count { "INTEGER NOT NULL" } else { "REAL" }))
        .collect()
}

impl Layout for Radio {
    type Point = Point;
    type Record = RadioResult;

    const SCHEMA_VERSION: &'static str = SCHEMA_VERSION;
    const MODEL_VERSION: &'static str = MODEL_VERSION;

    fn parameters(point: &Point) -> Vec<(String, Cell)> {
        Scenario::columns(&point.config)
            .into_iter()
            .filter(|(k, _)| k != "seed")
            .collect()
    }

    fn parameter_names() -> Vec<String> {
        Scenario::columns(&RadioConfig::default())
            .into_iter()
            .filter(|(k, _)| k != "seed")
            .map(|(n, _)| n)
            .collect()
    }

    fn results() -> Vec<Column> {
        columns(FIGURES)
    }

    fn detail() -> Option<Detail> {
        Some(Detail {
            table: "stations",
            columns: columns(STATIONS),
        })
    }

    fn encode(r: &RadioResult) -> (Vec<Value>, Vec<Vec<Value>>) {
        let value = |f: Figure| match f {
            Figure::Count(n) => Value::Integer(n as i64),
            Figure::Real(x) => real_value(x),
        };
        let results = figures(r).into_iter().map(value).collect();
        let stations = r
            .per_station
            .iter()
            .map(|s| {
                [
                    Figure::Count(u64::from(s.station)),
                    Figure::Count(u64::from(s.neighbours)),
                    Figure::Count(s.offered),
                    Figure::Count(s.delivered),
                    Figure::Count(s.attempts),
                    Figure::Count(s.dropped),
                    Figure::Real(s.mean_delay_us),
                ]
                .into_iter()
                .map(value)
                .collect()
            })
            .collect();
        (results, stations)
    }

    fn decode(v: &[Value], detail: &[Vec<Value>]) -> Result<RadioResult, String> {
        let count = |i: usize| -> Result<u64, String> {
            v.get(i)
                .and_then(unsigned)
                .ok_or_else(|| FIGURES[i].0.to_string())
        };
        let small = |i: usize| -> Result<u32, String> {
            u32::try_from(count(i)?).map_err(|_| FIGURES[i].0.to_string())
        };
        let num = |i: usize| -> Result<f64, String> {
            v.get(i)
                .and_then(real)
                .ok_or_else(|| FIGURES[i].0.to_string())
        };
        let per_station = detail
            .iter()
            .map(|s| {
                let c = |i: usize| s.get(i).and_then(unsigned).ok_or(STATIONS[i].0);
                Ok(StationRow {
                    station: u16::try_from(c(0)?).map_err(|_| STATIONS[0].0)?,
                    neighbours: u32::try_from(c(1)?).map_err(|_| STATIONS[1].0)?,
                    offered: c(2)?,
                    delivered: c(3)?,
                    attempts: c(4)?,
                    dropped: c(5)?,
                    mean_delay_us: s.get(6).and_then(real).ok_or(STATIONS[6].0)?,
                })
            })
            .collect::<Result<Vec<_>, &str>>()
            .map_err(|c| format!("stations {c}"))?;
        Ok(RadioResult {
            // The point's configuration: the caller knows it (`Store::load` gives
            // records in the order of the keys asked for).
            config: RadioConfig::default(),
            events: count(0)?,
            stale_events: count(1)?,
            senders: small(2)?,
            links: small(3)?,
            offered: count(4)?,
            delivered: count(5)?,
            ended: count(6)?,
            attempts: count(7)?,
            drops: Drops {
                no_ack: count(8)?,
                channel_busy: count(9)?,
                radio_error: count(10)?,
                queue: count(11)?,
            },
            data_transmissions: count(12)?,
            overlapped_transmissions: count(13)?,
            busy_assessments: count(14)?,
            throughput: num(15)?,
            goodput_kbps: num(16)?,
            delivery_ratio: num(17)?,
            attempts_per_frame: num(18)?,
            collision_probability: num(19)?,
            delay: Delays {
                count: count(20)?,
                mean_us: num(21)?,
                p50_us: num(22)?,
                p90_us: num(23)?,
                p99_us: num(24)?,
                max_us: num(25)?,
            },
            channel: radio_sim::channel::ChannelStats {
                transmissions: count(26)?,
                collisions: count(27)?,
                captures: count(28)?,
                half_duplex_losses: count(29)?,
                random_losses: count(30)?,
                intact: count(31)?,
            },
            duplicates_suppressed: count(32)?,
            exactly_once_violations: count(33)?,
            per_station,
        })
    }
}

/// Merge radio shard files into a new file `out`, as [`sim_host::store::merge`] does.
///
/// # Errors
///
/// As [`sim_host::store::merge`].
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Merged, StoreError> {
    kit::merge::<Radio>(out, inputs)
}

/// The runs of a radio results database as rows, as [`sim_host::store::read_runs`]
/// reads them.
///
/// # Errors
///
/// As [`sim_host::store::read_runs`].
pub fn read_runs(path: &Path) -> Result<(Row, Vec<Row>), StoreError> {
    kit::read_runs::<Radio>(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every figure of a result goes into its column and comes back, NaN included.
    #[test]
    fn a_result_is_stored_and_read_back_whole() {
        let mut c = RadioConfig::default();
        c.set("duration", "200ms").unwrap();
        c.set("warmup", "0s").unwrap();
        c.set("stations", "4").unwrap();
        let mut r = radio_sim::run(&c).unwrap();
        r.delay.max_us = f64::NAN;
        let (results, stations) = Radio::encode(&r);
        assert_eq!(results.len(), FIGURES.len());
        assert_eq!(stations.len(), r.per_station.len());
        let mut back = Radio::decode(&results, &stations).unwrap();
        back.config = c;
        // As JSON: NaN is unequal to itself, its JSON `null` is not.
        let json = sim_kit::output::json::to_string;
        assert_eq!(json(&back), json(&r));
        assert!(Radio::decode(&results[..3], &stations).is_err());
    }

    #[test]
    fn a_parameter_at_its_default_is_not_in_the_key() {
        let mut a = RadioConfig::default();
        let before = point_key(&a);
        a.set("load", "0.4").unwrap();
        assert_eq!(point_key(&a), before, "0.4 is the default load");
        a.set("load", "0.5").unwrap();
        assert_eq!(point_key(&a), "load=0.5\n");
    }
}
