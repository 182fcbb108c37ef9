//! Scenario files: a retry-storm experiment written in TOML — the load, the server,
//! the triggers, the strategies to compare, the recovery rule, the horizon and bins —
//! read into a [`Comparison`]. Every shipped preset is one of these files
//! ([`crate::presets`]); `mac-sim storm --scenario PATH` reads a user's.
//!
//! A file that cannot be used gives one [`FileError`]: the file, the line, the key and
//! what is wrong with it. Unknown keys are refused, so a misspelt key is never ignored.
//!
//! ```
//! use retry_storm::file::parse;
//! let text = r#"
//! horizon = "60s"
//! [load]
//! kind = "open"
//! rate = 50.0
//! clients = 10
//! [server]
//! workers = 20
//! service = "exponential"
//! mean = "100ms"
//! [[trigger]]
//! kind = "outage"
//! start = "20s"
//! end = "30s"
//! [[strategy]]
//! spec = "exp-full+retries=3"
//! "#;
//! let sc = parse(text, "mine.toml").unwrap();
//! assert_eq!((sc.name.as_str(), sc.runs.len()), ("mine", 1));
//! let bad = parse(&text.replace("rate", "rat"), "mine.toml").unwrap_err();
//! assert_eq!(bad.to_string().lines().count(), 1);
//! assert!(bad.to_string().starts_with("mine.toml:5: rat: "), "{bad}");
//! ```

use sim_kit::locate;
mod contention;
mod keys;
mod schema;
mod set;

pub use contention::{ContentionScenario, Experiment, parse_contention, parse_experiment};
pub use keys::{KeyDoc, TABLES, TableDoc, reference};
pub use set::Setting;
pub(crate) use set::resolve;

/// Read the storm scenario in `text` with `settings` on top (`--set`, see
/// [`Setting`]): as [`parse`] reads the file with each set key's value replaced or
/// added.
///
/// # Errors
///
/// As [`parse`], the error naming the setting when its value is at fault; a
/// [`FileError`] naming a setting whose key no file has or whose table this file
/// lacks (or has several of, without saying which).
pub fn parse_with(text: &str, origin: &str, settings: &[Setting]) -> Result<Comparison, FileError> {
    set::apply(text, origin, settings, parse)
}

/// Read the file of either kind in `text` with `settings` on top, as
/// [`parse_with`] reads a storm scenario.
///
/// # Errors
///
/// As [`parse_experiment`] and [`parse_with`].
pub fn parse_experiment_with(
    text: &str,
    origin: &str,
    settings: &[Setting],
) -> Result<Experiment, FileError> {
    set::apply(text, origin, settings, parse_experiment)
}

/// Read the contention experiment in `text` with `settings` on top, as
/// [`parse_with`] reads a storm scenario.
///
/// # Errors
///
/// As [`parse_contention`] and [`parse_with`].
pub fn parse_contention_with(
    text: &str,
    origin: &str,
    settings: &[Setting],
) -> Result<ContentionScenario, FileError> {
    set::apply(text, origin, settings, parse_contention)
}

use crate::comparison::Comparison;
use crate::config::{
    ChainLayer, ErrorWork, Latency, Load, PauseIntake, RecoveryRule, RejectAnswer, ServerConfig,
    ServiceTime, Slowdown, StormConfig, Trigger, TriggerKind, WhenBusy,
};
use crate::error::{FileError, FileProblem, Param, StormError};
use crate::shedding::RateLimit;
use crate::strategy::Strategy;
use schema::{
    LatencyName, LoadKind, PauseIntakeName, RejectAnswerName, ServiceKind, TriggerKindName,
    WhenBusyName,
};
use sim_kit::time::Time;

/// `t` in the largest unit that writes it whole (`50ms`, `1500us`).
fn duration_text(t: Time) -> String {
    let ns = t.as_ns();
    match [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "us")]
        .into_iter()
        .find(|&(unit, _)| ns % unit == 0)
    {
        Some((unit, name)) => format!("{}{name}", ns / unit),
        None => format!("{ns}ns"),
    }
}

/// Read the scenario in `text`; `origin` names the file in errors and, without a
/// `name` key, gives the scenario its name (the file's stem).
///
/// # Errors
///
/// A [`FileError`] with the line and key: TOML that cannot be read, an unknown key, a
/// value of the wrong type or out of range, a key missing for the chosen kind or
/// given for another one, or a strategy specification that cannot be used.
pub fn parse(text: &str, origin: &str) -> Result<Comparison, FileError> {
    let at = |table: &str, index: usize, key: &str, problem: FileProblem| FileError {
        file: origin.to_string(),
        line: Some(locate::line_of_key(text, table, index, key)),
        key: key.to_string(),
        problem,
    };
    if experiment_of(text, origin)? == Some(schema::ExperimentName::Contention) {
        let problem = FileProblem::OtherExperiment {
            is: "contention experiment",
            wanted: "storm scenario",
        };
        return Err(at("", 0, "experiment", problem));
    }
    let f: schema::File = toml::from_str(text).map_err(|e| toml_error(text, origin, &e))?;
    let missing = |table: &str, key: &str| at(table, 0, key, FileProblem::Missing);
    let unused = |table: &str, key: &str| at(table, 0, key, FileProblem::NotForKind);
    let l = &f.load;
    if l.kind != LoadKind::Capped {
        if l.when_busy.is_some() {
            return Err(unused("load", "when_busy"));
        }
        if l.wait_limit.is_some() {
            return Err(unused("load", "wait_limit"));
        }
    }
    let load = match l.kind {
        LoadKind::Open | LoadKind::Capped => {
            if l.think.is_some() {
                return Err(unused("load", "think"));
            }
            let rate_per_s = l.rate.ok_or_else(|| missing("load", "rate"))?;
            if l.kind == LoadKind::Open {
                Load::Open {
                    rate_per_s,
                    clients: l.clients,
                }
            } else {
                let when_busy = match l.when_busy {
                    Some(WhenBusyName::Wait) => WhenBusy::Wait {
                        limit: l.wait_limit.unwrap_or(WhenBusy::DEFAULT_LIMIT),
                    },
                    Some(WhenBusyName::TurnAway) | None => {
                        if l.wait_limit.is_some() {
                            // The kind is right; the line is for arrivals that wait.
                            let problem = FileProblem::OnlyWith(
                                "when_busy = \"wait\" (arrivals turned away form no line)",
                            );
                            return Err(at("load", 0, "wait_limit", problem));
                        }
                        WhenBusy::TurnAway
                    }
                };
                Load::Capped {
                    rate_per_s,
                    max_active: l.clients,
                    when_busy,
                }
            }
        }
        LoadKind::Closed => {
            if l.rate.is_some() {
                return Err(unused("load", "rate"));
            }
            Load::Closed {
                clients: l.clients,
                think_ps: l.think.ok_or_else(|| missing("load", "think"))?.0,
            }
        }
    };
    let s = &f.server;
    // Error work: a time or a fraction, not both, checked where it is written.
    let error_work = |table: &str, i: usize, time: Option<schema::Duration>, fraction| {
        let w = match (time, fraction) {
            (Some(_), Some(_)) => {
                let e = StormError::param(Param::ErrorWorkBoth, "");
                return Err(at(
                    table,
                    i,
                    "error_work_fraction",
                    FileProblem::Invalid(Box::new(e)),
                ));
            }
            (Some(t), None) => Some(ErrorWork::Time(t.0)),
            (None, Some(f)) => Some(ErrorWork::Fraction(f)),
            (None, None) => None,
        };
        let key = if time.is_some() {
            "error_work"
        } else {
            "error_work_fraction"
        };
        match w.as_ref().map(ErrorWork::check) {
            Some(Err(e)) => Err(at(table, i, key, FileProblem::Invalid(Box::new(e)))),
            _ => Ok(w),
        }
    };
    if s.sigma.is_some() && s.service != ServiceKind::LogNormal {
        return Err(unused("server", "sigma"));
    }
    // A Retry-After is carried by a rejection; without load shedding or a rate
    // limiter nothing rejects, and the key would be silently ignored.
    // (With another reject_answer, the model's own check names the mismatch.)
    if s.retry_after.is_some()
        && s.queue_limit.is_none()
        && s.rate_limit.is_none()
        && matches!(s.reject_answer, None | Some(RejectAnswerName::RetryAfter))
    {
        let problem =
            FileProblem::OnlyWith("something that rejects (queue_limit or [server.rate_limit])");
        return Err(at("server", 0, "retry_after", problem));
    }
    let server = ServerConfig {
        workers: s.workers,
        service: match s.service {
            ServiceKind::Fixed => ServiceTime::Fixed(s.mean.0),
            ServiceKind::Exponential => ServiceTime::Exponential(s.mean.0),
            ServiceKind::LogNormal => ServiceTime::LogNormal {
                mean: s.mean.0,
                sigma: s.sigma.ok_or_else(|| missing("server", "sigma"))?,
            },
        },
        slowdown: s.slowdown.as_ref().map(|d| Slowdown {
            limit: d.limit,
            factor: d.factor,
            k: d.step,
            max_ps: d.max.0,
        }),
        error_ps: s.error_time.map_or(Time::from_ms(1), |d| d.0),
        error_work: error_work("server", 0, s.error_work, s.error_work_fraction)?,
        rtt_ps: s.rtt.map_or(Time::ZERO, |d| d.0),
        queue_limit: s.queue_limit,
        listen_backlog: s.listen_backlog,
        pause_intake: match s.pause_intake {
            None | Some(PauseIntakeName::Backlog) => PauseIntake::Backlog,
            Some(PauseIntakeName::Unbounded) => PauseIntake::Unbounded,
        },
        rate_limit: s.rate_limit.as_ref().map(|r| RateLimit {
            per_s: r.per_s,
            burst: r.burst,
        }),
        retry_after_ps: s.retry_after.map_or(Time::ZERO, |d| d.0),
        reject_answer: match s.reject_answer {
            None | Some(RejectAnswerName::RetryAfter) => RejectAnswer::RetryAfter,
            Some(RejectAnswerName::Error) => RejectAnswer::Error,
            Some(RejectAnswerName::DoNotRetry) => RejectAnswer::DoNotRetry,
        },
        latency: match s.latency {
            None | Some(LatencyName::AtStart) => Latency::AtStart,
            Some(LatencyName::ReEvaluated) => Latency::ReEvaluated,
        },
    };
    let mut triggers = Vec::with_capacity(f.trigger.len());
    for (i, t) in f.trigger.iter().enumerate() {
        let need = |key| at("trigger", i, key, FileProblem::Missing);
        let extra: &[(&str, bool)] = &[
            ("fraction", t.fraction.is_some()),
            ("shards", t.shards.is_some()),
            ("failing", t.failing.is_some()),
            ("factor", t.factor.is_some()),
            ("added", t.added.is_some()),
            ("error_work", t.error_work.is_some()),
            ("error_work_fraction", t.error_work_fraction.is_some()),
        ];
        let kind = match t.kind {
            TriggerKindName::Outage => TriggerKind::Outage,
            TriggerKindName::Pause => TriggerKind::Pause,
            TriggerKindName::Partial => TriggerKind::Partial {
                fraction: t.fraction.ok_or_else(|| need("fraction"))?,
            },
            TriggerKindName::Shard => TriggerKind::Shard {
                shards: t.shards.ok_or_else(|| need("shards"))?,
                failing: t.failing.ok_or_else(|| need("failing"))?,
            },
            TriggerKindName::CapacityLoss => TriggerKind::CapacityLoss {
                fraction: t.fraction.ok_or_else(|| need("fraction"))?,
            },
            TriggerKindName::LoadSpike => TriggerKind::LoadSpike {
                factor: t.factor.ok_or_else(|| need("factor"))?,
            },
            TriggerKindName::Overloaded => TriggerKind::Overloaded,
            TriggerKindName::Slow => TriggerKind::Slow {
                added: t.added.ok_or_else(|| need("added"))?.0,
                fraction: t.fraction.unwrap_or(1.0),
            },
        };
        const WORK: [&str; 2] = ["error_work", "error_work_fraction"];
        let uses: &[&str] = match kind {
            TriggerKind::Partial { .. } => &["fraction", WORK[0], WORK[1]],
            TriggerKind::CapacityLoss { .. } => &["fraction"],
            TriggerKind::LoadSpike { .. } => &["factor"],
            TriggerKind::Shard { .. } => &["shards", "failing", WORK[0], WORK[1]],
            TriggerKind::Outage => &WORK,
            TriggerKind::Slow { .. } => &["added", "fraction"],
            TriggerKind::Pause | TriggerKind::Overloaded => &[],
        };
        if let Some((key, _)) = extra.iter().find(|(k, set)| *set && !uses.contains(k)) {
            return Err(at("trigger", i, key, FileProblem::NotForKind));
        }
        triggers.push(Trigger {
            start_ps: t.start.0,
            end_ps: t.end.0,
            kind,
            error_work: error_work("trigger", i, t.error_work, t.error_work_fraction)?,
        });
    }
    let d = RecoveryRule::default();
    let recovery = f.recovery.as_ref().map_or(d, |r| RecoveryRule {
        success_fraction: r.success_fraction.unwrap_or(d.success_fraction),
        conc_factor: r.concurrency_factor.unwrap_or(d.conc_factor),
        conc_slack: r.concurrency_slack.unwrap_or(d.conc_slack),
        sustain_ps: r.sustain.map_or(d.sustain_ps, |s| s.0),
    });
    let times = |v: &Option<Vec<schema::Duration>>| {
        v.as_ref()
            .map(|ts| ts.iter().map(|d| d.0).collect::<Vec<_>>())
    };
    let mut chain = Vec::with_capacity(f.chain.len());
    for (i, c) in f.chain.iter().enumerate() {
        let strategy = Strategy::parse(&c.spec)
            .map_err(|e| at("chain", i, "spec", FileProblem::Invalid(Box::new(e))))?;
        chain.push(ChainLayer {
            name: c.name.clone(),
            strategy: strategy.named(&c.name),
            spec: c.spec.clone(),
            timeout_ps: c.timeout.0,
            overloaded: c.overloaded.unwrap_or(false),
        });
    }
    let base = StormConfig {
        chain,
        load,
        server,
        timeouts_ps: times(&f.timeouts).unwrap_or_else(|| vec![Time::from_secs(1)]),
        users: f.users.unwrap_or(1000),
        triggers,
        strategy: Strategy::none(),
        horizon_ps: f.horizon.0,
        bin_ps: f.bin.map_or(Time::from_secs(1), |b| b.0),
        warmup_ps: f.warmup.map_or(Time::from_secs(5), |w| w.0),
        recovery,
        defaulted: crate::config::Defaulted {
            warmup: f.warmup.is_none(),
            sustain: f.recovery.as_ref().is_none_or(|r| r.sustain.is_none()),
        },
        seed: f.seed.unwrap_or(1),
    };
    base.validate().map_err(|e| {
        let (table, key) = match &e {
            // The expected requests: the rate of an open or capped load drives them.
            StormError::Param {
                param: Param::Requests,
                ..
            } if l.rate.is_some() => ("load", "rate"),
            StormError::Param {
                param: Param::NeedsWorkers,
                value,
            } if value == "listen_backlog" => ("server", "listen_backlog"),
            StormError::Param {
                param: Param::NeedsWorkers,
                ..
            } => ("server", "queue_limit"),
            StormError::Param { param, .. } => key_of(*param),
            StormError::Warmup { .. } => ("", "warmup"),
            StormError::Sustain { .. } => ("recovery", "sustain"),
            _ => ("", ""),
        };
        // The first trigger that alone gives the same error, for a trigger's key.
        let index = if table == "trigger" {
            (0..base.triggers.len())
                .find(|&i| {
                    let one = StormConfig {
                        triggers: vec![base.triggers[i]],
                        ..base.clone()
                    };
                    one.validate().err().as_ref() == Some(&e)
                })
                .unwrap_or(0)
        } else {
            0
        };
        at(table, index, key, FileProblem::Invalid(Box::new(e)))
    })?;
    if f.strategy.is_empty() {
        return Err(at("", 0, "strategy", FileProblem::Missing));
    }
    let mut runs = Vec::with_capacity(f.strategy.len());
    for (i, st) in f.strategy.iter().enumerate() {
        let invalid = |key, e| at("strategy", i, key, FileProblem::Invalid(Box::new(e)));
        let strategy = Strategy::parse(&st.spec).map_err(|e| invalid("spec", e))?;
        // `jitter_sigma` is the part `sigma=DUR` of the spec, named with the key.
        let strategy = match st.jitter_sigma {
            Some(sigma) => {
                let spec = format!("{}+sigma={}", st.spec, duration_text(sigma.0));
                Strategy::parse(&spec).map_err(|e| invalid("jitter_sigma", e))?
            }
            None => strategy,
        };
        let strategy = match &st.name {
            Some(n) => strategy.named(n),
            None => strategy,
        };
        let run = StormConfig {
            strategy,
            timeouts_ps: times(&st.timeouts).unwrap_or_else(|| base.timeouts_ps.clone()),
            ..base.clone()
        };
        run.validate().map_err(|e| invalid("timeouts", e))?;
        runs.push(run);
    }
    let stem = std::path::Path::new(origin)
        .file_stem()
        .map_or_else(|| origin.to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Comparison {
        name: f.name.unwrap_or(stem),
        title: f.title.unwrap_or_default(),
        expectation: f.expectation.unwrap_or_default(),
        runs,
    })
}

/// Whether `text` says it is a contention experiment.
pub(crate) fn is_contention(text: &str, origin: &str) -> bool {
    matches!(
        experiment_of(text, origin),
        Ok(Some(schema::ExperimentName::Contention))
    )
}

/// The top-level `experiment` key of `text`, read before the rest: `None` when it is
/// absent or the TOML cannot be read at all (the schema's reading then names the
/// problem).
///
/// # Errors
///
/// A [`FileError`] on the key's line for a value that names no experiment.
fn experiment_of(text: &str, origin: &str) -> Result<Option<schema::ExperimentName>, FileError> {
    match toml::from_str::<schema::Head>(text) {
        Ok(h) => Ok(h.experiment),
        Err(e) if toml::from_str::<toml::Table>(text).is_ok() => Err(FileError {
            file: origin.to_string(),
            line: Some(locate::line_of_key(text, "", 0, "experiment")),
            key: "experiment".to_string(),
            problem: FileProblem::Toml(e.message().to_string()),
        }),
        Err(_) => Ok(None),
    }
}

/// The error of TOML in `text` (from `origin`) that serde cannot read: its line, and
/// the key it names or the key on that line.
fn toml_error(text: &str, origin: &str, e: &toml::de::Error) -> FileError {
    let line = e.span().map_or(1, |s| locate::line_of(text, s.start));
    let message = e.message().to_string();
    let key = field_named(&message).unwrap_or_else(|| locate::key_on_line(text, line));
    FileError {
        file: origin.to_string(),
        line: Some(line),
        key,
        problem: FileProblem::Toml(message),
    }
}

/// The field named in a serde message (`unknown field `rat`, expected ...`).
fn field_named(message: &str) -> Option<String> {
    let rest = message.split_once("field `")?.1;
    Some(rest.split_once('`')?.0.to_string())
}

/// The table and key that hold a parameter in a file.
fn key_of(p: Param) -> (&'static str, &'static str) {
    use Param::*;
    match p {
        RequestRate => ("load", "rate"),
        ThinkTime => ("load", "think"),
        Clients | Requests => ("load", "clients"),
        WaitLimit => ("load", "wait_limit"),
        Workers => ("server", "workers"),
        ServiceTime => ("server", "mean"),
        ServiceSigma => ("server", "sigma"),
        SlowdownFactor => ("server.slowdown", "factor"),
        SlowdownStep => ("server.slowdown", "step"),
        SlowdownMax => ("server.slowdown", "max"),
        Timeout => ("", "timeouts"),
        Chain => ("chain", "name"),
        Latency => ("server", "latency"),
        RetryAfter => ("server", "retry_after"),
        RateLimitRate => ("server.rate_limit", "per_s"),
        RateLimitBurst => ("server.rate_limit", "burst"),
        Users => ("", "users"),
        HorizonOrBin | Bins => ("", "bin"),
        Horizon => ("", "horizon"),
        TriggerWindow | TriggerEnd => ("trigger", "end"),
        FailureFraction => ("trigger", "fraction"),
        SpikeFactor => ("trigger", "factor"),
        CapacityLossWorkers => ("server", "workers"),
        FailingShard => ("trigger", "failing"),
        Shards => ("trigger", "shards"),
        RecoverySuccess => ("recovery", "success_fraction"),
        RecoveryConcurrencyFactor => ("recovery", "concurrency_factor"),
        RecoveryConcurrencySlack => ("recovery", "concurrency_slack"),
        RecoverySustain => ("recovery", "sustain"),
        _ => ("", ""),
    }
}

#[cfg(test)]
mod tests;
