//! The reference of every key of a scenario file: its table, the values it takes (with
//! the unit), its default and its meaning. The table itself ([`TABLES`]) is the TOML
//! schema's own: each table of the file's private `schema` module is written once with
//! the kit's `file_table!`, a field and its line of reference side by side. `mac-sim storm --keys` prints it,
//! `mac-sim storm --help` ends with it and mac-sim/README.md quotes it, so the three
//! cannot drift apart; a test compares it with the keys the schema accepts, so a key
//! added to the schema without a line here fails.
//!
//! ```
//! let text = retry_storm::file::reference();
//! assert!(text.contains("[server.slowdown]"));
//! assert!(text.lines().any(|l| l.trim_start().starts_with("horizon ")));
//! ```

use sim_kit::schema::tables_reference;

pub use super::schema::TABLES;
pub use sim_kit::schema::{KeyDoc, TableDoc};

/// The reference as text: a heading per table, a line per key (key, values, default),
/// the meaning wrapped under it ([`sim_kit::schema::tables_reference`]).
pub fn reference() -> String {
    let intro = "Scenario file keys (TOML; unknown keys are refused). A duration or an \
                 instant carries its unit: \"1s\", \"100ms\", \"50us\", \"10ns\" (an instant \
                 may be \"0s\"). On the command line, --set TABLE.KEY=VALUE sets any key but \
                 experiment (server.workers=8, recovery.sustain=2s, a list as \
                 timeouts=100ms,200ms) and --sweep TABLE.KEY=LIST sweeps one that holds a \
                 number, a duration or a name; a repeated table's key says which, counted \
                 from 1 (trigger.2.end), unless the file has one.";
    tables_reference(intro, TABLES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_listed_once_per_table() {
        for t in TABLES {
            let mut seen = std::collections::BTreeSet::new();
            for key in t.keys {
                assert!(seen.insert(key.key), "{} {} twice", t.header, key.key);
                assert!(!key.meaning.is_empty() && !key.value.is_empty());
            }
        }
    }
}
