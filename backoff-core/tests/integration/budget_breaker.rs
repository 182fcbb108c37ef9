//! Budgets and breakers driven through scripted success / failure / time sequences,
//! with the exact decision expected at every step.

use backoff_core::window::OutcomeWindow;
use backoff_core::{
    BreakerConfig, BreakerState, CircuitBreaker, ConfigErrorKind, Ratio, RatioBudget, RetryBreaker,
    TokenBudget, TtlBudget,
};

const S: u64 = 1_000_000_000;
const MS: u64 = 1_000_000;

// ---- gRPC retry throttling ----------------------------------------------------------

#[test]
fn token_budget_follows_grpc_semantics() {
    // maxTokens 10, tokenRatio 0.1: starts full (10); retries while tokens > 5.
    let mut b = TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap();
    assert_eq!(b.tokens_milli(), 10_000);
    let script: [(bool, bool, u64); 9] = [
        // (success?, retry allowed after it, tokens in thousandths)
        (false, true, 9_000),
        (false, true, 8_000),
        (false, true, 7_000),
        (false, true, 6_000),
        (false, false, 5_000), // 5 is not > 5
        (true, true, 5_100),   // any amount above 5 is enough
        (false, false, 4_100),
        (false, false, 3_100),
        (false, false, 2_100),
    ];
    for (i, (ok, allowed, tokens)) in script.into_iter().enumerate() {
        b.record(ok);
        let a = b.allows_retry();
        assert_eq!((a, b.tokens_milli()), (allowed, tokens), "step {i}");
    }
    // From a fresh bucket: throttled at 5, back on after one success (5.1).
    let mut c = TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap();
    for _ in 0..5 {
        c.record(false);
    }
    assert!(!c.allows_retry());
    c.record(true);
    assert!(c.allows_retry());
    // Never below zero, never above max.
    for _ in 0..100 {
        b.record(false);
    }
    assert_eq!(b.tokens_milli(), 0);
    for _ in 0..1_000 {
        b.record(true);
    }
    assert_eq!(b.tokens_milli(), 10_000);
    assert_eq!(
        TokenBudget::with_ratio(0, Ratio::from_thousandths(100))
            .unwrap_err()
            .kind(),
        ConfigErrorKind::OutOfRange
    );
    // gRFC A6: maxTokens in (0, 1000], tokenRatio > 0 (to the thousandth).
    assert!(TokenBudget::with_ratio(1_000, Ratio::from_thousandths(1)).is_ok());
    for (max, ratio) in [
        (1_001, Ratio::from_thousandths(100)),
        (10, Ratio::ZERO),
        (10, Ratio::new(1, 1_001).unwrap()),
    ] {
        assert_eq!(
            TokenBudget::with_ratio(max, ratio).unwrap_err().kind(),
            ConfigErrorKind::OutOfRange,
            "{max} {ratio:?}"
        );
    }
}

#[test]
fn token_budget_odd_max_threshold_is_exact() {
    // maxTokens 3: threshold 1.5; 2 tokens allow, 1.5 does not, 1.6 does.
    let mut b = TokenBudget::with_ratio(3, Ratio::from_thousandths(100)).unwrap();
    b.record(false);
    assert!(b.allows_retry()); // 2
    b.record(false);
    assert!(!b.allows_retry()); // 1
    for _ in 0..5 {
        b.record(true);
    } // 1.5
    assert_eq!(b.tokens_milli(), 1_500);
    assert!(!b.allows_retry());
    b.record(true); // 1.6
    assert!(b.allows_retry());
}

// ---- retries as a share of requests ----------------------------------------------

/// The check of the two budget semantics: 1000 requests spread over 10 s at
/// 10 %, no minimum allowance, then silence. Finagle (ttl 10 s) allows 0 retries at
/// t = 25 s because every deposit has expired; the never-expiring bank still holds 100.
#[test]
fn ttl_budget_forgets_a_burst_the_ratio_budget_keeps() {
    let mut ttl = TtlBudget::<10>::new(10 * S, 0, Ratio::from_percent(10)).unwrap();
    let mut bank = RatioBudget::new(Ratio::from_percent(10), 0, 1_000).unwrap();
    for i in 0..1_000u64 {
        ttl.on_request(i * 10 * MS);
        bank.on_request(i * 10 * MS);
    }
    // During the burst's window both hold the 100 earned retries.
    assert_eq!(ttl.balance_milli_at(10 * S - 1), 100_000);
    assert_eq!(bank.balance_milli_at(10 * S - 1), 100_000);
    // At t = 25 s: Finagle's answer and the bank's.
    assert_eq!(ttl.balance_milli_at(25 * S), 0);
    assert!(!ttl.try_retry(25 * S));
    assert_eq!(bank.balance_milli_at(25 * S), 100_000);
    let granted = (0..1_000).take_while(|_| bank.try_retry(25 * S)).count();
    assert_eq!(granted, 100);
}

#[test]
fn ttl_budget_reserve_and_expiring_withdrawals() {
    // Finagle's defaults: ttl 10 s, 10 retries/s reserve, 20 % of requests.
    let mut b = TtlBudget::<10>::new(10 * S, 10, Ratio::from_percent(20)).unwrap();
    let granted = (0..1_000).take_while(|_| b.try_retry(0)).count();
    assert_eq!(
        granted, 100,
        "the reserve is min_per_sec · ttl = 100 retries"
    );
    // Requests earn 1 retry per 5 while the withdrawals of t = 0 are still counted.
    for _ in 0..10 {
        b.on_request(2 * S);
    }
    assert_eq!(b.balance_milli_at(2 * S), 2_000);
    assert!(b.try_retry(2 * S) && b.try_retry(2 * S) && !b.try_retry(2 * S));
    // Once the t = 0 bucket drops out (one bucket = 1 s), the reserve is back, less the
    // two retries of t = 2 s, plus the deposits of t = 2 s.
    assert_eq!(b.balance_milli_at(10 * S), 100_000);
    // Everything has expired 10 s after t = 2 s: the reserve alone.
    assert_eq!(b.balance_milli_at(12 * S), 100_000);
    // The queries change nothing.
    assert_eq!(b.balance_milli_at(10 * S), 100_000);
}

#[test]
fn ttl_budget_exact_ratio_and_bad_windows() {
    // A ratio of 1/3: three requests earn exactly one retry, two do not.
    let mut b = TtlBudget::<4>::new(S, 0, Ratio::new(1, 3).unwrap()).unwrap();
    b.on_request(0);
    b.on_request(0);
    assert!(!b.allows_retry_at(0));
    assert_eq!(b.balance_milli_at(0), 666);
    b.on_request(0);
    assert!(b.try_retry(0));
    assert!(!b.try_retry(0));
    assert_eq!(
        TtlBudget::<10>::new(9, 10, Ratio::HALF).unwrap_err().kind(),
        ConfigErrorKind::OutOfRange
    );
    assert_eq!(
        TtlBudget::<0>::new(S, 10, Ratio::HALF).unwrap_err().kind(),
        ConfigErrorKind::OutOfRange
    );
}

#[test]
fn ratio_budget_balance_query_includes_the_refill_and_changes_nothing() {
    let mut b = RatioBudget::new(Ratio::from_percent(10), 2, 10).unwrap();
    assert!(b.try_retry(0) && b.try_retry(0) && !b.try_retry(0));
    assert_eq!(b.balance_milli_at(0), 0);
    assert_eq!(b.balance_milli_at(250 * MS), 500); // 2/s for a quarter second
    assert!(!b.allows_retry_at(250 * MS));
    assert!(b.allows_retry_at(500 * MS));
    let before = b;
    let _ = (b.balance_milli_at(S), b.allows_retry_at(S));
    assert_eq!(b, before);
    assert_eq!(b.balance_milli_at(100 * S), 10_000); // capped at max_tokens
}

#[test]
fn ratio_budget_grants_one_retry_per_ten_requests() {
    let mut b = RatioBudget::new(Ratio::from_percent(10), 0, 1_000).unwrap();
    let mut granted = Vec::new();
    for i in 0..100u64 {
        b.on_request(i * MS);
        if b.try_retry(i * MS) {
            granted.push(i);
        }
    }
    // Requests 10, 20, ... (1-based) complete a whole token.
    let expected: Vec<u64> = (1..=10).map(|k| k * 10 - 1).collect();
    assert_eq!(granted, expected);
}

#[test]
fn ratio_budget_minimum_allowance_for_a_quiet_client() {
    // No requests at all, 2 retries per second allowed; starts with one second's worth.
    let mut b = RatioBudget::new(Ratio::from_percent(10), 2, 5).unwrap();
    assert!(b.try_retry(0));
    assert!(b.try_retry(0));
    assert!(!b.try_retry(0));
    assert!(!b.try_retry(499 * MS)); // 0.998 tokens
    assert!(b.try_retry(500 * MS)); // 1.0
    assert!(!b.try_retry(500 * MS));
    // Ten idle seconds bank at most the cap (5 tokens).
    let t = 11 * S;
    let granted = (0..20).filter(|_| b.try_retry(t)).count();
    assert_eq!(granted, 5);
    // A clock that goes backwards adds nothing and does not panic.
    assert!(!b.try_retry(0));
}

#[test]
fn ratio_budget_bounds_retries_in_a_storm() {
    // 10 %, 1 per second: every request fails and retries as long as allowed, for 60 s
    // of 1000 requests per second. Granted retries <= 1 + 0.1 * requests + 1 * 60.
    let mut b = RatioBudget::new(Ratio::from_percent(10), 1, 1_000).unwrap();
    let (mut requests, mut retries) = (0u64, 0u64);
    for ms in 0..60_000u64 {
        let now = ms * MS;
        b.on_request(now);
        requests += 1;
        while b.try_retry(now) {
            retries += 1;
        }
    }
    let bound = 1 + requests / 10 + 60;
    assert!(retries <= bound, "{retries} > {bound}");
    assert!(retries >= requests / 10, "{retries} < 10 % of {requests}");
    assert_eq!(
        RatioBudget::new(Ratio::ONE, 1, 0).unwrap_err().kind(),
        ConfigErrorKind::OutOfRange
    );
}

// ---- the outcome window -------------------------------------------------------------

#[test]
fn window_slides_bucket_by_bucket() {
    let mut w = OutcomeWindow::<4>::new(4 * S).unwrap(); // 4 buckets of 1 s
    w.record(0, false);
    w.record(S, true);
    w.record(2 * S, true);
    w.record(3 * S + 999 * MS, false);
    let c = w.counts(3 * S + 999 * MS);
    assert_eq!((c.successes, c.failures), (2, 2));
    let c = w.counts(4 * S); // bucket [0, 1 s) has dropped out
    assert_eq!((c.successes, c.failures), (2, 1));
    w.record(4 * S, false); // reuses the first bucket's slot
    let c = w.counts(4 * S);
    assert_eq!((c.successes, c.failures), (2, 2));
    assert_eq!(w.counts(100 * S).total(), 0);
    // An outcome from before what its slot holds is ignored.
    w.record(0, true);
    assert_eq!(w.counts(4 * S).total(), 4);
    assert!(OutcomeWindow::<0>::new(S).is_err());
    assert!(OutcomeWindow::<4>::new(3).is_err());
}

// ---- the retry circuit breaker ------------------------------------------------------

#[test]
fn retry_breaker_switches_retries_off_above_ten_percent_and_back_on() {
    let mut b = RetryBreaker::<10>::new(Ratio::from_percent(10), 20, 10 * S).unwrap();
    // (time ms, outcome, retry allowed after it)
    let mut t = 0u64;
    // 19 successes and 1 failure: 5 %, allowed.
    for _ in 0..19 {
        b.record(t, true);
        t += 10 * MS;
    }
    b.record(t, false);
    assert!(b.allows_retry(t));
    // A burst of failures: allowed up to 10 % exactly, off above it.
    let mut decisions = Vec::new();
    for _ in 0..4 {
        t += 10 * MS;
        b.record(t, false);
        decisions.push(b.allows_retry(t));
    }
    // failures/total: 2/21 (9.5 %), 3/22 (13.6 %), 4/23, 5/24
    assert_eq!(decisions, [true, false, false, false]);
    // Successes bring it back to <= 10 %: 5 failures need 50 calls in all.
    let mut on_at = None;
    for k in 0..100 {
        t += 10 * MS;
        b.record(t, true);
        if b.allows_retry(t) {
            on_at = Some(k + 1);
            break;
        }
    }
    assert_eq!(on_at, Some(26)); // 24 + 26 = 50 calls, 5 failures = 10 %
    // The window forgets: 10 s later the failures are gone.
    assert!(b.allows_retry(t + 10 * S));
    assert_eq!(b.counts(t + 10 * S).total(), 0);
}

#[test]
fn retry_breaker_needs_min_calls() {
    let mut b = RetryBreaker::<10>::new(Ratio::from_percent(10), 5, 10 * S).unwrap();
    for i in 0..4 {
        b.record(i, false);
        assert!(b.allows_retry(i), "only {} calls", i + 1);
    }
    b.record(4, false);
    assert!(!b.allows_retry(4));
}

// ---- the circuit breaker ------------------------------------------------------------

fn breaker(probes: u32) -> CircuitBreaker<10> {
    CircuitBreaker::new(BreakerConfig {
        failure_threshold: Ratio::HALF,
        min_calls: 10,
        window_ns: 10 * S,
        open_ns: 5 * S,
        half_open_probes: probes,
    })
    .unwrap()
}

#[test]
fn circuit_breaker_full_cycle() {
    let mut cb = breaker(3);
    let mut t = 0u64;
    // Nine failures: below min_calls, stays closed.
    for _ in 0..9 {
        assert!(cb.acquire(t));
        cb.on_result(t, false);
        t += MS;
    }
    assert_eq!(cb.state(), BreakerState::Closed);
    // The tenth: 10 calls, 100 % failed -> open until t + 5 s.
    assert!(cb.acquire(t));
    cb.on_result(t, false);
    let until = t + 5 * S;
    assert_eq!(cb.state(), BreakerState::Open { until_ns: until });
    // Refused while open; late results of calls started before are ignored.
    assert!(!cb.acquire(t + S));
    cb.on_result(t + S, true);
    assert!(!cb.acquire(until - 1));
    // Half-open: exactly three probes.
    assert!(cb.acquire(until));
    assert!(cb.acquire(until));
    assert!(cb.acquire(until));
    assert!(!cb.acquire(until));
    assert_eq!(
        cb.state(),
        BreakerState::HalfOpen {
            issued: 3,
            successes: 0,
            failures: 0
        }
    );
    // Two of three fail (67 % >= 50 %): open again from the last result.
    cb.on_result(until + 1, false);
    cb.on_result(until + 2, true);
    cb.on_result(until + 3, false);
    let until2 = until + 3 + 5 * S;
    assert_eq!(cb.state(), BreakerState::Open { until_ns: until2 });
    // Next round: one failure of three (33 %) closes it, with an empty window.
    for _ in 0..3 {
        assert!(cb.acquire(until2));
    }
    cb.on_result(until2, true);
    cb.on_result(until2, false);
    cb.on_result(until2, true);
    assert_eq!(cb.state(), BreakerState::Closed);
    assert_eq!(cb.counts(until2).total(), 0);
}

#[test]
fn circuit_breaker_threshold_is_at_least_and_counts_the_window_only() {
    let mut cb = breaker(1);
    // 5 successes, 4 failures, then a failure: 5/10 = 50 % >= 50 % -> open.
    for _ in 0..5 {
        cb.on_result(0, true);
    }
    for _ in 0..4 {
        cb.on_result(0, false);
    }
    assert_eq!(cb.state(), BreakerState::Closed);
    cb.on_result(0, false);
    assert!(matches!(cb.state(), BreakerState::Open { .. }));

    // Old failures leave the window: 9 failures at t = 0, then 9 successes and a
    // failure 10 s later -> 1 of 10 in the window, stays closed.
    let mut cb = breaker(1);
    for _ in 0..9 {
        cb.on_result(0, false);
    }
    for _ in 0..9 {
        cb.on_result(10 * S, true);
    }
    cb.on_result(10 * S, false);
    assert_eq!(cb.state(), BreakerState::Closed);
}

#[test]
fn circuit_breaker_rejects_bad_config() {
    let mut cfg = BreakerConfig::RESILIENCE4J;
    cfg.half_open_probes = 0;
    assert_eq!(
        CircuitBreaker::<10>::new(cfg).unwrap_err().kind(),
        ConfigErrorKind::OutOfRange
    );
    let mut cfg = BreakerConfig::RESILIENCE4J;
    cfg.window_ns = 5;
    assert!(CircuitBreaker::<10>::new(cfg).is_err());
    assert!(CircuitBreaker::<10>::new(BreakerConfig::RESILIENCE4J).is_ok());
}
