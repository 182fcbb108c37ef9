//! Packet capture files: pcapng, and classic pcap with nanosecond timestamps, written
//! as a stream of records.
//!
//! Both formats are those `tcpdump`, Wireshark and `tshark` read:
//!
//! * **pcapng** (IETF draft `draft-ietf-opsawg-pcapng`, the format Wireshark writes by
//!   default): a Section Header Block (with the writing application in `shb_userappl`),
//!   Interface Description Blocks (one per [`Interface`], numbered from 0 in the order
//!   they are given, with `if_name`, `if_description` and `if_tsresol = 9`:
//!   timestamps in nanoseconds) and one Enhanced Packet Block per record, on its
//!   record's interface, carrying its comment (`opt_comment`) and its flags
//!   (`epb_flags`: FCS length, link-layer errors such as a CRC error) when it has them;
//! * **classic pcap** (`draft-ietf-opsawg-pcap`) with the nanosecond magic number
//!   `0xa1b23c4d`: a file header and one record header per record; it has no room for
//!   interfaces, comments or flags, which are left out (every record is written as if
//!   on the first interface; all interfaces must then share its link type and FCS
//!   length). The FCS length of the interface is stated in the header's link-type
//!   field (its `P` bit and FCS length).
//!
//! Everything is written little-endian (the byte-order magic tells readers so).
//! Simulated time [`Time::ZERO`] is the Unix epoch, so a capture of a simulation
//! opens at 1970-01-01 00:00:00 and its relative times are the simulated ones;
//! picoseconds are truncated to nanoseconds.
//!
//! The writer streams: it holds no record after [`write`](CaptureWriter::write)
//! returns, so a long capture needs no memory (give it a buffered writer, such as
//! the host layer's `sim_host::output::AtomicFile`).
//!
//! The `pcap-file` crate was considered: its released version (2.0) writes Enhanced
//! Packet Block timestamps in nanoseconds whatever the interface's `if_tsresol`
//! says and reads them back the same way (right here only by coincidence; fixed in
//! 3.0, a release candidate needing Rust 1.93 where this workspace promises 1.85). The
//! three block layouts used are short enough to write here.
//!
//! ```
//! use sim_kit::output::{CaptureFormat, CaptureWriter, EpbFlags, Interface, Record};
//! use sim_kit::time::Time;
//! let iface = Interface { link_type: 1, snap_len: 65535, fcs_len: 4, name: "a", description: None };
//! let mut w = CaptureWriter::new(Vec::new(), CaptureFormat::PcapNg, &iface, "example").unwrap();
//! let b = w.add_interface(&Interface { name: "b", description: Some("the other one"), ..iface }).unwrap();
//! assert_eq!(b, 1);
//! w.write(&Record {
//!     interface: b,
//!     time: Time::from_ns(1500),
//!     data: &[0u8; 64],
//!     original_len: 64,
//!     flags: EpbFlags::default().with_fcs_len(4),
//!     comment: None,
//! })
//! .unwrap();
//! assert_eq!(w.records(), 1);
//! let bytes = w.finish().unwrap();
//! assert_eq!(&bytes[..4], &[0x0a, 0x0d, 0x0d, 0x0a]); // the Section Header Block
//! ```

use std::io::{self, Write};
use std::path::Path;

use super::format::{UnknownFormat, by_extension};
use crate::time::Time;

/// Link type (`LINKTYPE_ETHERNET`, tcpdump.org link-layer header types): IEEE 802.3
/// frames from the destination address on.
pub const LINKTYPE_ETHERNET: u16 = 1;

/// The capture file formats, chosen by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureFormat {
    /// Classic pcap with nanosecond timestamps (`.pcap`).
    Pcap,
    /// pcapng (`.pcapng`).
    PcapNg,
}

impl CaptureFormat {
    /// The format for `path`, from its extension (case-insensitive).
    ///
    /// # Errors
    ///
    /// [`UnknownFormat`] for any other extension, or none.
    pub fn from_path(path: &Path) -> Result<Self, UnknownFormat> {
        by_extension(
            path,
            "capture",
            &[("pcapng", Self::PcapNg), ("pcap", Self::Pcap)],
        )
    }
}

/// A capture interface of a file (a pcapng Interface Description Block).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interface<'a> {
    /// Link-layer header type, e.g. [`LINKTYPE_ETHERNET`].
    pub link_type: u16,
    /// The largest number of bytes kept of a packet.
    pub snap_len: u32,
    /// Bytes of frame check sequence at the end of the interface's complete frames
    /// (0 to 30; 4 for Ethernet with its FCS): the classic pcap header states it;
    /// in pcapng each record states its own in its [`EpbFlags`].
    pub fcs_len: u8,
    /// The interface's name (pcapng `if_name`).
    pub name: &'a str,
    /// Its description (pcapng `if_description`), if any.
    pub description: Option<&'a str>,
}

/// The `epb_flags` word of a pcapng Enhanced Packet Block
/// (`draft-ietf-opsawg-pcapng`, section "Enhanced Packet Block Flags Word").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EpbFlags(pub u32);

impl EpbFlags {
    /// Link-layer-dependent error: CRC error (bit 24).
    pub const CRC_ERROR: Self = Self(1 << 24);
    /// Link-layer-dependent error: packet too long (bit 25).
    pub const PACKET_TOO_LONG: Self = Self(1 << 25);
    /// Link-layer-dependent error: packet too short (bit 26).
    pub const PACKET_TOO_SHORT: Self = Self(1 << 26);

    /// These flags with the FCS length (bits 5-8) set to `octets` (0 to 15; 0 means
    /// not known).
    pub const fn with_fcs_len(self, octets: u8) -> Self {
        Self((self.0 & !(0xf << 5)) | ((octets as u32 & 0xf) << 5))
    }

    /// The FCS length in octets (bits 5-8; 0: not known).
    pub const fn fcs_len(self) -> u8 {
        ((self.0 >> 5) & 0xf) as u8
    }

    /// These flags and `other`'s.
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }
}

/// One packet as the capture shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    /// The interface it was captured on: 0 for the one given to
    /// [`CaptureWriter::new`], then as numbered by
    /// [`add_interface`](CaptureWriter::add_interface) (pcapng only: classic pcap has
    /// one interface).
    pub interface: u32,
    /// When it was captured (truncated to nanoseconds).
    pub time: Time,
    /// The bytes captured, from the link-layer header on (cut to the interface's snap
    /// length).
    pub data: &'a [u8],
    /// The packet's length on the wire (at least `data.len()`).
    pub original_len: u32,
    /// pcapng `epb_flags`, written when not zero (pcapng only).
    pub flags: EpbFlags,
    /// pcapng `opt_comment` (pcapng only).
    pub comment: Option<&'a str>,
}

/// pcapng block types and option codes used here.
mod ng {
    pub const SHB: u32 = 0x0a0d_0d0a;
    pub const IDB: u32 = 1;
    pub const EPB: u32 = 6;
    pub const BYTE_ORDER_MAGIC: u32 = 0x1a2b_3c4d;
    pub const OPT_END: u16 = 0;
    pub const OPT_COMMENT: u16 = 1;
    pub const SHB_USERAPPL: u16 = 4;
    pub const IF_NAME: u16 = 2;
    pub const IF_DESCRIPTION: u16 = 3;
    pub const IF_TSRESOL: u16 = 9;
    pub const EPB_FLAGS: u16 = 2;
}

/// Classic pcap's nanosecond-resolution magic number.
pub const PCAP_NANOSECOND_MAGIC: u32 = 0xa1b2_3c4d;

/// Writes a capture file as a stream of [`Record`]s.
#[derive(Debug)]
pub struct CaptureWriter<W: Write> {
    out: W,
    format: CaptureFormat,
    /// The link type, FCS length and snap length of the first interface (classic
    /// pcap: of all).
    link: (u16, u8, u32),
    /// The snap length of each interface, by number.
    snap_lens: Vec<u32>,
    records: u64,
    /// A block under construction (pcapng), reused.
    block: Vec<u8>,
}

impl<W: Write> CaptureWriter<W> {
    /// A writer of `format` to `out`, which writes the file's header (pcapng: the
    /// section header, naming `application`, and the interface, numbered 0; pcap: the
    /// file header) at once.
    ///
    /// # Errors
    ///
    /// The error of writing the header.
    pub fn new(
        mut out: W,
        format: CaptureFormat,
        iface: &Interface<'_>,
        application: &str,
    ) -> io::Result<Self> {
        let mut block = Vec::with_capacity(2048);
        match format {
            CaptureFormat::Pcap => {
                // LinkType and additional information: FCS length in 16-bit words in
                // bits 28-31, its presence in bit 26.
                let fcs_words = u32::from(iface.fcs_len.min(30)).div_ceil(2);
                let link = if fcs_words == 0 {
                    u32::from(iface.link_type)
                } else {
                    (fcs_words << 28) | (1 << 26) | u32::from(iface.link_type)
                };
                block.extend_from_slice(&PCAP_NANOSECOND_MAGIC.to_le_bytes());
                block.extend_from_slice(&2u16.to_le_bytes());
                block.extend_from_slice(&4u16.to_le_bytes());
                block.extend_from_slice(&0u32.to_le_bytes()); // reserved (thiszone)
                block.extend_from_slice(&0u32.to_le_bytes()); // reserved (sigfigs)
                block.extend_from_slice(&iface.snap_len.to_le_bytes());
                block.extend_from_slice(&link.to_le_bytes());
                out.write_all(&block)?;
            }
            CaptureFormat::PcapNg => {
                begin_block(&mut block, ng::SHB);
                block.extend_from_slice(&ng::BYTE_ORDER_MAGIC.to_le_bytes());
                block.extend_from_slice(&1u16.to_le_bytes());
                block.extend_from_slice(&0u16.to_le_bytes());
                block.extend_from_slice(&u64::MAX.to_le_bytes()); // section length unknown
                option(&mut block, ng::SHB_USERAPPL, application.as_bytes());
                option(&mut block, ng::OPT_END, &[]);
                end_block(&mut block);
                out.write_all(&block)?;
                interface_block(&mut block, iface);
                out.write_all(&block)?;
            }
        }
        Ok(Self {
            out,
            format,
            link: (iface.link_type, iface.fcs_len, iface.snap_len),
            snap_lens: vec![iface.snap_len],
            records: 0,
            block,
        })
    }

    /// Add an interface (pcapng: write its Interface Description Block) and return
    /// its number for [`Record::interface`]: 1 for the first one added, and so on.
    ///
    /// # Errors
    ///
    /// The error of writing the block; in classic pcap, which has one interface, an
    /// error of kind [`InvalidInput`](io::ErrorKind::InvalidInput) if `iface` does
    /// not share the first interface's link type, FCS length and snap length (the
    /// file header states them for every record).
    pub fn add_interface(&mut self, iface: &Interface<'_>) -> io::Result<u32> {
        let number = u32::try_from(self.snap_lens.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "too many interfaces"))?;
        match self.format {
            CaptureFormat::Pcap => {
                if (iface.link_type, iface.fcs_len, iface.snap_len) != self.link {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "a classic pcap file holds one link type, FCS length and snap length",
                    ));
                }
            }
            CaptureFormat::PcapNg => {
                interface_block(&mut self.block, iface);
                self.out.write_all(&self.block)?;
            }
        }
        self.snap_lens.push(iface.snap_len);
        Ok(number)
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Write one record.
    ///
    /// # Errors
    ///
    /// The error of writing to the underlying writer, or one of kind
    /// [`InvalidInput`](io::ErrorKind::InvalidInput) (nothing written) if the
    /// record's interface was never given.
    pub fn write(&mut self, r: &Record<'_>) -> io::Result<()> {
        let Some(&snap_len) = self.snap_lens.get(r.interface as usize) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("no capture interface {}", r.interface),
            ));
        };
        let ns = r.time.as_ns();
        let data = &r.data[..r.data.len().min(snap_len as usize)];
        // Lengths of at most 4 GiB: a longer slice cannot be captured.
        let caplen = u32::try_from(data.len()).unwrap_or(u32::MAX);
        let original_len = r.original_len.max(caplen);
        let b = &mut self.block;
        match self.format {
            CaptureFormat::Pcap => {
                b.clear();
                // Seconds as 32 bits: 136 years of simulated time.
                b.extend_from_slice(&((ns / 1_000_000_000) as u32).to_le_bytes());
                b.extend_from_slice(&((ns % 1_000_000_000) as u32).to_le_bytes());
                b.extend_from_slice(&caplen.to_le_bytes());
                b.extend_from_slice(&original_len.to_le_bytes());
                self.out.write_all(b)?;
                self.out.write_all(data)?;
            }
            CaptureFormat::PcapNg => {
                // The options and the trailing length first, so the data is written
                // from the caller's slice without a copy.
                let padding = data.len().next_multiple_of(4) - data.len();
                b.clear();
                if let Some(c) = r.comment {
                    option(b, ng::OPT_COMMENT, c.as_bytes());
                }
                if r.flags != EpbFlags::default() {
                    option(b, ng::EPB_FLAGS, &r.flags.0.to_le_bytes());
                }
                if r.comment.is_some() || r.flags != EpbFlags::default() {
                    option(b, ng::OPT_END, &[]);
                }
                let len = (28 + data.len() + padding + b.len() + 4) as u32;
                b.extend_from_slice(&len.to_le_bytes());
                let mut head = [0u8; 28];
                for (i, v) in [
                    ng::EPB,
                    len,
                    r.interface,
                    (ns >> 32) as u32,
                    ns as u32,
                    caplen,
                    original_len,
                ]
                .into_iter()
                .enumerate()
                {
                    head[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
                }
                self.out.write_all(&head)?;
                self.out.write_all(data)?;
                self.out.write_all(&[0; 3][..padding])?;
                self.out.write_all(b)?;
            }
        }
        self.records += 1;
        Ok(())
    }

    /// Flush and return the writer.
    ///
    /// # Errors
    ///
    /// The error of the flush.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// An Interface Description Block for `iface` in `b` (cleared).
fn interface_block(b: &mut Vec<u8>, iface: &Interface<'_>) {
    begin_block(b, ng::IDB);
    b.extend_from_slice(&iface.link_type.to_le_bytes());
    b.extend_from_slice(&0u16.to_le_bytes());
    b.extend_from_slice(&iface.snap_len.to_le_bytes());
    option(b, ng::IF_NAME, iface.name.as_bytes());
    if let Some(d) = iface.description {
        option(b, ng::IF_DESCRIPTION, d.as_bytes());
    }
    option(b, ng::IF_TSRESOL, &[9]);
    option(b, ng::OPT_END, &[]);
    end_block(b);
}

/// Start a pcapng block of `kind` in `b` (cleared), its length to be filled by
/// [`end_block`].
fn begin_block(b: &mut Vec<u8>, kind: u32) {
    b.clear();
    b.extend_from_slice(&kind.to_le_bytes());
    b.extend_from_slice(&0u32.to_le_bytes());
}

/// Finish the block in `b`: its total length at both ends.
fn end_block(b: &mut Vec<u8>) {
    let len = (b.len() + 4) as u32;
    b[4..8].copy_from_slice(&len.to_le_bytes());
    b.extend_from_slice(&len.to_le_bytes());
}

/// Zero bytes up to a multiple of 4.
fn pad(b: &mut Vec<u8>) {
    b.resize(b.len().next_multiple_of(4), 0);
}

/// One pcapng option (values are at most 65535 bytes: longer ones are cut).
fn option(b: &mut Vec<u8>, code: u16, value: &[u8]) {
    let value = &value[..value.len().min(usize::from(u16::MAX))];
    b.extend_from_slice(&code.to_le_bytes());
    b.extend_from_slice(&(value.len() as u16).to_le_bytes());
    b.extend_from_slice(value);
    pad(b);
}

#[cfg(test)]
mod tests {
    use super::*;

    const IFACE: Interface<'static> = Interface {
        link_type: LINKTYPE_ETHERNET,
        snap_len: 65535,
        fcs_len: 4,
        name: "bus",
        description: None,
    };

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn format_from_extension() {
        let f = |p: &str| CaptureFormat::from_path(Path::new(p));
        assert_eq!(f("a/x.PCAPNG"), Ok(CaptureFormat::PcapNg));
        assert_eq!(f("x.pcap"), Ok(CaptureFormat::Pcap));
        assert!(f("x.cap").is_err());
        assert!(f("x").is_err());
        assert!(f("x.pcap.gz").is_err());
    }

    #[test]
    fn pcap_header_and_record_layout() {
        let mut w = CaptureWriter::new(Vec::new(), CaptureFormat::Pcap, &IFACE, "t").unwrap();
        let data = [0xabu8; 10];
        w.write(&Record {
            interface: 0,
            time: Time::from_ps(3_000_000_001_999),
            data: &data,
            original_len: 64,
            flags: EpbFlags::CRC_ERROR,
            comment: Some("ignored in pcap"),
        })
        .unwrap();
        let b = w.finish().unwrap();
        assert_eq!(b.len(), 24 + 16 + 10);
        assert_eq!(&b[..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
        assert_eq!(u32_at(&b, 20), 0x2400_0001, "Ethernet with a 4-byte FCS");
        assert_eq!(u32_at(&b, 24), 3, "seconds");
        assert_eq!(u32_at(&b, 28), 1, "nanoseconds, picoseconds truncated");
        assert_eq!(u32_at(&b, 32), 10);
        assert_eq!(u32_at(&b, 36), 64);
        assert_eq!(&b[40..], &data);
    }

    #[test]
    fn pcapng_blocks_are_aligned_and_carry_their_options() {
        let mut w = CaptureWriter::new(Vec::new(), CaptureFormat::PcapNg, &IFACE, "app").unwrap();
        let data = [1u8, 2, 3, 4, 5];
        let flags = EpbFlags::CRC_ERROR.with_fcs_len(0);
        w.write(&Record {
            interface: 0,
            time: Time::from_secs(5),
            data: &data,
            original_len: 5,
            flags,
            comment: Some("abc"),
        })
        .unwrap();
        w.write(&Record {
            interface: 0,
            time: Time::from_secs(6),
            data: &data,
            original_len: 9,
            flags: EpbFlags::default(),
            comment: None,
        })
        .unwrap();
        let b = w.finish().unwrap();
        // Walk the blocks: each length is a multiple of 4 and repeated at its end.
        let mut at = 0;
        let mut kinds = Vec::new();
        while at < b.len() {
            let (kind, len) = (u32_at(&b, at), u32_at(&b, at + 4) as usize);
            assert_eq!(len % 4, 0);
            assert_eq!(u32_at(&b, at + len - 4) as usize, len);
            kinds.push((kind, at, len));
            at += len;
        }
        assert_eq!(at, b.len());
        let k: Vec<u32> = kinds.iter().map(|k| k.0).collect();
        assert_eq!(k, [ng::SHB, ng::IDB, ng::EPB, ng::EPB]);
        // The interface: Ethernet, if_name "bus" (3 bytes padded to 4), if_tsresol 9.
        let idb = &b[kinds[1].1..][..kinds[1].2];
        assert_eq!(u32::from(u16::from_le_bytes([idb[8], idb[9]])), 1);
        assert_eq!(&idb[16..24], &[2, 0, 3, 0, b'b', b'u', b's', 0]);
        assert_eq!(&idb[24..29], &[9, 0, 1, 0, 9]);
        // The first packet: 5 s in nanoseconds, then data, comment and flags.
        let epb = &b[kinds[2].1..][..kinds[2].2];
        let ts = (u64::from(u32_at(epb, 12)) << 32) | u64::from(u32_at(epb, 16));
        assert_eq!(ts, 5_000_000_000);
        assert_eq!((u32_at(epb, 20), u32_at(epb, 24)), (5, 5));
        assert_eq!(&epb[28..33], &data);
        assert_eq!(&epb[36..44], &[1, 0, 3, 0, b'a', b'b', b'c', 0]);
        assert_eq!(&epb[44..48], &[2, 0, 4, 0]);
        assert_eq!(u32_at(epb, 48), 1 << 24);
        assert_eq!(&epb[52..56], &[0, 0, 0, 0]);
        assert_eq!(epb.len(), 60);
        // The second: no options at all.
        let epb = &b[kinds[3].1..][..kinds[3].2];
        assert_eq!((u32_at(epb, 20), u32_at(epb, 24)), (5, 9));
        assert_eq!(epb.len(), 28 + 8 + 4);
    }

    #[test]
    fn records_go_on_their_interface() {
        let mut w = CaptureWriter::new(Vec::new(), CaptureFormat::PcapNg, &IFACE, "app").unwrap();
        let second = Interface {
            name: "station 1",
            description: Some("address 02:00:00:00:00:01"),
            ..IFACE
        };
        assert_eq!(w.add_interface(&second).unwrap(), 1);
        let record = |interface| Record {
            interface,
            time: Time::from_secs(1),
            data: &[7u8; 4],
            original_len: 4,
            flags: EpbFlags::default(),
            comment: None,
        };
        w.write(&record(1)).unwrap();
        let e = w.write(&record(2)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(e.to_string(), "no capture interface 2");
        assert_eq!(w.records(), 1);
        let b = w.finish().unwrap();
        // SHB, IDB 0, IDB 1 with name and description, one EPB on interface 1.
        let shb = u32_at(&b, 4) as usize;
        let idb0 = u32_at(&b, shb + 4) as usize;
        let idb1 = &b[shb + idb0..][..u32_at(&b, shb + idb0 + 4) as usize];
        assert_eq!(u32_at(idb1, 0), ng::IDB);
        assert_eq!(&idb1[16..20], &[2, 0, 9, 0]);
        assert_eq!(&idb1[20..29], b"station 1");
        assert_eq!(&idb1[32..36], &[3, 0, 25, 0]);
        assert_eq!(&idb1[36..61], b"address 02:00:00:00:00:01");
        let epb = &b[shb + idb0 + idb1.len()..];
        assert_eq!(u32_at(epb, 0), ng::EPB);
        assert_eq!(u32_at(epb, 8), 1, "interface 1");
        assert_eq!(epb.len(), u32_at(epb, 4) as usize, "the last block");

        // Classic pcap: one interface, so others must look the same.
        let mut w = CaptureWriter::new(Vec::new(), CaptureFormat::Pcap, &IFACE, "t").unwrap();
        assert_eq!(w.add_interface(&second).unwrap(), 1);
        let other = Interface {
            fcs_len: 0,
            ..IFACE
        };
        let e = w.add_interface(&other).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        w.write(&record(1)).unwrap();
        assert_eq!(w.finish().unwrap().len(), 24 + 16 + 4);
    }

    #[test]
    fn flags_word() {
        let f = EpbFlags::CRC_ERROR.union(EpbFlags::PACKET_TOO_SHORT);
        assert!(f.contains(EpbFlags::CRC_ERROR));
        assert!(!f.contains(EpbFlags::PACKET_TOO_LONG));
        assert_eq!(f.with_fcs_len(4).fcs_len(), 4);
        assert_eq!(f.with_fcs_len(4).0, (1 << 24) | (1 << 26) | (4 << 5));
        assert_eq!(f.with_fcs_len(4).with_fcs_len(0), f);
    }
}
