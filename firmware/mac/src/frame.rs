//! The frame format, and building and emitting frames.
//!
//! ```text
//! +-------+-----+-----+-----+-----------------+--------+--------+
//! | start | dst | src | len | payload (len B) | crc hi | crc lo |
//! | 0x7E  |  1  |  1  |  1  |   0 ..= N       |   1    |   1    |
//! +-------+-----+-----+-----+-----------------+--------+--------+
//! ```
//!
//! The CRC is CRC-16/CCITT-FALSE over `dst`, `src`, `len` and the payload. `N`, the
//! payload capacity, is a const generic from 1 to 255. Frames are separated on the
//! line by an idle gap (see [`MacConfig`](crate::MacConfig)), which is also how a
//! receiver finds its way back after garbage: a frame that stops short is ended by
//! the gap and counted as truncated, and the next start delimiter begins a new frame.
//! Parsing lives in [`rx`](crate::rx); [`Frame::parse`] wraps it for whole buffers.

use heapless::Vec;

use crate::address::Address;
use crate::crc;
use crate::rx::{Decoder, RxError, RxErrorKind, Step};

/// The start delimiter.
pub const START: u8 = 0x7E;
/// Bytes before the payload: start, destination, source, length.
pub const HEADER_LEN: usize = 4;
/// Bytes after the payload: the CRC, high byte first.
pub const TRAILER_LEN: usize = 2;
/// Bytes on the wire besides the payload.
pub const OVERHEAD: usize = HEADER_LEN + TRAILER_LEN;

/// What was wrong when building or emitting a frame (see [`FrameError::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// The payload is longer than the capacity `N`.
    PayloadTooLong,
    /// The source address is the broadcast address.
    BroadcastSource,
    /// The output buffer cannot hold the encoded frame.
    BufferTooSmall,
}

/// A frame could not be built or emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FrameError {
    kind: FrameErrorKind,
}

impl FrameError {
    pub(crate) const fn new(kind: FrameErrorKind) -> Self {
        Self { kind }
    }

    /// What was wrong.
    pub const fn kind(&self) -> FrameErrorKind {
        self.kind
    }
}

impl core::fmt::Display for FrameError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self.kind {
            FrameErrorKind::PayloadTooLong => "payload longer than the frame capacity",
            FrameErrorKind::BroadcastSource => "the broadcast address cannot be a source",
            FrameErrorKind::BufferTooSmall => "buffer too small for the encoded frame",
        })
    }
}

impl core::error::Error for FrameError {}

/// A frame with a payload of at most `N` bytes (`1 <= N <= 255`, checked at compile
/// time).
///
/// ```
/// use serial_mac::{Address, Frame};
/// let frame = Frame::<16>::new(Address(2), Address(1), b"hi").unwrap();
/// let mut wire = [0u8; 32];
/// let n = frame.emit(&mut wire).unwrap();
/// assert_eq!(&wire[..5], &[0x7E, 2, 1, 2, b'h']);
/// assert_eq!(Frame::<16>::parse(&wire[..n]).unwrap(), frame);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Frame<const N: usize> {
    dst: Address,
    src: Address,
    payload: Vec<u8, N>,
}

impl<const N: usize> Frame<N> {
    /// Evaluated by every constructor: the length field is one byte.
    pub(crate) const CAPACITY_OK: () =
        assert!(N >= 1 && N <= 255, "frame capacity N must be 1..=255");

    /// A frame from `src` to `dst` carrying `payload`.
    pub fn new(dst: Address, src: Address, payload: &[u8]) -> Result<Self, FrameError> {
        let () = Self::CAPACITY_OK;
        if src.is_broadcast() {
            return Err(FrameError::new(FrameErrorKind::BroadcastSource));
        }
        let payload = Vec::from_slice(payload)
            .map_err(|_| FrameError::new(FrameErrorKind::PayloadTooLong))?;
        Ok(Self { dst, src, payload })
    }

    /// Built by the decoder, whose fields are already checked.
    pub(crate) fn from_parts(dst: Address, src: Address, payload: Vec<u8, N>) -> Self {
        Self { dst, src, payload }
    }

    /// The destination.
    pub const fn dst(&self) -> Address {
        self.dst
    }

    /// The source.
    pub const fn src(&self) -> Address {
        self.src
    }

    /// The payload.
    pub fn payload(&self) -> &[u8] {
        &self.payload
    }

    /// The payload length as carried in the length field (never above 255).
    pub fn len_field(&self) -> u8 {
        u8::try_from(self.payload.len()).unwrap_or(u8::MAX)
    }

    /// Bytes this frame takes on the wire.
    pub fn wire_len(&self) -> usize {
        self.payload.len() + OVERHEAD
    }

    /// The CRC over destination, source, length and payload.
    pub fn crc(&self) -> u16 {
        let header = [self.dst.0, self.src.0, self.len_field()];
        let crc = header.iter().fold(crc::INIT, |c, &b| crc::update(c, b));
        self.payload.iter().fold(crc, |c, &b| crc::update(c, b))
    }

    /// Byte `index` of the encoded frame, given its [`crc`](Self::crc); `None` past
    /// the end. Lets a transmitter send a frame without a second buffer.
    pub fn wire_byte(&self, index: usize, crc: u16) -> Option<u8> {
        let [crc_hi, crc_lo] = crc.to_be_bytes();
        match index {
            0 => Some(START),
            1 => Some(self.dst.0),
            2 => Some(self.src.0),
            3 => Some(self.len_field()),
            i => {
                let p = i - HEADER_LEN;
                match p.checked_sub(self.payload.len()) {
                    None => self.payload.get(p).copied(),
                    Some(0) => Some(crc_hi),
                    Some(1) => Some(crc_lo),
                    Some(_) => None,
                }
            }
        }
    }

    /// Write the encoded frame to the front of `buf`; returns its length.
    pub fn emit(&self, buf: &mut [u8]) -> Result<usize, FrameError> {
        let len = self.wire_len();
        let out = buf
            .get_mut(..len)
            .ok_or(FrameError::new(FrameErrorKind::BufferTooSmall))?;
        let crc = self.crc();
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = self.wire_byte(i, crc).unwrap_or(0);
        }
        Ok(len)
    }

    /// Parse exactly one encoded frame (no leading or trailing bytes), with the same
    /// checks as the receiver on the line.
    ///
    /// ```
    /// use serial_mac::{Frame, rx::RxErrorKind};
    /// assert_eq!(Frame::<8>::parse(&[0x7E, 1, 2]).unwrap_err().kind(), RxErrorKind::Truncated);
    /// ```
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
