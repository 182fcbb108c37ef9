//! A max segment tree over station numbers holding, for each station whose signal
//! front is still travelling, the four numbers carrier sense needs: where its front and
//! its tail stand, measured from the left and from the right.
//!
//! With the front set ordered by position, "has any signal from my left arrived and
//! not yet passed?" becomes "find the nearest member whose front has not arrived, then
//! take the largest tail between it and me": one descent and one range maximum,
//! `O(log N)` however many signals are in flight. The exact model uses it for large N,
//! where a burst of thousands of simultaneous transmissions would make a neighbour
//! walk long; both give the same answer.
//!
//! The four numbers are instants in the diagonal coordinates `t − p` and `t + p`
//! (`p` a station's position, the propagation delay from the cable's start), so they
//! are [`SignedTime`]s.

use sim_kit::time::SignedTime;

/// "No member": below every real value.
pub const EMPTY: SignedTime = SignedTime::from_ps(i64::MIN / 4);

/// The tree: per node `[a, tail_left, b, tail_right]` maxima.
#[derive(Clone, Debug)]
pub struct FrontTree {
    size: usize,
    nodes: Vec<[SignedTime; 4]>,
}

impl FrontTree {
    /// An empty tree over `0..n`.
    pub fn new(n: usize) -> Self {
        let size = n.max(1).next_power_of_two();
        Self {
            size,
            nodes: vec![[EMPTY; 4]; 2 * size],
        }
    }

    /// Set member `i`'s values `[a, tail_left, b, tail_right]`: front coordinate from
    /// the left `a = s − p`, tail from the left `e − p`, front from the right
    /// `b = s + p`, tail from the right `e + p`.
    #[inline]
    pub fn set(&mut self, i: usize, v: [SignedTime; 4]) {
        let mut n = self.size + i;
        if n >= self.nodes.len() {
            return;
        }
        self.nodes[n] = v;
        while n > 1 {
            n /= 2;
            let (l, r) = (self.nodes[2 * n], self.nodes[2 * n + 1]);
            let m = [
                l[0].max(r[0]),
                l[1].max(r[1]),
                l[2].max(r[2]),
                l[3].max(r[3]),
            ];
            if self.nodes[n] == m {
                break; // nothing above changes either
            }
            self.nodes[n] = m;
        }
    }

    /// Remove member `i`.
    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.set(i, [EMPTY; 4]);
    }

    /// The largest `j <= x` whose `a` is at least `tau`.
    #[inline]
    pub fn rightmost_a_at_least(&self, x: usize, tau: SignedTime) -> Option<usize> {
        let mut v = self.size + x.min(self.size - 1);
        if self.nodes[v][0] >= tau {
            return Some(v - self.size);
        }
        while v > 1 {
            if v & 1 == 1 && self.nodes[v - 1][0] >= tau {
                let mut u = v - 1;
                while u < self.size {
                    u = if self.nodes[2 * u + 1][0] >= tau {
                        2 * u + 1
                    } else {
                        2 * u
                    };
                }
                return Some(u - self.size);
            }
            v /= 2;
        }
        None
    }

    /// The smallest `j >= x` whose `b` is at least `sigma`.
    #[inline]
    pub fn leftmost_b_at_least(&self, x: usize, sigma: SignedTime) -> Option<usize> {
        if x >= self.size {
            return None;
        }
        let mut v = self.size + x;
        if self.nodes[v][2] >= sigma {
            return Some(x);
        }
        while v > 1 {
            if v & 1 == 0 && self.nodes[v + 1][2] >= sigma {
                let mut u = v + 1;
                while u < self.size {
                    u = if self.nodes[2 * u][2] >= sigma {
                        2 * u
                    } else {
                        2 * u + 1
                    };
                }
                return Some(u - self.size);
            }
            v /= 2;
        }
        None
    }

    fn range_max(&self, field: usize, l: usize, r: usize) -> SignedTime {
        let mut m = EMPTY;
        if l > r || r >= self.size {
            return m;
        }
        let (mut l, mut r) = (l + self.size, r + self.size + 1);
        while l < r {
            if l & 1 == 1 {
                m = m.max(self.nodes[l][field]);
                l += 1;
            }
            if r & 1 == 1 {
                r -= 1;
                m = m.max(self.nodes[r][field]);
            }
            l /= 2;
            r /= 2;
        }
        m
    }

    /// The largest `tail_left` over members in `l..=r`.
    #[inline]
    pub fn max_tail_left(&self, l: usize, r: usize) -> SignedTime {
        self.range_max(1, l, r)
    }

    /// The largest `tail_right` over members in `l..=r`.
    #[inline]
    pub fn max_tail_right(&self, l: usize, r: usize) -> SignedTime {
        self.range_max(3, l, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The module's example: the queries on a few members.
    #[test]
    fn the_module_example() {
        use sim_kit::time::SignedTime;
        let ps = SignedTime::from_ps;
        let mut t = FrontTree::new(10);
        t.set(3, [5, 9, 11, 15].map(ps));
        t.set(7, [1, 2, 20, 30].map(ps));
        assert_eq!(t.rightmost_a_at_least(9, ps(2)), Some(3)); // a: 5 at 3, 1 at 7
        assert_eq!(t.leftmost_b_at_least(0, ps(12)), Some(7));
        assert_eq!(t.max_tail_left(0, 9), ps(9));
        assert_eq!(t.max_tail_right(4, 9), ps(30));
        t.clear(3);
        assert_eq!(t.rightmost_a_at_least(9, ps(2)), None);
    }

    #[test]
    fn matches_brute_force() {
        let n = 300;
        let mut t = FrontTree::new(n);
        let mut v = vec![[EMPTY; 4]; n];
        let mut x: u64 = 12345;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..5000 {
            let i = (next() % n as u64) as usize;
            if next() % 3 == 0 {
                t.clear(i);
                v[i] = [EMPTY; 4];
            } else {
                let w = [0, 1, 2, 3].map(|_| SignedTime::from_ps((next() % 1000) as i64));
                t.set(i, w);
                v[i] = w;
            }
            let q = (next() % n as u64) as usize;
            let th = SignedTime::from_ps((next() % 1000) as i64);
            let r = (q + (next() % 50) as usize).min(n - 1);
            assert_eq!(
                t.rightmost_a_at_least(q, th),
                (0..=q).rev().find(|&j| v[j][0] >= th)
            );
            assert_eq!(
                t.leftmost_b_at_least(q, th),
                (q..n).find(|&j| v[j][2] >= th)
            );
            assert_eq!(
                t.max_tail_left(q, r),
                (q..=r).map(|j| v[j][1]).max().unwrap()
            );
            assert_eq!(
                t.max_tail_right(q, r),
                (q..=r).map(|j| v[j][3]).max().unwrap()
            );
        }
    }
}
