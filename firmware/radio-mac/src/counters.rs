//! Counters the application can read at any time. They saturate instead of wrapping.
//! The counters every MAC keeps are [`mac_base::Counters`]'s; this module adds the
//! radio MAC's own.

use mac_base::counters::bump;

use crate::event::DropReason;

/// What only the radio MAC counts: missing acknowledgements, busy channels, drops by
/// reason, acknowledgements, duplicates and radio errors
/// ([`Counters::medium`](mac_base::Counters::medium)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AirCounters {
    /// Attempts whose acknowledgement did not come in time.
    pub ack_timeouts: u32,
    /// Carrier-sense checks that found the channel busy.
    pub channel_busy: u32,
    /// Frames dropped after the retry limit.
    pub dropped_no_ack: u32,
    /// Frames dropped because the channel stayed busy.
    pub dropped_channel_busy: u32,
    /// Frames dropped on a radio driver error.
    pub dropped_radio_error: u32,
    /// Acknowledgements sent.
    pub acks_sent: u32,
    /// Retransmissions recognised by their sequence number and not delivered again.
    pub rx_duplicates: u32,
    /// Acknowledgements that matched no frame waiting for one.
    pub rx_stray_acks: u32,
    /// Radio driver errors.
    pub radio_errors: u32,
    /// Data attempts that waited for the duty cycle's credit.
    pub duty_cycle_waits: u32,
    /// ACKs not sent because the duty cycle's account could not pay for them.
    pub acks_withheld: u32,
    /// Time on the air, data and ACKs, in nanoseconds.
    pub air_time_ns: u64,
}

impl AirCounters {
    /// Frames dropped, all reasons together.
    pub const fn dropped(&self) -> u32 {
        self.dropped_no_ack
            .saturating_add(self.dropped_channel_busy)
            .saturating_add(self.dropped_radio_error)
    }

    pub(crate) fn count_drop(&mut self, reason: DropReason) {
        bump(match reason {
            DropReason::NoAck => &mut self.dropped_no_ack,
            DropReason::ChannelBusy => &mut self.dropped_channel_busy,
            DropReason::RadioError => &mut self.dropped_radio_error,
        });
    }
}

/// What the MAC has done since it was created: the counters every MAC keeps, with
/// [`AirCounters`].
pub type Counters = mac_base::Counters<AirCounters>;
