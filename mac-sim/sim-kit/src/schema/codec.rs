//! The one text form of every kind of parameter value ([`Codec`]), how it appears in a
//! scenario file ([`Scalar`]) and in results columns ([`Cell`]), and the value errors
//! every model shares ([`ValueError`]).
//!
//! The kit's codecs cover the kinds every model has: whole numbers (`u16`, `u32`,
//! `u64`), real numbers (`f64`), `bool`, and [`Time`] with its unit (`10s`). A model
//! adds its own for its enums and compound values, and [`OrWord`] gives any codec a
//! word for "not set" (`capture_db = "off"`).

use core::fmt;
use core::marker::PhantomData;

use crate::output::table::Cell;
use crate::range;
use crate::time::{PS_PER_MS, PS_PER_NS, PS_PER_SEC, PS_PER_US, Time};

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

/// A value text that the kit's codecs cannot read, or a key that no schema has.
/// Every model's error type converts from it (`From<ValueError>`), so a model's
/// messages and the kit's read the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// The text is not a value of the kind: `'TEXT' is not EXPECTED`.
    Value {
        /// The text as given.
        text: String,
        /// What a value of the kind looks like, e.g. `a whole number from 0 to 65535`.
        expected: &'static str,
    },
    /// A duration that is not a positive time with a unit.
    Duration(String),
    /// A list of values that cannot be read (a bad range, an empty item).
    List(String),
    /// A key that the schema does not have; `known` lists the keys, each followed
    /// by `, `.
    UnknownKey {
        /// The key as given.
        key: String,
        /// Every key of the schema.
        known: &'static str,
    },
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Value { text, expected } => write!(f, "'{text}' is not {expected}"),
            Self::Duration(s) => write!(
                f,
                "duration '{s}' must be a positive time with a unit: s, ms, us or ns (e.g. 10s)"
            ),
            Self::List(why) => write!(f, "{why}"),
            Self::UnknownKey { key, known } => write!(
                f,
                "unknown parameter '{key}' (the parameters are {})",
                known.trim_end_matches(", ")
            ),
        }
    }
}

impl std::error::Error for ValueError {}

/// A kind of parameter value: its one text form, its form in files and its results
/// columns.
pub trait Codec {
    /// The value in the model's configuration.
    type Value: Clone + PartialEq + fmt::Debug;
    /// What reading a text can fail with: [`ValueError`] or the model's own error.
    type Error;
    /// The words a value can be, for a kind that is a choice of names (the browser
    /// and `--help` list them); empty for any other kind.
    const CHOICES: &'static [&'static str] = &[];
    /// Reads the text form (as given on the command line, in a file or by Python).
    ///
    /// # Errors
    ///
    /// The error that describes the text's fault.
    fn parse(text: &str) -> Result<Self::Value, Self::Error>;
    /// The text form; [`parse`](Self::parse) reads it back to the same value.
    fn text(v: &Self::Value) -> String;
    /// The value as a scenario file writes it.
    fn scalar(v: &Self::Value) -> Scalar {
        Scalar::Text(Self::text(v))
    }
    /// The names of the results columns of a parameter named `key`, the same for
    /// every value: by default one, the key.
    fn columns(key: &str) -> Vec<String> {
        vec![key.to_string()]
    }
    /// The results columns of a parameter named `key` ([`columns`](Self::columns)
    /// with their cells): by default the key, holding the text form.
    fn cells(key: &str, v: &Self::Value) -> Vec<(String, Cell)> {
        vec![(key.to_string(), Cell::Text(Self::text(v)))]
    }
    /// A sweep's list of values: comma-separated items, each in the text form.
    ///
    /// # Errors
    ///
    /// The first item's error (an empty list is one empty item).
    fn list(text: &str) -> Result<Vec<Self::Value>, Self::Error> {
        split_items(text).map(Self::parse).collect()
    }
}

/// The items of a comma-separated list, trimmed; an empty list has one empty item.
pub fn split_items(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim)
}

/// The numbers of a list with ranges (`1..=256:x2`, `0.1..=1.0:0.1`), see
/// [`range`].
///
/// # Errors
///
/// [`ValueError::List`] with the range grammar's reason.
pub fn numbers(text: &str) -> Result<Vec<f64>, ValueError> {
    range::values(text).map_err(|e| ValueError::List(e.to_string()))
}

/// The whole numbers of a list with ranges ([`numbers`]), each read by `parse` from
/// its text; a plain item is first read by `parse` as it is, so that `1e3` or `5.0`
/// is refused in a list as it is alone.
///
/// # Errors
///
/// The first item's error from `parse`, or the range grammar's.
pub fn whole_numbers<T, E: From<ValueError>>(
    text: &str,
    parse: fn(&str) -> Result<T, E>,
) -> Result<Vec<T>, E> {
    for item in split_items(text).filter(|i| !i.is_empty() && !i.contains("..")) {
        parse(item)?;
    }
    numbers(text)?
        .into_iter()
        .map(|x| parse(&x.to_string()))
        .collect()
}

/// The codecs of whole numbers: the text is the decimal number, a file holds an
/// integer, the column is an integer, and a list takes ranges (`1..=256:x2`).
macro_rules! whole {
    ($($ty:ty => $expected:literal;)*) => {$(
        impl Codec for $ty {
            type Value = $ty;
            type Error = ValueError;
            fn parse(text: &str) -> Result<$ty, ValueError> {
                text.trim().parse().map_err(|_| ValueError::Value {
                    text: text.to_string(),
                    expected: $expected,
                })
            }
            fn text(v: &$ty) -> String {
                v.to_string()
            }
            fn scalar(v: &$ty) -> Scalar {
                Scalar::Int(u64::from(*v))
            }
            fn cells(key: &str, v: &$ty) -> Vec<(String, Cell)> {
                vec![(key.to_string(), Cell::Int(u64::from(*v)))]
            }
            fn list(text: &str) -> Result<Vec<$ty>, ValueError> {
                whole_numbers(text, Self::parse)
            }
        }
    )*};
}

whole! {
    u8 => "a whole number from 0 to 255";
    u16 => "a whole number from 0 to 65535";
    u32 => "a whole number from 0 to 4294967295";
}

impl Codec for u64 {
    type Value = u64;
    type Error = ValueError;
    fn parse(text: &str) -> Result<u64, ValueError> {
        text.trim().parse().map_err(|_| ValueError::Value {
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
    type Error = ValueError;
    fn parse(text: &str) -> Result<f64, ValueError> {
        text.trim().parse().map_err(|_| ValueError::Value {
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
    fn list(text: &str) -> Result<Vec<f64>, ValueError> {
        numbers(text)
    }
}

impl Codec for bool {
    type Value = bool;
    type Error = ValueError;
    const CHOICES: &'static [&'static str] = &["false", "true"];
    fn parse(text: &str) -> Result<bool, ValueError> {
        match text.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(ValueError::Value {
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
    type Error = ValueError;
    fn parse(text: &str) -> Result<Time, ValueError> {
        Time::parse_or_zero(text).map_err(|_| ValueError::Duration(text.to_string()))
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
    fn columns(key: &str) -> Vec<String> {
        vec![format!("{key}_s")]
    }
    /// One column, `KEY_s`, in seconds.
    fn cells(key: &str, v: &Time) -> Vec<(String, Cell)> {
        vec![(format!("{key}_s"), Cell::Exact(v.as_secs_f64()))]
    }
}

/// A unit, for the name of a results column: `m`, `dbm`.
pub trait Unit {
    /// The column name's suffix after `_`, e.g. `m` for `radius_m`.
    const SUFFIX: &'static str;
}

/// A real number in the unit `U`: the text and the file hold the number, the one
/// results column is `KEY_SUFFIX` (e.g. `radius_m`), so that a key need not repeat
/// its unit for its column to carry it.
pub struct Real<U>(PhantomData<U>);

impl<U: Unit> Codec for Real<U> {
    type Value = f64;
    type Error = ValueError;
    fn parse(text: &str) -> Result<f64, ValueError> {
        f64::parse(text)
    }
    fn text(v: &f64) -> String {
        f64::text(v)
    }
    fn scalar(v: &f64) -> Scalar {
        Scalar::Real(*v)
    }
    fn columns(key: &str) -> Vec<String> {
        vec![format!("{key}_{}", U::SUFFIX)]
    }
    fn cells(key: &str, v: &f64) -> Vec<(String, Cell)> {
        vec![(format!("{key}_{}", U::SUFFIX), Cell::Exact(*v))]
    }
    fn list(text: &str) -> Result<Vec<f64>, ValueError> {
        numbers(text)
    }
}

/// The word that stands for "not set" in an [`OrWord`] codec.
pub trait Word {
    /// The word, e.g. `off`.
    const WORD: &'static str;
}

/// `off`: a feature turned off.
#[derive(Clone, Copy, Debug)]
pub struct Off;
impl Word for Off {
    const WORD: &'static str = "off";
}

/// `auto`: the model chooses (derives the value from others).
#[derive(Clone, Copy, Debug)]
pub struct Auto;
impl Word for Auto {
    const WORD: &'static str = "auto";
}

/// A codec for `Option<C::Value>`: `None` is the word `W::WORD` (e.g. `off`), any
/// other text is read by `C`; the column of `None` is empty.
pub struct OrWord<C, W>(PhantomData<(C, W)>);

impl<C: Codec, W: Word> Codec for OrWord<C, W>
where
    C::Error: From<ValueError>,
{
    type Value = Option<C::Value>;
    type Error = C::Error;
    fn parse(text: &str) -> Result<Self::Value, C::Error> {
        if text.trim() == W::WORD {
            Ok(None)
        } else {
            C::parse(text).map(Some)
        }
    }
    fn text(v: &Self::Value) -> String {
        v.as_ref().map_or_else(|| W::WORD.to_string(), C::text)
    }
    fn scalar(v: &Self::Value) -> Scalar {
        v.as_ref()
            .map_or_else(|| Scalar::Text(W::WORD.to_string()), C::scalar)
    }
    fn cells(key: &str, v: &Self::Value) -> Vec<(String, Cell)> {
        match v {
            Some(v) => C::cells(key, v),
            None => C::columns(key)
                .into_iter()
                .map(|k| (k, Cell::Empty))
                .collect(),
        }
    }
    fn columns(key: &str) -> Vec<String> {
        C::columns(key)
    }
    fn list(text: &str) -> Result<Vec<Self::Value>, C::Error> {
        let (words, rest): (Vec<&str>, Vec<&str>) = split_items(text).partition(|i| *i == W::WORD);
        if words.len() > 1 {
            return Err(ValueError::List(format!("{} is given twice", W::WORD)).into());
        }
        let mut out: Vec<Self::Value> = words.iter().map(|_| None).collect();
        if !rest.is_empty() {
            out.extend(C::list(&rest.join(","))?.into_iter().map(Some));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<C: Codec>(v: C::Value)
    where
        C::Error: fmt::Debug,
    {
        assert_eq!(C::parse(&C::text(&v)).unwrap(), v, "{}", C::text(&v));
    }

    #[test]
    fn every_text_form_reads_back() {
        round_trip::<Time>(Time::from_secs(10));
        round_trip::<Time>(Time::ZERO);
        round_trip::<Time>(Time::from_ps(1_234_567));
        round_trip::<f64>(0.123_456_789);
        round_trip::<u16>(65535);
        round_trip::<OrWord<f64, Off>>(None);
        round_trip::<OrWord<f64, Off>>(Some(6.5));
        assert_eq!(Time::text(&Time::from_us(1500)), "1500us");
    }

    #[test]
    fn bad_text_names_what_is_expected() {
        assert_eq!(
            u32::parse("-1").unwrap_err().to_string(),
            "'-1' is not a whole number from 0 to 4294967295"
        );
        assert!(bool::parse("yes").is_err());
        assert!(
            Time::parse("5")
                .unwrap_err()
                .to_string()
                .contains("with a unit")
        );
        assert_eq!(u32::list("1..=8:x2").unwrap(), [1, 2, 4, 8]);
        assert!(u32::list("1.5").is_err());
        assert!(u16::list("65536").is_err());
    }

    #[test]
    fn a_word_for_none_in_lists_and_columns() {
        type C = OrWord<f64, Off>;
        assert_eq!(
            C::list("off,3..=5:1").unwrap(),
            [None, Some(3.0), Some(4.0), Some(5.0)]
        );
        assert!(C::list("off,off").is_err());
        assert_eq!(
            C::cells("capture_db", &None),
            [("capture_db".into(), Cell::Empty)]
        );
        assert_eq!(C::scalar(&None), Scalar::Text("off".into()));
        type T = OrWord<Time, Off>;
        assert_eq!(T::cells("delay", &None), [("delay_s".into(), Cell::Empty)]);
    }

    #[test]
    fn a_real_in_a_unit_names_its_column() {
        struct Metres;
        impl Unit for Metres {
            const SUFFIX: &'static str = "m";
        }
        type M = Real<Metres>;
        assert_eq!(
            M::cells("radius", &2.5),
            [("radius_m".into(), Cell::Exact(2.5))]
        );
        assert_eq!(M::columns("radius"), ["radius_m"]);
        assert_eq!(M::list("1..=3:1").unwrap(), [1.0, 2.0, 3.0]);
    }
}
