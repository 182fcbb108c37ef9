//! The macro that turns a model's table of parameters into its `Scenario` type and
//! everything every door needs from it, so that a parameter is written once.

/// Defines a model's `Scenario` (one run's parameters, each optional), its `FIELDS`
/// and `KEYS`, and its [`Schema`](crate::schema::Schema) implementation from one
/// table: per parameter its doc comment (the help text), key, value type (optionally
/// `as` the [`Codec`](crate::schema::Codec) that reads it), short flag, value name,
/// earlier flag names and the configuration's field it sets.
///
/// The head names the configuration type, the model's error type (it must convert
/// `From` [`ValueError`](crate::schema::ValueError) and from each codec's error) and,
/// optionally, a function `fn(&Scenario, Config) -> Config` applied before the rows
/// (a preset that the other parameters override).
///
/// ```
/// use sim_kit::schema::{Schema, ValueError};
/// use sim_kit::time::Time;
/// #[derive(Clone, Debug, Default, PartialEq)]
/// pub struct Config { pub n: u32, pub limit: Option<f64>, pub warmup: Time }
/// pub struct Off;
/// impl sim_kit::schema::Word for Off { const WORD: &'static str = "off"; }
/// type OffOr = sim_kit::schema::OrWord<f64, Off>;
/// sim_kit::schema! {
///     /// One run's parameters.
///     pub struct Scenario for Config, error ValueError;
///     /// Number of clients.
///     clients: u32, short Some('n'), value "N", aliases [] => n;
///     /// A limit, or off.
///     limit: Option<f64> as OffOr, short None, value "X", aliases [] => limit;
///     /// Warm-up, with unit.
///     warmup: Time, short None, value "TIME", aliases [] => warmup;
/// }
/// let mut s = Scenario::default();
/// s.set("clients", "7").unwrap();
/// s.set("limit", "off").unwrap();
/// assert_eq!(s.apply_to(Config::default()).n, 7);
/// assert_eq!(Scenario::list("clients", "1..=4:x2").unwrap().len(), 3);
/// assert_eq!(s.set("client", "1").unwrap_err().to_string(),
///            "client: unknown parameter 'client' (the parameters are clients, limit, warmup)");
/// assert_eq!(Scenario::defaults()[2], ("warmup", "0s".to_string()));
/// ```
#[macro_export]
macro_rules! schema {
    (
        $(#[$meta:meta])*
        pub struct $name:ident for $config:ty, error $err:ty $(, prepare $prep:path)? ;
        $(
            $(#[doc = $doc:literal])*
            $key:ident : $ty:ty $(as $codec:ty)? ,
            short $short:expr , value $vname:literal , aliases [$($alias:literal),*]
            => $($field:ident).+ ;
        )*
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $(
                $(#[doc = $doc])*
                pub $key: Option<$ty>,
            )*
        }

        /// Every key of the schema, in the order of the table, each followed by `, `.
        pub const KEYS: &str = concat!($(stringify!($key), ", ",)*);

        /// Every parameter of the schema, in the order of the table.
        pub const FIELDS: &[$crate::schema::Field] = &[
            $(
                $crate::schema::Field {
                    key: stringify!($key),
                    short: $short,
                    value_name: $vname,
                    aliases: &[$($alias),*],
                    choices: <$crate::__schema_codec!($ty $(, $codec)?) as $crate::schema::Codec>::CHOICES,
                    help: concat!($($doc, "\n"),*),
                },
            )*
        ];

        #[allow(dead_code)]
        impl $name {
            /// Sets the parameter `key` from its text form.
            ///
            /// # Errors
            ///
            /// A `FieldError` naming the key: an
            /// unknown key, or text that is not a value of the parameter's kind.
            pub fn set(
                &mut self,
                key: &str,
                text: &str,
            ) -> Result<(), $crate::schema::FieldError<$err>> {
                let err = |error: $err| $crate::schema::FieldError { key: key.to_string(), error };
                match key {
                    $(
                        stringify!($key) => {
                            self.$key = Some(
                                <$crate::__schema_codec!($ty $(, $codec)?) as $crate::schema::Codec>::parse(text)
                                    .map_err(|e| err(<$err>::from(e)))?,
                            );
                        }
                    )*
                    _ => return Err(err(<$err>::from($crate::schema::ValueError::UnknownKey {
                        key: key.to_string(),
                        known: KEYS,
                    }))),
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
                            .map(<$crate::__schema_codec!($ty $(, $codec)?) as $crate::schema::Codec>::text),
                    )*
                    _ => None,
                }
            }

            /// One value per item of the list `text` for the parameter `key`, each a
            /// scenario that sets only that key: a sweep's axis.
            ///
            /// # Errors
            ///
            /// A `FieldError` naming the key: an
            /// unknown key, an empty or bad list, or a value given twice.
            pub fn list(
                key: &str,
                text: &str,
            ) -> Result<Vec<$name>, $crate::schema::FieldError<$err>> {
                let err = |error: $err| $crate::schema::FieldError { key: key.to_string(), error };
                match key {
                    $(
                        stringify!($key) => {
                            type C = $crate::__schema_codec!($ty $(, $codec)?);
                            let values = <C as $crate::schema::Codec>::list(text)
                                .map_err(|e| err(<$err>::from(e)))?;
                            if let Some(text) = $crate::schema::first_repeated(
                                &values,
                                <C as $crate::schema::Codec>::text,
                            ) {
                                return Err(err(<$err>::from($crate::schema::ValueError::Value {
                                    text,
                                    expected: "given once: it is in the list twice",
                                })));
                            }
                            Ok(values
                                .into_iter()
                                .map(|v| $name { $key: Some(v), ..$name::default() })
                                .collect())
                        }
                    )*
                    _ => Err(err(<$err>::from($crate::schema::ValueError::UnknownKey {
                        key: key.to_string(),
                        known: KEYS,
                    }))),
                }
            }

            /// This scenario with every parameter that `top` sets replaced by
            /// `top`'s value.
            #[must_use]
            pub fn overlay(mut self, top: &$name) -> $name {
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

            /// `c` with every parameter this scenario sets (not validated).
            pub fn apply_to(&self, c: $config) -> $config {
                #[allow(unused_mut)]
                let mut c = c;
                $( c = $prep(self, c); )?
                $(
                    if let Some(v) = &self.$key {
                        c.$($field).+ = v.clone();
                    }
                )*
                c
            }

            /// The scenario of a configuration, every parameter set; reading it
            /// back gives the same configuration.
            pub fn from_config(c: &$config) -> $name {
                $name {
                    $( $key: Some(c.$($field).+.clone()), )*
                }
            }

            /// Each parameter that is set, alone, as a scenario of one key.
            pub fn singles(&self) -> Vec<(&'static str, $name)> {
                let mut out = Vec::new();
                $(
                    if self.$key.is_some() {
                        out.push((
                            stringify!($key),
                            $name { $key: self.$key.clone(), ..$name::default() },
                        ));
                    }
                )*
                out
            }

            /// The parameters that are set, as a file writes them, in table order.
            pub fn scalars(&self) -> Vec<(&'static str, $crate::schema::Scalar)> {
                let mut out = Vec::new();
                $(
                    if let Some(v) = &self.$key {
                        out.push((
                            stringify!($key),
                            <$crate::__schema_codec!($ty $(, $codec)?) as $crate::schema::Codec>::scalar(v),
                        ));
                    }
                )*
                out
            }

            /// The results columns that state a configuration's parameters, in
            /// table order, with their units in the names.
            pub fn columns(c: &$config) -> Vec<(String, $crate::output::table::Cell)> {
                let mut out = Vec::new();
                $(
                    out.extend(<$crate::__schema_codec!($ty $(, $codec)?) as $crate::schema::Codec>::cells(
                        stringify!($key),
                        &c.$($field).+,
                    ));
                )*
                out
            }

            /// The names of the results columns of [`columns`](Self::columns), the
            /// same for every configuration.
            pub fn column_names() -> Vec<String> {
                let mut out = Vec::new();
                $(
                    out.extend(<$crate::__schema_codec!($ty $(, $codec)?) as $crate::schema::Codec>::columns(
                        stringify!($key),
                    ));
                )*
                out
            }
        }

        impl $crate::schema::Values for $name {
            type Error = $err;
            fn list(key: &str, text: &str) -> Result<Vec<Self>, $crate::schema::FieldError<$err>> {
                $name::list(key, text)
            }
            fn get(&self, key: &str) -> Option<String> {
                $name::get(self, key)
            }
        }

        impl $crate::schema::Schema for $name {
            type Config = $config;
            const FIELDS: &'static [$crate::schema::Field] = FIELDS;
            fn set(&mut self, key: &str, text: &str) -> Result<(), $crate::schema::FieldError<$err>> {
                $name::set(self, key, text)
            }
            fn overlay(self, top: &Self) -> Self {
                $name::overlay(self, top)
            }
            fn keys(&self) -> Vec<&'static str> {
                $name::keys(self)
            }
            fn apply_to(&self, c: $config) -> $config {
                $name::apply_to(self, c)
            }
            fn from_config(c: &$config) -> Self {
                $name::from_config(c)
            }
            fn scalars(&self) -> Vec<(&'static str, $crate::schema::Scalar)> {
                $name::scalars(self)
            }
            fn columns(c: &$config) -> Vec<(String, $crate::output::table::Cell)> {
                $name::columns(c)
            }
        }
    };
}

/// The codec of a table row: the value type itself, or the one named after `as`.
#[doc(hidden)]
#[macro_export]
macro_rules! __schema_codec {
    ($ty:ty) => {
        $ty
    };
    ($ty:ty, $codec:ty) => {
        $codec
    };
}

/// The text of the first value of `values` that is given twice, found through each
/// value's one text form (a list may hold 10^5 values: no pairwise scan) and
/// confirmed by equality.
pub fn first_repeated<T: PartialEq>(values: &[T], text: fn(&T) -> String) -> Option<String> {
    let mut seen = std::collections::HashMap::with_capacity(values.len());
    for (i, v) in values.iter().enumerate() {
        let t = text(v);
        match seen.get(&t) {
            Some(&j) if values.get(j) == Some(v) => return Some(t),
            Some(_) => {}
            None => {
                seen.insert(t, i);
            }
        }
    }
    None
}
