//! A run's trace as columns: every step the exact model reports through its
//! observation hook (`csma_cd::Observer`), kept in memory in the columns of
//! `mac-sim run --trace FILE.csv` ([`csma_cd::trace`]) and handed to Python as byte
//! buffers that numpy reads without a copy per value.
//!
//! Columns, as the trace file has them: `time_ps`, `station`, `collisions`,
//! `frame_bits` (native-endian `int64`); `kind` (`uint8` codes into [`KINDS`], the
//! names of [`EventKind::name`]);
//! `backoff_slots`, `access_delay_ps` (native-endian `float64`, NaN where the file's
//! cell is empty, as pandas reads the file).

use csma_cd::{EventKind, Observer, TraceEvent};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyList};

/// The event kinds, in the order of their codes in the `kind` column.
pub const KINDS: [EventKind; 6] = [
    EventKind::Transmit,
    EventKind::Defer,
    EventKind::Collision,
    EventKind::JamEnd,
    EventKind::Success,
    EventKind::Drop,
];

/// The code of `kind` in the `kind` column: its place in [`KINDS`]. The match is
/// exhaustive, so a kind added to the model does not compile until it has a code.
fn code(kind: EventKind) -> u8 {
    match kind {
        EventKind::Transmit => 0,
        EventKind::Defer => 1,
        EventKind::Collision => 2,
        EventKind::JamEnd => 3,
        EventKind::Success => 4,
        EventKind::Drop => 5,
    }
}

/// An [`Observer`] that keeps every event as a row of columns.
#[derive(Debug, Default)]
pub struct TraceColumns {
    time_ps: Vec<u8>,
    station: Vec<u8>,
    kind: Vec<u8>,
    collisions: Vec<u8>,
    backoff_slots: Vec<u8>,
    frame_bits: Vec<u8>,
    access_delay_ps: Vec<u8>,
}

fn int(col: &mut Vec<u8>, v: u64) {
    // Times are below 2^62 ps (the longest run), counts far below: exact in int64.
    col.extend_from_slice(&i64::try_from(v).unwrap_or(i64::MAX).to_ne_bytes());
}

fn maybe(col: &mut Vec<u8>, v: Option<u64>) {
    col.extend_from_slice(&v.map_or(f64::NAN, |x| x as f64).to_ne_bytes());
}

impl Observer for TraceColumns {
    fn observe(&mut self, e: &TraceEvent) {
        int(&mut self.time_ps, e.time.as_ps());
        int(&mut self.station, u64::from(e.station));
        self.kind.push(code(e.kind));
        int(&mut self.collisions, u64::from(e.collisions));
        maybe(&mut self.backoff_slots, e.backoff_slots.map(u64::from));
        int(&mut self.frame_bits, u64::from(e.frame_bits));
        maybe(&mut self.access_delay_ps, e.access_delay.map(|d| d.as_ps()));
    }
}

impl TraceColumns {
    /// The events kept.
    pub fn len(&self) -> usize {
        self.kind.len()
    }

    /// Whether no event was kept.
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    /// The columns as a dict: `columns`, a list of `(name, dtype, buffer)` in the
    /// trace file's order (`dtype` is numpy's `"int64"`, `"float64"` or `"uint8"`,
    /// the last for codes into `kinds`); `kinds`, the names of the kinds.
    ///
    /// # Errors
    ///
    /// A Python error building the dict (out of memory).
    pub fn into_py(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let columns = PyList::empty(py);
        for (name, dtype, buf) in [
            ("time_ps", "int64", self.time_ps),
            ("station", "int64", self.station),
            ("kind", "uint8", self.kind),
            ("collisions", "int64", self.collisions),
            ("backoff_slots", "float64", self.backoff_slots),
            ("frame_bits", "int64", self.frame_bits),
            ("access_delay_ps", "float64", self.access_delay_ps),
        ] {
            columns.append((name, dtype, PyByteArray::new(py, &buf)))?;
        }
        let out = PyDict::new(py);
        out.set_item("columns", columns)?;
        out.set_item("kinds", KINDS.map(EventKind::name).to_vec())?;
        Ok(out)
    }
}
