//! Runs of the exact model: to an instant on an engine (through the warm-up), and for
//! a configuration's whole duration, with or without an observer.

use super::model::CsmaCd;
use super::observe::{NoTrace, Observer};
use super::results::RunResult;
use crate::config::RunConfig;
use crate::error::ConfigError;
use sim_kit::engine::Engine;
use sim_kit::time::Time;

/// Advance `engine` to `t`; when that passes the run's warm-up
/// ([`RunConfig::warmup`]), the statistics start afresh at the warm-up instant
/// ([`CsmaCd::reset_statistics`]). Called in steps or at once, the run is the same.
pub fn run_to<O: Observer>(engine: &mut Engine<CsmaCd<O>>, t: Time) {
    let warmup = engine.model().cfg.warmup;
    if !warmup.is_zero() && engine.now() < warmup && t >= warmup {
        engine.run_until(warmup);
        engine.model_mut().reset_statistics();
    }
    engine.run_until(t);
}

/// Run the exact model for `cfg.duration` and return its results.
///
/// ```
/// use csma_cd::{config::RunConfig, exact::run};
/// use sim_kit::time::Time;
/// let cfg = RunConfig { stations: 4, duration: Time::from_ms(100), ..RunConfig::default() };
/// let r = run(&cfg).unwrap();
/// assert!(r.conservation.holds);
/// assert!(r.utilisation > 0.8);
/// ```
///
/// # Errors
///
/// The [`ConfigError`] of [`RunConfig::validate`]; nothing is run then.
pub fn run(cfg: &RunConfig) -> Result<RunResult, ConfigError> {
    run_with_observer(cfg, NoTrace).map(|(r, NoTrace)| r)
}

/// Run the exact model for `cfg.duration`, reporting every step to `observer`;
/// return the results and the observer.
///
/// # Errors
///
/// The [`ConfigError`] of [`RunConfig::validate`]; nothing is run then.
pub fn run_with_observer<O: Observer>(
    cfg: &RunConfig,
    observer: O,
) -> Result<(RunResult, O), ConfigError> {
    let (model, queue) = CsmaCd::with_observer(cfg, observer)?;
    let mut engine = Engine::with_queue(model, queue);
    run_to(&mut engine, cfg.duration);
    let r = engine
        .model()
        .result(cfg.measured(), engine.events(), engine.stale_events());
    Ok((r, engine.into_model().into_observer()))
}
