//! Where a key is in a scenario file's text, for error messages that name the file,
//! the line and the key: the line of a byte offset, the key written on that line, the
//! line of a key inside the n-th table of a name, the line of a top-level TOML key or
//! JSON object key, and the key named by a "unknown field" message; and the one error
//! of every model's scenario files, [`FileError`]. One piece for every model's
//! scenario files.
//!
//! ```
//! use sim_kit::locate::FileError;
//! let e = FileError::new("s.toml", Some(2), "load", "must be at most 1".to_string());
//! assert_eq!(e.to_string(), "s.toml:2: load: must be at most 1");
//! let whole: FileError = FileError::new("s.toml", None, "", "cannot be read".into());
//! assert_eq!(whole.to_string(), "s.toml: cannot be read");
//! ```

use core::fmt;

/// A scenario file that cannot be used, in every model: the file as the user named it
/// (a path, or a preset's name), the 1-based line when the problem has one, the key
/// (or table) at fault (empty when none) and what is wrong (`P`: text, or a model's
/// own kinds of problem). `Display` is one line, `FILE[:LINE][: KEY]: PROBLEM`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError<P = String> {
    /// The file as named.
    pub file: String,
    /// The 1-based line, when the problem has one.
    pub line: Option<usize>,
    /// The key at fault; empty when the problem has none.
    pub key: String,
    /// What is wrong.
    pub problem: P,
}

impl<P> FileError<P> {
    /// The error `problem` at `key` on `line` of `file`.
    pub fn new(
        file: impl Into<String>,
        line: Option<usize>,
        key: impl Into<String>,
        problem: P,
    ) -> Self {
        Self {
            file: file.into(),
            line,
            key: key.into(),
            problem,
        }
    }
}

impl<P: fmt::Display> fmt::Display for FileError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if !self.key.is_empty() {
            write!(f, ": {}", self.key)?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl<P: fmt::Debug + fmt::Display> core::error::Error for FileError<P> {}

/// The 1-based line holding byte `offset`.
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The key written on `line` (1-based): the text before `=`, the table's name of a
/// `[table]` or `[[table]]` header, or a JSON object's key (`"key": value`); empty if
/// none.
///
/// ```
/// use sim_kit::locate::key_on_line;
/// assert_eq!(key_on_line("a = 1\n[server.rate_limit]\n", 2), "server.rate_limit");
/// assert_eq!(key_on_line("{\n  \"stations\": four,\n}", 2), "stations");
/// ```
pub fn key_on_line(text: &str, line: usize) -> String {
    let l = text
        .lines()
        .nth(line.saturating_sub(1))
        .unwrap_or("")
        .trim();
    let json_key = l
        .strip_prefix('"')
        .and_then(|r| r.split_once('"'))
        .filter(|(_, rest)| rest.trim_start().starts_with(':'));
    if let Some((key, _)) = json_key {
        return key.to_string();
    }
    if let Some(h) = l.strip_prefix('[') {
        let h = h.split('#').next().unwrap_or("");
        return h.trim_matches(['[', ']', ' ']).to_string();
    }
    if l.starts_with('#') {
        return String::new();
    }
    match l.split_once('=') {
        Some((k, _)) => k.trim().trim_matches('"').to_string(),
        None => String::new(),
    }
}

/// The line of `key` in the `index`-th `[[table]]` (or the `[table]`, index 0), or of
/// the table's header if the key is not written there; at the top level with `table`
/// empty. A sub-table is named with a dot (`server.rate_limit`), as in its header
/// (`[server.rate_limit]`, spaces and quotes around the parts allowed); one written
/// inside its parent instead (`rate_limit = { per_s = 0.0 }` or
/// `rate_limit.per_s = 0.0` under `[server]`) is found there. Line 1 if nothing
/// matches.
///
/// ```
/// use sim_kit::locate::line_of_key;
/// let text = "[server]\nworkers = 1\n[ server . \"rate_limit\" ]\nper_s = 0.0\n";
/// assert_eq!(line_of_key(text, "server.rate_limit", 0, "per_s"), 4);
/// assert_eq!(line_of_key(text, "server", 0, "workers"), 2);
/// let inline = "[server]\nworkers = 1\nrate_limit = { per_s = 0.0, burst = 1 }\n";
/// assert_eq!(line_of_key(inline, "server.rate_limit", 0, "burst"), 3);
/// ```
pub fn line_of_key(text: &str, table: &str, index: usize, key: &str) -> usize {
    if let Some(line) = line_in_table(text, table, index, key) {
        return line;
    }
    // A sub-table without a header of its own: inline or dotted inside its parent.
    if let Some((parent, child)) = table.rsplit_once('.') {
        let dotted = format!("{child}.{key}");
        if let Some(line) = line_in_table(text, parent, index, &dotted)
            .filter(|&l| key_written(text, l, &dotted))
            .or_else(|| line_in_table(text, parent, index, child))
        {
            return line;
        }
    }
    1
}

/// Whether the line `line` (1-based) holds `key =`.
fn key_written(text: &str, line: usize, key: &str) -> bool {
    text.lines()
        .nth(line.saturating_sub(1))
        .and_then(|l| l.split_once('='))
        .is_some_and(|(k, _)| dotted_name(k) == key)
}

/// A dotted TOML name with the spaces and quotes around its parts removed:
/// `server . "rate_limit"` is `server.rate_limit`.
fn dotted_name(name: &str) -> String {
    name.split('.')
        .map(|p| p.trim().trim_matches(['"', '\'']))
        .collect::<Vec<_>>()
        .join(".")
}

/// [`line_of_key`] inside the table named exactly `table`: the key's line, the
/// table's header when the key is not written there, `None` when there is no such
/// table (never for the top level).
fn line_in_table(text: &str, table: &str, index: usize, key: &str) -> Option<usize> {
    let mut seen: Option<usize> = None; // tables of that name seen so far, minus one
    let mut header = None;
    let mut inside = table.is_empty();
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.starts_with('#') {
            continue;
        }
        if l.starts_with('[') {
            // A header may have a comment after it (a key's `#` is after its `=`).
            let l = l.split('#').next().unwrap_or("").trim();
            let name = dotted_name(l.trim_matches(['[', ']', ' ']));
            if inside && seen == Some(index) {
                return header; // the table ended without the key
            }
            inside = false;
            if !table.is_empty() && name == table {
                let n = seen.map_or(0, |s| s + 1);
                seen = Some(n);
                if n == index {
                    inside = true;
                    header = Some(i + 1);
                }
            }
            continue;
        }
        if inside
            && l.split_once('=')
                .is_some_and(|(k, _)| dotted_name(k) == key)
        {
            return Some(i + 1);
        }
    }
    if table.is_empty() { Some(1) } else { header }
}

/// The first line (1-based) at or after line `from` (0-based) where `key` is written
/// as TOML (`key =`) or as a JSON object key (`"key":`), or 0 when it is not.
///
/// ```
/// use sim_kit::locate::key_line;
/// let json = "{\"config\": {\n \"seed\": 1},\n\"scenario\": {\n \"seed\": 2}}";
/// assert_eq!(key_line(json, "seed", 0), 2);
/// assert_eq!(key_line(json, "seed", 2), 4);
/// assert_eq!(key_line("seed = 1\n", "seed", 0), 1);
/// assert_eq!(key_line("seeds = 1\n", "seed", 0), 0);
/// ```
pub fn key_line(text: &str, key: &str, from: usize) -> usize {
    if key.is_empty() {
        return 0;
    }
    let quoted = format!("\"{key}\"");
    text.lines()
        .enumerate()
        .skip(from)
        .find(|(_, l)| {
            let t = l.trim_start();
            let toml = t
                .strip_prefix(key)
                .or_else(|| t.strip_prefix(&quoted))
                .is_some_and(|r| r.trim_start().starts_with('='));
            let json = l
                .match_indices(&quoted)
                .any(|(i, _)| l[i + quoted.len()..].trim_start().starts_with(':'));
            toml || json
        })
        .map_or(0, |(i, _)| i + 1)
}

/// The key of serde's "unknown field `x`" message, if it is one.
///
/// ```
/// assert_eq!(sim_kit::locate::unknown_key("unknown field `seeds`, expected one of"), Some("seeds".into()));
/// ```
pub fn unknown_key(msg: &str) -> Option<String> {
    let rest = msg.split("unknown field `").nth(1)?;
    Some(rest.split('`').next()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "horizon = \"1s\"\n[load]\nkind = \"open\"\n[[trigger]]\nstart = \"1s\"\n[[trigger]]  # a = b\n# end = 1\nkind = \"x\"\nend = \"2s\"\n";

    #[test]
    fn keys_and_lines() {
        assert_eq!(line_of(TEXT, 0), 1);
        assert_eq!(line_of(TEXT, TEXT.find("kind").unwrap()), 3);
        assert_eq!(key_on_line(TEXT, 3), "kind");
        assert_eq!(key_on_line(TEXT, 4), "trigger");
        assert_eq!(line_of_key(TEXT, "", 0, "horizon"), 1);
        assert_eq!(line_of_key(TEXT, "load", 0, "kind"), 3);
        assert_eq!(line_of_key(TEXT, "trigger", 1, "end"), 9);
        assert_eq!(key_on_line(TEXT, 6), "trigger");
        assert_eq!(key_on_line(TEXT, 7), "");
        assert_eq!(line_of_key(TEXT, "trigger", 0, "end"), 4); // not written: the header
        assert_eq!(line_of_key(TEXT, "trigger", 1, "start"), 6);
        assert_eq!(line_of_key(TEXT, "nothing", 0, "end"), 1);
    }

    #[test]
    fn sub_tables_by_header_inline_or_dotted() {
        let text = "[server]\nworkers = 1\n[server.slowdown]\nlimit = 3\n[server.rate_limit]\n\"per_s\" = 0.0\nburst = 0\n";
        assert_eq!(line_of_key(text, "server", 0, "workers"), 2);
        assert_eq!(line_of_key(text, "server", 0, "queue_limit"), 1); // the header
        assert_eq!(line_of_key(text, "server.slowdown", 0, "limit"), 4);
        assert_eq!(line_of_key(text, "server.slowdown", 0, "max"), 3);
        assert_eq!(line_of_key(text, "server.rate_limit", 0, "per_s"), 6);
        assert_eq!(line_of_key(text, "server.rate_limit", 0, "burst"), 7);
        let dotted = "[server]\nworkers = 1\nrate_limit.per_s = 0.0\nrate_limit.burst = 0\n";
        assert_eq!(line_of_key(dotted, "server.rate_limit", 0, "burst"), 4);
        assert_eq!(line_of_key(dotted, "server.rate_limit", 0, "per_s"), 3);
        let inline = "[server]\nworkers = 1\nslowdown = { limit = 1 }\n";
        assert_eq!(line_of_key(inline, "server.slowdown", 0, "factor"), 3);
    }
}
