//! Events per second of the storm model: the `pause` scenario with 10 000 closed-loop
//! clients (and 400 workers) over 60 simulated seconds, for both of its strategies —
//! fixed-interval retries (the metastable storm, most events) and exponential backoff
//! with full jitter. Criterion reports the throughput in events (`elem/s`).
//!
//! Run: `cargo bench -p retry-storm --bench storm`
// criterion's macros write undocumented public functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use retry_storm::file::Setting;
use retry_storm::{presets, run};

fn storm(c: &mut Criterion) {
    let opts = presets::Options {
        clients: Some(10_000),
        settings: vec![Setting::new("horizon", "60s")],
        ..Default::default()
    };
    let sc = presets::scenario("pause", &opts).expect("the preset is valid");
    let mut g = c.benchmark_group("storm pause, 10000 clients, 60 s");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(8));
    for cfg in &sc.runs {
        let events = run(cfg).expect("runs").events;
        g.throughput(Throughput::Elements(events));
        g.bench_function(cfg.strategy.name.as_str(), |b| {
            b.iter(|| black_box(run(black_box(cfg)).expect("runs").events))
        });
    }
    g.finish();
}

criterion_group!(benches, storm);
criterion_main!(benches);
