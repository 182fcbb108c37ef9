//! An output that cannot be written while the work goes on (the disk full, a file
//! size limit) exits 1 with one line naming the path the user gave — never the hidden
//! staging or temporary path the output layer writes first, never a Rust debug value —
//! and leaves no temporary behind. A real write failure without root: the binary runs
//! under `ulimit -f` with SIGXFSZ ignored, so a write past the limit fails with EFBIG.
//! A device given as an output file (`/dev/full`) is refused before any work (2): a
//! file is written whole and renamed over its path, which would replace the device.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{assert_usage_error, mac_sim, stderr, tree};

/// The binary with `args`, its files limited to `blocks` blocks of the shell's
/// `ulimit -f` and SIGXFSZ ignored, in `dir`.
fn limited(dir: &Path, blocks: u32, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f {blocks} && trap '' XFSZ && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_mac-sim"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("sh runs")
}

/// Exit status 1 and one line naming `path`, with no staging or temporary name and
/// no debug text in it.
fn assert_write_failure(o: &Output, path: &str, what: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: not one line: {err}");
    assert!(err.starts_with("mac-sim: error: "), "{what}: {err}");
    assert!(
        err.contains(&format!("'{path}'")),
        "{what}: {err} lacks {path}"
    );
    for debug in [".partial-", "Os {", "kind:", "Custom {", "Error("] {
        assert!(!err.contains(debug), "{what}: {err} has {debug}");
    }
}

#[test]
fn a_limit_on_file_size_is_one_line_naming_the_users_path() {
    let d = tempfile::tempdir().unwrap();
    // The file size limit itself works here: a write past it fails at once.
    let probe = limited(
        d.path(),
        1,
        &["run", "-q", "-n", "4", "-d", "20ms", "--trace", "t.csv"],
    );
    assert_write_failure(&probe, "t.csv", "--trace");
    for (args, path) in [
        (
            vec!["run", "-q", "-n", "4", "-d", "20ms", "--trace", "t.jsonl"],
            "t.jsonl",
        ),
        (
            vec!["run", "-q", "-n", "4", "-d", "20ms", "--pcap", "c.pcapng"],
            "c.pcapng",
        ),
        (
            vec!["run", "-q", "-n", "2", "-d", "5ms", "--plot", "plots"],
            "plots/attempts_histogram.png",
        ),
        (
            vec!["sweep", "-q", "-n", "2,3", "-d", "5ms", "-o", "sweep"],
            "sweep/utilisation_vs_stations.png",
        ),
        (
            vec![
                "sweep",
                "-q",
                "-n",
                "2,3",
                "-d",
                "5ms",
                "--no-plots",
                "-o",
                "sweep",
            ],
            "sweep/results.json",
        ),
        (
            vec![
                "storm",
                "-q",
                "--scenario",
                "pause",
                "-d",
                "40s",
                "--out",
                "storm",
            ],
            "storm/storm-pause.json",
        ),
    ] {
        let o = limited(d.path(), 1, &args);
        assert_write_failure(&o, path, &args.join(" "));
        assert_eq!(tree(d.path()), Vec::<String>::new(), "{args:?} left files");
    }
    // Standard output redirected to a file: the message names that file.
    let out = std::fs::File::create(d.path().join("result.json")).unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 1 && trap '' XFSZ && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_mac-sim"))
        .args(["run", "-q", "-n", "2", "-d", "300ms", "--json"])
        .stdout(out)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("mac-sim: error: cannot write standard output ("),
        "{err}"
    );
    assert!(err.contains("result.json"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `/dev/full` (and a link to it) as an output file exits 2 before the run and is
/// left as it was; as standard output, the write fails (1) naming it.
#[test]
fn a_device_as_an_output_file_is_refused() {
    if !Path::new("/dev/full").exists() {
        return; // not Linux
    }
    let d = tempfile::tempdir().unwrap();
    let link = d.path().join("full.csv");
    std::os::unix::fs::symlink("/dev/full", &link).unwrap();
    let link = link.to_str().unwrap();
    for args in [
        vec!["run", "-q", "-d", "1ms", "--trace", "/dev/full"],
        vec!["run", "-q", "-d", "1ms", "--trace", link],
        vec!["run", "-q", "-d", "1ms", "--pcap", "/dev/full"],
    ] {
        let o = mac_sim(&args);
        let path = args.last().unwrap();
        assert_usage_error(&o, &format!("'{path}': it is a device, pipe or socket"));
    }
    let meta = std::fs::symlink_metadata(link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    for args in [
        vec!["run", "-q", "-d", "1ms", "--plot", "/dev/full"],
        vec!["storm", "-q", "--scenario", "pause", "--out", "/dev/full"],
    ] {
        assert_usage_error(&mac_sim(&args), "'/dev/full' exists and is not a directory");
    }
    let o = Command::new(env!("CARGO_BIN_EXE_mac-sim"))
        .args(["run", "-q", "-n", "2", "-d", "1ms", "--json"])
        .stdout(
            std::fs::File::options()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(
        err.trim_end(),
        "mac-sim: error: cannot write standard output ('/dev/full'): No space left on device (os error 28)"
    );
}
