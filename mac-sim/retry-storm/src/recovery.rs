//! The summary of a run: amplification during and after the trigger, burstiness, and
//! the time to recover (defined in the docs of [`super`]).

use serde::Serialize;

use crate::config::RecoveryRule;
use crate::metrics::BinRow;
use sim_kit::time::{PS_PER_SEC, Time};

/// Did the system recover after the trigger?
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
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

    /// Seconds to recover, if it did.
    pub fn seconds(&self) -> Option<f64> {
        match *self {
            Recovery::Recovered { after_s } => Some(after_s),
            _ => None,
        }
    }
}

/// Aggregates over a window of bins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Window {
    /// Attempts / new logical requests over the window (ratio of the sums).
    pub mean_amplification: f64,
    /// The highest amplification of a bin with new requests in it.
    pub peak_amplification: f64,
    /// Logical requests that succeeded / all that ended (ratio of the sums).
    pub success_ratio: f64,
    /// Mean server concurrency.
    pub concurrency: f64,
    /// Attempts per second, mean over the bins.
    pub attempts_per_s: f64,
    /// Coefficient of variation of attempts per bin (synchronised waves make it
    /// large). For the trigger window it is taken over the window's second half, once
    /// the burst of first failures has passed.
    pub attempts_cv: f64,
}

/// A run's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Before the trigger (after the warm-up).
    pub before: Window,
    /// During the trigger.
    pub during: Window,
    /// From the end of the trigger to the horizon.
    pub after: Window,
    /// Normalised server load: attempts per second during the triggers over the
    /// attempts per second before them (1 = the pre-trigger load). Unlike the
    /// amplification it does not explode when closed-loop clients stop starting
    /// requests.
    pub load_during: f64,
    /// The same from the end of the triggers to the horizon.
    pub load_after: f64,
    /// The highest bin's attempts per second, during or after the triggers, over the
    /// pre-trigger mean.
    pub load_peak: f64,
    /// The recovery threshold on the success ratio.
    pub success_threshold: f64,
    /// The recovery threshold on the mean concurrency.
    pub concurrency_threshold: f64,
    /// The recovery verdict.
    pub recovery: Recovery,
    /// The same in words.
    pub verdict: String,
}

fn window(rows: &[BinRow]) -> Window {
    if rows.is_empty() {
        return Window {
            mean_amplification: f64::NAN,
            peak_amplification: f64::NAN,
            success_ratio: f64::NAN,
            concurrency: f64::NAN,
            attempts_per_s: f64::NAN,
            attempts_cv: f64::NAN,
        };
    }
    let n = rows.len() as f64;
    let offered: f64 = rows.iter().map(|r| r.offered_per_s).sum();
    let attempts: f64 = rows.iter().map(|r| r.attempts_per_s).sum();
    let mean_att = attempts / n;
    let var = rows
        .iter()
        .map(|r| (r.attempts_per_s - mean_att) * (r.attempts_per_s - mean_att))
        .sum::<f64>()
        / n;
    let done: f64 = rows.iter().map(|r| r.completed as f64).sum();
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
        success_ratio: if done > 0.0 { ok / done } else { f64::NAN },
        concurrency: rows.iter().map(|r| r.concurrency).sum::<f64>() / n,
        attempts_per_s: mean_att,
        attempts_cv: if mean_att > 0.0 {
            var.sqrt() / mean_att
        } else {
            f64::NAN
        },
    }
}

/// Summarise `rows` (bins of `bin_ps`) for a run whose triggers cover `span` (from
/// the first start to the last end; [`StormConfig::trigger_window`](crate::StormConfig::trigger_window)).
pub fn summarise(
    rows: &[BinRow],
    bin_ps: Time,
    warmup_ps: Time,
    span: Option<(Time, Time)>,
    rule: &RecoveryRule,
) -> Summary {
    let start_of = |i: usize| i as u64 * bin_ps;
    let Some((start_ps, end_ps)) = span else {
        let all = window(rows);
        return Summary {
            before: all,
            during: window(&[]),
            after: window(&[]),
            load_during: f64::NAN,
            load_after: f64::NAN,
            load_peak: f64::NAN,
            success_threshold: f64::NAN,
            concurrency_threshold: f64::NAN,
            recovery: Recovery::NotApplicable,
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
    let b = window(&before);
    let success_threshold = rule.success_fraction * b.success_ratio;
    let concurrency_threshold = rule.conc_factor * b.concurrency + rule.conc_slack;
    let recovery = if !(success_threshold.is_finite() && concurrency_threshold.is_finite()) {
        Recovery::NotApplicable
    } else {
        let need = rule.sustain_ps.div_ceil(bin_ps).max(1) as usize;
        let mut run = 0usize;
        let mut found = None;
        for (k, r) in after_rows.iter().enumerate() {
            let healthy = r.completed > 0
                && r.success_ratio >= success_threshold
                && r.concurrency <= concurrency_threshold;
            run = if healthy { run + 1 } else { 0 };
            if run == need {
                found = Some(first_after + k + 1 - need);
                break;
            }
        }
        match found {
            Some(i) => Recovery::Recovered {
                after_s: (start_of(i) - end_ps).as_ps_f64() / PS_PER_SEC as f64,
            },
            None => Recovery::Metastable,
        }
    };
    let mut during_w = window(&during);
    during_w.attempts_cv = window(&during[during.len() / 2..]).attempts_cv;
    let after_w = window(after_rows);
    let per_base = |x: f64| {
        if b.attempts_per_s > 0.0 {
            x / b.attempts_per_s
        } else {
            f64::NAN
        }
    };
    let peak = during
        .iter()
        .chain(after_rows)
        .map(|r| r.attempts_per_s)
        .fold(f64::NAN, f64::max);
    Summary {
        before: b,
        during: during_w,
        load_during: per_base(during_w.attempts_per_s),
        load_after: per_base(after_w.attempts_per_s),
        load_peak: per_base(peak),
        after: after_w,
        success_threshold,
        concurrency_threshold,
        verdict: recovery.verdict(),
        recovery,
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
            amplification: 1.0,
            success_ratio: ok,
            completed: 10,
            attempt_success_ratio: ok,
            concurrency: conc,
            concurrency_max: conc as u32,
            queue: 0.0,
            latency_p50_ms: 1.0,
            latency_p99_ms: 1.0,
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
        let s = summarise(&rows(&after), S, Time::ZERO, trigger(), &rule);
        assert_eq!(s.success_threshold, 0.95);
        assert_eq!(s.concurrency_threshold, 13.0);
        assert_eq!(s.recovery, Recovery::Recovered { after_s: 6.0 });
        // Four healthy bins at the end are not enough: metastable.
        after.truncate(10);
        let s = summarise(&rows(&after), S, Time::ZERO, trigger(), &rule);
        assert_eq!(s.recovery, Recovery::Metastable);
        assert_eq!(s.verdict, "did not recover within horizon (metastable)");
        // Concurrency above 2 · 4 + 5 is not healthy, even at full success.
        let s = summarise(&rows(&[(1.0, 13.5); 8]), S, Time::ZERO, trigger(), &rule);
        assert_eq!(s.recovery, Recovery::Metastable);
        // A bin where nothing ended is not healthy.
        let mut empty = vec![(1.0, 4.0); 8];
        let mut r = rows(&empty);
        r[21].completed = 0;
        let s = summarise(&r, S, Time::ZERO, trigger(), &rule);
        assert_eq!(s.recovery, Recovery::Recovered { after_s: 2.0 });
        empty.clear();
        let s = summarise(&rows(&empty), S, Time::ZERO, None, &rule);
        assert_eq!(s.recovery, Recovery::NotApplicable);
    }

    #[test]
    fn windows_use_ratios_of_sums() {
        let r = rows(&[(1.0, 4.0); 5]);
        let s = summarise(&r, S, 2 * S, trigger(), &RecoveryRule::default());
        assert_eq!(s.before.mean_amplification, 1.0);
        assert_eq!(s.before.success_ratio, 1.0);
        assert_eq!(s.during.success_ratio, 0.0);
        assert_eq!(s.during.concurrency, 50.0);
        assert_eq!(s.before.attempts_cv, 0.0);
    }
}
