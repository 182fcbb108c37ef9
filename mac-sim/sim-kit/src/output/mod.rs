//! Output files: written whole or not at all, and JSON.
//!
//! * [`atomic`]: a file written under a temporary name beside its target and renamed
//!   when complete; an output directory checked before any work starts;
//! * [`set`]: a set of files that appears whole or not at all;
//! * [`json`]: pretty-printed JSON of any serialisable result;
//! * [`format`](mod@format): an output file's format chosen by its extension;
//! * [`pcap`]: packet capture files (pcapng, and pcap with nanosecond timestamps),
//!   streamed record by record.

pub mod atomic;
pub mod format;
pub mod json;
pub mod pcap;
pub mod set;
