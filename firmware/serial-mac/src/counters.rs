//! Counters the application can read at any time. They saturate instead of wrapping.

use mac_base::RxErrorKind;

use crate::event::DropReason;

/// What the MAC has done since it was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Counters {
    /// Frames handed to the MAC for sending.
    pub tx_queued: u32,
    /// Frames delivered (every byte read back intact).
    pub tx_delivered: u32,
    /// Transmission attempts started.
    pub tx_attempts: u32,
    /// Collisions detected.
    pub collisions: u32,
    /// Frames dropped after the last allowed attempt collided.
    pub dropped_excessive_collisions: u32,
    /// Frames dropped because the line never went idle.
    pub dropped_line_busy: u32,
    /// Frames dropped because a byte's echo never came back.
    pub dropped_no_echo: u32,
    /// Frames dropped because the serial port failed on write.
    pub dropped_io_error: u32,
    /// Frames received for this station (or broadcast) and queued.
    pub rx_frames: u32,
    /// Good frames addressed to another station.
    pub rx_filtered: u32,
    /// Frames whose header check did not match.
    pub rx_header_errors: u32,
    /// Frames whose CRC did not match.
    pub rx_crc_errors: u32,
    /// Frames cut short by an idle line.
    pub rx_truncated: u32,
    /// Frames whose length field exceeded the capacity.
    pub rx_oversized: u32,
    /// Frames with a line error inside, or a broadcast source.
    pub rx_malformed: u32,
    /// Line errors (framing, noise, overrun) seen while receiving.
    pub rx_line_errors: u32,
    /// Good frames for this station lost because the receive queue was full.
    pub rx_queue_overflows: u32,
    /// Bytes discarded while looking for a start delimiter.
    pub rx_noise_bytes: u32,
}

pub(crate) fn bump(counter: &mut u32) {
    *counter = counter.saturating_add(1);
}

impl Counters {
    /// Frames dropped, all reasons together.
    pub const fn dropped(&self) -> u32 {
        self.dropped_excessive_collisions
            .saturating_add(self.dropped_line_busy)
            .saturating_add(self.dropped_no_echo)
            .saturating_add(self.dropped_io_error)
    }

    /// Received frames discarded as bad, all reasons together.
    pub const fn rx_errors(&self) -> u32 {
        self.rx_header_errors
            .saturating_add(self.rx_crc_errors)
            .saturating_add(self.rx_truncated)
            .saturating_add(self.rx_oversized)
            .saturating_add(self.rx_malformed)
    }

    pub(crate) fn count_drop(&mut self, reason: DropReason) {
        bump(match reason {
            DropReason::ExcessiveCollisions => &mut self.dropped_excessive_collisions,
            DropReason::LineBusy => &mut self.dropped_line_busy,
            DropReason::NoEcho => &mut self.dropped_no_echo,
            DropReason::IoError => &mut self.dropped_io_error,
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
