//! The frame format, and building and emitting frames. Parsing lives in
//! [`rx`](crate::rx), which depends on this module and never the other way round (as
//! in smoltcp's `wire`).
//!
//! ```text
//! +-------+-----+-----+-----+---------+---------+-----------------+--------+--------+
//! | start | dst | src | len | hcrc hi | hcrc lo | payload (len B) | crc hi | crc lo |
//! | 0x7E  |  1  |  1  |  1  |    1    |    1    |   0 ..= N       |   1    |   1    |
//! +-------+-----+-----+-----+---------+---------+-----------------+--------+--------+
//! ```
//!
//! Both checks are CRC-16/CCITT-FALSE ([`crc`]): the header check `hcrc`
//! over `dst`, `src` and `len`; the frame check `crc` over `dst`, `src`, `len` and the
//! payload. `N`, the payload capacity, is a const generic from 1 to 255. Frames are
//! separated on the line by an idle gap (see [`MacConfig`](crate::MacConfig)), which is
//! also how a receiver finds its way back after garbage: a frame that stops short is
//! ended by the gap and counted as truncated, and the next start delimiter begins a
//! new frame.
//!
//! ## Why the length has its own check
//!
//! The length field says where the frame check sits. With one CRC over the whole
//! frame, an error in the length moves the place where the receiver reads the CRC, so
//! the CRC is compared against bytes it was never computed for: its guarantees (every
//! error of 1 to 3 bits, every burst of 16 bits or fewer, caught) no longer hold, and a
//! fuzzer finds 2- and 3-bit errors that pass. The header check restores them: the
//! receiver trusts `len` only once `dst | src | len | hcrc` has checked out, and that
//! 5-byte codeword is itself protected by CRC-16 (Hamming distance 4 at this length,
//! every burst of up to 16 bits). An error that touches the header codeword is caught
//! there; one that does not leaves the length right, and the frame check sees the
//! error at the place it was computed for. The same design protects ATM cells (a
//! header error control over the header alone, ITU-T I.432) and HDLC-derived links
//! that carry a length. The alternative, accepting a frame only when the idle gap
//! confirms that it ended right after its CRC (as Modbus RTU's 3.5-character silence
//! does), depends on the receiver timing each byte, which a polled UART on a busy
//! microcontroller does not do reliably; the header check costs two bytes and no
//! timing. `tests/integration/corruption.rs` shows the result on 10^7 corrupted frames.

use heapless::Vec;
use mac_base::{Address, FrameError, FrameErrorKind, crc};

/// The start delimiter.
pub const START: u8 = 0x7E;
/// Bytes before the payload: start, destination, source, length, header check.
pub const HEADER_LEN: usize = 6;
/// Bytes after the payload: the CRC, high byte first.
pub const TRAILER_LEN: usize = 2;
/// Bytes on the wire besides the payload.
pub const OVERHEAD: usize = HEADER_LEN + TRAILER_LEN;

/// A frame with a payload of at most `N` bytes (`1 <= N <= 255`, checked at compile
/// time).
///
/// ```
/// use serial_mac::{Address, Frame};
/// let frame = Frame::<16>::new(Address(2), Address(1), b"hi").unwrap();
/// let mut wire = [0u8; 32];
/// let n = frame.emit(&mut wire).unwrap();
/// assert_eq!(n, 2 + 8);
/// assert_eq!(&wire[..4], &[0x7E, 2, 1, 2]);
/// assert_eq!(&wire[6..8], b"hi");
/// assert_eq!(Frame::<16>::parse(&wire[..n]).unwrap(), frame); // `rx` parses
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
    ///
    /// # Errors
    ///
    /// [`FrameErrorKind::PayloadTooLong`] for a payload above `N` bytes,
    /// [`FrameErrorKind::BroadcastSource`] for a broadcast `src`.
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

    /// The header check: the CRC over destination, source and length.
    pub fn header_crc(&self) -> u16 {
        header_crc(self.dst.0, self.src.0, self.len_field())
    }

    /// The frame check: the CRC over destination, source, length and payload.
    pub fn crc(&self) -> u16 {
        let crc = self.header_crc();
        self.payload.iter().fold(crc, |c, &b| crc::update(c, b))
    }

    /// Byte `index` of the encoded frame, given its [`crc`](Self::crc); `None` past
    /// the end. Lets a transmitter send a frame without a second buffer.
    pub fn wire_byte(&self, index: usize, crc: u16) -> Option<u8> {
        let [crc_hi, crc_lo] = crc.to_be_bytes();
        let [hcrc_hi, hcrc_lo] = self.header_crc().to_be_bytes();
        match index {
            0 => Some(START),
            1 => Some(self.dst.0),
            2 => Some(self.src.0),
            3 => Some(self.len_field()),
            4 => Some(hcrc_hi),
            5 => Some(hcrc_lo),
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
    ///
    /// # Errors
    ///
    /// [`FrameErrorKind::BufferTooSmall`] if `buf` is shorter than
    /// [`wire_len`](Self::wire_len); nothing is written then.
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
}

/// The header check of a frame with these header fields. It is also the CRC register
/// after the header, where the frame check goes on over the payload.
pub const fn header_crc(dst: u8, src: u8, len: u8) -> u16 {
    crc::update(crc::update(crc::update(crc::INIT, dst), src), len)
}
