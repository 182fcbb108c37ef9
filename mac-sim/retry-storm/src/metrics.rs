//! The time series of a storm run, in fixed bins.

use serde::{Deserialize, Serialize};

use sim_kit::time::{PS_PER_SEC, Time};

#[derive(Clone, Debug, Default)]
struct Acc {
    offered: u64,
    attempts: u64,
    retries: u64,
    successes: u64,
    failures: u64,
    attempts_ok: u64,
    attempts_failed: u64,
    /// Attempts that reached the server (the last layer's, with a call chain).
    arrived: u64,
    /// Work the server finished (served).
    served: u64,
    /// Attempts the server rejected at once (shedding, rate limiting).
    rejected: u64,
    /// Attempts each caller of a call chain sent (empty without one).
    layer_attempts: Vec<u64>,
    conc_area: u128,
    conc_max: u32,
    queue_area: u128,
    backlog_area: u128,
    latency_us: Vec<u32>,
    wait_us: Vec<u32>,
}

/// Accumulates a run's events into bins of `bin_ps` up to the horizon.
#[derive(Clone, Debug)]
pub struct Series {
    bin_ps: Time,
    horizon_ps: Time,
    bins: Vec<Acc>,
    last_t: Time,
    conc: u32,
    queued: u32,
    backlog: u32,
}

/// One bin of the time series. Rates are per second of the bin; ratios are `null` in
/// JSON (empty in CSV) when their denominator is zero.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BinRow {
    /// Start of the bin, seconds.
    pub t_s: f64,
    /// New logical requests per second.
    pub offered_per_s: f64,
    /// Attempts sent to the server per second (first attempts and retries).
    pub attempts_per_s: f64,
    /// Retries per second.
    pub retries_per_s: f64,
    /// Attempts that reached the server per second: the clients' attempts, or with a
    /// call chain the last service's.
    pub server_attempts_per_s: f64,
    /// With a call chain: the attempts each caller sent down per second, the clients
    /// first (the last one's are `server_attempts_per_s`); empty without a chain.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layer_attempts_per_s: Vec<f64>,
    /// The server's throughput: work it finished per second.
    pub served_per_s: f64,
    /// Attempts the server rejected at once per second (load shedding, rate limiting).
    pub rejected_per_s: f64,
    /// Load amplification: attempts / new logical requests in the bin.
    pub amplification: f64,
    /// Logical requests that succeeded / all that ended in the bin.
    pub success_ratio: f64,
    /// Logical requests that ended in the bin.
    pub completed: u64,
    /// Attempts answered with success / all attempts that ended (answered, failed or
    /// timed out) in the bin: what the client's calls see.
    pub attempt_success_ratio: f64,
    /// Mean number of requests in the server (queued + in service), time-weighted.
    pub concurrency: f64,
    /// Most requests in the server at once.
    pub concurrency_max: u32,
    /// Mean queue length (waiting for a worker), time-weighted.
    pub queue: f64,
    /// Mean backlog of retrying requests, time-weighted: the clients' logical
    /// requests in flight that have had a retry scheduled (sleeping before it, or on
    /// it).
    pub retrying: f64,
    /// Median latency of the logical requests that succeeded in the bin, ms: from
    /// when a client took the request up to its success (a capped loop's wait for a
    /// free client is `wait_p50_ms`, apart).
    pub latency_p50_ms: f64,
    /// 99th percentile of the same, ms.
    pub latency_p99_ms: f64,
    /// Median wait for a free client of the arrivals a capped client took up in the
    /// bin (those that found one free at once waited 0), ms; NaN (`null`, empty)
    /// where arrivals do not wait.
    pub wait_p50_ms: f64,
    /// 99th percentile of the same, ms.
    pub wait_p99_ms: f64,
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        f64::NAN
    } else {
        a as f64 / b as f64
    }
}

/// The `q` quantile (nearest rank) of `v`, which it reorders; NaN when empty.
fn quantile(v: &mut [u32], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
    let (_, x, _) = v.select_nth_unstable(rank);
    f64::from(*x)
}

impl Series {
    /// Empty bins covering `[0, horizon_ps)`, counting the attempts of `callers`
    /// callers of a call chain (0 without a chain).
    pub fn new(bin_ps: Time, horizon_ps: Time, callers: usize) -> Self {
        let n = horizon_ps.div_ceil(bin_ps) as usize;
        let acc = Acc {
            layer_attempts: vec![0; callers],
            ..Acc::default()
        };
        Self {
            bin_ps,
            horizon_ps,
            bins: vec![acc; n],
            last_t: Time::ZERO,
            conc: 0,
            queued: 0,
            backlog: 0,
        }
    }

    #[inline]
    fn bin(&mut self, t: Time) -> Option<&mut Acc> {
        if t >= self.horizon_ps {
            return None;
        }
        self.bins.get_mut((t / self.bin_ps) as usize)
    }

    /// A new logical request at `t`.
    #[inline]
    pub fn offered(&mut self, t: Time) {
        if let Some(b) = self.bin(t) {
            b.offered += 1;
        }
    }

    /// An attempt sent at `t`.
    #[inline]
    pub fn attempt(&mut self, t: Time, retry: bool) {
        if let Some(b) = self.bin(t) {
            b.attempts += 1;
            b.retries += u64::from(retry);
        }
    }

    /// An attempt reached the server at `t`.
    #[inline]
    pub fn arrived(&mut self, t: Time) {
        if let Some(b) = self.bin(t) {
            b.arrived += 1;
        }
    }

    /// The caller `layer` of a call chain sent an attempt at `t`.
    #[inline]
    pub fn layer_attempt(&mut self, t: Time, layer: usize) {
        if let Some(n) = self.bin(t).and_then(|b| b.layer_attempts.get_mut(layer)) {
            *n += 1;
        }
    }

    /// The server answered an attempt at `t`: served it (`served`), or rejected it at
    /// once (`rejected`), or neither (an error, a cancellation).
    #[inline]
    pub fn answered(&mut self, t: Time, served: bool, rejected: bool) {
        if let Some(b) = self.bin(t) {
            b.served += u64::from(served);
            b.rejected += u64::from(rejected);
        }
    }

    /// An attempt ended at `t` (answered, or timed out at the client).
    #[inline]
    pub fn attempt_ended(&mut self, t: Time, success: bool) {
        if let Some(b) = self.bin(t) {
            if success {
                b.attempts_ok += 1;
            } else {
                b.attempts_failed += 1;
            }
        }
    }

    /// A logical request ended at `t`, after `latency` picoseconds.
    #[inline]
    pub fn completed(&mut self, t: Time, success: bool, latency: Time) {
        if let Some(b) = self.bin(t) {
            if success {
                b.successes += 1;
                b.latency_us
                    .push(u32::try_from(latency.as_ns() / 1_000).unwrap_or(u32::MAX));
            } else {
                b.failures += 1;
            }
        }
    }

    /// A capped client took up at `t` an arrival that had waited `wait` for it.
    #[inline]
    pub fn waited(&mut self, t: Time, wait: Time) {
        if let Some(b) = self.bin(t) {
            b.wait_us
                .push(u32::try_from(wait.as_ns() / 1_000).unwrap_or(u32::MAX));
        }
    }

    /// The server holds `conc` requests (`queued` of them waiting) and `backlog`
    /// logical requests are retrying, from `t` on.
    #[inline]
    pub fn level(&mut self, t: Time, conc: u32, queued: u32, backlog: u32) {
        if conc == self.conc && queued == self.queued && backlog == self.backlog {
            return;
        }
        self.advance(t);
        self.conc = conc;
        self.queued = queued;
        self.backlog = backlog;
        if let Some(b) = self.bin(t) {
            b.conc_max = b.conc_max.max(conc);
        }
    }

    fn advance(&mut self, t: Time) {
        let t = t.min(self.horizon_ps);
        while self.last_t < t {
            let i = (self.last_t / self.bin_ps) as usize;
            let end = ((i as u64 + 1) * self.bin_ps).min(t);
            let dt = u128::from((end - self.last_t).as_ps());
            if let Some(b) = self.bins.get_mut(i) {
                b.conc_area += u128::from(self.conc) * dt;
                b.queue_area += u128::from(self.queued) * dt;
                b.backlog_area += u128::from(self.backlog) * dt;
                b.conc_max = b.conc_max.max(self.conc);
            }
            self.last_t = end;
        }
    }

    /// Close the series at the horizon and compute the rows.
    pub fn finish(mut self) -> Vec<BinRow> {
        self.advance(self.horizon_ps);
        let (bin_ps, horizon) = (self.bin_ps, self.horizon_ps);
        self.bins
            .into_iter()
            .enumerate()
            .map(|(i, mut b)| {
                let start = i as u64 * bin_ps;
                let width = (horizon - start).min(bin_ps);
                let secs = width.as_ps_f64() / PS_PER_SEC as f64;
                let done = b.successes + b.failures;
                BinRow {
                    t_s: start.as_ps_f64() / PS_PER_SEC as f64,
                    offered_per_s: b.offered as f64 / secs,
                    attempts_per_s: b.attempts as f64 / secs,
                    retries_per_s: b.retries as f64 / secs,
                    server_attempts_per_s: b.arrived as f64 / secs,
                    layer_attempts_per_s: b
                        .layer_attempts
                        .iter()
                        .map(|&n| n as f64 / secs)
                        .collect(),
                    served_per_s: b.served as f64 / secs,
                    rejected_per_s: b.rejected as f64 / secs,
                    amplification: ratio(b.attempts, b.offered),
                    success_ratio: ratio(b.successes, done),
                    completed: done,
                    attempt_success_ratio: ratio(b.attempts_ok, b.attempts_ok + b.attempts_failed),
                    concurrency: b.conc_area as f64 / width.as_ps_f64(),
                    concurrency_max: b.conc_max,
                    queue: b.queue_area as f64 / width.as_ps_f64(),
                    retrying: b.backlog_area as f64 / width.as_ps_f64(),
                    latency_p50_ms: quantile(&mut b.latency_us, 0.5) / 1000.0,
                    latency_p99_ms: quantile(&mut b.latency_us, 0.99) / 1000.0,
                    wait_p50_ms: quantile(&mut b.wait_us, 0.5) / 1000.0,
                    wait_p99_ms: quantile(&mut b.wait_us, 0.99) / 1000.0,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_weighted_concurrency_splits_across_bins() {
        let ps = Time::from_ps;
        let mut s = Series::new(ps(100), ps(300), 0);
        s.level(ps(50), 4, 1, 2); // 4 from 50 to 250
        s.level(ps(250), 0, 0, 0);
        s.arrived(ps(10));
        s.answered(ps(110), true, false);
        s.answered(ps(120), false, true);
        s.offered(ps(10));
        s.attempt(ps(10), false);
        s.attempt(ps(20), true);
        s.completed(ps(260), true, Time::from_us(5));
        let rows = s.finish();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].concurrency, 2.0);
        assert_eq!(rows[1].concurrency, 4.0);
        assert_eq!(rows[2].concurrency, 2.0);
        assert_eq!(rows[1].queue, 1.0);
        assert_eq!((rows[0].retrying, rows[1].retrying), (1.0, 2.0));
        assert_eq!(rows[0].server_attempts_per_s, 1e10);
        assert_eq!((rows[1].served_per_s, rows[1].rejected_per_s), (1e10, 1e10));
        assert!(rows[0].layer_attempts_per_s.is_empty());
        assert_eq!(rows[0].amplification, 2.0);
        assert!(rows[1].amplification.is_nan());
        assert_eq!(rows[2].success_ratio, 1.0);
        assert_eq!(rows[2].latency_p50_ms, 0.005);
    }

    #[test]
    fn quantiles_nearest_rank() {
        let mut v: Vec<u32> = (1..=100).rev().collect();
        assert_eq!(quantile(&mut v, 0.5), 50.0);
        assert_eq!(quantile(&mut v, 0.99), 99.0);
        assert!(quantile(&mut [], 0.5).is_nan());
    }
}
