//! Closed forms of truncated BEB, exact and in integers.
//!
//! With `k = min(c, backoffLimit)` and window `m = 2^k`, the backoff `r` after the
//! `c`-th collision is uniform on `{0, ..., m - 1}`, so
//!
//! * `E(c) = (m - 1) / 2` slots: [`expected_backoff`], a [`Slots`] value, exact to the
//!   half slot;
//! * `Var(c) = (m² - 1) / 12` slots²: [`backoff_variance_twelfths`] returns the exact
//!   integer `m² - 1`, in twelfths of a slot² (a variance is a squared time, so it has
//!   no [`Duration`] form).
//!
//! A frame is discarded after `attemptLimit` collisions, so it backs off after
//! collisions `1 ..= attemptLimit - 1`. Its worst-case total backoff is
//! `Σ (2^min(c, L) - 1)` slots over those collisions ([`worst_case_total_backoff`]),
//! and its expected total backoff (given it keeps colliding) is half of that
//! ([`expected_total_backoff`]). For IEEE 802.3 that is 7151 slots at worst
//! (366 ms at 10 Mb/s) and 3575.5 slots expected (183 ms).
//!
//! Every answer is in slots, in the [`Slots`] type, and becomes a [`Duration`] (or
//! nanoseconds) at a given [`SlotTime`] with [`Slots::at`] ([`Slots::nanos_at`]):
//!
//! ```
//! use backoff_core::{BebConfig, SlotTime, theory};
//! use core::time::Duration;
//! let beb = BebConfig::IEEE_802_3;
//! let e1 = theory::expected_backoff(&beb, 1);
//! assert_eq!((e1.floor(), e1.has_half()), (0, true)); // E(1) = 0.5 slot
//! assert_eq!(theory::expected_backoff(&beb, 10).to_string(), "511.5 slots");
//! assert_eq!(theory::expected_backoff(&beb, 16), theory::expected_backoff(&beb, 10)); // k = 10
//! let worst = theory::worst_case_total_backoff(&beb);
//! assert_eq!(worst.floor(), 7151);
//! assert_eq!(worst.at(SlotTime::ETHERNET_10M), Duration::from_nanos(366_131_200));
//! let mean = theory::expected_total_backoff(&beb);
//! assert_eq!(mean.to_string(), "3575.5 slots");
//! assert_eq!(mean.nanos_at(SlotTime::ETHERNET_10M), 183_065_600);
//! assert_eq!(theory::backoff_variance_twelfths(&beb, 2), 15); // Var(2) = 15/12 slot²
//! ```
//!
//! Every function here is total: no argument overflows or panics, and every value fits
//! `u64` (the largest, the worst case with `attemptLimit = u32::MAX` and
//! `backoffLimit = 32`, is below `2^64`).

use core::fmt;
use core::time::Duration;

use crate::beb::BebConfig;
use crate::slot::SlotTime;
use crate::time::wide_nanos_to_duration;

/// An exact number of slot times, to the half slot: the unit of every closed form.
///
/// ```
/// use backoff_core::{SlotTime, theory::Slots};
/// use core::time::Duration;
/// let s = Slots::from_half_slots(7);
/// assert_eq!((s.floor(), s.has_half(), s.ceil()), (3, true, 4));
/// assert_eq!(s.at(SlotTime::ETHERNET_100M), Duration::from_nanos(17_920)); // 3.5 × 5.12 µs
/// assert_eq!(s.to_string(), "3.5 slots");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Slots {
    whole: u64,
    half: bool,
}

impl Slots {
    /// No time at all.
    pub const ZERO: Self = Self {
        whole: 0,
        half: false,
    };

    /// `slots` whole slot times.
    pub const fn from_whole(slots: u64) -> Self {
        Self {
            whole: slots,
            half: false,
        }
    }

    /// `half_slots / 2` slot times.
    pub const fn from_half_slots(half_slots: u64) -> Self {
        Self {
            whole: half_slots >> 1,
            half: half_slots & 1 == 1,
        }
    }

    /// The whole slots, rounded down.
    pub const fn floor(self) -> u64 {
        self.whole
    }

    /// The whole slots, rounded up (saturating at `u64::MAX`).
    pub const fn ceil(self) -> u64 {
        if self.half {
            self.whole.saturating_add(1)
        } else {
            self.whole
        }
    }

    /// Whether there is a half slot beyond [`Slots::floor`].
    pub const fn has_half(self) -> bool {
        self.half
    }

    /// The time at `slot`, as a [`Duration`]: exact for a slot of an even number of
    /// nanoseconds (every Ethernet speed), otherwise rounded down to the nanosecond;
    /// saturates at [`Duration::MAX`].
    #[inline]
    pub const fn at(self, slot: SlotTime) -> Duration {
        wide_nanos_to_duration(self.doubled_nanos(slot) >> 1)
    }

    /// The time at `slot` in nanoseconds, rounded down as [`Slots::at`], saturating at
    /// `u64::MAX`.
    #[inline]
    pub const fn nanos_at(self, slot: SlotTime) -> u64 {
        let ns = self.doubled_nanos(slot) >> 1;
        if ns > u64::MAX as u128 {
            u64::MAX
        } else {
            ns as u64
        }
    }

    /// Twice the time at `slot`, in nanoseconds (exact: below 2^65 · 2^64, saturating
    /// at `u128::MAX`).
    const fn doubled_nanos(self, slot: SlotTime) -> u128 {
        let halves = (self.whole as u128)
            .saturating_mul(2)
            .saturating_add(self.half as u128);
        halves.saturating_mul(slot.as_nanos() as u128)
    }
}

impl fmt::Display for Slots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let half = if self.half { ".5" } else { "" };
        let unit = if self.whole == 1 && !self.half {
            "slot"
        } else {
            "slots"
        };
        write!(f, "{}{half} {unit}", self.whole)
    }
}

/// `2^k - 1` for `k <= 32` (never overflows `u64`).
const fn window_max(k: u8) -> u64 {
    let k = if k > 32 { 32 } else { k };
    (1u64 << k).saturating_sub(1)
}

/// `E(c)`: the mean backoff after the `c`-th collision, `(2^min(c, L) - 1) / 2` slots.
/// `c = 0` gives zero (nothing to back off from, as [`BebConfig::decide`] answers).
pub const fn expected_backoff(config: &BebConfig, collisions: u32) -> Slots {
    Slots::from_half_slots(window_max(config.exponent(collisions)))
}

/// `Var(c)` in twelfths of a slot²: `4^min(c, L) - 1` (at most `2^64 - 1`, so exact in
/// `u64`).
pub const fn backoff_variance_twelfths(config: &BebConfig, collisions: u32) -> u64 {
    let k = config.exponent(collisions);
    let k = if k > 32 { 32 } else { k };
    // 4^k = 2^(2k): for k = 32 that is 2^64, whose predecessor is u64::MAX.
    match 1u64.checked_shl((k as u32).saturating_mul(2)) {
        Some(m2) => m2.saturating_sub(1),
        None => u64::MAX,
    }
}

/// The largest total backoff a frame can accumulate before it is discarded:
/// `Σ_{c=1}^{attemptLimit-1} (2^min(c, L) - 1)` slots.
///
/// Computed in closed form (no loop over the attempts), exact for every configuration.
pub const fn worst_case_total_backoff(config: &BebConfig) -> Slots {
    Slots::from_whole(worst_case_total(config))
}

/// The expected total backoff of a frame that collides on every attempt until discard:
/// half of [`worst_case_total_backoff`], since each backoff's mean is half its maximum.
pub const fn expected_total_backoff(config: &BebConfig) -> Slots {
    let worst = worst_case_total(config);
    Slots {
        whole: worst >> 1,
        half: worst & 1 == 1,
    }
}

/// [`worst_case_total_backoff`] in slots. Below `2^64` for every configuration:
/// at most 33 rising terms below `2^33` in all, then at most `2^32 - 2` terms of at most
/// `2^32 - 1`.
const fn worst_case_total(config: &BebConfig) -> u64 {
    let backoffs = config.attempt_limit().saturating_sub(1) as u64;
    let limit = config.backoff_limit() as u64;
    // Collisions 1..=g grow the window; g = min(L, backoffs) <= 32.
    let growing = if limit < backoffs { limit } else { backoffs };
    // Σ_{c=1}^{g} (2^c - 1) = 2^(g+1) - 2 - g   (2^(g+1) <= 2^33)
    let rising = (1u64 << (growing as u32).saturating_add(1))
        .saturating_sub(2)
        .saturating_sub(growing);
    // The remaining backoffs all use the truncated window 2^L.
    let flat = backoffs
        .saturating_sub(growing)
        .saturating_mul(window_max(config.backoff_limit()));
    rising.saturating_add(flat)
}
