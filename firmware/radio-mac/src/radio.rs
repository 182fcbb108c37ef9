//! The radio the MAC drives: four operations, nothing about any chip.

/// A half-duplex packet radio.
///
/// The radio listens whenever it is not transmitting and keeps (at least) the last
/// packet it received until [`receive`](Radio::receive) takes it. None of the
/// methods blocks: the MAC keeps its own timeouts (interframe space, ACK timeout,
/// backoff) on the clock the caller passes to [`MacCore::poll`](crate::MacCore::poll),
/// so "receive with a timeout" is a series of polls until a deadline. A driver for a
/// chip maps these to its registers or its HAL (see the firmware's `radio-board`).
pub trait Radio {
    /// The driver's error (SPI failure, chip not answering, ...).
    type Error: core::fmt::Debug;

    /// Start sending `packet` as one PHY packet; returns at once.
    ///
    /// # Errors
    ///
    /// The driver's error if the radio cannot start sending.
    fn transmit(&mut self, packet: &[u8]) -> Result<(), Self::Error>;

    /// Whether the packet given to [`transmit`](Radio::transmit) is still on the air.
    ///
    /// # Errors
    ///
    /// The driver's error if the radio cannot be read.
    fn is_transmitting(&mut self) -> Result<bool, Self::Error>;

    /// Move a packet received since the last call into `buf`, returning its length;
    /// `None` if there is none. A packet longer than `buf` is cut to `buf`'s length
    /// (the frame check then rejects it).
    ///
    /// # Errors
    ///
    /// The driver's error if the radio cannot be read.
    fn receive(&mut self, buf: &mut [u8]) -> Result<Option<usize>, Self::Error>;

    /// Clear channel assessment: `true` if the radio hears no carrier or energy above
    /// its threshold now.
    ///
    /// # Errors
    ///
    /// The driver's error if the radio cannot be read.
    fn channel_clear(&mut self) -> Result<bool, Self::Error>;
}

impl<T: Radio + ?Sized> Radio for &mut T {
    type Error = T::Error;
    fn transmit(&mut self, packet: &[u8]) -> Result<(), Self::Error> {
        (**self).transmit(packet)
    }
    fn is_transmitting(&mut self) -> Result<bool, Self::Error> {
        (**self).is_transmitting()
    }
    fn receive(&mut self, buf: &mut [u8]) -> Result<Option<usize>, Self::Error> {
        (**self).receive(buf)
    }
    fn channel_clear(&mut self) -> Result<bool, Self::Error> {
        (**self).channel_clear()
    }
}
