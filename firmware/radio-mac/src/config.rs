//! The MAC's parameters: the air rate and the timings derived from it.
//!
//! ## The slot, and why
//!
//! A backoff slot must be long enough that two stations which pick different slots
//! see each other: the later one's clear channel assessment must detect the earlier
//! one's carrier. That takes the earlier station's receive-to-transmit turnaround
//! plus the later one's CCA time. IEEE 802.15.4-2020 (the 250 kb/s O-QPSK PHY of
//! 2.4 GHz meshes) defines its unit backoff period exactly so:
//! `aUnitBackoffPeriod = aTurnaroundTime + aCcaTime = 12 + 8 = 20` symbols of 16 µs,
//! 320 µs. [`MacConfig::IEEE_802_15_4_2450`] uses those figures; [`MacConfig::new`]
//! takes the turnaround and CCA time of another radio (for a LoRa link, the CAD
//! duration of its spreading factor) and derives the slot the same way.
//!
//! ## The channel-access rule
//!
//! [`MacConfig::access`]: IEEE 802.15.4 unslotted CSMA-CA by default (the standard
//! whose PHY timing the crate uses), the project's earlier rule
//! [`ChannelAccess::Beb`], or (feature `dcf`) a simplified IEEE 802.11 DCF; see
//! [`access`](crate::access).
//!
//! ## The other timings
//!
//! * **SIFS** (turnaround before an ACK) = the turnaround time: an ACK is sent
//!   without carrier sense, as soon as the radio can.
//! * **Interframe space** (carrier sense before data under
//!   [`ChannelAccess::Beb`], and DIFS under the DCF) = SIFS + 2 slots (the form of
//!   IEEE 802.11's DIFS, clause 10.3.2.3): longer than SIFS, so that a waiting data
//!   frame never takes the channel from an ACK that is due. IEEE 802.15.4 CSMA-CA,
//!   the default, has no such wait: one CCA after the random backoff.
//! * **ACK timeout** = SIFS + the ACK's air time + one slot (IEEE 802.11's
//!   `ACKTimeout = aSIFSTime + aSlotTime + aRxPHYStartDelay`, with the whole ACK's
//!   air time because the MAC only sees a packet once it is complete).
//! * **Air time**: the PHY's own ([`Phy::air_time_ns`]): `(n + PHY overhead) * 8 /
//!   bit rate` for a constant-rate PHY, Semtech's time-on-air formula for LoRa
//!   ([`crate::phy`]), so the ACK timeout is right at every spreading factor.
//! * **Duty cycle** (off by default): LoRaMac-node's time credits over one hour; a
//!   data frame waits for its price, an ACK the account cannot pay is withheld
//!   ([`crate::region`]).

use backoff_core::{BebConfig, SlotTime};
use mac_base::Address;

use crate::access::ChannelAccess;
pub use crate::error::{ConfigError, ConfigErrorKind};
use crate::frame::ACK_LEN;
use crate::phy::{ConstantRate, LoRa, Phy};
use crate::region::DutyCycle;

/// The MAC's parameters.
///
/// ```
/// use radio_mac::MacConfig;
/// use mac_base::Address;
/// let c = MacConfig::IEEE_802_15_4_2450.with_address(Address(3)).unwrap();
/// assert_eq!(c.slot().as_nanos(), 320_000);
/// assert_eq!(c.interframe_space_ns(), 192_000 + 640_000);
/// // ACK: 9 bytes + 6 bytes of PHY overhead = 120 bits = 480 µs at 250 kb/s.
/// assert_eq!(c.air_time_ns(9), 480_000);
/// assert_eq!(c.ack_timeout_ns(), 192_000 + 480_000 + 320_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MacConfig {
    address: Address,
    phy: Phy,
    turnaround_ns: u32,
    slot: SlotTime,
    beb: BebConfig,
    busy: BebConfig,
    carrier_sense: bool,
    access: ChannelAccess,
    duty_cycle: DutyCycle,
}

impl MacConfig {
    /// IEEE 802.15.4 O-QPSK at 2.4 GHz: 250 kb/s, PHY overhead 6 bytes (preamble 4,
    /// SFD 1, PHR 1), turnaround 12 symbols (192 µs), CCA 8 symbols (128 µs), slot
    /// 320 µs; IEEE 802.15.4 unslotted CSMA-CA with the standard's defaults
    /// ([`ChannelAccess::DEFAULT`]); station address 1. For the
    /// [`Beb`](ChannelAccess::Beb) rule: the IEEE 802.3 backoff rule (16 attempts,
    /// window capped at 2^10 slots) for both missing ACKs and a busy channel.
    pub const IEEE_802_15_4_2450: Self = Self {
        address: Address(1),
        phy: Phy::IEEE_802_15_4_2450,
        turnaround_ns: 192_000,
        slot: match SlotTime::from_nanos(320_000) {
            Ok(s) => s,
            Err(_) => SlotTime::ETHERNET_10M,
        },
        beb: BebConfig::IEEE_802_3,
        busy: BebConfig::IEEE_802_3,
        carrier_sense: true,
        access: ChannelAccess::DEFAULT,
        duty_cycle: DutyCycle::UNLIMITED,
    };

    /// A radio with this bit rate, PHY overhead (bytes sent before the frame:
    /// preamble, sync word, PHY header), turnaround and CCA time; the slot is
    /// turnaround + CCA time. The rest is [`Self::IEEE_802_15_4_2450`]'s: IEEE
    /// 802.15.4 unslotted CSMA-CA in units of this slot ([`ChannelAccess::DEFAULT`]).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::BroadcastAddress`], [`ConfigErrorKind::ZeroBitRate`],
    /// [`ConfigErrorKind::ZeroSlot`].
    pub const fn new(
        address: Address,
        bit_rate: u32,
        phy_overhead_bytes: u16,
        turnaround_ns: u32,
        cca_ns: u32,
    ) -> Result<Self, ConfigError> {
        match ConstantRate::new(bit_rate, phy_overhead_bytes) {
            Ok(rate) => Self::on_phy(address, Phy::Constant(rate), turnaround_ns, cca_ns),
            Err(e) => Err(e),
        }
    }

    /// A radio with this PHY (its air time), turnaround and CCA time; the slot is
    /// turnaround + CCA time. The rest is [`Self::IEEE_802_15_4_2450`]'s.
    ///
    /// ```
    /// use radio_mac::{Address, Bandwidth, CodingRate, LoRa, MacConfig, Phy};
    /// let sf7 = LoRa::new(7, Bandwidth::Khz125, CodingRate::Cr4_5).unwrap();
    /// // Turnaround one symbol, channel activity detection two.
    /// let c = MacConfig::on_phy(Address(1), Phy::LoRa(sf7), 1_024_000, 2_048_000).unwrap();
    /// assert_eq!(c.air_time_ns(9), 41_216_000); // the 9-byte ACK
    /// assert_eq!(c.ack_timeout_ns(), 1_024_000 + 41_216_000 + 3_072_000);
    /// ```
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::BroadcastAddress`], [`ConfigErrorKind::ZeroSlot`].
    pub const fn on_phy(
        address: Address,
        phy: Phy,
        turnaround_ns: u32,
        cca_ns: u32,
    ) -> Result<Self, ConfigError> {
        if address.is_broadcast() {
            return Err(ConfigError::new(ConfigErrorKind::BroadcastAddress));
        }
        let slot = match SlotTime::from_nanos(turnaround_ns as u64 + cca_ns as u64) {
            Ok(s) => s,
            Err(_) => {
                return Err(ConfigError::new(ConfigErrorKind::ZeroSlot));
            }
        };
        Ok(Self {
            address,
            phy,
            turnaround_ns,
            slot,
            ..Self::IEEE_802_15_4_2450
        })
    }

    /// LoRa at this setting (see [`LoRa`]), timed the way the SX127x binding times
    /// it: a turnaround of one symbol and a CCA (channel activity detection) of two.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::BroadcastAddress`].
    pub const fn lora(address: Address, lora: LoRa) -> Result<Self, ConfigError> {
        let symbol = lora.symbol_ns();
        let turnaround = if symbol > u32::MAX as u64 {
            u32::MAX
        } else {
            symbol as u32
        };
        Self::on_phy(
            address,
            Phy::LoRa(lora),
            turnaround,
            turnaround.saturating_mul(2),
        )
    }

    /// The same parameters for another station.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::BroadcastAddress`].
    pub const fn with_address(mut self, address: Address) -> Result<Self, ConfigError> {
        if address.is_broadcast() {
            return Err(ConfigError::new(ConfigErrorKind::BroadcastAddress));
        }
        self.address = address;
        Ok(self)
    }

    /// The channel-access rule ([`ChannelAccess`]; IEEE 802.15.4 unslotted CSMA-CA by
    /// default). Its parameters were validated when they were built, so this cannot
    /// fail.
    ///
    /// ```
    /// use radio_mac::{ChannelAccess, CsmaCa, MacConfig};
    /// let c = MacConfig::IEEE_802_15_4_2450;
    /// assert_eq!(c.access(), ChannelAccess::DEFAULT);
    /// // Two frame retries instead of three: at most 3 attempts.
    /// let csma = CsmaCa::new(3, 5, 4, 2).unwrap();
    /// let c = c.with_access(ChannelAccess::Ieee802154Unslotted(csma));
    /// assert!(matches!(c.access(), ChannelAccess::Ieee802154Unslotted(p) if p.max_frame_retries() == 2));
    /// // The project's earlier rule, for comparisons:
    /// assert_eq!(c.with_access(ChannelAccess::Beb).access(), ChannelAccess::Beb);
    /// ```
    pub const fn with_access(mut self, access: ChannelAccess) -> Self {
        self.access = access;
        self
    }

    /// The channel-access rule.
    pub const fn access(&self) -> ChannelAccess {
        self.access
    }

    /// The backoff rule after a missing ACK under [`ChannelAccess::Beb`]: its attempt
    /// limit is the retry limit. (The other rules carry their own parameters.)
    pub const fn with_beb(mut self, beb: BebConfig) -> Self {
        self.beb = beb;
        self
    }

    /// The backoff rule after a busy channel under [`ChannelAccess::Beb`]: its attempt
    /// limit is how many busy assessments in a row drop the frame.
    pub const fn with_busy_rule(mut self, busy: BebConfig) -> Self {
        self.busy = busy;
        self
    }

    /// Keep this duty cycle: each transmission pays `air / d` from an account that
    /// fills with time up to one hour (see [`crate::region`]).
    /// [`DutyCycle::UNLIMITED`] by default.
    pub const fn with_duty_cycle(mut self, duty_cycle: DutyCycle) -> Self {
        self.duty_cycle = duty_cycle;
        self
    }

    /// The duty cycle kept.
    pub const fn duty_cycle(&self) -> DutyCycle {
        self.duty_cycle
    }

    /// The PHY.
    pub const fn phy(&self) -> Phy {
        self.phy
    }

    /// Turn carrier sense off (a named simplification for comparisons: ALOHA with
    /// acknowledgements). On by default.
    pub const fn with_carrier_sense(mut self, on: bool) -> Self {
        self.carrier_sense = on;
        self
    }

    /// This station's address.
    pub const fn address(&self) -> Address {
        self.address
    }

    /// The backoff rule after a missing ACK.
    pub const fn beb(&self) -> BebConfig {
        self.beb
    }

    /// The backoff rule after a busy channel.
    pub const fn busy_rule(&self) -> BebConfig {
        self.busy
    }

    /// Whether carrier sense is on.
    pub const fn carrier_sense(&self) -> bool {
        self.carrier_sense
    }

    /// The backoff slot.
    pub const fn slot(&self) -> SlotTime {
        self.slot
    }

    /// SIFS: the wait before an ACK.
    pub const fn sifs_ns(&self) -> u64 {
        self.turnaround_ns as u64
    }

    /// The interframe space: SIFS + 2 slots of idle channel before data.
    pub const fn interframe_space_ns(&self) -> u64 {
        self.sifs_ns()
            .saturating_add(self.slot.as_nanos().saturating_mul(2))
    }

    /// Air time of a packet of `bytes` bytes, PHY overhead included: the PHY's
    /// ([`Phy::air_time_ns`]).
    pub const fn air_time_ns(&self, bytes: usize) -> u64 {
        self.phy.air_time_ns(bytes)
    }

    /// How long a sender waits for an ACK once its frame has left.
    pub const fn ack_timeout_ns(&self) -> u64 {
        self.sifs_ns()
            .saturating_add(self.air_time_ns(ACK_LEN))
            .saturating_add(self.slot.as_nanos())
    }
}
