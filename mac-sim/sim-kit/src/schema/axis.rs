//! A sweep's axis, for every model: one parameter and its values, each a scenario
//! that sets only it.

use super::field::{FieldError, Values};

/// One swept parameter: its key and its values, each a setting of the model's
/// parameters `S` (a [`Schema`](super::Schema)'s scenario, or any [`Values`]) that
/// sets only it.
///
/// ```
/// # use sim_kit::schema::{Axis, ValueError};
/// # #[derive(Clone, Debug, Default, PartialEq)]
/// # pub struct Config { pub n: u32 }
/// sim_kit::schema! {
///     /// One run's parameters.
///     pub struct Scenario for Config, error ValueError;
///     /// Number of clients.
///     clients: u32, short None, value "N", aliases [] => n;
/// }
/// let a = Axis::<Scenario>::parse_spec("clients=1..=8:x2").unwrap();
/// assert_eq!((a.key.as_str(), a.values.len()), ("clients", 4));
/// assert_eq!(a.texts()[3], "8");
/// assert!(Axis::<Scenario>::parse("clients", "1,1").is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Axis<S> {
    /// The parameter's key in the schema, e.g. `slot_bits`.
    pub key: String,
    /// The values, in the order points take them.
    pub values: Vec<S>,
}

impl<S: Values> Axis<S> {
    /// The axis of the parameter `key` from a list in its text form: comma-separated
    /// values, and for numbers ranges (`1..=256:x2`, `0.1..=1.0:0.1`).
    ///
    /// # Errors
    ///
    /// A [`FieldError`] naming the parameter: unknown, an empty or bad list, a value
    /// given twice.
    pub fn parse(key: &str, list: &str) -> Result<Self, FieldError<S::Error>> {
        Ok(Self {
            key: key.to_string(),
            values: S::list(key, list)?,
        })
    }

    /// The axis of `KEY=LIST`, as `--sweep` takes it.
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse), and a [`FieldError`] naming the text when it has
    /// no `=`.
    pub fn parse_spec(spec: &str) -> Result<Self, FieldError<S::Error>>
    where
        S::Error: From<super::ValueError>,
    {
        let Some((key, list)) = spec.split_once('=') else {
            return Err(FieldError {
                key: spec.to_string(),
                error: super::ValueError::List("a sweep axis is KEY=V1,V2,... (or a range)".into())
                    .into(),
            });
        };
        Self::parse(key.trim(), list)
    }

    /// Each value's text form, in order.
    pub fn texts(&self) -> Vec<String> {
        self.values
            .iter()
            .map(|v| v.get(&self.key).unwrap_or_default())
            .collect()
    }
}
