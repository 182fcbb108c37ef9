//! The radio MAC against the literature's closed forms (`radio_sim::checks`): each
//! check's table (or CSV) and its chart, its runs on every core. The points, seeds
//! and lengths are the ones the tests hold to their tolerances; every run is seeded,
//! so the output is the same on any number of threads.

use radio_sim::checks::{
    self, ALOHA_LOADS, BIANCHI_SENDERS, BIANCHI_WINDOWS, BianchiRow, CSMA_LOADS, LINE_LOADS,
    LOAD_DURATION, LORA_NODES, LORA_NODES_DURATION, LoadRow, NodesRow, SEEDS, SENDERS,
    STANDARD_COUNTDOWN_WINDOW, WIDE_BE,
};
use radio_sim::theory::{self, BianchiTimes};
use radio_sim::{ConfigError, Countdown};
use rayon::prelude::*;
use sim_host::chart::{Axis, LineChart, Series};

/// The checks, by name.
pub const NAMES: [&str; 5] = ["bianchi", "aloha", "csma", "hidden", "lora-nodes"];

/// Run the check `name` (one of [`NAMES`]): its table, or CSV with `csv`, and its
/// chart; `None` for a name that is not a check.
///
/// # Errors
///
/// A [`ConfigError`] if one of the check's runs cannot be configured (a fault of
/// the check's own points, never of the user's input).
pub fn check(name: &str, csv: bool) -> Option<Result<(String, LineChart), ConfigError>> {
    Some(match name {
        "bianchi" => bianchi(csv),
        "aloha" => loads(csv, Kind::Aloha),
        "csma" => loads(csv, Kind::Csma),
        "hidden" => loads(csv, Kind::Line),
        "lora-nodes" => lora_nodes(csv),
        _ => return None,
    })
}

fn bianchi(csv: bool) -> Result<(String, LineChart), ConfigError> {
    // Bianchi's countdown at both windows, then IEEE 802.11's at one of them.
    let (sw, sm) = STANDARD_COUNTDOWN_WINDOW;
    let points: Vec<(u32, u32, u16, Countdown)> = BIANCHI_WINDOWS
        .iter()
        .flat_map(|&(w, m)| {
            BIANCHI_SENDERS
                .iter()
                .map(move |&n| (w, m, n, Countdown::VirtualSlots))
        })
        .chain(
            BIANCHI_SENDERS
                .iter()
                .map(|&n| (sw, sm, n, Countdown::IdleSlots)),
        )
        .collect();
    let all = points
        .par_iter()
        .map(|&(w, m, n, countdown)| {
            let duration = checks::bianchi_duration(n);
            checks::bianchi_counting(n, w, m, countdown, duration, SEEDS[0])
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (rows, standard) = all.split_at(BIANCHI_WINDOWS.len() * BIANCHI_SENDERS.len());
    let mut text = String::new();
    if csv {
        text.push_str("countdown,cw_min,max_stage,senders,throughput,throughput_bianchi,collision_probability,collision_probability_bianchi,transmissions\n");
        let named = [
            (Countdown::VirtualSlots, rows),
            (Countdown::IdleSlots, standard),
        ];
        for (countdown, part) in named {
            let countdown = radio_sim::config::countdown_name(countdown);
            for r in part {
                text.push_str(&format!(
                    "{countdown},{},{},{},{:.6},{:.6},{:.6},{:.6},{}\n",
                    r.cw_min,
                    r.max_stage,
                    r.senders,
                    r.throughput,
                    r.theory.throughput,
                    r.collision_probability,
                    r.theory.p,
                    r.transmissions
                ));
            }
        }
    } else {
        let line = |r: &BianchiRow| {
            format!(
                "{:4}{:4}{:5}   {:.4}  {:.4}   {:+6.2} %   {:.4}  {:.4}   {:+6.2} %\n",
                r.cw_min,
                r.max_stage,
                r.senders,
                r.throughput,
                r.theory.throughput,
                100.0 * r.throughput_error(),
                r.collision_probability,
                r.theory.p,
                100.0 * r.collision_error()
            )
        };
        text.push_str("Saturated DCF-like rule, all in range, against Bianchi (2000)\n");
        text.push_str("   W   m    n   S sim   S Bianchi   error   p sim   p Bianchi   error\n");
        rows.iter().for_each(|r| text.push_str(&line(r)));
        text.push_str("The same with IEEE 802.11's countdown (no step for a busy period)\n");
        standard.iter().for_each(|r| text.push_str(&line(r)));
    }
    let times: BianchiTimes = checks::check_times();
    let mut chart = LineChart::new(
        "Saturation throughput: simulated DCF-like rule and Bianchi's model",
        Axis::linear("saturated stations n"),
        Axis::linear("throughput S (share of channel time)").range(0.3, 0.45),
    );
    for (i, &(w, m)) in BIANCHI_WINDOWS.iter().enumerate() {
        let model: Vec<(f64, f64)> = (2..=60)
            .map(|n| (f64::from(n), theory::bianchi(n, w, m, times).throughput))
            .collect();
        let sim: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| (r.cw_min, r.max_stage) == (w, m))
            .map(|r| (f64::from(r.senders), r.throughput))
            .collect();
        chart = chart
            .series(
                Series::new(&format!("Bianchi, W = {w}, m = {m}"), model)
                    .colour(i)
                    .dashed()
                    .no_markers(),
            )
            .series(Series::new(&format!("simulated, W = {w}, m = {m}"), sim).colour(i));
    }
    let sim: Vec<(f64, f64)> = standard
        .iter()
        .map(|r| (f64::from(r.senders), r.throughput))
        .collect();
    chart = chart.series(
        Series::new(
            &format!("simulated, W = {sw}, m = {sm}, IEEE 802.11's countdown"),
            sim,
        )
        .colour(2),
    );
    Ok((text, chart))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Aloha,
    Csma,
    Line,
}

fn loads(csv: bool, kind: Kind) -> Result<(String, LineChart), ConfigError> {
    // (series, load) pairs; every run is independent and seeded, so the order of
    // evaluation does not matter.
    let loads: &[f64] = match kind {
        Kind::Aloha => &ALOHA_LOADS,
        Kind::Csma => &CSMA_LOADS,
        Kind::Line => &LINE_LOADS,
    };
    let runs: Vec<(usize, f64)> = (0..2)
        .flat_map(|series| loads.iter().map(move |&l| (series, l)))
        .collect();
    let rows: Vec<LoadRow> = runs
        .par_iter()
        .map(|&(series, load)| {
            let be = (series == 0).then_some(WIDE_BE);
            match kind {
                Kind::Aloha => checks::aloha_star(SENDERS, load, be, LOAD_DURATION, SEEDS[1]),
                Kind::Csma => checks::csma_all(SENDERS, load, be, LOAD_DURATION, SEEDS[2]),
                Kind::Line => checks::line(series == 0, load, LOAD_DURATION, SEEDS[3]),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let names = match kind {
        Kind::Aloha => ["macMinBE = macMaxBE = 8", "802.15.4 defaults (3, 5)"],
        Kind::Csma => ["macMinBE = macMaxBE = 8", "802.15.4 defaults (3, 5)"],
        Kind::Line => ["A and C hidden", "A and C in range"],
    };
    let mut text = String::new();
    if csv {
        text.push_str("series,load,g,throughput_fraction,theory,delivery_fraction,collision_probability,attempts_per_frame\n");
    } else {
        text.push_str(match kind {
            Kind::Aloha => "20 senders hidden from each other around the sink, Poisson load, against pure ALOHA with the sink's turnaround\n",
            Kind::Csma => "20 senders in range, Poisson load, against non-persistent CSMA with the ACK exchange\n",
            Kind::Line => "The line A - B - C, both to B, Poisson load, the default rule\n",
        });
        text.push_str("series                      load     G      S sim   S form   error   delivery  p coll  attempts\n");
    }
    for (&(series, _), r) in runs.iter().zip(&rows) {
        let name = names[series];
        if csv {
            text.push_str(&format!(
                "{name},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6}\n",
                r.load,
                r.g,
                r.throughput,
                r.theory,
                r.delivery_ratio,
                r.collision_probability,
                r.attempts_per_frame
            ));
        } else {
            let (form, error) = if r.theory.is_nan() {
                ("     -".to_string(), "      -".to_string())
            } else {
                (
                    format!("{:.4}", r.theory),
                    format!("{:+6.2} %", 100.0 * r.error()),
                )
            };
            text.push_str(&format!(
                "{name:26} {:5.2}  {:6.3}   {:.4}   {form}  {error}   {:.3}     {:.3}   {:.2}\n",
                r.load,
                r.g,
                r.throughput,
                r.delivery_ratio,
                r.collision_probability,
                r.attempts_per_frame
            ));
        }
    }
    let chart = match kind {
        Kind::Line => line_chart(&runs, &rows, names),
        _ => form_chart(kind, &runs, &rows, names),
    };
    Ok((text, chart))
}

/// Throughput against the closed form's `G`, with the form drawn as a curve.
fn form_chart(kind: Kind, runs: &[(usize, f64)], rows: &[LoadRow], names: [&str; 2]) -> LineChart {
    let (title, x) = match kind {
        Kind::Aloha => (
            "Hidden senders around a sink and pure ALOHA",
            "attempts per frame time G",
        ),
        _ => (
            "Senders in range and non-persistent CSMA",
            "channel assessments per frame time G",
        ),
    };
    let top = rows.iter().map(|r| r.g).fold(0.0, f64::max).max(0.5);
    let curve: Vec<(f64, f64)> = (0..=200)
        .map(|i| f64::from(i) / 200.0 * top)
        .map(|g| (g, form(kind, g)))
        .collect();
    let name = match kind {
        Kind::Aloha => "pure ALOHA with the sink's turnaround",
        _ => "non-persistent CSMA with the ACK exchange",
    };
    let mut chart = LineChart::new(title, Axis::linear(x), Axis::linear("throughput S"))
        .series(Series::new(name, curve).colour(2).dashed().no_markers());
    for (series, label) in names.iter().enumerate() {
        let pts = runs
            .iter()
            .zip(rows)
            .filter(|((s, _), _)| *s == series)
            .map(|(_, r)| (r.g, r.throughput))
            .collect();
        chart = chart.series(Series::new(&format!("simulated, {label}"), pts).colour(series));
    }
    chart
}

/// The closed form of `kind` at `g`.
fn form(kind: Kind, g: f64) -> f64 {
    match kind {
        Kind::Aloha => checks::aloha_form(g),
        _ => checks::csma_form(g),
    }
}

/// Throughput against offered load for the two line series.
fn line_chart(runs: &[(usize, f64)], rows: &[LoadRow], names: [&str; 2]) -> LineChart {
    let mut chart = LineChart::new(
        "Hidden terminals: A - B - C under IEEE 802.15.4 CSMA-CA",
        Axis::linear("offered load G"),
        Axis::linear("throughput S").range(0.0, 0.6),
    );
    for (series, label) in names.iter().enumerate() {
        let pts = runs
            .iter()
            .zip(rows)
            .filter(|((s, _), _)| *s == series)
            .map(|((_, load), r)| (*load, r.throughput))
            .collect();
        chart = chart.series(Series::new(label, pts).colour(series));
    }
    chart
}

/// The share of frames delivered below which the LoRa capacity series says the
/// channel is full.
pub const LORA_DELIVERY_GOAL: f64 = 0.9;

/// The radio board as flashed, more and more boards at the demo's ping rate
/// ([`checks::lora_nodes`]): delivery against the number of boards, in range of each
/// other and hidden around a sink, and the most boards that keep
/// [`LORA_DELIVERY_GOAL`].
fn lora_nodes(csv: bool) -> Result<(String, LineChart), ConfigError> {
    let runs: Vec<(bool, u16)> = [true, false]
        .into_iter()
        .flat_map(|in_range| LORA_NODES.iter().map(move |&n| (in_range, n)))
        .collect();
    let rows: Vec<NodesRow> = runs
        .par_iter()
        .map(|&(in_range, n)| checks::lora_nodes(n, in_range, LORA_NODES_DURATION, SEEDS[0]))
        .collect::<Result<Vec<_>, _>>()?;
    let name = |in_range: bool| {
        if in_range {
            "in range, to a neighbour"
        } else {
            "hidden, to one sink"
        }
    };
    let mut text = String::new();
    if csv {
        text.push_str("series,nodes,load,delivery_fraction,attempts_per_frame,dropped_no_ack\n");
        for r in &rows {
            text.push_str(&format!(
                "{},{},{:.6},{:.6},{:.6},{}\n",
                name(r.in_range),
                r.nodes,
                r.load,
                r.delivery_ratio,
                r.attempts_per_frame,
                r.dropped_no_ack
            ));
        }
    } else {
        text.push_str("The radio board as flashed (SF7, 125 kHz, 4/5, 1 % duty cycle), a 9-byte ping every 12 s a board, one hour\n");
        text.push_str(
            "series                      nodes   load G   delivery  attempts  no-ACK drops\n",
        );
        for r in &rows {
            text.push_str(&format!(
                "{:26} {:5}   {:.4}    {:.3}     {:.2}      {}\n",
                name(r.in_range),
                r.nodes,
                r.load,
                r.delivery_ratio,
                r.attempts_per_frame,
                r.dropped_no_ack
            ));
        }
        for in_range in [true, false] {
            let most = rows
                .iter()
                .filter(|r| r.in_range == in_range)
                .take_while(|r| r.delivery_ratio >= LORA_DELIVERY_GOAL)
                .last()
                .map_or(0, |r| r.nodes);
            text.push_str(&format!(
                "{}: delivery {} {LORA_DELIVERY_GOAL} up to {most} boards of those run\n",
                name(in_range),
                '\u{2265}'
            ));
        }
    }
    let mut chart = LineChart::new(
        "The radio board as flashed: delivery against boards sharing one SF7 channel",
        Axis::linear("boards (each pings every 12 s)"),
        Axis::linear("frames delivered (share)").range(0.0, 1.0),
    );
    for (i, in_range) in [true, false].into_iter().enumerate() {
        let pts = rows
            .iter()
            .filter(|r| r.in_range == in_range)
            .map(|r| (f64::from(r.nodes), r.delivery_ratio))
            .collect();
        chart = chart.series(Series::new(name(in_range), pts).colour(i));
    }
    let goal = vec![
        (0.0, LORA_DELIVERY_GOAL),
        (
            f64::from(LORA_NODES[LORA_NODES.len() - 1]),
            LORA_DELIVERY_GOAL,
        ),
    ];
    chart = chart.series(
        Series::new("90 % delivered", goal)
            .colour(2)
            .dashed()
            .no_markers(),
    );
    Ok((text, chart))
}
