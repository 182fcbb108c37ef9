//! The transmit path on a scripted line: healthy echo, collisions injected on the
//! first k attempts (k = 0..=17), jam and backoff on the wire, the drop after the
//! 16th attempt, and the other ways a frame can end.

use crate::common;

use common::*;
use serial_mac::{BusEvent, DropReason, Event, Frame, SendError};

const PAYLOAD: &[u8] = b"collision test";

fn wire() -> Vec<u8> {
    let frame = Frame::<N>::new(PEER, ME, PAYLOAD).unwrap();
    let mut buf = [0u8; N + serial_mac::frame::OVERHEAD];
    let n = frame.emit(&mut buf).unwrap();
    buf[..n].to_vec()
}

fn outcome(events: &[(u64, Event)]) -> Option<Event> {
    events
        .iter()
        .map(|&(_, e)| e)
        .find(|e| matches!(e, Event::Delivered { .. } | Event::Dropped { .. }))
}

fn is_final(e: &Event) -> bool {
    matches!(e, Event::Delivered { .. } | Event::Dropped { .. })
}

#[test]
fn healthy_echo_sends_the_frame_once_after_an_interframe_gap() {
    let mut mac = mac_with(config(), 1);
    let mut line = Line::echo();
    mac.enqueue(PEER, PAYLOAD).unwrap();
    let events = run(&mut mac, &mut line, 1_000, is_final);
    assert_eq!(outcome(&events), Some(Event::Delivered { attempts: 1 }));
    let sent: Vec<u8> = line.written.iter().map(|&(_, b)| b).collect();
    assert_eq!(sent, wire());
    // The line is watched for a whole interframe gap before the first byte.
    assert_eq!(line.written[0].0, u64::from(config().interframe_gap()));
    // One byte per byte time: each waits for the previous one's echo.
    for (i, &(step, _)) in line.written.iter().enumerate() {
        assert_eq!(step, line.written[0].0 + i as u64);
    }
    let c = mac.counters();
    assert_eq!(
        (
            c.tx_queued,
            c.tx_delivered,
            c.tx_attempts,
            c.medium.collisions,
            c.medium.dropped()
        ),
        (1, 1, 1, 0, 0)
    );
    assert!(mac.is_idle());
}

/// Collide the first `k` attempts at byte `at` and check everything on the way.
fn collide_first(k: u32, at: usize, reply: Reply, seed: u64) {
    let config = config();
    let mut mac = mac_with(config, seed);
    let mut script = CollideFirst::new(k, at, reply);
    let mut line = Line::new(move |b| script.answer(b));
    mac.enqueue(PEER, PAYLOAD).unwrap();
    let events = run(&mut mac, &mut line, 2_000_000, is_final);

    let attempts = k.min(15) + 1;
    // A byte after our echo is noticed at the next byte.
    let detected_at = if matches!(reply, Reply::EchoThen(_)) {
        at + 1
    } else {
        at
    };
    let expected = if k < 16 {
        Event::Delivered { attempts }
    } else {
        Event::Dropped {
            reason: DropReason::ExcessiveCollisions,
            attempts: 16,
        }
    };
    assert_eq!(outcome(&events), Some(expected), "k = {k}");

    let collisions: Vec<_> = events
        .iter()
        .filter_map(|&(s, e)| match e {
            Event::Medium(BusEvent::Collision { attempt, byte }) => Some((s, attempt, byte)),
            _ => None,
        })
        .collect();
    let backoffs: Vec<_> = events
        .iter()
        .filter_map(|&(s, e)| match e {
            Event::Medium(BusEvent::Backoff { attempt, slots }) => Some((s, attempt, slots)),
            _ => None,
        })
        .collect();
    let n_collisions = k.min(16) as usize;
    assert_eq!(collisions.len(), n_collisions, "k = {k}");
    // A backoff after every collision but the one that ends the frame.
    assert_eq!(backoffs.len(), k.min(15) as usize, "k = {k}");

    let starts: Vec<u64> = events
        .iter()
        .filter_map(|&(s, e)| matches!(e, Event::AttemptStarted { .. }).then_some(s))
        .collect();
    assert_eq!(starts.len(), attempts as usize, "k = {k}: attempts");
    for &s in &starts {
        // Each attempt begins on the wire with a start delimiter.
        assert!(
            line.written.contains(&(s, serial_mac::frame::START)),
            "k = {k}: no start at {s}"
        );
    }
    // After the last attempt nothing more is sent.
    let last_start = *starts.last().unwrap();
    let after: Vec<_> = line
        .written
        .iter()
        .filter(|&&(s, _)| s >= last_start)
        .collect();
    let expected_after = if k < 16 {
        wire().len()
    } else {
        detected_at + 1 + 2
    };
    assert_eq!(
        after.len(),
        expected_after,
        "k = {k}: bytes of the last attempt (and its jam)"
    );
    for (i, &(step, attempt, byte)) in collisions.iter().enumerate() {
        assert_eq!(attempt, i as u32 + 1);
        assert_eq!(usize::from(byte), detected_at);
        // The jam follows the collision: jam_len bytes of the jam byte, one per byte time.
        let jam: Vec<_> = line
            .written
            .iter()
            .filter(|&&(s, _)| s >= step)
            .take(2)
            .collect();
        assert_eq!(jam.len(), 2);
        for &&(_, b) in &jam {
            assert_eq!(
                b,
                config.jam_byte(),
                "k = {k}: jam after collision {attempt}"
            );
        }
    }
    for &(step, attempt, slots) in &backoffs {
        // r is drawn from [0, 2^min(n, 10)).
        let window = 1u32 << attempt.min(10);
        assert!(
            slots < window,
            "k = {k}: attempt {attempt} drew {slots} >= {window}"
        );
        // The next attempt starts when r slots have passed and the line has been idle
        // for an interframe gap since the jam (the two overlap, as in 802.3).
        let next = starts[attempt as usize];
        let wait = u64::from(slots * config.slot()).max(u64::from(config.interframe_gap()));
        assert_eq!(
            next,
            step + wait,
            "k = {k}: attempt {} after backoff {slots}",
            attempt + 1
        );
    }
    let c = mac.counters();
    assert_eq!(c.medium.collisions, k.min(16));
    assert_eq!(c.tx_attempts, attempts);
    assert_eq!(c.medium.dropped_excessive_collisions, u32::from(k >= 16));
    assert_eq!(c.tx_delivered, u32::from(k < 16));
    assert!(mac.is_idle());
}

#[test]
fn collisions_on_the_first_k_attempts_k_0_to_17() {
    for k in 0..=17 {
        collide_first(k, 5, Reply::Corrupt(0xA5), 0xC0FFEE + u64::from(k));
    }
}

#[test]
fn a_framing_error_is_a_collision() {
    collide_first(3, 2, Reply::Garble, 7);
}

#[test]
fn a_collision_on_the_first_or_last_byte_is_detected() {
    collide_first(2, 0, Reply::Corrupt(0x7F), 8);
    collide_first(2, PAYLOAD.len() + 5, Reply::Garble, 9);
}

#[test]
fn a_byte_before_our_echo_is_a_collision() {
    collide_first(1, 4, Reply::EchoThen(0x11), 10);
}

#[test]
fn a_missing_echo_drops_the_frame_as_no_echo() {
    let mut mac = mac_with(config(), 2);
    let mut line = Line::new(|_| Reply::Silence);
    mac.enqueue(PEER, PAYLOAD).unwrap();
    let events = run(&mut mac, &mut line, 1_000, is_final);
    assert_eq!(
        outcome(&events),
        Some(Event::Dropped {
            reason: DropReason::NoEcho,
            attempts: 1
        })
    );
    assert_eq!(line.written.len(), 1, "nothing after the unanswered byte");
    assert_eq!(mac.counters().medium.dropped_no_echo, 1);
}

#[test]
fn carrier_sense_waits_for_an_interframe_gap_after_the_last_foreign_byte() {
    let config = config();
    let mut mac = mac_with(config, 3);
    let mut line = Line::echo();
    mac.enqueue(PEER, PAYLOAD).unwrap();
    let mut last_foreign = 0;
    let mut events = Vec::new();
    // Another station's bytes every other byte time for 40 byte times: gaps of one
    // byte time never make an interframe gap.
    for step in 0..200u64 {
        if step < 40 && step % 2 == 0 {
            line.inject(Ok(0x33));
            last_foreign = step + 1; // readable from the next step
        }
        events.extend(run(&mut mac, &mut line, 1, |_| false));
    }
    assert_eq!(outcome(&events), Some(Event::Delivered { attempts: 1 }));
    let first = line.written[0].0;
    assert_eq!(first, last_foreign + u64::from(config.interframe_gap()));
    assert_eq!(mac.counters().medium.rx_noise_bytes, 20);
}

#[test]
fn a_line_that_never_goes_idle_drops_the_frame_as_line_busy() {
    let config = config().with_defer_limit(100);
    let mut mac = mac_with(config, 4);
    let mut line = Line::echo();
    mac.enqueue(PEER, PAYLOAD).unwrap();
    let mut events = Vec::new();
    for _ in 0..500 {
        line.inject(Ok(0x33));
        events.extend(run(&mut mac, &mut line, 1, |_| false));
    }
    assert_eq!(
        outcome(&events),
        Some(Event::Dropped {
            reason: DropReason::LineBusy,
            attempts: 0
        })
    );
    assert!(line.written.is_empty());
    assert_eq!(mac.counters().medium.dropped_line_busy, 1);
}

#[test]
fn enqueue_rejects_what_it_cannot_send_and_a_second_frame_while_busy() {
    let mut mac = mac_with(config(), 5);
    assert_eq!(
        mac.enqueue(PEER, &[0; N + 1]),
        Err(SendError::PayloadTooLong)
    );
    mac.enqueue(PEER, &[0; N]).unwrap();
    assert_eq!(mac.enqueue(PEER, b"x"), Err(SendError::Busy));
    assert_eq!(mac.counters().tx_queued, 1);
}

#[test]
fn every_frame_ends_delivered_or_dropped_on_a_randomly_hostile_line() {
    // A line that corrupts, garbles, swallows or interrupts bytes at random: every
    // frame still ends with exactly one outcome, and the counters agree.
    use rand_core::{Rng, SeedableRng};
    let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(99);
    let mut mac = mac_with(config(), 6);
    let mut line = Line::new(move |b| match rng.next_u32() % 100 {
        0..=2 => Reply::Corrupt(b ^ 0x10),
        3 => Reply::Garble,
        4 => Reply::EchoThen(0x7E),
        5 => Reply::Silence,
        _ => Reply::Echo,
    });
    let (mut delivered, mut dropped) = (0, 0);
    for i in 0..200u32 {
        mac.enqueue(PEER, &i.to_le_bytes()).unwrap();
        let events = run(&mut mac, &mut line, 1_000_000, is_final);
        let finals: Vec<_> = events.iter().filter(|(_, e)| is_final(e)).collect();
        assert_eq!(finals.len(), 1, "frame {i}");
        match finals[0].1 {
            Event::Delivered { .. } => delivered += 1,
            _ => dropped += 1,
        }
    }
    let c = mac.counters();
    assert_eq!(c.tx_delivered, delivered);
    assert_eq!(c.medium.dropped(), dropped);
    assert_eq!(delivered + dropped, 200);
    assert!(delivered > 100, "{delivered} delivered");
}

#[test]
fn without_a_jam_the_backoff_follows_the_collision_at_once() {
    let config = config().with_jam(0, 0);
    let mut mac = mac_with(config, 11);
    let mut script = CollideFirst::new(1, 3, Reply::Garble);
    let mut line = Line::new(move |b| script.answer(b));
    mac.enqueue(PEER, PAYLOAD).unwrap();
    let events = run(&mut mac, &mut line, 10_000, is_final);
    assert_eq!(outcome(&events), Some(Event::Delivered { attempts: 2 }));
    let collision = events
        .iter()
        .find(|(_, e)| matches!(e, Event::Medium(BusEvent::Collision { .. })))
        .unwrap()
        .0;
    let backoff = events
        .iter()
        .find(|(_, e)| matches!(e, Event::Medium(BusEvent::Backoff { .. })))
        .unwrap()
        .0;
    assert_eq!(
        collision, backoff,
        "no jam: the backoff is drawn in the same byte time"
    );
    // The first attempt's 4 bytes, then the whole frame: nothing in between.
    assert_eq!(line.written.len(), 4 + wire().len());
}
