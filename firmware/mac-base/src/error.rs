//! The errors every MAC shares, each a small value with a `kind()` (as
//! `embedded-hal`'s and `embedded-io`'s errors): why a received frame was discarded
//! ([`RxError`]) and why a frame could not be built or emitted ([`FrameError`]); and
//! why a frame handed to a MAC was not sent ([`SendError`]).

/// Why a received frame was discarded (see [`RxError::kind`]).
///
/// A receiver checks the header before it trusts the length, then the length against
/// its capacity, then the frame check; the first check that fails names the kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum RxErrorKind {
    /// The header check did not match: a header field (destination, source, length,
    /// ...) is wrong.
    BadHeader,
    /// The frame check did not match.
    BadCrc,
    /// The frame ended before the length its header gives (on a serial line, the line
    /// went idle; from a radio, the packet was shorter).
    Truncated,
    /// The length field exceeds the payload capacity.
    Oversized,
    /// The checks passed but the frame is not valid: a broadcast source address, a
    /// field value the format does not allow, a line error inside the frame, or bytes
    /// around a frame where exactly one was expected.
    Malformed,
}

/// A received frame was discarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RxError {
    kind: RxErrorKind,
}

impl RxError {
    /// An error of `kind`.
    pub const fn new(kind: RxErrorKind) -> Self {
        Self { kind }
    }

    /// Why.
    pub const fn kind(&self) -> RxErrorKind {
        self.kind
    }
}

impl core::fmt::Display for RxError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self.kind {
            RxErrorKind::BadHeader => "header check mismatch",
            RxErrorKind::BadCrc => "CRC mismatch",
            RxErrorKind::Truncated => "frame truncated",
            RxErrorKind::Oversized => "length above the frame capacity",
            RxErrorKind::Malformed => "malformed frame",
        })
    }
}

impl core::error::Error for RxError {}

/// What was wrong when building or emitting a frame (see [`FrameError::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// The payload is longer than the capacity `N`.
    PayloadTooLong,
    /// A source address (or, where the format forbids it, a destination) is the
    /// broadcast address.
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
    /// An error of `kind`.
    pub const fn new(kind: FrameErrorKind) -> Self {
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

/// Why a MAC did not send a frame.
///
/// `D` is the MAC's drop reason, for a call that waits until the frame is delivered
/// or dropped; a MAC with no such call leaves it [`Infallible`](core::convert::Infallible),
/// and [`SendError::Dropped`] cannot occur.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SendError<D = core::convert::Infallible> {
    /// The payload exceeds the frame capacity; nothing was queued.
    PayloadTooLong,
    /// The MAC is still busy with another frame; nothing was queued.
    Busy,
    /// The frame was handed to the MAC and dropped.
    Dropped(D),
}

impl<D: core::fmt::Debug> core::fmt::Display for SendError<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SendError::PayloadTooLong => f.write_str("payload longer than the frame capacity"),
            SendError::Busy => f.write_str("a frame is already being sent"),
            SendError::Dropped(reason) => write!(f, "frame dropped: {reason:?}"),
        }
    }
}

impl<D: core::fmt::Debug> core::error::Error for SendError<D> {}
