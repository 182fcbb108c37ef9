//! The receive path: good, broadcast and foreign frames, and every kind of bad one,
//! fed byte by byte from the line with the gaps a real line has.

use crate::common;

use common::*;
use serial_mac::{Address, BusCounters, Counters, Event, Frame, RxErrorKind};

const OTHER: Address = Address(7);

fn encode(dst: Address, src: Address, payload: &[u8]) -> Vec<u8> {
    let frame = Frame::<255>::new(dst, src, payload).unwrap();
    let mut buf = vec![0u8; frame.wire_len()];
    frame.emit(&mut buf).unwrap();
    buf
}

/// Feed `bytes` one per byte time, then leave the line idle for `gap` byte times.
fn feed(mac: &mut TestMac, line: &mut Line, bytes: &[u8], gap: u64) -> Vec<Event> {
    let mut events = Vec::new();
    for &b in bytes {
        line.inject(Ok(b));
        events.extend(run(mac, line, 1, |_| false).into_iter().map(|(_, e)| e));
    }
    events.extend(run(mac, line, gap, |_| false).into_iter().map(|(_, e)| e));
    events
}

const GAP: u64 = 10;

#[test]
fn frames_for_us_and_broadcasts_are_queued_others_filtered() {
    let mut mac = mac_with(config(), 1);
    let mut line = Line::echo();
    let mut events = feed(&mut mac, &mut line, &encode(ME, PEER, b"to me"), GAP);
    events.extend(feed(
        &mut mac,
        &mut line,
        &encode(Address::BROADCAST, PEER, b"all"),
        GAP,
    ));
    events.extend(feed(
        &mut mac,
        &mut line,
        &encode(OTHER, PEER, b"not mine"),
        GAP,
    ));
    events.extend(feed(&mut mac, &mut line, &encode(ME, PEER, b""), GAP));
    assert_eq!(
        events,
        vec![
            Event::Received { src: PEER, len: 5 },
            Event::Received { src: PEER, len: 3 },
            Event::Received { src: PEER, len: 0 },
        ]
    );
    let got: Vec<Vec<u8>> = std::iter::from_fn(|| mac.take_received())
        .map(|f| f.payload().to_vec())
        .collect();
    assert_eq!(got, vec![b"to me".to_vec(), b"all".to_vec(), vec![]]);
    let c = mac.counters();
    assert_eq!((c.rx_frames, c.rx_filtered, c.rx_errors()), (3, 1, 0));
}

#[test]
fn bad_frames_are_counted_and_discarded_and_the_receiver_recovers() {
    let mut mac = mac_with(config(), 2);
    let mut line = Line::echo();
    let good = encode(ME, PEER, b"good");

    let mut bad_crc = good.clone();
    *bad_crc.last_mut().unwrap() ^= 0x01;
    let mut bad_payload = good.clone();
    bad_payload[7] ^= 0x40;
    let mut bad_header = good.clone();
    bad_header[3] ^= 0x04;
    let truncated = &good[..good.len() - 2];
    // Length 200 > capacity 32: refused at the length byte.
    let oversized = encode(ME, PEER, &[0x11; 200]);
    let broadcast_source = {
        let mut f = encode(ME, Address(3), b"x");
        f[2] = 0xFF;
        // Recompute both checks so only the source is wrong.
        let hcrc = serial_mac::frame::header_crc(f[1], f[2], f[3]).to_be_bytes();
        f[4..6].copy_from_slice(&hcrc);
        let body: Vec<u8> = f[1..4].iter().chain(&f[6..f.len() - 2]).copied().collect();
        let crc = serial_mac::crc::checksum(&body).to_be_bytes();
        let n = f.len();
        f[n - 2..].copy_from_slice(&crc);
        f
    };

    let mut events = Vec::new();
    events.extend(feed(&mut mac, &mut line, &bad_crc, GAP));
    events.extend(feed(&mut mac, &mut line, &bad_payload, GAP));
    events.extend(feed(&mut mac, &mut line, &bad_header, GAP));
    events.extend(feed(&mut mac, &mut line, truncated, GAP));
    events.extend(feed(&mut mac, &mut line, &oversized, GAP));
    events.extend(feed(&mut mac, &mut line, &broadcast_source, GAP));
    // Garbage, then a good frame right after it (no gap): the receiver resynchronises
    // on the start delimiter.
    let mut garbage_then_good = vec![0x00, 0x13, 0xFF, 0x42];
    garbage_then_good.extend_from_slice(&good);
    events.extend(feed(&mut mac, &mut line, &garbage_then_good, GAP));
    // A line error in the middle of a frame.
    for &b in &good[..4] {
        line.inject(Ok(b));
        events.extend(
            run(&mut mac, &mut line, 1, |_| false)
                .into_iter()
                .map(|(_, e)| e),
        );
    }
    line.inject(Err(()));
    events.extend(
        run(&mut mac, &mut line, GAP, |_| false)
            .into_iter()
            .map(|(_, e)| e),
    );
    events.extend(feed(&mut mac, &mut line, &good, GAP));

    let kinds: Vec<_> = events
        .iter()
        .map(|e| match e {
            Event::RxDiscarded { kind } => format!("{kind:?}"),
            Event::Received { .. } => "Received".into(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "BadCrc",
            "BadCrc",
            "BadHeader",
            "Truncated",
            "Oversized",
            "Malformed",
            "Received",
            "Malformed",
            "Received"
        ]
    );
    let c = *mac.counters();
    assert_eq!(
        c,
        Counters {
            rx_frames: 2,
            rx_header_errors: 1,
            rx_crc_errors: 2,
            rx_truncated: 1,
            rx_oversized: 1,
            rx_malformed: 2,
            medium: BusCounters {
                rx_line_errors: 1,
                // 4 garbage bytes; the bad header's frame's 4 payload and 2 CRC bytes
                // after its refused header check; the oversized frame's 200 payload
                // and 2 CRC bytes after its refused length.
                rx_noise_bytes: 4 + 6 + 200 + 2,
                ..BusCounters::default()
            },
            ..Counters::default()
        }
    );
}

#[test]
fn a_full_receive_queue_counts_the_overflow() {
    let mut mac = mac_with(config(), 3);
    let mut line = Line::echo();
    for i in 0..(Q as u8 + 2) {
        feed(&mut mac, &mut line, &encode(ME, PEER, &[i]), GAP);
    }
    assert_eq!(mac.counters().rx_frames, Q as u32);
    assert_eq!(mac.counters().rx_queue_overflows, 2);
    let firsts: Vec<u8> = std::iter::from_fn(|| mac.take_received())
        .map(|f| f.payload()[0])
        .collect();
    assert_eq!(firsts, (0..Q as u8).collect::<Vec<_>>());
}

#[test]
fn random_bytes_never_panic_and_every_byte_is_accounted_for() {
    use rand_core::{Rng, SeedableRng};
    let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(5);
    let mut mac = mac_with(config(), 4);
    let mut line = Line::echo();
    for _ in 0..20_000 {
        // Random bytes, many start delimiters, random gaps and line errors.
        let r = rng.next_u32();
        match r % 16 {
            0 => line.inject(Err(())),
            1..=3 => line.inject(Ok(serial_mac::frame::START)),
            4..=5 => {}
            _ => line.inject(Ok((r >> 8) as u8)),
        }
        run(&mut mac, &mut line, 1, |_| false);
        while mac.take_received().is_some() {}
    }
    run(&mut mac, &mut line, GAP, |_| false);
    let c = mac.counters();
    assert!(c.rx_errors() > 0);
    assert_eq!(c.tx_attempts, 0);
}

#[test]
fn parse_round_trips_and_rejects_every_truncation_and_single_bit_error() {
    for len in 0..=32usize {
        let payload: Vec<u8> = (0..len as u8).map(|i| i.wrapping_mul(37)).collect();
        let frame = Frame::<32>::new(PEER, ME, &payload).unwrap();
        let mut wire = [0u8; 40];
        let n = frame.emit(&mut wire).unwrap();
        assert_eq!(n, len + 8);
        assert_eq!(Frame::<32>::parse(&wire[..n]), Ok(frame.clone()));
        for cut in 1..n {
            assert_eq!(
                Frame::<32>::parse(&wire[..cut]).unwrap_err().kind(),
                RxErrorKind::Truncated,
                "len {len} cut {cut}"
            );
        }
        // Every single-bit error after the delimiter is caught: in the header by the
        // header check, elsewhere by the frame check (tests/integration/corruption.rs goes on to
        // 2- and 3-bit errors and bursts).
        for i in 1..n {
            for bit in 0..8 {
                let mut bad = wire;
                bad[i] ^= 1 << bit;
                assert!(
                    Frame::<32>::parse(&bad[..n]).is_err(),
                    "len {len} byte {i} bit {bit}"
                );
            }
        }
        let mut trailing = wire.to_vec();
        trailing.truncate(n);
        trailing.push(0);
        assert_eq!(
            Frame::<32>::parse(&trailing).unwrap_err().kind(),
            RxErrorKind::Malformed
        );
    }
    assert_eq!(
        Frame::<8>::parse(&[]).unwrap_err().kind(),
        RxErrorKind::Malformed
    );
    assert_eq!(
        Frame::<8>::parse(&[0x7E, 1, 2, 9]).unwrap_err().kind(),
        RxErrorKind::Truncated
    );
    let [hi, lo] = serial_mac::frame::header_crc(1, 2, 9).to_be_bytes();
    assert_eq!(
        Frame::<8>::parse(&[0x7E, 1, 2, 9, hi, lo])
            .unwrap_err()
            .kind(),
        RxErrorKind::Oversized
    );
    assert_eq!(
        Frame::<8>::parse(&[0x7E, 1, 2, 9, hi, lo ^ 1])
            .unwrap_err()
            .kind(),
        RxErrorKind::BadHeader
    );
    let mut small = [0u8; 4];
    assert!(
        Frame::<8>::new(PEER, ME, b"abc")
            .unwrap()
            .emit(&mut small)
            .is_err()
    );
    assert!(Frame::<8>::new(PEER, ME, &[0; 9]).is_err());
    assert!(Frame::<8>::new(PEER, Address::BROADCAST, b"").is_err());
}

#[test]
fn the_receive_timeout_can_outlast_the_interframe_gap() {
    // A link that stalls inside frames: a 10-byte-time stall is tolerated with a
    // receive timeout of 20, a 25-byte-time stall truncates the frame.
    let config = config().with_rx_timeout(20).unwrap();
    assert_eq!((config.interframe_gap(), config.rx_timeout()), (3, 20));
    let mut mac = mac_with(config, 6);
    let mut line = Line::echo();
    let good = encode(ME, PEER, b"stalled");
    let mut events = feed(&mut mac, &mut line, &good[..4], 10);
    events.extend(feed(&mut mac, &mut line, &good[4..], 30));
    events.extend(feed(&mut mac, &mut line, &good[..4], 25));
    assert_eq!(
        events,
        vec![
            Event::Received { src: PEER, len: 7 },
            Event::RxDiscarded {
                kind: RxErrorKind::Truncated
            }
        ]
    );
    // The gap setter resets the receive timeout to the gap.
    assert_eq!(config.with_interframe_gap(5).unwrap().rx_timeout(), 5);
    assert!(config.with_rx_timeout(0).is_err());
}
