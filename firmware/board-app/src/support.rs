//! What every Black Pill example needs besides its MAC: a seed from the chip's
//! unique ID, a halt for start-up failures, and the panic handlers (logged over
//! defmt). Shared by `board-app` and `radio-board` (included with `#[path]`).

use defmt::error;
use stm32f4xx_hal::signature::Uid;

/// A 64-bit value from the chip's 96-bit unique ID: wafer position, wafer number and
/// lot number. Different on every chip; each board takes its address and RNG seed
/// from it.
pub fn unique_id() -> u64 {
    let uid = Uid::get();
    let mut id = (u64::from(uid.x()) << 16) ^ u64::from(uid.y()) ^ (u64::from(uid.waf_num()) << 40);
    for b in uid.lot_num().bytes() {
        id = id.rotate_left(8) ^ u64::from(b);
    }
    id
}

/// Log the failure and stop at a breakpoint (a debugger shows where).
pub fn halt() -> ! {
    error!("start-up failed");
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
    halt()
}

#[defmt::panic_handler]
fn defmt_panic() -> ! {
    halt()
}
