//! Output formats, written to any [`std::io::Write`] (no file system here: the host
//! layer, `sim_host::output`, writes files whole or not at all).
//!
//! * [`json`]: pretty-printed JSON of any serialisable result;
//! * `format`(mod@format): an output file's format chosen by its extension;
//! * `pcap`: packet capture files (pcapng, and pcap with nanosecond timestamps),
//!   streamed record by record;
//! * [`table`]: results as rows of named cells, written as CSV or JSON with the same
//!   column names;
//! * `text`: plain text wrapped for a reader.

pub(crate) mod format;
pub mod json;
pub(crate) mod pcap;
pub mod table;
pub(crate) mod text;

pub use format::{UnknownFormat, by_extension};
pub use pcap::{
    CaptureFormat, CaptureWriter, EpbFlags, Interface, LINKTYPE_ETHERNET, PCAP_NANOSECOND_MAGIC,
    Record,
};
pub use text::wrap;
