//! The outputs of one command published together: streamed files ([`AtomicFile`]) and
//! folders of files ([`OutputSet`]) appear all at once, through one
//! [`gate`], or none of them does.
//!
//! ```
//! use std::io::Write;
//! use std::sync::atomic::AtomicBool;
//! use sim_host::output::{AtomicFile, OutputSet, Publication};
//! let top = tempfile::tempdir().unwrap();
//! let mut trace = AtomicFile::create(&top.path().join("trace.csv")).unwrap();
//! writeln!(trace, "time,station").unwrap();
//! let charts = OutputSet::begin(&top.path().join("plots")).unwrap();
//! std::fs::write(charts.dir().join("a.svg"), "<svg/>").unwrap();
//! let mut all = Publication::new();
//! all.file(trace).set(charts);
//! // Cancelled before the gate: nothing appears, no temporary is left.
//! let files = all.commit(&AtomicBool::new(true)).unwrap();
//! assert!(files.is_none());
//! assert_eq!(std::fs::read_dir(top.path()).unwrap().count(), 0);
//! ```

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use super::atomic::{AtomicFile, OutputError};
use super::set::OutputSet;
use super::temporaries::gate;

/// Everything one command publishes (see the module docs).
#[derive(Debug, Default)]
pub struct Publication {
    files: Vec<AtomicFile>,
    sets: Vec<OutputSet>,
}

impl Publication {
    /// Nothing to publish yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Publish `file` with the rest.
    pub fn file(&mut self, file: AtomicFile) -> &mut Self {
        self.files.push(file);
        self
    }

    /// Publish the files of `set` with the rest.
    pub fn set(&mut self, set: OutputSet) -> &mut Self {
        self.sets.push(set);
        self
    }

    /// Finish every file (flushed and synced to disk) and check every set, then,
    /// unless `cancel` is raised, move all of them into place under the gate; returns
    /// the published paths, or `None` if cancelled (every temporary is then removed).
    /// An empty publication still passes the gate: call it before printing a result,
    /// so that a cancel raised after the work prints nothing.
    ///
    /// # Errors
    ///
    /// [`OutputError`] if a file cannot be finished or a set's place is taken (before
    /// anything moves), or a move fails.
    pub fn commit(self, cancel: &AtomicBool) -> Result<Option<Vec<PathBuf>>, OutputError> {
        let Self { mut files, sets } = self;
        for f in &mut files {
            f.finish()?;
        }
        for s in &sets {
            s.check_commit()?;
        }
        gate(cancel, move || {
            let mut published = Vec::new();
            // The sets first: each checks again before its first move, and a rename
            // beside its target, which the files are, does not fail.
            for s in sets {
                published.extend(s.commit()?);
            }
            for f in files {
                published.push(f.rename()?);
            }
            Ok(published)
        })
        .transpose()
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn names(dir: &std::path::Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn files_and_sets_appear_together() {
        let top = tempfile::tempdir().unwrap();
        let mut trace = AtomicFile::create(&top.path().join("t.csv")).unwrap();
        writeln!(trace, "x").unwrap();
        let set = OutputSet::begin(&top.path().join("plots")).unwrap();
        std::fs::write(set.dir().join("a.svg"), "<svg/>").unwrap();
        let mut all = Publication::new();
        all.file(trace).set(set);
        let files = all.commit(&AtomicBool::new(false)).unwrap().unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(names(top.path()), ["plots", "t.csv"]);
        assert_eq!(names(&top.path().join("plots")), ["a.svg"]);
    }

    #[test]
    fn a_set_whose_place_is_taken_publishes_no_file() {
        let top = tempfile::tempdir().unwrap();
        let plots = top.path().join("plots");
        std::fs::create_dir_all(plots.join("a.svg")).unwrap();
        let mut trace = AtomicFile::create(&top.path().join("t.csv")).unwrap();
        writeln!(trace, "x").unwrap();
        let set = OutputSet::begin(&plots).unwrap();
        std::fs::write(set.dir().join("a.svg"), "<svg/>").unwrap();
        let mut all = Publication::new();
        all.file(trace).set(set);
        assert!(all.commit(&AtomicBool::new(false)).is_err());
        assert_eq!(names(top.path()), ["plots"]);
        assert_eq!(names(&plots), ["a.svg"]);
    }
}
