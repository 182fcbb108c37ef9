//! The temporaries of this process and the one moment its outputs appear.
//!
//! Every hidden temporary this crate makes (the files of [`AtomicFile`](super::AtomicFile), the staging
//! folders of [`OutputSet`](super::OutputSet), and any name handed out by
//! [`temp_path`](super::atomic::temp_path)) is recorded here until it is published or
//! removed. A command moves its outputs into place through [`gate`], which publishes
//! only if the command was not cancelled; a process that must stop at once (a second
//! signal) calls [`abandon`], which waits for a publication under way, removes every
//! temporary still recorded and from then on lets no publication start and no
//! temporary appear. So a command stopped at any instant leaves either all of its
//! outputs or none, and no temporary behind, whether it stops by itself (each temporary
//! is removed when dropped) or at once.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use sim_host::output::temporaries::gate;
//! let cancel = AtomicBool::new(false);
//! assert_eq!(gate(&cancel, || "published"), Some("published"));
//! cancel.store(true, std::sync::atomic::Ordering::SeqCst);
//! assert_eq!(gate(&cancel, || "published"), None);
//! ```

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

/// The files SQLite keeps beside a database file: removed with it, so that a database
/// written under a temporary name leaves nothing either.
const COMPANIONS: [&str; 3] = ["-wal", "-shm", "-journal"];

/// What [`abandon`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abandoned {
    /// Nothing had been published: every temporary was removed, and no publication
    /// can start any more.
    Removed,
    /// A publication had already happened (the command's outputs are in place): nothing
    /// was removed or closed.
    AlreadyPublished,
}

/// The temporaries of one process and its publication lock (one global instance;
/// tests make their own).
#[derive(Debug, Default)]
struct Registry {
    /// Held while outputs move into place, and forever once abandoned.
    publishing: Mutex<()>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    temporaries: Vec<PathBuf>,
    published: bool,
    abandoned: bool,
}

impl Registry {
    const fn new() -> Self {
        Self {
            publishing: Mutex::new(()),
            state: Mutex::new(State {
                temporaries: Vec::new(),
                published: false,
                abandoned: false,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn publishing(&self) -> MutexGuard<'_, ()> {
        self.publishing
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Record `path`, then make it with `make`, both before [`Self::abandon`] can look.
    fn create<T>(&self, path: &Path, make: impl FnOnce(&Path) -> io::Result<T>) -> io::Result<T> {
        let mut s = self.state();
        if s.abandoned {
            drop(s);
            wait_forever();
        }
        let made = make(path)?;
        s.temporaries.push(path.to_path_buf());
        Ok(made)
    }

    fn track(&self, path: &Path) {
        // Through `create` with nothing to make, so that abandoning waits for it too.
        let _ = self.create(path, |_| Ok(()));
    }

    fn forget(&self, path: &Path) {
        let mut s = self.state();
        if let Some(i) = s.temporaries.iter().rposition(|p| p == path) {
            s.temporaries.swap_remove(i);
        }
    }

    fn gate<T>(&self, cancel: &AtomicBool, publish: impl FnOnce() -> T) -> Option<T> {
        let _publishing = self.publishing();
        {
            let mut s = self.state();
            if s.abandoned {
                // Unreachable in practice: an abandoning process keeps the lock.
                drop(s);
                wait_forever();
            }
            if cancel.load(Ordering::SeqCst) {
                return None;
            }
            s.published = true;
        }
        Some(publish())
    }

    fn abandon(&self) -> Abandoned {
        let publishing = self.publishing();
        let mut s = self.state();
        if s.published {
            return Abandoned::AlreadyPublished;
        }
        s.abandoned = true;
        for path in s.temporaries.drain(..).rev() {
            remove(&path);
        }
        drop(s);
        // Keep the publication lock for the rest of the process: nothing is published
        // after this.
        std::mem::forget(publishing);
        Abandoned::Removed
    }
}

/// Remove `path`, a file or a folder, and the companions a database keeps beside it.
fn remove(path: &Path) {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            // A file may appear in the folder while it is being emptied (a thread
            // writing into it): try again.
            for _ in 0..5 {
                if fs::remove_dir_all(path).is_ok() || !path.exists() {
                    break;
                }
            }
        }
        Ok(_) => {
            let _ = fs::remove_file(path);
        }
        Err(_) => {}
    }
    if let Some(name) = path.file_name() {
        for suffix in COMPANIONS {
            let mut companion = name.to_os_string();
            companion.push(suffix);
            let _ = fs::remove_file(path.with_file_name(companion));
        }
    }
}

/// Block this thread for good: the process is about to exit.
fn wait_forever() -> ! {
    loop {
        std::thread::park();
    }
}

static REGISTRY: Registry = Registry::new();
static BEFORE_GATE: OnceLock<fn()> = OnceLock::new();

/// Make a temporary at `path` with `make` (which creates it) and record it, so that
/// [`abandon`] removes it; no temporary is made once the process has abandoned (the
/// caller then waits for the exit).
///
/// # Errors
///
/// The error of `make`; nothing is recorded then.
pub(crate) fn create<T>(path: &Path, make: impl FnOnce(&Path) -> io::Result<T>) -> io::Result<T> {
    REGISTRY.create(path, make)
}

/// Record `path` as a temporary of this process until [`forget`] is called: for a file
/// that another library creates (a database written by path) and that is the
/// command's output only once the command has passed [`gate`]. [`abandon`] removes it
/// (and the companions of a database) if it exists then.
pub fn track(path: &Path) {
    REGISTRY.track(path);
}

/// `path` was published or removed: it is no longer a temporary.
pub fn forget(path: &Path) {
    REGISTRY.forget(path);
}

/// Run `publish` (the moves that put a command's outputs in place) unless `cancel` is
/// raised, and return its result; `None` if cancelled. The flag is read under the
/// publication lock, so a cancel raised at any instant either comes first (nothing is
/// published) or after `publish` has run whole. Call it once per command, also when
/// the output is only what the command prints: from then on [`abandon`] leaves the
/// outputs alone.
pub fn gate<T>(cancel: &AtomicBool, publish: impl FnOnce() -> T) -> Option<T> {
    if let Some(hook) = BEFORE_GATE.get() {
        hook();
    }
    REGISTRY.gate(cancel, publish)
}

/// Call `hook` every time [`gate`] is reached, before it looks at the cancel flag; only
/// the first hook set counts. For a test that must act at that instant (the command
/// line's `MAC_SIM_TEST_PAUSE_BEFORE_PUBLISH`).
pub fn before_gate(hook: fn()) {
    let _ = BEFORE_GATE.set(hook);
}

/// Whether this process has passed [`gate`] (its outputs are in place, or the moves
/// have started).
pub fn published() -> bool {
    REGISTRY.state().published
}

/// Stop publishing for good and remove every temporary of the process, for a process
/// about to exit at once; waits for a publication under way. If one has already
/// happened, does nothing and says so ([`Abandoned::AlreadyPublished`]): the outputs
/// are in place and the command is finishing.
pub fn abandon() -> Abandoned {
    REGISTRY.abandon()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abandon_removes_files_folders_and_companions() {
        let r = Registry::new();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(".a.partial-00000000-1-0.db");
        r.create(&file, |p| fs::write(p, "x")).unwrap();
        fs::write(dir.path().join(".a.partial-00000000-1-0.db-wal"), "w").unwrap();
        let folder = dir.path().join(".out.partial-00000000-1-1");
        r.create(&folder, |p| fs::create_dir(p)).unwrap();
        fs::write(folder.join("chart.png"), "x").unwrap();
        let kept = dir.path().join("kept.csv");
        r.create(&kept, |p| fs::write(p, "x")).unwrap();
        r.forget(&kept);
        assert_eq!(r.abandon(), Abandoned::Removed);
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("kept.csv")]);
        // Nothing can be published any more.
        assert!(r.publishing.try_lock().is_err());
    }

    #[test]
    fn a_publication_is_never_abandoned() {
        let r = Registry::new();
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join(".t.partial-00000000-1-0");
        r.create(&tmp, |p| fs::write(p, "x")).unwrap();
        let cancel = AtomicBool::new(false);
        assert_eq!(r.gate(&cancel, || 7), Some(7));
        assert_eq!(r.abandon(), Abandoned::AlreadyPublished);
        assert!(tmp.exists(), "removed after the publication");
    }

    #[test]
    fn a_cancelled_gate_publishes_nothing() {
        let r = Registry::new();
        let cancel = AtomicBool::new(true);
        let mut ran = false;
        assert_eq!(r.gate(&cancel, || ran = true), None);
        assert!(!ran);
        assert_eq!(r.abandon(), Abandoned::Removed);
    }
}
