//! Scenario files: every parameter of a run of the exact model in one readable TOML
//! file (`mac-sim run --scenario FILE.toml`), with units written out (`duration =
//! "10s"`, `bit_rate = "10M"`, `frames = "64:7,594:4,1518:1"`, `load = 0.6` or
//! `"saturated"`). The same schema is the `"scenario"` key of a run's JSON result, so
//! a result re-runs from its own file.
//!
//! Every key is optional; a key that is absent keeps the default of
//! [`RunConfig::default`]. Unknown keys are refused.
//!
//! ```
//! use csma_cd::scenario::Scenario;
//! let s = Scenario::from_toml("stations = 50\nload = 0.6\n").unwrap();
//! let cfg = s.to_config().unwrap();
//! assert_eq!(cfg.stations, 50);
//! assert_eq!(Scenario::from_config(&cfg).to_config().unwrap(), cfg);
//! ```

use serde::{Deserialize, Serialize};
use sim_kit::time::{PS_PER_MS, PS_PER_NS, PS_PER_SEC, PS_PER_US, Time};

use crate::config::{BackoffAlgorithm, FrameSizes, RunConfig, Traffic};
use crate::error::ConfigError;
use crate::parse;

/// Offered load: a fraction of the bit rate (Poisson arrivals), or `"saturated"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LoadSpec {
    /// Total offered load as a fraction of the bit rate.
    Fraction(f64),
    /// `"saturated"`: every station always has a frame.
    Word(String),
}

/// One scenario: the model's parameters with readable units, each optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Ethernet preset, e.g. `"100BASE-TX"` (see [`ethernet`](crate::ethernet)):
    /// applied first, so the other keys override its bus length and burst limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium: Option<String>,
    /// Number of stations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stations: Option<u32>,
    /// Placement along the bus: `point`, `even` or `random`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<String>,
    /// Bus length, metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length_m: Option<f64>,
    /// Bit rate with suffix k, M or G, e.g. `"10M"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bit_rate: Option<String>,
    /// Frame sizes, bytes: `"1518"`, `"64-1518"` or `"64:7,594:4,1518:1"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frames: Option<String>,
    /// Offered load (fraction of the bit rate) or `"saturated"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<LoadSpec>,
    /// Simulated time with unit, e.g. `"10s"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<String>,
    /// Warm-up with unit, e.g. `"1s"`: statistics start after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warmup: Option<String>,
    /// Seed of every random choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Backoff algorithm: `beb`, `fixed`, `linear` or `poly`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backoff: Option<String>,
    /// Window of the fixed-window algorithm, slots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<u32>,
    /// Degree of the polynomial algorithm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degree: Option<u32>,
    /// backoffLimit (0..=32).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backoff_limit: Option<u32>,
    /// attemptLimit (1..=1024).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt_limit: Option<u32>,
    /// Frames a station can hold, the one being sent included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_limit: Option<u32>,
    /// Successes per window for the capture-effect share.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture_window: Option<u32>,
    /// Signal speed along the cable, metres per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub velocity: Option<f64>,
    /// Slot time, bit times.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot_bits: Option<u32>,
    /// Preamble and SFD, bit times.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preamble_bits: Option<u32>,
    /// Interframe gap, bit times.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ifg_bits: Option<u32>,
    /// Jam, bit times.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jam_bits: Option<u32>,
    /// Carrier extension to the slot (IEEE 802.3 clause 4.2.3.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carrier_extension: Option<bool>,
    /// Frame bursting's burstLimit, bit times; 0: no bursting (clause 4.2.3.2.7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst_limit_bits: Option<u32>,
    /// Interframe-gap rule: `8023`, `restart` or `none`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ifg_rule: Option<String>,
    /// Jam rule: `preamble` or `immediate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jam_rule: Option<String>,
}

/// A scenario that could not be read: the file, the line (1-based, 0 when unknown),
/// the key (empty when unknown) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The file as named by the user.
    pub file: String,
    /// 1-based line, 0 when not known.
    pub line: usize,
    /// The key at fault, empty when not known.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if !self.key.is_empty() {
            write!(f, ": key `{}`", self.key)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// A key's error before the file is known (the line is found later).
#[derive(Debug)]
struct KeyError {
    key: &'static str,
    message: String,
}

fn key_err(key: &'static str) -> impl Fn(ConfigError) -> KeyError {
    move |e| KeyError {
        key,
        message: e.to_string(),
    }
}

impl Scenario {
    /// Reads TOML text.
    ///
    /// # Errors
    ///
    /// The text is not TOML, has an unknown key or a value of the wrong type; the
    /// error's file is empty (see [`Scenario::from_file_text`]).
    pub fn from_toml(text: &str) -> Result<Scenario, ScenarioError> {
        toml::from_str(text).map_err(|e| {
            let line = e.span().map_or(0, |s| line_of(text, s.start));
            let msg = e.message().trim().to_string();
            let key = unknown_key(&msg).unwrap_or_else(|| key_on_line(text, line));
            ScenarioError {
                file: String::new(),
                line,
                key,
                message: msg,
            }
        })
    }

    /// Reads the text of a scenario file named `file` (for the messages): TOML, or
    /// with `json` a `mac-sim run --json` result, whose `"scenario"` key is read;
    /// checks every value. Reading the file itself is the host's
    /// (`csma_cd_host::scenario_file::load`).
    ///
    /// # Errors
    ///
    /// One [`ScenarioError`] naming the file, the line and the key: bad syntax, an
    /// unknown key, a wrong type or a value out of range.
    pub fn from_file_text(
        file: &str,
        text: &str,
        json: bool,
    ) -> Result<(Scenario, RunConfig), ScenarioError> {
        let parsed = if json {
            Self::from_json(text)
        } else {
            Self::from_toml(text)
        };
        let s = parsed.map_err(|e| ScenarioError {
            file: file.to_string(),
            ..e
        })?;
        let cfg = s.checked_config().map_err(|e| {
            let line = find_key_line(text, e.key);
            ScenarioError {
                file: file.to_string(),
                line,
                key: e.key.to_string(),
                message: e.message,
            }
        })?;
        Ok((s, cfg))
    }

    fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let e = |line: usize, key: String, message: String| ScenarioError {
            file: String::new(),
            line,
            key,
            message,
        };
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|x| e(x.line(), String::new(), x.to_string()))?;
        let s = v.get("scenario").ok_or_else(|| {
            e(
                0,
                "scenario".into(),
                "no \"scenario\" key (a `mac-sim run --json` result has one)".into(),
            )
        })?;
        Scenario::deserialize(s).map_err(|x| {
            let msg = x.to_string();
            let key = unknown_key(&msg).unwrap_or_default();
            let line = find_key_line(text, &key);
            e(line, key, msg)
        })
    }

    /// The configuration: the defaults with every key that is set.
    ///
    /// # Errors
    ///
    /// A [`ScenarioError`] (file and line unknown, key known) for a value that does
    /// not parse or is out of range.
    pub fn to_config(&self) -> Result<RunConfig, ScenarioError> {
        self.checked_config().map_err(|e| ScenarioError {
            file: String::new(),
            line: 0,
            key: e.key.to_string(),
            message: e.message,
        })
    }

    fn apply(&self) -> Result<RunConfig, KeyError> {
        let mut c = RunConfig::default();
        if let Some(v) = &self.medium {
            c = c.with_medium(v.parse().map_err(key_err("medium"))?);
        }
        // Keys taken as they are.
        macro_rules! copy {
            ($($key:ident => $($field:ident).+),* $(,)?) => {$(
                if let Some(v) = self.$key {
                    c.$($field).+ = v;
                }
            )*};
        }
        copy!(
            stations => stations,
            length_m => bus_length_m,
            seed => seed,
            backoff_limit => backoff_limit,
            attempt_limit => attempt_limit,
            queue_limit => queue_limit,
            capture_window => capture_window,
            velocity => phy.velocity_m_per_s,
            slot_bits => phy.slot_bits,
            preamble_bits => phy.preamble_bits,
            ifg_bits => phy.ifg_bits,
            jam_bits => phy.jam_bits,
            carrier_extension => phy.carrier_extension,
            burst_limit_bits => phy.burst_limit_bits,
        );
        // Keys in readable units, parsed as the command line parses them.
        macro_rules! parse {
            ($($key:ident => $($field:ident).+ = $parse:expr),* $(,)?) => {$(
                if let Some(v) = &self.$key {
                    c.$($field).+ = $parse(v.as_str()).map_err(key_err(stringify!($key)))?;
                }
            )*};
        }
        parse!(
            placement => placement = str::parse,
            bit_rate => phy.bit_rate = parse::bit_rate,
            frames => frames = parse::frame_sizes,
            duration => duration_ps = parse::duration,
            warmup => warmup_ps = parse::duration,
            ifg_rule => ifg_rule = str::parse,
            jam_rule => jam_rule = str::parse,
        );
        if let Some(v) = &self.load {
            c.traffic = match v {
                LoadSpec::Word(w) if w == "saturated" => Traffic::Saturated,
                LoadSpec::Word(w) => Traffic::Poisson {
                    load: parse::load(w).map_err(key_err("load"))?,
                },
                LoadSpec::Fraction(g) => Traffic::Poisson {
                    load: parse::load(&g.to_string()).map_err(key_err("load"))?,
                },
            };
        }
        let window = self.window.unwrap_or(32);
        let degree = self.degree.unwrap_or(2);
        if let Some(v) = &self.backoff {
            c.backoff = match v.as_str() {
                "beb" => BackoffAlgorithm::Beb,
                "fixed" => BackoffAlgorithm::Fixed { window },
                "linear" => BackoffAlgorithm::Polynomial { degree: 1 },
                "poly" => BackoffAlgorithm::Polynomial { degree },
                other => {
                    return Err(KeyError {
                        key: "backoff",
                        message: format!(
                            "'{other}' is not a backoff algorithm (beb, fixed, linear or poly)"
                        ),
                    });
                }
            };
        }
        Ok(c)
    }

    /// [`Scenario::apply`] then [`RunConfig::validate`]; a range error is blamed on
    /// the first key that alone, on the defaults, fails (or on the file as a whole).
    fn checked_config(&self) -> Result<RunConfig, KeyError> {
        let cfg = self.apply()?;
        let Err(whole) = cfg.validate() else {
            return Ok(cfg);
        };
        if matches!(whole, ConfigError::Warmup { .. }) && self.warmup.is_some() {
            return Err(KeyError {
                key: "warmup",
                message: whole.to_string(),
            });
        }
        // A key that contradicts the preset is the one to blame.
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
            return Err(KeyError {
                key,
                message: whole.to_string(),
            });
        }
        for (key, single) in self.singles() {
            if single.apply().is_ok_and(|c| c.validate().is_err()) {
                return Err(KeyError {
                    key,
                    message: whole.to_string(),
                });
            }
        }
        Err(KeyError {
            key: "",
            message: whole.to_string(),
        })
    }

    /// Each set key alone, as a scenario of one key.
    fn singles(&self) -> Vec<(&'static str, Scenario)> {
        let mut out = Vec::new();
        macro_rules! one {
            ($($f:ident),*) => {$(
                if self.$f.is_some() {
                    out.push((stringify!($f), Scenario { $f: self.$f.clone(), ..Scenario::default() }));
                }
            )*};
        }
        one!(
            medium,
            stations,
            placement,
            length_m,
            bit_rate,
            frames,
            load,
            duration,
            warmup,
            seed,
            backoff,
            window,
            degree,
            backoff_limit,
            attempt_limit,
            queue_limit,
            capture_window,
            velocity,
            slot_bits,
            preamble_bits,
            ifg_bits,
            jam_bits,
            carrier_extension,
            burst_limit_bits,
            ifg_rule,
            jam_rule
        );
        out
    }

    /// The scenario of a configuration, every key set, in readable units; reading it
    /// back gives the same configuration.
    pub fn from_config(c: &RunConfig) -> Scenario {
        let (backoff, window, degree) = match c.backoff {
            BackoffAlgorithm::Beb => ("beb", None, None),
            BackoffAlgorithm::Fixed { window } => ("fixed", Some(window), None),
            BackoffAlgorithm::Polynomial { degree: 1 } => ("linear", None, None),
            BackoffAlgorithm::Polynomial { degree } => ("poly", None, Some(degree)),
        };
        let preset_bursts = c.medium.is_some_and(|m| m.params().burst_limit_bits != 0);
        Scenario {
            medium: c.medium.map(|m| m.name().to_string()),
            stations: Some(c.stations),
            placement: Some(placement_label(c)),
            length_m: Some(c.bus_length_m),
            bit_rate: Some(rate_label(c.phy.bit_rate)),
            frames: Some(frames_label(&c.frames)),
            load: Some(match c.traffic {
                Traffic::Saturated => LoadSpec::Word("saturated".into()),
                Traffic::Poisson { load } => LoadSpec::Fraction(load),
            }),
            duration: Some(time_label(c.duration_ps)),
            warmup: (!c.warmup_ps.is_zero()).then(|| time_label(c.warmup_ps)),
            seed: Some(c.seed),
            backoff: Some(backoff.into()),
            window,
            degree,
            backoff_limit: Some(c.backoff_limit),
            attempt_limit: Some(c.attempt_limit),
            queue_limit: Some(c.queue_limit),
            capture_window: Some(c.capture_window),
            velocity: Some(c.phy.velocity_m_per_s),
            slot_bits: Some(c.phy.slot_bits),
            preamble_bits: Some(c.phy.preamble_bits),
            ifg_bits: Some(c.phy.ifg_bits),
            jam_bits: Some(c.phy.jam_bits),
            carrier_extension: c.phy.carrier_extension.then_some(true),
            burst_limit_bits: (c.phy.burst_limit_bits != 0 || preset_bursts)
                .then_some(c.phy.burst_limit_bits),
            ifg_rule: Some(c.ifg_rule.label().into()),
            jam_rule: Some(c.jam_rule.label().into()),
        }
    }
}

fn placement_label(c: &RunConfig) -> String {
    use crate::config::Placement;
    match c.placement {
        Placement::Point => "point",
        Placement::Even => "even",
        Placement::Random => "random",
    }
    .into()
}

fn frames_label(f: &FrameSizes) -> String {
    match f {
        FrameSizes::Mix(v) => v
            .iter()
            .map(|(b, w)| format!("{b}:{w}"))
            .collect::<Vec<_>>()
            .join(","),
        other => other.label(),
    }
}

/// A bit rate with the largest exact suffix, e.g. `10M`.
fn rate_label(r: u64) -> String {
    for (m, s) in [(1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")] {
        if r % m == 0 {
            return format!("{}{s}", r / m);
        }
    }
    r.to_string()
}

/// A time with the largest exact unit, e.g. `10s`; below a nanosecond, a decimal
/// number of nanoseconds.
fn time_label(t: Time) -> String {
    let ps = t.as_ps();
    for (m, s) in [
        (PS_PER_SEC, "s"),
        (PS_PER_MS, "ms"),
        (PS_PER_US, "us"),
        (PS_PER_NS, "ns"),
    ] {
        if ps % m == 0 {
            return format!("{}{s}", ps / m);
        }
    }
    format!("{}.{:03}ns", ps / PS_PER_NS, ps % PS_PER_NS)
}

/// The key of serde's "unknown field `x`" message.
fn unknown_key(msg: &str) -> Option<String> {
    let rest = msg.split("unknown field `").nth(1)?;
    Some(rest.split('`').next()?.to_string())
}

/// The 1-based line of byte offset `at`.
fn line_of(text: &str, at: usize) -> usize {
    text.bytes().take(at).filter(|&b| b == b'\n').count() + 1
}

/// The key written on a (1-based) line of TOML, `key = value`.
fn key_on_line(text: &str, line: usize) -> String {
    let Some(l) = line.checked_sub(1).and_then(|i| text.lines().nth(i)) else {
        return String::new();
    };
    l.split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_string())
        .unwrap_or_default()
}

/// The first line (1-based) where `key` is written (TOML `key =` or JSON `"key":`), or 0.
fn find_key_line(text: &str, key: &str) -> usize {
    if key.is_empty() {
        return 0;
    }
    let quoted = format!("\"{key}\"");
    text.lines()
        .position(|l| {
            let t = l.trim_start();
            let toml = t
                .strip_prefix(key)
                .or_else(|| t.strip_prefix(&quoted))
                .is_some_and(|r| r.trim_start().starts_with('='));
            let json = l
                .match_indices(&quoted)
                .any(|(i, _)| l[i + quoted.len()..].trim_start().starts_with(':'));
            toml || json
        })
        .map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Placement;

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
                duration_ps: Time::from_ps(1_234_567),
                seed: u64::MAX,
                ..base.clone()
            },
            RunConfig {
                frames: FrameSizes::Mix(vec![(64, 7), (594, 4), (1518, 1)]),
                backoff: BackoffAlgorithm::Polynomial { degree: 3 },
                duration_ps: Time::from_ms(250),
                ..base.clone()
            },
            RunConfig {
                backoff: BackoffAlgorithm::Polynomial { degree: 1 },
                ..base.clone()
            },
        ];
        for mut c in configs {
            c.phy.bit_rate = 12_345;
            c.bus_length_m = c.bus_length_m.min(100.0);
            let text = toml::to_string(&Scenario::from_config(&c)).unwrap();
            let back = Scenario::from_toml(&text).unwrap().to_config().unwrap();
            assert_eq!(back, c, "{text}");
        }
    }

    #[test]
    fn labels() {
        assert_eq!(time_label(Time::from_secs(10)), "10s");
        assert_eq!(time_label(Time::from_us(1500)), "1500us");
        assert_eq!(time_label(Time::from_ps(1_234_567)), "1234.567ns");
        assert_eq!(rate_label(100_000_000), "100M");
        assert_eq!(rate_label(12_345), "12345");
    }

    #[test]
    fn errors_name_line_and_key() {
        let e = Scenario::from_toml("seed = 1\nqueue_limt = 3\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (2, "queue_limt"));
        let e = Scenario::from_toml("seed = -1\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (1, "seed"));
        let e = Scenario {
            attempt_limit: Some(0),
            ..Scenario::default()
        }
        .to_config()
        .unwrap_err();
        assert_eq!(e.key, "attempt_limit");
    }
}
