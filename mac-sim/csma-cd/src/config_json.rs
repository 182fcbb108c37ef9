//! A configuration's JSON: the `"config"` block of `mac-sim run --json` and the
//! identity of a sweep's run (its point key, from which its seeds and its results
//! database key derive: [`point_key`](crate::sweep::point_key)).
//!
//! The JSON of the parameters the model had when identities were first derived from
//! it is frozen here, field for field ([`FROZEN_KEYS`]), so that it never changes.
//! Every parameter added to the schema since is written only when it differs from its
//! default, by its key and its text form, in an object `"more"` at the end: a
//! parameter added at its default changes no output, no seed and no database key,
//! and its author writes no serde attribute.
//!
//! ```
//! use csma_cd::config::RunConfig;
//! let c = RunConfig::default();
//! let text = serde_json::to_string(&c).unwrap();
//! assert!(text.starts_with(r#"{"stations":32,"placement":"even","bus_length_m":2500.0,"#));
//! assert!(!text.contains("more"));
//! let back: RunConfig = serde_json::from_str(&text).unwrap();
//! assert_eq!(back, c);
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sim_kit::time::Time;

use crate::config::{
    BackoffAlgorithm, FrameSizes, IfgRule, JamRule, Phy, Placement, RunConfig, Traffic,
};
use crate::ethernet::EthernetMedium;
use crate::scenario::{FIELDS, Scenario};

/// The schema's keys whose values the frozen JSON holds: the model's parameters when
/// a run's identity was first derived from its JSON. Never add to it: a new key goes
/// into `"more"`.
pub const FROZEN_KEYS: [&str; 24] = [
    "medium",
    "stations",
    "placement",
    "length_m",
    "bit_rate",
    "frames",
    "load",
    "duration",
    "warmup",
    "seed",
    "backoff",
    "backoff_limit",
    "attempt_limit",
    "queue_limit",
    "capture_window",
    "velocity",
    "slot_bits",
    "preamble_bits",
    "ifg_bits",
    "jam_bits",
    "carrier_extension",
    "burst_limit_bits",
    "ifg_rule",
    "jam_rule",
];

/// The physical layer as its JSON was frozen.
#[derive(Serialize, Deserialize)]
struct FrozenPhy {
    bit_rate: u64,
    preamble_bits: u32,
    ifg_bits: u32,
    jam_bits: u32,
    slot_bits: u32,
    velocity_m_per_s: f64,
    #[serde(default, skip_serializing_if = "is_false")]
    carrier_extension: bool,
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    burst_limit_bits: u32,
}

/// The configuration as its JSON was frozen, and `"more"`.
#[derive(Serialize, Deserialize)]
struct Frozen {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    medium: Option<EthernetMedium>,
    stations: u32,
    placement: Placement,
    bus_length_m: f64,
    phy: FrozenPhy,
    frames: FrameSizes,
    traffic: Traffic,
    backoff: BackoffAlgorithm,
    backoff_limit: u32,
    attempt_limit: u32,
    queue_limit: u32,
    #[serde(rename = "duration_ps")]
    duration: Time,
    #[serde(default, rename = "warmup_ps", skip_serializing_if = "is_zero_time")]
    warmup: Time,
    seed: u64,
    capture_window: u32,
    #[serde(default)]
    ifg_rule: IfgRule,
    #[serde(default)]
    jam_rule: JamRule,
    /// The parameters added since, that differ from their defaults: key and text.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    more: BTreeMap<String, String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

fn is_zero_time(t: &Time) -> bool {
    t.is_zero()
}

/// The parameters of `c` that are not frozen and differ from their defaults, by key,
/// in their text forms.
fn more(c: &RunConfig) -> BTreeMap<String, String> {
    let here = Scenario::from_config(c);
    let default = Scenario::from_config(&RunConfig::default());
    FIELDS
        .iter()
        .map(|f| f.key)
        .filter(|k| !FROZEN_KEYS.contains(k))
        .filter_map(|k| {
            let text = here.get(k)?;
            (default.get(k).as_ref() != Some(&text)).then(|| (k.to_string(), text))
        })
        .collect()
}

impl Serialize for RunConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = &self.phy;
        Frozen {
            medium: self.medium,
            stations: self.stations,
            placement: self.placement,
            bus_length_m: self.bus_length_m,
            phy: FrozenPhy {
                bit_rate: p.bit_rate,
                preamble_bits: p.preamble_bits,
                ifg_bits: p.ifg_bits,
                jam_bits: p.jam_bits,
                slot_bits: p.slot_bits,
                velocity_m_per_s: p.velocity_m_per_s,
                carrier_extension: p.carrier_extension,
                burst_limit_bits: p.burst_limit_bits,
            },
            frames: self.frames.clone(),
            traffic: self.traffic,
            backoff: self.backoff,
            backoff_limit: self.backoff_limit,
            attempt_limit: self.attempt_limit,
            queue_limit: self.queue_limit,
            duration: self.duration,
            warmup: self.warmup,
            seed: self.seed,
            capture_window: self.capture_window,
            ifg_rule: self.ifg_rule,
            jam_rule: self.jam_rule,
            more: more(self),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for RunConfig {
    /// The frozen fields, then each of `"more"` by its key and text form (the
    /// parameters absent keep their defaults).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let f = Frozen::deserialize(d)?;
        let c = RunConfig {
            medium: f.medium,
            stations: f.stations,
            placement: f.placement,
            bus_length_m: f.bus_length_m,
            phy: Phy {
                bit_rate: f.phy.bit_rate,
                preamble_bits: f.phy.preamble_bits,
                ifg_bits: f.phy.ifg_bits,
                jam_bits: f.phy.jam_bits,
                slot_bits: f.phy.slot_bits,
                velocity_m_per_s: f.phy.velocity_m_per_s,
                carrier_extension: f.phy.carrier_extension,
                burst_limit_bits: f.phy.burst_limit_bits,
            },
            frames: f.frames,
            traffic: f.traffic,
            backoff: f.backoff,
            backoff_limit: f.backoff_limit,
            attempt_limit: f.attempt_limit,
            queue_limit: f.queue_limit,
            duration: f.duration,
            warmup: f.warmup,
            seed: f.seed,
            capture_window: f.capture_window,
            ifg_rule: f.ifg_rule,
            jam_rule: f.jam_rule,
            ..RunConfig::default()
        };
        let mut later = Scenario::default();
        for (k, v) in &f.more {
            if FROZEN_KEYS.contains(&k.as_str()) {
                return Err(serde::de::Error::custom(format!(
                    "more: {k} is not a parameter added later"
                )));
            }
            later.set(k, v).map_err(serde::de::Error::custom)?;
        }
        Ok(later.apply_to(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frozen_keys_are_the_schemas_first_and_each_is_in_the_json() {
        for k in FROZEN_KEYS {
            assert!(FIELDS.iter().any(|f| f.key == k), "{k}");
        }
        // Each frozen parameter changed from its default changes the frozen JSON, not
        // "more".
        let all = Scenario::from_config(&RunConfig::default());
        let base = serde_json::to_string(&RunConfig::default()).unwrap();
        for k in FROZEN_KEYS {
            let mut s = Scenario::default();
            let other = match k {
                "medium" => "100BASE-TX".to_string(),
                "carrier_extension" => "true".to_string(),
                "load" => "0.5".to_string(),
                "frames" => "64".to_string(),
                "placement" => "random".to_string(),
                "backoff" => "linear".to_string(),
                "ifg_rule" => "restart".to_string(),
                "jam_rule" => "immediate".to_string(),
                "duration" | "warmup" => "1s".to_string(),
                "bit_rate" => "100M".to_string(),
                "velocity" | "length_m" => "100".to_string(),
                _ => format!("{}7", all.get(k).unwrap().trim_end_matches('0')),
            };
            s.set(k, &other).unwrap();
            let c = s.apply_to(RunConfig::default());
            let text = serde_json::to_string(&c).unwrap();
            assert_ne!(text, base, "{k}");
            assert!(!text.contains("\"more\""), "{k}: {text}");
            let back: RunConfig = serde_json::from_str(&text).unwrap();
            assert_eq!(back, c, "{k}");
        }
    }

    #[test]
    fn a_later_parameter_is_left_out_at_its_default_and_read_back_when_set() {
        let later: Vec<&str> = FIELDS
            .iter()
            .map(|f| f.key)
            .filter(|k| !FROZEN_KEYS.contains(k))
            .collect();
        assert!(
            !later.is_empty(),
            "no parameter added since the JSON was frozen"
        );
        // At their defaults: the frozen JSON alone (the golden outputs, the sweeps'
        // seeds and the databases' keys hold it byte for byte).
        let base = serde_json::to_string(&RunConfig::default()).unwrap();
        assert!(!base.contains("more"), "{base}");
        for k in later {
            // Set: in "more", by its text, and read back.
            let mut one = Scenario::default();
            one.set(k, "12345").unwrap();
            let c = one.apply_to(RunConfig::default());
            let text = serde_json::to_string(&c).unwrap();
            assert!(
                text.ends_with(&format!(r#","more":{{"{k}":"12345"}}}}"#)),
                "{text}"
            );
            let back: RunConfig = serde_json::from_str(&text).unwrap();
            assert_eq!(back, c);
        }
        // A frozen parameter in "more" is refused.
        let bad = format!(r#"{},"more":{{"stations":"3"}}}}"#, &base[..base.len() - 1]);
        assert!(serde_json::from_str::<RunConfig>(&bad).is_err());
    }
}
