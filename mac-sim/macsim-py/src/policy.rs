//! backoff-core's retry policies as Python sees them: the presets of well-known
//! systems ([`backoff_core::presets`]), fixed and parametrised, and the general
//! [`backoff_core::Policy`] (schedule, jitter, ceiling, stop rules), each as a
//! `Policy` object whose `delays()` is an iterator of the delays one request that
//! always fails would wait ([`backoff_core::RetryState::on_failure`], nothing else).
//!
//! Every constructor is backoff-core's own; a parameter it refuses raises `ValueError`
//! with its message (`grpc_retry: parameter out of range`) and what the constructor's
//! documentation says it refuses. Durations come in integer nanoseconds and ratios as
//! `(numerator, denominator)`: the Python package (`macsim/backoff.py`) converts
//! seconds and Python numbers.

use backoff_core::presets as core_presets;
use backoff_core::{ConfigError, Jitter, Policy, Ratio, RetryState, Schedule, Stop};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

/// The documented defaults of well-known systems in backoff-core, by the name Python
/// gives them.
const PRESETS: [(&str, Policy); 4] = [
    ("cenkalti", core_presets::CENKALTI),
    ("grpc-connection", core_presets::GRPC_CONNECTION_BACKOFF),
    ("celery", core_presets::CELERY_DEFAULT),
    ("apue-connect", core_presets::APUE_CONNECT_RETRY),
];

/// `ValueError`: `what: <backoff-core's message> (<what the constructor refuses>)`.
fn refused(what: &str, refuses: &str, e: ConfigError) -> PyErr {
    PyValueError::new_err(format!("{what}: {e} ({refuses})"))
}

/// A ratio from its numerator and denominator, as backoff-core keeps it.
fn ratio(what: &str, (num, den): (u32, u32)) -> PyResult<Ratio> {
    Ratio::new(num, den).map_err(|e| refused(what, "a ratio's denominator must not be 0", e))
}

/// A retry policy of backoff-core, with the call that made it.
#[pyclass(name = "Policy", module = "macsim.backoff", frozen)]
#[derive(Clone, Debug)]
pub struct PyPolicy {
    inner: Policy,
    made_by: String,
}

#[pymethods]
impl PyPolicy {
    /// The delays, seconds, this policy gives one request whose every attempt fails
    /// after `attempt_ns` nanoseconds (0: at once): an iterator that ends when the
    /// policy gives up, or after `limit` delays (`None`: no limit). The elapsed time
    /// the stop rules see is the sum of the attempts and the delays so far. Jitter is
    /// drawn from a xorshift generator seeded with `rng_seed`
    /// (`XorShiftRng::seed_from_u64`).
    #[pyo3(signature = (rng_seed = 1, limit = Some(1000), attempt_ns = 0))]
    fn delays(&self, rng_seed: u64, limit: Option<usize>, attempt_ns: u64) -> Delays {
        Delays {
            policy: self.inner,
            made_by: self.made_by.clone(),
            state: RetryState::new(),
            rng: XorShiftRng::seed_from_u64(rng_seed),
            elapsed_ns: 0,
            attempt_ns,
            left: limit,
            over: false,
        }
    }

    fn __repr__(&self) -> String {
        format!("<macsim.backoff.Policy {}>", self.made_by)
    }
}

/// The delays of a [`PyPolicy`] for one request that always fails: an iterator of
/// seconds (floats).
#[pyclass(name = "Delays", module = "macsim.backoff")]
#[derive(Debug)]
pub struct Delays {
    policy: Policy,
    made_by: String,
    state: RetryState,
    rng: XorShiftRng,
    elapsed_ns: u64,
    attempt_ns: u64,
    left: Option<usize>,
    over: bool,
}

#[pymethods]
impl Delays {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<f64> {
        if self.over || self.left == Some(0) {
            return None;
        }
        // The attempt ran and failed: ask the policy, on the request's clock.
        self.elapsed_ns = self.elapsed_ns.saturating_add(self.attempt_ns);
        let decision = self
            .state
            .on_failure(&self.policy, self.elapsed_ns, &mut self.rng);
        match decision.delay_nanos() {
            Some(ns) => {
                self.elapsed_ns = self.elapsed_ns.saturating_add(ns);
                self.left = self.left.map(|n| n - 1);
                Some(ns as f64 / 1e9)
            }
            None => {
                self.over = true;
                None
            }
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<macsim.backoff.Delays of {}: {} failures so far, {:.9} s elapsed>",
            self.made_by,
            self.state.failures(),
            self.elapsed_ns as f64 / 1e9
        )
    }
}

/// The names of the presets [`preset`] knows.
#[pyfunction]
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

/// backoff-core's preset `name` (one of [`preset_names`]).
#[pyfunction]
pub fn preset(name: &str) -> PyResult<PyPolicy> {
    let Some((n, policy)) = PRESETS.iter().find(|(n, _)| *n == name) else {
        return Err(PyValueError::new_err(format!(
            "preset: unknown preset '{name}' (the presets are {})",
            preset_names().join(", ")
        )));
    };
    Ok(PyPolicy {
        inner: *policy,
        made_by: format!("preset('{n}')"),
    })
}

/// gRPC `retryPolicy` (gRFC A6), [`core_presets::grpc_retry`].
#[pyfunction]
pub fn grpc_retry(
    max_attempts: u32,
    initial_backoff_ns: u64,
    max_backoff_ns: u64,
    backoff_multiplier: (u32, u32),
) -> PyResult<PyPolicy> {
    let what = "grpc_retry";
    let m = ratio(what, backoff_multiplier)?;
    let p = core_presets::grpc_retry(
        max_attempts,
        std::time::Duration::from_nanos(initial_backoff_ns),
        std::time::Duration::from_nanos(max_backoff_ns),
        m,
    )
    .map_err(|e| {
        refused(
            what,
            "it refuses max_attempts below 2, a zero backoff or multiplier, \
             initial_backoff above max_backoff",
            e,
        )
    })?;
    Ok(PyPolicy {
        inner: p,
        made_by: format!(
            "grpc_retry(max_attempts={max_attempts}, initial_backoff={initial_backoff_ns} ns, \
             max_backoff={max_backoff_ns} ns, backoff_multiplier={}/{})",
            m.numer(),
            m.denom()
        ),
    })
}

/// Celery's `retry_backoff`, [`core_presets::celery`].
#[pyfunction]
pub fn celery(
    factor_secs: u32,
    retry_backoff_max_secs: u32,
    retry_jitter: bool,
    max_retries: u32,
) -> PyResult<PyPolicy> {
    let p = core_presets::celery(
        factor_secs,
        retry_backoff_max_secs,
        retry_jitter,
        max_retries,
    )
    .map_err(|e| {
        refused(
            "celery",
            "it refuses a factor of 0, which in Celery turns exponential backoff off",
            e,
        )
    })?;
    Ok(PyPolicy {
        inner: p,
        made_by: format!(
            "celery(factor={factor_secs} s, retry_backoff_max={retry_backoff_max_secs} s, \
             retry_jitter={retry_jitter}, max_retries={max_retries})"
        ),
    })
}

/// The AWS "Exponential Backoff and Jitter" presets: `jitter` is `full`
/// ([`core_presets::aws_full_jitter`]), `equal` or `decorrelated`.
#[pyfunction]
pub fn aws(jitter: &str, max_attempts: u32, base_ns: u64, cap_ns: u64) -> PyResult<PyPolicy> {
    let make = match jitter {
        "full" => core_presets::aws_full_jitter,
        "equal" => core_presets::aws_equal_jitter,
        "decorrelated" => core_presets::aws_decorrelated_jitter,
        _ => {
            return Err(PyValueError::new_err(format!(
                "aws: unknown jitter '{jitter}' (full, equal or decorrelated)"
            )));
        }
    };
    let what = format!("aws_{jitter}_jitter");
    let p = make(
        max_attempts,
        std::time::Duration::from_nanos(base_ns),
        std::time::Duration::from_nanos(cap_ns),
    )
    .map_err(|e| {
        refused(
            &what,
            "it refuses max_attempts of 0, a zero base, base above cap",
            e,
        )
    })?;
    Ok(PyPolicy {
        inner: p,
        made_by: format!("{what}(max_attempts={max_attempts}, base={base_ns} ns, cap={cap_ns} ns)"),
    })
}

/// Google Cloud's truncated exponential backoff, [`core_presets::google_cloud`].
#[pyfunction]
pub fn google_cloud(max_attempts: u32, maximum_backoff_ns: u64) -> PyResult<PyPolicy> {
    let p = core_presets::google_cloud(
        max_attempts,
        std::time::Duration::from_nanos(maximum_backoff_ns),
    )
    .map_err(|e| refused("google_cloud", "it refuses max_attempts of 0", e))?;
    Ok(PyPolicy {
        inner: p,
        made_by: format!(
            "google_cloud(max_attempts={max_attempts}, maximum_backoff={maximum_backoff_ns} ns)"
        ),
    })
}

/// The jitter kinds by the names Python gives them (backoff-core's variants): those
/// without a parameter.
fn plain_jitter(name: &str) -> Option<Jitter> {
    match name {
        "none" => Some(Jitter::None),
        "full" => Some(Jitter::Full),
        "equal" => Some(Jitter::Equal),
        "decorrelated" => Some(Jitter::Decorrelated),
        _ => None,
    }
}

/// The jitter of [`policy`]: a kind and the one parameter it takes, if any.
fn jitter_of(
    jitter: &str,
    spread: Option<(u32, u32)>,
    jitter_max_ns: Option<u64>,
) -> PyResult<Jitter> {
    let kinds = "none, full, equal, decorrelated, factor, additive or normal";
    let takes_spread = matches!(jitter, "factor" | "normal");
    if spread.is_some() && !takes_spread {
        return Err(PyValueError::new_err(format!(
            "spread: only the jitters factor and normal take it, not {jitter}"
        )));
    }
    if jitter_max_ns.is_some() && jitter != "additive" {
        return Err(PyValueError::new_err(format!(
            "jitter_max: only the jitter additive takes it, not {jitter}"
        )));
    }
    let need = |what: &str| PyValueError::new_err(format!("{what}: the jitter {jitter} needs it"));
    Ok(match jitter {
        "factor" => {
            let r = ratio("spread", spread.ok_or_else(|| need("spread"))?)?;
            Jitter::proportional(r)
                .map_err(|e| refused("spread", "the factor's spread is at most 1", e))?
        }
        "normal" => Jitter::Normal(ratio("spread", spread.ok_or_else(|| need("spread"))?)?),
        "additive" => Jitter::Additive {
            max_ns: jitter_max_ns.ok_or_else(|| need("jitter_max"))?,
        },
        other => plain_jitter(other).ok_or_else(|| {
            PyValueError::new_err(format!("jitter: unknown jitter '{other}' ({kinds})"))
        })?,
    })
}

/// A general policy ([`Policy`]): the schedule `min(initial · multiplier^n, cap)`
/// ([`Schedule::exponential_nanos`]; no `cap`: none), a jitter, a ceiling after
/// jitter, the first delay unjittered or not, and stop rules ([`Stop`]).
#[pyfunction]
#[pyo3(signature = (initial_ns, multiplier, cap_ns = None, jitter = "none", spread = None, jitter_max_ns = None, ceiling_ns = None, first_delay_unjittered = false, max_attempts = None, max_retries = None, max_delay_ns = None, max_elapsed_ns = None))]
#[allow(clippy::too_many_arguments)]
pub fn policy(
    initial_ns: u64,
    multiplier: (u32, u32),
    cap_ns: Option<u64>,
    jitter: &str,
    spread: Option<(u32, u32)>,
    jitter_max_ns: Option<u64>,
    ceiling_ns: Option<u64>,
    first_delay_unjittered: bool,
    max_attempts: Option<u32>,
    max_retries: Option<u32>,
    max_delay_ns: Option<u64>,
    max_elapsed_ns: Option<u64>,
) -> PyResult<PyPolicy> {
    let m = ratio("multiplier", multiplier)?;
    let schedule = Schedule::exponential_nanos(initial_ns, m, cap_ns.unwrap_or(u64::MAX))
        .map_err(|e| refused("initial", "the initial delay is at most the cap", e))?;
    let mut p = Policy::new(schedule).with_jitter(jitter_of(jitter, spread, jitter_max_ns)?);
    if let Some(c) = ceiling_ns {
        p = p.with_ceiling_nanos(c);
    }
    if first_delay_unjittered {
        p = p.with_first_delay_unjittered();
    }
    let mut stop = Stop::NEVER;
    match (max_attempts, max_retries) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "max_retries: give max_attempts or max_retries, not both \
                 (r retries are r + 1 attempts)",
            ));
        }
        (Some(a), None) => {
            stop = stop.with_max_attempts(a).map_err(|e| {
                refused(
                    "max_attempts",
                    "an attempt limit counts the first attempt",
                    e,
                )
            })?;
        }
        (None, Some(r)) => stop = stop.with_max_retries(r),
        (None, None) => {}
    }
    if let Some(d) = max_delay_ns {
        stop = stop.with_max_delay_nanos(d);
    }
    if let Some(e) = max_elapsed_ns {
        stop = stop.with_max_elapsed_nanos(e);
    }
    let inner = p.with_stop(stop);
    Ok(PyPolicy {
        inner,
        made_by: format!("{inner:?}"),
    })
}
