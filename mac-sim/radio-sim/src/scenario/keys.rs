//! Every key of a radio run: its values with the unit, its default and its meaning
//! ([`KEYS`]), and the one function that sets a key of a [`RadioConfig`] from text
//! ([`set`]). Scenario files, the command line's flags and sweep points all go
//! through [`set`], so a key means the same wherever it is written;
//! `mac-sim radio --keys` prints [`reference()`].
//!
//! ```
//! use radio_sim::RadioConfig;
//! use radio_sim::scenario::keys::set;
//! let mut c = RadioConfig::default();
//! set(&mut c, "load", "0.25").unwrap();
//! assert_eq!(c.load, 0.25);
//! assert_eq!(set(&mut c, "lode", "1").unwrap_err().to_string(),
//!            "lode: unknown key (mac-sim radio --keys lists them)");
//! assert!(set(&mut c, "load", "-1").is_err());
//! ```

use core::fmt;

use sim_kit::output::text::wrap;
use sim_kit::time::Time;

use crate::config::{
    COUNTDOWNS, Destination, MAX_PAYLOAD, MAX_STATIONS, MIN_PAYLOAD, RadioConfig, Rule, Topology,
    Traffic,
};

/// The type a key's value has in a scenario file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer.
    Integer,
    /// A number (an integer is accepted).
    Number,
    /// A string: a name or a duration with its unit.
    Text,
}

/// One key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyDoc {
    /// The key as written in a file (`--KEY` on the command line, `-` for `_`).
    pub key: &'static str,
    /// Its type in a file.
    pub kind: Kind,
    /// The values it takes, with the unit.
    pub value: &'static str,
    /// Its default.
    pub default: &'static str,
    /// What it means.
    pub meaning: &'static str,
}

const fn k(
    key: &'static str,
    kind: Kind,
    value: &'static str,
    default: &'static str,
    meaning: &'static str,
) -> KeyDoc {
    KeyDoc {
        key,
        kind,
        value,
        default,
        meaning,
    }
}

use Kind::{Integer, Number, Text};

/// Every key, in the order the reference lists them.
pub const KEYS: &[KeyDoc] = &[
    k(
        "stations",
        Integer,
        "integer, 2 to 254",
        "10",
        "stations, the sink (station 0) included",
    ),
    k(
        "topology",
        Text,
        "\"all\", \"line\", \"star\", \"random\" or \"positions\"",
        "\"all\"",
        "who hears whom: everyone; i hears i-1 and i+1; everyone hears the sink only \
         (the others are hidden from each other); a random geometric graph in a square \
         of side area with links up to radius; the [[station]] positions of a \
         scenario file with links up to radius",
    ),
    k(
        "radius",
        Number,
        "metres, above 0",
        "30",
        "link range of random and positions",
    ),
    k(
        "area",
        Number,
        "metres, above 0",
        "100",
        "side of the square of random",
    ),
    k(
        "spacing",
        Number,
        "metres, above 0",
        "10",
        "distance between neighbours of line",
    ),
    k(
        "tx_power",
        Number,
        "dBm",
        "0",
        "transmit power of every station (path-loss model)",
    ),
    k(
        "reference_loss",
        Number,
        "dB, 0 or more",
        "40.2",
        "path loss at 1 m (free space at 2.45 GHz)",
    ),
    k(
        "path_loss_exponent",
        Number,
        "above 0",
        "3",
        "n of the log-distance model P_rx = P_tx - PL(1 m) - 10 n log10(d / 1 m)",
    ),
    k(
        "fixed_rx",
        Number,
        "dBm",
        "-60",
        "received power of every link of all and star (no positions)",
    ),
    k(
        "traffic",
        Text,
        "\"saturated\" or \"poisson\"",
        "\"saturated\"",
        "every sender always has a frame, or Poisson arrivals at offered load load",
    ),
    k(
        "load",
        Number,
        "above 0",
        "0.4",
        "poisson: offered load G, the senders' aggregate data air time as a fraction of \
         the channel (each of K senders offers G / K)",
    ),
    k(
        "to",
        Text,
        "\"sink\" or \"neighbour\"",
        "\"sink\"",
        "destination of every frame: station 0, or a station the sender hears drawn per \
         frame; stations that do not hear a destination send nothing",
    ),
    k(
        "payload",
        Integer,
        "bytes, 4 to 118",
        "50",
        "payload of every data frame (118 = 127, IEEE 802.15.4's aMaxPhyPacketSize, \
         minus radio-mac's 9 bytes of header and check)",
    ),
    k(
        "queue",
        Integer,
        "frames, 1 or more",
        "64",
        "poisson: each sender's host queue; an arrival to a full queue is dropped",
    ),
    k(
        "loss",
        Number,
        "0 to below 1",
        "0",
        "probability that an arrival that would be intact is lost, per receiver",
    ),
    k(
        "capture_db",
        Number,
        "dB, 0 or more (\"off\" on the command line)",
        "none (no capture)",
        "a packet survives an overlap when it is at least this much stronger than every \
         overlapping packet",
    ),
    k(
        "cca_delay",
        Text,
        "duration (0s allowed)",
        "the MAC's turnaround, 192us",
        "from a transmission's start to when the listeners' carrier sense sees it",
    ),
    k(
        "rule",
        Text,
        "\"ieee802154\", \"beb\" or \"dcf\"",
        "\"ieee802154\"",
        "channel-access rule: IEEE 802.15.4 unslotted CSMA/CA, IEEE 802.3 binary \
         exponential backoff after a busy channel and a missing ACK, or an IEEE 802.11 \
         DCF-like rule as Bianchi (2000) models it",
    ),
    k(
        "min_be",
        Integer,
        "integer",
        "the rule's",
        "ieee802154: macMinBE",
    ),
    k(
        "max_be",
        Integer,
        "integer",
        "the rule's",
        "ieee802154: macMaxBE",
    ),
    k(
        "max_csma_backoffs",
        Integer,
        "integer",
        "the rule's",
        "ieee802154: macMaxCSMABackoffs",
    ),
    k(
        "max_frame_retries",
        Integer,
        "integer",
        "the rule's",
        "ieee802154: macMaxFrameRetries",
    ),
    k(
        "cw_min",
        Integer,
        "slots",
        "the rule's",
        "dcf: the smallest contention window",
    ),
    k(
        "max_stage",
        Integer,
        "integer",
        "the rule's",
        "dcf: the backoff stage at which the window stops doubling",
    ),
    k(
        "retry_limit",
        Integer,
        "integer",
        "the rule's",
        "dcf: attempts after the first before a frame is dropped",
    ),
    k(
        "countdown",
        Text,
        "\"virtual-slots\" or \"idle-slots\"",
        "\"virtual-slots\"",
        "dcf: the counter steps per idle slot and per busy period (Bianchi's model) or \
         per idle slot only (IEEE 802.11's countdown)",
    ),
    k(
        "warmup",
        Text,
        "duration (0s allowed)",
        "1s",
        "simulated time before the measurement",
    ),
    k(
        "duration",
        Text,
        "duration",
        "10s",
        "simulated time measured after the warm-up",
    ),
    k(
        "seed",
        Integer,
        "integer, 0 or more",
        "1",
        "seed of every random choice",
    ),
];

/// The documentation of `key`, if it is one.
pub fn doc(key: &str) -> Option<&'static KeyDoc> {
    KEYS.iter().find(|d| d.key == key)
}

/// A key that cannot be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError {
    /// The key as given.
    pub key: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.problem)
    }
}

impl std::error::Error for KeyError {}

/// Set `key` of `c` to `value` (text, as on the command line).
///
/// # Errors
///
/// A [`KeyError`] for an unknown key or a value it does not take (the key's
/// [`KeyDoc::value`] says which).
pub fn set(c: &mut RadioConfig, key: &str, value: &str) -> Result<(), KeyError> {
    let Some(d) = doc(key) else {
        return Err(KeyError {
            key: key.to_string(),
            problem: "unknown key (mac-sim radio --keys lists them)".to_string(),
        });
    };
    let v = value.trim();
    let bad = || KeyError {
        key: key.to_string(),
        problem: format!("'{value}' is not {}", d.value),
    };
    let int = |lo: u64, hi: u64| -> Result<u64, KeyError> {
        v.parse::<u64>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(bad)
    };
    let num = |ok: fn(f64) -> bool| -> Result<f64, KeyError> {
        v.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && ok(*x))
            .ok_or_else(bad)
    };
    let small = || int(0, u64::from(u32::MAX)).map(|n| Some(n as u32));
    let positive = |x: f64| x > 0.0;
    let any = |_: f64| true;
    match key {
        "stations" => c.stations = int(2, u64::from(MAX_STATIONS))? as u16,
        "topology" => {
            c.topology = match v {
                "all" => Topology::All,
                "line" => Topology::Line,
                "star" => Topology::Star,
                "random" => Topology::Random,
                "positions" => Topology::Positions,
                _ => return Err(bad()),
            }
        }
        "radius" => c.radius_m = num(positive)?,
        "area" => c.area_m = num(positive)?,
        "spacing" => c.spacing_m = num(positive)?,
        "tx_power" => c.tx_power_dbm = num(any)?,
        "reference_loss" => c.reference_loss_db = num(|x| x >= 0.0)?,
        "path_loss_exponent" => c.path_loss_exponent = num(positive)?,
        "fixed_rx" => c.fixed_rx_dbm = num(any)?,
        "traffic" => {
            c.traffic = match v {
                "saturated" => Traffic::Saturated,
                "poisson" => Traffic::Poisson,
                _ => return Err(bad()),
            }
        }
        "load" => c.load = num(positive)?,
        "to" => {
            c.to = match v {
                "sink" => Destination::Sink,
                "neighbour" | "neighbor" => Destination::Neighbour,
                _ => return Err(bad()),
            }
        }
        "payload" => c.payload = int(MIN_PAYLOAD as u64, MAX_PAYLOAD as u64)? as u16,
        "queue" => c.queue = int(1, u64::from(u32::MAX))? as u32,
        "loss" => c.loss = num(|x| (0.0..1.0).contains(&x))?,
        "capture_db" if v == "off" => c.capture_db = None,
        "capture_db" => c.capture_db = Some(num(|x| x >= 0.0)?),
        "cca_delay" => c.cca_delay = Some(instant(v).ok_or_else(bad)?),
        "rule" => {
            c.rule.rule = match v {
                "ieee802154" => Rule::Ieee802154,
                "beb" => Rule::Beb,
                "dcf" => Rule::Dcf,
                _ => return Err(bad()),
            }
        }
        "min_be" => c.rule.min_be = small()?,
        "max_be" => c.rule.max_be = small()?,
        "max_csma_backoffs" => c.rule.max_csma_backoffs = small()?,
        "max_frame_retries" => c.rule.max_frame_retries = small()?,
        "cw_min" => c.rule.cw_min = small()?,
        "max_stage" => c.rule.max_stage = small()?,
        "retry_limit" => c.rule.retry_limit = small()?,
        "countdown" => {
            let named = COUNTDOWNS.iter().find(|(name, _)| *name == v);
            c.rule.countdown = Some(named.ok_or_else(bad)?.1);
        }
        "warmup" => c.warmup = instant(v).ok_or_else(bad)?,
        "duration" => c.duration = Time::parse(v).map_err(|_| bad())?,
        "seed" => c.seed = int(0, u64::MAX)?,
        _ => return Err(bad()),
    }
    Ok(())
}

/// A duration with its unit, zero allowed (`0s`).
fn instant(v: &str) -> Option<Time> {
    let zero = ["ms", "us", "µs", "ns", "s"]
        .iter()
        .find_map(|u| v.strip_suffix(u))
        .is_some_and(|n| n.trim().parse::<f64>() == Ok(0.0));
    if zero {
        return Some(Time::ZERO);
    }
    Time::parse(v).ok()
}

/// Whether `key` has an effect on a run of `c`. Every key has, but those that only
/// one kind of traffic or some topologies read: `load` and `queue` (Poisson traffic),
/// `spacing` (line), `area` (random), `radius` (random, positions), `fixed_rx` (all,
/// star) and the path-loss model's `tx_power`, `reference_loss` and
/// `path_loss_exponent` (line, random, positions). (A rule's parameters given for
/// another rule are refused by [`RadioConfig::validate`].)
///
/// ```
/// use radio_sim::RadioConfig;
/// use radio_sim::scenario::keys::{has_effect, set};
/// let mut c = RadioConfig::default();
/// assert!(!has_effect(&c, "load"));
/// set(&mut c, "traffic", "poisson").unwrap();
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
        _ => true,
    }
}

/// Refuses the first of the keys `given` (in a file, a flag, `--set` or a sweep axis)
/// that has no effect on any of the runs `configs` ([`has_effect`]), so that a setting
/// is never silently ignored.
///
/// # Errors
///
/// A [`KeyError`] naming the key and the setting that leaves it without effect.
pub fn check_effect<'a>(
    configs: &[&RadioConfig],
    given: impl IntoIterator<Item = &'a str>,
) -> Result<(), KeyError> {
    let Some(first) = configs.first() else {
        return Ok(());
    };
    for key in given {
        if configs.iter().any(|c| has_effect(c, key)) {
            continue;
        }
        let problem = match key {
            "load" | "queue" => format!(
                "has no effect with traffic \"{}\" (it is for traffic \"poisson\")",
                first.traffic.name()
            ),
            _ => format!(
                "has no effect with topology \"{}\" (see mac-sim radio --keys)",
                first.topology.name()
            ),
        };
        return Err(KeyError {
            key: key.to_string(),
            problem,
        });
    }
    Ok(())
}

/// The reference of every key, as `mac-sim radio --keys` prints it.
pub fn reference() -> String {
    let mut out = String::from(
        "Keys of mac-sim radio. A scenario file sets them at its top level (durations \
         as strings with a unit, \"10s\"; [[station]] tables with x and y in metres give \
         positions); the command line sets them with --KEY VALUE (- for _) or --set \
         KEY=VALUE, over the file; --sweep KEY=V1,V2 runs every combination.\n",
    );
    let mut text = String::new();
    for line in out.lines() {
        for piece in wrap(line, 88) {
            text.push_str(&piece);
            text.push('\n');
        }
    }
    out = text;
    out.push('\n');
    for d in KEYS {
        out.push_str(&format!(
            "  {} = {} (default {})\n",
            d.key, d.value, d.default
        ));
        for piece in wrap(d.meaning, 82) {
            out.push_str("      ");
            out.push_str(&piece);
            out.push('\n');
        }
    }
    out.push_str("  [[station]] x = metres, y = metres (one table per station, in order)\n");
    out.push_str("      a position per station; implies topology \"positions\"\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_can_be_set_from_its_default_or_an_example() {
        let example = |d: &KeyDoc| match d.key {
            "topology" => "line",
            "traffic" => "poisson",
            "to" => "neighbour",
            "rule" => "beb",
            "countdown" => "idle-slots",
            "cca_delay" | "warmup" | "duration" => "2ms",
            "loss" => "0.5",
            _ => "7",
        };
        for d in KEYS {
            let mut c = RadioConfig::default();
            set(&mut c, d.key, example(d)).unwrap_or_else(|e| panic!("{e}"));
            assert_ne!(c, RadioConfig::default(), "{} changed nothing", d.key);
            assert!(reference().contains(&format!("  {} = ", d.key)));
        }
    }

    #[test]
    fn capture_can_be_turned_off_again() {
        let mut c = RadioConfig::default();
        set(&mut c, "capture_db", "6").unwrap();
        assert_eq!(c.capture_db, Some(6.0));
        set(&mut c, "capture_db", "off").unwrap();
        assert_eq!(c.capture_db, None);
    }

    #[test]
    fn bad_values_name_the_key() {
        let mut c = RadioConfig::default();
        for (k, v) in [
            ("stations", "1"),
            ("stations", "255"),
            ("payload", "119"),
            ("loss", "1"),
            ("duration", "10"),
            ("topology", "ring"),
            ("rule", "aloha"),
            ("countdown", "slots"),
            ("load", "nan"),
        ] {
            let e = set(&mut c, k, v).unwrap_err();
            assert_eq!(e.key, k);
            assert!(e.to_string().contains(v), "{e}");
        }
        assert_eq!(c, RadioConfig::default());
    }
}
