//! Property tests: every public function of the BEB core called with arbitrary
//! parameters and inputs neither panics nor breaks its invariants. The seed of the
//! property-test generator is fixed, so every run tries the same cases.

use core::time::Duration;

use crate::beb_support::{CountingRng, half_slots, rng};
use backoff_core::uniform::{
    uniform_below, uniform_below_u64, uniform_inclusive_u64, uniform_pow2,
};
use backoff_core::{BebConfig, ConfigErrorKind, Decision, FrameBackoff, SlotTime, theory};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// 512 cases per property: each is microseconds in a debug build, and the whole file
/// stays well under a second or two.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        rng_seed: RngSeed::Fixed(0xbeb0_0802_0003),
        ..ProptestConfig::default()
    }
}

/// Any valid rule, biased toward the edges (limits 0, 32, attempts 1, u32::MAX).
fn any_config() -> impl Strategy<Value = BebConfig> {
    let limit = prop_oneof![Just(0u8), Just(10), Just(32), 0..=32u8];
    let attempts = prop_oneof![
        Just(1u32),
        Just(16),
        Just(u32::MAX),
        1..=64u32,
        1..=u32::MAX
    ];
    (limit, attempts).prop_map(|(l, a)| BebConfig::new(l, a).unwrap())
}

/// Any collision count, biased toward the small ones where the window grows.
fn any_collisions() -> impl Strategy<Value = u32> {
    prop_oneof![0..=40u32, any::<u32>(), Just(u32::MAX)]
}

/// What a frame does next: collide, or go out (reset).
#[derive(Clone, Copy, Debug)]
enum Event {
    Collide,
    Reset,
}

fn events() -> impl Strategy<Value = Vec<Event>> {
    // Mostly collisions, so that long runs reach and pass the attempt limit.
    let event = prop_oneof![15 => Just(Event::Collide), 1 => Just(Event::Reset)];
    proptest::collection::vec(event, 0..400)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn new_accepts_exactly_the_valid_limits(limit in any::<u8>(), attempts in any::<u32>()) {
        match BebConfig::new(limit, attempts) {
            Ok(c) => {
                prop_assert!(limit <= 32 && attempts >= 1);
                prop_assert_eq!((c.backoff_limit(), c.attempt_limit()), (limit, attempts));
            }
            Err(e) if limit > 32 => prop_assert_eq!(e.kind(), ConfigErrorKind::BackoffLimitTooLarge),
            Err(e) => {
                prop_assert_eq!(attempts, 0);
                prop_assert_eq!(e.kind(), ConfigErrorKind::ZeroAttemptLimit);
            }
        }
    }

    #[test]
    fn decide_discards_iff_the_attempts_are_spent(
        beb in any_config(), n in any_collisions(), seed in any::<u64>()
    ) {
        let mut r = CountingRng::new(rng(seed));
        let k = n.min(u32::from(beb.backoff_limit()));
        prop_assert_eq!(u32::from(beb.exponent(n)), k);
        prop_assert_eq!(beb.window(n), 1u64 << k);
        prop_assert_eq!(beb.is_excessive(n), n >= beb.attempt_limit());
        match beb.decide(n, &mut r) {
            Decision::Retry { slots } => {
                prop_assert!(n < beb.attempt_limit());
                prop_assert!(u64::from(slots) < beb.window(n));
                // One word per draw, none for an empty window.
                prop_assert_eq!(r.steps(), u64::from(k > 0));
            }
            Decision::Discard => {
                prop_assert!(n >= beb.attempt_limit());
                prop_assert_eq!(r.steps(), 0);
            }
        }
    }

    #[test]
    fn frame_backoff_follows_a_model_over_long_sequences(
        beb in any_config(), script in events(), seed in any::<u64>()
    ) {
        let mut r = rng(seed);
        let mut frame = FrameBackoff::new(beb);
        let mut collisions = 0u32; // the model
        for event in script {
            match event {
                Event::Reset => {
                    frame.reset();
                    collisions = 0;
                }
                Event::Collide => {
                    collisions += 1;
                    let d = frame.on_collision(&mut r);
                    prop_assert_eq!(d == Decision::Discard, collisions >= beb.attempt_limit());
                    if let Decision::Retry { slots } = d {
                        let k = collisions.min(u32::from(beb.backoff_limit()));
                        prop_assert!(u64::from(slots) < 1u64 << k);
                    }
                }
            }
            prop_assert_eq!(frame.collisions(), collisions);
            prop_assert_eq!(frame.attempt(), collisions + 1);
            prop_assert_eq!(frame.is_discarded(), collisions >= beb.attempt_limit());
            prop_assert_eq!(frame.config(), beb);
        }
    }

    #[test]
    fn uniform_draws_stay_in_range(
        seed in any::<u64>(), k in any::<u8>(), n in any::<u32>(), n64 in any::<u64>(),
        lo in any::<u64>(), hi in any::<u64>(),
    ) {
        let mut r = CountingRng::new(rng(seed));
        let x = uniform_pow2(&mut r, k);
        prop_assert!(u64::from(x) < 1u64 << k.min(32));
        prop_assert_eq!(r.steps(), u64::from(k > 0));

        let y = uniform_below(&mut r, n);
        prop_assert!(y < n.max(1));
        let z = uniform_below_u64(&mut r, n64);
        prop_assert!(z < n64.max(1));
        let w = uniform_inclusive_u64(&mut r, lo, hi);
        prop_assert!(lo.min(hi) <= w && w <= lo.max(hi));
    }

    #[test]
    fn uniform_draws_with_small_bounds(seed in any::<u64>(), n in 0..=3u32, lo in any::<u64>()) {
        // The degenerate ranges: [0, 0) and [0, 1) are 0, [lo, lo] is lo.
        let mut r = CountingRng::new(rng(seed));
        prop_assert!(uniform_below(&mut r, n) < n.max(1));
        prop_assert!(uniform_below_u64(&mut r, u64::from(n)) < u64::from(n.max(1)));
        prop_assert_eq!(uniform_inclusive_u64(&mut r, lo, lo), lo);
        if n == 0 {
            // The empty ranges consumed nothing; [lo, lo] is a range of one, which
            // takes one word (a range of one never rejects).
            prop_assert_eq!(r.steps(), 1);
        }
    }

    #[test]
    fn slot_time_constructors_and_conversions(
        nanos in any::<u64>(), bits in any::<u32>(), rate in any::<u64>(), slots in any::<u32>()
    ) {
        match SlotTime::from_nanos(nanos) {
            Ok(s) => prop_assert_eq!(s.as_nanos(), nanos),
            Err(e) => {
                prop_assert_eq!(nanos, 0);
                prop_assert_eq!(e.kind(), ConfigErrorKind::ZeroSlotTime);
            }
        }
        match SlotTime::from_bit_times(bits, rate) {
            Ok(s) => {
                // Rounded up: never shorter, less than a nanosecond longer.
                let exact = u128::from(bits) * 1_000_000_000;
                let ns = u128::from(s.as_nanos());
                prop_assert!(ns * u128::from(rate) >= exact);
                prop_assert!((ns - 1) * u128::from(rate) < exact);
            }
            Err(e) => {
                prop_assert!(bits == 0 || rate == 0);
                prop_assert_eq!(e.kind(), ConfigErrorKind::ZeroSlotTime);
            }
        }
        let slot = SlotTime::from_nanos(nanos.max(1)).unwrap();
        let exact = u128::from(slot.as_nanos()) * u128::from(slots);
        prop_assert_eq!(slot.times_nanos(u64::from(slots)), u64::try_from(exact).unwrap_or(u64::MAX));
        let d = slot.times(u64::from(slots));
        if exact <= Duration::MAX.as_nanos() {
            prop_assert_eq!(d.as_nanos(), exact);
        } else {
            prop_assert_eq!(d, Duration::MAX);
        }
        prop_assert_eq!(slot.as_duration().as_nanos(), u128::from(slot.as_nanos()));
    }

    #[test]
    fn theory_is_total_and_consistent(beb in any_config(), c in any_collisions()) {
        let k = c.min(u32::from(beb.backoff_limit()));
        prop_assert_eq!(half_slots(theory::expected_backoff(&beb, c)), (1u128 << k) - 1);
        prop_assert_eq!(u128::from(theory::backoff_variance_twelfths(&beb, c)), (1u128 << (2 * k)) - 1);
        let worst = u128::from(theory::worst_case_total_backoff(&beb).floor());
        prop_assert_eq!(half_slots(theory::expected_total_backoff(&beb)), worst);
        // Below the bound of attempts · (window - 1), and above the growing part alone.
        let cap = u128::from(beb.attempt_limit() - 1) * ((1u128 << beb.backoff_limit()) - 1);
        prop_assert!(worst <= cap);
        // One attempt more adds exactly the backoff after the current last collision.
        if let Some(more) = beb.attempt_limit().checked_add(1) {
            let next = BebConfig::new(beb.backoff_limit(), more).unwrap();
            let a = beb.attempt_limit();
            prop_assert_eq!(
                u128::from(theory::worst_case_total_backoff(&next).floor()) - worst,
                (1u128 << a.min(u32::from(beb.backoff_limit()))) - 1
            );
        }
    }
}
