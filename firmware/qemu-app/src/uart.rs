//! The ARM CMSDK APB UART of the MPS2 boards (UART0 at `0x4000_4000` on AN386), as
//! an `embedded-io` serial port. On the bus it is the station's transceiver: what it
//! writes, it reads back.

use core::ptr::{read_volatile, write_volatile};

const DATA: usize = 0x00;
const STATE: usize = 0x04;
const CTRL: usize = 0x08;
const INTCLEAR: usize = 0x0C;
const BAUDDIV: usize = 0x10;

const STATE_TX_FULL: u32 = 1 << 0;
const STATE_RX_FULL: u32 = 1 << 1;
const STATE_TX_OVERRUN: u32 = 1 << 2;
const STATE_RX_OVERRUN: u32 = 1 << 3;
const CTRL_TX_EN: u32 = 1 << 0;
const CTRL_RX_EN: u32 = 1 << 1;
const CTRL_RX_INT_EN: u32 = 1 << 3;

/// UART0 of the MPS2 AN386 board.
pub const UART0_BASE: usize = 0x4000_4000;
/// UART1 of the MPS2 AN386 board.
pub const UART1_BASE: usize = 0x4000_5000;

/// Clear every interrupt of the UART at `base` (for an interrupt handler, which
/// does not own the UART).
///
/// # Safety
/// `base` must be the address of a CMSDK APB UART.
pub unsafe fn clear_interrupts(base: usize) {
    // SAFETY: the caller's contract; INTCLEAR is write-1-to-clear and touches
    // nothing else.
    unsafe { write_volatile((base + INTCLEAR) as *mut u32, 0xF) }
}

/// A received byte was overwritten before it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, defmt::Format)]
pub struct Overrun;

impl core::fmt::Display for Overrun {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("UART receive overrun")
    }
}

impl core::error::Error for Overrun {}

impl embedded_io::Error for Overrun {
    fn kind(&self) -> embedded_io::ErrorKind {
        embedded_io::ErrorKind::Other
    }
}

/// The UART, enabled for transmit and receive.
pub struct CmsdkUart {
    base: usize,
}

impl CmsdkUart {
    /// Take the UART at `base`, set its divider for `baud` from the `clock_hz`
    /// peripheral clock, and enable it.
    ///
    /// # Safety
    /// `base` must be the address of a CMSDK APB UART that nothing else uses.
    pub unsafe fn new(base: usize, clock_hz: u32, baud: u32) -> Self {
        let uart = Self { base };
        // The UART needs a divider of at least 16.
        let div = (clock_hz / baud.max(1)).max(16);
        uart.write_reg(BAUDDIV, div);
        uart.write_reg(CTRL, CTRL_TX_EN | CTRL_RX_EN);
        // Discard whatever the receive buffer holds, and clear the overrun flags. On
        // QEMU this read also tells the emulated UART's back end that it may deliver
        // input again; without it the first byte can wait for an unrelated event.
        let _ = uart.read_reg(DATA);
        uart.write_reg(STATE, STATE_RX_OVERRUN | STATE_TX_OVERRUN);
        uart
    }

    /// Raise the UART's receive interrupt when a byte arrives, so that a core
    /// asleep in `WFI` wakes for it.
    pub fn enable_rx_interrupt(&mut self) {
        let ctrl = self.read_reg(CTRL);
        self.write_reg(CTRL, ctrl | CTRL_RX_INT_EN);
    }

    /// Whether a received byte is waiting.
    pub fn rx_ready(&self) -> bool {
        self.read_reg(STATE) & STATE_RX_FULL != 0
    }

    fn read_reg(&self, offset: usize) -> u32 {
        // SAFETY: `new`'s contract: `base` is this UART's register block.
        unsafe { read_volatile((self.base + offset) as *const u32) }
    }

    fn write_reg(&self, offset: usize, value: u32) {
        // SAFETY: as in `read_reg`.
        unsafe { write_volatile((self.base + offset) as *mut u32, value) }
    }
}

impl embedded_io::ErrorType for CmsdkUart {
    type Error = Overrun;
}

impl embedded_io::ReadReady for CmsdkUart {
    fn read_ready(&mut self) -> Result<bool, Overrun> {
        Ok(self.read_reg(STATE) & (STATE_RX_FULL | STATE_RX_OVERRUN) != 0)
    }
}

impl embedded_io::Read for CmsdkUart {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Overrun> {
        let Some(first) = buf.first_mut() else {
            return Ok(0);
        };
        loop {
            let state = self.read_reg(STATE);
            if state & STATE_RX_OVERRUN != 0 {
                // Write 1 to clear; the byte in the buffer is still read below next time.
                self.write_reg(STATE, STATE_RX_OVERRUN);
                return Err(Overrun);
            }
            if state & STATE_RX_FULL != 0 {
                *first = self.read_reg(DATA) as u8;
                return Ok(1);
            }
        }
    }
}

impl embedded_io::Write for CmsdkUart {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Overrun> {
        let Some(&byte) = buf.first() else {
            return Ok(0);
        };
        while self.read_reg(STATE) & STATE_TX_FULL != 0 {}
        self.write_reg(DATA, u32::from(byte));
        Ok(1)
    }

    fn flush(&mut self) -> Result<(), Overrun> {
        Ok(())
    }
}
