//! `mac-sim run --pcap`: the capture holds one packet per delivered frame and per
//! collided attempt, read back by an independent parser (`pcap-parser`) and by
//! `tshark` when it is installed; a path that cannot be written fails before the run.

use std::io::Write as _;
use std::path::Path;
use std::process::Command;

use crate::common::{assert_args_fail, mac_sim, stderr, stdout};
use pcap_parser::pcapng::Block;
use pcap_parser::traits::PcapNGPacketBlock;
use pcap_parser::{PcapCapture, PcapNGCapture};

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Run `mac-sim run ARGS --json` and return its result.
fn run_json(args: &[&str]) -> serde_json::Value {
    let o = mac_sim(&[&["run", "--json", "-q"], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn count(r: &serde_json::Value, key: &str) -> u64 {
    match key {
        "delivered" => r["conservation"]["delivered_frames"].as_u64().unwrap(),
        k => r[k].as_u64().unwrap(),
    }
}

#[test]
fn pcapng_and_pcap_read_back_match_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let ng = dir.path().join("bus.pcapng");
    let legacy = dir.path().join("bus.pcap");
    let trace = dir.path().join("t.csv");
    let args = [
        "-n",
        "6",
        "--load",
        "0.9",
        "-d",
        "100ms",
        "-f",
        "64:1,1518:1",
    ];
    let r = run_json(&[&args[..], &["--pcap", ng.to_str().unwrap()]].concat());
    // Both files at once, and the same run gives the same packets in classic pcap.
    let r2 = run_json(
        &[
            &args[..],
            &["--pcap", legacy.to_str().unwrap()],
            &["--trace", trace.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(r, r2);
    let (delivered, collided) = (count(&r, "delivered"), count(&r, "collided_attempts"));
    assert!(delivered > 50 && collided > 5, "{delivered} {collided}");

    let bytes = std::fs::read(&ng).unwrap();
    let cap = PcapNGCapture::from_file(&bytes).expect("pcap-parser reads the pcapng");
    let mut packets = Vec::new();
    for b in &cap.sections[0].blocks {
        match b {
            Block::InterfaceDescription(idb) => {
                assert_eq!((idb.linktype.0, idb.if_tsresol), (1, 9));
            }
            Block::EnhancedPacket(epb) => {
                let (s, ns) = epb.decode_ts(0, 1_000_000_000);
                let comment = epb.options.iter().any(|o| o.code.0 == 1);
                packets.push((
                    u64::from(s) * 1_000_000_000 + u64::from(ns),
                    epb.packet_data(),
                    comment,
                ));
            }
            _ => {}
        }
    }
    assert_eq!(packets.len() as u64, delivered + collided);
    assert!(packets.windows(2).all(|w| w[0].0 <= w[1].0), "time order");
    let frames: Vec<&[u8]> = packets.iter().filter(|p| !p.2).map(|p| p.1).collect();
    assert_eq!(frames.len() as u64, delivered);
    for f in &frames {
        assert!(f.len() == 64 || f.len() == 1518, "{}", f.len());
        let (body, fcs) = f.split_at(f.len() - 4);
        assert_eq!(crc32fast::hash(body).to_le_bytes(), fcs, "FCS");
        // Source 02:00:00:00:00:0k for station k < 6, EtherType 0x88b5.
        assert_eq!(&f[6..11], &[2, 0, 0, 0, 0]);
        assert!(f[11] < 6);
        assert_eq!(&f[12..14], &[0x88, 0xb5]);
    }
    // The delivered bits of the run are those of the frames.
    let bits: u64 = frames.iter().map(|f| f.len() as u64 * 8).sum();
    assert_eq!(bits, r["delivered_bits"].as_u64().unwrap());

    let bytes = std::fs::read(&legacy).unwrap();
    let cap = PcapCapture::from_file(&bytes).expect("pcap-parser reads the pcap");
    assert!(cap.header.is_nanosecond_precision());
    assert_eq!(cap.blocks.len(), packets.len());
    for (a, b) in cap.blocks.iter().zip(&packets) {
        assert_eq!(
            u64::from(a.ts_sec) * 1_000_000_000 + u64::from(a.ts_usec),
            b.0
        );
        assert_eq!(a.data, b.1);
    }
    // The trace written alongside counts the same successes.
    let text = std::fs::read_to_string(&trace).unwrap();
    let successes = text.lines().filter(|l| l.contains(",success,")).count();
    assert_eq!(successes as u64, delivered);
    assert_eq!(files_in(dir.path()), ["bus.pcap", "bus.pcapng", "t.csv"]);
}

/// Whether `tshark` is installed; if not, says so, and fails when
/// `MAC_SIM_REQUIRE_TSHARK` is set (by `test.sh`, which installs it).
fn have_tshark() -> bool {
    if Command::new("tshark").arg("--version").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os("MAC_SIM_REQUIRE_TSHARK").is_none(),
        "tshark not installed, and MAC_SIM_REQUIRE_TSHARK is set"
    );
    // Straight to the terminal: the test harness does not hide it.
    let _ = writeln!(
        std::io::stderr(),
        "tshark not installed: skipped (Debian package tshark)"
    );
    false
}

/// `tshark`'s output for `args`, or `None` when it is not installed.
fn tshark(args: &[&str]) -> Option<String> {
    let o = Command::new("tshark").args(args).output().ok()?;
    assert!(
        o.status.success(),
        "tshark {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    Some(String::from_utf8(o.stdout).unwrap())
}

/// The frame counts of the rows of a `-z io,stat,INTERVAL` table.
fn io_stat_frames(table: &str) -> Vec<u64> {
    table
        .lines()
        .filter(|l| l.contains(" <> "))
        .map(|l| l.split('|').nth(2).unwrap().trim().parse().unwrap())
        .collect()
}

/// The default run's capture opens in `tshark`: as many packets as the run delivered
/// and collided, every delivered frame's FCS good, every fragment commented, and
/// the I/O graph's intervals all busy (the default run is saturated).
///
/// Without `tshark` the test says so and checks nothing more; with
/// `MAC_SIM_REQUIRE_TSHARK=1` (set by `test.sh`, which installs it) a missing
/// `tshark` fails it.
#[test]
fn tshark_reads_the_default_run() {
    if !have_tshark() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("default.pcapng");
    let file = path.to_str().unwrap();
    let r = run_json(&["--pcap", file]);
    let (delivered, collided) = (count(&r, "delivered"), count(&r, "collided_attempts"));
    let total = io_stat_frames(&tshark(&["-r", file, "-q", "-z", "io,stat,0"]).unwrap());
    assert_eq!(total, [delivered + collided]);
    // One row per second of the 10 s run, none idle.
    let per_second = io_stat_frames(&tshark(&["-r", file, "-q", "-z", "io,stat,1"]).unwrap());
    assert_eq!(per_second.len(), 10, "{per_second:?}");
    assert!(per_second.iter().all(|&n| n > 1000), "{per_second:?}");
    let fields = tshark(&[
        "-r",
        file,
        "-o",
        "eth.check_fcs:TRUE",
        "-T",
        "fields",
        "-e",
        "eth.fcs.status",
        "-e",
        "frame.comment",
    ])
    .unwrap();
    let (mut good, mut comments) = (0, 0);
    for l in fields.lines() {
        let (status, comment) = l.split_once('\t').unwrap();
        if comment.starts_with("collision: from=") {
            comments += 1;
        } else {
            assert_eq!((status, comment), ("1", ""), "a frame with a good FCS");
            good += 1;
        }
    }
    assert_eq!((good, comments), (delivered, collided));
    // Every packet on a station's interface, none left without its sender.
    let unnamed = tshark(&[
        "-r",
        file,
        "-Y",
        r#"not frame.interface_name matches "^station [0-9]+$""#,
    ])
    .unwrap();
    assert_eq!(unnamed, "");
}

/// One attempt of a station, from the trace: when it started and ended, whether
/// it collided.
struct Attempt {
    start: u64,
    end: u64,
    collided: bool,
}

/// The attempts that ended, by station, from a trace CSV (times in picoseconds), and
/// those still under way at the end (start only).
fn attempts_from_trace(csv: &str, stations: usize) -> (Vec<Vec<Attempt>>, Vec<Option<u64>>) {
    let mut done: Vec<Vec<Attempt>> = (0..stations).map(|_| Vec::new()).collect();
    let mut open = vec![None; stations];
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (t, k): (u64, usize) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        match f[2] {
            "transmit" => open[k] = Some(t),
            "jam_end" | "success" => done[k].push(Attempt {
                start: open[k].take().unwrap(),
                end: t,
                collided: f[2] == "jam_end",
            }),
            _ => {}
        }
    }
    (done, open)
}

/// The display filters mac-sim/README.md documents select exactly the packets they
/// should: one station's (by interface), one station's collisions (by comment or
/// interface), and the collisions of station X with station Y, whose expected
/// counts come from the trace of the same run and the stations' positions.
#[test]
fn display_filters_select_stations_and_colliders() {
    if !have_tshark() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cap = dir.path().join("bus.pcapng");
    let trace = dir.path().join("t.csv");
    let (file, n) = (cap.to_str().unwrap(), 12);
    let r = run_json(&[
        "-n",
        "12",
        "--load",
        "0.9",
        "-d",
        "50ms",
        "-f",
        "64:1,1518:1",
        "--pcap",
        file,
        "--trace",
        trace.to_str().unwrap(),
    ]);
    let (done, open) = attempts_from_trace(&std::fs::read_to_string(&trace).unwrap(), n);
    // The default cable: 12.5 µs end to end, stations evenly placed along it.
    let pos = |k: usize| k as u64 * 12_500_000 / (n as u64 - 1);
    let meets = |a: usize, sa: u64, ea: u64, b: usize, sb: u64, eb: u64| {
        let d = pos(a).abs_diff(pos(b));
        sa <= eb + d && sb <= ea + d
    };
    // Expected: for each station, its packets in order, as `None` (a delivered frame)
    // or the sorted stations met (a collision).
    let expected: Vec<Vec<Option<Vec<usize>>>> = (0..n)
        .map(|a| {
            done[a]
                .iter()
                .map(|x| {
                    x.collided.then(|| {
                        (0..n)
                            .filter(|&b| b != a)
                            .filter(|&b| {
                                done[b]
                                    .iter()
                                    .any(|y| meets(a, x.start, x.end, b, y.start, y.end))
                                    || open[b].is_some_and(|sb| {
                                        meets(a, x.start, x.end, b, sb, u64::MAX / 2)
                                    })
                            })
                            .collect()
                    })
                })
                .collect()
        })
        .collect();
    let total: usize = expected.iter().map(Vec::len).sum();
    assert_eq!(
        total as u64,
        count(&r, "delivered") + count(&r, "collided_attempts")
    );

    // Every packet: on its sender's interface, named after it, with the comment its
    // attempt calls for.
    let fields = tshark(&[
        "-r",
        file,
        "-T",
        "fields",
        "-e",
        "frame.interface_id",
        "-e",
        "frame.interface_name",
        "-e",
        "frame.interface_description",
        "-e",
        "frame.comment",
    ])
    .unwrap();
    let mut seen: Vec<Vec<Option<Vec<usize>>>> = (0..n).map(|_| Vec::new()).collect();
    for l in fields.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        let k: usize = f[0].parse().unwrap();
        assert_eq!(f[1], format!("station {k}"));
        assert_eq!(f[2], format!("address 02:00:00:00:00:{k:02x}"));
        seen[k].push((!f[3].is_empty()).then(|| {
            let prefix = format!("collision: from={k}; attempt=");
            assert!(f[3].starts_with(&prefix), "{}", f[3]);
            f[3].split(' ')
                .filter_map(|t| t.strip_prefix("with="))
                .map(|t| t.trim_end_matches(';').parse().unwrap())
                .collect()
        }));
    }
    assert_eq!(seen, expected);

    // The documented filters, counted by tshark.
    let rows = |filter: &str| tshark(&["-r", file, "-Y", filter]).unwrap().lines().count();
    let collisions = |k: usize| expected[k].iter().filter(|p| p.is_some()).count();
    let (x, y) = (1, 2);
    assert!(collisions(x) > 0 && collisions(10) > 0 && collisions(11) > 0);
    assert_eq!(rows("frame.interface_id == 1"), expected[x].len());
    assert_eq!(
        rows(r#"frame.interface_name == "station 1""#),
        expected[x].len()
    );
    assert_eq!(rows(r#"frame.comment contains "from=1;""#), collisions(x));
    assert_eq!(
        rows("frame.interface_id == 1 && frame.packet_flags_crc_error == 1"),
        collisions(x)
    );
    let with_y = expected[x]
        .iter()
        .flatten()
        .filter(|w| w.contains(&y))
        .count();
    assert!(with_y > 0);
    assert_eq!(
        rows(r#"frame.comment contains "from=1;" && frame.comment contains "with=2;""#),
        with_y
    );
    // Every collision of station 1, whoever collided first.
    let involving: usize = (0..n)
        .map(|a| {
            expected[a]
                .iter()
                .flatten()
                .filter(|w| a == x || w.contains(&x))
                .count()
        })
        .sum();
    assert_eq!(
        rows(r#"frame.comment contains "from=1;" || frame.comment contains "with=1;""#),
        involving
    );
}

#[test]
fn unwritable_pcap_paths_fail_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = |s: &str| dir.path().join(s).to_string_lossy().into_owned();
    // A long run: it must not start.
    let base = ["run", "-d", "1000s", "--pcap"];
    assert_args_fail(
        &[&base[..], &[&p("no/such/dir/x.pcapng")]].concat(),
        "x.pcapng",
    );
    assert_args_fail(&[&base[..], &[&p("x.cap")]].concat(), ".pcapng or .pcap");
    assert_args_fail(&[&base[..], &[&p("x")]].concat(), ".pcapng or .pcap");
    let d = p("adir.pcap");
    std::fs::create_dir(&d).unwrap();
    assert_args_fail(&[&base[..], &[&d]].concat(), "a folder is in the way");
    // With a good trace path beside a bad capture path, neither file is left.
    let t = p("t.csv");
    assert_args_fail(
        &[&base[..], &[&p("x.txt"), "--trace", &t]].concat(),
        "x.txt",
    );
    // A bad configuration leaves no capture file behind either.
    assert_args_fail(&["run", "-n", "0", "--pcap", &p("x.pcapng")], "");
    assert_eq!(files_in(dir.path()), ["adir.pcap"]);
}
