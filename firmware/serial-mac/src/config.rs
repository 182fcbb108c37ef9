//! The MAC's parameters, in byte times, and why the defaults are what they are.
//!
//! ## Timing on a serial bus
//!
//! Let `B` be one byte time (10 bit times for 8N1) and `p` the polling period of the
//! MAC (the blocking driver polls every `B / 4`). A UART reports a byte only after its
//! stop bit, so:
//!
//! * **Carrier-sense latency**: a station learns that another has started at most
//!   `B + p` after the fact.
//! * **Collision-detection latency**: if station A starts at `t`, station C can still
//!   start until `t + B + p`; the byte A has in flight then ends by `t + 2B + p`, and A
//!   reads it back (garbled) by `t + 2B + 2p = t + 2.5 B`. C, too, learns of the
//!   collision from its first echo, by `t + 2.5 B`.
//! * **Jam**: the jam (default 2 bytes) makes every station that is listening see a
//!   collision rather than a short frame: another `2 B`.
//!
//! A slot must outlast what a transmission in slot `k` needs to be heard by a station
//! that picked slot `k + 1`, including the spread between stations' ends of jam: the
//! detection latency (`2.5 B`), the jam (`2 B`) and the carrier-sense latency
//! (`1.25 B`) add up to `5.75 B`. The default slot is **8 byte times**, the next
//! power of two, which leaves room for interrupt latency. The interframe gap (default
//! **3 byte times**) must exceed the longest silence inside a frame (a transmitter
//! waits for each echo: at most `p` plus the UART's latency), and it also ends a
//! truncated frame at a receiver.

use backoff_core::{BebConfig, SlotTime};
use mac_base::Address;

/// Default interframe gap, in byte times.
pub const DEFAULT_INTERFRAME_GAP: u32 = 3;
/// Default slot time, in byte times (see the module documentation).
pub const DEFAULT_SLOT: u32 = 8;
/// Default jam length, in bytes.
pub const DEFAULT_JAM_LEN: u8 = 2;
/// Default jam byte: all zeros, a long dominant level on an open-drain line.
pub const DEFAULT_JAM_BYTE: u8 = 0x00;
/// Default time to wait for the echo of a byte, in byte times.
pub const DEFAULT_ECHO_TIMEOUT: u32 = 4;
/// Default limit on waiting for an idle line, in byte times: a line busy for this
/// long without one interframe gap is stuck (a frame with 255 payload bytes takes 263).
pub const DEFAULT_DEFER_LIMIT: u32 = 2048;
/// Bits on the line per byte with 8N1 framing (start, 8 data, stop).
pub const BITS_PER_BYTE: u32 = 10;

/// What was wrong with a [`MacConfig`] (see [`ConfigError::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ConfigErrorKind {
    /// The station address is the broadcast address.
    BroadcastAddress,
    /// A baud rate or byte time of zero.
    ZeroByteTime,
    /// A slot, interframe gap or echo timeout of zero byte times.
    ZeroInterval,
}

/// A [`MacConfig`] parameter was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ConfigError {
    kind: ConfigErrorKind,
}

impl ConfigError {
    const fn new(kind: ConfigErrorKind) -> Self {
        Self { kind }
    }

    /// What was wrong.
    pub const fn kind(&self) -> ConfigErrorKind {
        self.kind
    }
}

impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self.kind {
            ConfigErrorKind::BroadcastAddress => {
                "the broadcast address cannot be a station address"
            }
            ConfigErrorKind::ZeroByteTime => "baud rate or byte time of zero",
            ConfigErrorKind::ZeroInterval => "slot, gap or echo timeout of zero byte times",
        })
    }
}

impl core::error::Error for ConfigError {}

/// The MAC's parameters. Build with [`MacConfig::new`], adjust with the `with_*`
/// methods, which check their argument.
///
/// ```
/// use serial_mac::{Address, MacConfig};
/// let config = MacConfig::new(Address(3), 115_200).unwrap().with_slot(16).unwrap();
/// assert_eq!(config.byte_time_ns(), 86_806); // 10 bits at 115 200 baud, rounded up
/// assert_eq!(config.slot_time().as_nanos(), 16 * 86_806);
/// assert!(MacConfig::new(Address::BROADCAST, 115_200).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MacConfig {
    address: Address,
    byte_time_ns: u32,
    interframe_gap: u32,
    slot: u32,
    jam_len: u8,
    jam_byte: u8,
    echo_timeout: u32,
    rx_timeout: u32,
    defer_limit: u32,
    beb: BebConfig,
}

impl MacConfig {
    /// The defaults for a station at `address` on an 8N1 line at `baud`.
    pub const fn new(address: Address, baud: u32) -> Result<Self, ConfigError> {
        if baud == 0 {
            return Err(ConfigError::new(ConfigErrorKind::ZeroByteTime));
        }
        // ceil(10e9 / baud): a byte time never shorter than the real one.
        let byte_time_ns = (BITS_PER_BYTE as u64 * 1_000_000_000).div_ceil(baud as u64);
        let byte_time_ns = if byte_time_ns > u32::MAX as u64 {
            u32::MAX
        } else {
            byte_time_ns as u32
        };
        Self::with_byte_time_ns(address, byte_time_ns)
    }

    /// The defaults, with the byte time given directly in nanoseconds.
    pub const fn with_byte_time_ns(
        address: Address,
        byte_time_ns: u32,
    ) -> Result<Self, ConfigError> {
        if address.is_broadcast() {
            return Err(ConfigError::new(ConfigErrorKind::BroadcastAddress));
        }
        if byte_time_ns == 0 {
            return Err(ConfigError::new(ConfigErrorKind::ZeroByteTime));
        }
        Ok(Self {
            address,
            byte_time_ns,
            interframe_gap: DEFAULT_INTERFRAME_GAP,
            slot: DEFAULT_SLOT,
            jam_len: DEFAULT_JAM_LEN,
            jam_byte: DEFAULT_JAM_BYTE,
            echo_timeout: DEFAULT_ECHO_TIMEOUT,
            rx_timeout: DEFAULT_INTERFRAME_GAP,
            defer_limit: DEFAULT_DEFER_LIMIT,
            beb: BebConfig::IEEE_802_3,
        })
    }

    /// The interframe gap, in byte times (at least 1). Also sets the receive
    /// timeout to the same value; call [`with_rx_timeout`](Self::with_rx_timeout)
    /// afterwards to set it apart.
    pub const fn with_interframe_gap(mut self, byte_times: u32) -> Result<Self, ConfigError> {
        if byte_times == 0 {
            return Err(ConfigError::new(ConfigErrorKind::ZeroInterval));
        }
        self.interframe_gap = byte_times;
        self.rx_timeout = byte_times;
        Ok(self)
    }

    /// The silence, in byte times (at least 1), that ends a frame in progress at the
    /// receiver as truncated (default: the interframe gap). A link that can stall
    /// inside a frame (a USB bridge, an emulator) needs it longer than the gap.
    pub const fn with_rx_timeout(mut self, byte_times: u32) -> Result<Self, ConfigError> {
        if byte_times == 0 {
            return Err(ConfigError::new(ConfigErrorKind::ZeroInterval));
        }
        self.rx_timeout = byte_times;
        Ok(self)
    }

    /// The backoff slot, in byte times (at least 1).
    pub const fn with_slot(mut self, byte_times: u32) -> Result<Self, ConfigError> {
        if byte_times == 0 {
            return Err(ConfigError::new(ConfigErrorKind::ZeroInterval));
        }
        self.slot = byte_times;
        Ok(self)
    }

    /// The time allowed for each echo, in byte times (at least 1).
    pub const fn with_echo_timeout(mut self, byte_times: u32) -> Result<Self, ConfigError> {
        if byte_times == 0 {
            return Err(ConfigError::new(ConfigErrorKind::ZeroInterval));
        }
        self.echo_timeout = byte_times;
        Ok(self)
    }

    /// The jam: `len` bytes (0 for none) of value `byte`.
    pub const fn with_jam(mut self, len: u8, byte: u8) -> Self {
        self.jam_len = len;
        self.jam_byte = byte;
        self
    }

    /// How long a frame may wait for an idle line before it is dropped as
    /// [`DropReason::LineBusy`](crate::DropReason::LineBusy), in byte times; 0 waits
    /// for ever.
    pub const fn with_defer_limit(mut self, byte_times: u32) -> Self {
        self.defer_limit = byte_times;
        self
    }

    /// The backoff rule (default: IEEE 802.3, 16 attempts, window capped at 2^10).
    pub const fn with_beb(mut self, beb: BebConfig) -> Self {
        self.beb = beb;
        self
    }

    /// This station's address.
    pub const fn address(&self) -> Address {
        self.address
    }

    /// One byte time, in nanoseconds.
    pub const fn byte_time_ns(&self) -> u32 {
        self.byte_time_ns
    }

    /// The interframe gap, in byte times.
    pub const fn interframe_gap(&self) -> u32 {
        self.interframe_gap
    }

    /// The backoff slot, in byte times.
    pub const fn slot(&self) -> u32 {
        self.slot
    }

    /// The slot as a [`SlotTime`] for `backoff-core`.
    pub const fn slot_time(&self) -> SlotTime {
        // Both factors are non-zero, so the product is too.
        match SlotTime::from_nanos(self.byte_times_ns(self.slot)) {
            Ok(slot) => slot,
            Err(_) => SlotTime::ETHERNET_10M,
        }
    }

    /// The jam length, in bytes.
    pub const fn jam_len(&self) -> u8 {
        self.jam_len
    }

    /// The jam byte.
    pub const fn jam_byte(&self) -> u8 {
        self.jam_byte
    }

    /// The echo timeout, in byte times.
    pub const fn echo_timeout(&self) -> u32 {
        self.echo_timeout
    }

    /// The receive timeout, in byte times.
    pub const fn rx_timeout(&self) -> u32 {
        self.rx_timeout
    }

    /// The deferral limit, in byte times (0: none).
    pub const fn defer_limit(&self) -> u32 {
        self.defer_limit
    }

    /// The backoff rule.
    pub const fn beb(&self) -> BebConfig {
        self.beb
    }

    /// The receive queue length that loses no frame when the application takes
    /// received frames at least once every `drain_interval_ns`.
    ///
    /// The rule: frames are queued when their last byte arrives, and two frames
    /// finish at least one shortest frame apart on the line (an empty payload:
    /// [`OVERHEAD`](crate::frame::OVERHEAD) bytes, plus the interframe gap). So at
    /// most `ceil(interval / shortest) + 1` frames can finish between two drains.
    /// An application that drains after every poll (the poll-driven loop, or
    /// [`Mac::send_with`](crate::Mac::send_with), which hands frames over as they
    /// arrive) has an interval below one byte time and needs 2.
    ///
    /// ```
    /// use serial_mac::{Address, MacConfig};
    /// let config = MacConfig::new(Address(1), 115_200).unwrap();
    /// assert_eq!(config.rx_queue_len(config.byte_times_ns(1)), 2);
    /// // Draining once a millisecond at 115 200 baud (one shortest frame in 0.95 ms):
    /// assert_eq!(config.rx_queue_len(1_000_000), 3);
    /// ```
    pub const fn rx_queue_len(&self, drain_interval_ns: u64) -> usize {
        let shortest = self.byte_times_ns(crate::frame::OVERHEAD as u32 + self.interframe_gap);
        let shortest = if shortest == 0 { 1 } else { shortest };
        drain_interval_ns.div_ceil(shortest) as usize + 1
    }

    /// `n` byte times in nanoseconds.
    pub const fn byte_times_ns(&self, n: u32) -> u64 {
        self.byte_time_ns as u64 * n as u64
    }
}
