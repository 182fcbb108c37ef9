//! The shared types on their own: the CRC's catalogue values, every receive-error kind
//! landing in its own counter, saturation, and the errors' kinds and text.
// The crate's lints forbid panics in the MAC; a test fails by panicking.
#![allow(
    clippy::panic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use mac_base::counters::bump;
use mac_base::{
    Address, Counters, Event, FrameError, FrameErrorKind, RxError, RxErrorKind, SendError, crc,
};

#[test]
fn crc_is_ccitt_false() {
    // The catalogue check value, and the empty message (the initial value).
    assert_eq!(crc::checksum(b"123456789"), 0x29B1);
    assert_eq!(crc::checksum(b""), crc::INIT);
    // Byte by byte and in one go agree.
    let stepped = b"header".iter().fold(crc::INIT, |c, &b| crc::update(c, b));
    assert_eq!(stepped, crc::checksum(b"header"));
}

#[test]
fn broadcast_is_the_only_broadcast_address() {
    assert!(Address::BROADCAST.is_broadcast());
    assert!((0..0xFF).all(|a| !Address(a).is_broadcast()));
}

#[test]
fn every_receive_error_has_its_own_counter() {
    let kinds = [
        RxErrorKind::BadHeader,
        RxErrorKind::BadCrc,
        RxErrorKind::Truncated,
        RxErrorKind::Oversized,
        RxErrorKind::Malformed,
    ];
    let mut c = Counters::<()>::default();
    for (n, kind) in kinds.into_iter().enumerate() {
        for _ in 0..=n {
            c.count_rx_error(RxError::new(kind).kind());
        }
    }
    let by_kind = [
        c.rx_header_errors,
        c.rx_crc_errors,
        c.rx_truncated,
        c.rx_oversized,
        c.rx_malformed,
    ];
    assert_eq!(by_kind, [1, 2, 3, 4, 5]);
    assert_eq!(c.rx_errors(), 15);
    assert_eq!((c.rx_frames, c.tx_attempts), (0, 0));
}

#[test]
fn counters_saturate() {
    let mut n = u32::MAX - 1;
    bump(&mut n);
    bump(&mut n);
    assert_eq!(n, u32::MAX);
    let c = Counters::<()> {
        rx_header_errors: u32::MAX,
        rx_crc_errors: 1,
        ..Counters::default()
    };
    assert_eq!(c.rx_errors(), u32::MAX);
}

#[test]
fn errors_have_kinds_and_text() {
    let e = FrameError::new(FrameErrorKind::BufferTooSmall);
    assert_eq!(e.kind(), FrameErrorKind::BufferTooSmall);
    assert_eq!(e.to_string(), "buffer too small for the encoded frame");
    assert_eq!(
        RxError::new(RxErrorKind::Truncated).to_string(),
        "frame truncated"
    );
    // A MAC with a waiting send reports its own drop reason; one without cannot.
    #[derive(Debug)]
    struct Reason;
    assert_eq!(
        SendError::Dropped(Reason).to_string(),
        "frame dropped: Reason"
    );
    let refused: SendError = SendError::Busy;
    assert_eq!(refused.to_string(), "a frame is already being sent");
}

#[test]
fn medium_events_sit_beside_the_shared_ones() {
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Own {
        Jam,
    }
    let events: [Event<(), Own>; 2] = [Event::Delivered { attempts: 2 }, Event::Medium(Own::Jam)];
    assert_eq!(format!("{:?}", events[1]), "Medium(Jam)");
    assert!(matches!(events[0], Event::Delivered { attempts: 2 }));
}
