//! Station addresses: one byte, with `0xFF` reserved for broadcast.

/// A station address on the medium (a serial bus, a radio channel). `0xFF` is [`Address::BROADCAST`]; every other value
/// names one station.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Address(pub u8);

impl Address {
    /// Every station accepts a frame sent to this address.
    pub const BROADCAST: Self = Self(0xFF);

    /// Whether this is [`Address::BROADCAST`].
    pub const fn is_broadcast(self) -> bool {
        self.0 == Self::BROADCAST.0
    }
}
