//! Events per second of the exact model and slots per second of the slotted model, as
//! a criterion benchmark (throughput = events). `mac-sim bench` gives the full table
//! (N up to a million, the textbook loop beside, memory).
//!
//! Run: `cargo bench -p csma-cd --bench events`
// criterion's macros write undocumented public functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use csma_cd::config::{RunConfig, Traffic};
use csma_cd::exact::CsmaCd;
use csma_cd::{SlottedConfig, run_slotted};
use sim_kit::engine::Engine;
use sim_kit::time::Time;

/// Events one run handles (deterministic), for the throughput figure.
fn events_of(cfg: &RunConfig) -> u64 {
    let (m, q) = CsmaCd::new(cfg).expect("valid");
    let mut e = Engine::with_queue(m, q);
    e.run_until(cfg.duration);
    e.events()
}

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("csma_cd");
    g.measurement_time(Duration::from_secs(5));
    for (n, ms, load) in [
        (2u32, 200u64, None),
        (32, 200, None),
        (1000, 50, None),
        (100_000, 1, None),
        (1000, 200, Some(0.5)),
    ] {
        let cfg = RunConfig {
            stations: n,
            duration: Time::from_ms(ms),
            traffic: load.map_or(Traffic::Saturated, |load| Traffic::Poisson { load }),
            ..RunConfig::default()
        };
        g.throughput(Throughput::Elements(events_of(&cfg)));
        let name = match load {
            None => format!("saturated N={n}, {ms} ms"),
            Some(l) => format!("poisson G={l} N={n}, {ms} ms"),
        };
        g.bench_function(name, |b| b.iter(|| black_box(events_of(&cfg))));
    }
    g.finish();
}

fn slotted(c: &mut Criterion) {
    let mut g = c.benchmark_group("slotted");
    let cfg = SlottedConfig::new(32, 512, 512, 100_000, 1);
    let slots = run_slotted(&cfg).expect("valid").events;
    g.throughput(Throughput::Elements(slots));
    g.bench_function("Q=32, 100k frames", |b| {
        b.iter(|| black_box(run_slotted(&cfg).expect("valid").efficiency))
    });
    g.finish();
}

criterion_group!(benches, exact, slotted);
criterion_main!(benches);
