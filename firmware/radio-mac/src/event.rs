//! What the MAC reports while it works, and how each frame ended.

use mac_base::{Address, RxErrorKind};

/// Why a frame handed to the MAC was not delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DropReason {
    /// No acknowledgement came back for the last allowed attempt (the retry limit).
    NoAck,
    /// Carrier sense found the channel busy as many times in a row as the busy rule
    /// allows.
    ChannelBusy,
    /// The radio driver returned an error.
    RadioError,
}

/// Something the MAC did, reported by [`MacCore::poll`](crate::MacCore::poll).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    /// Attempt `attempt` (1 for the first transmission) went on the air.
    AttemptStarted {
        /// The attempt number.
        attempt: u32,
    },
    /// Carrier sense found the channel busy; the MAC waits `slots` slots.
    ChannelBusy {
        /// `r`, drawn by the backoff rule from the busy count of this attempt.
        slots: u32,
    },
    /// No acknowledgement for attempt `attempt`: a collision or a loss is inferred, and
    /// the MAC waits `slots` slots before the next attempt.
    AckTimeout {
        /// The attempt that was not acknowledged.
        attempt: u32,
        /// `r`, drawn from `[0, 2^min(attempt, backoffLimit))`.
        slots: u32,
    },
    /// The frame was delivered: acknowledged, or (broadcast) sent.
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
    /// A data frame for this station (or broadcast) was received and queued.
    Received {
        /// Its source.
        src: Address,
        /// Its payload length.
        len: u8,
    },
    /// A retransmission of a frame already received (its ACK was lost): acknowledged
    /// again, not delivered again.
    Duplicate {
        /// Its source.
        src: Address,
        /// Its sequence number.
        seq: u8,
    },
    /// A received packet was discarded (and counted).
    RxDiscarded {
        /// Why.
        kind: RxErrorKind,
    },
}

/// Why [`MacCore::enqueue`](crate::MacCore::enqueue) refused a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SendError {
    /// The payload exceeds the frame capacity; nothing was queued.
    PayloadTooLong,
    /// The MAC is still busy with another frame; nothing was queued.
    Busy,
}

impl core::fmt::Display for SendError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            SendError::PayloadTooLong => "payload longer than the frame capacity",
            SendError::Busy => "a frame is already being sent",
        })
    }
}

impl core::error::Error for SendError {}
