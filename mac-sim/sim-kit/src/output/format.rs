//! An output file's format, chosen by the extension of its name.
//!
//! ```
//! use sim_kit::output::by_extension;
//! use std::path::Path;
//! let table = [("csv", 1), ("jsonl", 2)];
//! assert_eq!(by_extension(Path::new("a/t.CSV"), "trace", &table), Ok(1));
//! let e = by_extension(Path::new("t.json"), "trace", &table).unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "trace file 't.json': unknown format (the name must end in .csv or .jsonl)"
//! );
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

/// A file name whose extension names none of the formats offered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat {
    /// What the file is, e.g. `trace`.
    pub what: &'static str,
    /// The path as given.
    pub path: PathBuf,
    /// The extensions offered, without the dot, in the order the message names them.
    pub extensions: Vec<&'static str>,
}

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} file '{}': unknown format (the name must end in .{})",
            self.what,
            self.path.display(),
            self.extensions.join(" or .")
        )
    }
}

impl std::error::Error for UnknownFormat {}

/// The format of `path` from `table` (lower-case extensions without the dot, each
/// with its format); the extension is compared without regard to case. `what` names
/// the file in the error.
///
/// # Errors
///
/// [`UnknownFormat`] for an extension not in `table`, or none.
pub fn by_extension<F: Copy>(
    path: &Path,
    what: &'static str,
    table: &[(&'static str, F)],
) -> Result<F, UnknownFormat> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    table
        .iter()
        .find(|(name, _)| ext.as_deref() == Some(*name))
        .map(|&(_, format)| format)
        .ok_or_else(|| UnknownFormat {
            what,
            path: path.to_path_buf(),
            extensions: table.iter().map(|&(name, _)| name).collect(),
        })
}
