//! Files that are either complete or absent: write to a temporary name beside the
//! target, flush it to disk, then rename it over the target.
//!
//! A rename within one directory is atomic on POSIX file systems, so a reader (or a
//! user looking at the directory after a crash or Ctrl-C) sees the old file, the new
//! file, or no file — never a half-written one under the final name. Temporary files
//! are hidden (`.name.partial-HOST-PID-N.ext`: [`super::orphans`]), keep the target's extension (backends that
//! choose a format from it still work) and are removed if writing fails; every one is
//! recorded in [`super::temporaries`], so that a process stopped at once removes them
//! too.
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("results.csv");
//! sim_host::output::write_atomic(&path, b"a,b\n1,2\n").unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"a,b\n1,2\n");
//! ```

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::temporaries;

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
    /// Two outputs of one command clash at this path (the same file given twice, a
    /// file where a folder of outputs goes, ...): `what` says how, after the path.
    Clash {
        /// The path both outputs would use.
        path: PathBuf,
        /// How they clash, e.g. "is both the --trace file and the --plot folder".
        what: String,
    },
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
            Self::Clash { path, what } => write!(f, "'{}' {what}", path.display()),
        }
    }
}

impl std::error::Error for OutputError {}

impl OutputError {
    /// The same error with its path passed through `f` (as
    /// [`super::set::OutputSet::shown`] names a staged file by its place in the
    /// target).
    #[must_use]
    pub fn map_path(self, f: impl FnOnce(PathBuf) -> PathBuf) -> Self {
        match self {
            Self::NotADirectory(p) => Self::NotADirectory(f(p)),
            Self::CreateDir(p, e) => Self::CreateDir(f(p), e),
            Self::NotWritable(p, e) => Self::NotWritable(f(p), e),
            Self::Write(p, e) => Self::Write(f(p), e),
            Self::Render(p, e) => Self::Render(f(p), e),
            Self::Clash { path, what } => Self::Clash {
                path: f(path),
                what,
            },
        }
    }
}

/// A fresh hidden temporary name in `target`'s directory with `target`'s extension,
/// recorded as a temporary of this process ([`super::temporaries`]): if the process
/// abandons its outputs, a file of that name (and a database's `-wal`, `-shm` and
/// `-journal` beside it) is removed.
pub fn temp_path(target: &Path) -> PathBuf {
    let tmp = fresh_name(target);
    temporaries::track(&tmp);
    tmp
}

/// A fresh hidden temporary name for `target`, not recorded; the first in a folder
/// clears it of the temporaries of processes that no longer run
/// ([`super::orphans::clean`]).
fn fresh_name(target: &Path) -> PathBuf {
    if let Some(dir) = target.parent() {
        super::orphans::clean(dir);
    }
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let stem = target
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let name = match target.extension() {
        Some(ext) => format!(
            ".{stem}.partial-{}-{n}.{}",
            super::orphans::mark(),
            ext.to_string_lossy()
        ),
        None => format!(".{stem}.partial-{}-{n}", super::orphans::mark()),
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
    let written = fill(&tmp)
        .map_err(|e| cleanup(wrap(e)))
        .and_then(|()| {
            fs::File::open(&tmp)
                .and_then(|f| f.sync_all())
                .map_err(|e| cleanup(OutputError::Write(target.to_path_buf(), e)))
        })
        .and_then(|()| {
            fs::rename(&tmp, target)
                .map_err(|e| cleanup(OutputError::Write(target.to_path_buf(), e)))
        });
    temporaries::forget(&tmp);
    written
}

/// Check that a file can be written at `target` before any work: it is not a folder,
/// its folder exists and accepts new files. Creates nothing (a hidden probe file is
/// made beside it and removed at once).
///
/// # Errors
///
/// [`OutputError::Write`] naming `target` if it is a folder or a device, pipe or
/// socket (a file is renamed over its path, which would replace it), its folder is
/// missing or no file can be created there.
pub fn check_file(target: &Path) -> Result<(), OutputError> {
    let wrap = |e| OutputError::Write(target.to_path_buf(), e);
    if target.is_dir() {
        return Err(wrap(in_the_way()));
    }
    not_special(target)?;
    let probe = fresh_name(target);
    temporaries::create(&probe, |p| {
        fs::OpenOptions::new().write(true).create_new(true).open(p)
    })
    .map_err(wrap)?;
    let _ = fs::remove_file(&probe);
    temporaries::forget(&probe);
    Ok(())
}

/// The error of a folder where a file is to be written.
pub(crate) fn in_the_way() -> io::Error {
    io::Error::new(io::ErrorKind::IsADirectory, "a folder is in the way")
}

/// Refuse an output path that exists and is neither a regular file nor a folder (a
/// device such as `/dev/full` or `/dev/null`, a named pipe, a socket; through a
/// symbolic link too): a file is written whole under a temporary name and renamed
/// over its path, which would replace the device or the link to it by a plain file.
///
/// # Errors
///
/// [`OutputError::Write`] naming `target`.
pub(crate) fn not_special(target: &Path) -> Result<(), OutputError> {
    match fs::metadata(target) {
        Ok(m) if !m.is_file() && !m.is_dir() => Err(OutputError::Write(
            target.to_path_buf(),
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "it is a device, pipe or socket, not a regular file: output files are written whole and renamed into place; name a file",
            ),
        )),
        _ => Ok(()),
    }
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

/// A file written as a stream and published at the end: it is created under a
/// temporary name beside `target` (so a path that cannot be written fails at
/// [`create`](Self::create), before any work), buffered, and renamed to `target` by
/// [`commit`](Self::commit) (or, with other outputs of the same command, by
/// [`super::publish::Publication`]). Dropped without a commit (an error, Ctrl-C), it
/// removes its temporary file and `target` is left as it was.
///
/// ```
/// use std::io::Write;
/// use sim_host::output::AtomicFile;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("trace.csv");
/// let mut f = AtomicFile::create(&path).unwrap();
/// writeln!(f, "time,station").unwrap();
/// assert!(!path.exists());
/// f.commit().unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "time,station\n");
/// ```
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    tmp: PathBuf,
    out: Option<io::BufWriter<fs::File>>,
    /// Renamed to the target: nothing to remove.
    published: bool,
}

impl AtomicFile {
    /// Create the temporary file for `target`.
    ///
    /// # Errors
    ///
    /// [`OutputError::Write`] if `target` is a directory or a device (see
    /// [`check_file`]), or its directory does not exist or is not writable.
    pub fn create(target: &Path) -> Result<Self, OutputError> {
        if target.is_dir() {
            return Err(OutputError::Write(target.to_path_buf(), in_the_way()));
        }
        not_special(target)?;
        let tmp = fresh_name(target);
        let f = temporaries::create(&tmp, |p| {
            fs::OpenOptions::new().write(true).create_new(true).open(p)
        })
        .map_err(|e| OutputError::Write(target.to_path_buf(), e))?;
        Ok(Self {
            target: target.to_path_buf(),
            tmp,
            out: Some(io::BufWriter::with_capacity(1 << 16, f)),
            published: false,
        })
    }

    /// The path the file will have once published.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flush the buffer, sync the file to disk and close it, still under its temporary
    /// name; writing to it afterwards fails. Done by [`commit`](Self::commit) if not
    /// before.
    ///
    /// # Errors
    ///
    /// [`OutputError::Write`] if flushing or syncing fails.
    pub fn finish(&mut self) -> Result<(), OutputError> {
        let Some(out) = self.out.take() else {
            return Ok(());
        };
        let wrap = |e| OutputError::Write(self.target.clone(), e);
        let f = out.into_inner().map_err(|e| wrap(e.into_error()))?;
        f.sync_all().map_err(wrap)
    }

    /// Rename the finished file to its target (no flush, no sync: see
    /// [`finish`](Self::finish)); returns the target.
    pub(crate) fn rename(mut self) -> Result<PathBuf, OutputError> {
        fs::rename(&self.tmp, &self.target)
            .map_err(|e| OutputError::Write(self.target.clone(), e))?;
        self.published = true;
        Ok(self.target.clone())
    }

    /// Flush the buffer, sync the file to disk and rename it to the target.
    ///
    /// # Errors
    ///
    /// [`OutputError::Write`] if flushing, syncing or renaming fails; the temporary
    /// file is then removed and the target left as it was.
    pub fn commit(mut self) -> Result<(), OutputError> {
        self.finish()?;
        self.rename().map(|_| ())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.out {
            Some(w) => w.write(buf),
            None => Err(io::Error::other("file already finished")),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.out {
            Some(w) => w.write_all(buf),
            None => Err(io::Error::other("file already finished")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.out {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // Not published, or the rename failed: close and remove the temporary file.
        drop(self.out.take());
        if !self.published {
            let _ = fs::remove_file(&self.tmp);
        }
        temporaries::forget(&self.tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn atomic_file_publishes_on_commit_only() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("trace.jsonl");
        {
            let mut f = AtomicFile::create(&target).unwrap();
            f.write_all(b"half").unwrap();
        }
        assert!(!target.exists());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        let mut f = AtomicFile::create(&target).unwrap();
        f.write_all(b"whole").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"whole");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(AtomicFile::create(dir.path()).is_err(), "a directory");
        assert!(AtomicFile::create(&dir.path().join("no/such/dir/t.csv")).is_err());
    }

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
