//! The one schema of a run's parameters: [`Scenario`], every parameter of the exact
//! model with its key, its one text form, its unit and its help, defined once in the
//! table below and used by every door: the command line's flags, scenario files
//! (TOML), the `"scenario"` block of a JSON result, each point of a sweep, the results
//! columns of `run --csv` and of a sweep, the browser and Python.
//!
//! Layers, field by field: the defaults ([`RunConfig::default`]), then a scenario
//! file, then the command line's flags ([`Scenario::overlay`]). One function turns a
//! scenario into the model's configuration and checks it: [`Scenario::to_config`],
//! whose errors name the parameter ([`FieldError`]).
//!
//! ```
//! use csma_cd::scenario::Scenario;
//! let file = Scenario::from_toml("stations = 50\nload = 0.6\nbackoff = \"poly:3\"\n").unwrap();
//! let mut flags = Scenario::default();
//! flags.set("stations", "8").unwrap();
//! let cfg = file.overlay(&flags).to_config().unwrap();
//! assert_eq!(cfg.stations, 8);
//! assert_eq!(Scenario::from_config(&cfg).get("backoff").unwrap(), "poly:3");
//! assert_eq!(Scenario::from_config(&cfg).to_config().unwrap(), cfg);
//! let e = Scenario { stations: Some(0), ..Scenario::default() }.to_config().unwrap_err();
//! assert_eq!(e.to_string(), "stations: the number of stations must be at least 1");
//! ```
//!
//! ## Adding a parameter
//!
//! A field of [`RunConfig`] and its default (`config.rs`), a row in the table below,
//! and its check in [`RunConfig::validate`] if it has a range. The flags, files,
//! columns, sweeps and bindings follow from the row.

mod effect;
mod file;
pub mod value;

use sim_kit::time::Time;

use crate::config::{
    BackoffAlgorithm, FrameSizes, IfgRule, JamRule, Placement, RunConfig, Traffic,
};
use crate::error::ConfigError;
use crate::ethernet::EthernetMedium;
use sim_kit::schema::{Auto, OrWord};
use value::{BitRate, Medium};

pub use effect::{check_effect, has_effect};
pub use file::ScenarioError;
pub use sim_kit::schema::{Field, Schema};

/// A value given for one parameter that cannot be accepted, naming the parameter.
pub type FieldError = sim_kit::schema::FieldError<ConfigError>;

/// The medium preset first, so that the other parameters override the bus length
/// and burst limit it sets.
fn preset(s: &Scenario, c: RunConfig) -> RunConfig {
    match s.medium {
        Some(Some(m)) => c.with_medium(m),
        _ => c,
    }
}

sim_kit::schema! {
    /// One run's parameters, each optional: a scenario file, the command line's
    /// flags, a JSON result's `"scenario"` block, one point of a sweep, or the
    /// keyword arguments of the Python package. Absent parameters keep their
    /// defaults ([`RunConfig::default`]); a scenario laid over another
    /// ([`Scenario::overlay`]) replaces the parameters it sets.
    ///
    /// The `medium` preset is applied first, so the other parameters override the
    /// bus length and burst limit it sets.
    pub struct Scenario for RunConfig, error ConfigError, prepare preset;
    /// Ethernet preset (IEEE 802.3 half duplex): 10BASE5, 10BASE2, 10BASE-T,
    /// 100BASE-TX or 1000BASE-T, or none. Sets the bit rate, slot, default bus length
    /// and its limit, and at 1000 Mb/s carrier extension and frame bursting; applied
    /// first, so the other parameters override its bus length and burst limit.
    medium: Option<EthernetMedium> as Medium, short None, value "NAME", aliases [] => medium;
    /// Number of stations on the bus.
    stations: u32, short Some('n'), value "N", aliases [] => stations;
    /// Station placement along the bus: point, even or random.
    placement: Placement, short Some('p'), value "WHERE", aliases [] => placement;
    /// Seed of the random placement alone, or auto (derived from seed): with a seed
    /// of its own the stations keep their positions while seed, or a sweep's
    /// replications, vary the traffic and the backoff draws.
    placement_seed: Option<u64> as OrWord<u64, Auto>, short None, value "SEED", aliases [] => placement_seed;
    /// Bus length, metres (the 10 Mb/s collision domain is 2500 m).
    length_m: f64, short None, value "METRES", aliases [] => bus_length_m;
    /// Bit rate, bits per second, with suffix k, M or G (e.g. 10M).
    bit_rate: u64 as BitRate, short None, value "RATE", aliases [] => phy.bit_rate;
    /// Frame sizes, bytes (64..=1518, address to FCS): BYTES, MIN-MAX (uniform) or
    /// BYTES:WEIGHT,... (a mix, e.g. 64:7,594:4,1518:1).
    frames: FrameSizes, short Some('f'), value "SPEC", aliases ["frame-bytes"] => frames;
    /// Offered load: Poisson arrivals at this total load, a fraction of the bit rate
    /// (e.g. 0.7), or saturated (every station always has a frame).
    load: Traffic, short Some('l'), value "G", aliases [] => traffic;
    /// Simulated time, with unit: s, ms, us or ns (e.g. 10s).
    duration: Time, short Some('d'), value "TIME", aliases [] => duration;
    /// Warm-up, with unit (e.g. 1s): statistics start after it; shorter than the
    /// duration, which includes it; 0 for none.
    warmup: Time, short None, value "TIME", aliases [] => warmup;
    /// Seed of every random choice; the same seed gives the same output.
    seed: u64, short Some('s'), value "SEED", aliases [] => seed;
    /// Backoff algorithm: beb (truncated binary exponential backoff, IEEE 802.3),
    /// linear, poly:DEGREE (window c^DEGREE + 1 slots; poly is poly:2) or
    /// fixed:SLOTS (fixed is fixed:32).
    backoff: BackoffAlgorithm, short Some('b'), value "ALGO", aliases [] => backoff;
    /// backoffLimit: the BEB window stops doubling after this many collisions
    /// (0..=32); caps the polynomial window at 2^limit slots.
    backoff_limit: u32, short None, value "K", aliases [] => backoff_limit;
    /// attemptLimit: a frame is dropped after this many attempts all collided
    /// (1..=1024).
    attempt_limit: u32, short None, value "N", aliases [] => attempt_limit;
    /// Frames a station can hold, the one being sent included (Poisson traffic).
    queue_limit: u32, short None, value "FRAMES", aliases [] => queue_limit;
    /// Successes per window for the capture-effect share.
    capture_window: u32, short None, value "SUCCESSES", aliases [] => capture_window;
    /// Signal speed along the cable, metres per second.
    velocity: f64, short None, value "M_PER_S", aliases [] => phy.velocity_m_per_s;
    /// Slot time (the backoff unit), bit times (IEEE 802.3 clause 4.4.2: 512, 4096
    /// at 1000 Mb/s).
    slot_bits: u32, short None, value "BITS", aliases [] => phy.slot_bits;
    /// Preamble and start frame delimiter, bit times.
    preamble_bits: u32, short None, value "BITS", aliases [] => phy.preamble_bits;
    /// Interframe gap, bit times.
    ifg_bits: u32, short None, value "BITS", aliases [] => phy.ifg_bits;
    /// Jam after a collision, bit times.
    jam_bits: u32, short None, value "BITS", aliases [] => phy.jam_bits;
    /// Carrier extension to the slot (IEEE 802.3 clause 4.2.3.4, 1000 Mb/s half
    /// duplex): true or false.
    carrier_extension: bool, short None, value "BOOL", aliases [] => phy.carrier_extension;
    /// Frame bursting's burstLimit, bit times (IEEE 802.3 clause 4.2.3.2.7); 0: no
    /// bursting.
    burst_limit_bits: u32, short None, value "BITS", aliases ["burst-limit"] => phy.burst_limit_bits;
    /// Interframe-gap rule: 8023 (IEEE 802.3 clause 4.2.3.2.1: carrier in the first
    /// two thirds of the gap defers, in the last third it is ignored; blind after the
    /// station's own frame), restart (carrier anywhere in the gap restarts it) or
    /// none (no first part).
    ifg_rule: IfgRule, short None, value "RULE", aliases [] => ifg_rule;
    /// Jam rule: preamble (IEEE 802.3 clause 4.2.3.2.4: finish preamble and SFD, then
    /// jam) or immediate (jam at once).
    jam_rule: JamRule, short None, value "RULE", aliases [] => jam_rule;
}

impl Scenario {
    /// The model's configuration: the defaults with every parameter that is set,
    /// checked. The one conversion from the schema to the model.
    ///
    /// # Errors
    ///
    /// A [`FieldError`] naming the parameter to blame: the first one that alone (on
    /// the defaults) is out of range, the one that contradicts the medium, or none
    /// (an empty key) when only the combination fails.
    pub fn to_config(&self) -> Result<RunConfig, FieldError> {
        self.to_config_on(RunConfig::default())
    }

    /// [`to_config`](Self::to_config) on another base than the defaults.
    ///
    /// # Errors
    ///
    /// As [`to_config`](Self::to_config).
    pub fn to_config_on(&self, base: RunConfig) -> Result<RunConfig, FieldError> {
        let cfg = self.apply_to(base.clone());
        let Err(whole) = cfg.validate() else {
            return Ok(cfg);
        };
        let blame = |key: &str| FieldError {
            key: key.to_string(),
            error: whole.clone(),
        };
        if matches!(whole, ConfigError::Warmup { .. }) && self.warmup.is_some() {
            return Err(blame("warmup"));
        }
        // A parameter that contradicts the preset is the one to blame.
        let against_medium = match &whole {
            ConfigError::MediumLength { .. } => Some("length_m"),
            ConfigError::MediumMismatch { what, .. } => Some(match *what {
                "bit rate" => "bit_rate",
                "slot" => "slot_bits",
                _ => "carrier_extension",
            }),
            _ => None,
        };
        if let Some(key) = against_medium {
            return Err(blame(key));
        }
        for (key, single) in self.singles() {
            if single.apply_to(base.clone()).validate().is_err() {
                return Err(blame(key));
            }
        }
        Err(blame(""))
    }
}

impl serde::Serialize for Scenario {
    /// A map of the parameters that are set, as a scenario file writes them.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let fields = self.scalars();
        let mut m = s.serialize_map(Some(fields.len()))?;
        for (k, v) in &fields {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> serde::Deserialize<'de> for Scenario {
    /// A map of parameters in their file forms (numbers, booleans, text); an unknown
    /// key or a bad value is an error naming the key.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum In {
            Bool(bool),
            Int(u64),
            Neg(i64),
            Real(f64),
            Text(String),
        }
        let map = std::collections::BTreeMap::<String, In>::deserialize(d)?;
        let mut s = Scenario::default();
        for (key, v) in map {
            let text = match v {
                In::Bool(b) => b.to_string(),
                In::Int(i) => i.to_string(),
                In::Neg(i) => i.to_string(),
                In::Real(x) => x.to_string(),
                In::Text(t) => t,
            };
            s.set(&key, &text).map_err(serde::de::Error::custom)?;
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of value written by `from_config` reads back to the same
    /// configuration, through TOML text.
    #[test]
    fn config_scenario_config_round_trip() {
        let base = RunConfig::default();
        let configs = [
            base.clone(),
            RunConfig {
                stations: 7,
                placement: Placement::Random,
                bus_length_m: 123.25,
                frames: FrameSizes::Uniform { min: 64, max: 1000 },
                traffic: Traffic::Poisson {
                    load: 0.123_456_789,
                },
                backoff: BackoffAlgorithm::Fixed { window: 9 },
                duration: Time::from_ps(1_234_567),
                seed: u64::MAX,
                ..base.clone()
            },
            RunConfig {
                frames: FrameSizes::Mix(vec![(64, 7), (594, 4), (1518, 1)]),
                backoff: BackoffAlgorithm::Polynomial { degree: 3 },
                duration: Time::from_ms(250),
                warmup: Time::from_ms(50),
                ..base.clone()
            },
            RunConfig {
                backoff: BackoffAlgorithm::Polynomial { degree: 1 },
                ..base.clone()
            }
            .with_medium(EthernetMedium::ALL[4]),
        ];
        for mut c in configs {
            if c.medium.is_none() {
                c.phy.bit_rate = 12_345;
                c.bus_length_m = c.bus_length_m.min(100.0);
            }
            let text = toml::to_string(&Scenario::from_config(&c)).unwrap();
            let back = Scenario::from_toml(&text).unwrap().to_config().unwrap();
            assert_eq!(back, c, "{text}");
        }
    }

    #[test]
    fn every_field_is_settable_by_its_text_and_listed() {
        let all = Scenario::from_config(&RunConfig::default());
        assert_eq!(all.keys().len(), FIELDS.len());
        for f in FIELDS {
            let text = all.get(f.key).unwrap();
            let mut s = Scenario::default();
            s.set(f.key, &text).unwrap();
            assert_eq!(s.keys(), [f.key]);
            assert!(!f.help.is_empty(), "{}", f.key);
        }
        let e = Scenario::default().set("stattions", "3").unwrap_err();
        assert!(
            e.to_string().starts_with("stattions: unknown parameter"),
            "{e}"
        );
    }

    #[test]
    fn errors_name_the_parameter() {
        let e = Scenario {
            attempt_limit: Some(0),
            ..Scenario::default()
        }
        .to_config()
        .unwrap_err();
        assert_eq!(e.key, "attempt_limit");
        let mut s = Scenario::default();
        assert_eq!(s.set("backoff", "poly:x").unwrap_err().key, "backoff");
        s.set("medium", "100BASE-TX").unwrap();
        s.set("length_m", "300").unwrap();
        assert_eq!(s.to_config().unwrap_err().key, "length_m");
        assert_eq!(
            Scenario::list("slot_bits", "512,512").unwrap_err().key,
            "slot_bits"
        );
        assert_eq!(Scenario::list("slot_bits", "512,4096").unwrap().len(), 2);
    }
}
