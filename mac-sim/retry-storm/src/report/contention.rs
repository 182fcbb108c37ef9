//! The contention experiment (N clients updating one record): its table as text
//! and CSV, for one seed and over seeds.

use std::fmt::Write as _;

use serde::Serialize;

use super::format::{csv_estimate, pm};
use crate::contention::{ContentionOverSeeds, ContentionRow};
use crate::sweep::TablePoint;

/// The title of a contention experiment whose file gives none.
pub const CONTENTION_TITLE: &str =
    "N clients update one record under optimistic concurrency, retrying on conflict";

/// The first lines of a contention report, as a storm scenario's: the file's `name`
/// and `title` (without one, [`CONTENTION_TITLE`]), then its `expectation`, if any.
pub fn contention_heading(name: &str, title: &str, expectation: &str) -> String {
    let title = if title.is_empty() {
        CONTENTION_TITLE
    } else {
        title
    };
    let mut s = format!("mac-sim storm: {name} — {title}\n");
    if !expectation.is_empty() {
        let _ = writeln!(s, "expected: {expectation}");
    }
    s
}

/// The contention table as text, under `heading` ([`contention_heading`]).
pub fn contention_report(heading: &str, rows: &[ContentionRow]) -> String {
    format!("{heading}\n{}", contention_table(rows))
}

fn contention_table(rows: &[ContentionRow]) -> String {
    let mut s = String::new();
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

/// The contention table over seeds: means ± 95 % half-widths, under `heading`.
pub fn contention_seeds_report(heading: &str, rows: &[ContentionOverSeeds]) -> String {
    let mut s = heading.to_string();
    if let Some(r) = rows.first() {
        let _ = writeln!(
            s,
            "{} seeds ({}..={}); mean ± half-width of the 95 % confidence interval",
            r.seeds.len(),
            r.seeds.first().copied().unwrap_or(0),
            r.seeds.last().copied().unwrap_or(0)
        );
    }
    let _ = writeln!(s);
    s.push_str(&contention_seeds_table(rows));
    s
}

fn contention_seeds_table(rows: &[ContentionOverSeeds]) -> String {
    let mut s = String::new();
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

/// A contention sweep as text: `heading`, then each value's table under a line
/// naming the value.
pub fn contention_sweep_report(
    heading: &str,
    param: &str,
    points: &[TablePoint<ContentionRow>],
) -> String {
    sweep_tables(heading, param, points, contention_table)
}

/// A contention sweep over seeds as text, as [`contention_sweep_report`].
pub fn contention_seeds_sweep_report(
    heading: &str,
    param: &str,
    points: &[TablePoint<ContentionOverSeeds>],
) -> String {
    sweep_tables(heading, param, points, contention_seeds_table)
}

fn sweep_tables<R>(
    heading: &str,
    param: &str,
    points: &[TablePoint<R>],
    table: fn(&[R]) -> String,
) -> String {
    let mut s = format!("{heading}\n");
    for p in points {
        let _ = writeln!(s, "{param} = {}", p.value);
        s.push_str(&table(&p.rows));
        s.push('\n');
    }
    s
}
