//! The radio MAC's size: `radio_mac::MacCore` (64-byte payloads, 4 received frames,
//! 8 peers) driven by a stand-in radio whose every operation is a volatile access,
//! so that nothing of the MAC is optimised away. The MAC value lives in a static. Compare with `without-backoff`, the
//! same start-up and RNG without any MAC.
#![no_std]
#![no_main]

use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};

use radio_mac::{MacConfig, MacCore, Radio};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

static mut REG: u32 = 0;
static mut CLOCK: u64 = 0;
static mut FIFO: [u8; 80] = [0; 80];

/// A radio made of volatile reads and writes.
struct Probe;

fn reg() -> u32 {
    // SAFETY: single-threaded; volatile so the compiler keeps every access.
    unsafe { read_volatile(addr_of!(REG)) }
}

impl Radio for Probe {
    type Error = ();
    fn transmit(&mut self, packet: &[u8]) -> Result<(), ()> {
        for (i, &b) in packet.iter().enumerate().take(80) {
            // SAFETY: as above; i < 80.
            unsafe { write_volatile(addr_of_mut!(FIFO).cast::<u8>().add(i), b) };
        }
        if reg() & 1 == 0 { Ok(()) } else { Err(()) }
    }
    fn is_transmitting(&mut self) -> Result<bool, ()> {
        Ok(reg() & 2 != 0)
    }
    fn receive(&mut self, buf: &mut [u8]) -> Result<Option<usize>, ()> {
        let len = (reg() >> 8) as usize & 0x7F;
        if len == 0 {
            return Ok(None);
        }
        let len = len.min(buf.len()).min(80);
        for (i, slot) in buf.iter_mut().enumerate().take(len) {
            // SAFETY: as above; i < 80.
            *slot = unsafe { read_volatile(addr_of!(FIFO).cast::<u8>().add(i)) };
        }
        Ok(Some(len))
    }
    fn channel_clear(&mut self) -> Result<bool, ()> {
        Ok(reg() & 4 == 0)
    }
}

#[cortex_m_rt::entry]
fn main() -> ! {
    let rng = XorShiftRng::seed_from_u64(0x5EED);
    // In a static, as a firmware keeps it, so that its RAM shows in .bss.
    let Some(mac) = cortex_m::singleton!(: MacCore<XorShiftRng, 64, 4> =
        MacCore::new(MacConfig::IEEE_802_15_4_2450, rng))
    else {
        loop {}
    };
    let mut radio = Probe;
    loop {
        // SAFETY: as above.
        let now = unsafe { read_volatile(addr_of!(CLOCK)) };
        if reg() & 8 != 0 {
            let _ = mac.enqueue(mac_base::Address((reg() >> 16) as u8), b"probe");
        }
        let event = mac.poll(&mut radio, now).is_some() as u32;
        let got = mac.take_received().map_or(0, |f| f.payload().len() as u32);
        // SAFETY: as above.
        unsafe { write_volatile(addr_of_mut!(REG), event ^ got ^ mac.counters().tx_delivered) };
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
