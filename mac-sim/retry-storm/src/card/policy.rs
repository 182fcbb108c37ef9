//! A client's retry configuration as the report card reads it: a gRPC service config
//! (JSON: `methodConfig[].retryPolicy` or `hedgingPolicy`, `retryThrottling`; gRFC
//! A6), an AWS SDK config profile (`retry_mode`, `max_attempts`; the SDKs' retry
//! behaviour reference), or a strategy of this project (one line of `+`-joined
//! parts), each made the [`Strategy`] the storm model runs.
//!
//! The mapping, and what it leaves out:
//!
//! | source | strategy |
//! |---|---|
//! | `retryPolicy` | backoff-core's `presets::grpc_retry` (`maxAttempts` capped at 5, `initialBackoff · backoffMultiplier^n` up to `maxBackoff`, × U(0.8, 1.2)); the server's Retry-After and "overloaded" answers honoured as gRPC honours pushback |
//! | `hedgingPolicy` | `hedge=hedgingDelay+hedge-attempts=maxAttempts` |
//! | `retryThrottling` | `tokens=maxTokens/tokenRatio` |
//! | `timeout` | the call's deadline, after which no retry starts (`deadline=DUR`); without one, the card's timeout, as gRPC's deadline covers every attempt |
//! | `retry_mode = standard` | full jitter from 1 s doubling to 20 s (botocore's `delay = min(random() · 2^(n-1), 20 s)`), `max_attempts` (3), the retry quota of 500 tokens |
//! | `retry_mode = adaptive` | the same and the client-side rate limiter (`adaptive`) |
//!
//! Every failure of the incidents is gRPC's `UNAVAILABLE` (and an AWS transient
//! error), so a `retryPolicy` must retry `UNAVAILABLE` (a `hedgingPolicy` must hold it
//! non-fatal). Keys that cannot change what the model does (`name`, `waitForReady`,
//! message sizes, load balancing; an AWS profile's `region`) are named in the notes;
//! a key it cannot express (`perAttemptRecvTimeout`, `retry_mode = legacy`) is
//! refused with its line.

use serde_json::{Map, Value};

use crate::error::{FileError, FileProblem, StormError};
use crate::strategy::{BudgetSpec, HedgeSpec, Strategy};

/// [`ClientPolicy::kind`] of a gRPC `retryPolicy`.
pub const GRPC_RETRY: &str = "gRPC retryPolicy";

/// A client's configuration, made a strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientPolicy {
    /// What was read: `gRPC retryPolicy`, `AWS standard`, `strategy`.
    pub kind: &'static str,
    /// The strategy the storm runs (named after the source).
    pub strategy: Strategy,
    /// What the file sets that cannot change the model's runs, one note each.
    pub notes: Vec<String>,
}

/// Read `text` (the file `file`): JSON if it starts with `{`, an AWS config profile if
/// it has a `[section]`, else a strategy on its first line that is not a comment.
///
/// # Errors
///
/// [`StormError::File`] naming the file, the line and the key of what cannot be read
/// or expressed.
pub fn parse(text: &str, file: &str) -> Result<ClientPolicy, StormError> {
    let t = text.trim_start();
    if t.starts_with('{') {
        grpc(text, file)
    } else if text.lines().any(|l| l.trim_start().starts_with('[')) {
        aws(text, file)
    } else {
        spec(text, file)
    }
}

fn refuse(file: &str, text: &str, key: &str, why: impl Into<String>) -> StormError {
    StormError::from(FileError {
        file: file.to_string(),
        line: line_of(text, key),
        key: key.to_string(),
        problem: FileProblem::Policy(why.into()),
    })
}

/// The first line (1-based) where `key` stands as a JSON key or an INI key.
fn line_of(text: &str, key: &str) -> Option<usize> {
    let quoted = format!("\"{key}\"");
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            l.contains(&quoted)
                || l.starts_with(key) && l[key.len()..].trim_start().starts_with('=')
        })
        .map(|i| i + 1)
}

fn spec(text: &str, file: &str) -> Result<ClientPolicy, StormError> {
    let Some((i, line)) = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i, l.trim()))
        .find(|(_, l)| !l.is_empty() && !l.starts_with('#'))
    else {
        return Err(StormError::from(FileError {
            file: file.to_string(),
            line: None,
            key: "strategy".into(),
            problem: FileProblem::Policy("the file is empty: give a strategy (exp-full+retries=3), a gRPC service config or an AWS config profile".into()),
        }));
    };
    let strategy = Strategy::parse(line).map_err(|e| {
        StormError::from(FileError {
            file: file.to_string(),
            line: Some(i + 1),
            key: "strategy".into(),
            problem: FileProblem::Invalid(Box::new(e)),
        })
    })?;
    Ok(ClientPolicy {
        kind: "strategy",
        strategy: strategy.named(line),
        notes: Vec::new(),
    })
}

/// A key of a JSON object by its proto name, or with its first letter upper-case as
/// grpc-go's example writes it (`MaxAttempts`).
fn get<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    m.get(key).or_else(|| {
        let mut c = key.chars();
        let upper: String = c
            .next()
            .map(|f| f.to_ascii_uppercase())
            .into_iter()
            .chain(c)
            .collect();
        m.get(&upper)
    })
}

fn known(m: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    m.keys()
        .find(|k| !keys.iter().any(|x| x.eq_ignore_ascii_case(k)))
        .cloned()
}

/// A proto3 JSON duration: decimal seconds with an `s` (`"0.1s"`, `".5s"`, `"1s"`), in
/// nanoseconds.
fn duration_ns(v: &Value) -> Option<u64> {
    let s = v.as_str()?.strip_suffix('s')?;
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if frac.len() > 9
        || !whole
            .chars()
            .chain(frac.chars())
            .all(|c| c.is_ascii_digit())
        || (whole.is_empty() && frac.is_empty())
    {
        return None;
    }
    let secs: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let nanos: u64 = format!("{frac:0<9}").parse().ok()?;
    secs.checked_mul(1_000_000_000)?.checked_add(nanos)
}

/// A positive decimal with at most three places, in thousandths.
fn thousandths(v: &Value) -> Option<u32> {
    let x = v.as_f64()?;
    let t = (x * 1000.0).round();
    (x > 0.0 && (x * 1000.0 - t).abs() < 1e-6 && t <= f64::from(u32::MAX)).then_some(t as u32)
}

fn codes_hold_unavailable(v: Option<&Value>) -> bool {
    v.and_then(Value::as_array).is_some_and(|a| {
        a.iter().any(|c| {
            c.as_str()
                .is_some_and(|s| s.eq_ignore_ascii_case("UNAVAILABLE"))
                || c.as_u64() == Some(14)
        })
    })
}

fn grpc(text: &str, file: &str) -> Result<ClientPolicy, StormError> {
    let root: Value = serde_json::from_str(text).map_err(|e| {
        StormError::from(FileError {
            file: file.to_string(),
            line: Some(e.line()),
            key: String::new(),
            problem: FileProblem::Policy(format!("not JSON: {e}")),
        })
    })?;
    let Some(root) = root.as_object() else {
        return Err(refuse(
            file,
            text,
            "methodConfig",
            "a service config is a JSON object",
        ));
    };
    let mut notes = Vec::new();
    for k in root.keys() {
        match k.as_str() {
            "methodConfig" | "retryThrottling" => {}
            "loadBalancingConfig" | "loadBalancingPolicy" | "healthCheckConfig" => {
                notes.push(format!("{k}: no effect in the model (one server)"));
            }
            _ => return Err(refuse(file, text, k, "not a key of gRPC's service config")),
        }
    }
    let configs = root.get("methodConfig").and_then(Value::as_array);
    let with_policy: Vec<&Map<String, Value>> = configs
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .filter(|m| get(m, "retryPolicy").is_some() || get(m, "hedgingPolicy").is_some())
        .collect();
    let m = match with_policy.as_slice() {
        [m] => *m,
        [] => {
            return Err(refuse(
                file,
                text,
                "methodConfig",
                "no methodConfig has a retryPolicy or a hedgingPolicy: nothing to score",
            ));
        }
        _ => {
            return Err(refuse(
                file,
                text,
                "methodConfig",
                "more than one methodConfig has a policy: give the one to score",
            ));
        }
    };
    if let Some(k) = known(
        m,
        &[
            "name",
            "retryPolicy",
            "hedgingPolicy",
            "timeout",
            "waitForReady",
            "maxRequestMessageBytes",
            "maxResponseMessageBytes",
        ],
    ) {
        return Err(refuse(file, text, &k, "not a key of a methodConfig"));
    }
    for k in [
        "waitForReady",
        "maxRequestMessageBytes",
        "maxResponseMessageBytes",
    ] {
        if get(m, k).is_some() {
            notes.push(format!("{k}: no effect in the model"));
        }
    }
    let mut s = Strategy::none();
    let kind = match (get(m, "retryPolicy"), get(m, "hedgingPolicy")) {
        (Some(_), Some(_)) => {
            return Err(refuse(
                file,
                text,
                "hedgingPolicy",
                "a methodConfig has a retryPolicy or a hedgingPolicy, not both (gRFC A6)",
            ));
        }
        (Some(p), None) => {
            let p = p
                .as_object()
                .ok_or_else(|| refuse(file, text, "retryPolicy", "must be an object"))?;
            if let Some(k) = known(
                p,
                &[
                    "maxAttempts",
                    "initialBackoff",
                    "maxBackoff",
                    "backoffMultiplier",
                    "retryableStatusCodes",
                ],
            ) {
                return Err(refuse(
                    file,
                    text,
                    &k,
                    "not a key of a retryPolicy the model can express",
                ));
            }
            let attempts = get(p, "maxAttempts")
                .and_then(Value::as_u64)
                .filter(|&n| n >= 2)
                .ok_or_else(|| {
                    refuse(
                        file,
                        text,
                        "maxAttempts",
                        "required, a whole number of at least 2",
                    )
                })?;
            let initial = get(p, "initialBackoff")
                .and_then(duration_ns)
                .filter(|&d| d > 0)
                .ok_or_else(|| {
                    refuse(
                        file,
                        text,
                        "initialBackoff",
                        "required, a positive duration such as \"0.1s\"",
                    )
                })?;
            let max = get(p, "maxBackoff")
                .and_then(duration_ns)
                .filter(|&d| d > 0)
                .ok_or_else(|| {
                    refuse(
                        file,
                        text,
                        "maxBackoff",
                        "required, a positive duration such as \"1s\"",
                    )
                })?;
            let mult = get(p, "backoffMultiplier")
                .and_then(thousandths)
                .ok_or_else(|| {
                    refuse(
                        file,
                        text,
                        "backoffMultiplier",
                        "required, a positive number with at most three decimals",
                    )
                })?;
            if !codes_hold_unavailable(get(p, "retryableStatusCodes")) {
                return Err(refuse(
                    file,
                    text,
                    "retryableStatusCodes",
                    "the incidents fail with UNAVAILABLE: a policy that does not retry it has nothing to score",
                ));
            }
            let ratio = backoff_core::Ratio::from_thousandths(mult);
            let policy = backoff_core::presets::grpc_retry(
                u32::try_from(attempts).unwrap_or(u32::MAX),
                core::time::Duration::from_nanos(initial),
                core::time::Duration::from_nanos(max),
                ratio,
            )
            .map_err(|e| refuse(file, text, "initialBackoff", format!("{e}")))?;
            s.policy = Some(policy);
            s.retry_after = true;
            s.honour_overload = true;
            if attempts > u64::from(backoff_core::presets::GRPC_MAX_ATTEMPTS_CAP) {
                notes.push(format!("maxAttempts: {attempts} taken as 5, gRPC's cap"));
            }
            GRPC_RETRY
        }
        (None, Some(p)) => {
            let p = p
                .as_object()
                .ok_or_else(|| refuse(file, text, "hedgingPolicy", "must be an object"))?;
            if let Some(k) = known(p, &["maxAttempts", "hedgingDelay", "nonFatalStatusCodes"]) {
                return Err(refuse(file, text, &k, "not a key of a hedgingPolicy"));
            }
            let attempts = get(p, "maxAttempts")
                .and_then(Value::as_u64)
                .filter(|&n| n >= 2)
                .ok_or_else(|| {
                    refuse(
                        file,
                        text,
                        "maxAttempts",
                        "required, a whole number of at least 2",
                    )
                })?;
            let delay = match get(p, "hedgingDelay") {
                None => 0,
                Some(v) => duration_ns(v).ok_or_else(|| {
                    refuse(file, text, "hedgingDelay", "a duration such as \"0.5s\"")
                })?,
            };
            if !codes_hold_unavailable(get(p, "nonFatalStatusCodes")) {
                return Err(refuse(
                    file,
                    text,
                    "nonFatalStatusCodes",
                    "the incidents fail with UNAVAILABLE: with it fatal, no hedge is sent after a failure",
                ));
            }
            let policy = backoff_core::HedgingPolicy::with_cap(
                u32::try_from(attempts).unwrap_or(u32::MAX),
                delay,
                backoff_core::presets::GRPC_MAX_ATTEMPTS_CAP,
            )
            .map_err(|e| refuse(file, text, "maxAttempts", format!("{e}")))?;
            s.hedge = Some(HedgeSpec {
                policy,
                guard: false,
            });
            "gRPC hedgingPolicy"
        }
        (None, None) => {
            return Err(refuse(
                file,
                text,
                "methodConfig",
                "no retryPolicy or hedgingPolicy",
            ));
        }
    };
    if let Some(t) = get(m, "timeout") {
        let d = duration_ns(t)
            .filter(|&d| d > 0)
            .ok_or_else(|| refuse(file, text, "timeout", "a positive duration such as \"2s\""))?;
        if s.hedge.is_some() {
            notes.push("timeout: a hedged call's deadline is the card's --timeouts".into());
        } else {
            s.request_deadline_ns = Some(d);
        }
    }
    if let Some(t) = root.get("retryThrottling") {
        let t = t
            .as_object()
            .ok_or_else(|| refuse(file, text, "retryThrottling", "must be an object"))?;
        if let Some(k) = known(t, &["maxTokens", "tokenRatio"]) {
            return Err(refuse(file, text, &k, "not a key of retryThrottling"));
        }
        let max = get(t, "maxTokens")
            .and_then(Value::as_u64)
            .filter(|n| (1..=1000).contains(n))
            .ok_or_else(|| {
                refuse(
                    file,
                    text,
                    "maxTokens",
                    "required, a whole number from 1 to 1000",
                )
            })?;
        let ratio = get(t, "tokenRatio").and_then(thousandths).ok_or_else(|| {
            refuse(
                file,
                text,
                "tokenRatio",
                "required, a positive number with at most three decimals",
            )
        })?;
        s.budget = Some(BudgetSpec::Token {
            max_tokens: max as u32,
            ratio_milli: ratio,
        });
    }
    s.validate()
        .map_err(|e| refuse(file, text, "methodConfig", format!("{e}")))?;
    Ok(ClientPolicy {
        kind,
        strategy: s.named(kind),
        notes,
    })
}

/// A profile of an AWS config file: its name and its `(line, key, value)`s.
type Profile = (String, Vec<(usize, String, String)>);

fn aws(text: &str, file: &str) -> Result<ClientPolicy, StormError> {
    let mut profiles: Vec<Profile> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') || l.starts_with(';') {
            continue;
        }
        if let Some(name) = l.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            profiles.push((name.trim().to_string(), Vec::new()));
            continue;
        }
        let Some((k, v)) = l.split_once('=') else {
            return Err(StormError::from(FileError {
                file: file.to_string(),
                line: Some(i + 1),
                key: String::new(),
                problem: FileProblem::Policy("not KEY = VALUE".into()),
            }));
        };
        let Some(p) = profiles.last_mut() else {
            return Err(StormError::from(FileError {
                file: file.to_string(),
                line: Some(i + 1),
                key: k.trim().to_string(),
                problem: FileProblem::Policy("a key before any [profile]".into()),
            }));
        };
        p.1.push((i + 1, k.trim().to_string(), v.trim().to_string()));
    }
    let retrying: Vec<&Profile> = profiles
        .iter()
        .filter(|(_, keys)| {
            keys.iter()
                .any(|(_, k, _)| k == "retry_mode" || k == "max_attempts")
        })
        .collect();
    let (name, keys) = match retrying.as_slice() {
        [p] => (&p.0, &p.1),
        [] => {
            return Err(refuse(
                file,
                text,
                "retry_mode",
                "no profile sets retry_mode or max_attempts: nothing to score",
            ));
        }
        _ => {
            return Err(refuse(
                file,
                text,
                "retry_mode",
                "more than one profile sets its retries: give a file with the one to score",
            ));
        }
    };
    let at = |line: usize, key: &str, why: &str| {
        StormError::from(FileError {
            file: file.to_string(),
            line: Some(line),
            key: key.to_string(),
            problem: FileProblem::Policy(why.to_string()),
        })
    };
    let mut mode = "standard".to_string();
    let mut attempts = backoff_core::presets::AWS_SDK_MAX_ATTEMPTS;
    let mut notes = Vec::new();
    for (line, k, v) in keys {
        match k.as_str() {
            "retry_mode" => match v.as_str() {
                "standard" | "adaptive" => mode.clone_from(v),
                "legacy" => {
                    return Err(at(
                        *line,
                        k,
                        "retry_mode legacy is not modelled: score standard or adaptive",
                    ));
                }
                _ => return Err(at(*line, k, "must be standard, adaptive or legacy")),
            },
            "max_attempts" => {
                attempts = v
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| at(*line, k, "must be a whole number of at least 1"))?;
            }
            _ => notes.push(format!("{k}: not a retry setting")),
        }
    }
    // botocore's standard mode: delay = min(random() * 2^(attempt - 1), 20 s).
    let policy = backoff_core::presets::aws_full_jitter(
        attempts,
        core::time::Duration::from_secs(1),
        core::time::Duration::from_secs(20),
    )
    .map_err(|e| refuse(file, text, "max_attempts", format!("{e}")))?;
    let mut s = Strategy::none();
    s.policy = Some(policy);
    s.budget = Some(BudgetSpec::Quota {
        capacity: backoff_core::RetryQuota::AWS_STANDARD.capacity(),
    });
    s.adaptive = mode == "adaptive";
    let kind = if s.adaptive {
        "AWS adaptive"
    } else {
        "AWS standard"
    };
    notes.insert(
        0,
        format!("profile {name}: retry_mode {mode}, max_attempts {attempts}"),
    );
    Ok(ClientPolicy {
        kind,
        strategy: s.named(kind),
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proto_durations_are_exact() {
        let d = |s: &str| duration_ns(&Value::String(s.into()));
        assert_eq!(d("0.1s"), Some(100_000_000));
        assert_eq!(d(".5s"), Some(500_000_000));
        assert_eq!(d("1s"), Some(1_000_000_000));
        assert_eq!(d("1.000000001s"), Some(1_000_000_001));
        for bad in ["1", "s", ".s", "-1s", "1.0000000001s", "1ms"] {
            assert_eq!(d(bad), None, "{bad}");
        }
    }
}
