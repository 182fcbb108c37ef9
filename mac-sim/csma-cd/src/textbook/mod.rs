//! The textbook way to simulate BEB: a loop over slots, and in every slot a pass over
//! every station. Kept only as the baseline the benchmark measures the event-driven
//! model against; its cost per simulated slot is O(N).
//!
//! Stations sit at one point; time runs in 512-bit slots. In each slot every station
//! whose backoff has run out transmits: one transmitter sends its frame (preamble,
//! frame and gap rounded up to whole slots), several collide and lose one slot. Backoff
//! timers keep running while the medium is busy (802.3 does not freeze them); a
//! station whose timer ran out during a busy period transmits as soon as it ends
//! (1-persistence). Backoff decisions come from `backoff_core::FrameBackoff`.
//!
//! With Poisson traffic the textbook way is the same loop plus, for every station in
//! every slot, a Bernoulli draw of whether a frame arrived ([`run_textbook_poisson`]).
//!
//! ```
//! use csma_cd::textbook::run_textbook;
//! let r = run_textbook(8, 1518, 2_000, 1);
//! assert!(r.delivered > 0);
//! assert_eq!(r.station_visits, 8 * r.slots);
//! ```

use backoff_core::{BebConfig, Decision, FrameBackoff};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serde::Serialize;

use sim_kit::maths::split_seed;

/// What the slot loop did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TextbookResult {
    /// Slots simulated.
    pub slots: u64,
    /// Station-slot visits (N per slot): the loop's unit of work.
    pub station_visits: u64,
    /// Frames delivered.
    pub delivered: u64,
    /// Collision slots.
    pub collision_slots: u64,
    /// Frames dropped after 16 attempts.
    pub dropped: u64,
    /// Frames that arrived (Poisson traffic; 0 when saturated).
    pub arrived: u64,
}

struct St {
    wait: u32,
    queued: u32,
    backoff: FrameBackoff,
    rng: XorShiftRng,
}

/// Simulate `slots` slots of `stations` saturated stations sending `frame_bytes`-byte
/// frames at 10 Mb/s timing (512-bit slots, 64-bit preamble, 96-bit gap).
pub fn run_textbook(stations: u32, frame_bytes: u32, slots: u64, seed: u64) -> TextbookResult {
    let mut t = Textbook::new(stations, frame_bytes, None, seed);
    t.run(slots);
    t.result()
}

/// The same with Poisson arrivals at total offered load `load` (fraction of the bit
/// rate), drawn per station per slot, and unbounded per-station queues.
pub fn run_textbook_poisson(
    stations: u32,
    frame_bytes: u32,
    load: f64,
    slots: u64,
    seed: u64,
) -> TextbookResult {
    let mut t = Textbook::new(stations, frame_bytes, Some(load), seed);
    t.run(slots);
    t.result()
}

/// The slot loop's state, so that it can be run in pieces.
pub struct Textbook {
    st: Vec<St>,
    threshold: Option<u64>,
    arrivals: XorShiftRng,
    frame_slots: u64,
    stations: u32,
    slot: u64,
    busy_until: u64,
    senders: Vec<usize>,
    r: TextbookResult,
}

impl Textbook {
    /// `stations` stations with `frame_bytes`-byte frames, saturated (`load` `None`)
    /// or Poisson at total offered load `load`.
    pub fn new(stations: u32, frame_bytes: u32, load: Option<f64>, seed: u64) -> Self {
        // Probability that a frame arrives at one station in one slot, as a 64-bit
        // threshold: load * (slot / frame time) / stations.
        let threshold = load.map(|g| {
            let p = (g * 512.0 / f64::from(frame_bytes.max(1) * 8) / f64::from(stations.max(1)))
                .clamp(0.0, 1.0);
            (p * 18_446_744_073_709_551_615.0) as u64
        });
        let st = (0..stations)
            .map(|i| St {
                wait: 0,
                queued: u32::from(threshold.is_none()),
                backoff: FrameBackoff::new(BebConfig::IEEE_802_3),
                rng: XorShiftRng::seed_from_u64(split_seed(seed, 2 + u64::from(i))),
            })
            .collect();
        Self {
            st,
            threshold,
            arrivals: XorShiftRng::seed_from_u64(split_seed(seed, 0)),
            frame_slots: u64::from(64 + frame_bytes * 8 + 96).div_ceil(512),
            stations,
            slot: 0,
            busy_until: 0,
            senders: Vec::new(),
            r: TextbookResult {
                slots: 0,
                station_visits: 0,
                delivered: 0,
                collision_slots: 0,
                dropped: 0,
                arrived: 0,
            },
        }
    }

    /// What has happened so far.
    pub fn result(&self) -> TextbookResult {
        self.r
    }

    /// Run `slots` more slots.
    pub fn run(&mut self, slots: u64) {
        use rand_core::Rng;
        let threshold = self.threshold;
        let r = &mut self.r;
        for _ in 0..slots {
            let slot = self.slot;
            self.slot += 1;
            self.senders.clear();
            let idle = slot >= self.busy_until;
            for (i, s) in self.st.iter_mut().enumerate() {
                if threshold.is_some_and(|th| self.arrivals.next_u64() < th) {
                    s.queued += 1;
                    r.arrived += 1;
                }
                if s.wait > 0 {
                    s.wait -= 1;
                } else if idle && s.queued > 0 {
                    self.senders.push(i);
                }
            }
            r.station_visits += u64::from(self.stations);
            r.slots += 1;
            match self.senders.len() {
                0 => {}
                1 => {
                    let s = &mut self.st[self.senders[0]];
                    s.backoff.reset();
                    if threshold.is_some() {
                        s.queued -= 1;
                    }
                    r.delivered += 1;
                    self.busy_until = slot + self.frame_slots;
                }
                _ => {
                    r.collision_slots += 1;
                    self.busy_until = slot + 1;
                    for &i in &self.senders {
                        let s = &mut self.st[i];
                        match s.backoff.on_collision(&mut s.rng) {
                            Decision::Retry { slots } => s.wait = slots,
                            Decision::Discard => {
                                s.backoff.reset();
                                if threshold.is_some() {
                                    s.queued -= 1;
                                }
                                r.dropped += 1;
                            }
                        }
                    }
                }
            }
        }
    }
}
