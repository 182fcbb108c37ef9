//! Output formats, written to any [`std::io::Write`] (no file system here: the host
//! layer, `sim_host::output`, writes files whole or not at all).
//!
//! * [`json`]: pretty-printed JSON of any serialisable result;
//! * [`format`](mod@format): an output file's format chosen by its extension;
//! * [`pcap`]: packet capture files (pcapng, and pcap with nanosecond timestamps),
//!   streamed record by record;
//! * [`text`]: plain text wrapped for a reader.

pub mod format;
pub mod json;
pub mod pcap;
pub mod text;
