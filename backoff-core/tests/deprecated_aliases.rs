//! The items renamed in 0.2 still work under their old names, with their old
//! signatures and results, so that 0.1 callers keep compiling (with a deprecation
//! warning naming the replacement).
#![allow(deprecated)]

use core::time::Duration;

use backoff_core::{
    BebConfig, Decision, Fraction, Jitter, Policy, Ratio, RatioBudget, RetryState, Schedule,
    SlotTime, TokenBudget, presets, theory,
};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

#[test]
fn beb_slot_and_theory_aliases() {
    let beb = BebConfig::IEEE_802_3;
    assert_eq!(Decision::Retry { slots: 5 }.slots(), Some(5));
    assert_eq!(Decision::Discard.slots(), None);
    let slot = SlotTime::ETHERNET_10M;
    assert_eq!(slot.backoff_nanos(7), slot.times_nanos(7));
    assert_eq!(
        slot.backoff_duration(u32::MAX),
        slot.times(u64::from(u32::MAX))
    );
    let worst: u128 = theory::worst_case_total_backoff_slots(&beb);
    assert_eq!(worst, 7151);
    let expected_total: u128 = theory::expected_total_backoff_half_slots(&beb);
    assert_eq!(expected_total, 7151);
    for c in 0..20 {
        let e = theory::expected_backoff(&beb, c);
        assert_eq!(
            theory::expected_backoff_half_slots(&beb, c),
            2 * e.floor() + u64::from(e.has_half())
        );
    }
}

#[test]
fn policy_aliases() {
    let s = Schedule::exponential(
        Duration::from_millis(100),
        Ratio::TWO,
        Duration::from_secs(1),
    )
    .unwrap();
    for n in [0, 1, 5, u32::MAX - 1] {
        assert_eq!(s.base_nanos(n), s.base_after_nanos(n + 1));
        assert_eq!(s.base(n), s.base_after(n + 1));
    }
    assert_eq!(presets::cenkalti(), presets::CENKALTI);
    assert_eq!(presets::apue_connect_retry(), presets::APUE_CONNECT_RETRY);
    let mut a = XorShiftRng::seed_from_u64(4);
    let mut b = XorShiftRng::seed_from_u64(4);
    let j = Jitter::Factor(Fraction::HALF);
    assert_eq!(
        j.apply(1_000, 0, &s, &mut a),
        j.apply_nanos(1_000, 0, &s, &mut b)
    );
    let mut st = RetryState::new();
    st.on_failure(&Policy::new(s), 0, &mut a);
    assert_eq!(st.attempts(), st.failures());
}

#[test]
fn proportional_ratio_and_attempt_timeout_aliases() {
    let s = Schedule::constant_nanos(1_000);
    let mut a = XorShiftRng::seed_from_u64(5);
    let mut b = XorShiftRng::seed_from_u64(5);
    // The old variant draws as the new one for a factor up to one ...
    assert_eq!(
        Jitter::Proportional(Ratio::HALF).apply_nanos(1_000, 0, &s, &mut a),
        Jitter::Factor(Fraction::HALF).apply_nanos(1_000, 0, &s, &mut b)
    );
    // ... and clamps a factor above one to one, as 0.1 did.
    for _ in 0..100 {
        assert!(Jitter::Proportional(Ratio::integer(3)).apply_nanos(1_000, 0, &s, &mut a) <= 2_000);
    }
    let d = backoff_core::Deadline::at(10_000);
    assert_eq!(
        d.attempt_timeout(5_000, 0, 60_000),
        d.attempt_timeout_nanos(5_000, 0, 60_000)
    );
    assert_eq!(d.attempt_timeout(5_000, 0, 0), None);
}

#[test]
fn budget_aliases() {
    let mut t = TokenBudget::new(10, 100).unwrap();
    assert_eq!(
        t,
        TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap()
    );
    assert!(TokenBudget::new(10, 0).is_err());
    for _ in 0..4 {
        assert!(t.on_failure());
    }
    assert!(!t.on_failure());
    t.on_success();
    assert_eq!(t.tokens_milli(), 5_100);
    let mut r = RatioBudget::new(Ratio::from_percent(10), 1, 10).unwrap();
    assert_eq!(r.balance_milli(), 1_000);
    assert!(r.try_retry(0));
    // The old query ignores the refill since the last call; the new one does not.
    assert_eq!(r.balance_milli(), 0);
    assert_eq!(r.balance_milli_at(500_000_000), 500);
}
