//! The closed forms of `theory` against brute-force sums, for every backoff limit and
//! many attempt limits up to `u32::MAX`, and the slot-time conversions against exact
//! 128-bit arithmetic, including their rounding and saturation.

use core::time::Duration;

use backoff_core::ieee802_3::{SLOT_BIT_TIMES, SLOT_BIT_TIMES_1G};
use backoff_core::{BebConfig, ConfigErrorKind, SlotTime, theory};

/// A `Slots` value as a count of half slots.
fn half_slots(s: theory::Slots) -> u128 {
    2 * u128::from(s.floor()) + u128::from(s.has_half())
}

/// Attempt limits small enough to sum term by term, plus a few far larger ones.
fn attempt_limits() -> impl Iterator<Item = u32> {
    (1..=70).chain([100, 1000, 65_537, 100_000])
}

/// `Σ_{c=1}^{attempts-1} (2^min(c, limit) - 1)`, one term at a time.
fn brute_worst_case(limit: u8, attempts: u32) -> u128 {
    (1..attempts)
        .map(|c| (1u128 << c.min(u32::from(limit))) - 1)
        .sum()
}

#[test]
fn window_mean_and_variance_match_brute_force_sums() {
    // For each window 2^k, k <= 16: the exact mean Σr/m and variance Σr²/m - (Σr/m)²,
    // summed over every value r of the window, compared without division:
    //   2 Σr = half_slots · m         and   12 (m Σr² - (Σr)²) = twelfths · m².
    for k in 0..=16u32 {
        let m = 1u128 << k;
        let (s1, s2) = (0..m).fold((0u128, 0u128), |(a, b), r| (a + r, b + r * r));
        let config = BebConfig::new(32, u32::MAX).unwrap();
        let half = half_slots(theory::expected_backoff(&config, k));
        let twelfths = u128::from(theory::backoff_variance_twelfths(&config, k));
        assert_eq!(2 * s1, half * m, "mean, k = {k}");
        assert_eq!(
            12 * (m * s2 - s1 * s1),
            twelfths * m * m,
            "variance, k = {k}"
        );
    }
    // k = 17..=32 by the textbook sums Σr = m(m-1)/2 and Σr² = (m-1)m(2m-1)/6 (in u128
    // these do not overflow up to m = 2^32).
    for k in 17..=32u32 {
        let m = 1u128 << k;
        let s1 = m * (m - 1) / 2;
        let s2 = (m - 1) * m * (2 * m - 1) / 6;
        let config = BebConfig::new(32, u32::MAX).unwrap();
        assert_eq!(2 * s1, half_slots(theory::expected_backoff(&config, k)) * m);
        assert_eq!(
            12 * (m * s2 - s1 * s1),
            u128::from(theory::backoff_variance_twelfths(&config, k)) * m * m
        );
    }
}

#[test]
fn per_collision_forms_follow_the_truncated_exponent() {
    for limit in 0..=32u8 {
        for attempts in [1, 16, u32::MAX] {
            let config = BebConfig::new(limit, attempts).unwrap();
            for c in (0..=40).chain([1000, u32::MAX - 1, u32::MAX]) {
                let k = c.min(u32::from(limit));
                assert_eq!(
                    (half_slots(theory::expected_backoff(&config, c)) as u64),
                    (1u64 << k) - 1
                );
                assert_eq!(
                    u128::from(theory::backoff_variance_twelfths(&config, c)),
                    (1u128 << (2 * k)) - 1
                );
            }
        }
    }
    // The largest: k = 32, window 2^32, variance (2^64 - 1)/12 slots².
    let big = BebConfig::new(32, u32::MAX).unwrap();
    assert_eq!(
        (half_slots(theory::expected_backoff(&big, u32::MAX)) as u64),
        u64::from(u32::MAX)
    );
    assert_eq!(
        u128::from(theory::backoff_variance_twelfths(&big, u32::MAX)),
        u128::from(u64::MAX)
    );
}

#[test]
fn worst_case_total_matches_the_term_by_term_sum() {
    for limit in 0..=32u8 {
        for attempts in attempt_limits() {
            let config = BebConfig::new(limit, attempts).unwrap();
            let want = brute_worst_case(limit, attempts);
            assert_eq!(
                u128::from(theory::worst_case_total_backoff(&config).floor()),
                want,
                "limit {limit}, attempts {attempts}"
            );
            assert_eq!(half_slots(theory::expected_total_backoff(&config)), want);
        }
    }
    // IEEE 802.3: 7151 slots at worst, 366.1 ms at 10 Mb/s; 3575.5 slots expected.
    let ieee = BebConfig::IEEE_802_3;
    assert_eq!(
        u128::from(theory::worst_case_total_backoff(&ieee).floor()),
        7151
    );
    assert_eq!(half_slots(theory::expected_total_backoff(&ieee)), 7151);
    assert_eq!(SlotTime::ETHERNET_10M.times_nanos(7151), 366_131_200);
}

#[test]
fn worst_case_total_at_the_extremes_does_not_overflow() {
    // attempt_limit up to u32::MAX cannot be summed term by term in a test; split the
    // sum instead: the growing part term by term (at most 32 terms), then the
    // truncated terms, all equal to 2^L - 1, counted.
    for limit in 0..=32u8 {
        for attempts in [u32::MAX - 1, u32::MAX, 1 << 31, 1 << 20] {
            let config = BebConfig::new(limit, attempts).unwrap();
            let growing = u32::from(limit).min(attempts - 1);
            let rising = brute_worst_case(limit, growing + 1);
            let flat = u128::from(attempts - 1 - growing) * ((1u128 << limit) - 1);
            assert_eq!(
                u128::from(theory::worst_case_total_backoff(&config).floor()),
                rising + flat
            );
        }
    }
    // The increments near u32::MAX are the individual terms: adding the attempt
    // a + 1 adds the backoff after collision a.
    for limit in [0u8, 1, 10, 31, 32] {
        for a in (u32::MAX - 40)..u32::MAX {
            let lo = u128::from(
                theory::worst_case_total_backoff(&BebConfig::new(limit, a).unwrap()).floor(),
            );
            let hi = u128::from(
                theory::worst_case_total_backoff(&BebConfig::new(limit, a + 1).unwrap()).floor(),
            );
            assert_eq!(hi - lo, (1u128 << a.min(u32::from(limit))) - 1);
        }
    }
    // The largest value: backoffLimit 32, attemptLimit u32::MAX, just below 2^64 slots.
    let max = BebConfig::new(32, u32::MAX).unwrap();
    let want = (1u128 << 33) - 34 + (u128::from(u32::MAX) - 33) * u128::from(u32::MAX);
    assert_eq!(
        u128::from(theory::worst_case_total_backoff(&max).floor()),
        want
    );
    assert_eq!(want, (1u128 << 64) - 33 * (1u128 << 32));
}

#[test]
fn worst_case_total_grows_with_both_limits() {
    for limit in 0..=32u8 {
        let mut last = 0;
        for attempts in 1..=80u32 {
            let w = u128::from(
                theory::worst_case_total_backoff(&BebConfig::new(limit, attempts).unwrap()).floor(),
            );
            assert!(w >= last);
            last = w;
            if limit < 32 {
                let wider = BebConfig::new(limit + 1, attempts).unwrap();
                assert!(u128::from(theory::worst_case_total_backoff(&wider).floor()) >= w);
            }
        }
    }
    // A single attempt never backs off.
    for limit in 0..=32u8 {
        assert_eq!(
            u128::from(
                theory::worst_case_total_backoff(&BebConfig::new(limit, 1).unwrap()).floor()
            ),
            0
        );
    }
}

#[test]
fn ethernet_slot_times() {
    assert_eq!(SlotTime::ETHERNET_10M.as_nanos(), 51_200);
    assert_eq!(SlotTime::ETHERNET_100M.as_nanos(), 5_120);
    assert_eq!(SlotTime::ETHERNET_1G.as_nanos(), 4_096);
    assert_eq!(
        SlotTime::from_bit_times(SLOT_BIT_TIMES, 10_000_000),
        Ok(SlotTime::ETHERNET_10M)
    );
    assert_eq!(
        SlotTime::from_bit_times(SLOT_BIT_TIMES, 100_000_000),
        Ok(SlotTime::ETHERNET_100M)
    );
    assert_eq!(
        SlotTime::from_bit_times(SLOT_BIT_TIMES_1G, 1_000_000_000),
        Ok(SlotTime::ETHERNET_1G)
    );
    assert_eq!(
        SlotTime::ETHERNET_10M.as_duration(),
        Duration::from_nanos(51_200)
    );
    assert_eq!(SlotTime::from_nanos(51_200), Ok(SlotTime::ETHERNET_10M));
    assert!(SlotTime::ETHERNET_1G < SlotTime::ETHERNET_100M);
}

#[test]
fn zero_slot_times_are_rejected() {
    let kind = |r: Result<SlotTime, backoff_core::ConfigError>| r.unwrap_err().kind();
    assert_eq!(kind(SlotTime::from_nanos(0)), ConfigErrorKind::ZeroSlotTime);
    assert_eq!(
        kind(SlotTime::from_bit_times(0, 10_000_000)),
        ConfigErrorKind::ZeroSlotTime
    );
    assert_eq!(
        kind(SlotTime::from_bit_times(512, 0)),
        ConfigErrorKind::ZeroSlotTime
    );
    assert_eq!(
        kind(SlotTime::from_bit_times(0, 0)),
        ConfigErrorKind::ZeroSlotTime
    );
    assert_eq!(
        SlotTime::from_nanos(0).unwrap_err().to_string(),
        "slot time or bit rate of zero"
    );
}

const BITS: [u32; 9] = [1, 2, 3, 40, 512, 4096, 1_000_001, u32::MAX - 1, u32::MAX];
const RATES: [u64; 14] = [
    1,
    2,
    3,
    7,
    115_200,
    1_000_000,
    10_000_000,
    999_999_999,
    1_000_000_000,
    1_000_000_001,
    3_000_000_000,
    1 << 40,
    u64::MAX - 1,
    u64::MAX,
];

#[test]
fn from_bit_times_rounds_up_to_whole_nanoseconds() {
    // The result is the smallest whole number of nanoseconds not shorter than
    // bits / rate seconds: nanos · rate >= bits · 1e9 > (nanos - 1) · rate.
    for bits in BITS {
        for rate in RATES {
            let nanos = u128::from(SlotTime::from_bit_times(bits, rate).unwrap().as_nanos());
            let exact = u128::from(bits) * 1_000_000_000;
            let rate = u128::from(rate);
            assert!(
                nanos * rate >= exact,
                "{bits} bits at {rate} b/s: {nanos} ns too short"
            );
            assert!(
                (nanos - 1) * rate < exact,
                "{bits} bits at {rate} b/s: {nanos} ns too long"
            );
        }
    }
    // Known values: 40 bits at 115 200 baud is 347 222.2 ns, so 347 223; one bit at
    // any rate above 1 Gb/s is under a nanosecond, so 1; the longest slot, u32::MAX
    // bits at 1 b/s, is u32::MAX seconds exactly.
    assert_eq!(
        SlotTime::from_bit_times(40, 115_200).unwrap().as_nanos(),
        347_223
    );
    assert_eq!(SlotTime::from_bit_times(1, u64::MAX).unwrap().as_nanos(), 1);
    assert_eq!(
        SlotTime::from_bit_times(1, 1_000_000_001)
            .unwrap()
            .as_nanos(),
        1
    );
    assert_eq!(
        SlotTime::from_bit_times(u32::MAX, 1).unwrap().as_duration(),
        Duration::from_secs(u64::from(u32::MAX))
    );
}

const NANOS: [u64; 10] = [
    1,
    4_096,
    51_200,
    999_999_999,
    1_000_000_000,
    u32::MAX as u64,
    1 << 32,
    1 << 53,
    u64::MAX - 1,
    u64::MAX,
];
const SLOTS: [u32; 8] = [
    0,
    1,
    2,
    1023,
    1_000_000_000,
    1_000_000_001,
    u32::MAX - 1,
    u32::MAX,
];

/// `Duration::MAX` in nanoseconds: (u64::MAX + 1) seconds less one nanosecond.
fn duration_max_nanos() -> u128 {
    Duration::MAX.as_nanos()
}

#[test]
fn times_nanos_is_exact_or_saturates_at_u64_max() {
    for nanos in NANOS {
        let slot = SlotTime::from_nanos(nanos).unwrap();
        for slots in SLOTS {
            let exact = u128::from(nanos) * u128::from(slots);
            let want = u64::try_from(exact).unwrap_or(u64::MAX);
            assert_eq!(
                slot.times_nanos(u64::from(slots)),
                want,
                "{nanos} ns x {slots}"
            );
        }
    }
    assert_eq!(
        SlotTime::from_nanos(u64::MAX).unwrap().times_nanos(2),
        u64::MAX
    );
    assert_eq!(
        SlotTime::from_nanos(1 << 32)
            .unwrap()
            .times_nanos(u64::from(u32::MAX)),
        u64::MAX - u64::from(u32::MAX)
    );
    assert_eq!(SlotTime::ETHERNET_10M.times_nanos(1023), 52_377_600);
}

#[test]
fn times_is_exact_or_saturates_at_duration_max() {
    for nanos in NANOS {
        let slot = SlotTime::from_nanos(nanos).unwrap();
        for slots in SLOTS {
            let exact = u128::from(nanos) * u128::from(slots);
            let got = slot.times(u64::from(slots));
            if exact <= duration_max_nanos() {
                assert_eq!(got.as_nanos(), exact, "{nanos} ns x {slots}");
            } else {
                assert_eq!(got, Duration::MAX, "{nanos} ns x {slots}");
            }
        }
    }
    // Beyond u64 nanoseconds, still exact: 2^32 ns x (2^32 - 1) slots.
    let big = SlotTime::from_nanos(1 << 32)
        .unwrap()
        .times(u64::from(u32::MAX));
    assert_eq!(big.as_nanos(), (1u128 << 32) * u128::from(u32::MAX));
    // The boundary: a slot of u64::MAX ns times 1e9 slots is u64::MAX whole seconds,
    // exactly; one slot more no longer fits a Duration.
    let longest = SlotTime::from_nanos(u64::MAX).unwrap();
    assert_eq!(longest.times(1_000_000_000), Duration::new(u64::MAX, 0));
    assert_eq!(longest.times(1_000_000_001), Duration::MAX);
    assert_eq!(longest.times(u64::from(u32::MAX)), Duration::MAX);
    assert_eq!(longest.times(0), Duration::ZERO);
    assert_eq!(
        SlotTime::ETHERNET_10M.times(7151),
        Duration::from_nanos(366_131_200)
    );
}
