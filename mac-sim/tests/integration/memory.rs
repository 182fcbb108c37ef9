//! Memory known before work: every command that runs a model estimates what its runs
//! will hold and refuses, before any work, what would not fit (exit 2, the estimate
//! in its one line); the estimates hold against the peaks measured.

use std::path::Path;
use std::process::Command;

use crate::common::{assert_args_fail, mac_sim, stderr};

/// What the binary estimates for `args`: the size in its refusal under a limit of
/// 1 KiB, in MiB.
fn estimate_mib(args: &[&str]) -> f64 {
    let mut all = args.to_vec();
    all.extend(["--max-memory", "1k"]);
    let o = mac_sim(&all);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    let about = err
        .split("needs about ")
        .nth(1)
        .unwrap_or_else(|| panic!("{args:?}: {err}"));
    let mut words = about.split_whitespace();
    let number: f64 = words.next().unwrap().parse().unwrap();
    let unit = words.next().unwrap();
    number
        * match unit {
            "B" => 1.0 / 1048576.0,
            "KiB" => 1.0 / 1024.0,
            "MiB" => 1.0,
            "GiB" => 1024.0,
            "TiB" => 1048576.0,
            u => panic!("unit {u}"),
        }
}

/// The environment variable that turns [`measure_one_child`] into the measuring
/// process: the arguments of the binary, one per line.
const MEASURE: &str = "MAC_SIM_MEASURE_PEAK";

/// The peak resident memory of one run of the binary with `args`, in MiB: measured
/// by a fresh process of this test binary that runs it as its only child and reads
/// its own children's peak (`getrusage`), so that no other test's children count.
fn peak_mib(args: &[&str]) -> f64 {
    let o = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "memory::measure_one_child", "--nocapture"])
        .env(MEASURE, args.join("\n"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let kib: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("peak-kib "))
        .unwrap_or_else(|| panic!("{args:?}: {out} {}", String::from_utf8_lossy(&o.stderr)))
        .parse()
        .unwrap();
    kib / 1024.0
}

/// Not a test of its own: the measuring process of [`peak_mib`] (without its
/// variable it does nothing).
#[test]
fn measure_one_child() {
    let Ok(args) = std::env::var(MEASURE) else {
        return;
    };
    let status = Command::new(env!("CARGO_BIN_EXE_mac-sim"))
        .args(args.lines())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{args}: {status}");
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    // Linux gives the peak resident set in KiB.
    println!("peak-kib {}", usage.max_rss());
}

/// The estimate is an upper bound of the peak each command reaches, and not far
/// above it where the model's own structures dominate: the peak resident memory
/// measured is at most the estimate, and the estimate at most `FACTOR` times the
/// peak. The factor is loose because each part is a bound (a list that holds at most
/// one entry per station counts a doubled capacity; the storm's server queue is
/// sized for a server that never drains, which only one of the strategies of a
/// comparison does), and the program's own 16 MiB are counted whole.
#[test]
fn estimates_bound_the_peaks_measured() {
    const FACTOR: f64 = 5.0;
    let cases: [&[&str]; 7] = [
        &["run", "-n", "100000", "-d", "10ms", "-q"],
        &[
            "run",
            "-n",
            "20000",
            "-l",
            "0.9",
            "-d",
            "200ms",
            "-q",
            "--per-station",
        ],
        &[
            "sweep",
            "-n",
            "20000,40000",
            "-r",
            "1",
            "-d",
            "5ms",
            "-q",
            "--no-plots",
            "-o",
        ],
        &["storm", "--scenario", "pause", "-d", "1000s", "-q"],
        &["storm", "--scenario", "outage-open", "-d", "2000s", "-q"],
        &["radio", "-n", "254", "-d", "20s"],
        &["radio", "--sweep", "stations=100,200", "-d", "10s", "-q"],
    ];
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("sweep");
    for case in cases {
        let mut args = case.to_vec();
        if args.last() == Some(&"-o") {
            args.push(out.to_str().unwrap());
        }
        let estimate = estimate_mib(&args);
        let peak = peak_mib(&args);
        eprintln!(
            "{args:?}: peak {peak:.1} MiB, estimate {estimate:.1} MiB, ratio {:.2}",
            estimate / peak
        );
        assert!(
            peak <= estimate && estimate <= FACTOR * peak,
            "{args:?}: peak {peak:.1} MiB, estimate {estimate:.1} MiB"
        );
    }
}

/// The sweep that used to abort after 19 s of work with "memory allocation of
/// 6442450944 bytes failed" under a 4 GB limit is refused at once with its
/// estimate: under `ulimit -v` and under `--max-memory`, with nothing written.
#[test]
fn a_sweep_that_cannot_fit_is_refused_before_work() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("big");
    let sweep = format!(
        "{} sweep -n 1..=4194304:x2 -r 1000 -d 1000000s -q -o {}",
        env!("CARGO_BIN_EXE_mac-sim"),
        out.display()
    );
    let o = Command::new("sh")
        .args(["-c", &format!("ulimit -v 4000000 && exec {sweep}")])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("mac-sim: error: the sweep needs about ")
            && err.contains("GiB (event queue"),
        "{err}"
    );
    assert!(err.contains("ulimit -v"), "{err}");
    assert!(!out.exists());
    let args: Vec<&str> = sweep.split(' ').skip(1).collect();
    let mut given = args.clone();
    given.extend(["--max-memory", "4G"]);
    assert_args_fail(&given, "more than the 4.0 GiB of the --max-memory given");
    assert!(!out.exists());
    // One station more is refused by the model, not the estimate.
    assert_args_fail(
        &["run", "-n", "4194305", "--max-memory", "none"],
        "stations",
    );
}

/// Every command that runs a model takes `--max-memory`, and refuses a bad size in
/// one line; `none` turns the check off.
#[test]
fn every_model_command_checks_and_bad_sizes_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    let o = out.to_str().unwrap();
    for args in [
        &["run", "-d", "1ms", "--plot", o][..],
        &["sweep", "-n", "2,3", "-d", "1ms", "-o", o],
        &["storm", "--scenario", "pause", "--out", o],
        &[
            "storm",
            "--scenario",
            "pause",
            "--sweep",
            "server.workers=20,40",
            "--out",
            o,
        ],
        &["radio", "-d", "1s", "--output", o],
        &[
            "radio",
            "--sweep",
            "stations=2,3",
            "-d",
            "1s",
            "--output",
            o,
        ],
    ] {
        let mut a = args.to_vec();
        a.extend(["--max-memory", "1M"]);
        assert_args_fail(&a, "more than the 1.0 MiB of the --max-memory given");
        assert!(!Path::new(o).exists(), "{args:?}");
    }
    for bad in ["", "4X", "-1", "1.5G", "4 GB", "99999999999999999999"] {
        assert_args_fail(&["run", &format!("--max-memory={bad}")], "is not a size");
    }
    let ok = mac_sim(&["run", "-d", "1ms", "--max-memory", "none"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    let ok = mac_sim(&["run", "-d", "1ms", "--max-memory", "1G"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
}
