//! Runs `qemu-app` on QEMU's mps2-an386 with its UART on a local socket and plays the
//! bus from here: echoes bytes, injects collisions, sends frames as other stations.
//! Then decodes the firmware's defmt log and checks it against what the wire showed.
//!
//! Needs `QEMU_APP_ELF` (the firmware) and `DEFMT_PRINT` (the decoder); `QEMU`
//! overrides the emulator (default `qemu-system-arm`). `firmware/run-tests.sh` builds
//! and sets everything. Binds only 127.0.0.1; every wait has a deadline; QEMU is
//! killed when the test ends, whatever happens.

use std::collections::BTreeMap;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serial_mac::frame::{START, header_crc};
use serial_mac::{Address, Frame};

const STATION: Address = Address(1);
const PEER: Address = Address(2);
const THIRD: Address = Address(3);
const JAM_LEN: usize = 2;
const JAM_BYTE: u8 = 0x00;
/// The byte of an attempt whose echo the test corrupts.
const COLLIDE_AT: usize = 5;
/// Longest wait for one byte: a backoff is at most 1023 slots (0.71 s) plus an
/// interframe gap; the rest is margin for a loaded machine.
const BYTE_TIMEOUT: Duration = Duration::from_secs(15);
/// Pause after each frame the test sends: longer than the firmware's receive
/// timeout (300 ms), so that a truncated frame is over before the next one starts.
const PAUSE: Duration = Duration::from_millis(450);

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!(
            "{name} is not set: run firmware/run-tests.sh, which builds the firmware and sets it"
        )
    })
}

fn encode(dst: Address, src: Address, payload: &[u8]) -> Vec<u8> {
    let frame = Frame::<255>::new(dst, src, payload).unwrap();
    let mut buf = vec![0; frame.wire_len()];
    frame.emit(&mut buf).unwrap();
    buf
}

/// Kills QEMU when dropped, so that no failure leaves it running.
struct Qemu(Child);

impl Drop for Qemu {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One transmission attempt as seen on the wire.
#[derive(Debug)]
struct Attempt {
    start: Instant,
    bytes: Vec<u8>,
    /// When the last jam byte was echoed, if the attempt collided.
    jam_end: Option<Instant>,
}

struct Bus {
    stream: TcpStream,
}

impl Bus {
    fn read_byte(&mut self, timeout: Duration) -> Result<Option<u8>, String> {
        let deadline = Instant::now() + timeout;
        let mut b = [0u8];
        loop {
            match self.stream.read(&mut b) {
                Ok(1) => return Ok(Some(b[0])),
                Ok(_) => return Err("the firmware closed the line (QEMU exited)".into()),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    if Instant::now() >= deadline {
                        return Ok(None);
                    }
                }
                Err(e) => return Err(format!("socket: {e}")),
            }
        }
    }

    fn expect_byte(&mut self, what: &str) -> Result<u8, String> {
        self.read_byte(BYTE_TIMEOUT)?
            .ok_or_else(|| format!("no byte from the firmware for {BYTE_TIMEOUT:?} ({what})"))
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.stream
            .write_all(bytes)
            .and_then(|()| self.stream.flush())
            .map_err(|e| format!("write to QEMU: {e}"))
    }

    /// Play the line for one frame: echo every byte, except that the first
    /// `collisions` attempts get a corrupted echo at byte `COLLIDE_AT`, after which
    /// the jam is expected and echoed. Stops when an attempt is echoed in full or
    /// after 16 attempts.
    fn serve_frame(&mut self, collisions: usize) -> Result<Vec<Attempt>, String> {
        let mut attempts = Vec::new();
        while attempts.len() < 16 {
            let b = self.expect_byte("start of an attempt")?;
            let start = Instant::now();
            if b != START {
                return Err(format!(
                    "attempt {} began with {b:#04x}, not the start delimiter",
                    attempts.len() + 1
                ));
            }
            let collide = attempts.len() < collisions;
            let mut bytes = vec![b];
            self.send(&[b])?;
            let mut len = usize::MAX;
            loop {
                let b = self.expect_byte("frame byte")?;
                let p = bytes.len();
                bytes.push(b);
                if collide && p == COLLIDE_AT {
                    self.send(&[b ^ 0xFF])?;
                    for _ in 0..JAM_LEN {
                        let j = self.expect_byte("jam")?;
                        if j != JAM_BYTE {
                            return Err(format!(
                                "{j:#04x} instead of a jam byte after collision {}",
                                attempts.len() + 1
                            ));
                        }
                        self.send(&[j])?;
                    }
                    attempts.push(Attempt {
                        start,
                        bytes,
                        jam_end: Some(Instant::now()),
                    });
                    break;
                }
                self.send(&[b])?;
                if p == 3 {
                    len = usize::from(b) + serial_mac::frame::OVERHEAD;
                }
                if bytes.len() == len {
                    attempts.push(Attempt {
                        start,
                        bytes,
                        jam_end: None,
                    });
                    return Ok(attempts);
                }
            }
        }
        Ok(attempts)
    }
}

/// The decoded log, one `LEVEL message` per line.
fn decode(defmt_print: &str, elf: &str, raw: &[u8]) -> Vec<String> {
    let mut child = Command::new(defmt_print)
        .args(["-e", elf, "--log-format", "{L} {s}"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {defmt_print}: {e}"));
    child.stdin.take().unwrap().write_all(raw).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "defmt-print failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// `key=value` pairs of the first log line starting with `prefix`, in order.
fn fields(line: &str) -> BTreeMap<String, String> {
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn lines_with<'a>(log: &'a [String], prefix: &str) -> Vec<&'a String> {
    log.iter().filter(|l| l.starts_with(prefix)).collect()
}

type Served = (Vec<Attempt>, Vec<Attempt>, Vec<Attempt>, Vec<Attempt>);

/// The script: three frames from the firmware (clean, 3 collisions, collisions
/// until dropped), then frames as other stations, good and bad, a ping answered by
/// a pong, and `bye`.
fn play(bus: &mut Bus) -> Result<Served, String> {
    let f1 = bus.serve_frame(0)?;
    let f2 = bus.serve_frame(3)?;
    let f3 = bus.serve_frame(usize::MAX)?;
    // After the 16th collision the frame is dropped: no 17th attempt.
    if let Some(b) = bus.read_byte(Duration::from_millis(500))? {
        return Err(format!("a byte ({b:#04x}) after the 16th attempt"));
    }

    let send_frame = |bus: &mut Bus, bytes: &[u8]| -> Result<(), String> {
        bus.send(bytes)?;
        thread::sleep(PAUSE);
        Ok(())
    };
    send_frame(bus, &encode(STATION, PEER, b"hello"))?;
    send_frame(bus, &encode(Address::BROADCAST, THIRD, b"to all"))?;
    send_frame(bus, &encode(Address(5), PEER, b"not yours"))?;
    let mut bad_crc = encode(STATION, PEER, b"bad crc");
    *bad_crc.last_mut().unwrap() ^= 1;
    send_frame(bus, &bad_crc)?;
    send_frame(bus, &encode(STATION, PEER, b"cut short")[..7])?;
    // A header that checks out, with a length above the firmware's capacity.
    let mut oversized = vec![START, STATION.0, PEER.0, 200];
    oversized.extend(header_crc(STATION.0, PEER.0, 200).to_be_bytes());
    oversized.extend([0x55; 202]);
    send_frame(bus, &oversized)?;
    let mut garbage = vec![0x13, 0x37, 0x00];
    garbage.extend(encode(STATION, PEER, b"after garbage"));
    send_frame(bus, &garbage)?;
    // The pong follows the ping after an interframe gap: serve it at once.
    bus.send(&encode(STATION, PEER, b"ping"))?;
    let pong = bus.serve_frame(0)?;
    thread::sleep(PAUSE);
    send_frame(bus, &encode(STATION, PEER, b"bye"))?;
    Ok((f1, f2, f3, pong))
}

#[test]
fn the_mac_runs_on_a_cortex_m4_under_qemu() {
    let elf = env("QEMU_APP_ELF");
    let defmt_print = env("DEFMT_PRINT");
    let qemu_bin = std::env::var("QEMU").unwrap_or_else(|_| "qemu-system-arm".into());

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut qemu = Qemu(
        Command::new(&qemu_bin)
            .args([
                "-cpu",
                "cortex-m4",
                "-machine",
                "mps2-an386",
                "-nographic",
                "-monitor",
                "none",
            ])
            .args(["-semihosting-config", "enable=on,target=native"])
            .args(["-serial", &format!("tcp:127.0.0.1:{port}")])
            .args(["-kernel", &elf])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {qemu_bin}: {e}")),
    );
    let mut stdout = qemu.0.stdout.take().unwrap();
    let log_reader = thread::spawn(move || {
        let mut raw = Vec::new();
        let _ = stdout.read_to_end(&mut raw);
        raw
    });
    let mut stderr = qemu.0.stderr.take().unwrap();
    let err_reader = thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });

    // QEMU connects to us.
    listener.set_nonblocking(true).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let stream = loop {
        match listener.accept() {
            Ok((s, _)) => break s,
            Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                if let Some(status) = qemu.0.try_wait().unwrap() {
                    panic!(
                        "QEMU exited ({status}) before connecting: {}",
                        err_reader.join().unwrap()
                    );
                }
                thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("QEMU did not connect to 127.0.0.1:{port}: {e}"),
        }
    };
    stream.set_nonblocking(false).unwrap();
    stream.set_nodelay(true).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let mut bus = Bus { stream };

    // Play the bus; on any failure, stop QEMU and show its log with the error.
    let played = play(&mut bus);
    let status = match &played {
        Ok(_) => {
            // The firmware exits by itself.
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                if let Some(status) = qemu.0.try_wait().unwrap() {
                    break Some(status);
                }
                if Instant::now() >= deadline {
                    break None;
                }
                thread::sleep(Duration::from_millis(20));
            }
        }
        Err(_) => None,
    };
    let _ = qemu.0.kill();
    let _ = qemu.0.wait();
    drop(bus);
    let raw = log_reader.join().unwrap();
    let qemu_err = err_reader.join().unwrap();
    let log = decode(&defmt_print, &elf, &raw);
    let shown = log.join("\n");
    println!("--- firmware log ---\n{shown}\n--- end ---");
    let (f1, f2, f3, pong) = match played {
        Ok(frames) => frames,
        Err(e) => panic!("{e}\nQEMU stderr: {qemu_err}\nfirmware log:\n{shown}"),
    };
    let Some(status) = status else {
        panic!("the firmware did not exit within 30 s; log:\n{shown}")
    };
    assert!(
        status.success(),
        "QEMU exit status {status}; stderr: {qemu_err}\nlog:\n{shown}"
    );
    assert!(
        log.iter().any(|l| l == "INFO  done"),
        "no 'done' in the log:\n{shown}"
    );

    // The wire: frames exactly as encoded; the retried frame identical each time.
    let expected = [
        encode(PEER, STATION, b"frame one"),
        encode(PEER, STATION, b"frame two"),
        encode(PEER, STATION, b"frame three"),
    ];
    assert_eq!(f1.len(), 1);
    assert_eq!(f1[0].bytes, expected[0]);
    assert_eq!(f2.len(), 4);
    for a in &f2[..3] {
        assert_eq!(a.bytes, expected[1][..=COLLIDE_AT]);
    }
    assert_eq!(f2[3].bytes, expected[1]);
    assert_eq!(f3.len(), 16);
    for a in &f3 {
        assert_eq!(a.bytes, expected[2][..=COLLIDE_AT]);
    }
    assert_eq!(pong.len(), 1);
    assert_eq!(pong[0].bytes, encode(PEER, STATION, b"pong"));

    // The log: outcomes.
    let boot = fields(lines_with(&log, "INFO  boot").first().expect("boot line"));
    let slot_ns: u64 =
        boot["byte_ns"].parse::<u64>().unwrap() * boot["slot"].parse::<u64>().unwrap();
    for want in [
        "INFO  tx delivered frame=1 attempts=1",
        "INFO  tx delivered frame=2 attempts=4",
        "WARN  tx dropped frame=3 reason=ExcessiveCollisions",
        "INFO  tx delivered frame=4 attempts=1",
    ] {
        assert!(
            log.iter().any(|l| l == want),
            "missing '{want}' in:\n{shown}"
        );
    }

    // Collisions, and backoffs in range and really waited on the wire.
    for (n, attempts, collisions) in [(2u32, &f2, 3usize), (3, &f3, 16)] {
        let c = lines_with(&log, &format!("INFO  tx collision frame={n} "));
        assert_eq!(c.len(), collisions, "collision lines of frame {n}");
        for (i, line) in c.iter().enumerate() {
            let f = fields(line);
            assert_eq!(f["attempt"], (i + 1).to_string());
            assert_eq!(f["byte"], COLLIDE_AT.to_string());
        }
        let b = lines_with(&log, &format!("INFO  tx backoff frame={n} "));
        assert_eq!(b.len(), collisions.min(15), "backoff lines of frame {n}");
        for line in b {
            let f = fields(line);
            let attempt: u32 = f["attempt"].parse().unwrap();
            let slots: u64 = f["slots"].parse().unwrap();
            assert!(
                slots < 1 << attempt.min(10),
                "frame {n} attempt {attempt}: {slots} slots out of range"
            );
            // QEMU's clock does not run ahead of the host's, so the wire shows at
            // least the backoff the firmware drew.
            let i = attempt as usize;
            let gap = attempts[i].start - attempts[i - 1].jam_end.unwrap();
            assert!(
                gap >= Duration::from_nanos(slots * slot_ns),
                "frame {n}: attempt {} came {gap:?} after the jam, before {slots} slots",
                i + 1
            );
        }
    }

    // Receiving: good frames delivered, bad ones counted.
    for want in [
        r#"INFO  rx frame src=2 dst=1 payload=b"hello""#,
        r#"INFO  rx frame src=3 dst=255 payload=b"to all""#,
        r#"INFO  rx frame src=2 dst=1 payload=b"after garbage""#,
        r#"INFO  rx frame src=2 dst=1 payload=b"ping""#,
        r#"INFO  rx frame src=2 dst=1 payload=b"bye""#,
        "WARN  rx discarded BadCrc",
        "WARN  rx discarded Truncated",
        "WARN  rx discarded Oversized",
    ] {
        assert!(
            log.iter().any(|l| l == want),
            "missing '{want}' in:\n{shown}"
        );
    }
    assert!(
        !shown.contains("not yours"),
        "a frame for another station was delivered"
    );

    let counters_line = lines_with(&log, "INFO  counters")
        .first()
        .copied()
        .expect("counters line");
    // `Counters { tx_queued: 4, .., medium: BusCounters { collisions: 19, .. } }`: every
    // `name: number` pair, the nested ones included (`medium: BusCounters` is no count).
    let counters: BTreeMap<&str, u32> = counters_line
        .split(['{', '}', ','])
        .filter_map(|kv| kv.split_once(':'))
        .filter_map(|(k, v)| Some((k.trim(), v.trim().parse().ok()?)))
        .collect();
    let expect = [
        ("tx_queued", 4),
        ("tx_delivered", 3),
        ("tx_attempts", 1 + 4 + 16 + 1),
        ("collisions", 3 + 16),
        ("dropped_excessive_collisions", 1),
        ("dropped_line_busy", 0),
        ("dropped_no_echo", 0),
        ("dropped_io_error", 0),
        ("rx_frames", 5),
        ("rx_filtered", 1),
        ("rx_header_errors", 0),
        ("rx_crc_errors", 1),
        ("rx_truncated", 1),
        ("rx_oversized", 1),
        ("rx_malformed", 0),
        ("rx_line_errors", 0),
        ("rx_queue_overflows", 0),
        // Three garbage bytes, and the oversized frame's 202 bytes after its header.
        ("rx_noise_bytes", 3 + 202),
    ];
    for (name, value) in expect {
        assert_eq!(
            counters.get(name),
            Some(&value),
            "counter {name} in '{counters_line}'"
        );
    }
}
