//! Packet captures: what a monitor on the bus would record of an exact-model run, as a
//! pcapng or pcap file Wireshark and `tshark` open.
//!
//! Built on the [observation hook](crate::exact::Observer): [`PcapWriter`] is an
//! [`Observer`] that turns each attempt into one packet, written through the kit's
//! [capture writer](sim_kit::output::CaptureWriter) (link type Ethernet, nanosecond
//! timestamps).
//!
//! # Who sent it
//!
//! In pcapng each station has an interface of its own, numbered as the station:
//! interface `k` is named (`if_name`) `station k` and described (`if_description`)
//! as `address 02:00:00:xx:xx:xx`, its MAC address, and each packet is written on its
//! sender's interface. Wireshark's display filters `frame.interface_id == 3` and
//! `frame.interface_name == "station 3"` select station 3's packets, even a fragment
//! that holds only jam. Classic pcap has a single interface and no comments: there
//! only a packet's bytes tell (the source address of a delivered frame, or of a
//! fragment whose jam began after it; a fragment of jam alone says nothing).
//!
//! # What a packet looks like
//!
//! * **A delivered frame** is a real Ethernet frame of the frame's size (64 to 1518
//!   bytes, destination address to FCS):
//!
//!   | bytes | field | value |
//!   | --- | --- | --- |
//!   | 0-5 | destination | station `(k + 1) mod N` (the next one along the bus; the last addresses the first, a lone station itself) |
//!   | 6-11 | source | station `k`: `02:00:00:xx:xx:xx`, locally administered unicast, the station number in the low 24 bits |
//!   | 12-13 | EtherType | `0x88b5`, IEEE 802 local experimental EtherType 1 |
//!   | 14-17 | payload | the station number, 32 bits big-endian |
//!   | 18-21 | payload | the station's frame sequence number from 0, 32 bits big-endian (a retransmission repeats it) |
//!   | 22-(n-5) | payload | zeros |
//!   | (n-4)-(n-1) | FCS | CRC-32 of bytes `0..n-4`, least significant byte first, as on the wire (IEEE 802.3 clause 3.2.9) |
//!
//!   In pcapng its `epb_flags` give an FCS length of 4 octets; the classic pcap
//!   header says every frame ends in a 4-byte FCS.
//! * **A collided attempt** is the fragment its sender put on the wire after the
//!   preamble and SFD, in whole bytes: the frame's first bytes up to the start of the
//!   jam, then the 32-bit jam (written as `0x55` bytes, alternating ones and zeros
//!   like the preamble; IEEE 802.3 leaves the jam's content open as long as it is not
//!   the partial frame's CRC), cut where the transmission stopped. It has no valid FCS.
//!   Its original length equals its captured length (the bytes sent). In pcapng it
//!   carries the `epb_flags` link-layer errors *CRC error* and, below 64 bytes,
//!   *packet too short*, FCS length 0, and a comment of `key=value;` tokens:
//!
//!   ```text
//!   collision: from=3; attempt=2; bytes=4; with=1; with=7;
//!   ```
//!
//!   `from` is the sender, `attempt` the attempt's number for its frame (1 for the
//!   first), `bytes` the fragment's length, and one `with=K;` for each other station
//!   whose signal met this one's on the cable (in increasing order): station `b`
//!   started at `s_b` and stopped at `e_b`, `d` apart from station `a`, met `a`'s
//!   signal if `s_a <= e_b + d` and `s_b <= e_a + d` (somewhere between them both
//!   signals were present, if only for an instant), whether its own attempt collided
//!   or not; a station is named once however many of its attempts met this one. A
//!   collision always has at least one. At most [`MAX_NAMED_COLLIDERS`] are named,
//!   the nearest; any more are counted in `others=M;`. The last attempt of a frame
//!   that is then dropped ends in ` dropped;`. Every token ends in `;`, so a display
//!   filter `frame.comment contains "from=3;"` cannot select station 31, nor
//!   `contains "with=7;"` station 71.
//!
//!   Classic pcap has no room for the flags or the comment: a fragment is a short
//!   packet, and Wireshark shows the last 4 bytes of one of 18 bytes or more as a
//!   wrong FCS. Fragments shorter than the 14-byte header are written too (Wireshark
//!   shows them as malformed); with `--jam-rule immediate`
//!   a collision seen inside the preamble can leave no byte at all after the SFD, and
//!   the fragment is then empty.
//!   With carrier extension (1000 Mb/s half duplex) the extension symbols carry no
//!   data and are left out: a collision during the extension shows the whole frame,
//!   its FCS included, followed by the jam. Each frame of a burst is a packet of
//!   its own.
//! * **Drops** write nothing more than their last fragment's comment; **deferrals**
//!   put nothing on the wire and write nothing.
//!
//! # Timestamps
//!
//! A packet is stamped with the instant its first bit after the SFD leaves its sender
//! (transmission start + preamble + SFD), as a monitor at the sender's position
//! stamps the first bit; simulated time zero is the Unix epoch, and picoseconds are
//! truncated to nanoseconds. A real monitor elsewhere on the bus would see it later
//! by the propagation delay, and during a collision would see the overlapping signals
//! garbled: the capture shows what each sender sent.
//!
//! Packets are written in timestamp order (ties by station number). The model reports
//! an attempt when it ends, so a packet waits in a small buffer until no attempt still
//! under way started before it (at most a frame time, plus the jam) and until no
//! attempt starting later can meet it (one end-to-end propagation delay after its
//! end), so the buffer holds what ended within that time, however long the run.
//! Attempts still under way when the run ends are not written, as they are neither
//! delivered nor collided in the results (they are named among the colliders of the
//! attempts they met); the capture covers the whole run, a warm-up included.
//!
//! ```
//! use csma_cd::capture::{CaptureFormat, PcapWriter};
//! use csma_cd::config::RunConfig;
//! use sim_kit::time::Time;
//! let cfg = RunConfig { stations: 3, duration: Time::from_ms(5), ..RunConfig::default() };
//! let w = PcapWriter::new(Vec::new(), CaptureFormat::PcapNg, &cfg).unwrap();
//! let (r, w) = csma_cd::exact::run_with_observer(&cfg, w).unwrap();
//! assert_eq!(w.frames(), r.conservation.delivered);
//! assert_eq!(w.fragments(), r.collided_attempts);
//! let bytes = w.finish().unwrap();
//! assert_eq!(&bytes[..4], &[0x0a, 0x0d, 0x0d, 0x0a]);
//! ```

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::io::{self, Write};

use crate::config::{JamRule, RunConfig};
use crate::error::ConfigError;
use crate::exact::observe::{EventKind, Observer, TraceEvent};
use crate::exact::placement;
pub use sim_kit::output::CaptureFormat;
use sim_kit::output::{CaptureWriter, EpbFlags, Interface, LINKTYPE_ETHERNET, Record};
use sim_kit::time::Time;

/// The EtherType of the frames: IEEE 802 local experimental EtherType 1.
pub const ETHERTYPE: u16 = 0x88b5;
/// The byte written for each byte of jam.
pub const JAM_BYTE: u8 = 0x55;
/// Length of the FCS.
pub const FCS_BYTES: usize = 4;
/// The shortest valid Ethernet frame; shorter fragments are flagged *packet too
/// short*.
pub const MIN_FRAME_BYTES: usize = 64;
/// The most other stations a fragment's comment names (`with=K;`, the nearest
/// first); any more are counted (`others=M;`).
pub const MAX_NAMED_COLLIDERS: usize = 32;

/// The address of station `k`: `02:00:00` (locally administered, unicast) and the
/// station number in the low 24 bits (stations number fewer than 2²⁴).
pub fn station_address(k: u32) -> [u8; 6] {
    let b = k.to_be_bytes();
    [0x02, 0, 0, b[1], b[2], b[3]]
}

/// The station that station `k` of `n` sends its frames to: the next one along the
/// bus, `(k + 1) mod n` (itself when it is alone).
pub fn destination(k: u32, n: u32) -> u32 {
    if n == 0 { k } else { (k + 1) % n }
}

/// Fill `buf` with frame `seq` of station `k` of `n`, `bytes` long (the model's
/// frames are 64 to 1518 bytes), FCS included (see the module docs for its layout).
pub fn build_frame(buf: &mut Vec<u8>, k: u32, n: u32, seq: u32, bytes: usize) {
    frame_head(buf, k, n, seq, bytes.saturating_sub(FCS_BYTES));
    let fcs = crc32fast::hash(buf);
    buf.extend_from_slice(&fcs.to_le_bytes());
}

/// Fill `buf` with the first `len` bytes of frame `seq` of station `k` of `n`, its
/// FCS left out (`len` at most the frame's length less [`FCS_BYTES`]).
pub fn frame_head(buf: &mut Vec<u8>, k: u32, n: u32, seq: u32, len: usize) {
    buf.clear();
    buf.extend_from_slice(&station_address(destination(k, n)));
    buf.extend_from_slice(&station_address(k));
    buf.extend_from_slice(&ETHERTYPE.to_be_bytes());
    buf.extend_from_slice(&k.to_be_bytes());
    buf.extend_from_slice(&seq.to_be_bytes());
    // Cut to `len`, or padded with zeros.
    buf.resize(len, 0);
}

/// Why a [`PcapWriter`] could not be made.
#[derive(Debug)]
pub enum CaptureError {
    /// The configuration is not valid.
    Config(ConfigError),
    /// The file's header could not be written.
    Io(io::Error),
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Config(e) => write!(f, "{e}"),
            Self::Io(e) => write!(f, "cannot write the capture file: {e}"),
        }
    }
}

impl std::error::Error for CaptureError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Config(e) => Some(e),
            Self::Io(e) => Some(e),
        }
    }
}

/// A station's latest attempt.
#[derive(Clone, Copy, Debug, Default)]
struct Attempt {
    /// When its preamble started.
    start: Time,
    /// When it detected a collision.
    detected: Option<Time>,
    /// Its frame's sequence number.
    seq: u32,
    /// The start and end of the attempt before it.
    previous: Option<(Time, Time)>,
}

/// An attempt from its start until its packet is written: under way (no `end`), or
/// ended and waiting for its turn and for its list of colliders to be complete.
#[derive(Clone, Debug)]
struct Held {
    seq: u32,
    /// When its transmission (frame, or fragment and jam) ended.
    end: Option<Time>,
    frame_bytes: u32,
    fragment: Option<Fragment>,
    /// The other stations whose signal met this one's, as (distance, station): the
    /// nearest [`MAX_NAMED_COLLIDERS`], nearest first (ties by station).
    with: Vec<(Time, u32)>,
    /// How many there are in all.
    colliders: u32,
}

impl Held {
    /// Count station `k`, `d` away, among the colliders.
    fn add(&mut self, d: Time, k: u32) {
        self.colliders += 1;
        let at = self.with.partition_point(|&w| w < (d, k));
        if at < MAX_NAMED_COLLIDERS {
            self.with.insert(at, (d, k));
            self.with.truncate(MAX_NAMED_COLLIDERS);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fragment {
    /// Bytes of the frame sent before the jam.
    data: u32,
    /// Bytes after the SFD shown: those of the frame, then the jam.
    sent: u32,
    /// The attempt's number for its frame (1 for the first).
    attempt: u32,
    /// The frame is dropped after this attempt.
    dropped: bool,
}

/// An [`Observer`] that writes the bus as a monitor would capture it (see the module
/// docs) to `W`.
///
/// The observer hook cannot fail, so the first write error is kept, later packets are
/// not written, and [`finish`](Self::finish) returns the error.
#[derive(Debug)]
pub struct PcapWriter<W: Write> {
    out: CaptureWriter<W>,
    stations: u32,
    bit: Time,
    preamble: Time,
    jam_floor: Time,
    /// The end-to-end propagation delay.
    max_prop: Time,
    /// Each station's position (propagation delay from the cable's start).
    positions: Vec<Time>,
    attempts: Vec<Attempt>,
    /// The attempts not yet written, by (start, station): the order of the packets.
    held: BTreeMap<(Time, u32), Held>,
    /// The stations an attempt starting meets, with their distances (reused).
    scratch: Vec<(Time, u32)>,
    /// Attempts started so far.
    starts: u64,
    /// For each station, the number of the last start that met it (so that a start
    /// counts each station it meets once).
    marks: Vec<u64>,
    /// The latest instant the model has reported.
    now: Time,
    frames: u64,
    fragments: u64,
    error: Option<io::Error>,
    buf: Vec<u8>,
    comment: String,
}

impl<W: Write> PcapWriter<W> {
    /// A writer of `format` for runs of `cfg` to `out`; writes the file's header at
    /// once.
    ///
    /// # Errors
    ///
    /// [`CaptureError::Config`] if `cfg` is not valid, [`CaptureError::Io`] if the
    /// header cannot be written.
    pub fn new(w: W, format: CaptureFormat, cfg: &RunConfig) -> Result<Self, CaptureError> {
        let t = cfg.validate().map_err(CaptureError::Config)?;
        // One interface per station, numbered as the stations.
        let (mut name, mut description) = (String::new(), String::new());
        let app = concat!("csma-cd ", env!("CARGO_PKG_VERSION"), " exact model");
        let first = station_interface(0, &mut name, &mut description);
        let mut out = CaptureWriter::new(w, format, &first, app).map_err(CaptureError::Io)?;
        for k in 1..cfg.stations {
            let iface = station_interface(k, &mut name, &mut description);
            out.add_interface(&iface).map_err(CaptureError::Io)?;
        }
        Ok(Self {
            out,
            stations: cfg.stations,
            bit: t.bit,
            preamble: t.preamble,
            jam_floor: match cfg.jam_rule {
                JamRule::Preamble => t.preamble,
                JamRule::Immediate => Time::ZERO,
            },
            max_prop: t.max_prop,
            positions: placement::positions(cfg, t.max_prop),
            attempts: vec![Attempt::default(); cfg.stations as usize],
            held: BTreeMap::new(),
            scratch: Vec::new(),
            starts: 0,
            marks: vec![0; cfg.stations as usize],
            now: Time::ZERO,
            frames: 0,
            fragments: 0,
            error: None,
            buf: Vec::with_capacity(1518),
            comment: String::new(),
        })
    }

    /// Delivered frames captured so far (written, or held until the attempts under
    /// way that started before them have ended).
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Collision fragments captured so far (written or held, as
    /// [`frames`](Self::frames)).
    pub fn fragments(&self) -> u64 {
        self.fragments
    }

    /// Write the packets of the attempts that have ended (those still under way are
    /// left out), flush, and return the writer.
    ///
    /// # Errors
    ///
    /// The first error met while writing, or that of the flush.
    pub fn finish(mut self) -> io::Result<W> {
        let held = std::mem::take(&mut self.held);
        for ((start, k), h) in held {
            if h.end.is_some() {
                self.write(start, k, &h);
            }
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.finish()
    }

    /// Write, in order, the held packets whose turn has come: every attempt that
    /// started before has been written, and no attempt starting from now on can meet
    /// its signal (`now` is past its end plus the end-to-end delay).
    fn release(&mut self) {
        while let Some(entry) = self.held.first_entry() {
            match entry.get().end {
                Some(end) if end + self.max_prop < self.now => {}
                _ => break,
            }
            let ((start, k), h) = entry.remove_entry();
            self.write(start, k, &h);
        }
    }

    /// Write the packet of station `k`'s attempt started at `start` (after a write
    /// error, nothing more).
    fn write(&mut self, start: Time, k: u32, h: &Held) {
        if self.error.is_none() {
            if let Err(e) = self.write_packet(start, k, h) {
                self.error = Some(e);
            }
        }
    }

    fn write_packet(&mut self, start: Time, k: u32, h: &Held) -> io::Result<()> {
        let (n, seq, bytes) = (self.stations, h.seq, h.frame_bytes as usize);
        let time = start + self.preamble;
        let Some(f) = h.fragment else {
            build_frame(&mut self.buf, k, n, seq, bytes);
            return self.out.write(&Record {
                interface: k,
                time,
                data: &self.buf,
                original_len: h.frame_bytes,
                flags: EpbFlags::default().with_fcs_len(FCS_BYTES as u8),
                comment: None,
            });
        };
        // Only the bytes sent: no FCS is computed for a fragment unless its jam began
        // inside the FCS.
        let data = f.data as usize;
        if data + FCS_BYTES <= bytes {
            frame_head(&mut self.buf, k, n, seq, data);
        } else {
            build_frame(&mut self.buf, k, n, seq, bytes);
            self.buf.truncate(data);
        }
        self.buf.resize(f.sent as usize, JAM_BYTE);
        fragment_comment(&mut self.comment, k, &f, h);
        let mut flags = EpbFlags::CRC_ERROR;
        if (f.sent as usize) < MIN_FRAME_BYTES {
            flags = flags.union(EpbFlags::PACKET_TOO_SHORT);
        }
        self.out.write(&Record {
            interface: k,
            time,
            data: &self.buf,
            original_len: f.sent,
            flags,
            comment: Some(&self.comment),
        })
    }

    /// Station `b` starts an attempt at `start`: it meets every held attempt still
    /// under way, and every ended one whose tail has not yet passed it (started no
    /// later than this one, they meet it if `start <= end + d`).
    fn started(&mut self, b: u32, start: Time) {
        let mut new = Held {
            seq: self.attempts[b as usize].seq,
            end: None,
            frame_bytes: 0,
            fragment: None,
            with: Vec::new(),
            colliders: 0,
        };
        let previous = self.attempts[b as usize].previous;
        let positions = &self.positions;
        let pb = positions[b as usize];
        let met = &mut self.scratch;
        met.clear();
        // Each station met is counted once, whichever of its attempts came first.
        self.starts += 1;
        let (stamp, marks) = (self.starts, &mut self.marks);
        for (&(sa, a), h) in self.held.iter_mut() {
            if a == b {
                continue;
            }
            let pa = positions[a as usize];
            let d = pa.max(pb) - pa.min(pb);
            if h.end.is_some_and(|end| start > end + d) {
                continue;
            }
            // The attempts of one station that meet a given one follow each other
            // (they are the ones that overlap an interval), so station `b` is counted
            // once: by the first of them.
            let counted = previous
                .is_some_and(|(ps, pe)| sa <= pe + d && h.end.is_none_or(|end| ps <= end + d));
            if !counted {
                h.add(d, b);
            }
            if marks[a as usize] != stamp {
                marks[a as usize] = stamp;
                met.push((d, a));
            }
        }
        // The nearest, sorted, and how many in all.
        new.colliders = met.len() as u32;
        if met.len() > MAX_NAMED_COLLIDERS {
            met.select_nth_unstable(MAX_NAMED_COLLIDERS);
            met.truncate(MAX_NAMED_COLLIDERS);
        }
        met.sort_unstable();
        new.with.extend_from_slice(met);
        self.held.insert((start, b), new);
    }

    /// An attempt ended (`e` is its `JamEnd` or `Success`): its packet is complete but
    /// for the stations that may still start and meet it.
    fn ended(&mut self, e: &TraceEvent) {
        let (k, end) = (e.station, e.time);
        let a = self.attempts[k as usize];
        let fragment = (e.kind == EventKind::JamEnd).then(|| {
            // Whole bytes after the SFD: those before the jam began, then the jam (cut
            // short if the transmission's end comes first). Of the bytes before the
            // jam only the frame's carry data: carrier extension carries none.
            let sfd_end = a.start + self.preamble;
            let jam_start = a.detected.unwrap_or(end).max(a.start + self.jam_floor);
            let byte = self.bit * 8;
            let sent = end.saturating_sub(sfd_end) / byte;
            let before_jam = (jam_start.saturating_sub(sfd_end) / byte).min(sent);
            let data = before_jam.min(u64::from(e.frame_bits / 8));
            Fragment {
                data: data as u32,
                sent: (data + sent - before_jam) as u32,
                attempt: e.collisions,
                dropped: e.backoff_slots.is_none(),
            }
        });
        match fragment {
            Some(_) => self.fragments += 1,
            None => self.frames += 1,
        }
        self.attempts[k as usize].previous = Some((a.start, end));
        if let Some(h) = self.held.get_mut(&(a.start, k)) {
            h.end = Some(end);
            h.frame_bytes = e.frame_bits / 8;
            h.fragment = fragment;
        }
    }
}

/// The capture interface of station `k`, named `station k` and described by its
/// address, in the two buffers given.
fn station_interface<'a>(
    k: u32,
    name: &'a mut String,
    description: &'a mut String,
) -> Interface<'a> {
    name.clear();
    description.clear();
    let _ = write!(name, "station {k}");
    let a = station_address(k);
    let _ = write!(
        description,
        "address {:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
        a[0], a[1], a[2], a[3], a[4], a[5]
    );
    Interface {
        link_type: LINKTYPE_ETHERNET,
        snap_len: 65535,
        fcs_len: FCS_BYTES as u8,
        name,
        description: Some(description),
    }
}

/// The comment of a fragment of station `k` (see the module docs): `key=value;`
/// tokens, so that a display filter `contains "from=3;"` cannot match station 31.
fn fragment_comment(c: &mut String, k: u32, f: &Fragment, h: &Held) {
    c.clear();
    let _ = write!(
        c,
        "collision: from={k}; attempt={}; bytes={};",
        f.attempt, f.sent
    );
    let mut named: Vec<u32> = h.with.iter().map(|&(_, s)| s).collect();
    named.sort_unstable();
    for s in &named {
        let _ = write!(c, " with={s};");
    }
    let others = h.colliders as usize - named.len();
    if others > 0 {
        let _ = write!(c, " others={others};");
    }
    if f.dropped {
        c.push_str(" dropped;");
    }
}

impl<W: Write> Observer for PcapWriter<W> {
    fn observe(&mut self, e: &TraceEvent) {
        let k = e.station as usize;
        // A collision is reported with the jam's end, at the (earlier) time it was
        // detected; every other event at the model's current time.
        self.now = self.now.max(e.time);
        match e.kind {
            EventKind::Collision => self.attempts[k].detected = Some(e.time),
            EventKind::Transmit => {
                let a = &mut self.attempts[k];
                a.start = e.time;
                a.detected = None;
                self.started(e.station, e.time);
            }
            EventKind::JamEnd => self.ended(e),
            // The frame is done: the next one gets the next sequence number.
            EventKind::Success => {
                self.ended(e);
                self.attempts[k].seq = self.attempts[k].seq.wrapping_add(1);
            }
            EventKind::Drop => self.attempts[k].seq = self.attempts[k].seq.wrapping_add(1),
            EventKind::Defer => {}
        }
        self.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{FrameSizes, Traffic};
    use crate::ethernet::EthernetMedium;
    use crate::exact;
    use pcap_parser::pcapng::Block;
    use pcap_parser::traits::PcapNGPacketBlock;
    use pcap_parser::{PcapCapture, PcapNGCapture};

    /// The frame sizes of [`cfg`]'s runs.
    const SIZES: [usize; 3] = [64, 594, 1518];

    fn cfg(stations: u32, jam_rule: JamRule) -> RunConfig {
        RunConfig {
            stations,
            duration: Time::from_ms(30),
            traffic: Traffic::Poisson { load: 0.9 },
            frames: FrameSizes::Mix(SIZES.iter().map(|&b| (b as u32, 1)).collect()),
            jam_rule,
            seed: 7,
            ..RunConfig::default()
        }
    }

    /// One packet as read back by `pcap-parser`.
    struct Packet {
        interface: u32,
        ns: u64,
        data: Vec<u8>,
        orig: u32,
        comment: Option<String>,
        flags: Option<u32>,
    }

    fn read_pcapng(bytes: &[u8]) -> Vec<Packet> {
        let cap = PcapNGCapture::from_file(bytes).expect("pcap-parser reads the pcapng");
        assert_eq!(cap.sections.len(), 1);
        let mut out = Vec::new();
        let mut interfaces = 0;
        for b in &cap.sections[0].blocks {
            match b {
                Block::SectionHeader(_) => {}
                Block::InterfaceDescription(idb) => {
                    assert_eq!(out.len(), 0, "every interface before the packets");
                    assert_eq!(idb.linktype.0, 1, "Ethernet");
                    assert_eq!(idb.if_tsresol, 9);
                    assert_eq!(idb.ts_resolution(), Some(1_000_000_000));
                    let opt = |code: u16| {
                        let o = idb.options.iter().find(|o| o.code.0 == code).unwrap();
                        o.as_str().unwrap().to_owned()
                    };
                    let k = interfaces;
                    assert_eq!(opt(2), format!("station {k}"), "if_name");
                    let a = station_address(k);
                    let mac = a.map(|b| format!("{b:02x}")).join(":");
                    assert_eq!(opt(3), format!("address {mac}"), "if_description");
                    interfaces += 1;
                }
                Block::EnhancedPacket(epb) => {
                    assert!(epb.if_id < interfaces);
                    let (s, ns) = epb.decode_ts(0, 1_000_000_000);
                    let opt = |code: u16| epb.options.iter().find(|o| o.code.0 == code);
                    out.push(Packet {
                        interface: epb.if_id,
                        ns: u64::from(s) * 1_000_000_000 + u64::from(ns),
                        data: epb.packet_data().to_vec(),
                        orig: epb.orig_len(),
                        comment: opt(1).map(|o| o.as_str().unwrap().to_owned()),
                        flags: opt(2).map(|o| o.as_u32_le().unwrap()),
                    });
                }
                other => panic!("unexpected block {other:?}"),
            }
        }
        out
    }

    fn capture(cfg: &RunConfig, format: CaptureFormat) -> (exact::RunResult, Vec<u8>) {
        let w = PcapWriter::new(Vec::new(), format, cfg).unwrap();
        let (r, w) = exact::run_with_observer(cfg, w).unwrap();
        assert_eq!(w.frames(), r.conservation.delivered);
        assert_eq!(w.fragments(), r.collided_attempts);
        (r, w.finish().unwrap())
    }

    /// Every packet is a valid frame or a marked fragment of one; timestamps never
    /// decrease; counts match the run's results.
    fn check(cfg: &RunConfig) {
        let (r, bytes) = capture(cfg, CaptureFormat::PcapNg);
        let packets = read_pcapng(&bytes);
        assert_eq!(
            packets.len() as u64,
            r.conservation.delivered + r.collided_attempts
        );
        let n = cfg.stations;
        let mut frames = 0;
        let mut dropped = 0;
        let mut per_station_seq = vec![0u32; n as usize];
        let mut last = 0;
        let mut buf = Vec::new();
        for p in &packets {
            assert!(p.ns >= last, "timestamps decrease");
            last = p.ns;
            assert_eq!(p.orig as usize, p.data.len());
            match &p.comment {
                None => {
                    frames += 1;
                    let len = p.data.len();
                    assert!((64..=1518).contains(&len));
                    let (body, fcs) = p.data.split_at(len - 4);
                    assert_eq!(crc32fast::hash(body).to_le_bytes(), fcs);
                    assert_eq!(p.flags, Some(4 << 5), "FCS of 4 octets, no error");
                    let k = u32::from_be_bytes(p.data[14..18].try_into().unwrap());
                    assert!(k < n);
                    assert_eq!(k, p.interface, "on its sender's interface");
                    assert_eq!(&p.data[6..12], &station_address(k));
                    assert_eq!(&p.data[0..6], &station_address((k + 1) % n));
                    assert_eq!(&p.data[12..14], &[0x88, 0xb5]);
                    // Frames of a station carry increasing sequence numbers.
                    let seq = u32::from_be_bytes(p.data[18..22].try_into().unwrap());
                    assert!(seq >= per_station_seq[k as usize]);
                    per_station_seq[k as usize] = seq + 1;
                }
                Some(c) => {
                    let sent = p.data.len();
                    let parsed = Comment::parse(c);
                    dropped += u64::from(parsed.dropped);
                    assert_eq!(parsed.from, p.interface, "{c}");
                    assert_eq!(parsed.bytes, sent, "{c}");
                    assert!((1..=cfg.attempt_limit).contains(&parsed.attempt), "{c}");
                    assert!(!parsed.with.is_empty(), "a collision needs another: {c}");
                    assert!(!parsed.with.contains(&parsed.from), "{c}");
                    assert!(parsed.with.iter().all(|&w| w < n), "{c}");
                    let f = p.flags.unwrap();
                    assert_ne!(f & (1 << 24), 0, "CRC error");
                    assert_eq!(f & (1 << 26) != 0, sent < 64, "too short");
                    assert_eq!((f >> 5) & 0xf, 0, "no FCS");
                    // Its bytes are those of a frame of one of the run's sizes (whole
                    // if the collision came during carrier extension), then jam.
                    if sent >= 22 {
                        let k = u32::from_be_bytes(p.data[14..18].try_into().unwrap());
                        assert_eq!(k, p.interface);
                        let seq = u32::from_be_bytes(p.data[18..22].try_into().unwrap());
                        let same = SIZES
                            .iter()
                            .map(|&size| {
                                build_frame(&mut buf, k, n, seq, size);
                                p.data.iter().zip(&buf).take_while(|(a, b)| a == b).count()
                            })
                            .max()
                            .unwrap();
                        assert!(p.data[same..].iter().all(|&b| b == JAM_BYTE));
                        assert!(sent - same <= 4, "at most the jam after the frame");
                    }
                }
            }
        }
        assert_eq!(frames, r.conservation.delivered);
        assert_eq!(dropped, r.conservation.dropped_excessive);
    }

    /// A fragment's comment, parsed.
    #[derive(Debug, PartialEq)]
    struct Comment {
        from: u32,
        attempt: u32,
        bytes: usize,
        with: Vec<u32>,
        others: u32,
        dropped: bool,
    }

    impl Comment {
        /// Parse `c`, checking its form: `collision: ` then `key=value;` tokens (or
        /// `dropped;`), separated by one space, in the documented order.
        fn parse(c: &str) -> Self {
            let rest = c.strip_prefix("collision: ").expect(c);
            let mut out = Comment {
                from: u32::MAX,
                attempt: 0,
                bytes: 0,
                with: Vec::new(),
                others: 0,
                dropped: false,
            };
            let mut keys = Vec::new();
            for token in rest.split(' ') {
                let token = token.strip_suffix(';').expect(c);
                if token == "dropped" {
                    out.dropped = true;
                    keys.push("dropped");
                    continue;
                }
                let (key, value) = token.split_once('=').expect(c);
                let v: u32 = value.parse().expect(c);
                match key {
                    "from" => out.from = v,
                    "attempt" => out.attempt = v,
                    "bytes" => out.bytes = v as usize,
                    "with" => out.with.push(v),
                    "others" => out.others = v,
                    other => panic!("unknown key {other} in {c}"),
                }
                if keys.last() != Some(&key) {
                    keys.push(key);
                }
            }
            let order = ["from", "attempt", "bytes", "with", "others", "dropped"];
            let positions: Vec<usize> = keys
                .iter()
                .map(|k| order.iter().position(|o| o == k).unwrap())
                .collect();
            assert!(positions.windows(2).all(|w| w[0] < w[1]), "{c}");
            assert!(positions.starts_with(&[0, 1, 2]), "{c}");
            assert!(out.with.windows(2).all(|w| w[0] < w[1]), "{c}");
            assert!(out.with.len() <= MAX_NAMED_COLLIDERS, "{c}");
            assert!(
                out.others == 0 || out.with.len() == MAX_NAMED_COLLIDERS,
                "{c}"
            );
            out
        }
    }

    /// Every event of a run.
    #[derive(Default)]
    struct Events(Vec<TraceEvent>);
    impl Observer for Events {
        fn observe(&mut self, e: &TraceEvent) {
            self.0.push(*e);
        }
    }

    /// The colliders named in each fragment's comment are exactly the stations whose
    /// signal met it, computed by brute force over every pair of attempts of the run
    /// from its events and the stations' positions.
    fn colliders_by_brute_force(cfg: &RunConfig) {
        let w = PcapWriter::new(Vec::new(), CaptureFormat::PcapNg, cfg).unwrap();
        let (r, (events, w)) = exact::run_with_observer(cfg, (Events::default(), w)).unwrap();
        let packets = read_pcapng(&w.finish().unwrap());
        let t = cfg.validate().unwrap();
        let pos = placement::positions(cfg, t.max_prop);
        // (station, start, end or None if under way at the run's end, collided).
        let mut attempts: Vec<(u32, Time, Option<Time>, bool)> = Vec::new();
        let mut current = vec![None; cfg.stations as usize];
        for e in &events.0 {
            let k = e.station as usize;
            match e.kind {
                EventKind::Transmit => {
                    current[k] = Some(attempts.len());
                    attempts.push((e.station, e.time, None, false));
                }
                EventKind::JamEnd | EventKind::Success => {
                    let i = current[k].take().unwrap();
                    attempts[i].2 = Some(e.time);
                    attempts[i].3 = e.kind == EventKind::JamEnd;
                }
                _ => {}
            }
        }
        let mut by_packet = std::collections::HashMap::new();
        let mut collided = 0;
        for (i, &(a, sa, ea, hit)) in attempts.iter().enumerate() {
            let Some(ea) = ea else { continue };
            if !hit {
                continue;
            }
            collided += 1;
            let mut with: Vec<(Time, u32)> = Vec::new();
            for (j, &(b, sb, eb, _)) in attempts.iter().enumerate() {
                if i == j || a == b {
                    continue;
                }
                let (pa, pb) = (pos[a as usize], pos[b as usize]);
                let d = pa.max(pb) - pa.min(pb);
                let eb = eb.unwrap_or(Time::MAX - d);
                if sa <= eb + d && sb <= ea + d && !with.iter().any(|w| w.1 == b) {
                    with.push((d, b));
                }
            }
            with.sort_unstable();
            let total = with.len() as u32;
            with.truncate(MAX_NAMED_COLLIDERS);
            let mut named: Vec<u32> = with.iter().map(|w| w.1).collect();
            named.sort_unstable();
            let ns = (sa + t.preamble).as_ns();
            by_packet.insert((a, ns), (named, total - with.len() as u32));
        }
        assert_eq!(collided, r.collided_attempts);
        let mut checked = 0;
        for p in &packets {
            let Some(c) = &p.comment else { continue };
            let parsed = Comment::parse(c);
            let (named, others) = &by_packet[&(p.interface, p.ns)];
            assert_eq!((&parsed.with, parsed.others), (named, *others), "{c}");
            checked += 1;
        }
        assert_eq!(checked, collided);
        assert!(checked > 0);
    }

    #[test]
    fn fragments_name_the_stations_they_met() {
        // Even placement, random placement (distances of all sizes), one point (all
        // distances zero), saturated (pile-ups of more than the comment names), and
        // a gigabit bus with bursts and carrier extension.
        colliders_by_brute_force(&cfg(12, JamRule::Preamble));
        let mut random = cfg(9, JamRule::Immediate);
        random.placement = crate::config::Placement::Random;
        colliders_by_brute_force(&random);
        let mut point = cfg(5, JamRule::Preamble);
        point.placement = crate::config::Placement::Point;
        colliders_by_brute_force(&point);
        let mut sat = cfg(60, JamRule::Preamble);
        sat.traffic = Traffic::Saturated;
        sat.duration = Time::from_ms(5);
        colliders_by_brute_force(&sat);
        colliders_by_brute_force(
            &cfg(16, JamRule::Preamble).with_medium(EthernetMedium::Base1000T),
        );
    }

    #[test]
    fn a_comment_names_at_most_so_many_and_counts_the_others() {
        let mut h = Held {
            seq: 0,
            end: None,
            frame_bytes: 64,
            fragment: None,
            with: Vec::new(),
            colliders: 0,
        };
        for k in (1..=40u32).rev() {
            h.add(Time::from_ns(u64::from(k % 7)), k);
        }
        let f = Fragment {
            data: 0,
            sent: 4,
            attempt: 3,
            dropped: true,
        };
        let mut c = String::new();
        fragment_comment(&mut c, 0, &f, &h);
        let parsed = Comment::parse(&c);
        assert_eq!(parsed.from, 0);
        assert_eq!((parsed.attempt, parsed.bytes, parsed.dropped), (3, 4, true));
        assert_eq!(parsed.with.len(), MAX_NAMED_COLLIDERS, "{c}");
        assert_eq!(parsed.others, 40 - MAX_NAMED_COLLIDERS as u32);
        // The nearest are named: every one at distance 6 ns is left out.
        assert!(parsed.with.iter().all(|k| k % 7 != 6), "{c}");
        assert!(c.starts_with("collision: from=0; attempt=3; bytes=4; with=1; with=2;"));
        assert!(c.ends_with(" others=8; dropped;"), "{c}");
    }

    #[test]
    fn pcapng_read_back_with_an_independent_parser() {
        check(&cfg(12, JamRule::Preamble));
        check(&cfg(2, JamRule::Preamble));
        let mut sat = cfg(40, JamRule::Immediate);
        sat.traffic = Traffic::Saturated;
        sat.attempt_limit = 3;
        check(&sat);
    }

    #[test]
    fn gigabit_carrier_extension_and_frame_bursts() {
        let c = cfg(16, JamRule::Preamble).with_medium(EthernetMedium::Base1000T);
        assert!(c.phy.carrier_extension && c.phy.burst_limit_bits > 0);
        check(&c);
        // A collision during a short frame's extension: the whole frame, then the jam.
        let (_, bytes) = capture(&c, CaptureFormat::PcapNg);
        let in_extension = read_pcapng(&bytes)
            .iter()
            .filter(|p| p.comment.is_some() && p.data.len() == 64 + 4)
            .filter(|p| crc32fast::hash(&p.data[..64]) == 0x2144_df1c)
            .count();
        assert!(in_extension > 0);
    }

    #[test]
    fn fragments_are_as_long_as_what_was_sent() {
        // Preamble rule: after the SFD at least the 4-byte jam, at most the slot
        // (the round trip fits in it) and the jam.
        let (_, bytes) = capture(&cfg(12, JamRule::Preamble), CaptureFormat::PcapNg);
        let frags: Vec<usize> = read_pcapng(&bytes)
            .iter()
            .filter(|p| p.comment.is_some())
            .map(|p| p.data.len())
            .collect();
        assert!(frags.len() > 50, "{}", frags.len());
        assert!(
            frags.iter().all(|&b| (4..=64 + 4).contains(&b)),
            "{frags:?}"
        );
        // Immediate rule: a jam that begins inside the preamble leaves less.
        let mut c = cfg(40, JamRule::Immediate);
        c.traffic = Traffic::Saturated;
        let (_, bytes) = capture(&c, CaptureFormat::PcapNg);
        let shortest = read_pcapng(&bytes)
            .iter()
            .filter(|p| p.comment.is_some())
            .map(|p| p.data.len())
            .min()
            .unwrap();
        assert!(shortest < 4, "{shortest}");
    }

    #[test]
    fn pcap_carries_the_same_packets_as_pcapng() {
        let c = cfg(6, JamRule::Preamble);
        let (_, ng) = capture(&c, CaptureFormat::PcapNg);
        let (_, legacy) = capture(&c, CaptureFormat::Pcap);
        let cap = PcapCapture::from_file(&legacy).expect("pcap-parser reads the pcap");
        assert!(cap.header.is_nanosecond_precision());
        assert_eq!(cap.header.network.0 & 0xffff, 1, "Ethernet");
        assert_eq!(
            cap.header.network.0 as u32 >> 28,
            2,
            "FCS of 2 16-bit words"
        );
        let ng = read_pcapng(&ng);
        assert_eq!(cap.blocks.len(), ng.len());
        for (a, b) in cap.blocks.iter().zip(&ng) {
            assert_eq!(
                u64::from(a.ts_sec) * 1_000_000_000 + u64::from(a.ts_usec),
                b.ns
            );
            assert_eq!(a.data, &b.data[..]);
            assert_eq!(a.origlen, b.orig);
        }
    }

    #[test]
    fn the_capture_is_deterministic_and_leaves_the_run_unchanged() {
        let c = cfg(8, JamRule::Preamble);
        let (r1, a) = capture(&c, CaptureFormat::PcapNg);
        let (r2, b) = capture(&c, CaptureFormat::PcapNg);
        assert_eq!(a, b);
        assert_eq!(r1, r2);
        assert_eq!(r1, exact::run(&c).unwrap());
    }

    #[test]
    fn a_frame_is_a_valid_ethernet_frame() {
        let mut b = Vec::new();
        build_frame(&mut b, 3, 4, 0x0102_0304, 64);
        assert_eq!(b.len(), 64);
        assert_eq!(
            &b[..6],
            &[2, 0, 0, 0, 0, 0],
            "to the next station, wrapping"
        );
        assert_eq!(&b[6..12], &[2, 0, 0, 0, 0, 3]);
        assert_eq!(&b[12..22], &[0x88, 0xb5, 0, 0, 0, 3, 1, 2, 3, 4]);
        // The CRC-32 residue: the FCS appended as on the wire makes the CRC of the
        // whole frame the constant 0x2144df1c (IEEE 802.3 clause 3.2.9).
        assert_eq!(crc32fast::hash(&b), 0x2144_df1c);
        assert_eq!(station_address(0x12_3456), [2, 0, 0, 0x12, 0x34, 0x56]);
        // Heads of a frame are its prefixes.
        let mut whole = Vec::new();
        build_frame(&mut whole, 5, 9, 77, 1518);
        for len in [0, 3, 14, 21, 22, 23, 60, 1514] {
            frame_head(&mut b, 5, 9, 77, len);
            assert_eq!(b, whole[..len], "{len}");
        }
        assert_eq!(destination(0, 1), 0);
    }

    /// Accepts `.0` more bytes, then fails.
    #[derive(Debug)]
    struct FillsUp(usize);
    impl Write for FillsUp {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if b.len() > self.0 {
                return Err(io::Error::other("disk full"));
            }
            self.0 -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn write_errors_are_reported() {
        let c = cfg(2, JamRule::Preamble);
        let e = PcapWriter::new(FillsUp(0), CaptureFormat::Pcap, &c);
        assert!(matches!(e, Err(CaptureError::Io(_))));
        // The header fits, a later packet does not: the run goes on, the error is kept.
        let w = PcapWriter::new(FillsUp(10_000), CaptureFormat::PcapNg, &c).unwrap();
        let (r, w) = exact::run_with_observer(&c, w).unwrap();
        assert!(r.conservation.delivered > 20, "more than 10 kB of frames");
        assert_eq!(w.finish().unwrap_err().to_string(), "disk full");
        let bad = RunConfig {
            stations: 0,
            ..RunConfig::default()
        };
        let e = PcapWriter::new(Vec::new(), CaptureFormat::Pcap, &bad);
        assert!(matches!(e, Err(CaptureError::Config(_))));
    }
}
