//! Settings that have no effect: a key that only some traffic or some topologies
//! read, given where none of the runs reads it, is refused rather than ignored.

use super::table::FIELDS;
use crate::config::{ConfigError, Phy, RadioConfig, Topology, Traffic};

/// Whether `key` has an effect on a run of `c`. Every key has, but those that only
/// one kind of traffic or some topologies read: `load` and `queue` (Poisson traffic),
/// `spacing` (line), `area` (random), `radius` (random, positions), `fixed_rx` (all,
/// star), the path-loss model's `tx_power`, `reference_loss` and
/// `path_loss_exponent` (line, random, positions) and the LoRa settings
/// `spreading_factor`, `bandwidth`, `coding_rate` and `preamble` (phy lora). (A rule's parameters given for
/// another rule are refused by [`RadioConfig::validate`].)
///
/// ```
/// use radio_sim::{RadioConfig, Traffic};
/// use radio_sim::scenario::has_effect;
/// let mut c = RadioConfig::default();
/// assert!(!has_effect(&c, "load"));
/// c.traffic = Traffic::Poisson;
/// assert!(has_effect(&c, "load"));
/// ```
pub fn has_effect(c: &RadioConfig, key: &str) -> bool {
    use Topology::{All, Line, Positions, Random, Star};
    match key {
        "load" | "queue" => c.traffic == Traffic::Poisson,
        "spacing" => c.topology == Line,
        "area" => c.topology == Random,
        "radius" => matches!(c.topology, Random | Positions),
        "fixed_rx" => matches!(c.topology, All | Star),
        "tx_power" | "reference_loss" | "path_loss_exponent" => {
            matches!(c.topology, Line | Random | Positions)
        }
        "spreading_factor" | "bandwidth" | "coding_rate" | "preamble" => c.phy == Phy::Lora,
        _ => true,
    }
}

/// Refuses the first of the keys `given` (in a file, a flag, `--set` or a sweep axis)
/// that has no effect on any of the runs `configs` ([`has_effect`]), so that a setting
/// is never silently ignored.
///
/// # Errors
///
/// A [`ConfigError`] naming the key and the setting that leaves it without effect.
pub fn check_effect<'a>(
    configs: &[&RadioConfig],
    given: impl IntoIterator<Item = &'a str>,
) -> Result<(), ConfigError> {
    // The key as the table spells it: unknown keys were refused when they were set.
    let known = given
        .into_iter()
        .filter_map(|key| FIELDS.iter().map(|f| f.key).find(|k| *k == key));
    let Some(key) = sim_kit::schema::first_without_effect(configs, known, |c: &&RadioConfig, k| {
        has_effect(c, k)
    }) else {
        return Ok(());
    };
    let first = configs[0];
    let problem = match key {
        "load" | "queue" => format!(
            "has no effect with traffic \"{}\" (it is for traffic \"poisson\")",
            first.traffic.name()
        ),
        "spreading_factor" | "bandwidth" | "coding_rate" | "preamble" => format!(
            "has no effect with phy \"{}\" (it is for phy \"lora\")",
            first.phy.name()
        ),
        _ => format!(
            "has no effect with topology \"{}\" (see mac-sim radio --keys)",
            first.topology.name()
        ),
    };
    Err(ConfigError::Value { key, problem })
}
