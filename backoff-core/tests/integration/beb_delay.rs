//! `delay::wait_slots` (feature `embedded-hal`): the total delay is exactly
//! `slots × slot` nanoseconds however large, paid in `u32` pieces.
#![cfg(feature = "embedded-hal")]

use backoff_core::SlotTime;
use backoff_core::delay::wait_slots;
use embedded_hal::delay::DelayNs;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Records every `delay_ns` call.
#[derive(Debug, Default)]
struct CountingDelay {
    calls: u64,
    total_ns: u128,
    shortest: Option<u32>,
}

impl DelayNs for CountingDelay {
    fn delay_ns(&mut self, ns: u32) {
        self.calls += 1;
        self.total_ns += u128::from(ns);
        self.shortest = Some(self.shortest.map_or(ns, |s| s.min(ns)));
    }
}

fn wait(nanos: u64, slots: u32) -> CountingDelay {
    let mut d = CountingDelay::default();
    wait_slots(&mut d, SlotTime::from_nanos(nanos).unwrap(), slots);
    d
}

/// Pieces of `u32::MAX` ns, then the remainder: ⌈total / (2^32 - 1)⌉ calls.
fn pieces(total: u128) -> u64 {
    total.div_ceil(u128::from(u32::MAX)) as u64
}

#[test]
fn short_waits_are_one_call() {
    let d = wait(51_200, 7);
    assert_eq!((d.calls, d.total_ns), (1, 7 * 51_200));
    let d = wait(u64::from(u32::MAX), 1);
    assert_eq!((d.calls, d.total_ns), (1, u128::from(u32::MAX)));
}

#[test]
fn zero_slots_wait_nothing() {
    for nanos in [1, 51_200, u64::MAX] {
        let d = wait(nanos, 0);
        assert_eq!((d.calls, d.total_ns), (0, 0));
    }
}

#[test]
fn waits_above_u32_max_nanoseconds_are_paid_in_pieces() {
    // One nanosecond over: two calls, u32::MAX then 1.
    let d = wait(1 << 32, 1);
    assert_eq!((d.calls, d.total_ns, d.shortest), (2, 1 << 32, Some(1)));
    // The longest 10 Mb/s wait the rule could ask for with backoffLimit 32:
    // 51.2 µs x (2^32 - 1) slots = 2.2e14 ns, in 51 200 pieces.
    let total = 51_200u128 * u128::from(u32::MAX);
    let d = wait(51_200, u32::MAX);
    assert_eq!(d.total_ns, total);
    assert_eq!(d.calls, pieces(total));
    assert_eq!(d.calls, 51_200);
    // 2^40 ns x 3 slots (an hour): 768 pieces plus the remainder.
    let d = wait(1 << 40, 3);
    assert_eq!(d.total_ns, 3 << 40);
    assert_eq!(d.calls, pieces(3 << 40));
}

#[test]
fn works_through_a_trait_object() {
    let mut d = CountingDelay::default();
    let dyn_delay: &mut dyn DelayNs = &mut d;
    wait_slots(dyn_delay, SlotTime::ETHERNET_100M, 1023);
    assert_eq!(d.total_ns, 1023 * 5_120);
}

proptest! {
    // Totals up to 2^44 ns keep each case under 4097 calls: 256 cases stay fast in a
    // debug build.
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: RngSeed::Fixed(0xbeb0_de1a),
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_total_is_exact(
        (nanos, slots) in (1u64..=1 << 44).prop_flat_map(|n| (Just(n), 0..=((1u64 << 44) / n).min(u64::from(u32::MAX)) as u32))
    ) {
        let d = wait(nanos, slots);
        let total = u128::from(nanos) * u128::from(slots);
        prop_assert_eq!(d.total_ns, total);
        prop_assert_eq!(d.calls, pieces(total));
    }
}
