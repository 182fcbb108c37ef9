//! Counters an application can read at any time: the ones every MAC keeps, and a
//! field with the ones only its medium has. They saturate instead of wrapping.

use crate::error::RxErrorKind;

/// What a MAC has done since it was created.
///
/// `M` holds the counters only that MAC keeps (collisions and drops by reason on a
/// wire; ACK timeouts, busy channels and duplicates on the air): [`Counters::medium`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Counters<M> {
    /// Frames handed to the MAC for sending.
    pub tx_queued: u32,
    /// Frames delivered: every byte read back intact on a wire; acknowledged (or,
    /// broadcast, sent) on the air.
    pub tx_delivered: u32,
    /// Transmission attempts started, retransmissions included.
    pub tx_attempts: u32,
    /// Frames received for this station (or broadcast) and queued.
    pub rx_frames: u32,
    /// Good frames addressed to another station.
    pub rx_filtered: u32,
    /// Frames whose header check did not match.
    pub rx_header_errors: u32,
    /// Frames whose frame check did not match.
    pub rx_crc_errors: u32,
    /// Frames that ended before the length their header gives.
    pub rx_truncated: u32,
    /// Frames whose length field exceeded the capacity.
    pub rx_oversized: u32,
    /// Malformed frames (see [`RxErrorKind::Malformed`]).
    pub rx_malformed: u32,
    /// Good frames for this station not queued because the receive queue was full (a
    /// MAC that acknowledges frames does not acknowledge these, so their sender tries
    /// again).
    pub rx_queue_overflows: u32,
    /// The counters only this MAC's medium has.
    pub medium: M,
}

/// Add one to `counter`, saturating at `u32::MAX`.
pub fn bump(counter: &mut u32) {
    *counter = counter.saturating_add(1);
}

impl<M> Counters<M> {
    /// Received frames discarded as bad, all reasons together.
    pub const fn rx_errors(&self) -> u32 {
        self.rx_header_errors
            .saturating_add(self.rx_crc_errors)
            .saturating_add(self.rx_truncated)
            .saturating_add(self.rx_oversized)
            .saturating_add(self.rx_malformed)
    }

    /// Count a received frame discarded for `kind` (for the MAC that owns these
    /// counters).
    pub fn count_rx_error(&mut self, kind: RxErrorKind) {
        bump(match kind {
            RxErrorKind::BadHeader => &mut self.rx_header_errors,
            RxErrorKind::BadCrc => &mut self.rx_crc_errors,
            RxErrorKind::Truncated => &mut self.rx_truncated,
            RxErrorKind::Oversized => &mut self.rx_oversized,
            RxErrorKind::Malformed => &mut self.rx_malformed,
        });
    }
}
