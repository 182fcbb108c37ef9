//! What the MAC reports while it works, and how each frame ended. The events every
//! MAC has are [`mac_base::Event`]'s; this module adds the radio MAC's drop reasons
//! and its own events (a busy channel, a missing acknowledgement, a duplicate).

use mac_base::Address;

/// Why a frame handed to the MAC was not delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DropReason {
    /// No acknowledgement came back for the last allowed attempt (the retry limit).
    NoAck,
    /// Carrier sense gave up: under IEEE 802.15.4 CSMA-CA (the default) the
    /// standard's channel access failure (`NB > macMaxCSMABackoffs`: the attempt's
    /// `macMaxCSMABackoffs + 1` CCAs all found the channel busy); under
    /// [`ChannelAccess::Beb`](crate::ChannelAccess::Beb), the channel was busy as many
    /// times in a row as its busy rule allows. (The DCF freezes its counter instead
    /// and never gives up on a busy channel.)
    ChannelBusy,
    /// The radio driver returned an error.
    RadioError,
}

/// What only the radio MAC reports: carrier sense finding the channel busy, a missing
/// acknowledgement, and a retransmission recognised as a duplicate
/// ([`Event::Medium`](mac_base::Event::Medium)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AirEvent {
    /// Carrier sense found the channel busy; the MAC waits `slots` slots.
    ChannelBusy {
        /// The wait drawn by the access rule: under IEEE 802.15.4 CSMA-CA uniform in
        /// `[0, 2^BE - 1]` with the grown `BE`; under
        /// [`ChannelAccess::Beb`](crate::ChannelAccess::Beb), `r` from the busy count of
        /// this attempt. (Not reported by the DCF, which freezes its counter.)
        slots: u32,
    },
    /// No acknowledgement for attempt `attempt`: a collision or a loss is inferred, and
    /// the MAC waits `slots` slots before the next attempt.
    AckTimeout {
        /// The attempt that was not acknowledged.
        attempt: u32,
        /// The wait before the next attempt, as the access rule drew it: under IEEE
        /// 802.15.4 CSMA-CA the first backoff of the fresh CSMA-CA, uniform in
        /// `[0, 2^macMinBE - 1]` unit backoff periods; under
        /// [`ChannelAccess::Beb`](crate::ChannelAccess::Beb), `r` from
        /// `[0, 2^min(attempt, backoffLimit))`; under the DCF, the new backoff counter
        /// (idle slots after DIFS), from the next stage's window.
        slots: u32,
    },
    /// A retransmission of a frame already received (its ACK was lost): acknowledged
    /// again, not delivered again.
    Duplicate {
        /// Its source.
        src: Address,
        /// Its sequence number.
        seq: u8,
    },
}

/// Something the MAC did, reported by [`MacCore::poll`](crate::MacCore::poll): the
/// events every MAC has, with [`DropReason`] and [`AirEvent`].
pub type Event = mac_base::Event<DropReason, AirEvent>;

/// Why [`MacCore::enqueue`](crate::MacCore::enqueue) refused a frame (the radio MAC
/// has no call that waits for a frame's end, so
/// [`SendError::Dropped`](mac_base::SendError::Dropped) never occurs).
pub type SendError = mac_base::SendError;
