//! Every output of one command, checked together before any work: each folder of
//! outputs as [`check_files`] does, no folder where a file will go, and no two outputs
//! that clash (the same file given twice, a file where a folder of outputs or one of
//! its files goes, a file above another output, a file inside a folder of outputs not
//! made yet). Nothing is created.
//!
//! ```
//! use std::path::Path;
//! use sim_host::output::plan::{Output, check};
//! let charts = vec!["a.png".to_string(), "a.svg".to_string()];
//! let ok = [
//!     Output::file("--trace", Path::new("t.csv")),
//!     Output::folder("--plot", Path::new("plots"), &charts),
//! ];
//! assert!(check(&ok).is_ok());
//! let clash = [
//!     Output::file("--trace", Path::new("x.csv")),
//!     Output::folder("--plot", Path::new("./x.csv"), &charts),
//! ];
//! let e = check(&clash).unwrap_err().to_string();
//! assert_eq!(e, "'./x.csv' is both the --trace file and the --plot folder");
//! ```

use std::path::{Component, Path, PathBuf};

use super::atomic::{OutputError, in_the_way, not_special};
use super::set::check_files;

/// One output of a command, named by the option that gives it.
#[derive(Clone, Copy, Debug)]
pub struct Output<'a> {
    option: &'a str,
    path: &'a Path,
    /// `Some`: a folder, with the names of the files the command may write into it.
    files: Option<&'a [String]>,
}

impl<'a> Output<'a> {
    /// A file the command writes at `path`.
    pub fn file(option: &'a str, path: &'a Path) -> Self {
        Self {
            option,
            path,
            files: None,
        }
    }

    /// A folder the command writes `files` into (every name it may write).
    pub fn folder(option: &'a str, path: &'a Path, files: &'a [String]) -> Self {
        Self {
            option,
            path,
            files: Some(files),
        }
    }
}

/// A path the command will write, for the clash checks.
struct Place<'a> {
    /// Absolute, with symbolic links and `.`/`..` resolved as far as the path exists.
    path: PathBuf,
    /// As the user gave it.
    shown: PathBuf,
    option: &'a str,
    /// Which output it belongs to.
    output: usize,
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
    FileOfFolder,
}

impl Place<'_> {
    fn describe(&self) -> String {
        match self.kind {
            Kind::File => format!("the {} file", self.option),
            Kind::Folder => format!("the {} folder", self.option),
            Kind::FileOfFolder => format!("a file of the {} folder", self.option),
        }
    }
}

/// Check `outputs`, the outputs of one command (see the module docs).
///
/// # Errors
///
/// The first problem, as one line naming the path: the errors of [`check_files`] for a
/// folder, [`OutputError::Write`] for a folder where a file goes or a device, pipe or
/// socket given as a file,
/// [`OutputError::Clash`] for two outputs that clash.
pub fn check(outputs: &[Output]) -> Result<(), OutputError> {
    for o in outputs {
        match o.files {
            Some(files) => check_files(o.path, files)?,
            None if o.path.is_dir() => {
                return Err(OutputError::Write(o.path.to_path_buf(), in_the_way()));
            }
            None => {
                not_special(o.path)?;
                names_a_file(o.path)?;
            }
        }
    }
    let mut places = Vec::new();
    for (i, o) in outputs.iter().enumerate() {
        let path = resolved(o.path);
        let Some(files) = o.files else {
            places.push(Place {
                path,
                shown: o.path.to_path_buf(),
                option: o.option,
                output: i,
                kind: Kind::File,
            });
            continue;
        };
        // The folder before its files: a clash with the folder is the one named.
        places.push(Place {
            path: path.clone(),
            shown: o.path.to_path_buf(),
            option: o.option,
            output: i,
            kind: Kind::Folder,
        });
        for f in files {
            places.push(Place {
                path: path.join(f),
                shown: o.path.join(f),
                option: o.option,
                output: i,
                kind: Kind::FileOfFolder,
            });
        }
    }
    // The same path twice first: the plainest message.
    for (i, a) in places.iter().enumerate() {
        for b in places[i + 1..].iter().filter(|b| b.output != a.output) {
            if a.path == b.path && !(a.kind == Kind::Folder && b.kind == Kind::Folder) {
                return err(
                    &b.shown,
                    format!("is both {} and {}", a.describe(), b.describe()),
                );
            }
        }
    }
    for (i, a) in places.iter().enumerate() {
        for b in places[i + 1..].iter().filter(|b| b.output != a.output) {
            nested(a, b)?;
            nested(b, a)?;
        }
    }
    Ok(())
}

/// Refuse a file's path that cannot name a file: one that ends with `/` (a folder's
/// name), or one under a file (`a-file/out.csv`). Either would fail only when the
/// file is written, after the work.
fn names_a_file(path: &Path) -> Result<(), OutputError> {
    let refuse = |why: &str| {
        Err(OutputError::Write(
            path.to_path_buf(),
            std::io::Error::new(std::io::ErrorKind::InvalidInput, why.to_string()),
        ))
    };
    let text = path.as_os_str().to_string_lossy();
    if text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR) {
        return refuse("it ends with '/', which names a folder: name a file");
    }
    let under_a_file = path
        .ancestors()
        .skip(1)
        .filter(|a| !a.as_os_str().is_empty())
        .find(|a| a.exists())
        .is_some_and(|a| !a.is_dir());
    if under_a_file {
        return refuse("a file is in the way of its folder");
    }
    Ok(())
}

/// A clash at `path`.
fn err(path: &Path, what: String) -> Result<(), OutputError> {
    Err(OutputError::Clash {
        path: path.to_path_buf(),
        what,
    })
}

/// The clash of `a` with `b` when one is inside the other, seen from `a`'s side (call
/// it both ways).
fn nested(a: &Place, b: &Place) -> Result<(), OutputError> {
    let a_is_file = a.kind != Kind::Folder;
    if a_is_file && b.path.starts_with(&a.path) && b.path != a.path {
        return err(
            &a.shown,
            format!(
                "is {}, but {} '{}' would be inside it",
                a.describe(),
                b.describe(),
                b.shown.display()
            ),
        );
    }
    if a.kind == Kind::File
        && b.kind == Kind::Folder
        && a.path.starts_with(&b.path)
        && !b.path.exists()
    {
        return err(
            &a.shown,
            format!(
                "is inside {} '{}', which does not exist yet: make the folder first",
                b.describe(),
                b.shown.display()
            ),
        );
    }
    Ok(())
}

/// `path` made absolute, its longest existing part resolved by the file system
/// (symbolic links, `..`), the rest lexically, so that two spellings of one path
/// compare equal.
fn resolved(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    let parts: Vec<Component> = absolute.components().collect();
    for n in (1..=parts.len()).rev() {
        let head: PathBuf = parts[..n].iter().collect();
        if let Ok(mut out) = head.canonicalize() {
            for c in &parts[n..] {
                match c {
                    Component::CurDir => {}
                    Component::ParentDir => {
                        out.pop();
                    }
                    c => out.push(c),
                }
            }
            return out;
        }
    }
    absolute
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["chart.png".into(), "chart.svg".into()]
    }

    fn message(outputs: &[Output]) -> String {
        check(outputs).unwrap_err().to_string()
    }

    #[test]
    fn every_clash_is_named() {
        let top = tempfile::tempdir().unwrap();
        let p = |s: &str| top.path().join(s);
        let n = names();
        let (t, x, plots) = (p("t.csv"), p("x.csv"), p("plots"));
        let dotted = p("plots/../t.csv");
        assert!(
            message(&[Output::file("--trace", &t), Output::file("--pcap", &dotted)])
                .ends_with("is both the --trace file and the --pcap file")
        );
        assert!(
            message(&[
                Output::file("--trace", &x),
                Output::folder("--plot", &x, &n)
            ])
            .ends_with("is both the --trace file and the --plot folder")
        );
        let chart = plots.join("chart.svg");
        assert!(
            message(&[
                Output::file("--trace", &chart),
                Output::folder("--plot", &plots, &n)
            ])
            .ends_with("is both the --trace file and a file of the --plot folder")
        );
        let below = x.join("plots");
        let e = message(&[
            Output::file("--trace", &x),
            Output::folder("--plot", &below, &n),
        ]);
        assert!(
            e.contains("is the --trace file, but the --plot folder"),
            "{e}"
        );
        let inside = plots.join("t.csv");
        let e = message(&[
            Output::file("--trace", &inside),
            Output::folder("--plot", &plots, &n),
        ]);
        assert!(e.contains("which does not exist yet"), "{e}");
        // Once the folder exists, a file beside its charts is fine.
        std::fs::create_dir(&plots).unwrap();
        check(&[
            Output::file("--trace", &inside),
            Output::folder("--plot", &plots, &n),
        ])
        .unwrap();
        assert_eq!(std::fs::read_dir(top.path()).unwrap().count(), 1);
    }

    #[test]
    fn folders_in_the_way_are_found() {
        let top = tempfile::tempdir().unwrap();
        let n = names();
        let plots = top.path().join("plots");
        std::fs::create_dir_all(plots.join("chart.svg")).unwrap();
        let e = message(&[Output::folder("--plot", &plots, &n)]);
        assert!(
            e.contains("chart.svg") && e.contains("a folder is in the way"),
            "{e}"
        );
        let e = message(&[Output::file("--db", &plots)]);
        assert!(e.contains("a folder is in the way"), "{e}");
    }
}
