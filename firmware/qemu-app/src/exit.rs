//! How the QEMU firmware ends: through semihosting, with a status QEMU passes on,
//! and the same way on a panic.

use cortex_m_semihosting::debug;
use defmt::error;

/// Leave QEMU with a success status.
pub fn succeed() -> ! {
    debug::exit(debug::EXIT_SUCCESS);
    fail()
}

/// Leave QEMU with a failure status.
pub fn fail() -> ! {
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::bkpt();
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    match info.location() {
        Some(l) => error!("panic at {=str}:{=u32}", l.file(), l.line()),
        None => error!("panic"),
    }
    fail()
}

#[defmt::panic_handler]
fn defmt_panic() -> ! {
    fail()
}
