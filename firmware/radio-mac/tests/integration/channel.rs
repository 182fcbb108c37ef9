//! The radio MAC on the simulated channel: exactly-once delivery with lost ACKs,
//! the retry limit, broadcast, capture, and the hidden-terminal line A - B - C.
//!
//! Every run has a fixed seed, so its figures are the same on every run; the
//! thresholds below say why they are sound for the model and not just for the seed.
//!
//! The tests whose reasoning rests on the project's earlier rule (16 attempts, windows
//! up to 2^10 slots) select [`ChannelAccess::Beb`]; the hidden-terminal line runs
//! under it and under the default, IEEE 802.15.4 unslotted CSMA-CA.

use crate::common;

use backoff_core::BebConfig;
use common::{Flow, run};
use radio_mac::sim::Channel;
use radio_mac::{ChannelAccess, CsmaCa, MacConfig};

const AIR: MacConfig = MacConfig::IEEE_802_15_4_2450;
/// The project's earlier rule, for the tests that depend on it.
const BEB: MacConfig = AIR.with_access(ChannelAccess::Beb);
/// Ten simulated seconds: far above what any run here needs (a few hundred ms).
const MAX_NS: u64 = 10_000_000_000;

#[test]
fn lost_acks_never_deliver_twice() {
    // Two stations, 20 % of all packets (data and ACK) lost. A lost ACK makes the
    // sender retransmit a frame the receiver already has: the sequence number must
    // stop it from being delivered again.
    let mut ch = Channel::<2>::new(AIR, 11);
    ch.link(0, 1, -70);
    ch.set_loss_ppm(200_000);
    let flows = [Flow {
        from: 0,
        to: Some(1),
        frames: 400,
    }];
    let r = run(&mut ch, BEB, &flows, 24, 5, MAX_NS);
    println!("lossy link: {r:?}");
    assert!(r.completed);
    assert_eq!(r.delivered + r.dropped_no_ack + r.dropped_other, r.offered);
    assert_eq!(r.not_exactly_once, 0);
    assert_eq!(r.duplicated_drops, 0);
    // P(ACK lost | data arrived) = 0.2, so about 0.2 * 400 * 1.25 = 100 duplicates are
    // expected; 30 is more than 7 standard deviations below (binomial, sd about 9):
    // the test really exercises the duplicate path.
    assert!(r.duplicates_suppressed > 30, "{}", r.duplicates_suppressed);
    // A frame is dropped only if 16 attempts in a row fail (p = 0.36^16, about 1e-7).
    assert_eq!(r.delivered, r.offered);
}

#[test]
fn out_of_range_drops_after_the_retry_limit() {
    // Nobody hears station 0's destination: every frame ends as NoAck after exactly
    // the attempt limit.
    let mut ch = Channel::<2>::new(AIR, 3);
    let beb = BebConfig::new(4, 5).unwrap();
    let flows = [Flow {
        from: 0,
        to: Some(1),
        frames: 6,
    }];
    let r = run(&mut ch, BEB.with_beb(beb), &flows, 8, 9, MAX_NS);
    assert!(r.completed);
    assert_eq!(r.delivered, 0);
    assert_eq!(r.dropped_no_ack, 6);
    assert_eq!(r.attempts, 6 * 5);
}

#[test]
fn broadcast_is_sent_once_without_ack() {
    let mut ch = Channel::<3>::new(AIR, 4);
    ch.link(0, 1, -60);
    ch.link(0, 2, -60);
    let flows = [Flow {
        from: 0,
        to: None,
        frames: 20,
    }];
    let r = run(&mut ch, AIR, &flows, 16, 2, MAX_NS);
    assert!(r.completed);
    assert_eq!((r.delivered, r.attempts), (20, 20));
    assert_eq!(ch.stats().transmissions, 20); // no ACK went on the air
}

/// A and C both send to B under `air`'s access rule; `hear_each_other` decides
/// whether A and C are linked.
fn line(
    air: MacConfig,
    carrier_sense: bool,
    hear_each_other: bool,
    capture: Option<i16>,
) -> common::Report {
    let mut ch = Channel::<3>::new(AIR, 21);
    ch.link(0, 1, -70);
    ch.link(2, 1, -85);
    if hear_each_other {
        ch.link(0, 2, -90);
    }
    ch.set_capture_db(capture);
    let flows = [
        Flow {
            from: 0,
            to: Some(1),
            frames: 200,
        },
        Flow {
            from: 2,
            to: Some(1),
            frames: 200,
        },
    ];
    let r = run(
        &mut ch,
        air.with_carrier_sense(carrier_sense),
        &flows,
        32,
        77,
        MAX_NS,
    );
    assert!(r.completed);
    assert_eq!(r.delivered + r.dropped_no_ack + r.dropped_other, r.offered);
    assert_eq!((r.not_exactly_once, r.duplicated_drops), (0, 0));
    r
}

/// The four cases of the line under one access rule, printed.
fn line_cases(name: &str, air: MacConfig) -> [common::Report; 4] {
    let cases = [
        line(air, true, false, None),
        line(air, false, false, None),
        line(air, true, true, None),
        line(air, true, false, Some(10)),
    ];
    println!("{name}: two saturated senders, 200 frames of 32 bytes each:");
    for (case, r) in [
        "radio, A/C hidden, carrier sense",
        "radio, A/C hidden, no carrier sense",
        "radio, A/C hear each other, carrier sense",
        "radio, A/C hidden, carrier sense, capture 10 dB",
    ]
    .iter()
    .zip(&cases)
    {
        println!(
            "  {case}: delivery ratio {:.3}, attempts per frame {:.2}, most attempts {}",
            r.delivery_ratio(),
            r.attempts_per_frame(),
            r.max_attempts
        );
    }
    cases
}

#[test]
fn hidden_terminals() {
    let [hidden_cs, hidden_aloha, open_cs, hidden_capture] = line_cases("Beb", BEB);
    // The serial bus at the same load is serial-mac's test
    // `shared_bus::two_saturated_senders_as_in_the_radio_line` (radio-mac does not
    // depend on serial-mac).

    // Everything is eventually delivered: 16 attempts with windows up to 2^10 slots.
    for r in [&hidden_cs, &hidden_aloha, &open_cs, &hidden_capture] {
        assert!(r.delivery_ratio() >= 0.99, "{r:?}");
    }
    // Carrier sense between stations that hear each other avoids most collisions:
    // only starts within the CCA delay (192 µs of a 1.7 ms frame) collide.
    assert!(open_cs.attempts_per_frame() < 1.3, "{open_cs:?}");
    // Hidden terminals defeat carrier sense between A and C: they collide at B more
    // often than stations that hear each other. The difference is small (1.06
    // against 1.01 attempts per frame) because of BEB's capture effect, not carrier
    // sense: see `beb_capture_keeps_the_hidden_pair_apart`.
    assert!(hidden_cs.attempts_per_frame() > open_cs.attempts_per_frame());
    assert!(hidden_cs.attempts_per_frame() > 1.0);
    // Capture (A is 15 dB stronger at B) rescues A's frames in overlaps: fewer attempts.
    assert!(hidden_capture.attempts_per_frame() < hidden_cs.attempts_per_frame());
}

#[test]
fn beb_capture_keeps_the_hidden_pair_apart() {
    // Why two hidden saturated senders need only 1.06 attempts per frame under Beb,
    // even without carrier sense: the trace of who delivered each frame shows BEB's
    // capture effect (as on Ethernet). After a collision the winner of the next
    // round resets its backoff and sends again at once, while the loser's window
    // keeps doubling (up to 2^10 slots, 330 ms); the winner then sends long runs
    // of frames alone, so the pair rarely overlaps. Under the 802.15.4 default the
    // window restarts at 2^3 periods on every retry and the senders alternate.
    for (name, air) in [("Beb", BEB), ("802.15.4", AIR)] {
        for carrier_sense in [true, false] {
            let r = line(air, carrier_sense, false, None);
            let (runs, longest) = r.runs();
            println!(
                "{name}, hidden, carrier sense {carrier_sense}: {} deliveries in {runs} runs \
                 of one sender (mean {:.1}, longest {longest}), {:.2} attempts per frame",
                r.delivered,
                r.delivered as f64 / runs.max(1) as f64,
                r.attempts_per_frame()
            );
            let mean_run = f64::from(r.delivered) / runs.max(1) as f64;
            if name == "Beb" {
                // Fair alternation would give runs of about 2 (a coin per frame); a
                // mean above 10 is capture, by a margin no seed closes.
                assert!(mean_run > 10.0 && longest >= 50, "{r:?}");
            } else {
                assert!(mean_run < 4.0, "{r:?}");
            }
        }
    }
}

#[test]
fn hidden_terminals_under_the_default_rule() {
    let [hidden_cs, hidden_aloha, open_cs, hidden_capture] =
        line_cases("IEEE 802.15.4 unslotted CSMA-CA (the default)", AIR);
    // Not everything is delivered here, unlike under Beb: a frame has at most
    // 1 + macMaxFrameRetries = 4 attempts, each after a window of 2^3 unit backoff
    // periods (BE restarts at macMinBE on every retry, 2.56 ms), shorter than the
    // 3.4 ms in which two hidden senders' 1.7 ms frames overlap; so the hidden cases
    // lose many frames. That is the standard rule's known weakness against hidden
    // terminals, not a fault: the assertions are the rule's bounds and the
    // comparisons, whose margins (printed) are several times the differences a
    // seed could make.
    let limit = 1 + u32::from(CsmaCa::IEEE_802_15_4.max_frame_retries());
    for r in [&hidden_cs, &hidden_aloha, &open_cs, &hidden_capture] {
        assert!(r.max_attempts <= limit, "{r:?}");
        assert!(r.attempts <= r.offered * limit, "{r:?}");
    }
    // Carrier sense works between stations that hear each other: most frames get
    // through, far more than between hidden ones.
    assert!(open_cs.delivery_ratio() >= 0.9, "{open_cs:?}");
    assert!(open_cs.delivery_ratio() > hidden_cs.delivery_ratio() + 0.2);
    assert!(open_cs.attempts_per_frame() < hidden_cs.attempts_per_frame());
    // Capture rescues A's frames in overlaps.
    assert!(hidden_capture.delivery_ratio() > hidden_cs.delivery_ratio());
}
