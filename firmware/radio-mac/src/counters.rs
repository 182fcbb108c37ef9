//! Counters the application can read at any time. They saturate instead of wrapping.

use mac_base::RxErrorKind;

use crate::event::DropReason;

/// What the MAC has done since it was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Counters {
    /// Frames handed to the MAC for sending.
    pub tx_queued: u32,
    /// Frames delivered (acknowledged, or broadcast and sent).
    pub tx_delivered: u32,
    /// Data transmissions put on the air, retransmissions included.
    pub tx_attempts: u32,
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
    /// Data frames received for this station (or broadcast) and queued.
    pub rx_frames: u32,
    /// Retransmissions recognised by their sequence number and not delivered again.
    pub rx_duplicates: u32,
    /// Good frames addressed to another station.
    pub rx_filtered: u32,
    /// Acknowledgements that matched no frame waiting for one.
    pub rx_stray_acks: u32,
    /// Packets whose header check did not match.
    pub rx_header_errors: u32,
    /// Packets whose frame check did not match.
    pub rx_crc_errors: u32,
    /// Packets shorter than their header says.
    pub rx_truncated: u32,
    /// Packets whose length field exceeded the capacity.
    pub rx_oversized: u32,
    /// Malformed packets.
    pub rx_malformed: u32,
    /// Good frames for this station not queued because the queue was full (not
    /// acknowledged either, so the sender tries again).
    pub rx_queue_overflows: u32,
    /// Radio driver errors.
    pub radio_errors: u32,
}

pub(crate) fn bump(counter: &mut u32) {
    *counter = counter.saturating_add(1);
}

impl Counters {
    /// Frames dropped, all reasons together.
    pub const fn dropped(&self) -> u32 {
        self.dropped_no_ack
            .saturating_add(self.dropped_channel_busy)
            .saturating_add(self.dropped_radio_error)
    }

    /// Received packets discarded as bad, all reasons together.
    pub const fn rx_errors(&self) -> u32 {
        self.rx_header_errors
            .saturating_add(self.rx_crc_errors)
            .saturating_add(self.rx_truncated)
            .saturating_add(self.rx_oversized)
            .saturating_add(self.rx_malformed)
    }

    pub(crate) fn count_drop(&mut self, reason: DropReason) {
        bump(match reason {
            DropReason::NoAck => &mut self.dropped_no_ack,
            DropReason::ChannelBusy => &mut self.dropped_channel_busy,
            DropReason::RadioError => &mut self.dropped_radio_error,
        });
    }

    pub(crate) fn count_rx_error(&mut self, kind: RxErrorKind) {
        bump(match kind {
            RxErrorKind::BadHeader => &mut self.rx_header_errors,
            RxErrorKind::BadCrc => &mut self.rx_crc_errors,
            RxErrorKind::Truncated => &mut self.rx_truncated,
            RxErrorKind::Oversized => &mut self.rx_oversized,
            _ => &mut self.rx_malformed,
        });
    }
}
