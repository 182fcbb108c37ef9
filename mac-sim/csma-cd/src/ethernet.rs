//! Ethernet presets (`mac-sim run --medium`): the half-duplex IEEE 802.3 media, each
//! with its bit rate, slot time, collision-domain length and, at 1000 Mb/s, carrier
//! extension and frame bursting, as the standard defines them.
//!
//! | preset | clauses | bit rate | slotTime | default bus | longest bus | 1000 Mb/s rules |
//! | --- | --- | --- | --- | --- | --- | --- |
//! | `10BASE5` | 8, 13 | 10 Mb/s | 512 bits | 2500 m | 2500 m: five 500 m coax segments joined by four repeaters | – |
//! | `10BASE2` | 10, 13 | 10 Mb/s | 512 bits | 185 m: one segment | 925 m: five 185 m segments | – |
//! | `10BASE-T` | 14, 13 | 10 Mb/s | 512 bits | 200 m: two 100 m links through one hub | 500 m: five 100 m links, four repeaters | – |
//! | `100BASE-TX` | 25, 29 | 100 Mb/s | 512 bits | 200 m: two 100 m links through one hub | 205 m: one class II repeater (29.3) | – |
//! | `1000BASE-T` | 40, 41, 42 | 1000 Mb/s | 4096 bits | 200 m: two 100 m links through one hub | 200 m: one repeater (42.3) | carrier extension; frame bursting, burstLimit 65 536 bits |
//!
//! slotTime, extendSize and burstLimit are the MAC parameters of clause 4.4.2.
//!
//! * **Carrier extension** (clause 4.2.3.4, half duplex at 1000 Mb/s): a
//!   transmission shorter than slotTime, counted from the destination address, is
//!   followed by extension bits up to slotTime (extendSize = 448 octets for the
//!   shortest frame). A collision during the extension is a collision: the frame is
//!   sent again after backoff. The model sends preamble, SFD and
//!   `max(frame, slotTime)` bits.
//! * **Frame bursting** (clause 4.2.3.2.7, optional, half duplex at 1000 Mb/s only):
//!   a station whose frame has gone out without a collision may send further frames
//!   without contending, filling each interframe gap with extension bits so that the
//!   carrier never drops. Only the first frame of a burst is extended. A new frame may
//!   start only while fewer than burstLimit bit times have passed since the burst
//!   began (the start of its first transmission: the `BurstTimer` process of clause
//!   4.2.8); a frame started before that runs to its end. The burst goes on when the
//!   station has its next frame at the end of the previous one (a saturated station
//!   always has); otherwise the carrier drops. On a network within the slot no other
//!   station can start during a burst after its first frame, so collisions happen only
//!   in the first frame and its extension.
//!
//! Every preset keeps the model's one signal speed (2·10⁸ m/s, 0.67 c, unless
//! `--velocity` says otherwise) along the whole collision domain. The repeater, hub and
//! transceiver delays of the standard's delay budgets (clauses 13.4, 29.3.1, 42.3.1)
//! are not modelled: a preset's bus is the cable alone, so its round trip is shorter
//! than the budget the standard allows for the same network.
//!
//! A preset is applied with `RunConfig::with_medium`, which a run's `validate` then
//! holds to the preset's collision domain.
//!
//! ```
//! use csma_cd::{config::RunConfig, ethernet::EthernetMedium};
//! let m: EthernetMedium = "1000base-t".parse().unwrap();
//! let cfg = RunConfig::default().with_medium(m);
//! assert_eq!((cfg.phy.bit_rate, cfg.phy.slot_bits, cfg.bus_length_m), (1_000_000_000, 4096, 200.0));
//! assert!(cfg.phy.carrier_extension);
//! assert_eq!(cfg.phy.burst_limit_bits, 65_536);
//! cfg.validate().unwrap();
//! ```

use backoff_core::ieee802_3;
use serde::{Deserialize, Serialize};

use crate::error::ConfigError;

/// burstLimit at 1000 Mb/s (clause 4.4.2), bit times.
pub const BURST_LIMIT_BITS: u32 = 65_536;

/// A half-duplex IEEE 802.3 medium (see the module docs for the clauses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EthernetMedium {
    /// Thick coaxial bus, 10 Mb/s (clause 8).
    #[serde(rename = "10BASE5")]
    Base5,
    /// Thin coaxial bus, 10 Mb/s (clause 10).
    #[serde(rename = "10BASE2")]
    Base2,
    /// Twisted pair through a hub (repeater), 10 Mb/s (clause 14).
    #[serde(rename = "10BASE-T")]
    BaseT,
    /// Twisted pair through a class II hub, 100 Mb/s (clauses 25, 29).
    #[serde(rename = "100BASE-TX")]
    BaseTx,
    /// Twisted pair through a hub, 1000 Mb/s half duplex (clauses 40, 41, 42).
    #[serde(rename = "1000BASE-T")]
    Base1000T,
}

/// What a preset sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MediumParams {
    /// Bits per second.
    pub bit_rate: u64,
    /// slotTime, bit times.
    pub slot_bits: u32,
    /// The bus length a run gets unless another is given, metres.
    pub default_length_m: f64,
    /// The longest collision domain the standard allows, metres.
    pub max_length_m: f64,
    /// Carrier extension to slotTime (clause 4.2.3.4).
    pub carrier_extension: bool,
    /// burstLimit, bit times; 0: no frame bursting.
    pub burst_limit_bits: u32,
    /// Where the length limit comes from.
    pub clauses: &'static str,
}

impl EthernetMedium {
    /// Every preset, slowest first.
    pub const ALL: [EthernetMedium; 5] = [
        Self::Base5,
        Self::Base2,
        Self::BaseT,
        Self::BaseTx,
        Self::Base1000T,
    ];

    /// The standard's name, e.g. `100BASE-TX`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Base5 => "10BASE5",
            Self::Base2 => "10BASE2",
            Self::BaseT => "10BASE-T",
            Self::BaseTx => "100BASE-TX",
            Self::Base1000T => "1000BASE-T",
        }
    }

    /// The preset's parameters.
    pub fn params(self) -> MediumParams {
        let ten = |default_length_m, max_length_m, clauses| MediumParams {
            bit_rate: 10_000_000,
            slot_bits: ieee802_3::SLOT_BIT_TIMES,
            default_length_m,
            max_length_m,
            carrier_extension: false,
            burst_limit_bits: 0,
            clauses,
        };
        match self {
            Self::Base5 => ten(2500.0, 2500.0, "IEEE 802.3 clauses 8 and 13"),
            Self::Base2 => ten(185.0, 925.0, "IEEE 802.3 clauses 10 and 13"),
            Self::BaseT => ten(200.0, 500.0, "IEEE 802.3 clauses 14 and 13"),
            Self::BaseTx => MediumParams {
                bit_rate: 100_000_000,
                ..ten(200.0, 205.0, "IEEE 802.3 clause 29.3")
            },
            Self::Base1000T => MediumParams {
                bit_rate: 1_000_000_000,
                slot_bits: ieee802_3::SLOT_BIT_TIMES_1G,
                carrier_extension: true,
                burst_limit_bits: BURST_LIMIT_BITS,
                ..ten(200.0, 200.0, "IEEE 802.3 clause 42.3")
            },
        }
    }
}

impl std::fmt::Display for EthernetMedium {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for EthernetMedium {
    type Err = ConfigError;

    /// The standard's name, in any case (`10base-t` is `10BASE-T`).
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        Self::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ConfigError::Medium(s.to_string()))
    }
}
