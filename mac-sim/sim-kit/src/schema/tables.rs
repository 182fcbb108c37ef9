//! The schema of a scenario file of nested and repeated tables (`[server]`,
//! `[[trigger]]`), for a model whose run is more than a flat list of parameters: each
//! table is written once with [`file_table!`](crate::file_table!), which gives both
//! the struct serde reads the table into (every key refused unless listed) and the
//! table's reference ([`TableDoc`]: each key's values with the unit, default and
//! meaning), so that the reader and the reference cannot disagree.
//! [`tables_reference`] prints the reference, as `--keys` does.

use crate::output::text::wrap;

/// One key of a table as the reference gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyDoc {
    /// The key as written in the file.
    pub key: &'static str,
    /// The values it takes, with the unit.
    pub value: &'static str,
    /// Its default, or `required` (with the kinds that require it in parentheses).
    pub default: &'static str,
    /// What it means.
    pub meaning: &'static str,
}

/// One table of the file and its keys (its sub-tables are tables of their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableDoc {
    /// The header as written (`[server]`, `[[trigger]]`), empty for the top level.
    pub header: &'static str,
    /// What the table is.
    pub about: &'static str,
    /// Its keys, in the order the reference lists them.
    pub keys: &'static [KeyDoc],
}

/// The reference of `tables` as text, after the paragraph `intro`: a heading per
/// table, a line per key (key, values, default) and the meaning wrapped under it.
///
/// ```
/// use sim_kit::schema::{TableDoc, KeyDoc, tables_reference};
/// const T: &[TableDoc] = &[TableDoc { header: "[load]", about: "the load", keys: &[
///     KeyDoc { key: "rate", value: "per second", default: "required", meaning: "arrivals" },
/// ] }];
/// let text = tables_reference("Keys.", T);
/// assert!(text.starts_with("Keys.\n\n[load]: the load\n  rate"));
/// assert!(text.contains("per second; required"));
/// ```
pub fn tables_reference(intro: &str, tables: &[TableDoc]) -> String {
    let mut out = String::new();
    for line in wrap(intro, 90) {
        out.push_str(&line);
        out.push('\n');
    }
    for t in tables {
        let header = if t.header.is_empty() {
            "top level"
        } else {
            t.header
        };
        out.push('\n');
        for (i, line) in wrap(&format!("{header}: {}", t.about), 90)
            .iter()
            .enumerate()
        {
            let indent = if i == 0 { "" } else { "  " };
            out.push_str(&format!("{indent}{line}\n"));
        }
        for key in t.keys {
            let default = if key.default.starts_with("required") {
                key.default.to_string()
            } else {
                format!("default {}", key.default)
            };
            let first = wrap(&format!("{}; {default}", key.value), 70);
            for (i, line) in first.iter().chain(&wrap(key.meaning, 70)).enumerate() {
                let name = if i == 0 { key.key } else { "" };
                out.push_str(&format!("  {name:<20}{line}\n"));
            }
        }
    }
    out
}

/// Defines one table of a scenario file: the struct serde reads it into (`Debug`,
/// `Deserialize`, unknown keys refused; the crate using the macro depends on
/// `serde`) and, as its associated constant `DOC`, its [`TableDoc`]. Each field is
/// `name: Type` and, for a key of this table, `=> (values, default, meaning)`; a
/// field without it is a sub-table (documented as a table of its own) or a key the
/// reference gives in another table. `name as "key"` reads the field from another
/// key (a field named `_experiment` from `experiment`); serde attributes written
/// before a field stay on it.
///
/// ```
/// #[derive(Debug, serde::Deserialize)]
/// pub struct Inner { pub x: u32 }
/// sim_kit::file_table! {
///     /// `[load]`.
///     pub struct Load, header "[load]", about "the offered load" {
///         /// The arrival rate.
///         rate: f64 => ("requests per second", "required", "new requests per second"),
///         _kind as "kind": Option<String> => ("text", "\"open\"", "the kind of load"),
///         #[serde(default)]
///         inner: Option<Inner>,
///     }
/// }
/// let l: Load = toml::from_str("rate = 5.0\nkind = \"closed\"").unwrap();
/// assert_eq!((l.rate, l._kind.as_deref()), (5.0, Some("closed")));
/// assert!(toml::from_str::<Load>("rate = 5.0\nrat = 1").is_err());
/// assert_eq!(Load::DOC.keys.iter().map(|k| k.key).collect::<Vec<_>>(), ["rate", "kind"]);
/// assert_eq!(Load::DOC.keys[0].default, "required");
/// ```
#[macro_export]
macro_rules! file_table {
    (
        $(#[$meta:meta])*
        pub struct $name:ident, header $header:literal, about $about:literal {
            $(
                $(#[$fmeta:meta])*
                $field:ident $(as $key:literal)? : $ty:ty
                $(=> ($value:expr, $default:expr, $meaning:expr $(,)?))?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, ::serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $(
                $(#[$fmeta])*
                $(#[serde(rename = $key)])?
                pub $field: $ty,
            )*
        }

        impl $name {
            /// The table's reference: its header, what it is, and each of its keys.
            pub const DOC: $crate::schema::TableDoc = $crate::schema::TableDoc {
                header: $header,
                about: $about,
                keys: $crate::__file_keys!(@keys []
                    $( ($field, [$($key)?], [$( ($value, $default, $meaning) )?]) )*
                ),
            };
        }
    };
}

/// The [`KeyDoc`]s of a [`file_table!`](crate::file_table!)'s fields that have a
/// reference, in order: each key its `as` name or the field's own.
#[doc(hidden)]
#[macro_export]
macro_rules! __file_keys {
    (@keys [$($done:tt)*]) => {
        &[$($done)*]
    };
    (@keys [$($done:tt)*] ($field:ident, [$($key:literal)?], []) $($rest:tt)*) => {
        $crate::__file_keys!(@keys [$($done)*] $($rest)*)
    };
    (@keys [$($done:tt)*]
        ($field:ident, [$($key:literal)?], [($value:expr, $default:expr, $meaning:expr)])
        $($rest:tt)*
    ) => {
        $crate::__file_keys!(@keys [$($done)*
            $crate::schema::KeyDoc {
                key: $crate::__file_key!($field $(, $key)?),
                value: $value,
                default: $default,
                meaning: $meaning,
            },
        ] $($rest)*)
    };
}

/// The file's key of a [`file_table!`](crate::file_table!) field: its `as` name, or
/// the field's own.
#[doc(hidden)]
#[macro_export]
macro_rules! __file_key {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident, $key:literal) => {
        $key
    };
}
