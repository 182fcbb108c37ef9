//! The cost of one backoff decision, beside the bare RNG step (the floor) and the nearest
//! equivalents in `backon` and `exponential-backoff`, all in the same run.
//!
//! Run: `cargo bench -p backoff-core --bench decision`

use std::hint::black_box;
use std::time::Duration;

use backoff_core::{BebConfig, Decision, FrameBackoff};
use criterion::{Criterion, criterion_group, criterion_main};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

fn one_decision(c: &mut Criterion) {
    let mut g = c.benchmark_group("one_decision");

    // The floor: one xorshift step, nothing else.
    let mut rng = XorShiftRng::seed_from_u64(1);
    g.bench_function("floor: xorshift next_u32", |b| {
        b.iter(|| black_box(rng.next_u32()))
    });

    // The pure rule, collision count cycling 1..=16 (the 16th discards).
    let beb = BebConfig::IEEE_802_3;
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut n = 0u32;
    g.bench_function("backoff-core: BebConfig::decide", |b| {
        b.iter(|| {
            n = (n & 15) + 1;
            black_box(beb.decide(black_box(n), &mut rng))
        })
    });

    // The per-frame state as a driver uses it: collide until discard, reset, repeat.
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut frame = FrameBackoff::new(beb);
    g.bench_function("backoff-core: FrameBackoff::on_collision", |b| {
        b.iter(|| {
            let d = frame.on_collision(&mut rng);
            if d == Decision::Discard {
                frame.reset();
            }
            black_box(d)
        })
    });

    // backon: exponential with jitter (its RNG is fastrand), 51.2 us slots, no limits
    // so the iterator never ends; rebuilt every 16 steps like a frame.
    let builder = backon::ExponentialBuilder::default()
        .with_jitter()
        .with_min_delay(Duration::from_nanos(51_200))
        .with_max_delay(Duration::from_nanos(51_200 * 1024))
        .without_max_times()
        .with_jitter_seed(1);
    let mut it = backon::BackoffBuilder::build(builder);
    let mut k = 0u32;
    g.bench_function("backon: ExponentialBackoff::next", |b| {
        b.iter(|| {
            k += 1;
            if k == 16 {
                k = 0;
                it = backon::BackoffBuilder::build(builder);
            }
            black_box(it.next())
        })
    });

    // exponential-backoff: 16 attempts, jitter on (its default 0.3), 51.2 us .. 52.4 ms.
    let eb = exponential_backoff::Backoff::new(
        16,
        Duration::from_nanos(51_200),
        Duration::from_nanos(51_200 * 1024),
    );
    let mut it = eb.iter();
    g.bench_function("exponential-backoff: IntoIter::next", |b| {
        b.iter(|| match it.next() {
            Some(d) => black_box(d),
            None => {
                it = eb.iter();
                black_box(it.next().flatten())
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = one_decision
}
criterion_main!(benches);
