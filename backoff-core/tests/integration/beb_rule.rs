//! The rule of IEEE 802.3 clause 4.2.3.2.5 as `BebConfig::decide` and `FrameBackoff`
//! implement it: the window after each collision, the exact point of discard, reset,
//! the attempt counter, the accepted and rejected parameters, and when the RNG is
//! stepped.

use crate::beb_support::{CountingRng, ScriptedRng, rng};
use backoff_core::ieee802_3::{ATTEMPT_LIMIT, BACKOFF_LIMIT};
use backoff_core::{BebConfig, ConfigError, ConfigErrorKind, Decision, FrameBackoff};

/// Draws per collision count in the range checks: enough that every value of the
/// small windows is hit (checked below), few enough to keep the debug build fast.
const DRAWS: u32 = 4096;

fn slots(d: Decision) -> u32 {
    match d {
        Decision::Retry { slots } => slots,
        Decision::Discard => panic!("unexpected discard"),
    }
}

#[test]
fn ieee_constants_are_the_standards() {
    assert_eq!(BACKOFF_LIMIT, 10);
    assert_eq!(ATTEMPT_LIMIT, 16);
    let beb = BebConfig::IEEE_802_3;
    assert_eq!(beb.backoff_limit(), 10);
    assert_eq!(beb.attempt_limit(), 16);
    assert_eq!(BebConfig::default(), beb);
    assert_eq!(FrameBackoff::default(), FrameBackoff::new(beb));
}

#[test]
fn every_draw_is_inside_the_window_for_n_1_to_16() {
    let beb = BebConfig::IEEE_802_3;
    let mut r = rng(0x5eed_0001);
    for n in 1..=15u32 {
        let k = n.min(10);
        let window = 1u32 << k;
        assert_eq!(u32::from(beb.exponent(n)), k);
        assert_eq!(beb.window(n), u64::from(window));
        let mut max_seen = 0;
        let mut seen = vec![false; window as usize];
        for _ in 0..DRAWS {
            let s = slots(beb.decide(n, &mut r));
            assert!(s < window, "n = {n}: drew {s}, window {window}");
            max_seen = max_seen.max(s);
            seen[s as usize] = true;
        }
        // The draw reaches the top of the window, not merely stays below it: a window
        // one too small would fail here. For window <= 256, 4096 draws miss a given value
        // with probability (1 - 1/256)^4096 < 2e-7, so every value must be seen; for the
        // larger windows the maximum of 4096 draws lies within the top 1 % unless
        // something is off (probability of not: 0.99^4096 < 1e-17).
        if window <= 256 {
            assert!(
                seen.iter().all(|&s| s),
                "n = {n}: a value of the window never drawn"
            );
        } else {
            assert!(max_seen >= window - window / 100, "n = {n}: max {max_seen}");
        }
    }
    // n = 16 and beyond: discard, whatever the RNG.
    for n in [16, 17, 100, 1 << 20, u32::MAX - 1, u32::MAX] {
        assert_eq!(beb.decide(n, &mut r), Decision::Discard, "n = {n}");
    }
}

#[test]
fn the_window_stops_doubling_at_the_backoff_limit_far_beyond_16() {
    // attempt_limit u32::MAX: nothing is discarded before u32::MAX collisions, so the
    // truncation can be seen at any collision count.
    let beb = BebConfig::new(10, u32::MAX).unwrap();
    let mut r = rng(2);
    for n in [10, 11, 16, 17, 1000, 1 << 31, u32::MAX - 1] {
        assert_eq!(beb.exponent(n), 10);
        assert_eq!(beb.window(n), 1024);
        for _ in 0..256 {
            assert!(slots(beb.decide(n, &mut r)) < 1024);
        }
    }
    assert_eq!(beb.decide(u32::MAX, &mut r), Decision::Discard);
}

#[test]
fn the_draw_is_the_top_k_bits_of_one_word() {
    // Scripted words make the mapping exact: r = word >> (32 - k).
    let beb = BebConfig::IEEE_802_3;
    let word = 0xdead_beefu32;
    for n in 1..=15u32 {
        let k = n.min(10);
        let mut r = ScriptedRng::new(&[u64::from(word)]);
        assert_eq!(slots(beb.decide(n, &mut r)), word >> (32 - k), "n = {n}");
        assert_eq!(r.consumed(), 1);
    }
    // All ones gives the top of the window, all zeros the bottom.
    for n in 1..=15u32 {
        let top = (1u32 << n.min(10)) - 1;
        assert_eq!(
            slots(beb.decide(n, &mut ScriptedRng::new(&[u64::from(u32::MAX)]))),
            top
        );
        assert_eq!(slots(beb.decide(n, &mut ScriptedRng::new(&[0]))), 0);
    }
}

#[test]
fn discard_comes_exactly_on_the_16th_collision() {
    let beb = BebConfig::IEEE_802_3;
    let mut r = rng(3);
    // The pure rule: collisions 1..=15 retry, 16 discards.
    for n in 1..=15 {
        assert!(!beb.is_excessive(n));
        assert!(
            matches!(beb.decide(n, &mut r), Decision::Retry { .. }),
            "n = {n}"
        );
    }
    assert!(beb.is_excessive(16));
    assert_eq!(beb.decide(16, &mut r), Decision::Discard);

    // The per-frame state: 15 retries, then discard on the 16th collision.
    let mut frame = FrameBackoff::new(beb);
    for n in 1..=15u32 {
        assert_eq!(frame.attempt(), n, "attempt number before collision {n}");
        let d = frame.on_collision(&mut r);
        assert!(
            d.delay_slots().is_some(),
            "collision {n} must retry, got {d:?}"
        );
        assert!(d.delay_slots().unwrap() < 1 << n.min(10));
        assert_eq!(frame.collisions(), n);
        assert!(!frame.is_discarded());
    }
    assert_eq!(frame.attempt(), 16, "the 16th attempt is the last one");
    assert_eq!(frame.on_collision(&mut r), Decision::Discard);
    assert_eq!(frame.collisions(), 16);
    assert!(frame.is_discarded());
    // ... and keeps discarding until reset.
    for _ in 0..5 {
        assert_eq!(frame.on_collision(&mut r), Decision::Discard);
        assert!(frame.is_discarded());
    }
}

#[test]
fn reset_starts_the_next_frame_over() {
    let mut r = rng(4);
    let mut frame = FrameBackoff::new(BebConfig::IEEE_802_3);
    // A frame that goes out after three collisions ...
    for _ in 0..3 {
        frame.on_collision(&mut r);
    }
    assert_eq!(frame.attempt(), 4);
    frame.reset();
    assert_eq!(frame.collisions(), 0);
    assert_eq!(frame.attempt(), 1);
    assert_eq!(frame, FrameBackoff::new(BebConfig::IEEE_802_3));
    // ... so the next frame's first collision uses the window of 2 again.
    for _ in 0..64 {
        let mut f = frame;
        assert!(slots(f.on_collision(&mut r)) < 2);
    }
    // A discarded frame is reset the same way and gets a full 16 attempts again.
    for _ in 0..16 {
        frame.on_collision(&mut r);
    }
    assert!(frame.is_discarded());
    frame.reset();
    assert!(!frame.is_discarded());
    let retries = (0..16)
        .map(|_| frame.on_collision(&mut r))
        .take_while(|d| *d != Decision::Discard)
        .count();
    assert_eq!(retries, 15);
}

#[test]
fn the_attempt_counter_is_collisions_plus_one() {
    let beb = BebConfig::new(10, u32::MAX).unwrap();
    let mut r = ScriptedRng::new(&[0x1234_5678]);
    let mut frame = FrameBackoff::new(beb);
    assert_eq!(frame.collisions(), 0);
    assert_eq!(frame.attempt(), 1);
    assert_eq!(frame.config(), beb);
    // One more per collision, discarded or not.
    for n in 1..=1000u32 {
        frame.on_collision(&mut r);
        assert_eq!(frame.collisions(), n);
        assert_eq!(frame.attempt(), n + 1);
    }
    let mut one = FrameBackoff::new(BebConfig::new(0, 1).unwrap());
    assert_eq!(one.attempt(), 1);
    assert_eq!(one.on_collision(&mut r), Decision::Discard);
    assert_eq!((one.collisions(), one.attempt()), (1, 2));
    assert_eq!(one.on_collision(&mut r), Decision::Discard);
    assert_eq!((one.collisions(), one.attempt()), (2, 3));
}

#[test]
fn zero_collisions_retry_at_once_without_drawing() {
    let mut r = CountingRng::new(rng(5));
    for beb in [
        BebConfig::IEEE_802_3,
        BebConfig::new(32, 1).unwrap(),
        BebConfig::new(0, u32::MAX).unwrap(),
    ] {
        assert_eq!(beb.exponent(0), 0);
        assert_eq!(beb.window(0), 1);
        assert_eq!(beb.decide(0, &mut r), Decision::Retry { slots: 0 });
    }
    assert_eq!(r.steps(), 0);
}

#[test]
fn the_rng_steps_once_per_retry_and_never_for_discard() {
    let beb = BebConfig::IEEE_802_3;
    let mut r = CountingRng::new(rng(6));
    let mut frame = FrameBackoff::new(beb);
    for n in 1..=15u64 {
        frame.on_collision(&mut r);
        assert_eq!(r.u32_steps, n);
    }
    for _ in 0..10 {
        assert_eq!(frame.on_collision(&mut r), Decision::Discard);
    }
    assert_eq!(r.u32_steps, 15);
    assert_eq!(r.u64_steps, 0);

    // backoffLimit 0: the window is always 1, the draw is always 0 and costs nothing.
    let flat = BebConfig::new(0, 100).unwrap();
    let mut r = CountingRng::new(rng(7));
    for n in 1..100 {
        assert_eq!(flat.decide(n, &mut r), Decision::Retry { slots: 0 });
    }
    assert_eq!(flat.decide(100, &mut r), Decision::Discard);
    assert_eq!(r.steps(), 0);
}

#[test]
fn new_accepts_backoff_limits_0_to_32_and_any_nonzero_attempt_limit() {
    for limit in 0..=u8::MAX {
        for attempts in [0, 1, 2, 16, 1000, u32::MAX] {
            let got = BebConfig::new(limit, attempts);
            if limit > 32 {
                // The backoff limit is checked first.
                assert_eq!(
                    got.unwrap_err().kind(),
                    ConfigErrorKind::BackoffLimitTooLarge
                );
            } else if attempts == 0 {
                assert_eq!(got.unwrap_err().kind(), ConfigErrorKind::ZeroAttemptLimit);
            } else {
                let c = got.unwrap();
                assert_eq!((c.backoff_limit(), c.attempt_limit()), (limit, attempts));
            }
        }
    }
    assert_eq!(BebConfig::MAX_BACKOFF_LIMIT, 32);
}

#[test]
fn config_errors_say_what_was_wrong() {
    let too_large = BebConfig::new(33, 16).unwrap_err();
    let zero = BebConfig::new(10, 0).unwrap_err();
    assert_eq!(too_large.to_string(), "backoff limit above 32");
    assert_eq!(zero.to_string(), "attempt limit of zero");
    assert_eq!(
        too_large,
        ConfigError::new(ConfigErrorKind::BackoffLimitTooLarge)
    );
    assert_ne!(too_large, zero);
    // It is a std error (through core::error::Error).
    let boxed: Box<dyn std::error::Error> = Box::new(zero);
    assert_eq!(boxed.to_string(), "attempt limit of zero");
}

#[test]
fn backoff_limit_32_spans_the_whole_u32_range() {
    let beb = BebConfig::new(32, u32::MAX).unwrap();
    assert_eq!(beb.exponent(32), 32);
    assert_eq!(beb.exponent(u32::MAX - 1), 32);
    assert_eq!(beb.window(40), 1u64 << 32);
    // The draw is the whole word: both extremes are reachable ...
    assert_eq!(
        slots(beb.decide(32, &mut ScriptedRng::new(&[u64::from(u32::MAX)]))),
        u32::MAX
    );
    assert_eq!(slots(beb.decide(1000, &mut ScriptedRng::new(&[0]))), 0);
    // ... and real draws fill it: in 4096 draws from [0, 2^32) the largest is above
    // 2^32 · 0.99 and the smallest below 2^32 · 0.01 (each fails with probability
    // 0.99^4096 < 1e-17), and every one of the 16 top-nibble values occurs (a value is
    // missed with probability (15/16)^4096 < 1e-100).
    let mut r = rng(8);
    let (mut lo, mut hi) = (u32::MAX, 0u32);
    let mut nibbles = [false; 16];
    for _ in 0..DRAWS {
        let s = slots(beb.decide(u32::MAX - 1, &mut r));
        lo = lo.min(s);
        hi = hi.max(s);
        nibbles[(s >> 28) as usize] = true;
    }
    assert!(hi > u32::MAX / 100 * 99, "max {hi}");
    assert!(lo < u32::MAX / 100, "min {lo}");
    assert!(nibbles.iter().all(|&n| n));
}

#[test]
fn other_limits_follow_the_same_rule() {
    // A radio: window capped at 2^6, frame dropped after 8 attempts.
    let radio = BebConfig::new(6, 8).unwrap();
    let mut r = rng(9);
    let mut frame = FrameBackoff::new(radio);
    for n in 1..=7u32 {
        let s = slots(frame.on_collision(&mut r));
        assert!(s < 1 << n.min(6));
    }
    assert_eq!(frame.on_collision(&mut r), Decision::Discard);

    // Every backoff limit 0..=32 with every attempt limit 1..=40: Retry exactly for
    // collisions below the attempt limit, inside 2^min(n, L).
    for limit in 0..=32u8 {
        for attempts in 1..=40u32 {
            let beb = BebConfig::new(limit, attempts).unwrap();
            for n in 1..=45u32 {
                match beb.decide(n, &mut r) {
                    Decision::Retry { slots } => {
                        assert!(n < attempts);
                        assert!(u64::from(slots) < 1u64 << n.min(u32::from(limit)));
                        assert_eq!(beb.window(n), 1u64 << n.min(u32::from(limit)));
                    }
                    Decision::Discard => assert!(n >= attempts),
                }
            }
        }
    }
}

#[test]
fn decision_slots_accessor() {
    assert_eq!(Decision::Retry { slots: 7 }.delay_slots(), Some(7));
    assert_eq!(Decision::Retry { slots: 0 }.delay_slots(), Some(0));
    assert_eq!(Decision::Discard.delay_slots(), None);
}
