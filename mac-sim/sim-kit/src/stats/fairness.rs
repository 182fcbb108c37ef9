//! Fairness between stations: Jain's index and the capture effect.

use serde::Serialize;

/// Jain's fairness index `(Σx)² / (n·Σx²)` over per-station throughputs: 1 when all
/// are equal, `1/n` when one station has everything. Undefined (NaN) when no
/// station has anything (or there is none): 0/0, neither fair nor unfair.
///
/// ```
/// use sim_kit::stats::jain_index;
/// assert_eq!(jain_index(&[5, 5, 5, 5]), 1.0);
/// assert_eq!(jain_index(&[8, 0, 0, 0]), 0.25);
/// assert!(jain_index(&[0, 0]).is_nan() && jain_index(&[]).is_nan());
/// ```
pub fn jain_index(x: &[u64]) -> f64 {
    let s: u128 = x.iter().map(|&v| u128::from(v)).sum();
    let sq: f64 = x.iter().map(|&v| (v as f64) * (v as f64)).sum();
    if s == 0 || x.is_empty() {
        return f64::NAN;
    }
    let s = s as f64;
    s * s / (x.len() as f64 * sq)
}

/// Tracks the capture effect over the sequence of successful transmissions: the
/// longest run of consecutive successes by one station, and the largest share of the
/// successes in any window of `window` consecutive successes that one station took.
#[derive(Clone, Debug)]
pub struct Capture {
    window: usize,
    ring: Vec<u32>,
    head: usize,
    counts: Vec<u32>,
    best_count: u32,
    best_station: u32,
    total: u64,
    last: u32,
    run: u64,
    best_run: u64,
    best_run_station: u32,
}

/// What [`Capture`] found.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CaptureResult {
    /// Longest run of consecutive successes by one station.
    #[serde(rename = "longest_run_frames")]
    pub longest_run: u64,
    /// The station that had it.
    pub longest_run_station: u32,
    /// Window length, successes (fewer if the run had fewer successes).
    pub window: u64,
    /// Largest share of a window's successes taken by one station (0..=1);
    /// undefined (NaN) when there was no success.
    #[serde(rename = "max_window_share_fraction")]
    pub max_window_share: f64,
    /// The station that took it.
    pub max_window_station: u32,
}

impl Capture {
    /// For `stations` stations and windows of `window` successes.
    pub fn new(stations: usize, window: u32) -> Self {
        let window = window.max(1) as usize;
        Self {
            window,
            ring: Vec::with_capacity(window.min(1 << 20)),
            head: 0,
            counts: vec![0; stations],
            best_count: 0,
            best_station: 0,
            total: 0,
            last: u32::MAX,
            run: 0,
            best_run: 0,
            best_run_station: 0,
        }
    }

    /// Station `s` transmitted successfully.
    #[inline]
    pub fn success(&mut self, s: u32) {
        self.total += 1;
        if s == self.last {
            self.run += 1;
        } else {
            self.last = s;
            self.run = 1;
        }
        if self.run > self.best_run {
            self.best_run = self.run;
            self.best_run_station = s;
        }
        if self.ring.len() < self.window {
            self.ring.push(s);
        } else {
            let old = std::mem::replace(&mut self.ring[self.head], s);
            self.head = (self.head + 1) % self.window;
            if let Some(c) = self.counts.get_mut(old as usize) {
                *c -= 1;
            }
        }
        if let Some(c) = self.counts.get_mut(s as usize) {
            *c += 1;
            if *c > self.best_count {
                self.best_count = *c;
                self.best_station = s;
            }
        }
    }

    /// The result so far.
    pub fn result(&self) -> CaptureResult {
        let w = (self.window as u64).min(self.total);
        CaptureResult {
            longest_run: self.best_run,
            longest_run_station: self.best_run_station,
            window: w,
            max_window_share: if w == 0 {
                f64::NAN
            } else {
                f64::from(self.best_count) / w as f64
            },
            max_window_station: self.best_station,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_runs_and_windows() {
        let mut c = Capture::new(3, 4);
        for s in [0, 0, 0, 1, 2, 1, 1, 1, 1, 0] {
            c.success(s);
        }
        let r = c.result();
        assert_eq!(r.longest_run, 4);
        assert_eq!(r.longest_run_station, 1);
        assert_eq!(r.window, 4);
        assert_eq!(r.max_window_share, 1.0); // 1,1,1,1
        assert_eq!(r.max_window_station, 1);
    }
}
