//! The simplified IEEE 802.11 DCF ([`ChannelAccess::DcfLike`]) on the simulated
//! channel: hand-computed timelines with scripted counters (the freeze of a counter
//! by another station's frame and its resumption at the expected slot boundary; a
//! collision, the early ACK timeout and both colliders back on the common slot
//! grid), the stage's window doubling up to `m`, the full ACK timeout when the
//! channel is busy at the early deadline, the retry limit, and the parameter checks.
//!
//! Timings on the 2.4 GHz PHY: slot 320 µs, SIFS 192 µs, DIFS 832 µs, CCA delay
//! 192 µs, an 8-byte payload 736 µs on the air (23 bytes), an ACK 480 µs. Every
//! instant is a multiple of the 16 µs step, so polling every station every step
//! polls it at every change of its CCA: the exact timing of `MacCore::poll`.

use crate::common;

use std::convert::Infallible;

use common::{Flow, STEP_NS, run};
use radio_mac::config::ConfigErrorKind;
use radio_mac::sim::Channel;
use radio_mac::{
    Address, AirEvent, ChannelAccess, Countdown, Dcf, DropReason, Event, MacConfig, MacCore,
};
use rand_core::{SeedableRng, TryRng};
use rand_xorshift::XorShiftRng;

const AIR: MacConfig = MacConfig::IEEE_802_15_4_2450;
const US: u64 = 1_000;
const SLOT: u64 = 320 * US;
const MAX_NS: u64 = 10_000_000_000;
/// Air time of a data frame with an 8-byte payload.
const DATA: u64 = 736 * US;

fn dcf(cw_min: u16, max_stage: u8, retry_limit: u32) -> MacConfig {
    AIR.with_access(ChannelAccess::DcfLike(
        Dcf::new(cw_min, max_stage, retry_limit).unwrap(),
    ))
}

/// An RNG that returns a script of 32-bit values, then zeros.
struct Script(Vec<u32>);

impl TryRng for Script {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(if self.0.is_empty() {
            0
        } else {
            self.0.remove(0)
        })
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(u64::from(self.try_next_u32()?))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        dst.fill(0);
        Ok(())
    }
}

/// The RNG output that makes a counter `c` of a window of `2^k` slots (an exact
/// draw: the top `k` bits).
fn counter(c: u32, k: u32) -> u32 {
    c << (32 - k)
}

/// Stations 0 (A) and 1 (B) each send one frame to station 2 (C); all hear each
/// other. Every station is polled every 16 µs from t = 0. Returns each sender's
/// events with their instants.
fn two_senders(a: Vec<u32>, b: Vec<u32>) -> [Vec<(u64, Event)>; 2] {
    two_senders_counting(a, b, Countdown::VirtualSlots)
}

/// [`two_senders`] with the counter counting down as `countdown` says.
fn two_senders_counting(a: Vec<u32>, b: Vec<u32>, countdown: Countdown) -> [Vec<(u64, Event)>; 2] {
    let cfg = AIR.with_access(ChannelAccess::DcfLike(
        Dcf::new(32, 5, 7).unwrap().with_countdown(countdown),
    ));
    let mut ch = Channel::<3>::new(AIR, 1);
    ch.link(0, 1, -60);
    ch.link(0, 2, -60);
    ch.link(1, 2, -60);
    let mac = |i: u8, script: Vec<u32>| -> MacCore<Script, 16, 2> {
        MacCore::new(cfg.with_address(Address(i + 1)).unwrap(), Script(script))
    };
    let mut macs = [mac(0, a), mac(1, b), mac(2, vec![0])];
    macs[0].enqueue(Address(3), b"from A..").unwrap();
    macs[1].enqueue(Address(3), b"from B..").unwrap();
    let mut log = [Vec::new(), Vec::new()];
    let mut t = 0;
    while t < 20_000 * US && !(macs[0].is_idle() && macs[1].is_idle()) {
        ch.set_now(t);
        for (i, m) in macs.iter_mut().enumerate() {
            if let Some(ev) = m.poll(&mut ch.radio(i), t) {
                if i < 2 {
                    log[i].push((t, ev));
                }
            }
        }
        ch.resolve();
        t += STEP_NS;
    }
    log
}

#[test]
fn a_frozen_counter_resumes_at_the_expected_boundary() {
    // t = 0: both draw (A: 2, B: 5) with the medium idle since 0: b0 = 832 µs.
    // A sends at 832 + 2 * 320 = 1472 µs, until 2208. B's CCA turns busy at 1664
    // (192 µs later): floor((1664 - 832) / 320) = 2 idle slots ended, and A's busy
    // period is one more of Bianchi's slot times: B's counter 5 -> 2, frozen. C gets
    // A's frame at 2224 (the step after it ended) and ACKs at 2224 + 192 = 2416, until
    // 2896; B sees it busy from 2608, before its next b0 (2208 + 832 = 3040), so no
    // slot is counted. Idle from 2896: b0 = 3728, and B sends at 3728 + 2 * 320 =
    // 4368 µs. (Had its counter not been frozen it would have sent at 832 + 5 * 320 =
    // 2432, during the ACK; had it restarted from 5, at 5328.)
    let seq = 0;
    let [a, b] = two_senders(vec![seq, counter(2, 5)], vec![seq, counter(5, 5)]);
    assert_eq!(
        a,
        [
            (1472 * US, Event::AttemptStarted { attempt: 1 }),
            (2912 * US, Event::Delivered { attempts: 1 }),
        ]
    );
    assert_eq!(b[0], (4368 * US, Event::AttemptStarted { attempt: 1 }));
    assert_eq!(b.last().unwrap().1, Event::Delivered { attempts: 1 });
}

#[test]
fn the_standards_countdown_takes_no_step_for_a_busy_period() {
    // The same timeline with IEEE 802.11's countdown (idle slots only): B's counter
    // goes 5 -> 3 while A sends, and B sends one slot later, at 3728 + 3 * 320 =
    // 4688 µs.
    let seq = 0;
    let [a, b] = two_senders_counting(
        vec![seq, counter(2, 5)],
        vec![seq, counter(5, 5)],
        Countdown::IdleSlots,
    );
    assert_eq!(a[0], (1472 * US, Event::AttemptStarted { attempt: 1 }));
    assert_eq!(b[0], (4688 * US, Event::AttemptStarted { attempt: 1 }));
    assert_eq!(b.last().unwrap().1, Event::Delivered { attempts: 1 });
}

#[test]
fn colliders_time_out_early_and_rejoin_the_common_slot_grid() {
    // Both draw 2: both send at 1472 µs and collide at C; no ACK. Their frames end
    // at 2208 (each counts the medium idle from its own end); at 2208 + SIFS + slot
    // = 2720 the channel is clear: no ACK began, the attempt failed at once. Stage 1:
    // windows of 64; A draws 1, B draws 3 (the same script value would give 1 in a
    // window of 32: the window did double). b0 = 2208 + 832 = 3040, after the draw:
    // A sends at 3040 + 320 = 3360 µs. B's CCA turns busy at 3552: one idle slot and
    // A's busy period, 3 -> 1. A's frame ends at 4096, C ACKs 4304..4784 (B busy from
    // 4496, before its b0 4928), A has its ACK at 4800. Idle from 4784: b0 = 5616, B
    // sends at 5616 + 320 = 5936 µs.
    let [a, b] = two_senders(
        vec![0, counter(2, 5), counter(1, 6)],
        vec![0, counter(2, 5), counter(3, 6)],
    );
    let timeout = |slots| Event::Medium(AirEvent::AckTimeout { attempt: 1, slots });
    assert_eq!(
        a,
        [
            (1472 * US, Event::AttemptStarted { attempt: 1 }),
            (2720 * US, timeout(1)),
            (3360 * US, Event::AttemptStarted { attempt: 2 }),
            (4800 * US, Event::Delivered { attempts: 2 }),
        ]
    );
    assert_eq!(
        b[..3],
        [
            (1472 * US, Event::AttemptStarted { attempt: 1 }),
            (2720 * US, timeout(3)),
            (5936 * US, Event::AttemptStarted { attempt: 2 }),
        ]
    );
    assert_eq!(b.last().unwrap().1, Event::Delivered { attempts: 2 });
}

/// What [`unreachable`] saw: every ACK timeout (instant, attempt, slots), every
/// attempt's instant, and how each frame ended.
struct Unreachable {
    timeouts: Vec<(u64, u32, u32)>,
    starts: Vec<u64>,
    ends: Vec<Event>,
}

/// One station sending `frames` frames to nobody, polled when it asks.
fn unreachable(cfg: MacConfig, frames: u32, seed: u64) -> Unreachable {
    let mut ch = Channel::<2>::new(AIR, 1);
    let mut mac: MacCore<XorShiftRng, 16, 2> = MacCore::new(
        cfg.with_address(Address(1)).unwrap(),
        XorShiftRng::seed_from_u64(seed),
    );
    let (mut timeouts, mut starts, mut ends) = (Vec::new(), Vec::new(), Vec::new());
    let mut t = 0;
    for _ in 0..frames {
        mac.enqueue(Address(2), b"nobody..").unwrap();
        for polls in 0.. {
            assert!(polls < 100_000, "the frame never ended");
            ch.set_now(t);
            match mac.poll(&mut ch.radio(0), t) {
                Some(Event::AttemptStarted { .. }) => starts.push(t),
                Some(Event::Medium(AirEvent::AckTimeout { attempt, slots })) => {
                    timeouts.push((t, attempt, slots))
                }
                Some(end @ Event::Dropped { .. }) => {
                    ends.push(end);
                    break;
                }
                other => assert!(other.is_none(), "{other:?}"),
            }
            ch.resolve();
            t = mac.next_deadline_ns().unwrap_or(t + 1).max(t);
        }
    }
    Unreachable {
        timeouts,
        starts,
        ends,
    }
}

#[test]
fn the_window_doubles_per_stage_up_to_m_and_timeouts_are_early() {
    // W = 4, m = 2, 6 retries: after attempt k the counter is drawn from
    // [0, 4 * 2^min(k, 2) - 1]: [0, 7], then [0, 15] for every later stage. 300
    // frames give 300 draws per stage: each window's largest value occurs (a miss has
    // probability (15/16)^300 < 1e-8), and none beyond it.
    let Unreachable {
        timeouts,
        starts,
        ends,
    } = unreachable(dcf(4, 2, 6), 300, 8);
    assert_eq!(ends.len(), 300);
    assert!(ends.iter().all(|e| *e
        == Event::Dropped {
            reason: DropReason::NoAck,
            attempts: 7
        }));
    assert_eq!((timeouts.len(), starts.len()), (300 * 6, 300 * 7));
    let mut max = [0u32; 7];
    for &(_, attempt, slots) in &timeouts {
        let window = 4u32 << attempt.min(2);
        assert!(slots < window, "attempt {attempt}: {slots}");
        max[attempt as usize] = max[attempt as usize].max(slots);
    }
    assert_eq!(max[1..], [7, 15, 15, 15, 15, 15]);
    // Nothing on the air: every timeout is the early one, SIFS + slot after the end
    // of the frame, and the retry goes after b0 (own end + DIFS, one slot after the
    // draw) plus the counter: exactly at timeout + 320 µs + slots * 320 µs.
    let mut next_start = starts.iter();
    for &(at, _, slots) in &timeouts {
        let started = *next_start
            .find(|&&s| s < at && at - s <= DATA + 512 * US)
            .unwrap();
        assert_eq!(at - started, DATA + 192 * US + SLOT);
        let retry = starts.iter().find(|&&s| s > at).unwrap();
        assert_eq!(*retry - at, SLOT + u64::from(slots) * SLOT);
    }
}

#[test]
fn a_busy_channel_at_the_early_deadline_waits_the_full_ack_timeout() {
    // Station 0 sends to station 1, which does not hear it; station 2, which station
    // 0 hears, jams from the end of the data frame for 700 µs: busy from 192 µs
    // after the end, so at the early deadline (512 µs) an ACK could be arriving and
    // the station waits the full ACK timeout (992 µs). Its next b0 is the end of the
    // jamming + DIFS.
    let cfg = dcf(32, 5, 0);
    let mut ch = Channel::<3>::new(AIR, 1);
    ch.link(0, 2, -60);
    let mut mac: MacCore<XorShiftRng, 16, 2> = MacCore::new(
        cfg.with_address(Address(1)).unwrap(),
        XorShiftRng::seed_from_u64(4),
    );
    mac.enqueue(Address(2), b"nobody..").unwrap();
    let (mut started, mut ended) = (None, None);
    let mut t = 0;
    while ended.is_none() && t < 100_000 * US {
        ch.set_now(t);
        if let Some(s) = started {
            if t == s + DATA {
                ch.jam(2, t + 700 * US);
            }
        }
        match mac.poll(&mut ch.radio(0), t) {
            Some(Event::AttemptStarted { .. }) => started = Some(t),
            Some(Event::Dropped { reason, attempts }) => {
                assert_eq!((reason, attempts), (DropReason::NoAck, 1));
                ended = Some(t);
            }
            other => assert!(other.is_none(), "{other:?}"),
        }
        ch.resolve();
        t += STEP_NS;
    }
    let (s, e) = (started.unwrap(), ended.unwrap());
    assert_eq!(e - s, DATA + AIR.ack_timeout_ns());
    assert_eq!(AIR.ack_timeout_ns(), 992 * US);
}

#[test]
fn frames_are_dropped_after_retry_limit_plus_one_attempts() {
    for retry_limit in [0u32, 1, 3, 10] {
        let mut ch = Channel::<2>::new(AIR, 3);
        let flows = [Flow {
            from: 0,
            to: Some(1),
            frames: 4,
        }];
        let r = run(&mut ch, dcf(8, 3, retry_limit), &flows, 8, 9, MAX_NS);
        assert!(r.completed);
        assert_eq!(r.dropped_no_ack, 4, "{r:?}");
        assert_eq!(
            (r.attempts, r.max_attempts),
            (4 * (retry_limit + 1), retry_limit + 1)
        );
    }
}

#[test]
fn saturated_stations_that_hear_each_other_deliver_everything() {
    // Three senders to one receiver, all in range, 100 frames each, Bianchi's W = 32,
    // m = 5 and a large retry limit: every frame is delivered exactly once (a frame
    // would need 1001 failed attempts to be dropped).
    let mut ch = Channel::<4>::new(AIR, 5);
    for i in 0..4 {
        for j in i + 1..4 {
            ch.link(i, j, -60);
        }
    }
    let flows: Vec<Flow> = (0..3)
        .map(|from| Flow {
            from,
            to: Some(3),
            frames: 100,
        })
        .collect();
    let r = run(&mut ch, dcf(32, 5, 1_000), &flows, 16, 31, MAX_NS);
    println!("DCF, 3 saturated senders in range: {r:?}");
    assert!(r.completed);
    assert_eq!(r.delivered, 300);
    assert_eq!((r.not_exactly_once, r.duplicated_drops), (0, 0));
    // Some collisions happen (equal counters), but far from every attempt: with 3
    // stations and W = 32 an attempt collides with probability about
    // 1 - (1 - 2 / (W + 1))^2 = 0.12 (the first-order estimate of Bianchi's
    // fixed point), 1.13 attempts per frame; 1.5 would mean a collision probability
    // of 0.33, nearly three times that.
    assert!(r.attempts_per_frame() < 1.5, "{r:?}");
}

#[test]
fn parameters_are_checked() {
    assert_eq!(
        Dcf::new(0, 5, 7).unwrap_err().kind(),
        ConfigErrorKind::ZeroWindow
    );
    assert_eq!(
        Dcf::new(32, 17, 7).unwrap_err().kind(),
        ConfigErrorKind::MaxStage
    );
    let widest = Dcf::new(u16::MAX, 16, u32::MAX).unwrap();
    assert_eq!(widest.window(100), u32::from(u16::MAX) << 16);
    assert_eq!(Dcf::BIANCHI, Dcf::new(32, 5, 7).unwrap());
}
