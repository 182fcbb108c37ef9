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
//! ```
//! use mac_sim::model::textbook::run_textbook;
//! let r = run_textbook(8, 1518, 2_000, 1);
//! assert!(r.delivered > 0);
//! assert_eq!(r.station_visits, 8 * r.slots);
//! ```

use backoff_core::{BebConfig, Decision, FrameBackoff};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use serde::Serialize;

use crate::mathx::split_seed;

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
}

struct St {
    wait: u32,
    backoff: FrameBackoff,
    rng: XorShiftRng,
}

/// Simulate `slots` slots of `stations` saturated stations sending `frame_bytes`-byte
/// frames at 10 Mb/s timing (512-bit slots, 64-bit preamble, 96-bit gap).
pub fn run_textbook(stations: u32, frame_bytes: u32, slots: u64, seed: u64) -> TextbookResult {
    let frame_slots = u64::from(64 + frame_bytes * 8 + 96).div_ceil(512);
    let mut st: Vec<St> = (0..stations)
        .map(|i| St {
            wait: 0,
            backoff: FrameBackoff::new(BebConfig::IEEE_802_3),
            rng: XorShiftRng::seed_from_u64(split_seed(seed, 2 + u64::from(i))),
        })
        .collect();
    let mut r = TextbookResult {
        slots: 0,
        station_visits: 0,
        delivered: 0,
        collision_slots: 0,
        dropped: 0,
    };
    let mut busy_until = 0u64;
    let mut senders: Vec<usize> = Vec::new();
    for slot in 0..slots {
        senders.clear();
        let idle = slot >= busy_until;
        for (i, s) in st.iter_mut().enumerate() {
            if s.wait > 0 {
                s.wait -= 1;
            } else if idle {
                senders.push(i);
            }
        }
        r.station_visits += u64::from(stations);
        r.slots += 1;
        match senders.len() {
            0 => {}
            1 => {
                let s = &mut st[senders[0]];
                s.backoff.reset();
                r.delivered += 1;
                busy_until = slot + frame_slots;
            }
            _ => {
                r.collision_slots += 1;
                busy_until = slot + 1;
                for &i in &senders {
                    let s = &mut st[i];
                    match s.backoff.on_collision(&mut s.rng) {
                        Decision::Retry { slots } => s.wait = slots,
                        Decision::Discard => {
                            s.backoff.reset();
                            r.dropped += 1;
                        }
                    }
                }
            }
        }
    }
    r
}
