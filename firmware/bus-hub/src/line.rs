//! The modelled line: open drain with one pull-up, so the line carries the
//! wired-AND of everything driven onto it, with zero propagation delay within a
//! byte time.
//!
//! A byte written at tick `t` when the line is free starts a character that lasts
//! one byte time, `[t, t + TICKS_PER_BYTE)`. Every byte written while a character
//! is on the line (another station that had not heard it yet) joins it: the
//! character's value becomes the AND of all of them. At its end the character is
//! delivered to every station, the writers included, which is how a writer reads
//! back what the line made of its byte.

use std::fmt::Write as _;

use lockstep::TICKS_PER_BYTE;

/// A character on the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Char {
    /// The tick it started.
    pub start: u32,
    /// The wired-AND of every byte written into it.
    pub value: u8,
    /// Bit `i`: station `i` wrote into it; bit 31: the intruder (a transmitter
    /// outside the emulation, for fault cases).
    pub writers: u32,
}

impl Char {
    /// The tick at which it is delivered.
    pub fn end(&self) -> u32 {
        self.start + TICKS_PER_BYTE
    }

    /// Whether more than one transmitter wrote into it.
    pub fn collided(&self) -> bool {
        self.writers.count_ones() > 1
    }
}

/// The bit of [`Char::writers`] for the intruder.
pub const INTRUDER: u32 = 1 << 31;

/// One line of the wire transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireEvent {
    /// Station `node` (index) wrote `byte` at `tick`.
    Write {
        /// The tick.
        tick: u32,
        /// The writer's index (`None`: the intruder).
        node: Option<usize>,
        /// The byte.
        byte: u8,
    },
    /// A character ended and was delivered.
    Deliver(Char),
}

/// The line and its transcript.
#[derive(Clone, Debug, Default)]
pub struct Line {
    current: Option<Char>,
    events: Vec<WireEvent>,
}

impl Line {
    /// A free line.
    pub fn new() -> Self {
        Self::default()
    }

    /// Put a byte on the line at `tick` (the intruder when `node` is `None`).
    pub fn write(&mut self, tick: u32, node: Option<usize>, byte: u8) {
        let bit = node.map_or(INTRUDER, |n| 1 << n);
        self.events.push(WireEvent::Write { tick, node, byte });
        match &mut self.current {
            Some(c) if tick < c.end() => {
                c.value &= byte;
                c.writers |= bit;
            }
            _ => {
                self.current = Some(Char {
                    start: tick,
                    value: byte,
                    writers: bit,
                })
            }
        }
    }

    /// The character that ends at `tick`, taken off the line and recorded.
    pub fn deliver(&mut self, tick: u32) -> Option<Char> {
        let c = self.current.filter(|c| c.end() == tick)?;
        self.current = None;
        self.events.push(WireEvent::Deliver(c));
        Some(c)
    }

    /// When the character on the line ends, if there is one.
    pub fn busy_until(&self) -> Option<u32> {
        self.current.map(|c| c.end())
    }

    /// Everything so far.
    pub fn events(&self) -> &[WireEvent] {
        &self.events
    }

    /// The transcript as text, one event per line, tick-stamped.
    pub fn transcript(&self) -> String {
        let mut out = String::new();
        for e in &self.events {
            match *e {
                WireEvent::Write { tick, node, byte } => {
                    let who = node.map_or("intruder".to_string(), |n| format!("node{n}"));
                    let _ = writeln!(out, "t={tick:08} write {who} {byte:02x}");
                }
                WireEvent::Deliver(c) => {
                    let mut who: Vec<String> = (0..31)
                        .filter(|i| c.writers & (1 << i) != 0)
                        .map(|i| format!("node{i}"))
                        .collect();
                    if c.writers & INTRUDER != 0 {
                        who.push("intruder".into());
                    }
                    let _ = writeln!(
                        out,
                        "t={:08} line {:02x} from {}{}",
                        c.end(),
                        c.value,
                        who.join("+"),
                        if c.collided() { " collision" } else { "" }
                    );
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_in_the_same_byte_time_combine_as_a_wired_and() {
        let mut line = Line::new();
        line.write(10, Some(0), 0x7E);
        assert_eq!(line.deliver(13), None);
        line.write(13, Some(1), 0x55);
        assert_eq!(line.busy_until(), Some(14));
        let c = line.deliver(14).unwrap();
        assert_eq!((c.value, c.writers, c.collided()), (0x54, 0b11, true));
        // A byte at the end tick starts a new character.
        line.write(14, Some(2), 0x7E);
        assert_eq!(line.deliver(18).unwrap().value, 0x7E);
        line.write(18, None, 0x00);
        assert_eq!(line.deliver(22).unwrap().writers, INTRUDER);
        let t = line.transcript();
        assert!(
            t.contains("t=00000014 line 54 from node0+node1 collision"),
            "{t}"
        );
        assert!(t.contains("t=00000018 write intruder 00"), "{t}");
    }
}
