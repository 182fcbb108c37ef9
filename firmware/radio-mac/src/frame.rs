//! The radio frame: format, building, emitting and parsing.
//!
//! ```text
//! +------+-----+-----+-----+-----+---------+---------+-----------------+--------+--------+
//! | kind | seq | dst | src | len | hcrc hi | hcrc lo | payload (len B) | crc hi | crc lo |
//! +------+-----+-----+-----+-----+---------+---------+-----------------+--------+--------+
//! ```
//!
//! A radio hands over whole packets (its PHY header carries the packet length), so
//! there is no start delimiter. The protection is the serial MAC's (`serial-mac`'s
//! `frame` module): a header check `hcrc`, CRC-16/CCITT-FALSE ([`crc`]) over
//! `kind | seq | dst | src | len`, so that the length is trusted only once the header
//! codeword checks out, and a frame check `crc` over the header fields and the
//! payload, computed on from the header check. The receiver also requires the
//! packet's length to be exactly `HEADER_LEN + len + TRAILER_LEN`. Many radios add
//! their own CRC (the SX127x's payload CRC, the nRF52840's CRC unit); this check does
//! not rely on it. `tests/integration/corruption.rs` flips bits and bursts in every position.

use heapless::Vec;
use mac_base::{Address, FrameError, FrameErrorKind, RxError, RxErrorKind, crc};

/// Bytes before the payload: kind, sequence number, destination, source, length,
/// header check.
pub const HEADER_LEN: usize = 7;
/// Bytes after the payload: the frame check, high byte first.
pub const TRAILER_LEN: usize = 2;
/// Bytes on the air besides the payload.
pub const OVERHEAD: usize = HEADER_LEN + TRAILER_LEN;
/// The length of an acknowledgement (no payload).
pub const ACK_LEN: usize = OVERHEAD;

/// What a frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Kind {
    /// Data: unicast (acknowledged) or broadcast (not acknowledged).
    Data,
    /// The acknowledgement of the data frame with the same sequence number.
    Ack,
}

impl Kind {
    /// The byte on the air.
    pub const fn to_byte(self) -> u8 {
        match self {
            Kind::Data => 0x5D,
            Kind::Ack => 0xA6,
        }
    }

    /// The kind a byte names, if any.
    pub const fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            0x5D => Some(Kind::Data),
            0xA6 => Some(Kind::Ack),
            _ => None,
        }
    }
}

/// A radio frame with a payload of at most `N` bytes (`1 <= N <= 255`, checked at
/// compile time).
///
/// ```
/// use radio_mac::frame::{Frame, Kind};
/// use mac_base::Address;
/// let frame = Frame::<16>::data(Address(2), Address(1), 7, b"hi").unwrap();
/// let mut air = [0u8; 32];
/// let n = frame.emit(&mut air).unwrap();
/// assert_eq!(n, 2 + 9);
/// assert_eq!(&air[..5], &[Kind::Data.to_byte(), 7, 2, 1, 2]);
/// assert_eq!(Frame::<16>::parse(&air[..n]).unwrap(), frame);
/// air[8] ^= 0x10; // one bit of the payload
/// assert!(Frame::<16>::parse(&air[..n]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Frame<const N: usize> {
    kind: Kind,
    seq: u8,
    dst: Address,
    src: Address,
    payload: Vec<u8, N>,
}

impl<const N: usize> Frame<N> {
    const CAPACITY_OK: () = assert!(N >= 1 && N <= 255, "frame capacity N must be 1..=255");

    /// A data frame from `src` to `dst` (broadcast allowed) with sequence number `seq`.
    ///
    /// # Errors
    ///
    /// [`FrameErrorKind::PayloadTooLong`] above `N` bytes,
    /// [`FrameErrorKind::BroadcastSource`] for a broadcast `src`.
    pub fn data(dst: Address, src: Address, seq: u8, payload: &[u8]) -> Result<Self, FrameError> {
        let () = Self::CAPACITY_OK;
        if src.is_broadcast() {
            return Err(FrameError::new(FrameErrorKind::BroadcastSource));
        }
        let payload = Vec::from_slice(payload)
            .map_err(|_| FrameError::new(FrameErrorKind::PayloadTooLong))?;
        Ok(Self {
            kind: Kind::Data,
            seq,
            dst,
            src,
            payload,
        })
    }

    /// The acknowledgement `src` sends `dst` for its data frame `seq`.
    ///
    /// # Errors
    ///
    /// [`FrameErrorKind::BroadcastSource`] if either address is broadcast (a
    /// broadcast is never acknowledged).
    pub fn ack(dst: Address, src: Address, seq: u8) -> Result<Self, FrameError> {
        let () = Self::CAPACITY_OK;
        if src.is_broadcast() || dst.is_broadcast() {
            return Err(FrameError::new(FrameErrorKind::BroadcastSource));
        }
        Ok(Self {
            kind: Kind::Ack,
            seq,
            dst,
            src,
            payload: Vec::new(),
        })
    }

    /// Data or acknowledgement.
    pub const fn kind(&self) -> Kind {
        self.kind
    }

    /// The sequence number.
    pub const fn seq(&self) -> u8 {
        self.seq
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

    /// Bytes this frame takes on the air (without the PHY's preamble and header).
    pub fn air_len(&self) -> usize {
        self.payload.len() + OVERHEAD
    }

    fn len_field(&self) -> u8 {
        u8::try_from(self.payload.len()).unwrap_or(u8::MAX)
    }

    /// Write the encoded frame to the front of `buf`; returns its length.
    ///
    /// # Errors
    ///
    /// [`FrameErrorKind::BufferTooSmall`] if `buf` is shorter than
    /// [`air_len`](Self::air_len); nothing is written then.
    pub fn emit(&self, buf: &mut [u8]) -> Result<usize, FrameError> {
        let len = self.air_len();
        let out = buf
            .get_mut(..len)
            .ok_or(FrameError::new(FrameErrorKind::BufferTooSmall))?;
        let header = [
            self.kind.to_byte(),
            self.seq,
            self.dst.0,
            self.src.0,
            self.len_field(),
        ];
        let hcrc = crc::checksum(&header);
        let fcs = self.payload.iter().fold(hcrc, |c, &b| crc::update(c, b));
        let [h_hi, h_lo] = hcrc.to_be_bytes();
        let [f_hi, f_lo] = fcs.to_be_bytes();
        let (hcheck, fcheck) = ([h_hi, h_lo], [f_hi, f_lo]);
        let fixed = header.iter().chain(&hcheck);
        let bytes = fixed.chain(self.payload.iter()).chain(&fcheck);
        for (slot, &b) in out.iter_mut().zip(bytes) {
            *slot = b;
        }
        Ok(len)
    }

    /// Parse one received packet, which must hold exactly one frame.
    ///
    /// The header is checked before the length is trusted, then the packet length,
    /// then the frame check.
    ///
    /// # Errors
    ///
    /// [`RxErrorKind::Truncated`] for a packet shorter than the header or than the
    /// length field says, [`RxErrorKind::BadHeader`], [`RxErrorKind::Oversized`],
    /// [`RxErrorKind::BadCrc`], and [`RxErrorKind::Malformed`] for an unknown kind,
    /// bytes after the frame, a broadcast source, an acknowledgement with a payload or
    /// to the broadcast address.
    pub fn parse(packet: &[u8]) -> Result<Self, RxError> {
        let () = Self::CAPACITY_OK;
        let fail = |kind| Err(RxError::new(kind));
        let (Some(header), Some(check)) = (packet.get(..5), packet.get(5..HEADER_LEN)) else {
            return fail(RxErrorKind::Truncated);
        };
        let hcrc = crc::checksum(header);
        if check != hcrc.to_be_bytes() {
            return fail(RxErrorKind::BadHeader);
        }
        let &[kind, seq, dst, src, len] = header else {
            return fail(RxErrorKind::Truncated);
        };
        let len = usize::from(len);
        if len > N {
            return fail(RxErrorKind::Oversized);
        }
        let body = packet.get(HEADER_LEN..).unwrap_or_default();
        let Some((payload, rest)) = body.split_at_checked(len) else {
            return fail(RxErrorKind::Truncated);
        };
        let Some((fcs, extra)) = rest.split_at_checked(TRAILER_LEN) else {
            return fail(RxErrorKind::Truncated);
        };
        let expected = payload.iter().fold(hcrc, |c, &b| crc::update(c, b));
        if fcs != expected.to_be_bytes() {
            return fail(RxErrorKind::BadCrc);
        }
        if !extra.is_empty() {
            return fail(RxErrorKind::Malformed);
        }
        let (dst, src) = (Address(dst), Address(src));
        let frame = match Kind::from_byte(kind) {
            Some(Kind::Data) => Self::data(dst, src, seq, payload),
            Some(Kind::Ack) if len == 0 => Self::ack(dst, src, seq),
            _ => return fail(RxErrorKind::Malformed),
        };
        frame.map_err(|_| RxError::new(RxErrorKind::Malformed))
    }
}
