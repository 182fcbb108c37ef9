//! The report card: what a client's retry configuration does when the server fails,
//! before an incident shows it. A gRPC service config, an AWS SDK config profile or
//! a strategy ([`policy`]) is run through five standard incidents at the user's load
//! ([`CardLoad`]: the request rate, the clients' timeout, the server's capacity),
//! each beside the same clients without retries, and judged ([`Verdict`]).
//!
//! | incident | what goes wrong |
//! |---|---|
//! | outage | every request fails at once, from 20 s to 30 s |
//! | pause | the server stops from 20 s to 25 s; work in progress resumes |
//! | partial | 30 % of requests fail, from 20 s to 50 s |
//! | slow | every request takes 10 mean service times longer, from 20 s to 40 s |
//! | overload | the offered load rises to 1.5 times the capacity, from 20 s to 30 s |
//!
//! The server has 20 workers with exponential service times whose mean makes its
//! capacity the one given; the clients are an open loop (requests keep arriving
//! whatever happens, as users and upstream services send them) over 120 s.
//!
//! ```
//! use retry_storm::card::{self, CardLoad};
//! let p = card::policy::parse("exp-full+retries=3+budget=10", "inline").unwrap();
//! let c = card::run(&p, &CardLoad { horizon_s: 60, ..CardLoad::default() }).unwrap();
//! assert_eq!(c.rows.len(), 5);
//! // Three retries within a 10 % budget ride a 30 % partial failure.
//! let partial = c.rows.iter().find(|r| r.incident == "partial").unwrap();
//! assert!(partial.policy.success_during > partial.baseline.success_during + 0.1);
//! ```

pub mod policy;

use std::fmt::Write as _;

use serde::Serialize;

use crate::StormResult;
use crate::comparison::run_sequential;
use crate::error::StormError;
use crate::presets::{Options, Source};
use crate::strategy::Strategy;

pub use policy::ClientPolicy;

/// The load the card's incidents run at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardLoad {
    /// New requests per second (an open loop).
    pub rate_per_s: f64,
    /// What the server serves at most, requests per second.
    pub capacity_per_s: f64,
    /// The clients' timeout per attempt, milliseconds.
    pub timeout_ms: u64,
    /// The seed.
    pub seed: u64,
    /// Simulated seconds per incident (the triggers end by 50 s).
    pub horizon_s: u64,
}

impl Default for CardLoad {
    /// 100 requests per second on a server that serves 200 (half busy), a 1 s
    /// timeout, seed 1, 120 s.
    fn default() -> Self {
        Self {
            rate_per_s: 100.0,
            capacity_per_s: 200.0,
            timeout_ms: 1000,
            seed: 1,
            horizon_s: 120,
        }
    }
}

/// The incidents, by name, in the card's order.
pub const INCIDENTS: [&str; 5] = ["outage", "pause", "partial", "slow", "overload"];

const WORKERS: f64 = 20.0;

/// The scenario file of `incident` at `load`, with the clients that do not retry.
fn scenario_text(incident: &str, load: &CardLoad) -> String {
    let mean_ns = (WORKERS / load.capacity_per_s * 1e9).round() as u64;
    let trigger = match incident {
        "outage" => "kind = \"outage\"\nstart = \"20s\"\nend = \"30s\"".to_string(),
        "pause" => "kind = \"pause\"\nstart = \"20s\"\nend = \"25s\"".to_string(),
        "partial" => {
            "kind = \"partial\"\nstart = \"20s\"\nend = \"50s\"\nfraction = 0.3".to_string()
        }
        "slow" => format!(
            "kind = \"slow\"\nstart = \"20s\"\nend = \"40s\"\nadded = \"{}ns\"",
            mean_ns * 10
        ),
        _ => format!(
            "kind = \"load-spike\"\nstart = \"20s\"\nend = \"30s\"\nfactor = {}",
            1.5 * load.capacity_per_s / load.rate_per_s
        ),
    };
    format!(
        "name = \"{incident}\"\ntitle = \"report card: {incident}\"\nexpectation = \"\"\nhorizon = \"{}s\"\nseed = {}\ntimeouts = [\"{}ms\"]\n\n\
         [load]\nkind = \"open\"\nrate = {}\nclients = 10\n\n\
         [server]\nworkers = {}\nservice = \"exponential\"\nmean = \"{mean_ns}ns\"\n\n\
         [[trigger]]\n{trigger}\n\n[[strategy]]\nname = \"no retries\"\nspec = \"none\"\n",
        load.horizon_s, load.seed, load.timeout_ms, load.rate_per_s, WORKERS as u32
    )
}

/// One incident's figures for one client.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figures {
    /// Attempts per new request during the incident.
    pub mean_amplification: f64,
    /// The highest bin's.
    pub peak_amplification: f64,
    /// Seconds from the end of the incident until the server was healthy again
    /// (`None`: not within the horizon).
    pub recovered_s: Option<f64>,
    /// Seconds from the end of the incident until the clients' backlog of retrying
    /// requests was back to its level before it (`None`: not within the horizon).
    pub drained_s: Option<f64>,
    /// Requests that succeeded, of those that ended during the incident.
    pub success_during: f64,
    /// The same from its end to the horizon.
    pub success_after: f64,
}

impl Figures {
    fn of(r: &StormResult) -> Self {
        let s = &r.summary;
        Self {
            mean_amplification: s.during.mean_amplification,
            peak_amplification: s.during.peak_amplification,
            recovered_s: s.recovery.seconds(),
            drained_s: match s.drain {
                crate::recovery::Drain::Drained { after_s } => Some(after_s),
                _ => None,
            },
            success_during: s.during.success_ratio,
            success_after: s.after.success_ratio,
        }
    }
}

/// How the configuration did in an incident.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// No worse than the clients without retries on load and recovery.
    Good,
    /// It multiplies the load, or recovers later than the clients without retries.
    Risky,
    /// It does not recover within the horizon where the clients without retries do:
    /// a metastable failure.
    Fails,
}

impl Verdict {
    /// `good`, `risky`, `fails`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Good => "good",
            Verdict::Risky => "risky",
            Verdict::Fails => "fails",
        }
    }
}

/// The peak amplification from which an incident is risky.
pub const RISKY_PEAK: f64 = 3.0;
/// Seconds of recovery beyond the clients' without retries from which it is risky.
pub const RISKY_LATER_S: f64 = 10.0;

/// One incident of the card.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The incident.
    pub incident: &'static str,
    /// The configuration's figures.
    pub policy: Figures,
    /// The same clients without retries.
    pub baseline: Figures,
    /// The verdict.
    pub verdict: Verdict,
    /// Why, in words.
    pub reason: String,
}

/// The whole card.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Card {
    /// What was read (`gRPC retryPolicy`, ...).
    pub kind: &'static str,
    /// The strategy it was made.
    pub strategy: String,
    /// What the file sets that cannot change the runs.
    pub notes: Vec<String>,
    /// The load.
    pub rate_per_s: f64,
    /// The server's capacity.
    pub capacity_per_s: f64,
    /// The timeout, milliseconds.
    pub timeout_ms: u64,
    /// One row per incident.
    pub rows: Vec<Row>,
}

fn judge(p: &Figures, b: &Figures) -> (Verdict, String) {
    match (p.recovered_s, b.recovered_s) {
        (None, Some(_)) => {
            return (
                Verdict::Fails,
                "never recovers within the horizon (metastable); without retries it does".into(),
            );
        }
        (Some(r), Some(rb)) if r > rb + RISKY_LATER_S => {
            return (
                Verdict::Risky,
                format!(
                    "recovers {:.0} s after the incident, {:.0} s later than without retries",
                    r,
                    r - rb
                ),
            );
        }
        _ => {}
    }
    if p.peak_amplification >= RISKY_PEAK {
        return (
            Verdict::Risky,
            format!(
                "multiplies the load by {:.1} at its peak",
                p.peak_amplification
            ),
        );
    }
    let recovery = match (p.recovered_s, b.recovered_s) {
        (Some(r), Some(rb)) => format!("recovers in {r:.0} s (without retries {rb:.0} s)"),
        _ => "recovers as without retries".to_string(),
    };
    let gain = p.success_during - b.success_during;
    if gain > 0.005 && gain.is_finite() {
        (
            Verdict::Good,
            format!(
                "success during {:.3} against {:.3} without retries, at {:.2}x the load; {recovery}",
                p.success_during, b.success_during, p.mean_amplification
            ),
        )
    } else {
        (
            Verdict::Good,
            format!("{:.2}x the load; {recovery}", p.mean_amplification.max(1.0)),
        )
    }
}

/// Run `p` through every incident at `load`.
///
/// # Errors
///
/// A [`StormError`] for a load the model refuses (a rate or capacity that is not
/// positive, a timeout of 0).
pub fn run(p: &ClientPolicy, load: &CardLoad) -> Result<Card, StormError> {
    let mut strategy = p.strategy.clone();
    if p.kind == policy::GRPC_RETRY && strategy.request_deadline_ns.is_none() {
        // gRPC's deadline covers the whole call: no retry after the timeout.
        strategy.request_deadline_ns = Some(load.timeout_ms.saturating_mul(1_000_000));
    }
    let mut rows = Vec::with_capacity(INCIDENTS.len());
    for incident in INCIDENTS {
        let text = scenario_text(incident, load);
        let opts = Options {
            strategies: Some(vec![Strategy::none().named("no retries"), strategy.clone()]),
            ..Options::default()
        };
        let sc = Source::file("report card", text).scenario(&opts)?;
        let r = run_sequential(&sc)?;
        let (b, q) = (Figures::of(&r.runs[0]), Figures::of(&r.runs[1]));
        let (verdict, reason) = judge(&q, &b);
        rows.push(Row {
            incident,
            policy: q,
            baseline: b,
            verdict,
            reason,
        });
    }
    Ok(Card {
        kind: p.kind,
        strategy: p.strategy.name.clone(),
        notes: p.notes.clone(),
        rate_per_s: load.rate_per_s,
        capacity_per_s: load.capacity_per_s,
        timeout_ms: load.timeout_ms,
        rows,
    })
}

fn opt(x: Option<f64>) -> String {
    x.map_or_else(|| "never".to_string(), |s| format!("{s:.0}"))
}

/// A ratio with three decimals, `-` where nothing ended to take it over.
fn ratio(x: f64) -> String {
    if x.is_nan() {
        "-".into()
    } else {
        format!("{x:.3}")
    }
}

/// The card as a table.
pub fn report(c: &Card) -> String {
    let mut s = String::new();
    let what = if c.strategy == c.kind {
        c.kind.to_string()
    } else {
        format!("{} ({})", c.kind, c.strategy)
    };
    let _ = writeln!(
        s,
        "report card: {what} at {} requests/s on a server of {} requests/s, timeout {} ms",
        c.rate_per_s, c.capacity_per_s, c.timeout_ms
    );
    for n in &c.notes {
        let _ = writeln!(s, "note: {n}");
    }
    let _ = writeln!(
        s,
        "\n{:<9} {:>6} {:>6} {:>9} {:>7} {:>8} {:>8} | {:>9} {:>8}  verdict",
        "incident", "amp~", "amp^", "recover s", "drain s", "succ~", "succ>", "recover s", "succ~"
    );
    let _ = writeln!(
        s,
        "{:<9} {:<58} | {:<19}",
        "", "with the configuration", "without retries"
    );
    for r in &c.rows {
        let (p, b) = (&r.policy, &r.baseline);
        let _ = writeln!(
            s,
            "{:<9} {:>6.2} {:>6.2} {:>9} {:>7} {:>8} {:>8} | {:>9} {:>8}  {}: {}",
            r.incident,
            p.mean_amplification,
            p.peak_amplification,
            opt(p.recovered_s),
            opt(p.drained_s),
            ratio(p.success_during),
            ratio(p.success_after),
            opt(b.recovered_s),
            ratio(b.success_during),
            r.verdict.name(),
            r.reason
        );
    }
    let _ = writeln!(
        s,
        "\namp = attempts per new request during the incident (~ mean, ^ peak bin); recover s = seconds after it until the server is healthy; drain s = until the clients' backlog of retrying requests is back to its level before; succ = success ratio during (~) and after (>) it.\nrisky: a peak of {RISKY_PEAK}x or more, or a recovery {RISKY_LATER_S} s later than without retries; fails: no recovery within the horizon where the clients without retries recover."
    );
    s
}

/// The card as CSV, one row per incident.
pub fn csv(c: &Card) -> String {
    let mut s = String::from(
        "incident,mean_amplification,peak_amplification,recovered_s,drained_s,success_during_ratio,success_after_ratio,baseline_recovered_s,baseline_success_during_ratio,verdict,reason\n",
    );
    let o = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
    let n = |x: f64| {
        if x.is_nan() {
            String::new()
        } else {
            x.to_string()
        }
    };
    for r in &c.rows {
        let (p, b) = (&r.policy, &r.baseline);
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},\"{}\"",
            r.incident,
            p.mean_amplification,
            p.peak_amplification,
            o(p.recovered_s),
            o(p.drained_s),
            n(p.success_during),
            n(p.success_after),
            o(b.recovered_s),
            n(b.success_during),
            r.verdict.name(),
            r.reason.replace('"', "\"\"")
        );
    }
    s
}
