//! Truncated binary exponential backoff, IEEE 802.3 clause 4.2.3.2.5.
//!
//! After the `n`-th collision of a frame (`n = 1, 2, ...`) the station waits `r` slot
//! times, `r` a uniform integer in `[0, 2^k)` with `k = min(n, backoffLimit)`. When
//! `attemptLimit` attempts have all collided the frame is discarded and the caller is
//! told so by [`Decision::Discard`] (the standard's `excessiveCollisionError`).

use core::time::Duration;

use rand_core::Rng;

use crate::error::{ConfigError, ConfigErrorKind};
use crate::slot::SlotTime;
use crate::uniform::top_bits;

/// What to do after a collision.
///
/// Exhaustive on purpose: IEEE 802.3's rule has exactly these two outcomes (back off
/// and retransmit, or discard after `attemptLimit`), so a `match` needs no `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Decision {
    /// Wait this many slot times, then transmit again.
    Retry {
        /// `r`, uniform in `[0, 2^min(n, backoffLimit))`.
        slots: u32,
    },
    /// Every allowed attempt has collided: discard the frame and report
    /// *excessive collisions* to the client.
    Discard,
}

impl Decision {
    /// The slot times to wait, or `None` for [`Decision::Discard`].
    pub const fn delay_slots(self) -> Option<u32> {
        match self {
            Decision::Retry { slots } => Some(slots),
            Decision::Discard => None,
        }
    }

    /// The wait as a [`Duration`] at the given slot time, or `None` for
    /// [`Decision::Discard`].
    ///
    /// ```
    /// use backoff_core::{Decision, SlotTime};
    /// use core::time::Duration;
    /// let d = Decision::Retry { slots: 3 };
    /// assert_eq!(d.delay(SlotTime::ETHERNET_10M), Some(Duration::from_nanos(153_600)));
    /// assert_eq!(d.delay_nanos(SlotTime::ETHERNET_10M), Some(153_600));
    /// assert_eq!(Decision::Discard.delay(SlotTime::ETHERNET_10M), None);
    /// ```
    #[inline]
    pub const fn delay(self, slot: SlotTime) -> Option<Duration> {
        match self {
            Decision::Retry { slots } => Some(slot.times(slots as u64)),
            Decision::Discard => None,
        }
    }

    /// The wait in nanoseconds at the given slot time, or `None` for
    /// [`Decision::Discard`].
    #[inline]
    pub const fn delay_nanos(self, slot: SlotTime) -> Option<u64> {
        match self {
            Decision::Retry { slots } => Some(slot.times_nanos(slots as u64)),
            Decision::Discard => None,
        }
    }
}

/// The two parameters of truncated BEB.
///
/// [`BebConfig::IEEE_802_3`] is the standard's choice; [`BebConfig::new`] accepts any
/// other for serial buses, radios or experiments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BebConfig {
    backoff_limit: u8,
    attempt_limit: u32,
}

impl Default for BebConfig {
    fn default() -> Self {
        Self::IEEE_802_3
    }
}

impl BebConfig {
    /// `backoffLimit = 10`, `attemptLimit = 16`.
    pub const IEEE_802_3: Self = Self {
        backoff_limit: crate::ieee802_3::BACKOFF_LIMIT,
        attempt_limit: crate::ieee802_3::ATTEMPT_LIMIT,
    };

    /// The largest `backoffLimit` accepted: the window `2^32` still fits a `u32` slot
    /// count (`r < 2^32`).
    pub const MAX_BACKOFF_LIMIT: u8 = 32;

    /// A rule with other limits.
    ///
    /// `backoff_limit` may be 0 (no backoff at all) up to [`Self::MAX_BACKOFF_LIMIT`];
    /// `attempt_limit` must be at least 1 (the first transmission is an attempt).
    ///
    /// ```
    /// use backoff_core::{BebConfig, ConfigErrorKind};
    /// let radio = BebConfig::new(6, 8).unwrap();
    /// assert_eq!(radio.attempt_limit(), 8);
    /// assert_eq!(BebConfig::new(33, 16).unwrap_err().kind(), ConfigErrorKind::BackoffLimitTooLarge);
    /// assert_eq!(BebConfig::new(10, 0).unwrap_err().kind(), ConfigErrorKind::ZeroAttemptLimit);
    /// ```
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::BackoffLimitTooLarge`] above [`Self::MAX_BACKOFF_LIMIT`];
    /// [`ConfigErrorKind::ZeroAttemptLimit`] for `attempt_limit = 0`.
    pub const fn new(backoff_limit: u8, attempt_limit: u32) -> Result<Self, ConfigError> {
        if backoff_limit > Self::MAX_BACKOFF_LIMIT {
            return Err(ConfigError::new(ConfigErrorKind::BackoffLimitTooLarge));
        }
        if attempt_limit == 0 {
            return Err(ConfigError::new(ConfigErrorKind::ZeroAttemptLimit));
        }
        Ok(Self {
            backoff_limit,
            attempt_limit,
        })
    }

    /// `backoffLimit`: the exponent stops growing after this many collisions.
    pub const fn backoff_limit(&self) -> u8 {
        self.backoff_limit
    }

    /// `attemptLimit`: attempts, the first transmission included, before discard.
    pub const fn attempt_limit(&self) -> u32 {
        self.attempt_limit
    }

    /// `k = min(n, backoffLimit)` after `collisions = n` collisions.
    pub const fn exponent(&self, collisions: u32) -> u8 {
        if collisions < self.backoff_limit as u32 {
            collisions as u8
        } else {
            self.backoff_limit
        }
    }

    /// The window size `2^k`: `r` is drawn from `[0, window)`.
    pub const fn window(&self, collisions: u32) -> u64 {
        1u64 << self.exponent(collisions)
    }

    /// Whether `collisions` collisions of one frame exhaust the attempt limit.
    pub const fn is_excessive(&self, collisions: u32) -> bool {
        collisions >= self.attempt_limit
    }

    /// The rule: after `collisions` collisions of the current frame, retry after `r`
    /// slots or discard.
    ///
    /// `collisions` counts the failed attempts of this frame so far, this one included,
    /// from 1 (`n` in the standard), the same count [`Policy::decide`] takes as
    /// `failures`. `collisions = 0` means nothing has failed yet: the answer is
    /// `Retry { slots: 0 }` (go now) without drawing, which is also what the formula gives
    /// (`k = 0`, window `[0, 1)`), and what [`Policy::decide`] answers for 0 failures.
    /// The RNG is stepped once per `Retry` with a non-empty window, never for `Discard`.
    ///
    /// [`Policy::decide`]: crate::Policy::decide
    ///
    /// ```
    /// use backoff_core::{BebConfig, Decision};
    /// use rand_core::SeedableRng;
    /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(42);
    /// let beb = BebConfig::IEEE_802_3;
    /// match beb.decide(3, &mut rng) {
    ///     Decision::Retry { slots } => assert!(slots < 8),
    ///     Decision::Discard => unreachable!(),
    /// }
    /// assert_eq!(beb.decide(16, &mut rng), Decision::Discard);
    /// ```
    #[inline]
    pub fn decide<R: Rng + ?Sized>(&self, collisions: u32, rng: &mut R) -> Decision {
        if self.is_excessive(collisions) {
            return Decision::Discard;
        }
        Decision::Retry {
            slots: top_bits(rng, self.exponent(collisions)),
        }
    }
}

/// Per-frame backoff state for a driver loop: counts the collisions of the frame being
/// sent, asks the rule after each, and is reset when the frame is done.
///
/// It is eight bytes and `Copy`; keep one per transmit queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FrameBackoff {
    config: BebConfig,
    collisions: u32,
}

impl Default for FrameBackoff {
    fn default() -> Self {
        Self::new(BebConfig::IEEE_802_3)
    }
}

impl FrameBackoff {
    /// A fresh frame under the given rule.
    pub const fn new(config: BebConfig) -> Self {
        Self {
            config,
            collisions: 0,
        }
    }

    /// The rule in use.
    pub const fn config(&self) -> BebConfig {
        self.config
    }

    /// Collisions of the current frame so far.
    pub const fn collisions(&self) -> u32 {
        self.collisions
    }

    /// The number of the attempt about to be made (1 for the first transmission).
    /// Saturates at `u32::MAX`.
    pub const fn attempt(&self) -> u32 {
        self.collisions.saturating_add(1)
    }

    /// Whether the frame has been given up (its last decision was [`Decision::Discard`]).
    pub const fn is_discarded(&self) -> bool {
        self.config.is_excessive(self.collisions)
    }

    /// Record a collision of the current attempt and decide what to do.
    ///
    /// After [`Decision::Discard`] every further call discards again until
    /// [`reset`](Self::reset).
    #[inline]
    pub fn on_collision<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Decision {
        self.collisions = self.collisions.saturating_add(1);
        self.config.decide(self.collisions, rng)
    }

    /// The frame went out, or was discarded: start the next one from zero.
    #[inline]
    pub fn reset(&mut self) {
        self.collisions = 0;
    }
}
