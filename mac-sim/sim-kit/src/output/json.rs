//! JSON output via serde.

use serde::Serialize;

/// Pretty-printed JSON of any result, with a trailing newline.
///
/// ```
/// let v = sim_kit::output::json::to_string(&[1, 2]);
/// assert_eq!(v, "[\n  1,\n  2\n]\n");
/// ```
pub fn to_string<T: Serialize>(value: &T) -> String {
    let mut s =
        serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}
