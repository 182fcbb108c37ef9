//! What the MAC reports: events while it works, and how each frame ended. The events
//! every MAC has are [`mac_base::Event`]'s; this module adds the serial MAC's drop
//! reasons and its own events (a collision and the backoff after its jam).

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

/// What only the serial MAC reports: a collision detected by read-back, and the
/// backoff after its jam ([`Event::Medium`](mac_base::Event::Medium)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BusEvent {
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
}

/// Something the MAC did, reported by [`MacCore::poll`](crate::MacCore::poll): the
/// events every MAC has, with [`DropReason`] and [`BusEvent`].
pub type Event = mac_base::Event<DropReason, BusEvent>;

/// A frame went out: how many attempts it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Delivery {
    /// Attempts, the successful one included.
    pub attempts: u32,
}

/// Why [`MacCore::enqueue`](crate::MacCore::enqueue) refused a frame, or why
/// [`Mac::send`](crate::Mac::send) did not deliver it
/// ([`SendError::Dropped`](mac_base::SendError::Dropped), with a [`DropReason`]).
pub type SendError = mac_base::SendError<DropReason>;
