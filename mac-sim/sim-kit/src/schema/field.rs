//! One parameter as the doors see it ([`Field`]), the error that names it
//! ([`FieldError`]), and what every model's table of parameters provides
//! ([`Schema`]), so that the command line, files, sweeps, Python and the browser are
//! written once for every model.

use core::fmt;

use super::codec::Scalar;
use crate::output::table::Cell;

/// One parameter of a schema: its key (the scenario file's key, the command line's
/// `--key-with-dashes`, Python's keyword argument), its short flag, the kind of value
/// it takes, and its help text with the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The key, e.g. `slot_bits`.
    pub key: &'static str,
    /// The command line's one-letter flag, if any.
    pub short: Option<char>,
    /// What a value looks like, e.g. `BITS`, `TIME`, `RATE`.
    pub value_name: &'static str,
    /// Earlier names of the command-line flag, still accepted.
    pub aliases: &'static [&'static str],
    /// The words a value can be, for a parameter that is a choice of names (the
    /// browser's menus, `--help`); empty for any other kind.
    pub choices: &'static [&'static str],
    /// One line (or more) of help: the meaning, the unit and the text forms.
    pub help: &'static str,
}

impl Field {
    /// The command-line flag, `--` and the key with dashes, e.g. `--slot-bits`.
    pub fn flag(&self) -> String {
        format!("--{}", self.key.replace('_', "-"))
    }
}

/// A value given for one parameter that cannot be accepted: the parameter's key
/// (empty when no single parameter is to blame) and what is wrong, in the model's
/// error type `E`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError<E> {
    /// The parameter, e.g. `stations`; empty when the fault is the combination.
    pub key: String,
    /// What is wrong, with the value.
    pub error: E,
}

impl<E: fmt::Display> fmt::Display for FieldError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}", self.error)
        } else {
            write!(f, "{}: {}", self.key, self.error)
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for FieldError<E> {}

/// Settings of a model's parameters read from text, one key at a time: what a sweep's
/// [`Axis`](super::Axis) needs. Every [`Schema`] is one; so is a model whose
/// parameters are the keys of a file of nested tables (the storm's settings).
pub trait Values: Clone + fmt::Debug + PartialEq {
    /// The model's error for a value that cannot be read.
    type Error: fmt::Display;
    /// One setting per item of the list `text` for the parameter `key`, each
    /// setting only that key: a sweep's axis.
    ///
    /// # Errors
    ///
    /// A [`FieldError`] naming the key: an unknown key, an empty or bad list, or a
    /// value given twice.
    fn list(key: &str, text: &str) -> Result<Vec<Self>, FieldError<Self::Error>>;
    /// The text form of the parameter `key`, if set.
    fn get(&self, key: &str) -> Option<String>;
}

/// A model's parameters, each optional, as the [`schema!`](crate::schema!) macro
/// defines them from one table: what every door needs to read, write, layer, sweep
/// and document them without knowing the model. The macro implements it for the
/// model's `Scenario`, which also has each method as its own.
pub trait Schema: Values + Default {
    /// The model's configuration that a scenario sets parameters of.
    type Config: Default;
    /// Every parameter, in the order of the table.
    const FIELDS: &'static [Field];
    /// Sets the parameter `key` from its text form.
    ///
    /// # Errors
    ///
    /// A [`FieldError`] naming the key: an unknown key, or text that is not a value
    /// of the parameter's kind.
    fn set(&mut self, key: &str, text: &str) -> Result<(), FieldError<Self::Error>>;
    /// This scenario with every parameter that `top` sets replaced by `top`'s value.
    #[must_use]
    fn overlay(self, top: &Self) -> Self;
    /// The keys that are set, in the order of the table.
    fn keys(&self) -> Vec<&'static str>;
    /// `c` with every parameter this scenario sets (not validated).
    fn apply_to(&self, c: Self::Config) -> Self::Config;
    /// The scenario of a configuration, every parameter set.
    fn from_config(c: &Self::Config) -> Self;
    /// The parameters that are set, as a file writes them, in table order.
    fn scalars(&self) -> Vec<(&'static str, Scalar)>;
    /// The results columns that state a configuration's parameters, in table order,
    /// with their units in the names.
    fn columns(c: &Self::Config) -> Vec<(String, Cell)>;

    /// The identity of a configuration as its parameters state it: `key=value`, one
    /// line each in table order, for every parameter whose value is not its default,
    /// the keys `except` left out (a seed each run has its own of). A parameter added
    /// to the table at its default changes no identity, and so no key or seed derived
    /// from one.
    fn identity(c: &Self::Config, except: &[&str]) -> String {
        let s = Self::from_config(c);
        Self::defaults()
            .into_iter()
            .filter(|(k, _)| !except.contains(k))
            .filter_map(|(k, d)| s.get(k).filter(|v| *v != d).map(|v| format!("{k}={v}\n")))
            .collect()
    }

    /// The text form of every parameter's default, in table order.
    fn defaults() -> Vec<(&'static str, String)> {
        let d = Self::from_config(&Self::Config::default());
        Self::FIELDS
            .iter()
            .map(|f| (f.key, d.get(f.key).unwrap_or_default()))
            .collect()
    }
}

/// The first of the keys `given` that has no effect on any of the runs `configs`,
/// by the model's rule `has_effect`: a setting to refuse rather than ignore. `None`
/// when every key has an effect somewhere, or there is no run.
///
/// ```
/// use sim_kit::schema::first_without_effect;
/// let loads = [0.0, 0.5];
/// let reads = |load: &f64, key: &str| key != "queue" || *load > 0.0;
/// assert_eq!(first_without_effect(&loads, ["seed", "queue"], reads), None);
/// assert_eq!(first_without_effect(&[0.0], ["seed", "queue"], reads), Some("queue"));
/// ```
pub fn first_without_effect<'a, C>(
    configs: &[C],
    given: impl IntoIterator<Item = &'a str>,
    has_effect: impl Fn(&C, &str) -> bool,
) -> Option<&'a str> {
    if configs.is_empty() {
        return None;
    }
    given
        .into_iter()
        .find(|key| !configs.iter().any(|c| has_effect(c, key)))
}
