//! A transmit loop as a driver writes it: send, and after each collision ask the core
//! what to do. The medium here is pretend: each attempt collides with a probability that
//! falls as the backoff spreads the contenders out.
//!
//! Run: `cargo run --release --example driver_loop -p backoff-core`

use backoff_core::{BebConfig, Decision, FrameBackoff, SlotTime, theory, uniform};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

fn main() {
    let beb = BebConfig::IEEE_802_3;
    let slot = SlotTime::ETHERNET_10M;
    let mut rng = XorShiftRng::seed_from_u64(2024);
    let mut medium = XorShiftRng::seed_from_u64(7);
    let mut frame = FrameBackoff::new(beb);

    println!("IEEE 802.3 truncated BEB, slot {} ns", slot.as_nanos());
    for id in 1..=5 {
        let mut waited = 0u64;
        loop {
            // The chance of a collision halves with each attempt (pretend contention).
            let collided = uniform::uniform_below(&mut medium, 1 << frame.attempt().min(8)) == 0
                || frame.attempt() == 1 && id == 5;
            if !collided {
                println!(
                    "frame {id}: delivered on attempt {}, backoff {:.1} us",
                    frame.attempt(),
                    waited as f64 / 1e3
                );
                frame.reset();
                break;
            }
            match frame.on_collision(&mut rng) {
                Decision::Retry { slots } => {
                    println!(
                        "frame {id}: collision {} -> wait {slots} slots of [0, {})",
                        frame.collisions(),
                        beb.window(frame.collisions())
                    );
                    waited += slot.times_nanos(u64::from(slots));
                }
                Decision::Discard => {
                    println!("frame {id}: discarded (excessive collisions)");
                    frame.reset();
                    break;
                }
            }
        }
    }
    let worst = theory::worst_case_total_backoff(&beb);
    let mean = theory::expected_total_backoff(&beb);
    println!(
        "total backoff before discard: worst {worst} = {:?}, expected {mean} = {:?} at 10 Mb/s",
        worst.at(slot),
        mean.at(slot)
    );
}
