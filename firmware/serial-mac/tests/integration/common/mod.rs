//! A scripted line for the host tests: it answers each byte the MAC writes (echo,
//! corrupt, garble, swallow) one byte time later, and can inject bytes from other
//! stations. Time advances in byte-time steps.
#![allow(dead_code)]

use std::collections::VecDeque;

use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serial_mac::{Address, Event, MacConfig, MacCore};

pub const BYTE_NS: u32 = 10_000;
pub const N: usize = 32;
pub const Q: usize = 4;
pub type TestMac = MacCore<XorShiftRng, N, Q>;

pub const ME: Address = Address(1);
pub const PEER: Address = Address(2);

pub fn config() -> MacConfig {
    MacConfig::with_byte_time_ns(ME, BYTE_NS).unwrap()
}

pub fn mac_with(config: MacConfig, seed: u64) -> TestMac {
    MacCore::new(config, XorShiftRng::seed_from_u64(seed))
}

/// How the line answers one byte written by the MAC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The byte comes back unchanged.
    Echo,
    /// Another byte comes back (a collision that changed bits).
    Corrupt(u8),
    /// A framing error comes back.
    Garble,
    /// The echo, then a byte from another station in the same byte time.
    EchoThen(u8),
    /// Nothing comes back.
    Silence,
}

pub struct Line {
    pub step: u64,
    inbox: VecDeque<Result<u8, ()>>,
    next: Vec<Result<u8, ()>>,
    /// Every byte the MAC wrote, with its step.
    pub written: Vec<(u64, u8)>,
    reply: Box<dyn FnMut(u8) -> Reply>,
}

#[derive(Debug)]
pub struct Garbled;
impl core::fmt::Display for Garbled {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("framing error")
    }
}
impl core::error::Error for Garbled {}
impl embedded_io::Error for Garbled {
    fn kind(&self) -> embedded_io::ErrorKind {
        embedded_io::ErrorKind::InvalidData
    }
}

impl Line {
    pub fn new(reply: impl FnMut(u8) -> Reply + 'static) -> Self {
        Self {
            step: 0,
            inbox: VecDeque::new(),
            next: Vec::new(),
            written: Vec::new(),
            reply: Box::new(reply),
        }
    }

    pub fn echo() -> Self {
        Self::new(|_| Reply::Echo)
    }

    pub fn now(&self) -> u64 {
        self.step * u64::from(BYTE_NS)
    }

    /// A byte (or a line error) from another station, readable from the next step.
    pub fn inject(&mut self, symbol: Result<u8, ()>) {
        self.next.push(symbol);
    }

    pub fn end_step(&mut self) {
        self.inbox.extend(self.next.drain(..));
        self.step += 1;
    }
}

impl embedded_io::ErrorType for Line {
    type Error = Garbled;
}

impl embedded_io::ReadReady for Line {
    fn read_ready(&mut self) -> Result<bool, Garbled> {
        Ok(!self.inbox.is_empty())
    }
}

impl embedded_io::Read for Line {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Garbled> {
        match self.inbox.pop_front() {
            None => Ok(0),
            Some(Ok(b)) => {
                buf[0] = b;
                Ok(1)
            }
            Some(Err(())) => Err(Garbled),
        }
    }
}

impl embedded_io::Write for Line {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Garbled> {
        let b = buf[0];
        self.written.push((self.step, b));
        match (self.reply)(b) {
            Reply::Echo => self.next.push(Ok(b)),
            Reply::Corrupt(c) => self.next.push(Ok(c)),
            Reply::Garble => self.next.push(Err(())),
            Reply::EchoThen(c) => {
                self.next.push(Ok(b));
                self.next.push(Ok(c));
            }
            Reply::Silence => {}
        }
        Ok(1)
    }

    fn flush(&mut self) -> Result<(), Garbled> {
        Ok(())
    }
}

/// Poll the MAC once per step (until it has nothing to do) for at most `steps`
/// steps, or until `stop` says so; returns every event with its step.
pub fn run(
    mac: &mut TestMac,
    line: &mut Line,
    steps: u64,
    mut stop: impl FnMut(&Event) -> bool,
) -> Vec<(u64, Event)> {
    let mut events = Vec::new();
    for _ in 0..steps {
        let now = line.now();
        for _ in 0..64 {
            match mac.poll(line, now) {
                Some(event) => {
                    events.push((line.step, event));
                    if stop(&event) {
                        return events;
                    }
                }
                None => break,
            }
        }
        line.end_step();
    }
    events
}

/// Answers a MAC's frames, corrupting byte `at` of the first `k` attempts, and echoing
/// everything else (jam included).
pub struct CollideFirst {
    pub k: u32,
    pub at: usize,
    pub reply: Reply,
    attempt: u32,
    pos: Option<usize>,
    len: usize,
}

impl CollideFirst {
    pub fn new(k: u32, at: usize, reply: Reply) -> Self {
        Self {
            k,
            at,
            reply,
            attempt: 0,
            pos: None,
            len: usize::MAX,
        }
    }

    pub fn answer(&mut self, b: u8) -> Reply {
        let p = match self.pos {
            None if b == serial_mac::frame::START => {
                self.attempt += 1;
                self.len = usize::MAX;
                0
            }
            None => return Reply::Echo,
            Some(p) => p,
        };
        if self.attempt <= self.k && p == self.at {
            self.pos = None;
            return self.reply;
        }
        if p == 3 {
            self.len = usize::from(b) + serial_mac::frame::OVERHEAD;
        }
        self.pos = if p + 1 == self.len { None } else { Some(p + 1) };
        Reply::Echo
    }
}
