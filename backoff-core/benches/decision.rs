//! The cost of one backoff decision, beside the bare RNG step (the floor) and the nearest
//! equivalents in `backon` and `exponential-backoff`, all in the same run.
//!
//! Run: `cargo bench -p backoff-core --bench decision`
//!
//! Every row runs the same harness: per sample, fresh state is built (untimed), then
//! `iters` decisions are made in a tight loop and each result is passed to
//! `black_box`. The state is a local of the timed loop, so every implementation can
//! keep its generator in registers; none pays for state reloaded through a captured
//! reference. Every row also cycles through whole "frames" the same way: 15 delays,
//! then the give-up signal (Discard / `None` / `Some(None)`), then a fresh frame.
//!
//! What each row does per decision:
//! * floor: one xorshift128 `next_u32`, nothing else.
//! * floor + counter: the same step plus the opaque collision counter that the
//!   `decide` row drives (shows how much of `decide`'s time is the harness).
//! * `decide`: the pure rule with an opaque collision count cycling 1..=16 (15 draws
//!   and one Discard per cycle), returning the slot count.
//! * `decide + times`: the same, converted to a `Duration` (as the peers
//!   return), so the comparison with the peers is like for like.
//! * `on_collision`: the per-frame state as a driver uses it, reset after Discard.
//! * backon: `ExponentialBuilder` with jitter (fastrand, seeded, `f32` arithmetic),
//!   51.2 µs doubling to 52.4 ms, at most 15 delays, rebuilt (seeded) when it ends.
//! * exponential-backoff: `Backoff` with 16 attempts (15 delays, then `Some(None)`),
//!   jitter on (its default 0.3, fastrand), 51.2 µs .. 52.4 ms; a new frame clones a
//!   prepared iterator, which spares it the thread-local reseeding its `iter()` does.
// criterion's macros write undocumented public functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use backoff_core::{BebConfig, Decision, FrameBackoff, SlotTime};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// Times `iters` calls of `step` on state made by `setup` (untimed), each result
/// passed through `black_box`.
fn per_decision<S, T>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    setup: impl Fn() -> S,
    mut step: impl FnMut(&mut S) -> T,
) {
    g.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut state = setup();
            let start = Instant::now();
            for _ in 0..iters {
                black_box(step(&mut state));
            }
            start.elapsed()
        })
    });
}

const SLOT: Duration = Duration::from_nanos(51_200);
const MAX_DELAY: Duration = Duration::from_nanos(51_200 * 1024);

fn one_decision(c: &mut Criterion) {
    let mut g = c.benchmark_group("one_decision");
    let rng = || XorShiftRng::seed_from_u64(1);

    per_decision(&mut g, "floor: xorshift next_u32", rng, |r| r.next_u32());

    // The floor plus the opaque collision counter the decide row drives: what the
    // harness itself adds to decide, so the rule's own cost can be read off.
    per_decision(
        &mut g,
        "floor + decide's collision counter",
        || (rng(), 0u32),
        |(r, n)| {
            *n = (*n & 15) + 1;
            (black_box(*n), r.next_u32())
        },
    );

    // The collision count goes through black_box so the compiler cannot unroll the
    // 16-step cycle into 16 constant shifts.
    let beb = BebConfig::IEEE_802_3;
    per_decision(
        &mut g,
        "backoff-core: BebConfig::decide",
        || (rng(), 0u32),
        |(r, n)| {
            *n = (*n & 15) + 1;
            beb.decide(black_box(*n), r)
        },
    );

    per_decision(
        &mut g,
        "backoff-core: decide + times",
        || (rng(), 0u32),
        |(r, n)| {
            *n = (*n & 15) + 1;
            match beb.decide(black_box(*n), r) {
                Decision::Retry { slots } => Some(SlotTime::ETHERNET_10M.times(u64::from(slots))),
                Decision::Discard => None,
            }
        },
    );

    per_decision(
        &mut g,
        "backoff-core: FrameBackoff::on_collision",
        || (rng(), FrameBackoff::new(black_box(beb))),
        |(r, frame)| {
            let d = frame.on_collision(r);
            if d == Decision::Discard {
                frame.reset();
            }
            d
        },
    );

    let backon = backon::ExponentialBuilder::default()
        .with_jitter()
        .with_min_delay(SLOT)
        .with_max_delay(MAX_DELAY)
        .with_max_times(15)
        .with_jitter_seed(1);
    per_decision(
        &mut g,
        "backon: ExponentialBackoff::next",
        || backon::BackoffBuilder::build(backon),
        |it| {
            let d = it.next();
            if d.is_none() {
                *it = backon::BackoffBuilder::build(backon);
            }
            d
        },
    );

    let eb = exponential_backoff::Backoff::new(16, SLOT, MAX_DELAY);
    let fresh = eb.iter();
    per_decision(
        &mut g,
        "exponential-backoff: IntoIter::next",
        || fresh.clone(),
        |it| match it.next() {
            Some(Some(d)) => Some(d),
            _ => {
                *it = fresh.clone();
                None
            }
        },
    );
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
