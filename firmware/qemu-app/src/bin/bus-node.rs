//! One station of the emulated multi-drop bus: the serial-mac firmware on QEMU's
//! `mps2-an386`, driven in lock step by `bus-hub` (see the `lockstep` crate).
//!
//! * UART0 is the station's bus transceiver: what the MAC writes goes to the hub's
//!   model of the line, and the hub writes back whatever the line carried (the
//!   station's own byte, or the wired-AND of several).
//! * UART1 is the control channel: the hub sends the set-up (address, seed, frames),
//!   then one tick at a time; the node answers each tick with a report.
//! * Time is the hub's tick count: the node has no clock of its own, so a run does
//!   not depend on how fast the emulator goes.
//!
//! The application is poll-driven: in each tick it hands the MAC its next frame when
//! the previous one is resolved, polls until nothing is left to do, and takes every
//! received frame at once (so the receive queue, sized by
//! [`MacConfig::rx_queue_len`], never overflows). It logs every event with its tick
//! (defmt over semihosting), and its counters at the end.
//!
//! Waiting for the hub, the core sleeps (`WFI`) with interrupts masked between the
//! check and the sleep: a byte arriving after the check still wakes it, because
//! `WFI` wakes on a pending interrupt even when it is masked.
#![no_std]
#![no_main]

use cortex_m::interrupt::InterruptNumber;
use cortex_m::peripheral::NVIC;
use cortex_m_rt::{entry, exception};
use defmt::{error, info, warn};
use defmt_semihosting as _;
use lockstep::{BYTE_TIME_NS, NodeSetup, Report, SETUP_LEN, TICK_NS, Tick, Wake};
use qemu_app::exit::{fail, succeed};
use qemu_app::uart::{self, CmsdkUart, UART0_BASE, UART1_BASE};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serial_mac::{Address, BusEvent, Event, MacConfig, MacCore};

/// The AN386 peripheral clock (sets the UART divider; QEMU ignores the rate).
const CLOCK_HZ: u32 = 25_000_000;
const BAUD: u32 = 115_200;
/// Payload capacity.
const CAPACITY: usize = 16;
/// The receive queue, from the sizing rule: the application drains it after every
/// poll, at most one tick apart.
const RX_QUEUE: usize = {
    let Ok(config) = MacConfig::with_byte_time_ns(Address(0), BYTE_TIME_NS) else {
        panic!("bad byte time")
    };
    config.rx_queue_len(TICK_NS as u64)
};

/// UART0's and UART1's receive interrupts on AN386.
#[derive(Clone, Copy)]
struct Irq(u16);

// SAFETY: 0 and 2 are the receive interrupts of UART0 and UART1 on mps2-an386.
unsafe impl InterruptNumber for Irq {
    fn number(self) -> u16 {
        self.0
    }
}

const UART0_RX_IRQ: Irq = Irq(0);
const UART1_RX_IRQ: Irq = Irq(2);

#[exception]
unsafe fn DefaultHandler(_irqn: i16) {
    // Only the two receive interrupts are enabled: they wake the core, the main
    // loop reads the byte.
    // SAFETY: both addresses are CMSDK UARTs on this board.
    unsafe {
        uart::clear_interrupts(UART0_BASE);
        uart::clear_interrupts(UART1_BASE);
    }
}

/// Sleep until `uart` has a byte. Check and sleep with interrupts masked, so that a
/// byte arriving between the two cannot be missed.
fn wait_for_byte(uart: &CmsdkUart) {
    loop {
        let ready = cortex_m::interrupt::free(|_| {
            if uart.rx_ready() {
                true
            } else {
                cortex_m::asm::wfi();
                false
            }
        });
        if ready {
            return;
        }
    }
}

fn read_ctl(ctl: &mut CmsdkUart) -> u8 {
    wait_for_byte(ctl);
    let mut b = [0u8];
    match embedded_io::Read::read(ctl, &mut b) {
        Ok(1) => b[0],
        _ => {
            error!("control channel overrun");
            fail()
        }
    }
}

fn write_ctl(ctl: &mut CmsdkUart, bytes: &[u8]) {
    if embedded_io::Write::write_all(ctl, bytes).is_err() {
        error!("control channel write failed");
        fail()
    }
}

/// UART0 as the MAC sees it, counting the bytes written in each tick.
struct Transceiver {
    uart: CmsdkUart,
    written: u32,
}

impl embedded_io::ErrorType for Transceiver {
    type Error = uart::Overrun;
}

impl embedded_io::ReadReady for Transceiver {
    fn read_ready(&mut self) -> Result<bool, uart::Overrun> {
        self.uart.read_ready()
    }
}

impl embedded_io::Read for Transceiver {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, uart::Overrun> {
        self.uart.read(buf)
    }
}

impl embedded_io::Write for Transceiver {
    fn write(&mut self, buf: &[u8]) -> Result<usize, uart::Overrun> {
        let n = self.uart.write(buf)?;
        self.written += n as u32;
        Ok(n)
    }

    fn flush(&mut self) -> Result<(), uart::Overrun> {
        self.uart.flush()
    }
}

type NodeMac = MacCore<XorShiftRng, CAPACITY, RX_QUEUE>;

#[entry]
fn main() -> ! {
    // SAFETY: UART0 and UART1 are used by nothing else in this program.
    let (mut bus, mut ctl) = unsafe {
        (
            CmsdkUart::new(UART0_BASE, CLOCK_HZ, BAUD),
            CmsdkUart::new(UART1_BASE, CLOCK_HZ, BAUD),
        )
    };
    bus.enable_rx_interrupt();
    ctl.enable_rx_interrupt();
    // SAFETY: the handler for both is DefaultHandler above; nothing relies on
    // these interrupts being masked.
    unsafe {
        NVIC::unmask(UART0_RX_IRQ);
        NVIC::unmask(UART1_RX_IRQ);
    }

    let mut raw = [0u8; SETUP_LEN];
    for b in raw.iter_mut() {
        *b = read_ctl(&mut ctl);
    }
    let Ok(setup) = NodeSetup::decode(&raw) else {
        error!("bad set-up message");
        fail()
    };
    let Ok(mut config) = MacConfig::with_byte_time_ns(Address(setup.address), BYTE_TIME_NS) else {
        error!("bad station address {=u8}", setup.address);
        fail()
    };
    if setup.defer_limit != 0 {
        config = config.with_defer_limit(u32::from(setup.defer_limit));
    }
    let rng = XorShiftRng::seed_from_u64(setup.seed);
    // The MAC and its buffers live in a static, not on the stack.
    let Some(mac) = cortex_m::singleton!(: NodeMac = MacCore::new(config, rng)) else {
        fail()
    };
    info!(
        "boot station={=u8} seed={=u64} frames={=u8} byte_ns={=u32} ifg={=u32} slot={=u32} jam={=u8} attempts={=u32} defer_limit={=u32} rx_queue={=usize}",
        setup.address,
        setup.seed,
        setup.frames,
        config.byte_time_ns(),
        config.interframe_gap(),
        config.slot(),
        config.jam_len(),
        config.beb().attempt_limit(),
        config.defer_limit(),
        RX_QUEUE
    );

    let mut port = Transceiver {
        uart: bus,
        written: 0,
    };
    let frames = setup.frames;
    let mut next: u8 = 0;
    let mut resolved: u8 = 0;
    let mut tick: u32 = u32::MAX;
    loop {
        let flags = read_ctl(&mut ctl);
        let mut extra = [0u8; 4];
        for b in extra.iter_mut().take(Tick::extra_len(flags)) {
            *b = read_ctl(&mut ctl);
        }
        let t = Tick::decode(flags, extra, tick);
        tick = t.tick;
        if t.stop {
            break;
        }
        if t.bus_byte {
            wait_for_byte(&port.uart);
        }
        let now = u64::from(tick) * u64::from(TICK_NS);
        loop {
            if mac.is_idle() && next < frames {
                let dst = Address(setup.destinations[usize::from(next)]);
                match mac.enqueue(dst, &lockstep::payload(setup.address, next)) {
                    Ok(()) => info!(
                        "t={=u32} tx queued frame={=u8} dst={=u8}",
                        tick, next, dst.0
                    ),
                    Err(e) => {
                        error!("t={=u32} tx refused frame={=u8} error={}", tick, next, e);
                        resolved += 1;
                    }
                }
                next += 1;
            }
            let Some(event) = mac.poll(&mut port, now) else {
                break;
            };
            if log_event(tick, next.wrapping_sub(1), event) {
                resolved += 1;
            }
        }
        while let Some(frame) = mac.take_received() {
            let (seq, len) = (
                frame.payload().get(1).copied().unwrap_or(0xFF),
                frame.len_field(),
            );
            info!(
                "t={=u32} rx frame src={=u8} dst={=u8} seq={=u8} len={=u8}",
                tick,
                frame.src().0,
                frame.dst().0,
                seq,
                len
            );
        }
        let wrote = core::mem::take(&mut port.written);
        if wrote > 1 {
            error!("t={=u32} {=u32} bytes written in one tick", tick, wrote);
            fail()
        }
        let wake = match mac.next_deadline_ns() {
            None => Wake::Idle,
            Some(deadline) => {
                let at = deadline.div_ceil(u64::from(TICK_NS));
                if at <= u64::from(tick) + 1 {
                    Wake::Next
                } else {
                    Wake::At(u32::try_from(at).unwrap_or(u32::MAX))
                }
            }
        };
        let report = Report {
            wrote: wrote == 1,
            done: resolved == frames,
            wake,
        };
        let mut buf = [0u8; 5];
        let n = report.encode(&mut buf);
        write_ctl(&mut ctl, &buf[..n]);
    }
    info!("t={=u32} counters {}", tick, mac.counters());
    info!("done");
    succeed()
}

/// Log one event with its tick and frame; returns whether it resolved the frame.
fn log_event(tick: u32, frame: u8, event: Event) -> bool {
    match event {
        Event::AttemptStarted { attempt } => {
            info!(
                "t={=u32} tx attempt frame={=u8} attempt={=u32}",
                tick, frame, attempt
            )
        }
        Event::Medium(BusEvent::Collision { attempt, byte }) => info!(
            "t={=u32} tx collision frame={=u8} attempt={=u32} byte={=u16}",
            tick, frame, attempt, byte
        ),
        Event::Medium(BusEvent::Backoff { attempt, slots }) => info!(
            "t={=u32} tx backoff frame={=u8} attempt={=u32} slots={=u32}",
            tick, frame, attempt, slots
        ),
        Event::Delivered { attempts } => {
            info!(
                "t={=u32} tx delivered frame={=u8} attempts={=u32}",
                tick, frame, attempts
            );
            return true;
        }
        Event::Dropped { reason, attempts } => {
            warn!(
                "t={=u32} tx dropped frame={=u8} reason={} attempts={=u32}",
                tick, frame, reason, attempts
            );
            return true;
        }
        Event::Received { .. } => {}
        Event::RxDiscarded { kind } => warn!("t={=u32} rx discarded kind={}", tick, kind),
    }
    false
}
