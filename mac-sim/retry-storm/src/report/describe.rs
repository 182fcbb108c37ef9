//! What the scenarios are: the list of presets with what each should show, and a
//! run's parameters in one line.

use std::fmt::Write as _;

use super::format::{secs, style_num};
use crate::config::{ErrorWork, Latency, Load, ServiceTime, StormConfig, TriggerKind, WhenBusy};
use crate::{contention, presets};

/// The scenarios with their one-line descriptions and expected outcomes.
pub fn list() -> String {
    let mut s = String::from("mac-sim storm scenarios (--scenario NAME):\n");
    for name in presets::NAMES {
        if let Ok(sc) = presets::scenario(name, &presets::Options::default()) {
            let _ = writeln!(
                s,
                "\n  {name}\n    {}\n    expected: {}",
                sc.title, sc.expectation
            );
            let names: Vec<&str> = sc.runs.iter().map(|r| r.strategy.name.as_str()).collect();
            let _ = writeln!(s, "    strategies: {}", names.join("; "));
        }
    }
    let _ = writeln!(
        s,
        "\n  {}\n    N clients update one record under optimistic concurrency; calls and completion time per jitter kind",
        contention::NAME
    );
    s
}

/// The parameters of a run in one line: load, server, timeouts, trigger, seed,
/// horizon and bins (what the title of a preset says, after any changes).
pub fn describe(c: &StormConfig) -> String {
    let load = match c.load {
        Load::Open {
            rate_per_s,
            clients,
        } => format!(
            "open loop {} requests/s from {clients} clients",
            style_num(rate_per_s)
        ),
        Load::Closed { clients, think_ps } => {
            format!(
                "closed loop, {clients} clients thinking {} (mean)",
                secs(think_ps)
            )
        }
        Load::Capped {
            rate_per_s,
            max_active,
            when_busy,
        } => format!(
            "open loop {} requests/s, at most {max_active} active clients{}",
            style_num(rate_per_s),
            match when_busy {
                WhenBusy::TurnAway => String::new(),
                WhenBusy::Wait { limit } => format!(" (at most {limit} arrivals wait)"),
            }
        ),
    };
    let service = match c.server.service {
        ServiceTime::Fixed(t) => secs(t),
        ServiceTime::Exponential(t) => format!("exp. mean {}", secs(t)),
        ServiceTime::LogNormal { mean, sigma } => {
            format!("lognormal mean {} sigma {}", secs(mean), style_num(sigma))
        }
    };
    let work = |w: ErrorWork| match w {
        ErrorWork::Time(t) => format!("errors hold a worker {}", secs(t)),
        ErrorWork::Fraction(f) => {
            format!("errors hold a worker {} of a service time", style_num(f))
        }
    };
    let mut server = match c.server.workers {
        Some(w) => format!("{w} workers x {service}"),
        None => format!("latency {service}"),
    };
    if let Some(sl) = c.server.slowdown {
        let _ = write!(
            server,
            ", x{}^((concurrency - {})/{}) above {} (at most {})",
            style_num(sl.factor),
            sl.limit,
            style_num(sl.k),
            sl.limit,
            secs(sl.max_ps)
        );
        if c.server.latency == Latency::ReEvaluated {
            server.push_str(", re-evaluated while it runs");
        }
    }
    if let Some(w) = c.server.error_work {
        let _ = write!(server, ", {}", work(w));
    }
    if !c.server.rtt_ps.is_zero() {
        let _ = write!(server, ", round trip {}", secs(c.server.rtt_ps));
    }
    let timeouts: Vec<String> = c.timeouts_ps.iter().map(|&t| secs(t)).collect();
    let triggers: Vec<String> = c
        .triggers
        .iter()
        .map(|t| {
            let what = match t.kind {
                TriggerKind::Outage => "outage".to_string(),
                TriggerKind::Pause => "pause".to_string(),
                TriggerKind::Partial { fraction } => {
                    format!("{} % of requests fail", style_num(fraction * 100.0))
                }
                TriggerKind::Shard { shards, failing } => {
                    format!("shard {failing} of {shards} fails")
                }
                TriggerKind::CapacityLoss { fraction } => {
                    format!("{} % of the workers lost", style_num(fraction * 100.0))
                }
                TriggerKind::LoadSpike { factor } => {
                    format!("load x {}", style_num(factor))
                }
                TriggerKind::Overloaded => "overloaded, do not retry".to_string(),
                TriggerKind::Slow { added, fraction } => format!(
                    "{} % of requests {} slower",
                    style_num(fraction * 100.0),
                    secs(added)
                ),
            };
            let own = t.error_work.map(|w| format!(" ({})", work(w)));
            format!(
                "{what} from {} to {}{}",
                secs(t.start_ps),
                secs(t.end_ps),
                own.unwrap_or_default()
            )
        })
        .collect();
    let trigger = if triggers.is_empty() {
        "no trigger".to_string()
    } else {
        triggers.join(", ")
    };
    format!(
        "{load}; {server}; timeout {}; {trigger}; seed {}, horizon {}, bins of {}",
        timeouts.join("/"),
        c.seed,
        secs(c.horizon_ps),
        secs(c.bin_ps)
    )
}
