//! A hierarchical bit set over `0..n` with predecessor and successor queries in
//! `O(log₆₄ n)` word operations (four levels cover 16 million members).
//!
//! The exact CSMA/CD model keeps the stations whose signal front is still travelling
//! along the cable in one of these, indexed by station number (stations are numbered in
//! order of position), and asks for the nearest ones on each side of a station.

/// Bits over `0..n`, with a summary level per 64 words above.
#[derive(Clone, Debug)]
pub struct LevelBitSet {
    /// `levels[0]` holds one bit per member; `levels[k + 1]` one bit per non-zero word
    /// of `levels[k]`. The last level is a single word.
    levels: Vec<Vec<u64>>,
    len: usize,
}

impl LevelBitSet {
    /// An empty set over `0..n`.
    pub fn new(n: usize) -> Self {
        let mut levels = Vec::new();
        let mut bits = n.max(1);
        loop {
            let words = bits.div_ceil(64);
            levels.push(vec![0u64; words]);
            if words == 1 {
                break;
            }
            bits = words;
        }
        Self { levels, len: 0 }
    }

    /// Members in the set (the tests check it against a model set).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether `i` is a member (out-of-range `i` is not).
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.levels[0]
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    /// Add `i` (ignored if out of range).
    #[inline]
    pub fn insert(&mut self, i: usize) {
        if i / 64 >= self.levels[0].len() || self.contains(i) {
            return;
        }
        self.len += 1;
        let mut idx = i;
        for level in &mut self.levels {
            let w = &mut level[idx / 64];
            let was_empty = *w == 0;
            *w |= 1u64 << (idx % 64);
            if !was_empty {
                break;
            }
            idx /= 64;
        }
    }

    /// Remove `i` (ignored if absent).
    #[inline]
    pub fn remove(&mut self, i: usize) {
        if !self.contains(i) {
            return;
        }
        self.len -= 1;
        let mut idx = i;
        for level in &mut self.levels {
            let w = &mut level[idx / 64];
            *w &= !(1u64 << (idx % 64));
            if *w != 0 {
                break;
            }
            idx /= 64;
        }
    }

    /// The smallest member greater than `i`.
    #[inline]
    pub fn succ(&self, i: usize) -> Option<usize> {
        let mut level = 0;
        let mut idx = i;
        loop {
            let lv = self.levels.get(level)?;
            let (w, b) = (idx / 64, idx % 64);
            let word = lv.get(w).copied().unwrap_or(0);
            let above = if b == 63 {
                0
            } else {
                word & (!0u64 << (b + 1))
            };
            if above != 0 {
                idx = w * 64 + above.trailing_zeros() as usize;
                break;
            }
            idx = w;
            level += 1;
        }
        while level > 0 {
            level -= 1;
            let word = self.levels[level][idx];
            idx = idx * 64 + word.trailing_zeros() as usize;
        }
        Some(idx)
    }

    /// The largest member smaller than `i`.
    #[inline]
    pub fn pred(&self, i: usize) -> Option<usize> {
        let mut level = 0;
        let mut idx = i;
        loop {
            let lv = self.levels.get(level)?;
            let (w, b) = (idx / 64, idx % 64);
            // Words past the end (i beyond n) count as empty but their lower
            // neighbours are still searched through the level above.
            let word = lv.get(w).copied().unwrap_or(0);
            let below = word & ((1u64 << b) - 1);
            if below != 0 {
                idx = w * 64 + 63 - below.leading_zeros() as usize;
                break;
            }
            if w == 0 {
                return None;
            }
            idx = w;
            level += 1;
        }
        while level > 0 {
            level -= 1;
            let word = self.levels[level][idx];
            idx = idx * 64 + 63 - word.leading_zeros() as usize;
        }
        Some(idx)
    }

    /// `i` if it is a member, else [`pred`](Self::pred).
    #[inline]
    pub fn pred_incl(&self, i: usize) -> Option<usize> {
        if self.contains(i) {
            Some(i)
        } else {
            self.pred(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The module's example: the queries on a few members.
    #[test]
    fn the_module_example() {
        let mut s = LevelBitSet::new(100_000);
        s.insert(7);
        s.insert(70_000);
        assert_eq!(s.succ(7), Some(70_000));
        assert_eq!(s.pred(70_000), Some(7));
        assert_eq!(s.pred(7), None);
        s.remove(7);
        assert_eq!(s.pred(70_000), None);
    }
    use std::collections::BTreeSet;

    #[test]
    fn matches_btreeset() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for &n in &[1usize, 63, 64, 65, 4096, 4097, 300_000] {
            let mut s = LevelBitSet::new(n);
            let mut r = BTreeSet::new();
            for _ in 0..3000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let i = (x % n as u64) as usize;
                if x & (1 << 40) != 0 {
                    s.insert(i);
                    r.insert(i);
                } else {
                    s.remove(i);
                    r.remove(&i);
                }
                let q = ((x >> 20) % n as u64) as usize;
                assert_eq!(
                    s.succ(q),
                    r.range(q + 1..).next().copied(),
                    "succ {q} n {n}"
                );
                assert_eq!(
                    s.pred(q),
                    r.range(..q).next_back().copied(),
                    "pred {q} n {n}"
                );
                assert_eq!(s.len(), r.len());
                assert_eq!(s.contains(q), r.contains(&q));
            }
        }
    }
}
