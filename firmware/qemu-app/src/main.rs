//! The serial-mac example on QEMU's `mps2-an386` board (Cortex-M4F).
//!
//! UART0 is the bus; whoever is at the other end of it (the host test, through a
//! socket) echoes bytes, injects collisions and plays the other stations. The
//! firmware:
//!
//! 1. sends three frames to station 2 and logs every attempt, collision, backoff
//!    and outcome (the host lets the first through, collides the second three times
//!    and the third on every attempt, so the third is dropped after 16);
//! 2. receives frames, logging the good ones and counting the bad ones; answers
//!    `ping` with `pong`; stops at `bye`;
//! 3. logs its counters and exits through semihosting (status 0).
//!
//! Logs are defmt over semihosting: decode them with `defmt-print -e <this ELF>`.
#![no_std]
#![no_main]

mod clock;

use cortex_m_rt::entry;
use defmt::{error, info, warn};
use defmt_semihosting as _;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serial_mac::{Address, BusEvent, Event, Frame, Mac, MacConfig, MacCore, SendError};

use clock::{SysTickClock, SysTickDelay};
use qemu_app::exit::{fail, succeed};
use qemu_app::uart::{self, CmsdkUart};

/// The AN386 system clock, which drives both the core (SysTick) and the UART.
const CLOCK_HZ: u32 = 25_000_000;
/// The line rate the MAC's byte times are computed for.
const BAUD: u32 = 115_200;
/// This station.
const STATION: Address = Address(0x01);
/// The station the example talks to.
const PEER: Address = Address(0x02);
/// Payload capacity and receive queue length: the MAC's buffers, fixed at build time.
const CAPACITY: usize = 64;
const RX_QUEUE: usize = 4;
/// How long to wait for the next frame before giving up, in nanoseconds.
const RX_TIMEOUT_NS: u64 = 10_000_000_000;

/// The MAC's parameters. QEMU forwards the socket's bytes at the pace the host
/// schedules its threads, so the gap that ends a frame is widened to 24 byte times
/// (2 ms) and the echo timeout to 2000 (174 ms). The slot, jam and backoff rule are
/// the defaults.
const CONFIG: MacConfig = {
    let Ok(config) = MacConfig::new(STATION, BAUD) else {
        panic!("bad baud rate")
    };
    let Ok(config) = config.with_interframe_gap(24) else {
        panic!("bad gap")
    };
    let Ok(config) = config.with_echo_timeout(2_000) else {
        panic!("bad echo timeout")
    };
    config
};

type BusMac = Mac<CmsdkUart, SysTickClock, SysTickDelay, XorShiftRng, CAPACITY, RX_QUEUE>;

#[entry]
fn main() -> ! {
    let Some(cp) = cortex_m::Peripherals::take() else {
        fail()
    };
    clock::start(cp.SYST);
    // SAFETY: UART0 is used by nothing else in this program.
    let uart = unsafe { CmsdkUart::new(uart::UART0_BASE, CLOCK_HZ, BAUD) };
    // A real board seeds from its unique ID; QEMU has none, so the address stands in.
    let rng = XorShiftRng::seed_from_u64(0x5EED_0000 ^ u64::from(STATION.0));
    let core = MacCore::new(CONFIG, rng);
    // The MAC and all its buffers live in a static, not on the stack.
    let Some(mac) = cortex_m::singleton!(: BusMac =
        Mac::new(uart, SysTickClock::new(CLOCK_HZ), SysTickDelay::new(CLOCK_HZ), core))
    else {
        fail()
    };
    info!(
        "boot station={=u8} byte_ns={=u32} ifg={=u32} slot={=u32} jam={=u8} attempts={=u32}",
        STATION.0,
        CONFIG.byte_time_ns(),
        CONFIG.interframe_gap(),
        CONFIG.slot(),
        CONFIG.jam_len(),
        CONFIG.beb().attempt_limit()
    );

    let frames: [&[u8]; 3] = [b"frame one", b"frame two", b"frame three"];
    for (i, payload) in frames.iter().enumerate() {
        send(mac, i as u8 + 1, PEER, payload);
    }

    loop {
        let Some(frame) = mac.receive_with(RX_TIMEOUT_NS, |e| log_event(0, e)) else {
            error!("rx timeout");
            fail()
        };
        log_frame(&frame);
        match frame.payload() {
            b"ping" => send(mac, 4, frame.src(), b"pong"),
            b"bye" => break,
            _ => {}
        }
    }
    info!("counters {}", mac.counters());
    info!("done");
    succeed()
}

/// Send one frame, logging its progress and outcome.
fn send(mac: &mut BusMac, n: u8, dst: Address, payload: &[u8]) {
    match mac.send_with(dst, payload, |e| log_event(n, e), |f| log_frame(&f)) {
        Ok(delivery) => info!(
            "tx delivered frame={=u8} attempts={=u32}",
            n, delivery.attempts
        ),
        Err(SendError::Dropped(reason)) => warn!("tx dropped frame={=u8} reason={}", n, reason),
        Err(e) => warn!("tx refused frame={=u8} error={}", n, e),
    }
}

fn log_frame(frame: &Frame<CAPACITY>) {
    info!(
        "rx frame src={=u8} dst={=u8} payload={=[u8]:a}",
        frame.src().0,
        frame.dst().0,
        frame.payload()
    );
}

fn log_event(n: u8, event: Event) {
    match event {
        Event::AttemptStarted { attempt } => {
            info!("tx attempt frame={=u8} attempt={=u32}", n, attempt)
        }
        Event::Medium(BusEvent::Collision { attempt, byte }) => {
            info!(
                "tx collision frame={=u8} attempt={=u32} byte={=u16}",
                n, attempt, byte
            )
        }
        Event::Medium(BusEvent::Backoff { attempt, slots }) => {
            info!(
                "tx backoff frame={=u8} attempt={=u32} slots={=u32}",
                n, attempt, slots
            )
        }
        Event::Received { src, len } => info!("rx queued src={=u8} len={=u8}", src.0, len),
        Event::RxDiscarded { kind } => warn!("rx discarded {}", kind),
        // Reported by `send` from its result.
        Event::Delivered { .. } | Event::Dropped { .. } => {}
    }
}
