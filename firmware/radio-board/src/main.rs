//! The radio-mac example on an STM32F411 "Black Pill" with an SX1276 LoRa module
//! (an RFM95W, say) at 868.1 MHz, SF7, 125 kHz.
//!
//! Every board runs this same program. Each takes its address and RNG seed from the
//! chip's 96-bit unique ID, then, forever: about every 10 to 14 s sends a numbered
//! `ping` to the last station it heard (acknowledged, retried with backoff) or, until
//! it has heard one, broadcasts it; logs every event of the MAC, every frame
//! received, and every ten frames its counters. Logs go out over RTT (defmt):
//! `cargo run --release` flashes the board with probe-rs and prints them.
//!
//! Channel access is the radio MAC's default, IEEE 802.15.4-2020 unslotted CSMA-CA
//! (macMinBE 3, macMaxBE 5, macMaxCSMABackoffs 4, macMaxFrameRetries 3), counted in
//! the LoRa slot of `Settings::mac_config` (3.072 ms) instead of 802.15.4's 320 µs.
//!
//! 868.1 MHz lies in the EU868 sub-band 868.0-868.6 MHz, where a device may be on
//! the air 1 % of the time. The MAC keeps that itself (LoRaMac-node's time credits
//! over one hour: each transmission costs 100 times its air time of credit, which
//! fills with time; a data frame waits for it, an ACK it cannot pay is withheld), and
//! the demo stays well inside it: a ping is 18 bytes, 51.456 ms on the air at SF7,
//! and the ACK for a peer's ping 41.216 ms, 92.7 ms every 12 s on average, 0.77 %.
//!
//! Wiring (module pin: Black Pill pin): SCK: PA5, MISO: PA6, MOSI: PA7, NSS: PA4,
//! RESET: PB0, 3.3V: 3V3, GND: GND, and an 868 MHz antenna on ANT (never transmit
//! without one). DIO0 is not needed: the driver polls the IRQ flags.
#![no_std]
#![no_main]

#[path = "../../board-app/src/clock.rs"]
mod clock;
mod spi_device;
#[path = "../../board-app/src/support.rs"]
mod support;

use cortex_m_rt::entry;
use defmt::{error, info, warn};
use defmt_rtt as _;
use mac_base::{Address, TimeSource};
use radio_mac::{Event, MacCore};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use stm32f4xx_hal::{pac, prelude::*, rcc, spi};
use support::halt;
use sx127x_radio::{Settings, Sx127x};

const CORE_HZ: u32 = 96_000_000;
const CAPACITY: usize = 64;
const RX_QUEUE: usize = 4;

#[entry]
fn main() -> ! {
    let (Some(dp), Some(mut cp)) = (pac::Peripherals::take(), cortex_m::Peripherals::take()) else {
        halt()
    };
    let mut rcc = dp
        .RCC
        .freeze(rcc::Config::hse(25.MHz()).sysclk(CORE_HZ.Hz()));
    let gpioa = dp.GPIOA.split(&mut rcc);
    let gpiob = dp.GPIOB.split(&mut rcc);
    let bus = dp.SPI1.spi(
        (Some(gpioa.pa5), Some(gpioa.pa6), Some(gpioa.pa7)),
        spi::Mode {
            polarity: spi::Polarity::IdleLow,
            phase: spi::Phase::CaptureOnFirstTransition,
        },
        1.MHz(),
        &mut rcc,
    );
    let device = spi_device::OnlyDevice::new(bus, gpioa.pa4.into_push_pull_output(), CORE_HZ);

    // Reset the module: NRESET low for 100 µs, then 5 ms before the first access.
    let mut reset = gpiob.pb0.into_push_pull_output();
    reset.set_low();
    cortex_m::asm::delay(CORE_HZ / 10_000);
    reset.set_high();
    cortex_m::asm::delay(CORE_HZ / 200);
    let mut radio = match Sx127x::new(device, Settings::EU868_SF7_BW125) {
        Ok(r) => r,
        Err(e) => {
            error!("SX1276 not ready: {}", e);
            halt()
        }
    };

    let id = support::unique_id();
    let mut rng = XorShiftRng::seed_from_u64(id);
    let address = Address((id % 254) as u8);
    let Ok(config) = Settings::EU868_SF7_BW125.mac_config(address) else {
        halt()
    };
    let mut clock = clock::CycleClock::start(&mut cp.DCB, &mut cp.DWT, CORE_HZ);
    let Some(mac) = cortex_m::singleton!(: MacCore<XorShiftRng, CAPACITY, RX_QUEUE> =
        MacCore::new(config, XorShiftRng::seed_from_u64(rng.next_u64())))
    else {
        halt()
    };
    info!(
        "station {=u8} on 868.1 MHz, SF7, slot {=u64} ns",
        address.0,
        config.slot().as_nanos()
    );

    let mut peer = Address::BROADCAST;
    let mut n: u32 = 0;
    let mut next_ping = 0u64;
    loop {
        let now = clock.now_ns();
        if mac.is_idle() && now >= next_ping {
            n = n.wrapping_add(1);
            let mut text = *b"ping 0000";
            for (i, slot) in text[5..].iter_mut().rev().enumerate() {
                *slot = b'0' + ((n / 10u32.pow(i as u32)) % 10) as u8;
            }
            if let Err(e) = mac.enqueue(peer, &text) {
                warn!("ping {=u32} refused: {}", n, e);
            }
            next_ping = now + 10_000_000_000 + u64::from(rng.next_u32() % 4_000_000_000);
        }
        match mac.poll(&mut radio, now) {
            Some(Event::Delivered { attempts }) => {
                info!(
                    "ping {=u32} to {=u8} delivered in {=u32} attempts",
                    n, peer.0, attempts
                )
            }
            Some(Event::Dropped { reason, attempts }) => {
                warn!(
                    "ping {=u32} dropped after {=u32} attempts: {}",
                    n, attempts, reason
                )
            }
            Some(other) => info!("{}", other),
            None => {}
        }
        while let Some(frame) = mac.take_received() {
            info!("rx from {=u8}: {=[u8]:a}", frame.src().0, frame.payload());
            peer = frame.src();
            if mac.counters().rx_frames % 10 == 0 {
                info!("{}", mac.counters());
            }
        }
    }
}
