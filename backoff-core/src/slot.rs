//! Slot times: the unit of backoff.
//!
//! A slot is 512 bit times on 10 and 100 Mb/s Ethernet (51.2 µs and 5.12 µs) and 4096
//! bit times on 1 Gb/s half duplex (4.096 µs). Other media choose their own: a serial
//! bus, for example, picks a slot longer than its worst collision-detection latency.
//! [`SlotTime`] stores whole nanoseconds, which is exact for every Ethernet speed.

use core::time::Duration;

use crate::error::{ConfigError, ConfigErrorKind};
use crate::time::wide_nanos_to_duration;

/// The length of one backoff slot, in nanoseconds (never zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SlotTime {
    nanos: u64,
}

const NANOS_PER_SEC: u64 = 1_000_000_000;

impl SlotTime {
    /// 10 Mb/s Ethernet: 512 bit times = 51.2 µs.
    pub const ETHERNET_10M: Self = Self { nanos: 51_200 };
    /// 100 Mb/s Ethernet: 512 bit times = 5.12 µs.
    pub const ETHERNET_100M: Self = Self { nanos: 5_120 };
    /// 1000 Mb/s half-duplex Ethernet: 4096 bit times = 4.096 µs.
    pub const ETHERNET_1G: Self = Self { nanos: 4_096 };

    /// A slot of `nanos` nanoseconds.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::ZeroSlotTime`] for zero.
    pub const fn from_nanos(nanos: u64) -> Result<Self, ConfigError> {
        if nanos == 0 {
            Err(ConfigError::new(ConfigErrorKind::ZeroSlotTime))
        } else {
            Ok(Self { nanos })
        }
    }

    /// A slot of `bit_times` bits at `bit_rate` bits per second, rounded up to whole
    /// nanoseconds (so a slot is never shorter than asked).
    ///
    /// ```
    /// use backoff_core::{SlotTime, ieee802_3::SLOT_BIT_TIMES};
    /// assert_eq!(SlotTime::from_bit_times(SLOT_BIT_TIMES, 10_000_000).unwrap(), SlotTime::ETHERNET_10M);
    /// // A serial bus at 115 200 baud, slot = 40 bit times: 347.3 µs, rounded up.
    /// assert_eq!(SlotTime::from_bit_times(40, 115_200).unwrap().as_nanos(), 347_223);
    /// assert!(SlotTime::from_bit_times(512, 0).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::ZeroSlotTime`] when `bit_times` or `bit_rate` is zero.
    pub const fn from_bit_times(bit_times: u32, bit_rate: u64) -> Result<Self, ConfigError> {
        if bit_times == 0 || bit_rate == 0 {
            return Err(ConfigError::new(ConfigErrorKind::ZeroSlotTime));
        }
        // bit_times * 1e9 < 2^32 * 2^30 fits u64; ceiling division.
        let num = (bit_times as u64).saturating_mul(NANOS_PER_SEC);
        let whole = match num.checked_div(bit_rate) {
            Some(w) => w,
            None => return Err(ConfigError::new(ConfigErrorKind::ZeroSlotTime)),
        };
        let nanos = match num.checked_rem(bit_rate) {
            Some(0) => whole,
            _ => whole.saturating_add(1),
        };
        Self::from_nanos(nanos)
    }

    /// The slot length in nanoseconds.
    #[inline]
    pub const fn as_nanos(self) -> u64 {
        self.nanos
    }

    /// The slot length as a [`Duration`].
    #[inline]
    pub const fn as_duration(self) -> Duration {
        Duration::from_nanos(self.nanos)
    }

    /// `slots` slot times as a [`Duration`], exact up to [`Duration::MAX`] (about
    /// 5.8 · 10^11 years) and saturating there.
    ///
    /// The slot count is a `u64`, so a draw ([`Decision::delay_slots`], `u32`) and a
    /// closed form ([`theory`](crate::theory), `u64`) both go in without a conversion
    /// that could fail.
    ///
    /// ```
    /// use backoff_core::SlotTime;
    /// use core::time::Duration;
    /// assert_eq!(SlotTime::ETHERNET_10M.times(7), Duration::from_nanos(7 * 51_200));
    /// assert_eq!(SlotTime::ETHERNET_10M.times_nanos(1023), 52_377_600);
    /// ```
    ///
    /// [`Decision::delay_slots`]: crate::Decision::delay_slots
    #[inline]
    pub const fn times(self, slots: u64) -> Duration {
        // Every Ethernet backoff (and any total below 584 years) fits u64 nanoseconds,
        // which Duration takes exactly and without a 128-bit division.
        match self.nanos.checked_mul(slots) {
            Some(total) => Duration::from_nanos(total),
            None => wide_nanos_to_duration((self.nanos as u128).saturating_mul(slots as u128)),
        }
    }

    /// `slots` slot times in nanoseconds, saturating at `u64::MAX` (584 years).
    #[inline]
    pub const fn times_nanos(self, slots: u64) -> u64 {
        self.nanos.saturating_mul(slots)
    }
}
