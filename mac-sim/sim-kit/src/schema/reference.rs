//! The reference of a schema's parameters as a reader sees it: what `--keys`
//! prints, generated from the table, so that it cannot disagree with the flags.

use super::field::Schema;
use crate::output::text::wrap;

/// Every parameter of `S`: its key, the form of its value, its default and its help,
/// wrapped at 88 columns, after the paragraph `intro`.
///
/// ```
/// # use sim_kit::schema::{ValueError, reference};
/// # #[derive(Clone, Debug, Default, PartialEq)]
/// # pub struct Config { pub n: u32 }
/// sim_kit::schema! {
///     /// One run's parameters.
///     pub struct Scenario for Config, error ValueError;
///     /// Number of clients, 1 or more.
///     clients: u32, short None, value "N", aliases [] => n;
/// }
/// let text = reference::<Scenario>("Keys.");
/// assert_eq!(text, "Keys.\n\n  clients = N (default 0)\n      Number of clients, 1 or more.\n");
/// ```
pub fn reference<S: Schema>(intro: &str) -> String {
    let mut out = String::new();
    for piece in wrap(intro, 88) {
        out.push_str(&piece);
        out.push('\n');
    }
    out.push('\n');
    for ((key, default), f) in S::defaults().into_iter().zip(S::FIELDS) {
        let value = if f.choices.is_empty() {
            f.value_name.to_string()
        } else {
            f.choices.join(" | ")
        };
        out.push_str(&format!("  {key} = {value} (default {default})\n"));
        for piece in wrap(&f.help.replace('\n', " "), 82) {
            out.push_str("      ");
            out.push_str(&piece);
            out.push('\n');
        }
    }
    out
}
