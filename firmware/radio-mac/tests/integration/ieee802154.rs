//! IEEE 802.15.4 unslotted CSMA-CA, the default access rule, on the simulated
//! channel: the attempt limit (1 + macMaxFrameRetries), a channel access failure
//! after exactly macMaxCSMABackoffs + 1 CCAs on a jammed channel, backoff waits
//! within `[0, 2^BE - 1]` unit backoff periods with BE growing on a busy channel and
//! restarting at macMinBE on a retry, and the standard's parameter ranges.
//!
//! Every run has a fixed seed; where a test needs every value of a window to occur,
//! the number of draws makes a miss impossible in practice (stated at each).

use crate::common;

use common::{Flow, run};
use radio_mac::config::ConfigErrorKind;
use radio_mac::sim::Channel;
use radio_mac::{
    Address, AirEvent, ChannelAccess, CsmaCa, DropReason, Event, MacConfig, MacCore, Radio,
};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

const AIR: MacConfig = MacConfig::IEEE_802_15_4_2450;
const SLOT_NS: u64 = 320_000;
const MAX_NS: u64 = 10_000_000_000;

fn csma(min_be: u8, max_be: u8, backoffs: u8, retries: u8) -> MacConfig {
    AIR.with_access(ChannelAccess::Ieee802154Unslotted(
        CsmaCa::new(min_be, max_be, backoffs, retries).unwrap(),
    ))
}

/// A radio that logs the instant of every CCA.
struct Logged<'a, R> {
    inner: R,
    now: u64,
    ccas: &'a mut Vec<u64>,
}

impl<R: Radio> Radio for Logged<'_, R> {
    type Error = R::Error;
    fn transmit(&mut self, packet: &[u8]) -> Result<(), R::Error> {
        self.inner.transmit(packet)
    }
    fn is_transmitting(&mut self) -> Result<bool, R::Error> {
        self.inner.is_transmitting()
    }
    fn receive(&mut self, buf: &mut [u8]) -> Result<Option<usize>, R::Error> {
        self.inner.receive(buf)
    }
    fn channel_clear(&mut self) -> Result<bool, R::Error> {
        self.ccas.push(self.now);
        self.inner.channel_clear()
    }
}

#[test]
fn the_default_is_the_standard_rule() {
    assert_eq!(
        AIR.access(),
        ChannelAccess::Ieee802154Unslotted(CsmaCa::IEEE_802_15_4)
    );
    let c = CsmaCa::IEEE_802_15_4;
    assert_eq!(
        (
            c.min_be(),
            c.max_be(),
            c.max_csma_backoffs(),
            c.max_frame_retries()
        ),
        (3, 5, 4, 3)
    );
    // MacConfig::new (another radio's timing) keeps the default rule.
    let lora = MacConfig::new(Address(4), 5_469, 14, 1_024_000, 2_048_000).unwrap();
    assert_eq!(lora.access(), ChannelAccess::DEFAULT);
}

#[test]
fn parameters_outside_the_standard_ranges_are_refused() {
    let kind = |r: Result<CsmaCa, radio_mac::config::ConfigError>| r.unwrap_err().kind();
    // The edges of the ranges are accepted.
    for (a, b, c, d) in [(0, 3, 0, 0), (3, 3, 5, 7), (8, 8, 0, 0), (0, 8, 4, 3)] {
        assert!(CsmaCa::new(a, b, c, d).is_ok(), "{a} {b} {c} {d}");
    }
    assert_eq!(
        kind(CsmaCa::new(4, 3, 4, 3)),
        ConfigErrorKind::BackoffExponent
    );
    assert_eq!(
        kind(CsmaCa::new(2, 2, 4, 3)),
        ConfigErrorKind::BackoffExponent
    );
    assert_eq!(
        kind(CsmaCa::new(3, 9, 4, 3)),
        ConfigErrorKind::BackoffExponent
    );
    assert_eq!(kind(CsmaCa::new(3, 5, 6, 3)), ConfigErrorKind::CsmaBackoffs);
    assert_eq!(kind(CsmaCa::new(3, 5, 4, 8)), ConfigErrorKind::FrameRetries);
    // Every kind has its message.
    let e = CsmaCa::new(3, 5, 4, 8).unwrap_err();
    assert!(e.to_string().contains("macMaxFrameRetries"));
}

#[test]
fn an_unreachable_destination_drops_after_one_plus_max_frame_retries_attempts() {
    for retries in 0..=7u8 {
        let mut ch = Channel::<2>::new(AIR, 3);
        let flows = [Flow {
            from: 0,
            to: Some(1),
            frames: 5,
        }];
        let r = run(&mut ch, csma(3, 5, 4, retries), &flows, 8, 9, MAX_NS);
        assert!(r.completed);
        assert_eq!(r.dropped_no_ack, 5, "{r:?}");
        let limit = 1 + u32::from(retries);
        assert_eq!((r.attempts, r.max_attempts), (5 * limit, limit), "{r:?}");
    }
}

#[test]
fn attempts_never_exceed_one_plus_max_frame_retries() {
    // 30 % of all packets lost: an attempt succeeds with probability 0.7^2 = 0.49, so
    // about 0.51^3 = 13 % of the 300 frames need all 4 attempts and 0.51^4 = 6.8 %
    // (about 20) fail them all; the binomial chance of seeing none is below 1e-8.
    let mut ch = Channel::<2>::new(AIR, 17);
    ch.link(0, 1, -70);
    ch.set_loss_ppm(300_000);
    let flows = [Flow {
        from: 0,
        to: Some(1),
        frames: 300,
    }];
    let r = run(&mut ch, AIR, &flows, 24, 23, MAX_NS);
    println!("lossy link, IEEE 802.15.4 defaults: {r:?}");
    assert!(r.completed);
    assert_eq!(r.max_attempts, 4, "{r:?}");
    assert!(r.dropped_no_ack > 0, "{r:?}");
    assert_eq!(r.dropped_other, 0);
    assert_eq!(r.delivered + r.dropped_no_ack, r.offered);
    assert_eq!((r.not_exactly_once, r.duplicated_drops), (0, 0));
}

/// One frame from station 0 on a channel that station 1 jams: the instants of its
/// CCAs, its busy events (instant, slots) and how it ended.
fn jammed_frame(
    mac: &mut MacCore<XorShiftRng, 16, 2>,
    ch: &mut Channel<2>,
    start: u64,
) -> (Vec<u64>, Vec<(u64, u32)>, Event, u64) {
    let mut ccas = Vec::new();
    let mut busy = Vec::new();
    mac.enqueue(Address(2), b"jammed").unwrap();
    let mut t = start;
    for _ in 0..10_000 {
        ch.set_now(t);
        let mut radio = Logged {
            inner: ch.radio(0),
            now: t,
            ccas: &mut ccas,
        };
        match mac.poll(&mut radio, t) {
            Some(Event::Medium(AirEvent::ChannelBusy { slots })) => busy.push((t, slots)),
            Some(end @ Event::Dropped { .. }) => return (ccas, busy, end, t),
            Some(other) => panic!("unexpected {other:?}"),
            None => {}
        }
        // Polled exactly when the MAC asks (again at once for a wait of 0 periods),
        // so every wait is measured exactly.
        t = mac.next_deadline_ns().unwrap().max(t);
    }
    panic!("the frame never ended");
}

#[test]
fn a_jammed_channel_is_a_channel_access_failure_after_max_backoffs_plus_one_ccas() {
    for backoffs in 0..=5u8 {
        let mut ch = Channel::<2>::new(AIR, 1);
        ch.link(0, 1, -60);
        ch.jam(1, u64::MAX);
        let cfg = csma(3, 5, backoffs, 3).with_address(Address(1)).unwrap();
        let mut mac: MacCore<XorShiftRng, 16, 2> =
            MacCore::new(cfg, XorShiftRng::seed_from_u64(u64::from(backoffs)));
        let start = 1_000_000; // the jamming is audible from 192 µs on
        let (ccas, busy, end, _) = jammed_frame(&mut mac, &mut ch, start);
        assert_eq!(ccas.len(), usize::from(backoffs) + 1, "{ccas:?}");
        assert_eq!(busy.len(), usize::from(backoffs));
        assert_eq!(
            end,
            Event::Dropped {
                reason: DropReason::ChannelBusy,
                attempts: 0
            }
        );
        assert_eq!(mac.counters().medium.channel_busy, u32::from(backoffs) + 1);
        assert_eq!(mac.counters().medium.dropped_channel_busy, 1);
        assert_eq!(mac.counters().tx_attempts, 0);
        assert_eq!(ch.stats().transmissions, 0);
    }
}

#[test]
fn backoff_waits_lie_in_the_window_of_the_backoff_exponent() {
    // 400 jammed frames, macMinBE 3, macMaxBE 5, 4 backoffs: the wait before the
    // first CCA is in [0, 7] periods, after the first busy CCA (BE 4) in [0, 15],
    // after the later ones (BE capped at 5) in [0, 31]. Each window's largest value
    // must also occur (the window is not smaller than the standard's): with 400
    // uniform draws a value of a 32-value window is missed with probability
    // (31/32)^400 < 4e-6.
    let mut ch = Channel::<2>::new(AIR, 1);
    ch.link(0, 1, -60);
    ch.jam(1, u64::MAX);
    let cfg = AIR.with_address(Address(1)).unwrap();
    let mut mac: MacCore<XorShiftRng, 16, 2> = MacCore::new(cfg, XorShiftRng::seed_from_u64(99));
    let mut max_wait = [0u64; 5];
    let mut t = 1_000_000;
    for _ in 0..400 {
        let (ccas, busy, _, end) = jammed_frame(&mut mac, &mut ch, t);
        assert_eq!((ccas.len(), busy.len()), (5, 4));
        // The first wait, from the enqueue (polled at `t`) to the first CCA.
        let first = ccas[0] - t;
        assert_eq!(first % SLOT_NS, 0);
        let mut waits = vec![first / SLOT_NS];
        for (i, &(at, slots)) in busy.iter().enumerate() {
            // Each busy event reports its draw, and the next CCA comes exactly then.
            assert_eq!(at, ccas[i]);
            assert_eq!(ccas[i + 1] - at, u64::from(slots) * SLOT_NS);
            waits.push(u64::from(slots));
        }
        for (nb, &w) in waits.iter().enumerate() {
            let be = (3 + nb).min(5);
            assert!(w < 1 << be, "NB {nb}: wait {w} periods, BE {be}");
            max_wait[nb] = max_wait[nb].max(w);
        }
        t = end + 1_000_000;
    }
    assert_eq!(max_wait, [7, 15, 31, 31, 31]);
}

#[test]
fn a_retry_restarts_csma_ca_at_min_be() {
    // Nobody hears station 0: every attempt times out. The first backoff of each
    // attempt (reported by the ACK timeout for the retries) is in [0, 7] periods,
    // and the next attempt starts exactly that many periods later (one CCA, clear).
    // 200 frames give 600 retries: every value of the 8-value window occurs (a miss
    // has probability below 8 * (7/8)^600, about 1e-34).
    let mut ch = Channel::<2>::new(AIR, 1);
    let cfg = AIR.with_address(Address(1)).unwrap();
    let mut mac: MacCore<XorShiftRng, 16, 2> = MacCore::new(cfg, XorShiftRng::seed_from_u64(5));
    let mut seen = [0u32; 8];
    let mut t = 0;
    for _ in 0..200 {
        mac.enqueue(Address(2), b"lost").unwrap();
        let mut timeout: Option<(u64, u32)> = None;
        let mut attempts = 0;
        for polls in 0.. {
            assert!(polls < 10_000, "the frame never ended");
            ch.set_now(t);
            let ev = mac.poll(&mut ch.radio(0), t);
            ch.resolve();
            match ev {
                Some(Event::AttemptStarted { attempt }) => {
                    attempts += 1;
                    assert_eq!(attempt, attempts);
                    if let Some((at, slots)) = timeout.take() {
                        assert_eq!(t - at, u64::from(slots) * SLOT_NS);
                    }
                }
                Some(Event::Medium(AirEvent::AckTimeout { attempt, slots })) => {
                    assert_eq!(attempt, attempts);
                    assert!(slots < 8, "{slots}");
                    seen[slots as usize] += 1;
                    timeout = Some((t, slots));
                }
                Some(Event::Dropped {
                    reason,
                    attempts: n,
                }) => {
                    assert_eq!((reason, n), (DropReason::NoAck, 4));
                    break;
                }
                other => assert!(other.is_none(), "{other:?}"),
            }
            t = mac.next_deadline_ns().unwrap_or(t + 1).max(t);
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    assert_eq!(seen.iter().sum::<u32>(), 600);
}
