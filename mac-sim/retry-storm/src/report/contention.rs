//! The contention experiment (N clients updating one record): its table as text
//! and CSV, for one seed and over seeds.

use std::fmt::Write as _;

use super::format::{csv_estimate, pm};
use crate::contention::{ContentionOverSeeds, ContentionRow};

/// The contention table as text.
pub fn contention_report(rows: &[ContentionRow]) -> String {
    let mut s = String::from(
        "mac-sim storm: contention — N clients update one record under optimistic concurrency, retrying on conflict\n\n",
    );
    let _ = writeln!(
        s,
        "{:<14} {:>8} {:>10} {:>12} {:>14}",
        "jitter", "clients", "calls", "calls/client", "completion ms"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<14} {:>8} {:>10} {:>12.2} {:>14.1}",
            r.jitter, r.clients, r.calls, r.calls_per_client, r.completion_ms
        );
    }
    s
}

/// The contention table as CSV, header included.
pub fn contention_csv(rows: &[ContentionRow]) -> String {
    let mut s = String::from("jitter,clients,calls,calls_per_client,completion_ms\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{:.6},{:.6}",
            r.jitter, r.clients, r.calls, r.calls_per_client, r.completion_ms
        );
    }
    s
}

/// The contention table over seeds: means ± 95 % half-widths.
pub fn contention_seeds_report(rows: &[ContentionOverSeeds]) -> String {
    let mut s = String::from(
        "mac-sim storm: contention — N clients update one record under optimistic concurrency, retrying on conflict
",
    );
    if let Some(r) = rows.first() {
        let _ = writeln!(
            s,
            "{} seeds ({}..={}); mean ± half-width of the 95 % confidence interval
",
            r.seeds.len(),
            r.seeds.first().copied().unwrap_or(0),
            r.seeds.last().copied().unwrap_or(0)
        );
    }
    let _ = writeln!(
        s,
        "{:<14} {:>8} {:>18} {:>18}",
        "jitter", "clients", "calls", "completion ms"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<14} {:>8} {:>18} {:>18}",
            r.jitter,
            r.clients,
            pm(&r.calls, 1),
            pm(&r.completion_ms, 1)
        );
    }
    s
}

/// The contention table over seeds as CSV, header included.
pub fn contention_seeds_csv(rows: &[ContentionOverSeeds]) -> String {
    let mut s =
        String::from("jitter,clients,seeds,calls,calls_ci95,completion_ms,completion_ms_ci95\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{}",
            r.jitter,
            r.clients,
            r.seeds.len(),
            csv_estimate(&r.calls),
            csv_estimate(&r.completion_ms)
        );
    }
    s
}
