//! The same program as `without-backoff`, with the number computed by backoff-core:
//! the IEEE 802.3 rule through `FrameBackoff` (`BebConfig::decide`), converted to
//! nanoseconds with `SlotTime`.
#![no_std]
#![no_main]

use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};

use backoff_core::{BebConfig, Decision, FrameBackoff, SlotTime};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

static mut COLLISIONS: u32 = 3;
static mut OUT: u64 = 0;

#[cortex_m_rt::entry]
fn main() -> ! {
    let mut rng = XorShiftRng::seed_from_u64(0x5EED);
    let mut frame = FrameBackoff::new(BebConfig::IEEE_802_3);
    // A slot of 80 bit times at 115 200 baud (8 bytes, 8N1).
    let slot = SlotTime::from_bit_times(80, 115_200).unwrap_or(SlotTime::ETHERNET_10M);
    loop {
        // SAFETY: single-threaded; volatile so the compiler keeps the computation.
        let collisions = unsafe { read_volatile(addr_of!(COLLISIONS)) };
        let out = match frame.on_collision(&mut rng) {
            Decision::Retry { slots } => slot.times_nanos(u64::from(slots)),
            Decision::Discard => {
                frame.reset();
                u64::MAX
            }
        } ^ u64::from(collisions);
        // SAFETY: as above.
        unsafe { write_volatile(addr_of_mut!(OUT), out) };
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
