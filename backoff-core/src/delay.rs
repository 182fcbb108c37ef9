//! Blocking waits through `embedded_hal::delay::DelayNs` (feature `embedded-hal`).

use embedded_hal::delay::DelayNs;

use crate::slot::SlotTime;
use crate::time::u32_pieces;

/// Wait `slots` slot times. The total (up to `2^64 · 2^32` ns) is computed in `u128` and
/// paid out in `u32`-nanosecond pieces, so nothing overflows however long the wait.
///
/// ```
/// use backoff_core::{SlotTime, delay::wait_slots};
/// struct Count(u64);
/// impl embedded_hal::delay::DelayNs for Count {
///     fn delay_ns(&mut self, ns: u32) { self.0 += u64::from(ns); }
/// }
/// let mut d = Count(0);
/// wait_slots(&mut d, SlotTime::ETHERNET_10M, 7);
/// assert_eq!(d.0, 7 * 51_200);
/// ```
pub fn wait_slots<D: DelayNs + ?Sized>(delay: &mut D, slot: SlotTime, slots: u32) {
    let total = u128::from(slot.as_nanos()).saturating_mul(u128::from(slots));
    for piece in u32_pieces(total) {
        delay.delay_ns(piece);
    }
}
