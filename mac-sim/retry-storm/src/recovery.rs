//! The summary of a run: amplification during and after the trigger, the load that
//! reaches the server (and each service of a call chain), burstiness, and the time to
//! recover (defined in the docs of [`super`]).
//!
//! Two figures, each a whole number of bins counted from the end of the triggers to
//! the start of the first bin of a sustained run (the reports print them at the bins'
//! resolution, [`recovery_decimals`]):
//!
//! * the **server's recovery** ([`Summary::recovery`]): a bin after the trigger is
//!   healthy when its success ratio is at least the threshold, or nothing ended in it
//!   (an idle bin has nothing to fail), and its mean concurrency is at most
//!   `conc_factor · C₀ + conc_slack`;
//! * the **clients' drain** ([`Summary::drain`]): a bin is drained when its mean
//!   backlog of retrying requests (clients sleeping before a retry, or on one) is at
//!   most `conc_factor · B₀ + conc_slack`, `B₀` the pre-trigger backlog.
//!
//! The server is back once it answers as before; clients that still sleep on a long
//! backoff delay are no fault of the server, so the drain is its own figure (with a
//! cap of 10 s the backlog can take minutes to drain after a server that was back in
//! seconds).

use serde::{Deserialize, Serialize};

use crate::config::{Fitted, RecoveryRule};
use crate::metrics::BinRow;
use sim_kit::time::{PS_PER_SEC, Time};

/// Did the system recover after the trigger?
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Recovery {
    /// The run has no trigger (or no healthy baseline before it).
    NotApplicable,
    /// It recovered this many seconds after the trigger ended.
    Recovered {
        /// Seconds from the end of the trigger.
        after_s: f64,
    },
    /// It did not recover within the horizon: a metastable failure.
    Metastable,
}

impl Recovery {
    /// The verdict in words.
    pub fn verdict(&self) -> String {
        match self {
            Recovery::NotApplicable => "no trigger: recovery not applicable".into(),
            Recovery::Recovered { after_s } => {
                format!("recovered {after_s:.1} s after the trigger ended")
            }
            Recovery::Metastable => "did not recover within horizon (metastable)".into(),
        }
    }

    /// The verdict in words, the time to recover with `decimals` decimals (the
    /// run's resolution, [`decimals`]).
    pub fn verdict_to(&self, decimals: usize) -> String {
        match self {
            Recovery::Recovered { after_s } => format!(
                "recovered {} s after the trigger ended",
                seconds_text(*after_s, decimals)
            ),
            other => other.verdict(),
        }
    }

    /// Seconds to recover, if it did.
    pub fn seconds(&self) -> Option<f64> {
        match *self {
            Recovery::Recovered { after_s } => Some(after_s),
            _ => None,
        }
    }
}

/// Did the clients' backlog of retrying requests drain after the trigger?
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Drain {
    /// The run has no trigger (or no baseline before it).
    NotApplicable,
    /// The backlog was back to its pre-trigger level this many seconds after the
    /// trigger ended.
    Drained {
        /// Seconds from the end of the trigger.
        after_s: f64,
    },
    /// It was not within the horizon.
    NotDrained,
}

impl Drain {
    /// Seconds to drain, if it did.
    pub fn seconds(&self) -> Option<f64> {
        match *self {
            Drain::Drained { after_s } => Some(after_s),
            _ => None,
        }
    }

    /// The verdict in words, the time with `decimals` decimals.
    pub fn verdict_to(&self, decimals: usize) -> String {
        match self {
            Drain::NotApplicable => "no trigger: drain not applicable".into(),
            Drain::Drained { after_s } => format!(
                "retrying clients drained {} s after the trigger ended",
                seconds_text(*after_s, decimals)
            ),
            Drain::NotDrained => "retrying clients did not drain within horizon".into(),
        }
    }
}

/// The decimals a time needs in seconds: 0 for whole seconds, 1 for tenths, and so
/// on, at most 6 (microseconds).
pub fn decimals(t: Time) -> usize {
    let ps = t.as_ps();
    (0..6)
        .find(|&d| ps % (PS_PER_SEC / 10u64.pow(d as u32)) == 0)
        .unwrap_or(6)
}

/// The decimals of a time to recover: it is the start of a bin of `bin_ps` minus
/// the end of the triggers (`end_ps`), so it has the decimals of either and no more.
pub fn recovery_decimals(bin_ps: Time, end_ps: Time) -> usize {
    decimals(bin_ps).max(decimals(end_ps))
}

/// `secs` with `decimals` decimals: `20` for bins of 1 s, `20.5` for bins of 500 ms.
pub fn seconds_text(secs: f64, decimals: usize) -> String {
    format!("{secs:.decimals$}")
}

/// Aggregates over a window of bins.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// Attempts / new logical requests over the window (ratio of the sums).
    pub mean_amplification: f64,
    /// The highest amplification of a bin with new requests in it.
    pub peak_amplification: f64,
    /// Logical requests that succeeded / all that ended (ratio of the sums); NaN
    /// (`null` in JSON, empty in CSV) when too few ended to mean anything
    /// ([`success_ratio_covers`]).
    pub success_ratio: f64,
    /// Logical requests that ended in the window: the ones `success_ratio` covers.
    pub completed: u64,
    /// Mean server concurrency.
    pub concurrency: f64,
    /// Attempts per second, mean over the bins.
    pub attempts_per_s: f64,
    /// Attempts that reached the server per second, mean over the bins.
    pub server_attempts_per_s: f64,
    /// With a call chain: the attempts each caller sent down per second, mean over
    /// the bins, the clients first (empty without a chain).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layer_attempts_per_s: Vec<f64>,
    /// The server's throughput (work finished) per second, mean over the bins.
    pub served_per_s: f64,
    /// Attempts the server rejected at once per second, mean over the bins.
    pub rejected_per_s: f64,
    /// Mean backlog of retrying requests.
    pub retrying: f64,
    /// Coefficient of variation of attempts per bin (synchronised waves make it
    /// large). For the trigger window it is taken over the window's second half, once
    /// the burst of first failures has passed.
    pub attempts_cv: f64,
}

/// A run's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Before the trigger (after the warm-up).
    pub before: Window,
    /// During the trigger.
    pub during: Window,
    /// From the end of the trigger to the horizon.
    pub after: Window,
    /// Normalised server load: attempts reaching the server per second during the
    /// triggers over the same before them (1 = the pre-trigger load). Unlike the
    /// amplification it does not explode when closed-loop clients stop starting
    /// requests; with a call chain it is the last service's attempts, which every
    /// layer's retries multiply.
    pub load_during: f64,
    /// The same from the end of the triggers to the horizon.
    pub load_after: f64,
    /// The highest bin's attempts reaching the server per second, during or after
    /// the triggers, over the pre-trigger mean.
    pub load_peak: f64,
    /// The recovery threshold on the success ratio.
    pub success_threshold: f64,
    /// The recovery threshold on the mean concurrency.
    pub concurrency_threshold: f64,
    /// The drain threshold on the mean backlog of retrying requests.
    pub retrying_threshold: f64,
    /// The defaults scaled to fit the run (the warm-up, the sustain window), each
    /// with what it was and what it became; empty when none was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fitted: Vec<Fitted>,
    /// The server's recovery: success and concurrency back within the rule.
    pub recovery: Recovery,
    /// The clients' drain: the backlog of retrying requests back within the rule.
    pub drain: Drain,
    /// The server's recovery in words, then the drain's.
    pub verdict: String,
}

/// The start (an index into `rows`) of the first run of `need` bins that `ok` holds
/// for, if any.
fn first_sustained(rows: &[BinRow], need: usize, ok: impl Fn(&BinRow) -> bool) -> Option<usize> {
    let mut run = 0usize;
    for (k, r) in rows.iter().enumerate() {
        run = if ok(r) { run + 1 } else { 0 };
        if run == need {
            return Some(k + 1 - need);
        }
    }
    None
}

/// The fewest logical requests that must end in a window for its success ratio to be
/// given.
pub const MIN_ENDED: u64 = 30;

/// The smallest share of the window's new logical requests that must end in it for
/// its success ratio to be given.
pub const MIN_ENDED_SHARE: f64 = 0.1;

/// Whether a window's success ratio over the `ended` requests that ended in it means
/// anything, `offered` the new requests of the window: at least [`MIN_ENDED`] ended,
/// and at least [`MIN_ENDED_SHARE`] of `offered`. In a total outage the few requests
/// that end inside the window are those that began just before it, and every other
/// one is still retrying: their ratio (1.000) says nothing of the window.
pub fn success_ratio_covers(ended: u64, offered: f64) -> bool {
    ended >= MIN_ENDED && ended as f64 >= MIN_ENDED_SHARE * offered
}

fn window(rows: &[BinRow], bin_s: f64) -> Window {
    if rows.is_empty() {
        return Window {
            mean_amplification: f64::NAN,
            peak_amplification: f64::NAN,
            success_ratio: f64::NAN,
            completed: 0,
            concurrency: f64::NAN,
            attempts_per_s: f64::NAN,
            server_attempts_per_s: f64::NAN,
            layer_attempts_per_s: Vec::new(),
            served_per_s: f64::NAN,
            rejected_per_s: f64::NAN,
            retrying: f64::NAN,
            attempts_cv: f64::NAN,
        };
    }
    let layers = rows[0].layer_attempts_per_s.len();
    let n = rows.len() as f64;
    let offered: f64 = rows.iter().map(|r| r.offered_per_s).sum();
    let attempts: f64 = rows.iter().map(|r| r.attempts_per_s).sum();
    let mean_att = attempts / n;
    let var = rows
        .iter()
        .map(|r| (r.attempts_per_s - mean_att) * (r.attempts_per_s - mean_att))
        .sum::<f64>()
        / n;
    let ended: u64 = rows.iter().map(|r| r.completed).sum();
    let done = ended as f64;
    let ok: f64 = rows
        .iter()
        .filter(|r| r.completed > 0)
        .map(|r| r.success_ratio * r.completed as f64)
        .sum();
    Window {
        mean_amplification: if offered > 0.0 {
            attempts / offered
        } else {
            f64::NAN
        },
        peak_amplification: rows
            .iter()
            .map(|r| r.amplification)
            .filter(|a| a.is_finite())
            .fold(f64::NAN, f64::max),
        success_ratio: if success_ratio_covers(ended, offered * bin_s) {
            ok / done
        } else {
            f64::NAN
        },
        completed: ended,
        concurrency: rows.iter().map(|r| r.concurrency).sum::<f64>() / n,
        attempts_per_s: mean_att,
        server_attempts_per_s: rows.iter().map(|r| r.server_attempts_per_s).sum::<f64>() / n,
        layer_attempts_per_s: (0..layers)
            .map(|k| rows.iter().map(|r| r.layer_attempts_per_s[k]).sum::<f64>() / n)
            .collect(),
        served_per_s: rows.iter().map(|r| r.served_per_s).sum::<f64>() / n,
        rejected_per_s: rows.iter().map(|r| r.rejected_per_s).sum::<f64>() / n,
        retrying: rows.iter().map(|r| r.retrying).sum::<f64>() / n,
        attempts_cv: if mean_att > 0.0 {
            var.sqrt() / mean_att
        } else {
            f64::NAN
        },
    }
}

/// Summarise `rows` (bins of `bin_ps`) for a run whose triggers cover `span` (from
/// the first start to the last end; [`StormConfig::trigger_window`](crate::StormConfig::trigger_window)).
/// `fitted` lists the defaults scaled to fit the run, for the record.
pub fn summarise(
    rows: &[BinRow],
    bin_ps: Time,
    warmup_ps: Time,
    span: Option<(Time, Time)>,
    rule: &RecoveryRule,
    fitted: Vec<Fitted>,
) -> Summary {
    let start_of = |i: usize| i as u64 * bin_ps;
    let bin_s = bin_ps.as_ps_f64() / PS_PER_SEC as f64;
    let Some((start_ps, end_ps)) = span else {
        let all = window(rows, bin_s);
        return Summary {
            before: all,
            during: window(&[], bin_s),
            after: window(&[], bin_s),
            load_during: f64::NAN,
            load_after: f64::NAN,
            load_peak: f64::NAN,
            success_threshold: f64::NAN,
            concurrency_threshold: f64::NAN,
            retrying_threshold: f64::NAN,
            fitted,
            recovery: Recovery::NotApplicable,
            drain: Drain::NotApplicable,
            verdict: Recovery::NotApplicable.verdict(),
        };
    };
    // Bins wholly before the trigger (after the warm-up), wholly inside it, and from
    // the first bin that starts at or after its end.
    let idx: Vec<usize> = (0..rows.len()).collect();
    let before: Vec<BinRow> = idx
        .iter()
        .filter(|&&i| start_of(i) >= warmup_ps && start_of(i + 1) <= start_ps)
        .map(|&i| rows[i].clone())
        .collect();
    let during: Vec<BinRow> = idx
        .iter()
        .filter(|&&i| start_of(i) >= start_ps && start_of(i + 1) <= end_ps)
        .map(|&i| rows[i].clone())
        .collect();
    let first_after = end_ps.div_ceil(bin_ps) as usize;
    let after_rows = rows.get(first_after..).unwrap_or(&[]);
    let b = window(&before, bin_s);
    // The rule's baseline is the ratio over every request that ended before the
    // triggers, however few: a quiet baseline is still the one to return to.
    let base_success = {
        let done: u64 = before.iter().map(|r| r.completed).sum();
        let ok: f64 = before
            .iter()
            .filter(|r| r.completed > 0)
            .map(|r| r.success_ratio * r.completed as f64)
            .sum();
        if done > 0 { ok / done as f64 } else { f64::NAN }
    };
    let success_threshold = rule.success_fraction * base_success;
    let concurrency_threshold = rule.conc_factor * b.concurrency + rule.conc_slack;
    let retrying_threshold = rule.conc_factor * b.retrying + rule.conc_slack;
    let applicable = success_threshold.is_finite() && concurrency_threshold.is_finite();
    let need = rule.sustain_ps.div_ceil(bin_ps).max(1) as usize;
    let after_s = |k: usize| (start_of(first_after + k) - end_ps).as_ps_f64() / PS_PER_SEC as f64;
    let recovery = if !applicable {
        Recovery::NotApplicable
    } else {
        // An idle bin (nothing ended) has nothing to fail.
        match first_sustained(after_rows, need, |r| {
            (r.completed == 0 || r.success_ratio >= success_threshold)
                && r.concurrency <= concurrency_threshold
        }) {
            Some(k) => Recovery::Recovered {
                after_s: after_s(k),
            },
            None => Recovery::Metastable,
        }
    };
    let drain = if !(applicable && retrying_threshold.is_finite()) {
        Drain::NotApplicable
    } else {
        match first_sustained(after_rows, need, |r| r.retrying <= retrying_threshold) {
            Some(k) => Drain::Drained {
                after_s: after_s(k),
            },
            None => Drain::NotDrained,
        }
    };
    let mut during_w = window(&during, bin_s);
    during_w.attempts_cv = window(&during[during.len() / 2..], bin_s).attempts_cv;
    let after_w = window(after_rows, bin_s);
    let base = b.server_attempts_per_s;
    let per_base = |x: f64| if base > 0.0 { x / base } else { f64::NAN };
    let peak = during
        .iter()
        .chain(after_rows)
        .map(|r| r.server_attempts_per_s)
        .fold(f64::NAN, f64::max);
    Summary {
        load_during: per_base(during_w.server_attempts_per_s),
        load_after: per_base(after_w.server_attempts_per_s),
        load_peak: per_base(peak),
        before: b,
        during: during_w,
        after: after_w,
        success_threshold,
        concurrency_threshold,
        retrying_threshold,
        fitted,
        verdict: {
            let d = recovery_decimals(bin_ps, end_ps);
            format!("{}; {}", recovery.verdict_to(d), drain.verdict_to(d))
        },
        recovery,
        drain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(t: usize, ok: f64, conc: f64) -> BinRow {
        BinRow {
            t_s: t as f64,
            offered_per_s: 10.0,
            attempts_per_s: 10.0,
            retries_per_s: 0.0,
            server_attempts_per_s: 10.0,
            layer_attempts_per_s: Vec::new(),
            served_per_s: 10.0,
            rejected_per_s: 0.0,
            amplification: 1.0,
            success_ratio: ok,
            completed: 10,
            attempt_success_ratio: ok,
            concurrency: conc,
            concurrency_max: conc as u32,
            queue: 0.0,
            retrying: 0.0,
            latency_p50_ms: 1.0,
            latency_p99_ms: 1.0,
            wait_p50_ms: f64::NAN,
            wait_p99_ms: f64::NAN,
        }
    }

    const S: Time = Time::from_secs(1);

    fn trigger() -> Option<(Time, Time)> {
        Some((10 * S, 20 * S))
    }

    /// Baseline 1.0 / 4.0: healthy means success >= 0.95 and concurrency <= 13.
    fn rows(after: &[(f64, f64)]) -> Vec<BinRow> {
        let mut v: Vec<BinRow> = (0..10).map(|t| row(t, 1.0, 4.0)).collect();
        v.extend((10..20).map(|t| row(t, 0.0, 50.0)));
        v.extend(
            after
                .iter()
                .enumerate()
                .map(|(i, &(ok, c))| row(20 + i, ok, c)),
        );
        v
    }

    #[test]
    fn recovery_is_the_start_of_the_first_sustained_healthy_run() {
        let rule = RecoveryRule::default(); // 5 s sustained
        // Healthy from 23 s, but 25 s dips below 95 %; healthy again from 26 s on.
        let mut after = vec![(0.5, 40.0); 3];
        after.extend([(0.96, 13.0), (1.0, 5.0), (0.9, 5.0)]);
        after.extend(vec![(1.0, 4.0); 5]);
        let s = summarise(&rows(&after), S, Time::ZERO, trigger(), &rule, Vec::new());
        assert_eq!(s.success_threshold, 0.95);
        assert_eq!(s.concurrency_threshold, 13.0);
        assert_eq!(s.recovery, Recovery::Recovered { after_s: 6.0 });
        // Four healthy bins at the end are not enough: metastable.
        after.truncate(10);
        let s = summarise(&rows(&after), S, Time::ZERO, trigger(), &rule, Vec::new());
        assert_eq!(s.recovery, Recovery::Metastable);
        assert_eq!(
            s.verdict,
            "did not recover within horizon (metastable); retrying clients drained 0 s after the trigger ended"
        );
        // Concurrency above 2 · 4 + 5 is not healthy, even at full success.
        let s = summarise(
            &rows(&[(1.0, 13.5); 8]),
            S,
            Time::ZERO,
            trigger(),
            &rule,
            Vec::new(),
        );
        assert_eq!(s.recovery, Recovery::Metastable);
        let mut empty = Vec::new();
        empty.clear();
        let s = summarise(&rows(&empty), S, Time::ZERO, None, &rule, Vec::new());
        assert_eq!(s.recovery, Recovery::NotApplicable);
    }

    #[test]
    fn an_idle_server_is_healthy() {
        // Nothing ends after the trigger (no success ratio), the server is empty and
        // nobody is retrying: healthy from the first bin.
        let mut r = rows(&[(f64::NAN, 0.0); 8]);
        for b in &mut r[20..] {
            b.completed = 0;
        }
        let s = summarise(
            &r,
            S,
            Time::ZERO,
            trigger(),
            &RecoveryRule::default(),
            Vec::new(),
        );
        assert_eq!(s.recovery, Recovery::Recovered { after_s: 0.0 });
        assert_eq!(
            s.verdict,
            "recovered 0 s after the trigger ended; retrying clients drained 0 s after the trigger ended"
        );
    }

    #[test]
    fn a_backlog_of_retrying_requests_delays_the_drain_not_the_recovery() {
        // Full success and a calm server, but 40 requests still retrying (the
        // threshold is 2 · 0 + 5) until 24 s: the server is back at 0 s, the clients
        // drained at 4 s. (Before the two were apart, this read "recovered at 4 s".)
        let mut r = rows(&[(1.0, 4.0); 10]);
        for b in &mut r[20..24] {
            b.retrying = 40.0;
        }
        let s = summarise(
            &r,
            S,
            Time::ZERO,
            trigger(),
            &RecoveryRule::default(),
            Vec::new(),
        );
        assert_eq!(s.retrying_threshold, 5.0);
        assert_eq!(s.recovery, Recovery::Recovered { after_s: 0.0 });
        assert_eq!(s.drain, Drain::Drained { after_s: 4.0 });
        // The backlog never clears: the server is still back, the clients never drain.
        for b in &mut r[20..] {
            b.retrying = 40.0;
        }
        let s = summarise(
            &r,
            S,
            Time::ZERO,
            trigger(),
            &RecoveryRule::default(),
            Vec::new(),
        );
        assert_eq!(s.recovery, Recovery::Recovered { after_s: 0.0 });
        assert_eq!(s.drain, Drain::NotDrained);
        assert_eq!(
            s.verdict,
            "recovered 0 s after the trigger ended; retrying clients did not drain within horizon"
        );
    }

    #[test]
    fn a_success_ratio_over_too_few_requests_is_undefined() {
        // A total outage: 10 requests offered per bin, but only 2 end in its first
        // bin (both successes: they began before it) and none after. The ratio of
        // the window would read 1.000 over 2 of 100 requests: it is left undefined,
        // with the count beside it.
        let mut r = rows(&[(1.0, 4.0); 5]);
        for b in &mut r[10..20] {
            b.completed = 0;
            b.success_ratio = f64::NAN;
        }
        r[10].completed = 2;
        r[10].success_ratio = 1.0;
        let s = summarise(
            &r,
            S,
            Time::ZERO,
            trigger(),
            &RecoveryRule::default(),
            Vec::new(),
        );
        assert_eq!(s.during.completed, 2);
        assert!(s.during.success_ratio.is_nan());
        // Enough ended (30, and 10 % of the 100 offered): the ratio is given.
        r[10].completed = 30;
        let s = summarise(
            &r,
            S,
            Time::ZERO,
            trigger(),
            &RecoveryRule::default(),
            Vec::new(),
        );
        assert_eq!(s.during.success_ratio, 1.0);
        // 30 ended but of 400 offered (under 10 %): undefined again.
        for b in &mut r[10..20] {
            b.offered_per_s = 40.0;
        }
        let s = summarise(
            &r,
            S,
            Time::ZERO,
            trigger(),
            &RecoveryRule::default(),
            Vec::new(),
        );
        assert!(s.during.success_ratio.is_nan());
        assert!(success_ratio_covers(40, 400.0) && !success_ratio_covers(29, 29.0));
        // The rule's baseline still counts a quiet before-window.
        assert_eq!(s.success_threshold, 0.95);
    }

    #[test]
    fn recovery_time_at_the_bins_resolution() {
        assert_eq!(decimals(S), 0);
        assert_eq!(decimals(Time::from_ms(500)), 1);
        assert_eq!(decimals(Time::from_ms(250)), 2);
        assert_eq!(recovery_decimals(S, Time::from_ms(20_500)), 1);
        let r = Recovery::Recovered { after_s: 20.0 };
        assert_eq!(r.verdict_to(0), "recovered 20 s after the trigger ended");
        assert_eq!(r.verdict_to(1), "recovered 20.0 s after the trigger ended");
    }

    #[test]
    fn load_counts_what_reaches_the_server() {
        // The clients' attempts stay at 10/s, the server sees 30/s after the trigger.
        let mut r = rows(&[(1.0, 4.0); 5]);
        for b in &mut r[20..] {
            b.server_attempts_per_s = 30.0;
        }
        let s = summarise(
            &r,
            S,
            Time::ZERO,
            trigger(),
            &RecoveryRule::default(),
            Vec::new(),
        );
        assert_eq!(s.after.attempts_per_s, 10.0);
        assert_eq!(s.load_after, 3.0);
        assert_eq!(s.load_peak, 3.0);
    }

    #[test]
    fn windows_use_ratios_of_sums() {
        let r = rows(&[(1.0, 4.0); 5]);
        let s = summarise(
            &r,
            S,
            2 * S,
            trigger(),
            &RecoveryRule::default(),
            Vec::new(),
        );
        assert_eq!(s.before.mean_amplification, 1.0);
        assert_eq!(s.before.success_ratio, 1.0);
        assert_eq!(s.during.success_ratio, 0.0);
        assert_eq!(s.during.concurrency, 50.0);
        assert_eq!(s.before.attempts_cv, 0.0);
    }
}
