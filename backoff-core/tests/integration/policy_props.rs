//! Property tests: nothing panics or overflows for any parameters (multiplier 0 or
//! huge, attempt counts up to u32::MAX, zero or huge caps), and the documented
//! invariants hold for all of them.

use backoff_core::window::OutcomeWindow;
use backoff_core::{
    BreakerConfig, BreakerState, CircuitBreaker, Deadline, Fraction, Jitter, Policy, Ratio,
    RatioBudget, RetryBreaker, RetryDecision, RetryState, Schedule, Stop, StopReason, TokenBudget,
};
use proptest::prelude::*;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

fn ratio() -> impl Strategy<Value = Ratio> {
    prop_oneof![
        Just(Ratio::ZERO),
        Just(Ratio::ONE),
        Just(Ratio::TWO),
        Just(Ratio::E),
        (0u32..=u32::MAX, 1u32..=u32::MAX).prop_map(|(n, d)| Ratio::new(n, d).unwrap()),
        (0u32..10_000, 1u32..10_000).prop_map(|(n, d)| Ratio::new(n, d).unwrap()),
    ]
}

fn nanos() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(u64::MAX),
        0u64..=u64::MAX,
        0u64..1_000_000_000_000
    ]
}

fn attempts() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        Just(1),
        Just(u32::MAX),
        Just(u32::MAX - 1),
        0u32..=u32::MAX,
        0u32..200
    ]
}

fn jitter() -> impl Strategy<Value = Jitter> {
    prop_oneof![
        Just(Jitter::None),
        Just(Jitter::Full),
        Just(Jitter::Equal),
        Just(Jitter::Decorrelated),
        ratio().prop_map(|r| Jitter::Factor(Fraction::from_ratio(r).unwrap_or(Fraction::ONE))),
        nanos().prop_map(|max_ns| Jitter::Additive { max_ns }),
        ratio().prop_map(Jitter::Normal),
    ]
}

fn schedule() -> impl Strategy<Value = Schedule> {
    (nanos(), ratio(), nanos())
        .prop_map(|(a, m, b)| Schedule::exponential_nanos(a.min(b), m, a.max(b)).unwrap())
}

fn stop() -> impl Strategy<Value = Stop> {
    (attempts(), nanos(), nanos()).prop_map(|(a, d, e)| {
        Stop::NEVER
            .with_max_attempts(a.max(1))
            .unwrap()
            .with_max_delay_nanos(d)
            .with_max_elapsed_nanos(e)
    })
}

fn policy() -> impl Strategy<Value = Policy> {
    (schedule(), jitter(), stop(), nanos()).prop_map(|(s, j, st, c)| {
        Policy::new(s)
            .with_jitter(j)
            .with_stop(st)
            .with_ceiling_nanos(c)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn schedule_is_capped_and_starts_at_initial(s in schedule(), n in attempts()) {
        let b = s.base_after_nanos(n.saturating_add(1));
        prop_assert!(b <= s.max_nanos());
        prop_assert_eq!(s.base_after_nanos(1), s.initial_nanos());
    }

    #[test]
    fn schedules_are_monotone(s in schedule(), n in attempts()) {
        // The same schedule with the multiplier m and with 1/m (1 for m = 0).
        let n = n.min(u32::MAX - 1);
        let m = s.multiplier();
        let inv = Ratio::new(m.denom(), m.numer()).unwrap_or(Ratio::ONE);
        let (up, down) = if m.numer() >= m.denom() { (m, inv) } else { (inv, m) };
        let grow = Schedule::exponential_nanos(s.initial_nanos(), up, s.max_nanos()).unwrap();
        let shrink = Schedule::exponential_nanos(s.initial_nanos(), down, s.max_nanos()).unwrap();
        prop_assert!(grow.base_after_nanos(n.saturating_add(1)) <= grow.base_after_nanos(n.saturating_add(2)));
        prop_assert!(shrink.base_after_nanos(n.saturating_add(1)) >= shrink.base_after_nanos(n.saturating_add(2)));
    }

    #[test]
    fn integer_multipliers_are_exact(initial in 0u64..1_000_000, k in 2u32..16, n in 0u32..8) {
        let s = Schedule::exponential_nanos(initial, Ratio::integer(k), u64::MAX).unwrap();
        let exact = u128::from(initial) * u128::from(k).pow(n);
        prop_assert_eq!(u128::from(s.base_after_nanos(n.saturating_add(1))), exact.min(u128::from(u64::MAX)));
    }

    #[test]
    fn ratio_powers_are_the_floor_of_the_exact_value(
        x in nanos(), num in 0u32..1_000, den in 1u32..1_000, n in 0u32..12
    ) {
        // Wherever x · num^n and den^n fit 128 bits the result is floor(x · (num/den)^n).
        let m = Ratio::new(num, den).unwrap();
        let s = Schedule::exponential_nanos(x, m, u64::MAX).unwrap();
        let (np, dp) = (u128::from(m.numer()).pow(n), u128::from(m.denom()).pow(n));
        if let Some(prod) = u128::from(x).checked_mul(np) {
            let exact = (prod / dp).min(u128::from(u64::MAX));
            prop_assert_eq!(u128::from(s.base_after_nanos(n.saturating_add(1))), exact);
        }
    }

    #[test]
    fn decide_never_panics_and_respects_the_rules(
        p in policy(), a in attempts(), prev in nanos(), elapsed in nanos(), seed in any::<u64>()
    ) {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        let st = p.stop();
        match p.decide(a, prev, elapsed, &mut rng) {
            // No failure yet: go now, whatever the rules (as BebConfig::decide(0)).
            RetryDecision::Retry { delay_ns } if a == 0 => prop_assert_eq!(delay_ns, 0),
            RetryDecision::Retry { delay_ns } => {
                prop_assert!(delay_ns <= p.ceiling_nanos());
                prop_assert!(delay_ns <= st.max_delay_nanos());
                prop_assert!(a < st.max_attempts());
                prop_assert!(elapsed.saturating_add(delay_ns) <= st.max_elapsed_nanos());
            }
            RetryDecision::GiveUp(StopReason::MaxAttempts) => {
                prop_assert!(a >= 1 && a >= st.max_attempts());
            }
            RetryDecision::GiveUp(_) => {}
        }
    }

    #[test]
    fn jitter_stays_in_its_range(j in jitter(), s in schedule(), n in attempts(), prev in nanos(), seed in any::<u64>()) {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        let d = s.base_after_nanos(n.saturating_add(1));
        let v = j.apply_nanos(d, prev, &s, &mut rng);
        match j {
            Jitter::None => prop_assert_eq!(v, d),
            Jitter::Full => prop_assert!(v <= d),
            Jitter::Equal => prop_assert!(v >= d - d / 2 && v <= d),
            Jitter::Decorrelated => prop_assert!(v <= s.max_nanos()),
            Jitter::Factor(f) => {
                let spread = f.ratio().mul_floor(d).min(d);
                prop_assert!(v >= d - spread && v <= d.saturating_add(spread));
            }
            Jitter::Additive { max_ns } => prop_assert!(v >= d && v <= d.saturating_add(max_ns)),
            Jitter::Normal(_) => {}
            // `Jitter` is non_exhaustive; `jitter()` draws only the kinds above, and a
            // new kind gets its range here when it joins the strategy.
            _ => {}
        }
    }

    #[test]
    fn retry_state_runs_long_without_overflow(p in policy(), seed in any::<u64>(), steps in 1usize..300) {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        let mut st = RetryState::new();
        let mut elapsed = 0u64;
        for _ in 0..steps {
            match st.on_failure(&p, elapsed, &mut rng) {
                RetryDecision::Retry { delay_ns } => elapsed = elapsed.saturating_add(delay_ns),
                RetryDecision::GiveUp(_) => break,
            }
        }
        prop_assert!(st.failures() as usize <= steps);
    }

    #[test]
    fn ratio_mul_floor_is_floor(r in ratio(), x in nanos()) {
        let exact = u128::from(x) * u128::from(r.numer()) / u128::from(r.denom());
        prop_assert_eq!(u128::from(r.mul_floor(x)), exact.min(u128::from(u64::MAX)));
    }

    #[test]
    fn token_budget_stays_within_zero_and_max(
        max in 1u32..=1_000, ratio in 1u32..=u32::MAX, ops in prop::collection::vec(any::<bool>(), 0..200)
    ) {
        let mut b = TokenBudget::with_ratio(max, Ratio::from_thousandths(ratio)).unwrap();
        for ok in ops {
            b.record(ok);
            prop_assert!(b.tokens_milli() <= u64::from(max) * 1000);
            prop_assert_eq!(b.allows_retry(), b.tokens_milli() * 2 > u64::from(max) * 1000);
        }
    }

    #[test]
    fn ratio_budget_never_grants_more_than_earned(
        pct in 0u32..=100, min in 0u32..50, cap in 1u32..1_000,
        ops in prop::collection::vec((any::<bool>(), 0u64..100_000_000), 0..300)
    ) {
        let mut b = RatioBudget::new(Ratio::from_percent(pct), min, cap).unwrap();
        let (mut now, mut requests, mut retries) = (0u64, 0u64, 0u64);
        for (is_request, dt) in ops {
            now += dt;
            if is_request { b.on_request(now); requests += 1; }
            else if b.try_retry(now) { retries += 1; }
        }
        // initial min(min, cap) + pct % of requests + min per second of elapsed time
        let earned_units = u128::from(min.min(cap)) * 1_000_000_000
            + u128::from(requests) * u128::from(pct) * 10_000_000
            + u128::from(now) * u128::from(min);
        prop_assert!(u128::from(retries) * 1_000_000_000 <= earned_units);
    }

    #[test]
    fn breakers_never_panic(
        threshold in ratio(), min_calls in any::<u32>(), window in nanos(), open in nanos(),
        probes in 1u32..20,
        ops in prop::collection::vec((0u8..3, 0u64..10_000_000_000, any::<bool>()), 0..200)
    ) {
        let cfg = BreakerConfig {
            failure_threshold: threshold, min_calls, window_ns: window, open_ns: open,
            half_open_probes: probes,
        };
        let (Ok(mut cb), Ok(mut rb)) = (
            CircuitBreaker::<8>::new(cfg),
            RetryBreaker::<8>::new(threshold, min_calls, window),
        ) else {
            prop_assert!(window < 8);
            return Ok(());
        };
        let mut now = 0u64;
        for (op, dt, ok) in ops {
            now = now.saturating_add(dt);
            match op {
                0 => { cb.acquire(now); }
                1 => cb.on_result(now, ok),
                _ => { rb.record(now, ok); rb.allows_retry(now); }
            }
            if let BreakerState::HalfOpen { issued, successes, failures } = cb.state() {
                prop_assert!(issued <= probes && successes + failures < probes);
            }
        }
    }

    #[test]
    fn window_counts_match_a_naive_count(
        ops in prop::collection::vec((0u64..3_000_000, any::<bool>()), 0..200)
    ) {
        // 4 buckets of 1 ms; times non-decreasing.
        let mut w = OutcomeWindow::<4>::new(4_000_000).unwrap();
        let mut log = Vec::new();
        let mut now = 0u64;
        for (dt, ok) in ops {
            now += dt;
            w.record(now, ok);
            log.push((now, ok));
            let bucket = now / 1_000_000;
            let in_window = |t: u64| t / 1_000_000 + 4 > bucket;
            let s = log.iter().filter(|(t, ok)| *ok && in_window(*t)).count() as u64;
            let f = log.iter().filter(|(t, ok)| !*ok && in_window(*t)).count() as u64;
            let c = w.counts(now);
            prop_assert_eq!((c.successes, c.failures), (s, f));
        }
    }

    #[test]
    fn deadline_is_total(at in nanos(), now in nanos(), delay in nanos(), attempt in nanos()) {
        let d = Deadline::at(at);
        let ok = d.allows_attempt(now, delay, attempt);
        let end = u128::from(now) + u128::from(delay) + u128::from(attempt);
        prop_assert_eq!(ok, end <= u128::from(at));
        if let Some(t) = d.attempt_timeout_nanos(now, delay, attempt) {
            prop_assert!(t <= attempt && (t > 0 || attempt == 0));
        }
        prop_assert_eq!(d.remaining_nanos(now), at.saturating_sub(now));
    }
}
