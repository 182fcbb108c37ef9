//! The serial-mac example on an STM32F411 "Black Pill" (Cortex-M4F).
//!
//! Every board on the line runs this same program. Each takes its address and RNG
//! seed from the chip's 96-bit unique ID, then, forever: broadcasts a numbered
//! `hello` about once a second (with random jitter), logs every frame it receives,
//! and every ten frames logs its counters. Logs go out over RTT (defmt): `cargo run
//! --release` flashes the board with probe-rs and prints them.
//!
//! Wiring: PA9 of every board on one wire, and GND to GND. Each PA9 is open-drain
//! with the internal pull-up (about 40 kΩ); for lines longer than a few tens of
//! centimetres add one 1–4.7 kΩ pull-up to 3.3 V on the line.
#![no_std]
#![no_main]

mod clock;
mod port;
mod support;

use cortex_m_rt::entry;
use defmt::{error, info, warn};
use defmt_rtt as _;
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use serial_mac::{Address, BusEvent, Event, Mac, MacConfig, MacCore, SendError};
use stm32f4xx_hal::{pac, prelude::*, rcc, serial};
use support::halt;

const CORE_HZ: u32 = 96_000_000;
const BAUD: u32 = 115_200;
const CAPACITY: usize = 64;
const RX_QUEUE: usize = 4;

#[entry]
fn main() -> ! {
    let (Some(dp), Some(mut cp)) = (pac::Peripherals::take(), cortex_m::Peripherals::take()) else {
        halt()
    };
    // The Black Pill's 25 MHz crystal, core at 96 MHz.
    let mut rcc = dp
        .RCC
        .freeze(rcc::Config::hse(25.MHz()).sysclk(CORE_HZ.Hz()));
    let gpioa = dp.GPIOA.split(&mut rcc);
    let config = serial::Config::default().baudrate(BAUD.bps());
    // PA10 is claimed by the driver but unused: in half-duplex mode RX is PA9.
    let Ok(usart) = dp.USART1.serial((gpioa.pa9, gpioa.pa10), config, &mut rcc) else {
        halt()
    };
    let port = port::HalfDuplex::new(usart);

    // The unique ID gives every board its own address (never broadcast) and seed.
    let id = support::unique_id();
    let mut rng = XorShiftRng::seed_from_u64(id);
    let address = Address((id % 254) as u8);
    let Ok(mac_config) = MacConfig::new(address, BAUD) else {
        halt()
    };

    let time = clock::CycleClock::start(&mut cp.DCB, &mut cp.DWT, CORE_HZ);
    let delay = cp.SYST.delay(&rcc.clocks);
    let core: MacCore<XorShiftRng, CAPACITY, RX_QUEUE> =
        MacCore::new(mac_config, XorShiftRng::seed_from_u64(rng.next_u64()));
    let Some(mac) = cortex_m::singleton!(: Mac<port::HalfDuplex, clock::CycleClock,
        stm32f4xx_hal::timer::SysDelay, XorShiftRng, CAPACITY, RX_QUEUE> = Mac::new(port, time, delay, core))
    else {
        halt()
    };
    info!("station {=u8} on the line at {=u32} baud", address.0, BAUD);

    let mut n: u32 = 0;
    loop {
        // Listen for 0.5 .. 1.5 s, then say hello.
        let listen_ns = 500_000_000 + u64::from(rng.next_u32() % 1_000_000_000);
        while let Some(frame) = mac.receive(listen_ns) {
            info!("rx from {=u8}: {=[u8]:a}", frame.src().0, frame.payload());
        }
        n = n.wrapping_add(1);
        let mut text = [0u8; 16];
        let len = hello(&mut text, n);
        // Frames heard while the hello waits for the line are logged as they come.
        let sent = mac.send_with(
            Address::BROADCAST,
            &text[..len],
            |e| {
                if let Event::Medium(BusEvent::Backoff { attempt, slots }) = e {
                    info!(
                        "collision on attempt {=u32}, backing off {=u32} slots",
                        attempt, slots
                    );
                }
            },
            |frame| info!("rx from {=u8}: {=[u8]:a}", frame.src().0, frame.payload()),
        );
        match sent {
            Ok(d) => info!("hello {=u32} sent in {=u32} attempts", n, d.attempts),
            Err(SendError::Dropped(reason)) => warn!("hello {=u32} dropped: {}", n, reason),
            Err(e) => error!("hello {=u32} refused: {}", n, e),
        }
        if n % 10 == 0 {
            info!("{}", mac.counters());
        }
    }
}

/// `hello <n>` in ASCII; returns its length.
fn hello(buf: &mut [u8; 16], n: u32) -> usize {
    buf[..6].copy_from_slice(b"hello ");
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut v = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let tail = &digits[i..];
    buf[6..6 + tail.len()].copy_from_slice(tail);
    6 + tail.len()
}
