//! Frame traces: every step the exact model reports through its
//! [observation hook](crate::exact::Observer), written as CSV or JSON lines.
//!
//! One line per [`TraceEvent`], streamed through the writer it is given (a buffered
//! file for `mac-sim run --trace`), so a long run needs no memory for its trace.
//! Times are integer picoseconds, exact. Columns and keys, in this order:
//!
//! | name | meaning |
//! | --- | --- |
//! | `time_ps` | when it happened |
//! | `station` | the station, `0..N` along the bus from the cable's start |
//! | `kind` | `transmit`, `defer`, `collision`, `jam_end`, `success` or `drop` |
//! | `collisions` | collisions of the current frame so far |
//! | `backoff_slots` | slots drawn after this collision (`jam_end` with a retry; else empty / `null`) |
//! | `frame_bits` | the frame's size, address to FCS, in bits |
//! | `access_delay_ps` | head of queue to end of transmission (`success`; else empty / `null`) |
//!
//! ```
//! use csma_cd::config::RunConfig;
//! use csma_cd::trace::{TraceFormat, TraceWriter};
//! use sim_kit::time::Time;
//! let cfg = RunConfig { stations: 2, duration: Time::from_ms(2), ..RunConfig::default() };
//! let w = TraceWriter::new(Vec::new(), TraceFormat::Csv).unwrap();
//! let (r, w) = csma_cd::exact::run_with_observer(&cfg, w).unwrap();
//! let text = String::from_utf8(w.finish().unwrap()).unwrap();
//! assert!(text.starts_with("time_ps,station,kind,"));
//! assert_eq!(text.lines().filter(|l| l.contains(",success,")).count() as u64,
//!            r.conservation.delivered);
//! ```

use std::io::{self, Write};
use std::path::Path;

use crate::exact::observe::{Observer, TraceEvent};
use sim_kit::output::{UnknownFormat, by_extension};

/// The trace file formats, chosen by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// Comma-separated values with a header line (`.csv`).
    Csv,
    /// One JSON object per line (`.jsonl`).
    JsonLines,
}

impl TraceFormat {
    /// The format for `path`, from its extension (case-insensitive).
    ///
    /// # Errors
    ///
    /// [`UnknownFormat`] for any other extension, or none.
    pub fn from_path(path: &Path) -> Result<Self, UnknownFormat> {
        by_extension(
            path,
            "trace",
            &[("csv", Self::Csv), ("jsonl", Self::JsonLines)],
        )
    }
}

/// The CSV header line.
pub const CSV_HEADER: &str =
    "time_ps,station,kind,collisions,backoff_slots,frame_bits,access_delay_ps";

/// An [`Observer`] that writes each event as a line of CSV or JSON to `W`.
///
/// The observer hook cannot fail, so the first write error is kept, later events are
/// not written, and [`finish`](Self::finish) returns the error.
#[derive(Debug)]
pub struct TraceWriter<W: Write> {
    out: W,
    format: TraceFormat,
    error: Option<io::Error>,
    lines: u64,
}

impl<W: Write> TraceWriter<W> {
    /// A writer of `format` to `out`; writes the CSV header at once.
    ///
    /// # Errors
    ///
    /// The error of writing the header.
    pub fn new(mut out: W, format: TraceFormat) -> io::Result<Self> {
        if format == TraceFormat::Csv {
            writeln!(out, "{CSV_HEADER}")?;
        }
        Ok(Self {
            out,
            format,
            error: None,
            lines: 0,
        })
    }

    /// Events written so far.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Flush and return the writer.
    ///
    /// # Errors
    ///
    /// The first error met while writing, or that of the flush.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.out)
    }

    fn write(&mut self, e: &TraceEvent) -> io::Result<()> {
        let (t, k, kind, c, bits) = (
            e.time.as_ps(),
            e.station,
            e.kind.name(),
            e.collisions,
            e.frame_bits,
        );
        match self.format {
            TraceFormat::Csv => {
                write!(self.out, "{t},{k},{kind},{c},")?;
                if let Some(s) = e.backoff_slots {
                    write!(self.out, "{s}")?;
                }
                write!(self.out, ",{bits},")?;
                if let Some(d) = e.access_delay {
                    write!(self.out, "{}", d.as_ps())?;
                }
                writeln!(self.out)
            }
            TraceFormat::JsonLines => {
                write!(
                    self.out,
                    r#"{{"time_ps":{t},"station":{k},"kind":"{kind}","collisions":{c},"backoff_slots":"#
                )?;
                match e.backoff_slots {
                    Some(s) => write!(self.out, "{s}")?,
                    None => write!(self.out, "null")?,
                }
                write!(self.out, r#","frame_bits":{bits},"access_delay_ps":"#)?;
                match e.access_delay {
                    Some(d) => writeln!(self.out, "{}}}", d.as_ps()),
                    None => writeln!(self.out, "null}}"),
                }
            }
        }
    }
}

impl<W: Write> Observer for TraceWriter<W> {
    fn observe(&mut self, event: &TraceEvent) {
        if self.error.is_some() {
            return;
        }
        match self.write(event) {
            Ok(()) => self.lines += 1,
            Err(e) => self.error = Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{RunConfig, Traffic};
    use crate::exact::{self, EventKind};
    use sim_kit::time::Time;

    fn cfg() -> RunConfig {
        RunConfig {
            stations: 5,
            duration: Time::from_ms(20),
            traffic: Traffic::Poisson { load: 0.8 },
            ..RunConfig::default()
        }
    }

    #[test]
    fn format_from_extension() {
        assert_eq!(
            TraceFormat::from_path(Path::new("a/t.CSV")),
            Ok(TraceFormat::Csv)
        );
        assert_eq!(
            TraceFormat::from_path(Path::new("t.jsonl")),
            Ok(TraceFormat::JsonLines)
        );
        assert!(TraceFormat::from_path(Path::new("t.json")).is_err());
        assert!(TraceFormat::from_path(Path::new("trace")).is_err());
    }

    #[test]
    fn csv_and_json_lines_carry_the_same_events() {
        let c = TraceWriter::new(Vec::new(), TraceFormat::Csv).unwrap();
        let (r, c) = exact::run_with_observer(&cfg(), c).unwrap();
        let j = TraceWriter::new(Vec::new(), TraceFormat::JsonLines).unwrap();
        let (_, j) = exact::run_with_observer(&cfg(), j).unwrap();
        let (cn, jn) = (c.lines(), j.lines());
        let csv = String::from_utf8(c.finish().unwrap()).unwrap();
        let json = String::from_utf8(j.finish().unwrap()).unwrap();
        assert_eq!(csv.lines().count() as u64, cn + 1);
        assert_eq!(json.lines().count() as u64, jn);
        assert_eq!(cn, jn);
        let mut successes = 0;
        for (c, j) in csv.lines().skip(1).zip(json.lines()) {
            let v: serde_json::Value = serde_json::from_str(j).unwrap();
            let f: Vec<&str> = c.split(',').collect();
            assert_eq!(f.len(), 7);
            assert_eq!(f[0], v["time_ps"].to_string());
            assert_eq!(f[1], v["station"].to_string());
            assert_eq!(f[2], v["kind"].as_str().unwrap());
            let opt = |x: &serde_json::Value| {
                if x.is_null() {
                    String::new()
                } else {
                    x.to_string()
                }
            };
            assert_eq!(f[4], opt(&v["backoff_slots"]));
            assert_eq!(f[6], opt(&v["access_delay_ps"]));
            if f[2] == EventKind::Success.name() {
                successes += 1;
            }
        }
        assert_eq!(successes, r.conservation.delivered);
    }

    #[derive(Debug)]
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_write_error_is_kept_and_returned() {
        let w = TraceWriter::new(Full, TraceFormat::JsonLines).unwrap();
        let (_, w) = exact::run_with_observer(&cfg(), w).unwrap();
        assert_eq!(w.lines(), 0);
        assert_eq!(w.finish().unwrap_err().to_string(), "disk full");
    }
}
