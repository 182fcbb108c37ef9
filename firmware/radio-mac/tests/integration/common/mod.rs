//! A harness for the radio MAC on the simulated channel: saturated senders, every
//! frame's fate checked at the senders and the receivers.
#![allow(dead_code, clippy::indexing_slicing)]

use radio_mac::Address;
use radio_mac::sim::Channel;
use radio_mac::{DropReason, Event, MacConfig, MacCore};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

/// Payload capacity in the tests.
pub const CAP: usize = 32;
/// The simulation step: 16 µs, half a byte time at 250 kb/s (well under the 128 µs
/// CCA time and the 320 µs slot, so carrier sense and backoff are resolved finely).
pub const STEP_NS: u64 = 16_000;

/// One flow: `frames` frames from station `from` to station `to` (or broadcast).
#[derive(Clone, Copy, Debug)]
pub struct Flow {
    pub from: usize,
    pub to: Option<usize>,
    pub frames: u16,
}

/// What happened.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The sender of each delivered frame, in the order of delivery.
    pub order: Vec<usize>,
    pub completed: bool,
    pub offered: u32,
    pub delivered: u32,
    pub dropped_no_ack: u32,
    pub dropped_other: u32,
    pub attempts: u32,
    /// The most attempts any one frame took (from its `Delivered` or `Dropped`).
    pub max_attempts: u32,
    /// Delivered frames their receiver did not get exactly once.
    pub not_exactly_once: u32,
    /// Dropped frames received more than once.
    pub duplicated_drops: u32,
    /// Duplicates recognised by the receivers' sequence numbers.
    pub duplicates_suppressed: u32,
    pub elapsed_ns: u64,
}

impl Report {
    /// The runs of consecutive deliveries by one sender: their count and the
    /// longest.
    pub fn runs(&self) -> (usize, usize) {
        let mut runs = Vec::new();
        for (k, &s) in self.order.iter().enumerate() {
            if k == 0 || self.order[k - 1] != s {
                runs.push(0);
            }
            if let Some(r) = runs.last_mut() {
                *r += 1;
            }
        }
        (runs.len(), runs.into_iter().max().unwrap_or(0))
    }

    pub fn delivery_ratio(&self) -> f64 {
        f64::from(self.delivered) / f64::from(self.offered.max(1))
    }
    pub fn attempts_per_frame(&self) -> f64 {
        f64::from(self.attempts) / f64::from(self.offered.max(1))
    }
}

pub fn address(station: usize) -> Address {
    Address(u8::try_from(station + 1).unwrap_or(0xFE))
}

/// Run the flows on `channel` (its links already set) with one config for every
/// station (its address replaced), until every frame has ended or `max_ns`.
pub fn run<const S: usize>(
    channel: &mut Channel<S>,
    config: MacConfig,
    flows: &[Flow],
    payload_len: usize,
    seed: u64,
    max_ns: u64,
) -> Report {
    let mut macs: [MacCore<XorShiftRng, CAP, 8>; S] = core::array::from_fn(|i| {
        let cfg = config.with_address(address(i)).unwrap();
        MacCore::new(cfg, XorShiftRng::seed_from_u64(seed ^ (i as u64 + 1)))
    });
    let mut next = vec![0u16; flows.len()];
    let mut fate = vec![Vec::<Option<bool>>::new(); flows.len()];
    // receptions[flow][frame]: how many times the receiver got it.
    let mut receptions: Vec<Vec<u32>> = flows
        .iter()
        .map(|f| vec![0; usize::from(f.frames)])
        .collect();
    let mut current: Vec<Option<usize>> = vec![None; S];
    let mut report = Report::default();
    let mut now = 0;
    while now < max_ns {
        channel.set_now(now);
        for i in 0..S {
            if macs[i].is_idle() {
                if let Some(k) =
                    (0..flows.len()).find(|&k| flows[k].from == i && next[k] < flows[k].frames)
                {
                    let f = flows[k];
                    let id = next[k];
                    let mut payload = [0xA5u8; CAP];
                    payload[..2].copy_from_slice(&id.to_be_bytes());
                    payload[2] = k as u8;
                    let dst = f.to.map_or(Address::BROADCAST, address);
                    macs[i].enqueue(dst, &payload[..payload_len]).unwrap();
                    next[k] += 1;
                    current[i] = Some(k);
                    report.offered += 1;
                }
            }
            let event = macs[i].poll(&mut channel.radio(i), now);
            match event {
                Some(Event::Delivered { attempts }) => {
                    report.max_attempts = report.max_attempts.max(attempts);
                    report.order.push(i);
                    let k = current[i].take().unwrap();
                    fate[k].push(Some(true));
                    report.delivered += 1;
                }
                Some(Event::Dropped { reason, attempts }) => {
                    report.max_attempts = report.max_attempts.max(attempts);
                    let k = current[i].take().unwrap();
                    fate[k].push(Some(false));
                    if reason == DropReason::NoAck {
                        report.dropped_no_ack += 1;
                    } else {
                        report.dropped_other += 1;
                    }
                }
                _ => {}
            }
            while let Some(frame) = macs[i].take_received() {
                let p = frame.payload();
                let id = usize::from(u16::from_be_bytes([p[0], p[1]]));
                let k = usize::from(p[2]);
                assert!(
                    flows[k].to.is_none_or(|to| to == i),
                    "frame of flow {k} received by station {i}"
                );
                receptions[k][id] += 1;
            }
        }
        channel.resolve();
        now += STEP_NS;
        let done = (0..flows.len()).all(|k| next[k] == flows[k].frames)
            && macs.iter().all(|m| m.is_idle());
        if done {
            report.completed = true;
            break;
        }
    }
    report.elapsed_ns = now;
    for (i, m) in macs.iter().enumerate() {
        report.attempts += m.counters().tx_attempts;
        report.duplicates_suppressed += m.counters().medium.rx_duplicates;
        let _ = i;
    }
    for (k, flow) in flows.iter().enumerate() {
        if flow.to.is_none() {
            continue;
        }
        for (id, f) in fate[k].iter().enumerate() {
            let got = receptions[k][id];
            match f {
                Some(true) if got != 1 => report.not_exactly_once += 1,
                Some(false) if got > 1 => report.duplicated_drops += 1,
                _ => {}
            }
        }
    }
    report
}
