//! No corrupted frame is accepted: every 1- and 2-bit error, every burst of up to 16
//! bits, and random corruption of whole packets, through `Frame::parse`, with fixed
//! seeds (the serial MAC's `tests/integration/corruption.rs`, for the radio format).
//!
//! The header check protects `kind | seq | dst | src | len` (a 7-byte codeword under
//! CRC-16/CCITT: Hamming distance 4, every burst up to 16 bits) before the length is
//! trusted, and the frame check covers the rest, so every error of 1 to 3 bits and
//! every burst of at most 16 bits must be rejected: one accept fails the test.
//! Random corruption of every byte may pass at most at the rate of two 16-bit checks
//! in a row, about 2^-32 per packet: among 10^5 packets the expected count is
//! 2.3e-5, and the test requires 0 (the seed is fixed, so this does not vary).

use radio_mac::Address;
use radio_mac::frame::{Frame, OVERHEAD};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

const N: usize = 32;

fn frames(rng: &mut XorShiftRng) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for len in [0usize, 1, 5, 17, 32] {
        let mut payload = [0u8; N];
        rng.fill_bytes(&mut payload);
        let f = Frame::<N>::data(Address(2), Address(9), len as u8, &payload[..len]).unwrap();
        let mut buf = [0u8; N + OVERHEAD];
        let n = f.emit(&mut buf).unwrap();
        assert_eq!(Frame::<N>::parse(&buf[..n]).unwrap(), f);
        out.push(buf[..n].to_vec());
    }
    let ack = Frame::<N>::ack(Address(9), Address(2), 200).unwrap();
    let mut buf = [0u8; OVERHEAD];
    ack.emit(&mut buf).unwrap();
    out.push(buf.to_vec());
    out
}

fn flip(p: &mut [u8], bit: usize) {
    p[bit / 8] ^= 0x80 >> (bit % 8);
}

#[test]
fn every_one_and_two_bit_error_is_rejected() {
    let mut rng = XorShiftRng::seed_from_u64(0xC0FFEE);
    for packet in frames(&mut rng) {
        let bits = packet.len() * 8;
        for a in 0..bits {
            let mut p = packet.clone();
            flip(&mut p, a);
            assert!(
                Frame::<N>::parse(&p).is_err(),
                "1-bit error at {a} accepted"
            );
            for b in a + 1..bits {
                let mut q = p.clone();
                flip(&mut q, b);
                assert!(
                    Frame::<N>::parse(&q).is_err(),
                    "2-bit error at {a},{b} accepted"
                );
            }
        }
    }
}

#[test]
fn every_burst_of_up_to_16_bits_is_rejected() {
    let mut rng = XorShiftRng::seed_from_u64(0xB0057);
    for packet in frames(&mut rng) {
        let bits = packet.len() * 8;
        for len in 1..=16 {
            for start in 0..=bits - len {
                let mut p = packet.clone();
                flip(&mut p, start);
                if len > 1 {
                    flip(&mut p, start + len - 1);
                }
                for bit in start + 1..start + len.saturating_sub(1) {
                    if rng.next_u32() & 1 == 1 {
                        flip(&mut p, bit);
                    }
                }
                assert!(
                    Frame::<N>::parse(&p).is_err(),
                    "burst {len} at {start} accepted"
                );
            }
        }
    }
}

#[test]
fn random_packets_and_truncations_are_rejected() {
    let mut rng = XorShiftRng::seed_from_u64(0x5EED);
    let packets = frames(&mut rng);
    let mut accepted = 0;
    for i in 0..100_000 {
        let mut p = packets[i % packets.len()].clone();
        rng.fill_bytes(&mut p);
        if Frame::<N>::parse(&p).is_ok() {
            accepted += 1;
        }
        // Every proper prefix and every extension of a good packet is rejected.
        let good = &packets[i % packets.len()];
        let cut = (rng.next_u32() as usize) % good.len();
        assert!(Frame::<N>::parse(&good[..cut]).is_err());
        let mut longer = good.clone();
        longer.push(rng.next_u32() as u8);
        assert!(Frame::<N>::parse(&longer).is_err());
    }
    assert_eq!(accepted, 0);
}
