//! What a MAC reports while it works: the events every MAC has, and one variant that
//! carries the events only its medium has.

use crate::address::Address;
use crate::error::RxErrorKind;

/// Something a MAC did, reported by its `poll`.
///
/// `D` is the MAC's drop reason: why a frame ended undelivered depends on the medium
/// (every attempt collided on a wire, no acknowledgement came back on the air). `M` is
/// what only that MAC reports (a collision and its jam on a wire; a busy channel, an
/// ACK timeout, a duplicate on the air), carried by [`Event::Medium`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event<D, M> {
    /// Attempt `attempt` (1 for the first transmission) found the medium idle and
    /// began.
    AttemptStarted {
        /// The attempt number.
        attempt: u32,
    },
    /// The frame was delivered, as far as the MAC can tell: every byte read back
    /// intact on a wire; acknowledged (or, broadcast, sent) on the air.
    Delivered {
        /// Attempts it took.
        attempts: u32,
    },
    /// The frame was dropped.
    Dropped {
        /// Why.
        reason: D,
        /// Attempts made.
        attempts: u32,
    },
    /// A frame for this station (or broadcast) was received and queued.
    Received {
        /// Its source.
        src: Address,
        /// Its payload length.
        len: u8,
    },
    /// A received frame was discarded (and counted).
    RxDiscarded {
        /// Why.
        kind: RxErrorKind,
    },
    /// An event only this MAC's medium has.
    Medium(M),
}
