//! The macro that turns the table of parameters in [`super`] into the [`Scenario`]
//! type and everything every door needs from it, so that a parameter is written once.
//!
//! [`Scenario`]: super::Scenario

/// One parameter of the schema, as the doors see it: its key (the scenario file's
/// key, the command line's `--key-with-dashes`, Python's keyword argument), its
/// short flag, the kind of value it takes, and its help text with the unit.
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
/// (empty when no single parameter is to blame) and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// The parameter, e.g. `stations`; empty when the fault is the combination.
    pub key: String,
    /// What is wrong, with the value.
    pub error: crate::error::ConfigError,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}", self.error)
        } else {
            write!(f, "{}: {}", self.key, self.error)
        }
    }
}

impl std::error::Error for FieldError {}

/// Defines [`Scenario`](super::Scenario), [`FIELDS`](super::FIELDS) and their
/// conversions from one table: per parameter its doc comment (the help text), key,
/// value type (optionally `as` the [`Codec`](super::value::Codec) that reads it),
/// short flag, value name, earlier flag names and the [`RunConfig`] field it sets.
///
/// [`RunConfig`]: crate::config::RunConfig
macro_rules! schema {
    (
        $(
            $(#[doc = $doc:literal])*
            $key:ident : $ty:ty $(as $codec:ty)? ,
            short $short:expr , value $vname:literal , aliases [$($alias:literal),*]
            => $($field:ident).+ ;
        )*
    ) => {
        /// One run's parameters, each optional: a scenario file, the command line's
        /// flags, a JSON result's `"scenario"` block, one point of a sweep, or the
        /// keyword arguments of the Python package. Absent parameters keep their
        /// defaults ([`RunConfig::default`](crate::config::RunConfig)); a scenario
        /// laid over another ([`Scenario::overlay`]) replaces the parameters it sets.
        ///
        /// The `medium` preset is applied first, so the other parameters override the
        /// bus length and burst limit it sets.
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct Scenario {
            $(
                $(#[doc = $doc])*
                pub $key: Option<$ty>,
            )*
        }

        /// Every key of the schema, in the order of the table, each followed by `, `.
        pub const KEYS: &str = concat!($(stringify!($key), ", ",)*);

        /// Every parameter of the schema, in the order of the table.
        pub const FIELDS: &[$crate::scenario::schema::Field] = &[
            $(
                $crate::scenario::schema::Field {
                    key: stringify!($key),
                    short: $short,
                    value_name: $vname,
                    aliases: &[$($alias),*],
                    help: concat!($($doc, "\n"),*),
                },
            )*
        ];

        impl Scenario {
            /// Sets the parameter `key` from its text form.
            ///
            /// # Errors
            ///
            /// A [`FieldError`] naming the key: an unknown key, or text that is not
            /// a value of the parameter's kind.
            pub fn set(&mut self, key: &str, text: &str) -> Result<(), FieldError> {
                let err = |error| FieldError { key: key.to_string(), error };
                match key {
                    $(
                        stringify!($key) => {
                            self.$key = Some(
                                <codec!($ty $(, $codec)?) as Codec>::parse(text).map_err(err)?,
                            );
                        }
                    )*
                    _ => return Err(err(ConfigError::UnknownParameter {
                        key: key.to_string(),
                        known: KEYS,
                    })),
                }
                Ok(())
            }

            /// The text form of the parameter `key`, if set.
            pub fn get(&self, key: &str) -> Option<String> {
                match key {
                    $(
                        stringify!($key) => self
                            .$key
                            .as_ref()
                            .map(<codec!($ty $(, $codec)?) as Codec>::text),
                    )*
                    _ => None,
                }
            }

            /// One value per item of the list `text` for the parameter `key`, each a
            /// scenario that sets only that key: a sweep's axis.
            ///
            /// # Errors
            ///
            /// A [`FieldError`] naming the key: an unknown key, an empty or bad
            /// list, or a value given twice.
            pub fn list(key: &str, text: &str) -> Result<Vec<Scenario>, FieldError> {
                let err = |error| FieldError { key: key.to_string(), error };
                match key {
                    $(
                        stringify!($key) => {
                            let values =
                                <codec!($ty $(, $codec)?) as Codec>::list(text).map_err(err)?;
                            // The first value given twice, found through each value's
                            // one text form (a list may hold 10^5 values: no pairwise
                            // scan), confirmed by equality.
                            let mut seen = std::collections::HashMap::with_capacity(values.len());
                            for (i, v) in values.iter().enumerate() {
                                let text = <codec!($ty $(, $codec)?) as Codec>::text(v);
                                match seen.get(&text) {
                                    Some(&j) if values.get(j) == Some(v) => {
                                        return Err(err(ConfigError::Value {
                                            text,
                                            expected: "given once: it is in the list twice",
                                        }));
                                    }
                                    Some(_) => {}
                                    None => {
                                        seen.insert(text, i);
                                    }
                                }
                            }
                            Ok(values
                                .into_iter()
                                .map(|v| Scenario { $key: Some(v), ..Scenario::default() })
                                .collect())
                        }
                    )*
                    _ => Err(err(ConfigError::UnknownParameter {
                        key: key.to_string(),
                        known: KEYS,
                    })),
                }
            }

            /// This scenario with every parameter that `top` sets replaced by
            /// `top`'s value.
            pub fn overlay(mut self, top: &Scenario) -> Scenario {
                $(
                    if top.$key.is_some() {
                        self.$key = top.$key.clone();
                    }
                )*
                self
            }

            /// The keys that are set, in the order of the table.
            pub fn keys(&self) -> Vec<&'static str> {
                let mut out = Vec::new();
                $(
                    if self.$key.is_some() {
                        out.push(stringify!($key));
                    }
                )*
                out
            }

            /// `c` with every parameter this scenario sets, the medium first (not
            /// validated).
            pub fn apply_to(&self, mut c: RunConfig) -> RunConfig {
                match self.medium {
                    Some(Some(m)) => c = c.with_medium(m),
                    Some(None) => c.medium = None,
                    None => {}
                }
                $(
                    if stringify!($key) != "medium" {
                        if let Some(v) = &self.$key {
                            c.$($field).+ = v.clone();
                        }
                    }
                )*
                c
            }

            /// The scenario of a configuration, every parameter set; reading it
            /// back gives the same configuration.
            pub fn from_config(c: &RunConfig) -> Scenario {
                Scenario {
                    $( $key: Some(c.$($field).+.clone()), )*
                }
            }

            /// Each parameter that is set, alone, as a scenario of one key.
            fn singles(&self) -> Vec<(&'static str, Scenario)> {
                let mut out = Vec::new();
                $(
                    if self.$key.is_some() {
                        out.push((
                            stringify!($key),
                            Scenario { $key: self.$key.clone(), ..Scenario::default() },
                        ));
                    }
                )*
                out
            }

            /// The parameters that are set, as a file writes them, in table order.
            pub fn scalars(&self) -> Vec<(&'static str, Scalar)> {
                let mut out = Vec::new();
                $(
                    if let Some(v) = &self.$key {
                        out.push((
                            stringify!($key),
                            <codec!($ty $(, $codec)?) as Codec>::scalar(v),
                        ));
                    }
                )*
                out
            }

            /// The results columns that state a configuration's parameters, in
            /// table order, with their units in the names (see
            /// [`Codec::cells`]).
            pub fn columns(c: &RunConfig) -> Vec<(String, Cell)> {
                let mut out = Vec::new();
                $(
                    out.extend(<codec!($ty $(, $codec)?) as Codec>::cells(
                        stringify!($key),
                        &c.$($field).+,
                    ));
                )*
                out
            }
        }
    };
}

/// The codec of a table row: the value type itself, or the one named after `as`.
macro_rules! codec {
    ($ty:ty) => {
        $ty
    };
    ($ty:ty, $codec:ty) => {
        $codec
    };
}

pub(crate) use {codec, schema};
