//! Receiving goes on while a station sends: three stations broadcast ten frames each
//! on one shared line, so every station should receive 20 frames while it is busy
//! deferring, colliding, backing off and retrying with its own.
//!
//! * An application that takes received frames only once its own sending is done
//!   (what one blocking `send` after another amounts to) loses frames to a full
//!   queue: they are counted as `rx_queue_overflows`, not silently lost, but lost.
//! * A poll-driven application that takes them after every poll loses none, with
//!   the queue length from [`MacConfig::rx_queue_len`] (2).
//!
//! And [`MacCore::next_deadline_ns`] is exact: polling only when a byte arrives or
//! the deadline is reached gives the same run as polling every byte time.

use crate::common;

use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serial_mac::sim::{SIM_BYTE_TIME_NS, SharedBus};
use serial_mac::{Address, Event, MacConfig, MacCore};

const STATIONS: usize = 3;
const FRAMES: usize = 10;
/// The queue the sizing rule asks for when the application drains after every poll.
const RULE_Q: usize = 2;
/// The queue of the board and QEMU applications.
const APP_Q: usize = 4;

fn config(station: usize) -> MacConfig {
    MacConfig::with_byte_time_ns(Address(station as u8), SIM_BYTE_TIME_NS).unwrap()
}

#[derive(Debug, Default, PartialEq, Eq)]
struct Outcome {
    received: [usize; STATIONS],
    overflows: [u32; STATIONS],
    delivered: usize,
    collisions: u32,
}

/// Run the scenario; `drain_while_sending` says whether the application takes
/// received frames while it still has frames of its own to send.
fn scenario<const Q: usize>(drain_while_sending: bool, seed: u64) -> Outcome {
    let mut bus = SharedBus::new(STATIONS).unwrap();
    let mut macs: Vec<MacCore<XorShiftRng, 16, Q>> = (0..STATIONS)
        .map(|s| MacCore::new(config(s), XorShiftRng::seed_from_u64(seed + s as u64)))
        .collect();
    let mut sent = [0usize; STATIONS];
    let mut out = Outcome::default();
    let mut quiet = 0;
    while quiet < 200 {
        let now = bus.now_ns();
        for (s, mac) in macs.iter_mut().enumerate() {
            if mac.is_idle() && sent[s] < FRAMES {
                mac.enqueue(Address::BROADCAST, &[s as u8, sent[s] as u8])
                    .unwrap();
                sent[s] += 1;
            }
            while let Some(event) = mac.poll(&mut bus.port(s), now) {
                if matches!(event, Event::Delivered { .. }) {
                    out.delivered += 1;
                }
            }
            let busy = !mac.is_idle() || sent[s] < FRAMES;
            if drain_while_sending || !busy {
                while mac.take_received().is_some() {
                    out.received[s] += 1;
                }
            }
        }
        let all_done = sent.iter().all(|&n| n == FRAMES) && macs.iter().all(|m| m.is_idle());
        let line_idle = bus.end_step().is_none();
        quiet = if all_done && line_idle { quiet + 1 } else { 0 };
        assert!(bus.step() < 1_000_000, "the scenario did not finish");
    }
    for (s, mac) in macs.iter().enumerate() {
        out.overflows[s] = mac.counters().rx_queue_overflows;
        out.collisions += mac.counters().medium.collisions;
    }
    out
}

#[test]
fn a_poll_driven_station_receives_every_frame_while_it_sends() {
    assert_eq!(
        config(0).rx_queue_len(u64::from(SIM_BYTE_TIME_NS)),
        RULE_Q,
        "the sizing rule"
    );
    for seed in [1, 2, 3, 0x5EED] {
        let out = scenario::<RULE_Q>(true, seed);
        assert_eq!(out.delivered, STATIONS * FRAMES, "seed {seed}");
        assert!(out.collisions > 0, "seed {seed}: the stations did contend");
        assert_eq!(out.received, [20; STATIONS], "seed {seed}");
        assert_eq!(out.overflows, [0; STATIONS], "seed {seed}");
        println!("seed {seed:#x}: drained while sending: {out:?}");
    }
}

#[test]
fn a_station_that_drains_only_between_its_sends_overflows() {
    for seed in [1, 2, 3, 0x5EED] {
        let out = scenario::<APP_Q>(false, seed);
        assert_eq!(out.delivered, STATIONS * FRAMES, "seed {seed}");
        // Every frame is either received or counted, never silently lost.
        for s in 0..STATIONS {
            assert_eq!(
                out.received[s] + out.overflows[s] as usize,
                20,
                "seed {seed} station {s}"
            );
        }
        assert!(out.overflows.iter().any(|&o| o > 0), "seed {seed}: {out:?}");
        println!("seed {seed:#x}: drained after sending: {out:?}");
    }
}

#[test]
fn polling_only_at_deadlines_and_arrivals_gives_the_same_run() {
    use common::{CollideFirst, Line, Reply, mac_with};
    let run = |skip: bool| {
        let mut script = CollideFirst::new(5, 6, Reply::Garble);
        let mut line = Line::new(move |b| script.answer(b));
        let mut mac = mac_with(common::config(), 7);
        mac.enqueue(common::PEER, b"deadline").unwrap();
        let mut events = Vec::new();
        let mut polled = 0u64;
        for _ in 0..100_000 {
            let now = line.now();
            let due = mac.next_deadline_ns().is_some_and(|d| d <= now);
            if !skip || due || embedded_io::ReadReady::read_ready(&mut line).unwrap() {
                polled += 1;
                while let Some(e) = mac.poll(&mut line, now) {
                    events.push((line.step, e));
                }
            }
            if mac.is_idle() {
                break;
            }
            line.end_step();
        }
        (events, line.written.clone(), polled)
    };
    let (every, every_wire, every_polls) = run(false);
    let (skipping, skipping_wire, skipping_polls) = run(true);
    assert!(every.contains(&(every.last().unwrap().0, Event::Delivered { attempts: 6 })));
    assert_eq!(every, skipping);
    assert_eq!(every_wire, skipping_wire);
    assert!(
        skipping_polls * 2 < every_polls,
        "{skipping_polls} polls of {every_polls}"
    );
}
