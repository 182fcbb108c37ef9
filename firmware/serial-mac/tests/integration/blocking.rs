//! The driver: `send` returns the frame's fate, `send_with` hands over frames received
//! while it waits, `receive` times out, and the poll-driven calls never block.

use crate::common;

use std::cell::Cell;
use std::collections::VecDeque;
use std::rc::Rc;

use common::*;
use serial_mac::{Address, DropReason, Event, Frame, Mac, SendError, TimeSource};

/// A clock that only moves when the driver waits: the delay advances it, and each
/// advance past a byte boundary moves the scripted line on by one byte time.
#[derive(Clone)]
struct SimClock(Rc<Cell<u64>>);

impl TimeSource for SimClock {
    fn now_ns(&mut self) -> u64 {
        self.0.get()
    }
}

impl embedded_hal::delay::DelayNs for SimClock {
    fn delay_ns(&mut self, ns: u32) {
        self.0.set(self.0.get() + u64::from(ns));
    }
}

/// The scripted line, stepped by the shared clock.
struct ClockedLine {
    line: Line,
    clock: Rc<Cell<u64>>,
    /// Bytes from other stations: (step, byte), in step order.
    schedule: VecDeque<(u64, u8)>,
}

impl ClockedLine {
    fn sync(&mut self) {
        while self.line.now() + u64::from(BYTE_NS) <= self.clock.get() {
            while let Some(&(_, b)) = self.schedule.front().filter(|(s, _)| *s <= self.line.step) {
                self.line.inject(Ok(b));
                self.schedule.pop_front();
            }
            self.line.end_step();
        }
    }
}

impl embedded_io::ErrorType for ClockedLine {
    type Error = Garbled;
}
impl embedded_io::ReadReady for ClockedLine {
    fn read_ready(&mut self) -> Result<bool, Garbled> {
        self.sync();
        self.line.read_ready()
    }
}
impl embedded_io::Read for ClockedLine {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Garbled> {
        self.sync();
        self.line.read(buf)
    }
}
impl embedded_io::Write for ClockedLine {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Garbled> {
        self.sync();
        self.line.write(buf)
    }
    fn flush(&mut self) -> Result<(), Garbled> {
        Ok(())
    }
}

fn driver(
    line: Line,
    seed: u64,
) -> Mac<ClockedLine, SimClock, SimClock, rand_xorshift::XorShiftRng, N, Q> {
    let clock = Rc::new(Cell::new(0));
    let io = ClockedLine {
        line,
        clock: clock.clone(),
        schedule: VecDeque::new(),
    };
    Mac::new(
        io,
        SimClock(clock.clone()),
        SimClock(clock),
        mac_with(config(), seed),
    )
}

#[test]
fn send_returns_delivery_and_reports_events() {
    let mut mac = driver(Line::echo(), 1);
    let mut events = Vec::new();
    let delivery = mac
        .send_with(PEER, b"blocking", |e| events.push(e), |_| {})
        .unwrap();
    assert_eq!(delivery.attempts, 1);
    assert_eq!(
        events,
        vec![
            Event::AttemptStarted { attempt: 1 },
            Event::Delivered { attempts: 1 }
        ]
    );
    let (io, ..) = mac.release();
    let sent: Vec<u8> = io.line.written.iter().map(|&(_, b)| b).collect();
    let mut expected = [0u8; 64];
    let n = Frame::<N>::new(PEER, ME, b"blocking")
        .unwrap()
        .emit(&mut expected)
        .unwrap();
    assert_eq!(sent, expected[..n]);
}

#[test]
fn send_returns_the_drop_reason() {
    let mut script = CollideFirst::new(u32::MAX, 1, Reply::Garble);
    let mut mac = driver(Line::new(move |b| script.answer(b)), 2);
    assert_eq!(
        mac.send(PEER, b"doomed"),
        Err(SendError::Dropped(DropReason::ExcessiveCollisions))
    );
    assert_eq!(mac.counters().medium.collisions, 16);
    let mut mac = driver(Line::new(|_| Reply::Silence), 3);
    assert_eq!(
        mac.send(PEER, b"unheard"),
        Err(SendError::Dropped(DropReason::NoEcho))
    );
    assert_eq!(mac.send(PEER, &[0; N + 1]), Err(SendError::PayloadTooLong));
}

#[test]
fn receive_gets_a_frame_or_times_out() {
    let mut mac = driver(Line::echo(), 4);
    assert!(mac.receive(1_000_000).is_none());
    let mut wire = [0u8; 64];
    let n = Frame::<N>::new(ME, Address(9), b"hi")
        .unwrap()
        .emit(&mut wire)
        .unwrap();
    let (mut io, time, delay, core) = mac.release();
    for &b in &wire[..n] {
        io.line.inject(Ok(b));
        io.line.end_step();
    }
    let mut mac = Mac::new(io, time, delay, core);
    let frame = mac.receive(1_000_000).unwrap();
    assert_eq!((frame.src(), frame.payload()), (Address(9), &b"hi"[..]));
}

/// `count` frames for this station back to back, two idle byte times apart (less
/// than the interframe gap, so the line never looks free), from step 1 on.
fn busy_line_schedule(count: u8) -> VecDeque<(u64, u8)> {
    let mut schedule = VecDeque::new();
    let mut step = 1;
    for i in 0..count {
        let mut wire = [0u8; 64];
        let n = Frame::<N>::new(ME, PEER, &[i; 5])
            .unwrap()
            .emit(&mut wire)
            .unwrap();
        for &b in &wire[..n] {
            schedule.push_back((step, b));
            step += 1;
        }
        step += 2;
    }
    schedule
}

#[test]
fn send_with_hands_over_every_frame_received_while_it_waits() {
    // Q + 2 frames arrive while the frame to send waits for the line. `send_with`
    // hands each over as it is decoded: all of them, no overflow, and the frame
    // goes out once the line is free.
    let count = Q as u8 + 2;
    let mut mac = driver(Line::echo(), 5);
    let (mut io, time, delay, core) = mac.release();
    io.schedule = busy_line_schedule(count);
    mac = Mac::new(io, time, delay, core);
    let mut got = Vec::new();
    let delivery = mac
        .send_with(PEER, b"after them", |_| {}, |f| got.push(f.payload()[0]))
        .unwrap();
    assert_eq!(delivery.attempts, 1);
    assert_eq!(got, (0..count).collect::<Vec<_>>());
    assert_eq!(mac.counters().rx_frames, u32::from(count));
    assert_eq!(mac.counters().rx_queue_overflows, 0);

    // Plain `send` leaves them queued: Q fit, the rest are counted as overflows.
    let mut mac = driver(Line::echo(), 5);
    let (mut io, time, delay, core) = mac.release();
    io.schedule = busy_line_schedule(count);
    mac = Mac::new(io, time, delay, core);
    mac.send(PEER, b"after them").unwrap();
    assert_eq!(mac.counters().rx_queue_overflows, 2);
    assert_eq!(std::iter::from_fn(|| mac.take_received()).count(), Q);
}

#[test]
fn the_poll_driven_calls_never_block() {
    let mut mac = driver(Line::echo(), 6);
    mac.submit(PEER, b"polled").unwrap();
    assert_eq!(mac.submit(PEER, b"second"), Err(SendError::Busy));
    let mut events = Vec::new();
    // Each call returns at once; the application sleeps between them.
    for _ in 0..1_000 {
        match mac.poll() {
            Some(e) => events.push(e),
            None => mac.wait(),
        }
        if events.contains(&Event::Delivered { attempts: 1 }) {
            break;
        }
    }
    assert_eq!(
        events,
        vec![
            Event::AttemptStarted { attempt: 1 },
            Event::Delivered { attempts: 1 }
        ]
    );
    assert!(mac.take_received().is_none());
    assert_eq!(mac.core().next_deadline_ns(), None);
}
