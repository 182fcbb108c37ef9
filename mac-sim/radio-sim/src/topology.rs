//! Who hears whom, and at what received power: the [`Links`] of a [`RadioConfig`].
//!
//! Received power follows the log-distance path-loss model (Rappaport, *Wireless
//! Communications*, 2nd ed., section 4.9):
//!
//! `P_rx(d) = P_tx - PL(d0) - 10 n log10(d / d0)`, with `d0` = 1 m (distances below
//! 1 m count as 1 m). The defaults: `P_tx` = 0 dBm (a typical 802.15.4 radio),
//! `PL(d0)` = 40.2 dB (free space at 2.45 GHz and 1 m, `20 log10(4 pi d0 / lambda)`),
//! `n` = 3 (outdoor and obstructed indoor links measure 2.7 to 3.5; free space is 2);
//! on the LoRa PHY at 868 MHz, 94.09 dB and 2.08 ([`crate::Phy::reference_loss_db`]).
//! Links are symmetric. `all` and `star` have no positions: every link has the fixed
//! power (`fixed_rx_dbm`, default -60 dBm), so capture never separates them.

use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use sim_kit::maths::{split_seed, unit_open0};

use crate::config::{Position, RadioConfig, Topology};

/// The seed stream of the random positions (see [`split_seed`]).
pub const POSITIONS_STREAM: u64 = 2;

/// The links of every station: symmetric, with the received power.
#[derive(Clone, Debug, PartialEq)]
pub struct Links {
    n: usize,
    /// `power[i * n + j]`: what `j` receives of `i`, dBm; `None` if `j` does not hear `i`.
    power: Vec<Option<f32>>,
    neighbours: Vec<Vec<usize>>,
    positions: Vec<Position>,
}

impl Links {
    /// `n` stations, nobody hearing anybody.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            power: vec![None; n * n],
            neighbours: vec![Vec::new(); n],
            positions: Vec::new(),
        }
    }

    /// `a` and `b` hear each other at `dbm` (both ways). Out-of-range stations and
    /// `a == b` are ignored.
    pub fn link(&mut self, a: usize, b: usize, dbm: f32) {
        if a >= self.n || b >= self.n || a == b {
            return;
        }
        for (x, y) in [(a, b), (b, a)] {
            if let Some(p) = self.power.get_mut(x * self.n + y) {
                if p.is_none() {
                    if let Some(list) = self.neighbours.get_mut(x) {
                        list.push(y);
                    }
                }
                *p = Some(dbm);
            }
        }
    }

    /// Stations.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no stations.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// What `to` receives of `from`, dBm; `None` if it does not hear it.
    #[inline]
    pub fn power(&self, from: usize, to: usize) -> Option<f32> {
        self.power.get(from * self.n + to).copied().flatten()
    }

    /// The stations `i` hears (and that hear `i`), in the order they were linked.
    pub fn neighbours(&self, i: usize) -> &[usize] {
        self.neighbours.get(i).map_or(&[], Vec::as_slice)
    }

    /// The positions, if the topology has any.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }
}

/// Received power at distance `d_m` under `c`'s path-loss model, dBm.
pub fn received_dbm(c: &RadioConfig, d_m: f64) -> f64 {
    let d = d_m.max(1.0);
    let log10 = sim_kit::maths::ln(d) / core::f64::consts::LN_10;
    c.tx_power_dbm - c.reference_loss() - 10.0 * c.path_loss() * log10
}

/// The links of `c`'s topology (random positions from `c.seed`).
pub fn build(c: &RadioConfig) -> Links {
    let n = usize::from(c.stations);
    let mut links = Links::new(n);
    let fixed = c.fixed_rx_dbm as f32;
    match c.topology {
        Topology::All => {
            for a in 0..n {
                for b in a + 1..n {
                    links.link(a, b, fixed);
                }
            }
        }
        Topology::Star => {
            for b in 1..n {
                links.link(0, b, fixed);
            }
        }
        Topology::Line => {
            links.positions = (0..n)
                .map(|i| Position {
                    x: i as f64 * c.spacing_m,
                    y: 0.0,
                })
                .collect();
            for a in 1..n {
                links.link(a - 1, a, received_dbm(c, c.spacing_m) as f32);
            }
        }
        Topology::Random | Topology::Positions => {
            links.positions = if c.topology == Topology::Random {
                let mut rng = XorShiftRng::seed_from_u64(split_seed(c.seed, POSITIONS_STREAM));
                (0..n)
                    .map(|_| Position {
                        x: unit_open0(&mut rng) * c.area_m,
                        y: unit_open0(&mut rng) * c.area_m,
                    })
                    .collect()
            } else {
                c.positions.clone()
            };
            let pos = links.positions.clone();
            for (a, pa) in pos.iter().enumerate() {
                for (b, pb) in pos.iter().enumerate().skip(a + 1) {
                    let d = ((pa.x - pb.x).powi(2) + (pa.y - pb.y).powi(2)).sqrt();
                    if d <= c.radius_m {
                        links.link(a, b, received_dbm(c, d) as f32);
                    }
                }
            }
        }
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shapes() {
        let c = |topology, stations| RadioConfig {
            topology,
            stations,
            ..RadioConfig::default()
        };
        let all = build(&c(Topology::All, 4));
        assert!((0..4).all(|i| all.neighbours(i).len() == 3));
        let star = build(&c(Topology::Star, 4));
        assert_eq!(star.neighbours(0), &[1, 2, 3]);
        assert_eq!(star.neighbours(2), &[0]);
        assert_eq!(star.power(1, 2), None);
        let line = build(&c(Topology::Line, 4));
        assert_eq!(line.neighbours(1), &[0, 2]);
        assert_eq!(line.power(0, 2), None);
        // 10 m at n = 3: 0 - 40.2 - 30 = -70.2 dBm.
        assert!((line.power(0, 1).unwrap() + 70.2).abs() < 1e-3);
    }

    #[test]
    fn random_links_are_exactly_the_pairs_within_the_radius() {
        let c = RadioConfig {
            topology: Topology::Random,
            stations: 30,
            ..RadioConfig::default()
        };
        let l = build(&c);
        let p = l.positions();
        for a in 0..30 {
            for b in 0..30 {
                if a == b {
                    continue;
                }
                let d = ((p[a].x - p[b].x).powi(2) + (p[a].y - p[b].y).powi(2)).sqrt();
                assert_eq!(l.power(a, b).is_some(), d <= c.radius_m);
            }
        }
        assert_eq!(build(&c), l, "same seed, same graph");
    }
}
