//! Each preset against the documented behaviour of the system it reproduces.

use core::time::Duration;

use backoff_core::{
    BebConfig, ConfigErrorKind, Decision, Policy, Ratio, RetryDecision, RetryState, StopReason,
    presets,
};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

const S: u64 = 1_000_000_000;
const MS: u64 = 1_000_000;

/// Drive `policy` through failures with the given elapsed time before each decision;
/// return the decisions.
fn decisions(
    policy: &Policy,
    seed: u64,
    elapsed: impl Fn(u32) -> u64,
    n: u32,
) -> Vec<RetryDecision> {
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let mut st = RetryState::new();
    (0..n)
        .map(|i| st.on_failure(policy, elapsed(i), &mut rng))
        .collect()
}

/// Over many seeds, every delay of retry `n` is in `[lo, hi]`, and the extremes come
/// within 2 % of the range's ends (so the range is the documented one, not a narrower
/// one).
fn check_ranges(policy: &Policy, ranges: &[(u64, u64)]) {
    let mut seen_min = vec![u64::MAX; ranges.len()];
    let mut seen_max = vec![0u64; ranges.len()];
    for seed in 0..2_000u64 {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        let mut st = RetryState::new();
        for (i, &(lo, hi)) in ranges.iter().enumerate() {
            let d = st
                .on_failure(policy, 0, &mut rng)
                .delay_nanos()
                .unwrap_or_else(|| panic!("gave up at retry {i}"));
            assert!((lo..=hi).contains(&d), "retry {i}: {d} not in [{lo}, {hi}]");
            seen_min[i] = seen_min[i].min(d);
            seen_max[i] = seen_max[i].max(d);
        }
    }
    for (i, &(lo, hi)) in ranges.iter().enumerate() {
        let slack = (hi - lo) / 50;
        assert!(
            seen_min[i] <= lo + slack,
            "retry {i}: min {} far from {lo}",
            seen_min[i]
        );
        assert!(
            seen_max[i] + slack >= hi,
            "retry {i}: max {} far from {hi}",
            seen_max[i]
        );
    }
}

#[test]
fn ethernet_is_ieee_802_3_truncated_beb() {
    let beb = BebConfig::IEEE_802_3;
    let mut rng = XorShiftRng::seed_from_u64(1);
    for n in 1..16u32 {
        let window = 1u32 << n.min(10);
        for _ in 0..200 {
            match beb.decide(n, &mut rng) {
                Decision::Retry { slots } => assert!(slots < window),
                Decision::Discard => panic!("discarded after {n}"),
            }
        }
    }
    assert_eq!(beb.decide(16, &mut rng), Decision::Discard);
}

/// cenkalti/backoff's README table: retry interval and randomized interval, seconds.
const CENKALTI_TABLE: [(f64, f64, f64); 13] = [
    (0.5, 0.25, 0.75),
    (0.75, 0.375, 1.125),
    (1.125, 0.562, 1.687),
    (1.6875, 0.8437, 2.53),
    (2.53125, 1.265, 3.795),
    (3.796875, 1.897, 5.692),
    (5.6953125, 2.847, 8.542),
    (8.54296875, 4.271, 12.81),
    (12.814453125, 6.407, 19.22),
    (19.2216796875, 9.610, 28.83),
    (28.83251953125, 14.41, 43.24),
    (43.248779296875, 21.62, 64.87),
    (60.0, 30.0, 90.0),
];

#[test]
fn cenkalti_intervals_match_the_documented_table() {
    let p = presets::CENKALTI;
    let s = p.schedule();
    // The first nine are exact in nanoseconds.
    let exact = [
        500_000_000u64,
        750_000_000,
        1_125_000_000,
        1_687_500_000,
        2_531_250_000,
        3_796_875_000,
        5_695_312_500,
        8_542_968_750,
        12_814_453_125,
    ];
    for (n, &e) in exact.iter().enumerate() {
        assert_eq!(s.base_after_nanos(n as u32 + 1), e, "interval {n}");
    }
    for (n, &(interval, lo, hi)) in CENKALTI_TABLE.iter().enumerate() {
        let b = s.base_after_nanos(n as u32 + 1) as f64 / 1e9;
        assert!(
            (b - interval).abs() < 1e-9,
            "interval {n}: {b} vs {interval}"
        );
        // The table's ranges are 0.5 x and 1.5 x, printed to 4 significant digits.
        assert!((b * 0.5 - lo).abs() <= lo * 1e-3 && (b * 1.5 - hi).abs() <= hi * 1e-3);
    }
    // Capped at the max interval from then on, however many retries.
    assert_eq!(s.base_after_nanos(14), 60 * S);
    assert_eq!(s.base_after_nanos(u32::MAX), 60 * S);
}

#[test]
fn cenkalti_randomized_ranges() {
    let p = presets::CENKALTI;
    let ranges: Vec<(u64, u64)> = (0..14)
        .map(|n| {
            let b = p.schedule().base_after_nanos(n + 1);
            (b - b / 2, b + b / 2)
        })
        .collect();
    assert_eq!(ranges[0], (250 * MS, 750 * MS));
    assert_eq!(ranges[1], (375 * MS, 1_125 * MS));
    assert_eq!(ranges[13], (30 * S, 90 * S));
    check_ranges(&p, &ranges);
}

#[test]
fn cenkalti_stops_when_elapsed_plus_next_exceeds_15_minutes() {
    let p = presets::CENKALTI;
    let max = 15 * 60 * S;
    // Elapsed 15 min minus 1 ms: any next interval (at least 250 ms) goes past.
    let d = decisions(&p, 3, |_| max - MS, 1);
    assert_eq!(d, [RetryDecision::GiveUp(StopReason::MaxElapsed)]);
    // Elapsed 14 min: the early intervals still fit.
    let d = decisions(&p, 3, |_| 14 * 60 * S, 5);
    assert!(d.iter().all(|d| d.delay_nanos().is_some()));
    // Running the policy on a simulated clock ends after 15 min, never later.
    let mut rng = XorShiftRng::seed_from_u64(4);
    let mut st = RetryState::new();
    let mut now = 0u64;
    loop {
        match st.on_failure(&p, now, &mut rng) {
            RetryDecision::Retry { delay_ns } => now += delay_ns,
            RetryDecision::GiveUp(r) => {
                assert_eq!(r, StopReason::MaxElapsed);
                break;
            }
        }
    }
    assert!(now <= max && now > 13 * 60 * S, "stopped at {now}");
}

#[test]
fn grpc_retry_policy() {
    let p = presets::grpc_retry(
        4,
        Duration::from_millis(100),
        Duration::from_secs(1),
        Ratio::TWO,
    )
    .unwrap();
    // Bases 0.1, 0.2, 0.4 s, each x U(0.8, 1.2); four attempts = three retries.
    check_ranges(
        &p,
        &[
            (80 * MS, 120 * MS),
            (160 * MS, 240 * MS),
            (320 * MS, 480 * MS),
        ],
    );
    let d = decisions(&p, 1, |_| 0, 4);
    assert_eq!(d[3], RetryDecision::GiveUp(StopReason::MaxAttempts));

    // maxAttempts above 5 is treated as 5: four retries, the last capped at maxBackoff.
    let p = presets::grpc_retry(
        100,
        Duration::from_millis(100),
        Duration::from_millis(500),
        Ratio::from_thousandths(3_000),
    )
    .unwrap();
    assert_eq!(p.stop().max_attempts(), presets::GRPC_MAX_ATTEMPTS_CAP);
    check_ranges(
        &p,
        &[
            (80 * MS, 120 * MS),
            (240 * MS, 360 * MS),
            (400 * MS, 600 * MS),
            (400 * MS, 600 * MS),
        ],
    );
    let d = decisions(&p, 2, |_| 0, 5);
    assert_eq!(d[4], RetryDecision::GiveUp(StopReason::MaxAttempts));

    // gRPC's validation: maxAttempts >= 2, backoffs and multiplier > 0.
    let ok = Duration::from_millis(100);
    assert!(presets::grpc_retry(1, ok, ok, Ratio::TWO).is_err());
    assert!(presets::grpc_retry(2, Duration::ZERO, ok, Ratio::TWO).is_err());
    assert!(presets::grpc_retry(2, ok, ok, Ratio::ZERO).is_err());
    assert!(presets::grpc_retry(2, ok, Duration::from_millis(10), Ratio::TWO).is_err());
    assert!(presets::grpc_retry(2, ok, ok, Ratio::TWO).is_ok());
}

#[test]
fn celery_defaults_full_jitter_three_retries() {
    let p = presets::CELERY_DEFAULT;
    // countdown = randrange(min(600, 1 * 2**retries) + 1): [0, 1], [0, 2], [0, 4] s.
    check_ranges(&p, &[(0, S), (0, 2 * S), (0, 4 * S)]);
    let d = decisions(&p, 1, |_| 0, 4);
    assert_eq!(d[3], RetryDecision::GiveUp(StopReason::MaxAttempts));
}

#[test]
fn celery_backoff_without_jitter_caps_at_retry_backoff_max() {
    let p = presets::celery(3, 600, false, 12).unwrap();
    let secs: Vec<u64> = decisions(&p, 1, |_| 0, 13)
        .iter()
        .map(|d| d.delay_nanos().map_or(u64::MAX, |ns| ns / S))
        .collect();
    assert_eq!(
        secs,
        [3, 6, 12, 24, 48, 96, 192, 384, 600, 600, 600, 600, u64::MAX]
    );
    // A factor above the maximum is capped from the first retry, as min() does.
    assert_eq!(
        presets::celery(1_000, 600, false, 1)
            .unwrap()
            .schedule()
            .base_after_nanos(1),
        600 * S
    );
}

#[test]
fn apue_connect_retry_sleeps_1_to_64_then_gives_up() {
    let p = presets::APUE_CONNECT_RETRY;
    let d = decisions(&p, 1, |_| 0, 8);
    let sleeps: Vec<u64> = d
        .iter()
        .filter_map(|d| d.delay_nanos())
        .map(|ns| ns / S)
        .collect();
    assert_eq!(sleeps, [1, 2, 4, 8, 16, 32, 64]);
    assert_eq!(d[7], RetryDecision::GiveUp(StopReason::MaxAttempts));
    assert_eq!(sleeps.iter().sum::<u64>(), 127);
    // The book's loop, run as written: the same sleeps, and 8 connect attempts.
    let (mut book_sleeps, mut attempts) = (Vec::new(), 0);
    const MAXSLEEP: u64 = 128;
    let mut numsec = 1;
    while numsec <= MAXSLEEP {
        attempts += 1; // connect() fails
        if numsec <= MAXSLEEP / 2 {
            book_sleeps.push(numsec);
        }
        numsec <<= 1;
    }
    assert_eq!((book_sleeps, attempts), (sleeps, p.stop().max_attempts()));
}

#[test]
fn aws_full_equal_and_decorrelated_jitter() {
    let base = Duration::from_millis(10);
    let cap = Duration::from_millis(100);
    let full = presets::aws_full_jitter(10, base, cap).unwrap();
    check_ranges(
        &full,
        &[
            (0, 10 * MS),
            (0, 20 * MS),
            (0, 40 * MS),
            (0, 80 * MS),
            (0, 100 * MS),
        ],
    );
    let equal = presets::aws_equal_jitter(10, base, cap).unwrap();
    check_ranges(
        &equal,
        &[
            (5 * MS, 10 * MS),
            (10 * MS, 20 * MS),
            (20 * MS, 40 * MS),
            (40 * MS, 80 * MS),
            (50 * MS, 100 * MS),
        ],
    );
    let deco = presets::aws_decorrelated_jitter(10, base, cap).unwrap();
    // sleep = min(cap, U(base, 3 sleep)), sleep starting at base: first U(10, 30) ms.
    check_ranges(&deco, &[(10 * MS, 30 * MS)]);
    assert!(presets::aws_full_jitter(10, cap, base).is_err());
}

#[test]
fn aws_presets_stop_after_max_attempts_and_reject_bad_parameters() {
    let (base, cap) = (Duration::from_millis(10), Duration::from_millis(100));
    for p in [
        presets::aws_full_jitter(presets::AWS_SDK_MAX_ATTEMPTS, base, cap).unwrap(),
        presets::aws_equal_jitter(presets::AWS_SDK_MAX_ATTEMPTS, base, cap).unwrap(),
        presets::aws_decorrelated_jitter(presets::AWS_SDK_MAX_ATTEMPTS, base, cap).unwrap(),
    ] {
        let d = decisions(&p, 1, |_| 0, 3);
        assert!(d[0].delay_nanos().is_some() && d[1].delay_nanos().is_some());
        assert_eq!(d[2], RetryDecision::GiveUp(StopReason::MaxAttempts));
    }
    type Preset = fn(u32, Duration, Duration) -> Result<Policy, backoff_core::ConfigError>;
    let all: [Preset; 3] = [
        presets::aws_full_jitter,
        presets::aws_equal_jitter,
        presets::aws_decorrelated_jitter,
    ];
    for f in all {
        assert_eq!(
            f(0, base, cap).unwrap_err().kind(),
            ConfigErrorKind::ZeroAttemptLimit
        );
        assert_eq!(
            f(3, Duration::ZERO, cap).unwrap_err().kind(),
            ConfigErrorKind::OutOfRange
        );
    }
}

#[test]
fn google_cloud_two_to_the_n_plus_random_ms_capped() {
    let p = presets::google_cloud(u32::MAX, Duration::from_secs(32)).unwrap();
    // 1 s + U(0, 1000 ms), 2 s + ..., 16 s + ..., then min(32 + r, 32) = 32 s exactly.
    check_ranges(
        &p,
        &[
            (S, 2 * S),
            (2 * S, 3 * S),
            (4 * S, 5 * S),
            (8 * S, 9 * S),
            (16 * S, 17 * S),
        ],
    );
    let d = decisions(&p, 1, |_| 0, 12);
    assert!(
        d[5..]
            .iter()
            .all(|d| *d == RetryDecision::Retry { delay_ns: 32 * S })
    );
    // With an attempt limit it stops; zero attempts are rejected.
    let p = presets::google_cloud(6, Duration::from_secs(64)).unwrap();
    let d = decisions(&p, 1, |_| 0, 6);
    assert_eq!(d[4].delay_nanos().map(|ns| ns / S), Some(16));
    assert_eq!(d[5], RetryDecision::GiveUp(StopReason::MaxAttempts));
    assert_eq!(
        presets::google_cloud(0, Duration::from_secs(32))
            .unwrap_err()
            .kind(),
        ConfigErrorKind::ZeroAttemptLimit
    );
}

#[test]
fn grpc_connection_backoff_first_delay_exact_then_jittered() {
    let p = presets::GRPC_CONNECTION_BACKOFF;
    // INITIAL_BACKOFF exactly, then 1.6^n s ± 20 %, capped at 120 s ± 20 %, forever.
    let mut ranges = vec![(S, S)];
    let mut backoff = S as f64;
    for _ in 0..12 {
        backoff = (backoff * 1.6).min(120.0 * S as f64);
        ranges.push((
            (backoff * 0.8).ceil() as u64,
            (backoff * 1.2).floor() as u64,
        ));
    }
    check_ranges(&p, &ranges);
    // Never gives up.
    let d = decisions(&p, 3, |i| u64::from(i) * 120 * S, 1_000);
    assert!(d.iter().all(|d| d.delay_nanos().is_some()));
    // The first delay takes no randomness: seeds cannot change it.
    for seed in 0..50 {
        assert_eq!(decisions(&p, seed, |_| 0, 1)[0].delay_nanos(), Some(S));
    }
}

#[test]
fn celery_rejects_a_zero_factor() {
    assert_eq!(
        presets::celery(0, 600, true, 3).unwrap_err().kind(),
        ConfigErrorKind::OutOfRange
    );
}
