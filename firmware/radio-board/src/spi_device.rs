//! An `embedded-hal` SPI device from the HAL's SPI bus and a chip-select pin: the
//! one device on the bus, chip select low for the whole transaction.

use embedded_hal::digital::OutputPin;
use embedded_hal::spi::{ErrorKind, ErrorType, Operation, SpiBus, SpiDevice};

/// The SX1276 on SPI1 with its NSS pin.
pub struct OnlyDevice<BUS, CS> {
    bus: BUS,
    cs: CS,
    core_hz: u32,
}

impl<BUS, CS: OutputPin> OnlyDevice<BUS, CS> {
    /// Takes the bus and the chip-select pin (driven high, deselected, here).
    pub fn new(bus: BUS, mut cs: CS, core_hz: u32) -> Self {
        let _ = cs.set_high();
        Self { bus, cs, core_hz }
    }
}

impl<BUS, CS> ErrorType for OnlyDevice<BUS, CS> {
    type Error = ErrorKind;
}

impl<BUS: SpiBus, CS: OutputPin> SpiDevice for OnlyDevice<BUS, CS> {
    fn transaction(&mut self, operations: &mut [Operation<'_, u8>]) -> Result<(), ErrorKind> {
        self.cs.set_low().map_err(|_| ErrorKind::ChipSelectFault)?;
        let result = operations.iter_mut().try_for_each(|op| match op {
            Operation::Read(buf) => self.bus.read(buf),
            Operation::Write(buf) => self.bus.write(buf),
            Operation::Transfer(read, write) => self.bus.transfer(read, write),
            Operation::TransferInPlace(buf) => self.bus.transfer_in_place(buf),
            Operation::DelayNs(ns) => {
                let cycles = u64::from(*ns) * u64::from(self.core_hz) / 1_000_000_000;
                cortex_m::asm::delay(u32::try_from(cycles).unwrap_or(u32::MAX));
                Ok(())
            }
        });
        let flushed = self.bus.flush();
        self.cs.set_high().map_err(|_| ErrorKind::ChipSelectFault)?;
        result.and(flushed).map_err(|_| ErrorKind::Other)
    }
}
