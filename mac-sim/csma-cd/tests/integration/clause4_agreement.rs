//! The exact model (`csma_cd::exact`) against an independent, plain implementation
//! of IEEE 802.3 clause 4 (`clause4_agreement/clause4.rs`: explicit carrier edges at every station
//! and the Deference process of clause 4.2.8 as a state machine).
//!
//! Each grid point runs 30 seeds of each simulator with independent seeds and
//! compares five metrics (utilisation, collided attempts per delivered frame,
//! excessive-collision drops per generated frame, mean access and mean total delay)
//! by `z = (mean_a − mean_b) / sqrt(se_a² + se_b²)`, requiring `|z| < 3`.
//!
//! Why 3 is sound: with 30 independent seeds per side each mean is close to normal
//! (central limit theorem), so under agreement `z` is approximately standard normal
//! and `P(|z| ≥ 3) ≈ 0.0027` per comparison. The grid makes at most
//! `points × 5` comparisons (a metric constant and equal on both sides, as for one
//! station, counts as z = 0); with the 10 points below that is 50, so the family-wise
//! false-alarm rate is at most 50 × 0.0027 ≈ 13 % by the union bound and lower in practice,
//! since the metrics of a point are strongly correlated. The seeds are fixed, so the
//! test is deterministic: a pass stays a pass. A real disagreement of a few percent
//! in collisions per frame gives |z| far above 3 (see the `Restart` check below,
//! which must disagree).

mod clause4;

use clause4::{Metrics, Params, Place};
use csma_cd::config::{FrameSizes, IfgRule, Placement, RunConfig, Traffic};
use csma_cd::ethernet::EthernetMedium;
use sim_kit::time::Time;

const SEEDS: u64 = 30;
const Z_MAX: f64 = 3.0;

fn exact(p: &Params, rule: IfgRule) -> Metrics {
    let cfg = RunConfig {
        stations: p.stations as u32,
        placement: match p.place {
            Place::Point => Placement::Point,
            Place::Even => Placement::Even,
            Place::Random => Placement::Random,
        },
        bus_length_m: p.bus_m,
        frames: FrameSizes::Fixed(p.frame_bytes as u32),
        traffic: match p.load {
            None => Traffic::Saturated,
            Some(load) => Traffic::Poisson { load },
        },
        duration: Time::from_ps(p.duration),
        seed: p.seed,
        ifg_rule: rule,
        ..if p.gigabit {
            RunConfig::default().with_medium(EthernetMedium::Base1000T)
        } else {
            RunConfig::default()
        }
    };
    let r = csma_cd::exact::run(&cfg).expect("valid configuration");
    let d = r.conservation.delivered.max(1) as f64;
    Metrics {
        utilisation: r.utilisation,
        collided_per_frame: r.collided_attempts as f64 / d,
        drops_per_generated: r.conservation.dropped_excessive as f64
            / r.conservation.generated.max(1) as f64,
        access_us: r.access_delay.mean_us,
        total_us: r.total_delay.mean_us,
    }
}

fn fields(m: &Metrics) -> [f64; 5] {
    [
        m.utilisation,
        m.collided_per_frame,
        m.drops_per_generated,
        m.access_us,
        m.total_us,
    ]
}

const NAMES: [&str; 5] = ["util", "coll/frame", "drops/gen", "access", "total"];

fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, (v / n).sqrt())
}

/// z-scores of the five metrics between two samples (NaN-free: 0 when both are
/// constant and equal, infinite when constant and different).
fn zs(a: &[Metrics], b: &[Metrics]) -> [f64; 5] {
    let mut out = [0.0; 5];
    for (k, o) in out.iter_mut().enumerate() {
        let xa: Vec<f64> = a.iter().map(|m| fields(m)[k]).collect();
        let xb: Vec<f64> = b.iter().map(|m| fields(m)[k]).collect();
        let (ma, sa) = mean_se(&xa);
        let (mb, sb) = mean_se(&xb);
        let se = (sa * sa + sb * sb).sqrt();
        *o = if se > 0.0 {
            (ma - mb) / se
        } else if (ma - mb).abs() < 1e-12 * ma.abs().max(1.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    out
}

fn params(stations: usize, frame_bytes: u64, place: Place, load: Option<f64>, ms: u64) -> Params {
    Params {
        stations,
        frame_bytes,
        place,
        bus_m: 2500.0,
        load,
        duration: ms * 1_000_000_000,
        seed: 0,
        gigabit: false,
    }
}

/// A 1000BASE-T point: 200 m, carrier extension and frame bursting.
fn gigabit(stations: usize, frame_bytes: u64, place: Place, load: Option<f64>, ms: u64) -> Params {
    Params {
        bus_m: 200.0,
        gigabit: true,
        ..params(stations, frame_bytes, place, load, ms)
    }
}

fn samples(p: &Params) -> (Vec<Metrics>, Vec<Metrics>) {
    let a = (0..SEEDS)
        .map(|s| exact(&Params { seed: 1 + s, ..*p }, IfgRule::Ieee8023))
        .collect();
    let b = (0..SEEDS)
        .map(|s| {
            clause4::run(&Params {
                seed: 10_001 + s,
                ..*p
            })
        })
        .collect();
    (a, b)
}

/// Stations 1, 2, 8, 32, 64; frames 64, 512, 1518 B; placements even, random,
/// point; loads saturated, Poisson 0.5 and 0.9: each value appears at least once;
/// and two 1000BASE-T points, with carrier extension and frame bursting.
#[test]
fn exact_model_agrees_with_the_clause_4_reference() {
    let grid = [
        params(1, 512, Place::Even, None, 100),
        params(2, 1518, Place::Point, None, 300),
        params(8, 64, Place::Random, Some(0.5), 200),
        params(8, 512, Place::Even, None, 200),
        params(32, 1518, Place::Random, Some(0.9), 400),
        params(32, 64, Place::Even, None, 100),
        params(64, 512, Place::Point, Some(0.5), 200),
        params(64, 64, Place::Even, None, 150),
        gigabit(8, 64, Place::Even, None, 10),
        gigabit(16, 512, Place::Random, Some(0.3), 20),
    ];
    let mut worst: f64 = 0.0;
    eprintln!(
        "{:>3} {:>5} {:>6} {:>5} | {:>8} {:>10} {:>9} {:>8} {:>8}",
        "N", "bytes", "place", "load", NAMES[0], NAMES[1], NAMES[2], NAMES[3], NAMES[4]
    );
    let mut failures = Vec::new();
    for p in &grid {
        let (a, b) = samples(p);
        let z = zs(&a, &b);
        eprintln!(
            "{:>3} {:>5} {:>6} {:>5} | {:>8.2} {:>10.2} {:>9.2} {:>8.2} {:>8.2}",
            p.stations,
            p.frame_bytes,
            format!("{:?}", p.place),
            p.load.map_or("sat".to_string(), |g| g.to_string()),
            z[0],
            z[1],
            z[2],
            z[3],
            z[4]
        );
        for (k, zk) in z.iter().enumerate() {
            worst = worst.max(zk.abs());
            if zk.abs() >= Z_MAX {
                failures.push(format!("{p:?}: {} z = {zk:.2}", NAMES[k]));
            }
        }
    }
    eprintln!("largest |z| = {worst:.2}");
    assert!(failures.is_empty(), "disagreements: {failures:#?}");
}

/// The comparison can fail: the exact model under the restarting gap, where it
/// differs materially from clause 4 (32 stations evenly over 2500 m, 1518-byte
/// frames, saturated, 1.5 s), must disagree with the reference on collided attempts
/// per frame. (At 64 stations with 64-byte frames the difference is as real but
/// needs more simulated time than this test can afford to pass |z| > 3: 300 ms
/// gave z = −2.5.)
#[test]
fn restarting_gap_disagrees_with_the_clause_4_reference() {
    let p = params(32, 1518, Place::Even, None, 1500);
    let a: Vec<Metrics> = (0..SEEDS)
        .map(|s| exact(&Params { seed: 1 + s, ..p }, IfgRule::Restart))
        .collect();
    let b: Vec<Metrics> = (0..SEEDS)
        .map(|s| {
            clause4::run(&Params {
                seed: 10_001 + s,
                ..p
            })
        })
        .collect();
    let z = zs(&a, &b);
    eprintln!("restart vs reference, 32 x 1518 B even saturated: z = {z:.2?}");
    assert!(z[1].abs() > Z_MAX, "coll/frame z = {:.2}", z[1]);
}
