//! Helpers shared by the end-to-end tests of the `mac-sim` binary.

use std::process::{Command, Output};

/// Run the binary with `args` and wait for it.
pub fn mac_sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mac-sim"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Standard output, which must be UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

/// Standard error, lossily decoded.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit status 2, nothing on stdout and exactly one line on stderr: an error naming
/// `needle`.
pub fn assert_usage_error(o: &Output, needle: &str) {
    check_usage_error("", o, needle);
}

/// Run the binary with `args` and [`assert_usage_error`] on the result, naming `args`
/// in any failure.
pub fn assert_args_fail(args: &[&str], needle: &str) {
    check_usage_error(&format!("{args:?}: "), &mac_sim(args), needle);
}

/// `what` (empty or ending in ": ") starts every failure message.
fn check_usage_error(what: &str, o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}stderr {err}");
    assert!(o.stdout.is_empty(), "{what}printed to stdout");
    assert_eq!(err.lines().count(), 1, "{what}not one line: {err}");
    assert!(err.starts_with("mac-sim: error: "), "{what}{err}");
    assert!(err.contains(needle), "{what}{err:?} lacks {needle:?}");
}

/// Every path under `dir`, relative to it, sorted.
pub fn tree(dir: &std::path::Path) -> Vec<String> {
    fn walk(base: &std::path::Path, dir: &std::path::Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(base).unwrap().display().to_string());
            if p.is_dir() {
                walk(base, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Every regular file below `dir`, as (relative path, bytes), sorted by path.
pub fn files_below(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable output directory") {
            let p = e.expect("directory entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("below dir");
                out.push((
                    rel.to_string_lossy().into_owned(),
                    std::fs::read(&p).expect("readable file"),
                ));
            }
        }
    }
    out.sort();
    out
}
