//! The baseline: read a collision count, draw from the RNG, publish a number. The
//! same as `with-backoff` except that the number is the raw draw.
#![no_std]
#![no_main]

use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

static mut COLLISIONS: u32 = 3;
static mut OUT: u64 = 0;

#[cortex_m_rt::entry]
fn main() -> ! {
    let mut rng = XorShiftRng::seed_from_u64(0x5EED);
    loop {
        // SAFETY: single-threaded; volatile so the compiler keeps the computation.
        let collisions = unsafe { read_volatile(addr_of!(COLLISIONS)) };
        let out = u64::from(rng.next_u32()) ^ u64::from(collisions);
        // SAFETY: as above.
        unsafe { write_volatile(addr_of_mut!(OUT), out) };
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
