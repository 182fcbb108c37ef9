//! The cost of one decision per retry policy, budget and breaker, beside `backon`'s
//! exponential backoff and `tower`'s retry budget, all in the same run.
//!
//! Run: `cargo bench -p backoff-core --bench policies`
//!
//! Every backoff-core measurement runs on simulated time (a counter), the way the storm
//! simulator uses it; `RatioBudget (Instant::now)` also reads the system clock on each
//! call, as `tower`'s `TpsBudget` does internally, to compare like with like.
// criterion's macros write undocumented public functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use backoff_core::{
    BreakerConfig, CircuitBreaker, Deadline, Fraction, Jitter, Policy, Ratio, RatioBudget,
    RetryBreaker, RetryDecision, RetryState, Schedule, Stop, TokenBudget, TtlBudget, presets,
};
use criterion::{Criterion, criterion_group, criterion_main};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use tower::retry::budget::{Budget, TpsBudget};

/// 100 ms · 2^n ≤ 60 s, 16 attempts, with the given jitter.
fn policy(j: Jitter) -> Policy {
    Policy::new(
        Schedule::exponential(
            Duration::from_millis(100),
            Ratio::TWO,
            Duration::from_secs(60),
        )
        .unwrap_or(Schedule::constant_nanos(0)),
    )
    .with_jitter(j)
    .with_stop(Stop::NEVER.with_max_retries(15))
}

fn backoff_policies(c: &mut Criterion) {
    let mut g = c.benchmark_group("one_backoff_decision");

    let mut rng = XorShiftRng::seed_from_u64(1);
    g.bench_function("floor: xorshift next_u64", |b| {
        b.iter(|| black_box(rng.next_u64()))
    });

    let kinds = [
        ("none", Jitter::None),
        ("full", Jitter::Full),
        ("equal", Jitter::Equal),
        ("decorrelated", Jitter::Decorrelated),
        ("proportional 1/2", Jitter::Factor(Fraction::HALF)),
        (
            "additive 1 s",
            Jitter::Additive {
                max_ns: 1_000_000_000,
            },
        ),
        (
            "normal 1/10",
            Jitter::Normal(Ratio::new(1, 10).unwrap_or(Ratio::ZERO)),
        ),
    ];
    for (name, j) in kinds {
        let p = policy(j);
        let mut rng = XorShiftRng::seed_from_u64(1);
        let mut st = RetryState::new();
        let mut now = 0u64;
        g.bench_function(
            format!("backoff-core: RetryState::on_failure, {name}"),
            |b| {
                b.iter(|| {
                    let d = st.on_failure(black_box(&p), now, &mut rng);
                    match d {
                        RetryDecision::Retry { delay_ns } => now = now.wrapping_add(delay_ns),
                        RetryDecision::GiveUp(_) => st.reset(),
                    }
                    black_box(d)
                })
            },
        );
    }

    // The same multiplier as a non-dyadic ratio (1.6 = 8/5, gRPC), exact arithmetic.
    let p = presets::grpc_retry(
        5,
        Duration::from_secs(1),
        Duration::from_secs(120),
        Ratio::EIGHT_FIFTHS,
    )
    .unwrap_or(policy(Jitter::None));
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut st = RetryState::new();
    g.bench_function(
        "backoff-core: RetryState::on_failure, gRPC preset (x1.6)",
        |b| {
            b.iter(|| {
                let d = st.on_failure(black_box(&p), 0, &mut rng);
                if d.delay_nanos().is_none() {
                    st.reset();
                }
                black_box(d)
            })
        },
    );

    // backon: exponential, factor 2, 100 ms .. 60 s, jitter (its own fastrand), 16 steps
    // per request.
    let builder = backon::ExponentialBuilder::default()
        .with_jitter()
        .with_min_delay(Duration::from_millis(100))
        .with_max_delay(Duration::from_secs(60))
        .with_max_times(15)
        .with_jitter_seed(1);
    let mut it = backon::BackoffBuilder::build(builder);
    g.bench_function("backon: ExponentialBackoff::next (jitter)", |b| {
        b.iter(|| match it.next() {
            Some(d) => black_box(Some(d)),
            None => {
                it = backon::BackoffBuilder::build(builder);
                black_box(None)
            }
        })
    });
    g.finish();
}

fn budgets_and_breakers(c: &mut Criterion) {
    let mut g = c.benchmark_group("one_budget_decision");

    // A request that fails and asks for a retry: deposit, then withdraw.
    let tower_budget = TpsBudget::new(Duration::from_secs(10), 10, 0.1);
    g.bench_function("tower: TpsBudget deposit + withdraw", |b| {
        b.iter(|| {
            tower_budget.deposit();
            black_box(tower_budget.withdraw())
        })
    });

    let mut rb = RatioBudget::new(Ratio::from_percent(10), 10, 100)
        .unwrap_or_else(|_| std::process::abort());
    let mut now = 0u64;
    g.bench_function("backoff-core: RatioBudget on_request + try_retry", |b| {
        b.iter(|| {
            now = now.wrapping_add(1_000);
            rb.on_request(now);
            black_box(rb.try_retry(now))
        })
    });

    let mut rb = RatioBudget::new(Ratio::from_percent(10), 10, 100)
        .unwrap_or_else(|_| std::process::abort());
    let start = Instant::now();
    g.bench_function(
        "backoff-core: RatioBudget on_request + try_retry (Instant::now)",
        |b| {
            b.iter(|| {
                let now = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
                rb.on_request(now);
                black_box(rb.try_retry(now))
            })
        },
    );

    let mut tb = TokenBudget::with_ratio(10, Ratio::from_thousandths(100))
        .unwrap_or_else(|_| std::process::abort());
    let mut k = 0u32;
    g.bench_function("backoff-core: TokenBudget on_failure / on_success", |b| {
        b.iter(|| {
            k = k.wrapping_add(1);
            tb.record(k % 3 == 0);
            black_box(tb.allows_retry())
        })
    });

    // Finagle's defaults (ttl 10 s in 10 buckets, 10/s reserve, 20 %), the design
    // tower's TpsBudget follows: the like-for-like row for tower.
    let mut ttl = TtlBudget::<10>::new(10_000_000_000, 10, Ratio::from_percent(20))
        .unwrap_or_else(|_| std::process::abort());
    let mut now = 0u64;
    g.bench_function("backoff-core: TtlBudget on_request + try_retry", |b| {
        b.iter(|| {
            now = now.wrapping_add(1_000);
            ttl.on_request(now);
            black_box(ttl.try_retry(now))
        })
    });

    let mut br = RetryBreaker::<10>::new(Ratio::from_percent(10), 20, 10_000_000_000)
        .unwrap_or_else(|_| std::process::abort());
    let mut now = 0u64;
    let mut k = 0u32;
    g.bench_function(
        "backoff-core: RetryBreaker record + allows_retry (10 buckets)",
        |b| {
            b.iter(|| {
                now = now.wrapping_add(1_000_000);
                k = k.wrapping_add(1);
                br.record(now, k % 8 != 0);
                black_box(br.allows_retry(now))
            })
        },
    );

    let cfg = BreakerConfig {
        failure_threshold: Ratio::HALF,
        min_calls: 20,
        window_ns: 10_000_000_000,
        open_ns: 50_000_000,
        half_open_probes: 3,
    };
    let mut cb = CircuitBreaker::<10>::new(cfg).unwrap_or_else(|_| std::process::abort());
    let mut now = 0u64;
    let mut rng = XorShiftRng::seed_from_u64(1);
    g.bench_function(
        "backoff-core: CircuitBreaker acquire + on_result (10 buckets)",
        |b| {
            b.iter(|| {
                now = now.wrapping_add(1_000_000);
                let ok = cb.acquire(now);
                if ok {
                    cb.on_result(now, rng.next_u32() & 1 == 0);
                }
                black_box(ok)
            })
        },
    );

    let d = Deadline::at(1_000_000_000);
    let mut now = 0u64;
    g.bench_function(
        "backoff-core: Deadline allows_attempt + attempt_timeout",
        |b| {
            b.iter(|| {
                now = (now + 7_919) % 1_200_000_000;
                let ok = d.allows_attempt(black_box(now), 100_000, 50_000_000);
                black_box((ok, d.attempt_timeout_nanos(now, 100_000, 50_000_000)))
            })
        },
    );
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = backoff_policies, budgets_and_breakers
}
criterion_main!(benches);
