//! Parameters given where they have no effect: a key that only some traffic, some
//! placements or some backoff algorithms read, given (as a flag, a keyword argument
//! or a sweep axis) where none of the runs reads it, is refused rather than ignored.
//! A scenario file is not checked: a `run --json` result states every parameter.

use super::FieldError;
use crate::config::{BackoffAlgorithm, Placement, RunConfig, Traffic};
use crate::error::ConfigError;

/// Whether the parameter `key` has an effect on a run of `c`. Every parameter has,
/// but `queue_limit` (Poisson arrivals only), `placement_seed` (random placement
/// only) and `backoff_limit` (not the fixed window).
///
/// ```
/// use csma_cd::config::RunConfig;
/// use csma_cd::scenario::has_effect;
/// assert!(!has_effect(&RunConfig::default(), "queue_limit"));
/// assert!(has_effect(&RunConfig::default(), "stations"));
/// ```
pub fn has_effect(c: &RunConfig, key: &str) -> bool {
    match key {
        "queue_limit" => matches!(c.traffic, Traffic::Poisson { .. }),
        "placement_seed" => c.placement == Placement::Random,
        "backoff_limit" => !matches!(c.backoff, BackoffAlgorithm::Fixed { .. }),
        _ => true,
    }
}

/// Refuses the first of the keys `given` that has no effect on any of the runs
/// `configs` ([`has_effect`]).
///
/// # Errors
///
/// A [`FieldError`] naming the key and the setting that leaves it without effect.
pub fn check_effect<'a>(
    configs: &[RunConfig],
    given: impl IntoIterator<Item = &'a str>,
) -> Result<(), FieldError> {
    let Some(key) = sim_kit::schema::first_without_effect(configs, given, has_effect) else {
        return Ok(());
    };
    let why = match key {
        "queue_limit" => "with saturated traffic (it is for Poisson arrivals: load G)",
        "placement_seed" => "unless the placement is random",
        _ => "with the fixed window (the limit is of beb and poly)",
    };
    Err(FieldError {
        key: key.to_string(),
        error: ConfigError::NoEffect(why),
    })
}
