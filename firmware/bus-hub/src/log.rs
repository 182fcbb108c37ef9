//! Each node's defmt log: decoded with `defmt-print`, then parsed into events.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::error::{HubError, HubErrorKind};

/// One logged event of a node (`tick` is the hub's tick when it happened).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEvent {
    /// A frame handed to the MAC.
    Queued {
        /// Tick.
        tick: u32,
        /// Frame number.
        frame: u8,
        /// Destination address.
        dst: u8,
    },
    /// An attempt began (its start delimiter was written).
    Attempt {
        /// Tick.
        tick: u32,
        /// Frame number.
        frame: u8,
        /// Attempt number.
        attempt: u32,
    },
    /// A collision was detected on the read-back of byte `byte`.
    Collision {
        /// Tick.
        tick: u32,
        /// Frame number.
        frame: u8,
        /// Attempt number.
        attempt: u32,
        /// Byte index within the frame.
        byte: u32,
    },
    /// The jam is done; the MAC waits `slots` slots.
    Backoff {
        /// Tick.
        tick: u32,
        /// Frame number.
        frame: u8,
        /// Attempt that collided.
        attempt: u32,
        /// Slots drawn.
        slots: u32,
    },
    /// The frame was delivered.
    Delivered {
        /// Tick.
        tick: u32,
        /// Frame number.
        frame: u8,
        /// Attempts it took.
        attempts: u32,
    },
    /// The frame was dropped.
    Dropped {
        /// Tick.
        tick: u32,
        /// Frame number.
        frame: u8,
        /// `DropReason` as logged.
        reason: String,
        /// Attempts made.
        attempts: u32,
    },
    /// A frame for this node (or broadcast) was received.
    Received {
        /// Tick.
        tick: u32,
        /// Source address.
        src: u8,
        /// Destination address.
        dst: u8,
        /// The sender's frame number.
        seq: u8,
    },
    /// A received frame was discarded.
    Discarded {
        /// Tick.
        tick: u32,
        /// `RxErrorKind` as logged.
        kind: String,
    },
    /// The final counters, by name.
    Counters(BTreeMap<String, u64>),
    /// The node finished.
    Done,
}

/// Decode a raw defmt stream from `elf` with `defmt-print`; one `LEVEL message`
/// per line.
///
/// # Errors
///
/// [`HubErrorKind::Spawn`] if `defmt-print` cannot be run,
/// [`HubErrorKind::Decode`] if it fails.
pub fn decode(defmt_print: &str, elf: &Path, raw: &[u8]) -> Result<Vec<String>, HubError> {
    let mut child = Command::new(defmt_print)
        .arg("-e")
        .arg(elf)
        .args(["--log-format", "{L} {s}"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            HubError::new(
                HubErrorKind::Spawn,
                format!("cannot run {defmt_print}: {e}"),
            )
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(raw)
            .map_err(|e| HubError::io("feed defmt-print", e))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| HubError::io("wait for defmt-print", e))?;
    if !out.status.success() {
        return Err(HubError::new(
            HubErrorKind::Decode,
            format!(
                "defmt-print failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect())
}

fn fields(line: &str) -> BTreeMap<&str, &str> {
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .collect()
}

fn num<T: std::str::FromStr>(
    f: &BTreeMap<&str, &str>,
    key: &str,
    line: &str,
) -> Result<T, HubError> {
    f.get(key).and_then(|v| v.parse().ok()).ok_or_else(|| {
        HubError::new(
            HubErrorKind::Decode,
            format!("no {key}= in log line '{line}'"),
        )
    })
}

/// Parse the decoded lines of one node into events (other lines are skipped).
///
/// # Errors
///
/// [`HubErrorKind::Decode`] for a known line with a missing or bad field.
pub fn parse(lines: &[String]) -> Result<Vec<LogEvent>, HubError> {
    let mut events = Vec::new();
    for line in lines {
        let f = fields(line);
        let text = |key: &str| f.get(key).map(|s| s.to_string()).unwrap_or_default();
        let event = if line.contains(" tx queued ") {
            LogEvent::Queued {
                tick: num(&f, "t", line)?,
                frame: num(&f, "frame", line)?,
                dst: num(&f, "dst", line)?,
            }
        } else if line.contains(" tx attempt ") {
            LogEvent::Attempt {
                tick: num(&f, "t", line)?,
                frame: num(&f, "frame", line)?,
                attempt: num(&f, "attempt", line)?,
            }
        } else if line.contains(" tx collision ") {
            LogEvent::Collision {
                tick: num(&f, "t", line)?,
                frame: num(&f, "frame", line)?,
                attempt: num(&f, "attempt", line)?,
                byte: num(&f, "byte", line)?,
            }
        } else if line.contains(" tx backoff ") {
            LogEvent::Backoff {
                tick: num(&f, "t", line)?,
                frame: num(&f, "frame", line)?,
                attempt: num(&f, "attempt", line)?,
                slots: num(&f, "slots", line)?,
            }
        } else if line.contains(" tx delivered ") {
            LogEvent::Delivered {
                tick: num(&f, "t", line)?,
                frame: num(&f, "frame", line)?,
                attempts: num(&f, "attempts", line)?,
            }
        } else if line.contains(" tx dropped ") {
            LogEvent::Dropped {
                tick: num(&f, "t", line)?,
                frame: num(&f, "frame", line)?,
                reason: text("reason"),
                attempts: num(&f, "attempts", line)?,
            }
        } else if line.contains(" rx frame ") {
            LogEvent::Received {
                tick: num(&f, "t", line)?,
                src: num(&f, "src", line)?,
                dst: num(&f, "dst", line)?,
                seq: num(&f, "seq", line)?,
            }
        } else if line.contains(" rx discarded ") {
            LogEvent::Discarded {
                tick: num(&f, "t", line)?,
                kind: text("kind"),
            }
        } else if line.contains(" counters ") {
            LogEvent::Counters(
                line.split(['{', '}', ','])
                    .filter_map(|kv| kv.split_once(':'))
                    .filter_map(|(k, v)| Some((k.trim().to_string(), v.trim().parse().ok()?)))
                    .collect(),
            )
        } else if line.ends_with(" done") {
            LogEvent::Done
        } else {
            continue;
        };
        events.push(event);
    }
    Ok(events)
}
