//! The receive path: all parsing of the [`frame`](crate::frame) format, in a
//! byte-at-a-time decoder that never panics and never overflows, and
//! [`Frame::parse`] for whole buffers. This module depends on `frame`, never the
//! other way round.
//!
//! The decoder hunts for the start delimiter, reads the header and checks it against
//! the header check, and only then trusts the length: it refuses a length above the
//! capacity at once (before any payload byte is stored), collects the payload into a
//! `heapless::Vec` and checks the frame check. Whatever goes wrong, it goes back to
//! hunting. The MAC also tells it about line errors (framing, noise) and idle gaps,
//! which end a frame in progress as malformed or truncated.

use heapless::Vec;
use mac_base::{Address, RxError, RxErrorKind, crc};

use crate::frame::{Frame, START};

/// What one byte did to the decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step<const N: usize> {
    /// Not in a frame: the byte was not a start delimiter and was discarded.
    Hunting,
    /// The byte was taken into the frame in progress.
    InFrame,
    /// The byte completed a frame whose CRC is good.
    Frame(Frame<N>),
    /// The byte showed the frame in progress to be bad; the decoder is hunting again.
    Error(RxError),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Hunt,
    Dst,
    Src,
    Len,
    HcrcHi,
    HcrcLo,
    Payload,
    CrcHi,
    CrcLo,
}

/// The frame decoder for payloads of up to `N` bytes.
#[derive(Clone, Debug)]
pub struct Decoder<const N: usize> {
    state: State,
    dst: u8,
    src: u8,
    len: u8,
    crc: u16,
    /// The high byte of the check being read (header or frame).
    check_hi: u8,
    payload: Vec<u8, N>,
}

impl<const N: usize> Default for Decoder<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Decoder<N> {
    /// A decoder hunting for a start delimiter.
    pub const fn new() -> Self {
        let () = Frame::<N>::CAPACITY_OK;
        Self {
            state: State::Hunt,
            dst: 0,
            src: 0,
            len: 0,
            crc: crc::INIT,
            check_hi: 0,
            payload: Vec::new(),
        }
    }

    /// Whether a frame is in progress.
    pub fn in_frame(&self) -> bool {
        self.state != State::Hunt
    }

    /// Forget any frame in progress.
    pub fn reset(&mut self) {
        self.state = State::Hunt;
    }

    /// Take one byte from the line.
    pub fn push(&mut self, byte: u8) -> Step<N> {
        match self.state {
            State::Hunt => {
                if byte != START {
                    return Step::Hunting;
                }
                self.payload.clear();
                self.crc = crc::INIT;
                self.state = State::Dst;
            }
            State::Dst => {
                self.dst = byte;
                self.take_header_byte(byte, State::Src);
            }
            State::Src => {
                self.src = byte;
                self.take_header_byte(byte, State::Len);
            }
            State::Len => {
                self.len = byte;
                self.take_header_byte(byte, State::HcrcHi);
            }
            State::HcrcHi => {
                self.check_hi = byte;
                self.state = State::HcrcLo;
            }
            State::HcrcLo => {
                if u16::from_be_bytes([self.check_hi, byte]) != self.crc {
                    return self.fail(RxErrorKind::BadHeader);
                }
                // The length is trusted from here on.
                if usize::from(self.len) > N {
                    return self.fail(RxErrorKind::Oversized);
                }
                self.state = if self.len == 0 {
                    State::CrcHi
                } else {
                    State::Payload
                };
            }
            State::Payload => {
                if self.payload.push(byte).is_err() {
                    // Not reached: the length was checked against N.
                    return self.fail(RxErrorKind::Oversized);
                }
                self.crc = crc::update(self.crc, byte);
                if self.payload.len() == usize::from(self.len) {
                    self.state = State::CrcHi;
                }
            }
            State::CrcHi => {
                self.check_hi = byte;
                self.state = State::CrcLo;
            }
            State::CrcLo => {
                self.state = State::Hunt;
                if u16::from_be_bytes([self.check_hi, byte]) != self.crc {
                    return Step::Error(RxError::new(RxErrorKind::BadCrc));
                }
                let src = Address(self.src);
                if src.is_broadcast() {
                    return Step::Error(RxError::new(RxErrorKind::Malformed));
                }
                let payload = core::mem::take(&mut self.payload);
                return Step::Frame(Frame::from_parts(Address(self.dst), src, payload));
            }
        }
        Step::InFrame
    }

    /// A framing or noise error on the line: a frame in progress is malformed.
    pub fn line_error(&mut self) -> Option<RxError> {
        self.end_with(RxErrorKind::Malformed)
    }

    /// The line has been idle for an interframe gap: a frame in progress is truncated.
    pub fn idle_gap(&mut self) -> Option<RxError> {
        self.end_with(RxErrorKind::Truncated)
    }

    fn end_with(&mut self, kind: RxErrorKind) -> Option<RxError> {
        if self.in_frame() {
            self.state = State::Hunt;
            Some(RxError::new(kind))
        } else {
            None
        }
    }

    fn take_header_byte(&mut self, byte: u8, next: State) {
        self.crc = crc::update(self.crc, byte);
        self.state = next;
    }

    fn fail(&mut self, kind: RxErrorKind) -> Step<N> {
        self.state = State::Hunt;
        Step::Error(RxError::new(kind))
    }
}

impl<const N: usize> Frame<N> {
    /// Parse exactly one encoded frame (no leading or trailing bytes), with the same
    /// checks as the receiver on the line.
    ///
    /// ```
    /// use serial_mac::{Frame, RxErrorKind};
    /// assert_eq!(Frame::<8>::parse(&[0x7E, 1, 2]).unwrap_err().kind(), RxErrorKind::Truncated);
    /// ```
    ///
    /// # Errors
    ///
    /// The [`RxError`] the receiver would count: [`RxErrorKind::Malformed`] for bytes
    /// before or after the frame, [`RxErrorKind::Truncated`] for a frame cut short,
    /// and the header, length and CRC checks' own kinds.
    pub fn parse(bytes: &[u8]) -> Result<Self, RxError> {
        let mut decoder = Decoder::<N>::new();
        let mut iter = bytes.iter();
        if bytes.first() != Some(&START) {
            return Err(RxError::new(RxErrorKind::Malformed));
        }
        for &b in iter.by_ref() {
            match decoder.push(b) {
                Step::Frame(frame) => {
                    return if iter.as_slice().is_empty() {
                        Ok(frame)
                    } else {
                        Err(RxError::new(RxErrorKind::Malformed))
                    };
                }
                Step::Error(e) => return Err(e),
                Step::Hunting | Step::InFrame => {}
            }
        }
        Err(decoder
            .idle_gap()
            .unwrap_or(RxError::new(RxErrorKind::Truncated)))
    }
}
