//! Results as tables: one row of named cells per run, per station or per sweep point,
//! written as CSV or JSON with the same column names, so that every file that
//! describes a run names its quantities the same way.
//!
//! ```
//! use sim_kit::output::table::{Cell, Row, to_csv, to_json};
//! let rows = vec![Row(vec![("stations".into(), Cell::Int(8)), ("frames".into(), Cell::Text("64:7,1518:1".into())), ("load".into(), Cell::Empty)])];
//! assert_eq!(to_csv(&rows), "stations,frames,load\n8,\"64:7,1518:1\",\n");
//! assert!(to_json(&rows).contains("\"load\": null"));
//! ```

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// A table cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// A whole number.
    Int(u64),
    /// A real number: six decimals in CSV; not finite is an empty cell (`null`).
    Num(f64),
    /// A real number written in full (the shortest text that reads back the same),
    /// for parameters such as a bus length or an offered load.
    Exact(f64),
    /// Text.
    Text(String),
    /// Yes or no (`true`, `false`).
    Bool(bool),
    /// No value: an empty CSV cell, `null` in JSON.
    Empty,
}

impl Cell {
    /// The cell as CSV text, not yet quoted.
    pub fn csv(&self) -> String {
        match self {
            Self::Int(v) => v.to_string(),
            Self::Num(v) if v.is_finite() => format!("{v:.6}"),
            Self::Exact(v) if v.is_finite() => v.to_string(),
            Self::Num(_) | Self::Exact(_) | Self::Empty => String::new(),
            Self::Text(s) => s.clone(),
            Self::Bool(b) => b.to_string(),
        }
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Int(v) => s.serialize_u64(*v),
            Self::Num(v) | Self::Exact(v) if v.is_finite() => s.serialize_f64(*v),
            Self::Num(_) | Self::Exact(_) | Self::Empty => s.serialize_none(),
            Self::Text(t) => s.serialize_str(t),
            Self::Bool(b) => s.serialize_bool(*b),
        }
    }
}

/// A row: `(column, cell)` in column order; serialised as a JSON object.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row(pub Vec<(String, Cell)>);

impl Row {
    /// The column names, joined by commas.
    pub fn header(&self) -> String {
        self.0
            .iter()
            .map(|(k, _)| k.as_str())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The cells as one CSV line (no newline), quoted where they hold a comma or a
    /// quote.
    pub fn csv_line(&self) -> String {
        self.0
            .iter()
            .map(|(_, v)| quote(&v.csv()))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The cell of `column`, if the row has it.
    pub fn get(&self, column: &str) -> Option<&Cell> {
        self.0.iter().find(|(k, _)| k == column).map(|(_, v)| v)
    }
}

impl Serialize for Row {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A CSV cell, quoted when it holds a comma or a quote.
fn quote(s: &str) -> String {
    if s.contains(',') || s.contains('"') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV text: the first row's header and one line per row, each ending with a
/// newline (empty for no rows).
pub fn to_csv(rows: &[Row]) -> String {
    let mut out = String::new();
    if let Some(first) = rows.first() {
        out.push_str(&first.header());
        out.push('\n');
    }
    for r in rows {
        out.push_str(&r.csv_line());
        out.push('\n');
    }
    out
}

/// The JSON text: an array of objects with the CSV's columns as keys, in order.
pub fn to_json(rows: &[Row]) -> String {
    super::json::to_string(&rows)
}
