//! Output formats, written to any [`std::io::Write`] (no file system here: the host
//! layer, `sim_host::output`, writes files whole or not at all).
//!
//! * [`json`]: pretty-printed JSON of any serialisable result;
//! * [`format`](mod@format): an output file's format chosen by its extension;
//! * [`pcap`]: packet capture files (pcapng, and pcap with nanosecond timestamps),
//!   streamed record by record;
//! * [`table`]: results as rows of named cells, written as CSV or JSON with the same
//!   column names;
//! * [`text`]: plain text wrapped for a reader.

pub mod format;
pub mod json;
pub mod pcap;
pub mod table;
pub mod text;
