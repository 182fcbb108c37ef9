//! # lockstep
//!
//! The protocol between `bus-hub`, the host program that models one serial line,
//! and each `bus-node`, the same firmware on its own emulated Cortex-M4. It runs
//! over the node's UART1 (the control channel); the node's UART0 is its bus
//! transceiver, through which the hub delivers the line's bytes.
//!
//! Time belongs to the hub. The line is modelled in **ticks** of a quarter byte time
//! ([`TICKS_PER_BYTE`]); a node's clock is the tick count the hub last sent it, so
//! emulation speed never changes what happens. In each tick:
//!
//! 1. the hub writes, to the UART0 of every node, the byte that ended on the line at
//!    this tick (if any), then sends a [`Tick`] message on UART1;
//! 2. the node waits for that byte if one was announced, runs its MAC at the tick's
//!    time, and answers with a [`Report`]: whether it wrote a byte on UART0 (the hub
//!    then reads it from there), whether all its frames are resolved, and the tick at
//!    which it next has something to do if nothing arrives.
//!
//! The hub skips the ticks in which nothing can happen: the next tick is the
//! earliest of every node's deadline and the end of the byte on the line.
//!
//! Every message is a flags byte, optionally followed by a little-endian `u32` tick.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// Ticks per byte time.
pub const TICKS_PER_BYTE: u32 = 4;
/// One tick, in nanoseconds: a quarter of the byte time at 115 200 baud (8N1),
/// rounded up so that a byte time is a whole number of ticks.
pub const TICK_NS: u32 = 21_702;
/// One byte time on the modelled line, in nanoseconds (115 200 baud, 8N1: 86 806
/// ns, here 86 808).
pub const BYTE_TIME_NS: u32 = TICK_NS * TICKS_PER_BYTE;
/// Most frames one node is given to send.
pub const MAX_FRAMES: usize = 32;

/// What the hub sends a node each tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tick {
    /// The tick now.
    pub tick: u32,
    /// A line byte was written to the node's UART0 before this message.
    pub bus_byte: bool,
    /// The run is over: log the counters and exit.
    pub stop: bool,
}

const TICK_BUS: u8 = 1 << 0;
const TICK_JUMP: u8 = 1 << 1;
const TICK_STOP: u8 = 1 << 2;

impl Tick {
    /// Encode, given the tick the node last had; returns the bytes used (1 or 5).
    pub fn encode(&self, previous: u32, buf: &mut [u8; 5]) -> usize {
        let mut flags = 0;
        if self.bus_byte {
            flags |= TICK_BUS;
        }
        if self.stop {
            flags |= TICK_STOP;
        }
        if self.tick == previous.wrapping_add(1) {
            buf[0] = flags;
            return 1;
        }
        buf[0] = flags | TICK_JUMP;
        buf[1..].copy_from_slice(&self.tick.to_le_bytes());
        5
    }

    /// Bytes that follow a flags byte (0 or 4).
    pub const fn extra_len(flags: u8) -> usize {
        if flags & TICK_JUMP != 0 { 4 } else { 0 }
    }

    /// Decode from the flags byte and its [`extra_len`](Self::extra_len) bytes.
    pub fn decode(flags: u8, extra: [u8; 4], previous: u32) -> Self {
        let tick = if flags & TICK_JUMP != 0 {
            u32::from_le_bytes(extra)
        } else {
            previous.wrapping_add(1)
        };
        Self {
            tick,
            bus_byte: flags & TICK_BUS != 0,
            stop: flags & TICK_STOP != 0,
        }
    }
}

/// When a node next needs a tick if nothing arrives on its UART0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// At the next tick.
    Next,
    /// At this tick.
    At(u32),
    /// Not before a byte arrives: nothing is pending.
    Idle,
}

/// What a node answers each tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// It wrote one byte on UART0 in this tick.
    pub wrote: bool,
    /// Every frame it was given is delivered or dropped.
    pub done: bool,
    /// When it next needs a tick.
    pub wake: Wake,
}

const REPORT_WROTE: u8 = 1 << 0;
const REPORT_DONE: u8 = 1 << 1;
const REPORT_AT: u8 = 1 << 2;
const REPORT_IDLE: u8 = 1 << 3;

impl Report {
    /// Encode; returns the bytes used (1 or 5).
    pub fn encode(&self, buf: &mut [u8; 5]) -> usize {
        let mut flags = 0;
        if self.wrote {
            flags |= REPORT_WROTE;
        }
        if self.done {
            flags |= REPORT_DONE;
        }
        match self.wake {
            Wake::Next => {
                buf[0] = flags;
                1
            }
            Wake::Idle => {
                buf[0] = flags | REPORT_IDLE;
                1
            }
            Wake::At(t) => {
                buf[0] = flags | REPORT_AT;
                buf[1..].copy_from_slice(&t.to_le_bytes());
                5
            }
        }
    }

    /// Bytes that follow a flags byte (0 or 4).
    pub const fn extra_len(flags: u8) -> usize {
        if flags & REPORT_AT != 0 { 4 } else { 0 }
    }

    /// Decode from the flags byte and its [`extra_len`](Self::extra_len) bytes.
    pub fn decode(flags: u8, extra: [u8; 4]) -> Self {
        let wake = if flags & REPORT_AT != 0 {
            Wake::At(u32::from_le_bytes(extra))
        } else if flags & REPORT_IDLE != 0 {
            Wake::Idle
        } else {
            Wake::Next
        };
        Self {
            wrote: flags & REPORT_WROTE != 0,
            done: flags & REPORT_DONE != 0,
            wake,
        }
    }
}

/// A node's set-up, sent by the hub once at start: its address, its RNG seed, its
/// deferral limit, and the destination of each frame it is to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeSetup {
    /// The node's station address.
    pub address: u8,
    /// The seed of its backoff RNG.
    pub seed: u64,
    /// The MAC's deferral limit, in byte times (0: the MAC's default).
    pub defer_limit: u16,
    /// Frames to send.
    pub frames: u8,
    /// The destination address of each frame (the first `frames` entries).
    pub destinations: [u8; MAX_FRAMES],
}

/// The first byte of a [`NodeSetup`] message.
pub const SETUP_MAGIC: u8 = 0xB5;
/// Length of a [`NodeSetup`] message.
pub const SETUP_LEN: usize = 1 + 1 + 8 + 2 + 1 + MAX_FRAMES;

/// A set-up message was not one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupError;

impl core::fmt::Display for SetupError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("not a node set-up message (bad magic byte or frame count)")
    }
}

impl core::error::Error for SetupError {}

impl NodeSetup {
    /// Encode.
    pub fn encode(&self) -> [u8; SETUP_LEN] {
        let mut buf = [0u8; SETUP_LEN];
        buf[0] = SETUP_MAGIC;
        buf[1] = self.address;
        buf[2..10].copy_from_slice(&self.seed.to_le_bytes());
        buf[10..12].copy_from_slice(&self.defer_limit.to_le_bytes());
        buf[12] = self.frames;
        buf[13..].copy_from_slice(&self.destinations);
        buf
    }

    /// Decode.
    ///
    /// # Errors
    ///
    /// [`SetupError`] for a wrong magic byte or a frame count above [`MAX_FRAMES`].
    pub fn decode(buf: &[u8; SETUP_LEN]) -> Result<Self, SetupError> {
        let [
            magic,
            address,
            s0,
            s1,
            s2,
            s3,
            s4,
            s5,
            s6,
            s7,
            d0,
            d1,
            frames,
            rest @ ..,
        ] = *buf;
        if magic != SETUP_MAGIC || usize::from(frames) > MAX_FRAMES {
            return Err(SetupError);
        }
        Ok(Self {
            address,
            seed: u64::from_le_bytes([s0, s1, s2, s3, s4, s5, s6, s7]),
            defer_limit: u16::from_le_bytes([d0, d1]),
            frames,
            destinations: rest,
        })
    }
}

/// The payload of frame `seq` from station `src`: the pair identifies the frame to
/// its receivers.
pub fn payload(src: u8, seq: u8) -> [u8; 8] {
    [src, seq, b' ', b'f', b'r', b'a', b'm', b'e']
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip() {
        let mut buf = [0u8; 5];
        for (t, prev) in [(1u32, 0u32), (7, 2), (0, 0), (u32::MAX, 5)] {
            for (bus, stop) in [(false, false), (true, false), (false, true)] {
                let tick = Tick {
                    tick: t,
                    bus_byte: bus,
                    stop,
                };
                let n = tick.encode(prev, &mut buf);
                assert_eq!(n, 1 + Tick::extra_len(buf[0]));
                let extra = [buf[1], buf[2], buf[3], buf[4]];
                assert_eq!(Tick::decode(buf[0], extra, prev), tick);
            }
        }
        for wake in [Wake::Next, Wake::Idle, Wake::At(123_456)] {
            let report = Report {
                wrote: true,
                done: false,
                wake,
            };
            let n = report.encode(&mut buf);
            assert_eq!(n, 1 + Report::extra_len(buf[0]));
            assert_eq!(
                Report::decode(buf[0], [buf[1], buf[2], buf[3], buf[4]]),
                report
            );
        }
        let setup = NodeSetup {
            address: 3,
            seed: 0x0123_4567_89AB_CDEF,
            defer_limit: 500,
            frames: 2,
            destinations: [7; MAX_FRAMES],
        };
        assert_eq!(NodeSetup::decode(&setup.encode()), Ok(setup));
        let mut bad = setup.encode();
        bad[0] = 0;
        assert_eq!(NodeSetup::decode(&bad), Err(SetupError));
    }
}
