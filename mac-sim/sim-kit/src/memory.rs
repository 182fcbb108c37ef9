//! Memory, known before work: [`Bytes`] (a size that carries its unit, read from text
//! such as `4G` or `512MiB` and shown as `1.5 GiB`) and [`MemoryEstimate`], a run's
//! peak memory as the sum of named parts, each sized from the run's parameters.
//!
//! Every model states what its largest structures hold from its parameters alone
//! (stations, clients, queues, bins, sweep points times threads), so that a run that
//! cannot fit is refused before it starts rather than found out by running out of
//! memory. The kit only adds and shows the parts; where the memory available comes
//! from (the machine, a container's limit, `ulimit`) is a host's question (`sim-host`).
//!
//! ```
//! use sim_kit::memory::{Bytes, MemoryEstimate};
//! let mut m = MemoryEstimate::new();
//! m.add("stations", Bytes::of::<u64>(1 << 20));
//! m.add("event queue", Bytes::mib(3));
//! assert_eq!(m.total(), Bytes::mib(11));
//! assert_eq!(m.to_string(), "11.0 MiB (stations 8.0 MiB, event queue 3.0 MiB)");
//! assert_eq!("4G".parse::<Bytes>().unwrap(), Bytes::gib(4));
//! assert_eq!("1500000k".parse::<Bytes>().unwrap(), Bytes::kib(1_500_000));
//! assert!("4 parsecs".parse::<Bytes>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

/// A number of bytes. Its text form takes an optional binary suffix (`k`/`KiB`,
/// `M`/`MiB`, `G`/`GiB`, `T`/`TiB`: powers of 1024, as memory is counted) and its
/// display picks the largest unit that leaves a number of at least 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes(u64);

impl Bytes {
    /// No bytes.
    pub const ZERO: Bytes = Bytes(0);

    /// `n` bytes.
    pub const fn new(n: u64) -> Self {
        Self(n)
    }

    /// `n` KiB.
    pub const fn kib(n: u64) -> Self {
        Self(n.saturating_mul(1 << 10))
    }

    /// `n` MiB.
    pub const fn mib(n: u64) -> Self {
        Self(n.saturating_mul(1 << 20))
    }

    /// `n` GiB.
    pub const fn gib(n: u64) -> Self {
        Self(n.saturating_mul(1 << 30))
    }

    /// The memory of `n` values of `T` laid out in an array (a `Vec<T>` of length and
    /// capacity `n`).
    pub fn of<T>(n: u64) -> Self {
        Self(n.saturating_mul(std::mem::size_of::<T>() as u64))
    }

    /// The memory of a growable array (`Vec<T>`, `VecDeque<T>`) that may come to hold
    /// `n` values: it grows by doubling, so its capacity may be up to twice what it
    /// holds.
    pub fn growable<T>(n: u64) -> Self {
        Self::of::<T>(n).times(2)
    }

    /// The count of bytes.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// `self × k`, saturating.
    #[must_use]
    pub const fn times(self, k: u64) -> Self {
        Self(self.0.saturating_mul(k))
    }

    /// `self + other`, saturating.
    #[must_use]
    pub const fn plus(self, other: Bytes) -> Self {
        Self(self.0.saturating_add(other.0))
    }

    /// `self − other`, or zero.
    #[must_use]
    pub const fn minus(self, other: Bytes) -> Self {
        Self(self.0.saturating_sub(other.0))
    }
}

impl std::ops::Add for Bytes {
    type Output = Bytes;
    fn add(self, other: Bytes) -> Bytes {
        self.plus(other)
    }
}

impl std::iter::Sum for Bytes {
    fn sum<I: Iterator<Item = Bytes>>(iter: I) -> Bytes {
        iter.fold(Bytes::ZERO, Bytes::plus)
    }
}

const UNITS: [(&str, u32); 5] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10), ("B", 0)];

impl fmt::Display for Bytes {
    /// `812 B`, `3.5 KiB`, `6.0 GiB`: one decimal under the largest unit that fits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, shift) = UNITS
            .into_iter()
            .find(|&(_, s)| self.0 >> s > 0)
            .unwrap_or(("B", 0));
        if shift == 0 {
            write!(f, "{} B", self.0)
        } else {
            write!(f, "{:.1} {name}", self.0 as f64 / (1u64 << shift) as f64)
        }
    }
}

/// A size that cannot be read: the text and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytesParseError(String);

impl fmt::Display for BytesParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a size: give whole bytes with an optional suffix k, M, G or T (powers of 1024, e.g. 4G or 512MiB)",
            self.0
        )
    }
}

impl std::error::Error for BytesParseError {}

impl FromStr for Bytes {
    type Err = BytesParseError;

    /// Whole bytes, then an optional suffix: `k`, `M`, `G` or `T` in either case, or
    /// `KiB`, `MiB`, `GiB`, `TiB` (each a power of 1024), or `B`.
    ///
    /// # Errors
    ///
    /// [`BytesParseError`] for anything else, a number that is not whole and a size of
    /// 2^64 bytes or more.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || BytesParseError(text.to_string());
        let t = text.trim();
        let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let (number, suffix) = t.split_at(digits);
        let n: u64 = number.parse().map_err(|_| bad())?;
        let shift = match suffix.trim() {
            "" | "B" => 0,
            "k" | "K" | "KiB" => 10,
            "m" | "M" | "MiB" => 20,
            "g" | "G" | "GiB" => 30,
            "t" | "T" | "TiB" => 40,
            _ => return Err(bad()),
        };
        n.checked_mul(1 << shift).map(Bytes).ok_or_else(bad)
    }
}

/// A run's peak memory as a sum of named parts (the largest structures the run holds
/// at once, sized from its parameters), each an upper bound of what it may come to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryEstimate {
    parts: Vec<(&'static str, Bytes)>,
}

impl MemoryEstimate {
    /// No parts yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add `bytes` under `name`; a part of the same name grows.
    pub fn add(&mut self, name: &'static str, bytes: Bytes) -> &mut Self {
        match self.parts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, b)) => *b = b.plus(bytes),
            None => self.parts.push((name, bytes)),
        }
        self
    }

    /// Every part of `other` added to this one's.
    pub fn merge(&mut self, other: &MemoryEstimate) -> &mut Self {
        for &(name, bytes) in &other.parts {
            self.add(name, bytes);
        }
        self
    }

    /// Every part multiplied by `k` (`k` runs of this one at once).
    #[must_use]
    pub fn times(&self, k: u64) -> Self {
        Self {
            parts: self.parts.iter().map(|&(n, b)| (n, b.times(k))).collect(),
        }
    }

    /// The parts, in the order they were first added.
    pub fn parts(&self) -> &[(&'static str, Bytes)] {
        &self.parts
    }

    /// The sum of the parts.
    pub fn total(&self) -> Bytes {
        self.parts.iter().map(|&(_, b)| b).sum()
    }
}

impl MemoryEstimate {
    /// Runs on `threads` threads at once: the `threads` largest of `running` (each a
    /// run's estimate while it runs), and `kept` (what every finished run keeps until
    /// the command ends, under the part `"finished runs"`).
    pub fn at_once(running: &[MemoryEstimate], threads: usize, kept: Bytes) -> MemoryEstimate {
        let mut order: Vec<&MemoryEstimate> = running.iter().collect();
        order.sort_by_key(|e| std::cmp::Reverse(e.total()));
        let mut m = MemoryEstimate::new();
        for run in order.into_iter().take(threads.max(1)) {
            m.merge(run);
        }
        m.add("finished runs", kept);
        m
    }
}

impl fmt::Display for MemoryEstimate {
    /// The total, then its largest parts (at most four, largest first, those of at least
    /// 1 MiB) in brackets: `6.1 GiB (stations 4.0 GiB, event queue 2.0 GiB)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.total())?;
        let mut big: Vec<_> = self
            .parts
            .iter()
            .filter(|(_, b)| *b >= Bytes::mib(1))
            .collect();
        big.sort_by_key(|b| std::cmp::Reverse(b.1));
        if !big.is_empty() {
            let shown: Vec<String> = big
                .iter()
                .take(4)
                .map(|(n, b)| format!("{n} {b}"))
                .collect();
            write!(f, " ({})", shown.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_and_show() {
        assert_eq!("0".parse::<Bytes>(), Ok(Bytes::ZERO));
        assert_eq!("512MiB".parse::<Bytes>(), Ok(Bytes::mib(512)));
        assert_eq!(" 2 T ".parse::<Bytes>(), Ok(Bytes::gib(2048)));
        assert_eq!("100B".parse::<Bytes>(), Ok(Bytes::new(100)));
        for bad in [
            "",
            "G",
            "1.5G",
            "-1",
            "1 GB",
            "4gb",
            "99999999999999999999",
            "16777216T",
        ] {
            assert!(bad.parse::<Bytes>().is_err(), "{bad}");
        }
        assert_eq!(Bytes::new(812).to_string(), "812 B");
        assert_eq!(Bytes::new(3584).to_string(), "3.5 KiB");
        assert_eq!(Bytes::gib(6).to_string(), "6.0 GiB");
        assert_eq!(Bytes::new(u64::MAX).to_string(), "16777216.0 TiB");
    }

    #[test]
    fn parts_add_merge_and_multiply() {
        let mut a = MemoryEstimate::new();
        a.add("x", Bytes::mib(1))
            .add("y", Bytes::kib(1))
            .add("x", Bytes::mib(1));
        assert_eq!(a.parts(), [("x", Bytes::mib(2)), ("y", Bytes::kib(1))]);
        let mut b = a.times(3);
        assert_eq!(b.total(), Bytes::mib(6).plus(Bytes::kib(3)));
        b.merge(&a);
        assert_eq!(b.total(), Bytes::mib(8).plus(Bytes::kib(4)));
        assert_eq!(b.to_string(), "8.0 MiB (x 8.0 MiB)");
        assert_eq!(Bytes::growable::<u32>(10), Bytes::new(80));
        let runs: Vec<MemoryEstimate> = (1..=4)
            .map(|k| {
                let mut e = MemoryEstimate::new();
                e.add("run", Bytes::mib(k));
                e
            })
            .collect();
        let two = MemoryEstimate::at_once(&runs, 2, Bytes::kib(1));
        assert_eq!(
            two.parts(),
            [("run", Bytes::mib(7)), ("finished runs", Bytes::kib(1))]
        );
        assert_eq!(Bytes::new(u64::MAX).times(2), Bytes::new(u64::MAX));
    }
}
