//! USART1 in single-wire half-duplex mode as an `embedded-io` serial port.
//!
//! In half-duplex mode (`HDSEL`) the USART's receiver is wired inside the chip to
//! its TX pin, PA9, so the MAC reads back every byte it sends: the echo its collision
//! detection needs. PA9 is open-drain with the internal pull-up, so that when two
//! boards drive the line at once the low level wins and nobody's output is damaged.

use stm32f4xx_hal::pac;
use stm32f4xx_hal::serial::{Error as UartError, RxISR, Serial};

/// A USART error (framing, noise, overrun, parity): on the bus, a collision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, defmt::Format)]
pub struct LineError;

impl core::fmt::Display for LineError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("USART framing, noise or overrun error")
    }
}

impl core::error::Error for LineError {}

impl embedded_io::Error for LineError {
    fn kind(&self) -> embedded_io::ErrorKind {
        embedded_io::ErrorKind::InvalidData
    }
}

/// USART1 on PA9, half duplex.
pub struct HalfDuplex {
    serial: Serial<pac::USART1>,
}

impl HalfDuplex {
    /// Switch an initialised USART1 (TX on PA9) to single-wire half-duplex mode and
    /// make PA9 open-drain with pull-up.
    pub fn new(serial: Serial<pac::USART1>) -> Self {
        // SAFETY: `serial` owns USART1, and PA9 is its pin; these read-modify-writes
        // touch only USART1's CR1/CR3 and PA9's output type and pull bits.
        unsafe {
            let usart = &*pac::USART1::ptr();
            // HDSEL may only be changed while the USART is disabled.
            usart.cr1().modify(|_, w| w.ue().clear_bit());
            usart.cr3().modify(|_, w| w.hdsel().set_bit());
            usart.cr1().modify(|_, w| w.ue().set_bit());
            let gpioa = &*pac::GPIOA::ptr();
            gpioa.otyper().modify(|_, w| w.ot9().open_drain());
            gpioa.pupdr().modify(|_, w| w.pupdr9().pull_up());
        }
        Self { serial }
    }
}

impl embedded_io::ErrorType for HalfDuplex {
    type Error = LineError;
}

impl embedded_io::ReadReady for HalfDuplex {
    fn read_ready(&mut self) -> Result<bool, LineError> {
        Ok(self.serial.is_rx_not_empty())
    }
}

impl embedded_io::Read for HalfDuplex {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, LineError> {
        use embedded_hal_nb::serial::Read;
        let Some(first) = buf.first_mut() else {
            return Ok(0);
        };
        match nb::block!(self.serial.read()) {
            Ok(byte) => {
                *first = byte;
                Ok(1)
            }
            Err(
                UartError::Overrun
                | UartError::FrameFormat
                | UartError::Noise
                | UartError::Parity
                | _,
            ) => Err(LineError),
        }
    }
}

impl embedded_io::Write for HalfDuplex {
    fn write(&mut self, buf: &[u8]) -> Result<usize, LineError> {
        use embedded_hal_nb::serial::Write;
        let Some(&byte) = buf.first() else {
            return Ok(0);
        };
        nb::block!(self.serial.write(byte)).map_err(|_| LineError)?;
        Ok(1)
    }

    fn flush(&mut self) -> Result<(), LineError> {
        Ok(())
    }
}
