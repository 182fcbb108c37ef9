//! What the MAC reports: events while it works, and how each frame ended.

use mac_base::{Address, RxErrorKind};

/// Why a frame handed to the MAC was not delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DropReason {
    /// Every allowed attempt collided (16 with the IEEE 802.3 rule).
    ExcessiveCollisions,
    /// The line never stayed idle for an interframe gap within the deferral limit.
    LineBusy,
    /// A byte's echo did not come back within the echo timeout: the transceiver does
    /// not hear the line (wiring or driver-enable fault). Retrying would not help.
    NoEcho,
    /// The serial port returned an error on write.
    IoError,
}

/// Something the MAC did, reported by [`MacCore::poll`](crate::MacCore::poll).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    /// Attempt `attempt` (1 for the first transmission) found the line idle and began.
    AttemptStarted {
        /// The attempt number.
        attempt: u32,
    },
    /// Attempt `attempt` collided at byte `byte` of the frame; the jam follows.
    Collision {
        /// The attempt number.
        attempt: u32,
        /// Index of the byte whose read-back showed the collision.
        byte: u16,
    },
    /// The jam after attempt `attempt` is sent; the MAC now waits `slots` slot times
    /// before attempt `attempt + 1`.
    Backoff {
        /// The attempt that collided.
        attempt: u32,
        /// `r`, drawn from `[0, 2^min(attempt, 10))` by the IEEE 802.3 rule.
        slots: u32,
    },
    /// The frame was delivered: all its bytes read back intact.
    Delivered {
        /// Attempts it took.
        attempts: u32,
    },
    /// The frame was dropped.
    Dropped {
        /// Why.
        reason: DropReason,
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
}

/// A frame went out: how many attempts it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Delivery {
    /// Attempts, the successful one included.
    pub attempts: u32,
}

/// Why [`Mac::send`](crate::Mac::send) did not deliver a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SendError {
    /// The payload exceeds the frame capacity; nothing was sent.
    PayloadTooLong,
    /// The MAC is still busy with another frame; nothing was queued.
    Busy,
    /// The frame was handed to the MAC and dropped.
    Dropped(DropReason),
}

impl core::fmt::Display for SendError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SendError::PayloadTooLong => f.write_str("payload longer than the frame capacity"),
            SendError::Busy => f.write_str("a frame is already being sent"),
            SendError::Dropped(reason) => write!(f, "frame dropped: {reason:?}"),
        }
    }
}

impl core::error::Error for SendError {}
