//! One replication of the exact CSMA/CD model as a sweep job (and `mac-sim run`'s
//! run): in 64 slices of simulated time for its progress, each run in steps of about
//! [`CANCEL_EVERY`] events with the cancel flag looked at between them, so that a
//! raised flag stops a run of any length within milliseconds of work. The steps are
//! steps of simulated time, each twice or half the last as the last held too few or
//! too many events: the event loop itself counts nothing (a model whose events cost
//! about 70 instructions would pay several per cent for a count per event).
//!
//! Running to `t₁`, then to `t₂`, ... handles exactly the events that one run to the
//! end would, in the same order, so a sliced run's results are identical to
//! [`csma_cd::exact::run`]'s.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use csma_cd::{config::RunConfig, exact};
//! use csma_cd_host::job;
//! use sim_kit::time::Time;
//! let cfg = RunConfig { stations: 8, duration: Time::from_ms(20), ..RunConfig::default() };
//! let sliced = job::run_cancellable(&cfg, &AtomicBool::new(false)).unwrap().unwrap();
//! assert_eq!(sliced, exact::run(&cfg).unwrap());
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use csma_cd::config::RunConfig;
use csma_cd::error::ConfigError;
use csma_cd::exact::RunResult;
use csma_cd::exact::{self, CsmaCd};
use csma_cd::exact::{NoTrace, Observer};
use sim_host::runner::progress::Steps;
use sim_kit::engine::{CANCEL_EVERY, Engine};
use sim_kit::progress::{Progress, Quiet};
use sim_kit::time::Time;

/// Slices per run.
const SLICES: u64 = 64;

fn drive<O: Observer>(
    cfg: &RunConfig,
    cancel: &AtomicBool,
    progress: &dyn Progress,
    observer: O,
) -> Result<Option<Engine<CsmaCd<O>>>, ConfigError> {
    let (model, queue) = CsmaCd::with_observer(cfg, observer)?;
    let mut engine = Engine::with_queue(model, queue);
    let d = cfg.duration;
    let steps = Steps::begin(progress, SLICES as usize);
    // Where the engine has run to, and the next step's length (it adapts at once).
    let mut now = Time::ZERO;
    let mut step = Time::from_ns(1);
    for k in 1..=SLICES {
        if cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        // k·d/64 without overflow (d < 2^62).
        let t = Time::from_ps((u128::from(d.as_ps()) * u128::from(k) / u128::from(SLICES)) as u64);
        while now < t {
            if cancel.load(Ordering::Relaxed) {
                return Ok(None);
            }
            let next = now.saturating_add(step).min(t);
            let before = engine.events() + engine.stale_events();
            exact::run_to(&mut engine, next);
            let handled = engine.events() + engine.stale_events() - before;
            if handled < CANCEL_EVERY / 2 {
                step = step.saturating_add(step);
            } else if handled > 2 * CANCEL_EVERY {
                step = Time::from_ps((step.as_ps() / 2).max(1));
            }
            now = next;
        }
        steps.done(k as usize, engine.events());
    }
    Ok(Some(engine))
}

/// Run `cfg` to its end, or return `None` as soon as `cancel` is seen raised.
///
/// # Errors
///
/// The [`ConfigError`] of [`RunConfig::validate`].
pub fn run_cancellable(
    cfg: &RunConfig,
    cancel: &AtomicBool,
) -> Result<Option<RunResult>, ConfigError> {
    Ok(drive(cfg, cancel, &Quiet, NoTrace)?.map(|e| {
        e.model()
            .result(cfg.measured(), e.events(), e.stale_events())
    }))
}

/// Run `cfg` to its end, reporting its progress in 64 slices of simulated time, and
/// return its results and the frame bits each station delivered (in order of
/// position); `None` as soon as `cancel` is seen raised.
///
/// # Errors
///
/// The [`ConfigError`] of [`RunConfig::validate`].
pub fn run_observed(
    cfg: &RunConfig,
    cancel: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Option<(RunResult, Vec<u64>)>, ConfigError> {
    Ok(run_traced(cfg, cancel, progress, NoTrace)?.map(|(r, per, NoTrace)| (r, per)))
}

/// Like [`run_observed`], with every step of the model reported to `observer`, which
/// is returned with the results.
///
/// # Errors
///
/// The [`ConfigError`] of [`RunConfig::validate`].
pub fn run_traced<O: Observer>(
    cfg: &RunConfig,
    cancel: &AtomicBool,
    progress: &dyn Progress,
    observer: O,
) -> Result<Option<(RunResult, Vec<u64>, O)>, ConfigError> {
    Ok(drive(cfg, cancel, progress, observer)?.map(|e| {
        let m = e.model();
        let r = m.result(cfg.measured(), e.events(), e.stale_events());
        let per = m.delivered_bits_per_station();
        (r, per, e.into_model().into_observer())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use csma_cd::config::Traffic;
    use csma_cd::exact;

    #[test]
    fn sliced_equals_whole_and_cancel_stops() {
        let cfg = RunConfig {
            stations: 50,
            frames: csma_cd::config::FrameSizes::Fixed(64),
            traffic: Traffic::Poisson { load: 0.9 },
            duration: Time::from_ms(30),
            seed: 9,
            ..RunConfig::default()
        };
        let a = run_cancellable(&cfg, &AtomicBool::new(false))
            .unwrap()
            .unwrap();
        assert_eq!(a, exact::run(&cfg).unwrap());
        let (b, per) = run_observed(&cfg, &AtomicBool::new(false), &Quiet)
            .unwrap()
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(per.iter().sum::<u64>(), a.delivered_bits);
        assert_eq!(per.len(), 50);
        assert_eq!(run_cancellable(&cfg, &AtomicBool::new(true)).unwrap(), None);
    }
}
