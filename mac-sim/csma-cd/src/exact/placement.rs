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
            let seed = cfg.placement_seed.unwrap_or(cfg.seed);
            let mut rng = XorShiftRng::seed_from_u64(split_seed(seed, 1));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A placement seed of its own keeps the positions whatever the run's seed;
    /// without one they follow the seed; the run's own seed given as the placement
    /// seed is the same as none.
    #[test]
    fn a_placement_seed_of_its_own_keeps_the_positions() {
        let max = Time::from_us(10);
        let at = |seed: u64, placement_seed: Option<u64>| {
            positions(
                &RunConfig {
                    stations: 16,
                    placement: Placement::Random,
                    seed,
                    placement_seed,
                    ..RunConfig::default()
                },
                max,
            )
        };
        assert_ne!(at(1, None), at(2, None));
        assert_eq!(at(1, Some(7)), at(2, Some(7)));
        assert_ne!(at(1, Some(7)), at(1, Some(8)));
        assert_eq!(at(3, Some(3)), at(3, None));
    }
}
