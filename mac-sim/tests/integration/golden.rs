//! Golden outputs: a fixed list of commands whose standard output, exit status and
//! written files must stay byte for byte what they were when recorded.
//!
//! Each case in `tests/golden/cases.txt` is one line, `NAME: ARGS...`; `$OUT` in the
//! arguments is replaced by a fresh empty directory. For each case the file
//! `tests/golden/expected/NAME.txt` holds the exit status, the standard output in full,
//! the standard error (with the directory replaced by `$OUT`), and one line per written
//! file with its size and SHA-256 (charts included: PNG and SVG bytes are compared).
//!
//! To record them again from a given binary (for example a build of an earlier
//! version, to show that a change of structure kept every result):
//!
//! ```sh
//! GOLDEN_RECORD=1 GOLDEN_BIN=path/to/mac-sim cargo test -p mac-sim --test integration golden::
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::common::files_below;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The cases: (name, arguments), in file order.
fn cases() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(golden_dir().join("cases.txt")).expect("cases.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, args) = l.split_once(':').expect("NAME: ARGS");
            let args = args.split_whitespace().map(String::from).collect();
            (name.trim().to_string(), args)
        })
        .collect()
}

/// Run one case with `bin` and describe everything it produced.
fn observe(bin: &Path, args: &[String]) -> String {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let out_dir = tmp.path().join("out");
    let out_str = out_dir.to_string_lossy().into_owned();
    let args: Vec<String> = args.iter().map(|a| a.replace("$OUT", &out_str)).collect();
    let o = Command::new(bin)
        .args(&args)
        .output()
        .expect("the binary runs");
    let mut s = String::new();
    writeln!(s, "status: {:?}", o.status.code()).unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).replace(&out_str, "$OUT");
    writeln!(s, "--- stderr\n{stderr}").unwrap();
    if out_dir.exists() {
        writeln!(s, "--- files").unwrap();
        for (name, bytes) in files_below(&out_dir) {
            let digest = Sha256::digest(&bytes);
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(s, "{name} {} {hex}", bytes.len()).unwrap();
        }
    }
    writeln!(s, "--- stdout\n{}", String::from_utf8_lossy(&o.stdout)).unwrap();
    s
}

#[test]
fn every_golden_case_reproduces_its_recorded_output() {
    let record = std::env::var_os("GOLDEN_RECORD").is_some();
    let bin = std::env::var_os("GOLDEN_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_mac-sim")));
    let expected_dir = golden_dir().join("expected");
    if record {
        std::fs::create_dir_all(&expected_dir).expect("expected/ can be made");
    }
    let mut differ = Vec::new();
    let all = cases();
    assert!(all.len() >= 20, "the case list was cut short");
    for (name, args) in &all {
        let got = observe(&bin, args);
        let path = expected_dir.join(format!("{name}.txt"));
        if record {
            std::fs::write(&path, &got).expect("expected file written");
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (record with GOLDEN_RECORD=1)", path.display()));
        if got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .map_or(0, |i| i + 1);
            differ.push(format!("{name} (first difference at line {line})"));
        }
    }
    assert!(
        differ.is_empty(),
        "outputs differ from tests/golden/expected: {differ:?}"
    );
}
