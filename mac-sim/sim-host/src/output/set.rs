//! A set of output files that appears whole or not at all.
//!
//! [`check`] the target directory before any work starts (nothing is created then);
//! when the work is done, [`OutputSet::begin`] a hidden staging folder beside the
//! target, write every file into [`OutputSet::dir`], and [`OutputSet::commit`]: the
//! staging folder becomes the target (one rename) if the target did not exist, or each
//! file is renamed into it, after checking that every one can be. Dropping an
//! uncommitted set removes the staging folder: a failure or an interruption leaves
//! nothing new behind, not even an empty folder. [`check_files`] also checks, before
//! any work, that no folder stands where one of the set's files will go, and
//! [`super::publish::Publication`] publishes a set together with other outputs.
//!
//! ```
//! use sim_host::output::{OutputSet, check_folder};
//! let top = tempfile::tempdir().unwrap();
//! let target = top.path().join("results");
//! check_folder(&target).unwrap();
//! let set = OutputSet::begin(&target).unwrap();
//! std::fs::write(set.dir().join("a.csv"), "x\n").unwrap();
//! drop(set); // not committed: nothing appears
//! assert!(!target.exists());
//! let set = OutputSet::begin(&target).unwrap();
//! std::fs::write(set.dir().join("a.csv"), "x\n").unwrap();
//! let files = set.commit().unwrap();
//! assert_eq!(files, vec![target.join("a.csv")]);
//! assert_eq!(std::fs::read_dir(top.path()).unwrap().count(), 1); // no staging left
//! ```

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::atomic::{OutputError, in_the_way};
use super::temporaries;

/// Check that `target` can receive a set of files: it is a directory or does not
/// exist yet, and the nearest existing folder at or above it accepts new files.
/// Creates nothing.
///
/// # Errors
///
/// [`OutputError::NotADirectory`] if `target` or a folder above it is a file,
/// [`OutputError::CreateDir`] for an empty path, [`OutputError::NotWritable`] if no
/// file can be created where the set would go.
pub fn check(target: &Path) -> Result<(), OutputError> {
    let base = existing_base(target)?;
    let probe = base.join(format!(".probe-{}-{}", std::process::id(), fresh()));
    temporaries::create(&probe, |p| {
        fs::OpenOptions::new().write(true).create_new(true).open(p)
    })
    .map_err(|e| OutputError::NotWritable(base.clone(), e))?;
    let _ = fs::remove_file(&probe);
    temporaries::forget(&probe);
    Ok(())
}

/// [`check`] `target`, and that none of `names` (the files the command may write into
/// it) is a folder there. Creates nothing.
///
/// # Errors
///
/// Those of [`check`], and [`OutputError::Write`] naming the first file whose place is
/// taken by a folder.
pub fn check_files<S: AsRef<Path>>(target: &Path, names: &[S]) -> Result<(), OutputError> {
    check(target)?;
    in_the_way_of(target, names.iter().map(|n| target.join(n)))
}

/// [`OutputError::Write`] for the first of `files` that is a folder, if `target` is a
/// folder (files in a folder not made yet cannot be in the way).
fn in_the_way_of(
    target: &Path,
    files: impl IntoIterator<Item = PathBuf>,
) -> Result<(), OutputError> {
    if !target.is_dir() {
        return Ok(());
    }
    match files.into_iter().find(|f| f.is_dir()) {
        Some(f) => Err(OutputError::Write(f, in_the_way())),
        None => Ok(()),
    }
}

/// The nearest existing folder at or above `target`, after checking that none of
/// the path is a file.
fn existing_base(target: &Path) -> Result<PathBuf, OutputError> {
    if target.as_os_str().is_empty() {
        return Err(OutputError::CreateDir(
            target.to_path_buf(),
            io::Error::new(io::ErrorKind::InvalidInput, "the path is empty"),
        ));
    }
    let absolute = if target.is_absolute() {
        target.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| OutputError::CreateDir(target.to_path_buf(), e))?
            .join(target)
    };
    for a in absolute.ancestors() {
        match fs::metadata(a) {
            Ok(m) if m.is_dir() => return Ok(a.to_path_buf()),
            Ok(_) => return Err(OutputError::NotADirectory(target.to_path_buf())),
            Err(_) => {}
        }
    }
    Err(OutputError::CreateDir(
        target.to_path_buf(),
        io::Error::new(io::ErrorKind::NotFound, "no existing folder above it"),
    ))
}

fn fresh() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    COUNTER.fetch_add(1, Ordering::Relaxed)
}

/// A staging folder whose files become the target's all together, or not at all.
#[derive(Debug)]
pub struct OutputSet {
    target: PathBuf,
    staging: PathBuf,
    done: bool,
}

impl OutputSet {
    /// Make the hidden staging folder for `target`, beside it (in the nearest existing
    /// folder, so that the final moves are renames on one file system).
    ///
    /// # Errors
    ///
    /// The errors of [`check`], and [`OutputError::CreateDir`] naming `target` if the
    /// staging folder cannot be made.
    pub fn begin(target: &Path) -> Result<Self, OutputError> {
        let base = existing_base(target)?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        super::orphans::clean(&base);
        let staging = base.join(format!(
            ".{name}.partial-{}-{}",
            super::orphans::mark(),
            fresh()
        ));
        temporaries::create(&staging, |p| fs::create_dir(p))
            .map_err(|e| OutputError::CreateDir(target.to_path_buf(), e))?;
        Ok(Self {
            target: target.to_path_buf(),
            staging,
            done: false,
        })
    }

    /// The folder to write the files into.
    pub fn dir(&self) -> &Path {
        &self.staging
    }

    /// `e` with a path in the staging folder named by its place in the target: an
    /// error of writing the set names the path the user gave, never the hidden
    /// staging folder.
    ///
    /// ```
    /// use std::path::Path;
    /// use sim_host::output::{OutputError, OutputSet};
    /// let top = tempfile::tempdir().unwrap();
    /// let set = OutputSet::begin(&top.path().join("out")).unwrap();
    /// let full = std::io::Error::other("disk full");
    /// let e = set.shown(OutputError::Write(set.dir().join("a.csv"), full));
    /// assert!(matches!(&e, OutputError::Write(p, _) if p == &top.path().join("out/a.csv")));
    /// ```
    #[must_use]
    pub fn shown(&self, e: OutputError) -> OutputError {
        e.map_path(|p| match p.strip_prefix(&self.staging) {
            Ok(rest) if rest.as_os_str().is_empty() => self.target.clone(),
            Ok(rest) => self.target.join(rest),
            Err(_) => p,
        })
    }

    /// The folder the files will be in once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Move every file into the target; returns their final paths, sorted.
    ///
    /// # Errors
    ///
    /// [`OutputError::NotADirectory`] if the target became a file,
    /// [`OutputError::Write`] if a file's place in the target is taken by a folder or
    /// a move fails, [`OutputError::CreateDir`] if the target's parent cannot be made.
    /// Every check is made before the first file moves; on any error the staging
    /// folder is removed.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, OutputError> {
        let names = self.check_commit()?;
        let finals: Vec<PathBuf> = names.iter().map(|n| self.target.join(n)).collect();
        match fs::metadata(&self.target) {
            Ok(_) => {
                for (n, f) in names.iter().zip(&finals) {
                    fs::rename(self.staging.join(n), f)
                        .map_err(|e| OutputError::Write(f.clone(), e))?;
                }
                let _ = fs::remove_dir(&self.staging);
            }
            Err(_) => {
                if let Some(parent) = self.target.parent().filter(|p| !p.as_os_str().is_empty()) {
                    fs::create_dir_all(parent)
                        .map_err(|e| OutputError::CreateDir(parent.to_path_buf(), e))?;
                }
                fs::rename(&self.staging, &self.target)
                    .map_err(|e| OutputError::Write(self.target.clone(), e))?;
            }
        }
        self.done = true;
        Ok(finals)
    }

    /// The checks [`commit`](Self::commit) makes before it moves anything: the target
    /// is a folder or absent, and no folder stands where a file will go. Returns the
    /// names of the files, sorted.
    ///
    /// # Errors
    ///
    /// As [`commit`](Self::commit), but for the moves.
    pub fn check_commit(&self) -> Result<Vec<std::ffi::OsString>, OutputError> {
        let mut names: Vec<_> = fs::read_dir(&self.staging)
            .and_then(|rd| rd.map(|e| e.map(|e| e.file_name())).collect())
            .map_err(|e| OutputError::Write(self.staging.clone(), e))?;
        names.sort();
        if fs::metadata(&self.target).is_ok_and(|m| !m.is_dir()) {
            return Err(OutputError::NotADirectory(self.target.clone()));
        }
        in_the_way_of(&self.target, names.iter().map(|n| self.target.join(n)))?;
        Ok(names)
    }
}

impl Drop for OutputSet {
    fn drop(&mut self) {
        if !self.done {
            let _ = fs::remove_dir_all(&self.staging);
        }
        temporaries::forget(&self.staging);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn into_an_existing_folder_replaces_files_and_keeps_others() {
        let top = tempfile::tempdir().unwrap();
        let target = top.path().join("out");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("keep.txt"), "old").unwrap();
        fs::write(target.join("a.csv"), "old").unwrap();
        let set = OutputSet::begin(&target).unwrap();
        fs::write(set.dir().join("a.csv"), "new").unwrap();
        fs::write(set.dir().join("b.csv"), "new").unwrap();
        set.commit().unwrap();
        assert_eq!(fs::read_to_string(target.join("a.csv")).unwrap(), "new");
        assert_eq!(fs::read_to_string(target.join("keep.txt")).unwrap(), "old");
        assert_eq!(fs::read_dir(top.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_folder_in_the_way_moves_nothing() {
        let top = tempfile::tempdir().unwrap();
        let target = top.path().join("out");
        fs::create_dir_all(target.join("b.csv")).unwrap();
        let set = OutputSet::begin(&target).unwrap();
        fs::write(set.dir().join("a.csv"), "new").unwrap();
        fs::write(set.dir().join("b.csv"), "new").unwrap();
        assert!(matches!(set.commit(), Err(OutputError::Write(..))));
        assert!(
            !target.join("a.csv").exists(),
            "a.csv moved before the check"
        );
        assert_eq!(fs::read_dir(top.path()).unwrap().count(), 1, "staging left");
    }

    #[test]
    fn missing_parents_are_made_only_on_commit() {
        let top = tempfile::tempdir().unwrap();
        let target = top.path().join("a/b/out");
        check(&target).unwrap();
        let set = OutputSet::begin(&target).unwrap();
        fs::write(set.dir().join("x"), "1").unwrap();
        drop(set);
        assert_eq!(fs::read_dir(top.path()).unwrap().count(), 0);
        let set = OutputSet::begin(&target).unwrap();
        fs::write(set.dir().join("x"), "1").unwrap();
        set.commit().unwrap();
        assert!(target.join("x").is_file());
    }

    #[test]
    fn a_file_in_the_path_is_refused() {
        let top = tempfile::tempdir().unwrap();
        let f = top.path().join("f");
        fs::write(&f, "x").unwrap();
        assert!(matches!(check(&f), Err(OutputError::NotADirectory(_))));
        assert!(matches!(
            check(&f.join("sub")),
            Err(OutputError::NotADirectory(_))
        ));
        assert!(check(Path::new("")).is_err());
    }
}
