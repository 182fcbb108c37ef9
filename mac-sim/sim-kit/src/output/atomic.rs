//! Files that are either complete or absent: write to a temporary name beside the
//! target, flush it to disk, then rename it over the target.
//!
//! A rename within one directory is atomic on POSIX file systems, so a reader (or a
//! user looking at the directory after a crash or Ctrl-C) sees the old file, the new
//! file, or no file — never a half-written one under the final name. Temporary files
//! are hidden (`.name.partial-PID-N.ext`), keep the target's extension (backends that
//! choose a format from it still work) and are removed if writing fails.
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("results.csv");
//! sim_kit::output::atomic::write_atomic(&path, b"a,b\n1,2\n").unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"a,b\n1,2\n");
//! ```

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why an output file or directory could not be written. `Display` gives one line.
#[derive(Debug)]
pub enum OutputError {
    /// The output path exists and is not a directory.
    NotADirectory(PathBuf),
    /// The directory could not be created.
    CreateDir(PathBuf, io::Error),
    /// The directory exists but a file cannot be created in it.
    NotWritable(PathBuf, io::Error),
    /// Writing or renaming a file failed.
    Write(PathBuf, io::Error),
    /// The contents of a file could not be produced (for a chart: drawing failed).
    Render(PathBuf, Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotADirectory(p) => write!(
                f,
                "output directory '{}' exists and is not a directory",
                p.display()
            ),
            Self::CreateDir(p, e) => {
                write!(f, "cannot create output directory '{}': {e}", p.display())
            }
            Self::NotWritable(p, e) => {
                write!(f, "output directory '{}' is not writable: {e}", p.display())
            }
            Self::Write(p, e) => write!(f, "cannot write '{}': {e}", p.display()),
            Self::Render(p, e) => write!(f, "cannot draw '{}': {e}", p.display()),
        }
    }
}

impl std::error::Error for OutputError {}

/// A fresh hidden temporary name in `target`'s directory with `target`'s extension.
pub fn temp_path(target: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let stem = target
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let name = match target.extension() {
        Some(ext) => format!(
            ".{stem}.partial-{}-{n}.{}",
            std::process::id(),
            ext.to_string_lossy()
        ),
        None => format!(".{stem}.partial-{}-{n}", std::process::id()),
    };
    target.with_file_name(name)
}

/// Let `fill` create the file at a temporary path, then flush it to disk and rename it
/// to `target`. If `fill` or the rename fails the temporary file is removed and
/// `target` is left as it was.
///
/// # Errors
///
/// [`OutputError::Write`] if the temporary file cannot be written or renamed, or the
/// error `write` returned, converted by `wrap`; the temporary file is removed either
/// way and `target` is left as it was.
pub fn write_atomic_with<E>(
    target: &Path,
    fill: impl FnOnce(&Path) -> Result<(), E>,
    wrap: impl FnOnce(E) -> OutputError,
) -> Result<(), OutputError> {
    let tmp = temp_path(target);
    let cleanup = |e: OutputError| {
        let _ = fs::remove_file(&tmp);
        e
    };
    fill(&tmp).map_err(|e| cleanup(wrap(e)))?;
    fs::File::open(&tmp)
        .and_then(|f| f.sync_all())
        .map_err(|e| cleanup(OutputError::Write(target.to_path_buf(), e)))?;
    fs::rename(&tmp, target).map_err(|e| cleanup(OutputError::Write(target.to_path_buf(), e)))
}

/// Write `bytes` to `target` atomically (see the module docs).
///
/// # Errors
///
/// [`OutputError::Write`] if the temporary file cannot be written or renamed; `target`
/// is then left as it was.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_atomic_with(
        target,
        |tmp| {
            let mut f = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(tmp)?;
            f.write_all(bytes)?;
            f.flush()
        },
        |e| OutputError::Write(target.to_path_buf(), e),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_fill_leaves_target_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("results.csv");
        fs::write(&target, "old").unwrap();
        let r = write_atomic_with(
            &target,
            |tmp| {
                fs::write(tmp, "half")?;
                Err(io::Error::other("interrupted"))
            },
            |e| OutputError::Write(target.clone(), e),
        );
        assert!(r.is_err());
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "temporary file left behind");
    }

    #[test]
    fn temporary_names_keep_the_extension_and_are_unique() {
        let a = temp_path(Path::new("/x/plot.png"));
        let b = temp_path(Path::new("/x/plot.png"));
        assert_ne!(a, b);
        assert_eq!(a.extension().unwrap(), "png");
        assert!(
            a.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".plot.")
        );
    }
}
