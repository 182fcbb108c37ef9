//! Splitting a sweep over machines: `--shard K/N` runs a deterministic slice of a
//! sweep's runs, balanced by their expected cost, and the shards' databases are merged
//! afterwards (`sim_host::store::merge`). Every model shards the same way; each gives
//! its own estimate of a run's cost.
//!
//! The slice depends only on the sweep's parameters, never on the machine: the runs are
//! taken from the most to the least costly (ties in sweep order), and each goes to the
//! shard with the least cost so far (ties to the lowest shard): the
//! longest-processing-time rule, within 4/3 of the best possible balance.
//!
//! ```
//! use sim_kit::shard::{Shard, assign};
//! let s: Shard = "2/3".parse().unwrap();
//! assert_eq!((s.index(), s.count()), (2, 3));
//! assert_eq!(assign(&[5.0, 1.0, 1.0, 3.0], 2), vec![0, 1, 1, 1]);
//! assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
//! ```

use core::fmt;
use core::str::FromStr;

/// Shard `K` of `N` (both counted from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// The most shards a sweep may be split into.
pub const MAX_SHARDS: u32 = 100_000;

impl Shard {
    /// Shard `index` of `count`, or `None` unless `1 <= index <= count <= MAX_SHARDS`.
    pub fn new(index: u32, count: u32) -> Option<Self> {
        (index >= 1 && index <= count && count <= MAX_SHARDS).then_some(Self { index, count })
    }

    /// K, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// N.
    pub fn count(self) -> u32 {
        self.count
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A `--shard` value that is not `K/N` with `1 <= K <= N <= 100000`; holds the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardParseError(pub String);

impl fmt::Display for ShardParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "--shard '{}' must be K/N with 1 <= K <= N <= {MAX_SHARDS} (e.g. 2/4)",
            self.0
        )
    }
}

impl core::error::Error for ShardParseError {}

impl FromStr for Shard {
    type Err = ShardParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ShardParseError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(err)?;
        let k: u32 = k.trim().parse().map_err(|_| err())?;
        let n: u32 = n.trim().parse().map_err(|_| err())?;
        Shard::new(k, n).ok_or_else(err)
    }
}

/// Which shard (from 0) runs each job, for jobs of the given `costs` over `count`
/// shards (see the module docs).
pub fn assign(costs: &[f64], count: u32) -> Vec<u32> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
    let mut load = vec![0.0f64; count.max(1) as usize];
    let mut out = vec![0u32; costs.len()];
    for j in order {
        let (best, _) = load
            .iter()
            .enumerate()
            .fold(
                (0, f64::INFINITY),
                |(bi, bv), (i, &v)| {
                    if v < bv { (i, v) } else { (bi, bv) }
                },
            );
        load[best] += costs[j];
        out[j] = best as u32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_goes_to_exactly_one_shard_and_costs_balance() {
        let costs: Vec<f64> = (1..=40).map(|i| f64::from(i % 7 + 1) * 10.0).collect();
        let a = assign(&costs, 4);
        let mut per = [0.0; 4];
        for (j, &s) in a.iter().enumerate() {
            per[s as usize] += costs[j];
        }
        let (lo, hi) = per
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, h), &v| (l.min(v), h.max(v)));
        assert!(hi - lo <= 70.0, "{per:?}");
        assert_eq!(assign(&costs, 4), a, "deterministic");
        assert_eq!(assign(&costs, 1), vec![0; 40]);
    }
}
