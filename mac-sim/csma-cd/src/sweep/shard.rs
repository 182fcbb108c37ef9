//! Splitting a CSMA/CD sweep over machines: the kit's shards ([`sim_kit::shard`], `--shard
//! K/N`, merged by `mac-sim merge`) with this model's estimate of a run's cost,
//! [`expected_cost`]: the events it will handle, from its duration, bit rate, frame
//! size, load and station count.
//!
//! ```
//! use csma_cd::sweep::{Shard, assign};
//! let s: Shard = "2/3".parse().unwrap();
//! assert_eq!((s.index(), s.count()), (2, 3));
//! assert_eq!(assign(&[5.0, 1.0, 1.0, 3.0], 2), vec![0, 1, 1, 1]);
//! ```

use crate::config::{RunConfig, Traffic};

pub use sim_kit::shard::{MAX_SHARDS, Shard, ShardParseError, assign};

/// The expected events of one run of `cfg`: frames per second at the bus's capacity
/// (or at the offered load, if lower) times the duration, times a factor that grows
/// with the station count for the contention around each frame. Only the ratios
/// between runs matter.
pub fn expected_cost(cfg: &RunConfig) -> f64 {
    let frame_bits =
        cfg.frames.mean_bits() + f64::from(cfg.phy.preamble_bits) + f64::from(cfg.phy.ifg_bits);
    let frames_per_s = cfg.phy.bit_rate as f64 / frame_bits;
    let share = match cfg.traffic {
        Traffic::Saturated => 1.0,
        Traffic::Poisson { load } => load.min(1.0) + 0.1,
    };
    let contention = 1.0 + (1.0 + f64::from(cfg.stations)).ln();
    cfg.duration.as_secs_f64() * frames_per_s * share * contention
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costlier_runs_cost_more() {
        let base = RunConfig::default();
        let more = RunConfig {
            stations: 256,
            ..base.clone()
        };
        assert!(expected_cost(&more) > expected_cost(&base));
        let light = RunConfig {
            traffic: Traffic::Poisson { load: 0.1 },
            ..base.clone()
        };
        assert!(expected_cost(&light) < expected_cost(&base));
    }
}
