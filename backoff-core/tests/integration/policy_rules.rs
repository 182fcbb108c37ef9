//! Schedules, stop rules and the policy / state split, with exact expected values.

use core::time::Duration;

use backoff_core::{
    ConfigErrorKind, Jitter, Policy, Ratio, RetryDecision, RetryState, Schedule, Stop, StopReason,
};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

#[test]
fn multipliers_as_exact_ratios() {
    let ms = |s: Schedule| {
        (0..6)
            .map(|n| s.base_after_nanos(n + 1))
            .collect::<Vec<_>>()
    };
    let s = Schedule::exponential_nanos(1_000, Ratio::TWO, u64::MAX).unwrap();
    assert_eq!(ms(s), [1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
    let s = Schedule::exponential_nanos(1_000, Ratio::EIGHT_FIFTHS, u64::MAX).unwrap();
    assert_eq!(ms(s), [1_000, 1_600, 2_560, 4_096, 6_553, 10_485]); // floor of 1.6^n · 1000
    let s = Schedule::exponential_nanos(1_000_000, Ratio::E, u64::MAX).unwrap();
    // e ≈ 271828/100000: floor(1e6 · 2.71828^n), exact rational arithmetic
    assert_eq!(
        ms(s),
        [
            1_000_000,
            2_718_280,
            7_389_046,
            20_085_496,
            54_598_003,
            148_412_659
        ]
    );
    // Small ticks do not get stuck: 1 tick · 1.5^n = 1, 1.5, 2.25, 3.375, 5.06, 7.59
    let s = Schedule::exponential_nanos(1, Ratio::THREE_HALVES, u64::MAX).unwrap();
    assert_eq!(ms(s), [1, 1, 2, 3, 5, 7]);
    assert_eq!(s.base_after_nanos(101), 406_561_177_535_215_237); // floor(1.5^100)
}

#[test]
fn saturates_for_any_number_of_attempts() {
    for m in [
        Ratio::TWO,
        Ratio::E,
        Ratio::integer(u32::MAX),
        Ratio::from_thousandths(1_001),
    ] {
        let s = Schedule::exponential_nanos(1, m, u64::MAX).unwrap();
        assert_eq!(s.base_after_nanos(u32::MAX), u64::MAX, "{m:?}");
        let s =
            Schedule::exponential(Duration::from_millis(1), m, Duration::from_secs(30)).unwrap();
        assert_eq!(s.base_after(u32::MAX), Duration::from_secs(30));
    }
    // A multiplier just above one grows slowly but surely.
    let s = Schedule::exponential_nanos(1_000_000_000, Ratio::from_thousandths(1_001), u64::MAX)
        .unwrap();
    let b = s.base_after_nanos(1001) as f64 / 1e9; // 1.001^1000 = 2.7169
    assert!((b - 2.716_923_932).abs() < 1e-6, "{b}");
    // Multiplier 0: zero after the first; below one: shrinks to zero.
    let s = Schedule::exponential_nanos(5_000, Ratio::ZERO, 5_000).unwrap();
    assert_eq!(
        (
            s.base_after_nanos(1),
            s.base_after_nanos(2),
            s.base_after_nanos(u32::MAX)
        ),
        (5_000, 0, 0)
    );
    let s = Schedule::exponential_nanos(u64::MAX, Ratio::HALF, u64::MAX).unwrap();
    assert_eq!(
        (
            s.base_after_nanos(2),
            s.base_after_nanos(65),
            s.base_after_nanos(u32::MAX)
        ),
        (u64::MAX / 2, 0, 0)
    );
}

#[test]
fn bad_parameters_are_rejected_with_a_kind() {
    assert_eq!(
        Ratio::new(3, 0).unwrap_err().kind(),
        ConfigErrorKind::OutOfRange
    );
    assert_eq!(
        Schedule::exponential_nanos(10, Ratio::TWO, 9)
            .unwrap_err()
            .kind(),
        ConfigErrorKind::OutOfRange
    );
    assert_eq!(
        Stop::NEVER.with_max_attempts(0).unwrap_err().kind(),
        ConfigErrorKind::ZeroAttemptLimit
    );
    assert_eq!(Ratio::new(6, 4).unwrap(), Ratio::THREE_HALVES);
}

#[test]
fn max_attempts_counts_the_first_attempt() {
    let p = Policy::new(Schedule::constant_nanos(10))
        .with_stop(Stop::NEVER.with_max_attempts(3).unwrap());
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut st = RetryState::new();
    let d: Vec<_> = (0..4).map(|_| st.on_failure(&p, 0, &mut rng)).collect();
    assert_eq!(
        d,
        [
            RetryDecision::Retry { delay_ns: 10 },
            RetryDecision::Retry { delay_ns: 10 },
            RetryDecision::GiveUp(StopReason::MaxAttempts),
            RetryDecision::GiveUp(StopReason::MaxAttempts),
        ]
    );
    // max_retries(2) is the same rule.
    assert_eq!(
        Stop::NEVER.with_max_retries(2),
        Stop::NEVER.with_max_attempts(3).unwrap()
    );
    assert_eq!(
        Stop::NEVER.with_max_retries(u32::MAX).max_attempts(),
        u32::MAX
    );
    // max_attempts 1: never retry.
    let p = p.with_stop(Stop::NEVER.with_max_attempts(1).unwrap());
    assert_eq!(
        p.decide(1, 0, 0, &mut rng),
        RetryDecision::GiveUp(StopReason::MaxAttempts)
    );
}

#[test]
fn giving_up_on_attempts_does_not_step_the_rng() {
    let p = Policy::new(Schedule::constant_nanos(1_000))
        .with_jitter(Jitter::Full)
        .with_stop(Stop::NEVER.with_max_attempts(2).unwrap());
    let mut a = XorShiftRng::seed_from_u64(3);
    let b = a.clone();
    assert!(p.decide(2, 0, 0, &mut a).delay_nanos().is_none());
    let (mut a, mut b) = (a, b);
    assert_eq!(a.next_u64(), b.next_u64());
}

#[test]
fn max_delay_and_max_elapsed() {
    let s = Schedule::exponential_nanos(100, Ratio::TWO, u64::MAX).unwrap();
    let p = Policy::new(s).with_stop(Stop::NEVER.with_max_delay_nanos(800));
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut st = RetryState::new();
    let d: Vec<_> = (0..5)
        .map(|_| st.on_failure(&p, 0, &mut rng).delay_nanos())
        .collect();
    assert_eq!(d, [Some(100), Some(200), Some(400), Some(800), None]);

    let p = Policy::new(s).with_stop(Stop::NEVER.with_max_elapsed_nanos(1_000));
    assert_eq!(
        p.decide(1, 0, 900, &mut rng),
        RetryDecision::Retry { delay_ns: 100 }
    );
    assert_eq!(
        p.decide(1, 0, 901, &mut rng),
        RetryDecision::GiveUp(StopReason::MaxElapsed)
    );
    assert_eq!(
        p.decide(1, 0, u64::MAX, &mut rng),
        RetryDecision::GiveUp(StopReason::MaxElapsed)
    );
}

#[test]
fn ceiling_applies_after_jitter() {
    let s = Schedule::constant_nanos(1_000);
    let p = Policy::new(s)
        .with_jitter(Jitter::Additive { max_ns: 1_000 })
        .with_ceiling_nanos(1_500);
    let mut rng = XorShiftRng::seed_from_u64(8);
    let mut capped = 0;
    for _ in 0..1_000 {
        let d = p.decide(1, 0, 0, &mut rng).delay_nanos().unwrap();
        assert!((1_000..=1_500).contains(&d));
        capped += usize::from(d == 1_500);
    }
    // P(U(0, 1000) >= 500) = 501/1001: about half are capped.
    assert!((430..=570).contains(&capped), "{capped}");
}

#[test]
fn sub_millisecond_resolution_is_kept() {
    let s = Schedule::exponential(
        Duration::from_nanos(1_234_567),
        Ratio::TWO,
        Duration::from_secs(1),
    )
    .unwrap();
    let p = Policy::new(s);
    let mut rng = XorShiftRng::seed_from_u64(1);
    assert_eq!(
        p.decide(2, 0, 0, &mut rng).delay(),
        Some(Duration::from_nanos(2_469_134))
    );
}

#[test]
fn policy_and_state_are_small_copy_values() {
    fn is_copy<T: Copy>() {}
    is_copy::<Policy>();
    is_copy::<RetryState>();
    assert_eq!(core::mem::size_of::<RetryState>(), 16);
    assert!(
        core::mem::size_of::<Policy>() <= 80,
        "{}",
        core::mem::size_of::<Policy>()
    );
}

#[test]
fn state_resets_and_remembers_the_previous_delay() {
    let p = Policy::new(Schedule::exponential_nanos(10, Ratio::TWO, 1 << 20).unwrap());
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut st = RetryState::new();
    st.on_failure(&p, 0, &mut rng);
    st.on_failure(&p, 0, &mut rng);
    assert_eq!((st.failures(), st.prev_delay_nanos()), (2, 20));
    st.reset();
    assert_eq!(st, RetryState::new());
    assert_eq!(
        st.on_failure(&p, 0, &mut rng),
        RetryDecision::Retry { delay_ns: 10 }
    );
}
