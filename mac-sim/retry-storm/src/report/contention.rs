//! The contention experiment (N clients updating one record): its table as text
//! and CSV, for one seed and over seeds.

use std::fmt::Write as _;

use serde::Serialize;

use super::format::{csv_estimate, pm};
use crate::contention::{ContentionOverSeeds, ContentionRow};
use crate::sweep::TablePoint;

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

/// A contention sweep as JSON: the swept key and every value's table.
pub fn contention_sweep_json<R: Serialize>(param: &str, points: &[TablePoint<R>]) -> String {
    #[derive(Serialize)]
    struct Sweep<'a, R> {
        param: &'a str,
        points: &'a [TablePoint<R>],
    }
    sim_kit::output::json::to_string(&Sweep { param, points })
}

/// A contention sweep as CSV: the table's CSV (`table`, [`contention_csv`] or
/// [`contention_seeds_csv`]) with the columns `param` and `value` first, one header.
pub fn contention_sweep_csv<R>(
    param: &str,
    points: &[TablePoint<R>],
    table: fn(&[R]) -> String,
) -> String {
    let mut s = String::new();
    for (i, p) in points.iter().enumerate() {
        let csv = table(&p.rows);
        let mut lines = csv.lines();
        let header = lines.next().unwrap_or_default();
        if i == 0 {
            let _ = writeln!(s, "param,value,{header}");
        }
        for line in lines {
            let _ = writeln!(s, "{param},{},{line}", p.value);
        }
    }
    s
}

/// A contention sweep as text: each value's table (`table`, [`contention_report`] or
/// [`contention_seeds_report`]) under a line naming the value.
pub fn contention_sweep_report<R>(
    param: &str,
    points: &[TablePoint<R>],
    table: fn(&[R]) -> String,
) -> String {
    let mut s = String::new();
    for p in points {
        let _ = writeln!(s, "{param} = {}", p.value);
        s.push_str(&table(&p.rows));
        s.push('\n');
    }
    s
}
