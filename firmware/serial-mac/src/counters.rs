//! Counters the application can read at any time. They saturate instead of wrapping.
//! The counters every MAC keeps are [`mac_base::Counters`]'s; this module adds the
//! serial MAC's own.

use mac_base::counters::bump;

use crate::event::DropReason;

/// What only the serial MAC counts: collisions, drops by reason, line errors and
/// noise ([`Counters::medium`](mac_base::Counters::medium)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BusCounters {
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
    /// Line errors (framing, noise, overrun) seen while receiving.
    pub rx_line_errors: u32,
    /// Bytes discarded while looking for a start delimiter.
    pub rx_noise_bytes: u32,
}

impl BusCounters {
    /// Frames dropped, all reasons together.
    pub const fn dropped(&self) -> u32 {
        self.dropped_excessive_collisions
            .saturating_add(self.dropped_line_busy)
            .saturating_add(self.dropped_no_echo)
            .saturating_add(self.dropped_io_error)
    }

    pub(crate) fn count_drop(&mut self, reason: DropReason) {
        bump(match reason {
            DropReason::ExcessiveCollisions => &mut self.dropped_excessive_collisions,
            DropReason::LineBusy => &mut self.dropped_line_busy,
            DropReason::NoEcho => &mut self.dropped_no_echo,
            DropReason::IoError => &mut self.dropped_io_error,
        });
    }
}

/// What the MAC has done since it was created: the counters every MAC keeps, with
/// [`BusCounters`].
pub type Counters = mac_base::Counters<BusCounters>;
