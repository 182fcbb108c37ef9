//! Where the stations sit: the propagation delay from the cable's start.

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use crate::config::{Placement, RunConfig};
use sim_kit::maths::split_seed;
use sim_kit::time::Time;

/// Positions in ascending order (stations are numbered by position), for a cable whose
/// end-to-end delay is `max_prop`. Integer arithmetic only.
pub fn positions(cfg: &RunConfig, max_prop: Time) -> Vec<Time> {
    let n = cfg.stations as usize;
    let mut pos: Vec<Time> = match cfg.placement {
        Placement::Point => vec![Time::ZERO; n],
        Placement::Even => (0..n)
            .map(|i| {
                if n == 1 {
                    Time::ZERO
                } else {
                    let ps = u128::from(max_prop.as_ps()) * i as u128 / (n as u128 - 1);
                    Time::from_ps(ps as u64)
                }
            })
            .collect(),
        Placement::Random => {
            let mut rng = XorShiftRng::seed_from_u64(split_seed(cfg.seed, 1));
            (0..n)
                .map(|_| {
                    let ps =
                        (u128::from(rng.next_u64()) * (u128::from(max_prop.as_ps()) + 1)) >> 64;
                    Time::from_ps(ps as u64)
                })
                .collect()
        }
    };
    pos.sort_unstable();
    pos
}
