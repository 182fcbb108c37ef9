//! The one text form of every kind of parameter value, and how it appears in a
//! scenario file, in a results column and in a sweep's list of values.
//!
//! A [`Codec`] names a kind of value: `u32` a count, `f64` a real number, `Time` a
//! duration with its unit (`10s`), [`BitRate`] a rate with its suffix (`10M`),
//! [`BackoffAlgorithm`] `beb`, `linear`, `poly:3` or `fixed:32`, and so on. The
//! command line, scenario files, JSON results, sweeps, the browser and Python all
//! read and write values through these, so a value has the same text everywhere.

use sim_kit::range;
use sim_kit::time::{PS_PER_MS, PS_PER_NS, PS_PER_SEC, PS_PER_US, Time};

use crate::config::{BackoffAlgorithm, FrameSizes, IfgRule, JamRule, Placement, Traffic};
use crate::error::ConfigError;
use crate::ethernet::EthernetMedium;
use crate::parse;
use crate::table::Cell;

/// A value as a scenario file holds it: TOML and JSON numbers and booleans stay
/// numbers and booleans, everything else is its text form.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    /// A whole number.
    Int(u64),
    /// A real number.
    Real(f64),
    /// Yes or no.
    Bool(bool),
    /// Text.
    Text(String),
}

impl serde::Serialize for Scalar {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Int(v) => s.serialize_u64(*v),
            Self::Real(v) => s.serialize_f64(*v),
            Self::Bool(v) => s.serialize_bool(*v),
            Self::Text(v) => s.serialize_str(v),
        }
    }
}

/// A kind of parameter value: its one text form, its form in files and its results
/// columns.
pub trait Codec {
    /// The value in a [`RunConfig`](crate::config::RunConfig).
    type Value: Clone + PartialEq + std::fmt::Debug;
    /// Reads the text form (as given on the command line, in a file or by Python).
    ///
    /// # Errors
    ///
    /// The [`ConfigError`] that describes the text's fault.
    fn parse(text: &str) -> Result<Self::Value, ConfigError>;
    /// The text form; [`parse`](Self::parse) reads it back to the same value.
    fn text(v: &Self::Value) -> String;
    /// The value as a scenario file writes it.
    fn scalar(v: &Self::Value) -> Scalar {
        Scalar::Text(Self::text(v))
    }
    /// The results columns of a parameter named `key`: by default one column, the
    /// key, holding the text form.
    fn cells(key: &str, v: &Self::Value) -> Vec<(String, Cell)> {
        vec![(key.to_string(), Cell::Text(Self::text(v)))]
    }
    /// A sweep's list of values: comma-separated items, each in the text form.
    ///
    /// # Errors
    ///
    /// The first item's [`ConfigError`], or [`ConfigError::Value`] for an empty list.
    fn list(text: &str) -> Result<Vec<Self::Value>, ConfigError> {
        split_items(text).map(Self::parse).collect()
    }
}

/// The items of a comma-separated list, trimmed; an empty list has one empty item.
fn split_items(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim)
}

/// The numbers of a list with ranges (`1..=256:x2`, `0.1..=1.0:0.1`), see
/// [`sim_kit::range`].
fn numbers(text: &str) -> Result<Vec<f64>, ConfigError> {
    range::values(text).map_err(|e| ConfigError::List(e.to_string()))
}

impl Codec for u32 {
    type Value = u32;
    fn parse(text: &str) -> Result<u32, ConfigError> {
        text.trim().parse().map_err(|_| ConfigError::Value {
            text: text.to_string(),
            expected: "a whole number from 0 to 4294967295",
        })
    }
    fn text(v: &u32) -> String {
        v.to_string()
    }
    fn scalar(v: &u32) -> Scalar {
        Scalar::Int(u64::from(*v))
    }
    fn cells(key: &str, v: &u32) -> Vec<(String, Cell)> {
        vec![(key.to_string(), Cell::Int(u64::from(*v)))]
    }
    fn list(text: &str) -> Result<Vec<u32>, ConfigError> {
        numbers(text)?
            .into_iter()
            .map(|x| Self::parse(&x.to_string()))
            .collect()
    }
}

impl Codec for u64 {
    type Value = u64;
    fn parse(text: &str) -> Result<u64, ConfigError> {
        text.trim().parse().map_err(|_| ConfigError::Value {
            text: text.to_string(),
            expected: "a whole number from 0 to 18446744073709551615",
        })
    }
    fn text(v: &u64) -> String {
        v.to_string()
    }
    /// A number, or text above 2^63 - 1, the largest integer TOML holds.
    fn scalar(v: &u64) -> Scalar {
        if i64::try_from(*v).is_ok() {
            Scalar::Int(*v)
        } else {
            Scalar::Text(v.to_string())
        }
    }
    fn cells(key: &str, v: &u64) -> Vec<(String, Cell)> {
        vec![(key.to_string(), Cell::Int(*v))]
    }
}

impl Codec for f64 {
    type Value = f64;
    fn parse(text: &str) -> Result<f64, ConfigError> {
        text.trim().parse().map_err(|_| ConfigError::Value {
            text: text.to_string(),
            expected: "a number",
        })
    }
    fn text(v: &f64) -> String {
        v.to_string()
    }
    fn scalar(v: &f64) -> Scalar {
        Scalar::Real(*v)
    }
    fn cells(key: &str, v: &f64) -> Vec<(String, Cell)> {
        vec![(key.to_string(), Cell::Exact(*v))]
    }
    fn list(text: &str) -> Result<Vec<f64>, ConfigError> {
        numbers(text)
    }
}

impl Codec for bool {
    type Value = bool;
    fn parse(text: &str) -> Result<bool, ConfigError> {
        match text.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(ConfigError::Value {
                text: text.to_string(),
                expected: "true or false",
            }),
        }
    }
    fn text(v: &bool) -> String {
        v.to_string()
    }
    fn scalar(v: &bool) -> Scalar {
        Scalar::Bool(*v)
    }
    fn cells(key: &str, v: &bool) -> Vec<(String, Cell)> {
        vec![(key.to_string(), Cell::Bool(*v))]
    }
}

/// A simulated time with its unit: `10s`, `250ms`, `1.5us`, `0` (none).
impl Codec for Time {
    type Value = Time;
    fn parse(text: &str) -> Result<Time, ConfigError> {
        let t = text.trim();
        let zero = t
            .trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == 'µ')
            .parse::<f64>()
            .is_ok_and(|v| v == 0.0);
        if zero {
            return Ok(Time::ZERO);
        }
        parse::duration(text)
    }
    /// The largest exact unit, e.g. `10s`; below a nanosecond, a decimal number of
    /// nanoseconds.
    fn text(v: &Time) -> String {
        let ps = v.as_ps();
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
    /// One column, `KEY_s`, in seconds.
    fn cells(key: &str, v: &Time) -> Vec<(String, Cell)> {
        vec![(format!("{key}_s"), Cell::Exact(v.as_secs_f64()))]
    }
}

/// A bit rate in bits per second, written with the largest exact suffix: `10M`.
#[derive(Clone, Copy, Debug)]
pub struct BitRate;

impl Codec for BitRate {
    type Value = u64;
    fn parse(text: &str) -> Result<u64, ConfigError> {
        parse::bit_rate(text)
    }
    fn text(v: &u64) -> String {
        for (m, s) in [(1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")] {
            if v % m == 0 {
                return format!("{}{s}", v / m);
            }
        }
        v.to_string()
    }
    /// One column, `KEY_bps`, in bits per second.
    fn cells(key: &str, v: &u64) -> Vec<(String, Cell)> {
        vec![(format!("{key}_bps"), Cell::Int(*v))]
    }
}

/// `point`, `even` or `random`.
impl Codec for Placement {
    type Value = Placement;
    fn parse(text: &str) -> Result<Placement, ConfigError> {
        text.trim().parse()
    }
    fn text(v: &Placement) -> String {
        match v {
            Placement::Point => "point",
            Placement::Even => "even",
            Placement::Random => "random",
        }
        .into()
    }
}

/// `1518` (fixed), `64-1518` (uniform) or `64:7,594:4,1518:1` (a weighted mix; in a
/// sweep's list, beside other items, its parts are joined by `+`).
impl Codec for FrameSizes {
    type Value = FrameSizes;
    fn parse(text: &str) -> Result<FrameSizes, ConfigError> {
        parse::frame_sizes(&text.replace('+', ","))
    }
    fn text(v: &FrameSizes) -> String {
        match v {
            FrameSizes::Mix(m) => m
                .iter()
                .map(|(b, w)| format!("{b}:{w}"))
                .collect::<Vec<_>>()
                .join(","),
            other => other.label(),
        }
    }
    /// The text form, and the mean frame size in bits.
    fn cells(key: &str, v: &FrameSizes) -> Vec<(String, Cell)> {
        vec![
            (key.to_string(), Cell::Text(Self::text(v))),
            ("frame_mean_bits".into(), Cell::Num(v.mean_bits())),
        ]
    }
    fn list(text: &str) -> Result<Vec<FrameSizes>, ConfigError> {
        crate::parse::frame_list(text)
    }
}

/// An offered load as a fraction of the bit rate (Poisson arrivals), or `saturated`.
impl Codec for Traffic {
    type Value = Traffic;
    fn parse(text: &str) -> Result<Traffic, ConfigError> {
        match text.trim() {
            "saturated" => Ok(Traffic::Saturated),
            t => Ok(Traffic::Poisson {
                load: parse::load(t)?,
            }),
        }
    }
    fn text(v: &Traffic) -> String {
        match v {
            Traffic::Saturated => "saturated".into(),
            Traffic::Poisson { load } => load.to_string(),
        }
    }
    fn scalar(v: &Traffic) -> Scalar {
        match v {
            Traffic::Saturated => Scalar::Text("saturated".into()),
            Traffic::Poisson { load } => Scalar::Real(*load),
        }
    }
    /// Two columns: `traffic` (`saturated` or `poisson`) and the load, empty when
    /// saturated, so that the load column is numeric.
    fn cells(key: &str, v: &Traffic) -> Vec<(String, Cell)> {
        let (kind, load) = match v {
            Traffic::Saturated => ("saturated", Cell::Empty),
            Traffic::Poisson { load } => ("poisson", Cell::Exact(*load)),
        };
        vec![
            ("traffic".into(), Cell::Text(kind.into())),
            (key.to_string(), load),
        ]
    }
    fn list(text: &str) -> Result<Vec<Traffic>, ConfigError> {
        crate::parse::load_list(text)
    }
}

/// `beb`, `linear`, `poly` (degree 2) or `poly:DEGREE`, `fixed` (32 slots) or
/// `fixed:SLOTS`; written `beb`, `linear`, `poly:D`, `fixed:W`.
impl Codec for BackoffAlgorithm {
    type Value = BackoffAlgorithm;
    fn parse(text: &str) -> Result<BackoffAlgorithm, ConfigError> {
        let t = text.trim();
        let bad = || ConfigError::Backoff(t.to_string());
        let (name, arg) = match t.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (t, None),
        };
        let num = |d: u32| -> Result<u32, ConfigError> {
            arg.map_or(Ok(d), |a| a.parse().map_err(|_| bad()))
        };
        Ok(match name {
            "beb" if arg.is_none() => BackoffAlgorithm::Beb,
            "linear" if arg.is_none() => BackoffAlgorithm::Polynomial { degree: 1 },
            "poly" => BackoffAlgorithm::Polynomial { degree: num(2)? },
            "fixed" => BackoffAlgorithm::Fixed { window: num(32)? },
            _ => return Err(bad()),
        })
    }
    fn text(v: &BackoffAlgorithm) -> String {
        match v {
            BackoffAlgorithm::Beb => "beb".into(),
            BackoffAlgorithm::Polynomial { degree: 1 } => "linear".into(),
            BackoffAlgorithm::Polynomial { degree } => format!("poly:{degree}"),
            BackoffAlgorithm::Fixed { window } => format!("fixed:{window}"),
        }
    }
}

/// `8023`, `restart` or `none`.
impl Codec for IfgRule {
    type Value = IfgRule;
    fn parse(text: &str) -> Result<IfgRule, ConfigError> {
        text.trim().parse()
    }
    fn text(v: &IfgRule) -> String {
        v.label().into()
    }
}

/// `preamble` or `immediate`.
impl Codec for JamRule {
    type Value = JamRule;
    fn parse(text: &str) -> Result<JamRule, ConfigError> {
        text.trim().parse()
    }
    fn text(v: &JamRule) -> String {
        v.label().into()
    }
}

/// An Ethernet preset by its name, e.g. `100BASE-TX`; `none` for no preset.
impl Codec for Option<EthernetMedium> {
    type Value = Option<EthernetMedium>;
    fn parse(text: &str) -> Result<Option<EthernetMedium>, ConfigError> {
        match text.trim() {
            "none" | "" => Ok(None),
            t => t.parse().map(Some),
        }
    }
    fn text(v: &Option<EthernetMedium>) -> String {
        v.map_or("none".into(), |m| m.name().into())
    }
    /// One column, empty without a preset.
    fn cells(key: &str, v: &Option<EthernetMedium>) -> Vec<(String, Cell)> {
        vec![(
            key.to_string(),
            v.map_or(Cell::Empty, |m| Cell::Text(m.name().into())),
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<C: Codec>(v: C::Value) {
        assert_eq!(C::parse(&C::text(&v)).unwrap(), v, "{}", C::text(&v));
    }

    #[test]
    fn every_text_form_reads_back() {
        round_trip::<Time>(Time::from_secs(10));
        round_trip::<Time>(Time::ZERO);
        round_trip::<Time>(Time::from_ps(1_234_567));
        round_trip::<BitRate>(12_345);
        round_trip::<BitRate>(100_000_000);
        round_trip::<f64>(0.123_456_789);
        round_trip::<FrameSizes>(FrameSizes::Mix(vec![(64, 7), (1518, 1)]));
        round_trip::<Traffic>(Traffic::Poisson { load: 0.3 });
        round_trip::<Traffic>(Traffic::Saturated);
        for b in ["beb", "linear", "poly:3", "fixed:16"] {
            assert_eq!(
                BackoffAlgorithm::text(&BackoffAlgorithm::parse(b).unwrap()),
                b
            );
        }
        round_trip::<Option<EthernetMedium>>(None);
        round_trip::<Option<EthernetMedium>>(Some(EthernetMedium::ALL[3]));
        assert_eq!(Time::text(&Time::from_us(1500)), "1500us");
        assert_eq!(BitRate::text(&100_000_000), "100M");
    }

    #[test]
    fn bad_text_names_what_is_expected() {
        assert!(
            u32::parse("-1")
                .unwrap_err()
                .to_string()
                .contains("whole number")
        );
        assert!(bool::parse("yes").is_err());
        assert!(BackoffAlgorithm::parse("poly:x").is_err());
        assert!(BackoffAlgorithm::parse("beb:3").is_err());
        assert!(Time::parse("5").is_err());
        assert_eq!(u32::list("1..=8:x2").unwrap(), [1, 2, 4, 8]);
        assert!(u32::list("1.5").is_err());
    }
}
