//! Run parameters, their defaults (10 Mb/s IEEE 802.3) and their validation.

use backoff_core::{BebConfig, ieee802_3};
use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::ethernet::EthernetMedium;
use sim_kit::time::{PS_PER_SEC, Time};

/// Where the stations sit along the cable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Placement {
    /// All at one point: no propagation delay between any two.
    Point,
    /// Evenly spread from one end of the bus to the other.
    Even,
    /// Uniformly at random along the bus (from the run's seed).
    Random,
}

impl std::str::FromStr for Placement {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        match s {
            "point" => Ok(Self::Point),
            "even" => Ok(Self::Even),
            "random" => Ok(Self::Random),
            other => Err(ConfigError::Placement(other.to_string())),
        }
    }
}

/// Frame sizes in bytes (destination address to FCS, 64..=1518).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FrameSizes {
    /// Every frame the same size.
    Fixed(u32),
    /// Uniform over `min..=max` bytes.
    Uniform {
        /// Smallest frame, bytes.
        min: u32,
        /// Largest frame, bytes.
        max: u32,
    },
    /// A weighted mix: `(bytes, weight)` pairs.
    Mix(Vec<(u32, u32)>),
}

impl FrameSizes {
    /// The text form of a frame-size specification: `1518`, `64-1518` or `64:7+1518:1`.
    pub fn label(&self) -> String {
        match self {
            FrameSizes::Fixed(b) => b.to_string(),
            FrameSizes::Uniform { min, max } => format!("{min}-{max}"),
            FrameSizes::Mix(v) => v
                .iter()
                .map(|(b, w)| format!("{b}:{w}"))
                .collect::<Vec<_>>()
                .join("+"),
        }
    }

    /// The mean frame size in bits.
    pub fn mean_bits(&self) -> f64 {
        match self {
            Self::Fixed(b) => f64::from(*b) * 8.0,
            Self::Uniform { min, max } => (f64::from(*min) + f64::from(*max)) * 4.0,
            Self::Mix(v) => {
                let w: u64 = v.iter().map(|&(_, w)| u64::from(w)).sum();
                let s: u64 = v.iter().map(|&(b, w)| u64::from(b) * u64::from(w)).sum();
                s as f64 * 8.0 / w.max(1) as f64
            }
        }
    }

    /// The smallest frame, bytes.
    pub fn min_bytes(&self) -> u32 {
        match self {
            Self::Fixed(b) => *b,
            Self::Uniform { min, .. } => *min,
            Self::Mix(v) => v.iter().map(|&(b, _)| b).min().unwrap_or(0),
        }
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let check = |b: u32| {
            if (64..=1518).contains(&b) {
                Ok(())
            } else {
                Err(ConfigError::FrameSize(b))
            }
        };
        match self {
            Self::Fixed(b) => check(*b),
            Self::Uniform { min, max } => {
                check(*min)?;
                check(*max)?;
                if min > max {
                    return Err(ConfigError::FrameSpec(format!("{min}-{max}")));
                }
                Ok(())
            }
            Self::Mix(v) => {
                if v.is_empty() || v.iter().all(|&(_, w)| w == 0) {
                    return Err(ConfigError::FrameSpec("empty mix".into()));
                }
                v.iter().try_for_each(|&(b, _)| check(b))
            }
        }
    }
}

/// How frames arrive at the stations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Traffic {
    /// Every station always has a frame ready.
    Saturated,
    /// Poisson arrivals, total offered load `load` as a fraction of the bit rate
    /// (counting frame bits only), spread evenly over the stations.
    Poisson {
        /// Offered load G.
        load: f64,
    },
}

/// The backoff algorithm run after each collision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackoffAlgorithm {
    /// Truncated binary exponential backoff, decided by `backoff_core`:
    /// window `2^min(c, backoff_limit)`.
    Beb,
    /// A fixed window: `r` uniform in `[0, window)` after every collision.
    Fixed {
        /// Window, slots.
        window: u32,
    },
    /// Polynomial backoff: window `min(c^degree + 1, 2^backoff_limit)`; degree 1 is
    /// linear backoff.
    Polynomial {
        /// Degree of the polynomial.
        degree: u32,
    },
}

impl BackoffAlgorithm {
    /// A legend/label name: `BEB`, `linear`, `poly c^3+1`, `fixed 32`.
    pub fn label(&self) -> String {
        match self {
            BackoffAlgorithm::Beb => "BEB".into(),
            BackoffAlgorithm::Polynomial { degree: 1 } => "linear".into(),
            BackoffAlgorithm::Polynomial { degree } => format!("poly c^{degree}+1"),
            BackoffAlgorithm::Fixed { window } => format!("fixed {window}"),
        }
    }
}

/// How a station times the interframe gap before it transmits (deference).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IfgRule {
    /// IEEE 802.3 clause 4.2.3.2.1 and the Deference process of the clause 4.2.8
    /// Pascal model: the gap starts when the carrier drops at the station's own
    /// position; carrier seen during its first part (`interFrameSpacingPart1`, two
    /// thirds of the gap, 64 bit times at 96) sends the station back to deferring;
    /// carrier that arrives in the second part is ignored and the station transmits
    /// when the gap ends. After the station's own transmission the whole gap is timed
    /// without watching the carrier.
    #[default]
    #[serde(rename = "8023")]
    Ieee8023,
    /// The rule of the model before the split: carrier anywhere in the gap restarts
    /// the whole gap, also after the station's own transmission, and a deferring
    /// station waits for the end of the whole busy period (a momentary drop of the
    /// carrier at its position inside a collision does not start its gap).
    Restart,
    /// No first part (`interFrameSpacingPart1` = 0): once the carrier has dropped at
    /// the station, the gap runs to its end whatever arrives. A comparison point
    /// only.
    None,
}

impl IfgRule {
    /// The option's text form: `8023`, `restart` or `none`.
    pub fn label(&self) -> &'static str {
        match self {
            IfgRule::Ieee8023 => "8023",
            IfgRule::Restart => "restart",
            IfgRule::None => "none",
        }
    }
}

impl std::str::FromStr for IfgRule {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        match s {
            "8023" => Ok(Self::Ieee8023),
            "restart" => Ok(Self::Restart),
            "none" => Ok(Self::None),
            other => Err(ConfigError::IfgRule(other.to_string())),
        }
    }
}

/// When a transmitter that detects a collision starts its jam.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JamRule {
    /// IEEE 802.3 clause 4.2.3.2.4 (collision handling) and the Pascal model's
    /// `TransmitLinkMgmt`: a collision detected during the preamble lets the preamble
    /// and SFD finish, then the 32-bit jam follows.
    #[default]
    Preamble,
    /// The jam starts at once when the collision is detected (a comparison point).
    Immediate,
}

impl JamRule {
    /// The option's text form: `preamble` or `immediate`.
    pub fn label(&self) -> &'static str {
        match self {
            JamRule::Preamble => "preamble",
            JamRule::Immediate => "immediate",
        }
    }
}

impl std::str::FromStr for JamRule {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        match s {
            "preamble" => Ok(Self::Preamble),
            "immediate" => Ok(Self::Immediate),
            other => Err(ConfigError::JamRule(other.to_string())),
        }
    }
}

/// Physical-layer timing, in bit times (and the bit rate).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Phy {
    /// Bits per second.
    pub bit_rate: u64,
    /// Preamble and start frame delimiter, bits.
    pub preamble_bits: u32,
    /// Interframe gap, bits.
    pub ifg_bits: u32,
    /// Jam, bits.
    pub jam_bits: u32,
    /// Slot time (the backoff unit), bits.
    pub slot_bits: u32,
    /// Signal speed along the cable, metres per second.
    pub velocity_m_per_s: f64,
    /// Carrier extension (IEEE 802.3 clause 4.2.3.4, half duplex at 1000 Mb/s): a
    /// transmission shorter than the slot, counted from the destination address, is
    /// extended to the slot, and a collision during the extension is a collision.
    /// See [`ethernet`](crate::ethernet).
    #[serde(default, skip_serializing_if = "is_false")]
    pub carrier_extension: bool,
    /// burstLimit of frame bursting (clause 4.2.3.2.7, half duplex at 1000 Mb/s), bit
    /// times; 0 turns bursting off. See [`ethernet`](crate::ethernet).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub burst_limit_bits: u32,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

impl Default for Phy {
    fn default() -> Self {
        Self {
            bit_rate: 10_000_000,
            preamble_bits: ieee802_3::PREAMBLE_SFD_BITS,
            ifg_bits: ieee802_3::INTERFRAME_GAP_BITS,
            jam_bits: ieee802_3::JAM_BITS,
            slot_bits: ieee802_3::SLOT_BIT_TIMES,
            velocity_m_per_s: 2e8,
            carrier_extension: false,
            burst_limit_bits: 0,
        }
    }
}

/// Every parameter of one run of the exact CSMA/CD model. Its JSON (`serde`) is
/// frozen for the parameters it had when runs' identities were first derived from it,
/// the later ones written only when set: see `crate::config_json`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    /// The Ethernet preset the bit rate, slot and bus came from, if any: its
    /// collision-domain limit is checked (see [`ethernet`](crate::ethernet)).
    pub medium: Option<EthernetMedium>,
    /// Number of stations N.
    pub stations: u32,
    /// Station placement.
    pub placement: Placement,
    /// Seed of the random placement alone; `None`: derived from `seed`, as every
    /// other random choice. With a seed of its own the stations keep their positions
    /// while `seed` (or a sweep's replications) varies the traffic and the backoff.
    pub placement_seed: Option<u64>,
    /// Bus length, metres.
    pub bus_length_m: f64,
    /// Physical-layer timing.
    pub phy: Phy,
    /// Frame sizes.
    pub frames: FrameSizes,
    /// Arrival process.
    pub traffic: Traffic,
    /// Backoff algorithm.
    pub backoff: BackoffAlgorithm,
    /// `backoffLimit`: the window exponent stops growing here (BEB) / caps the window
    /// at `2^backoff_limit` (polynomial).
    pub backoff_limit: u32,
    /// `attemptLimit`: a frame is dropped after this many attempts all collided.
    pub attempt_limit: u32,
    /// Frames a station can hold (including the one being sent), Poisson traffic.
    pub queue_limit: u32,
    /// Simulated duration. (Serialised as `duration_ps`.)
    pub duration: Time,
    /// Warm-up: statistics start at this instant (zero: from the start); shorter
    /// than `duration`. (Serialised as `warmup_ps`.)
    pub warmup: Time,
    /// Seed of every random choice in the run.
    pub seed: u64,
    /// Successes per window for the capture-effect share.
    pub capture_window: u32,
    /// How the interframe gap is timed (deference).
    pub ifg_rule: IfgRule,
    /// When a colliding transmitter starts its jam.
    pub jam_rule: JamRule,
}

impl Default for RunConfig {
    /// 32 saturated stations evenly spread over 2500 m of 10 Mb/s cable, 1518-byte
    /// frames, BEB, 10 simulated seconds, seed 1.
    fn default() -> Self {
        Self {
            medium: None,
            stations: 32,
            placement: Placement::Even,
            placement_seed: None,
            bus_length_m: 2500.0,
            phy: Phy::default(),
            frames: FrameSizes::Fixed(1518),
            traffic: Traffic::Saturated,
            backoff: BackoffAlgorithm::Beb,
            backoff_limit: u32::from(ieee802_3::BACKOFF_LIMIT),
            attempt_limit: ieee802_3::ATTEMPT_LIMIT,
            queue_limit: 100,
            duration: Time::from_secs(10),
            warmup: Time::ZERO,
            seed: 1,
            capture_window: 100,
            ifg_rule: IfgRule::Ieee8023,
            jam_rule: JamRule::Preamble,
        }
    }
}

/// The most stations a run may have.
pub const MAX_STATIONS: u32 = 1 << 22;
/// The largest offered load accepted (100 times the bit rate): beyond it a run would
/// spend all its time refusing frames at full queues.
pub const MAX_LOAD: f64 = 100.0;
/// The largest attempt limit accepted.
pub const MAX_ATTEMPT_LIMIT: u32 = 1024;

/// A validated configuration's timing in picoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// One bit time.
    pub bit: Time,
    /// Preamble + SFD.
    pub preamble: Time,
    /// Interframe gap.
    pub ifg: Time,
    /// The gap's first part (`interFrameSpacingPart1`): two thirds of the gap under
    /// [`IfgRule::Ieee8023`], rounded down to whole bits; zero under
    /// [`IfgRule::None`]; the whole gap under [`IfgRule::Restart`].
    pub ifg_part1: Time,
    /// Jam.
    pub jam: Time,
    /// Slot.
    pub slot: Time,
    /// One-way propagation end to end.
    pub max_prop: Time,
    /// The least a transmission lasts, preamble included: preamble + slot with
    /// carrier extension (IEEE 802.3 clause 4.2.3.4), zero without.
    pub extend_to: Time,
}

impl Timing {
    /// Whether the one-way delay is below preamble + jam + gap, the range in which the
    /// exact model's fast carrier-sense methods are valid (see
    /// [`medium`](crate::exact::medium)); beyond it the model scans every
    /// signal on the cable instead.
    pub fn nearest_neighbour_valid(&self) -> bool {
        self.max_prop < self.preamble + self.jam + self.ifg
    }
}

impl RunConfig {
    /// This configuration on an Ethernet preset: its bit rate, slot, default bus
    /// length, carrier extension and burst limit (the rest unchanged), with the medium
    /// recorded so that [`validate`](Self::validate) holds the run to it.
    pub fn with_medium(self, m: EthernetMedium) -> RunConfig {
        let p = m.params();
        let mut cfg = RunConfig {
            medium: Some(m),
            bus_length_m: p.default_length_m,
            ..self
        };
        cfg.phy.bit_rate = p.bit_rate;
        cfg.phy.slot_bits = p.slot_bits;
        cfg.phy.carrier_extension = p.carrier_extension;
        cfg.phy.burst_limit_bits = p.burst_limit_bits;
        cfg
    }

    /// Whether this is still the medium `m`: the bit rate, slot and carrier extension
    /// the preset sets (frame bursting, optional in the standard, may be changed or
    /// turned off), and a bus within its collision domain.
    fn check_medium(&self, m: EthernetMedium) -> Result<(), ConfigError> {
        let p = m.params();
        let mismatch = |what, preset: String, given: String| {
            Err(ConfigError::MediumMismatch {
                medium: m.name(),
                what,
                preset,
                given,
            })
        };
        let on_off = |b: bool| if b { "on" } else { "off" }.to_string();
        let phy = &self.phy;
        if phy.bit_rate != p.bit_rate {
            return mismatch(
                "bit rate",
                format!("{} b/s", p.bit_rate),
                format!("{} b/s", phy.bit_rate),
            );
        }
        if phy.slot_bits != p.slot_bits {
            return mismatch(
                "slot",
                format!("{} bits", p.slot_bits),
                format!("{} bits", phy.slot_bits),
            );
        }
        if phy.carrier_extension != p.carrier_extension {
            return mismatch(
                "carrier extension",
                on_off(p.carrier_extension),
                on_off(phy.carrier_extension),
            );
        }
        if self.bus_length_m > p.max_length_m {
            return Err(ConfigError::MediumLength {
                medium: m.name(),
                metres: self.bus_length_m,
                max_m: p.max_length_m,
                clauses: p.clauses,
            });
        }
        Ok(())
    }

    /// The BEB rule for these limits (also gives the discard rule of the other
    /// algorithms).
    ///
    /// # Errors
    ///
    /// [`ConfigError::BackoffLimit`] or [`ConfigError::AttemptLimit`] for limits
    /// `backoff-core` cannot use.
    pub fn beb(&self) -> Result<BebConfig, ConfigError> {
        let limit = u8::try_from(self.backoff_limit)
            .map_err(|_| ConfigError::BackoffLimit(self.backoff_limit))?;
        if self.attempt_limit == 0 || self.attempt_limit > MAX_ATTEMPT_LIMIT {
            return Err(ConfigError::AttemptLimit(self.attempt_limit));
        }
        BebConfig::new(limit, self.attempt_limit)
            .map_err(|_| ConfigError::BackoffLimit(self.backoff_limit))
    }

    /// The mean frame time P in bit times (frame bits, no preamble or gap).
    pub fn mean_frame_bits(&self) -> f64 {
        self.frames.mean_bits()
    }

    /// The measured time: the simulated time after the warm-up.
    pub fn measured(&self) -> Time {
        self.duration.saturating_sub(self.warmup)
    }

    /// Check every parameter and derive the timing in picoseconds.
    ///
    /// # Errors
    ///
    /// The first [`ConfigError`] found, naming the parameter and its value.
    pub fn validate(&self) -> Result<Timing, ConfigError> {
        if self.stations == 0 {
            return Err(ConfigError::NoStations);
        }
        if self.stations > MAX_STATIONS {
            return Err(ConfigError::TooManyStations(u64::from(self.stations)));
        }
        self.frames.validate()?;
        let beb = self.beb()?;
        if let Traffic::Poisson { load } = self.traffic {
            if !(load.is_finite() && load > 0.0 && load <= MAX_LOAD) {
                return Err(ConfigError::Load(load.to_string()));
            }
        }
        match self.backoff {
            BackoffAlgorithm::Beb => {}
            BackoffAlgorithm::Fixed { window } => {
                if window == 0 {
                    return Err(ConfigError::FixedWindow);
                }
            }
            BackoffAlgorithm::Polynomial { degree } => {
                if !(1..=8).contains(&degree) {
                    return Err(ConfigError::PolynomialDegree(degree));
                }
            }
        }
        if self.queue_limit == 0 {
            return Err(ConfigError::QueueLimit);
        }
        if self.capture_window == 0 {
            return Err(ConfigError::CaptureWindow);
        }
        if self.warmup >= self.duration && !self.warmup.is_zero() {
            return Err(ConfigError::Warmup {
                warmup_s: self.warmup.as_secs_f64(),
                duration_s: self.duration.as_secs_f64(),
            });
        }
        if self.duration.is_zero() {
            return Err(ConfigError::Duration("0".into()));
        }
        let phy = &self.phy;
        if phy.bit_rate == 0 || phy.bit_rate > PS_PER_SEC {
            return Err(ConfigError::BitRate(phy.bit_rate.to_string()));
        }
        if !(phy.velocity_m_per_s.is_finite() && phy.velocity_m_per_s > 0.0) {
            return Err(ConfigError::Velocity(phy.velocity_m_per_s.to_string()));
        }
        if !(self.bus_length_m.is_finite() && self.bus_length_m >= 0.0) {
            return Err(ConfigError::BusLength(self.bus_length_m));
        }
        if let Some(m) = self.medium {
            self.check_medium(m)?;
        }
        for (name, v, lo, hi) in [
            ("slot", phy.slot_bits, 1, 1 << 20),
            ("preamble", phy.preamble_bits, 0, 1 << 16),
            ("interframe gap", phy.ifg_bits, 0, 1 << 20),
            ("jam", phy.jam_bits, 1, 1 << 16),
        ] {
            if !(lo..=hi).contains(&v) {
                return Err(ConfigError::Timing {
                    name,
                    bits: v,
                    min: lo,
                    max: hi,
                });
            }
        }
        // Bit time rounded to the nearest picosecond (exact for 10/100/1000 Mb/s).
        let bit = Time::from_ps((PS_PER_SEC + phy.bit_rate / 2) / phy.bit_rate);
        let max_prop_f = self.bus_length_m / phy.velocity_m_per_s * PS_PER_SEC as f64;
        if max_prop_f > 1e15 {
            return Err(ConfigError::BusTooLong {
                metres: self.bus_length_m,
                round_trip_bits: f64::INFINITY,
                slot_bits: phy.slot_bits,
                longest_m: 0.0,
            });
        }
        let max_prop = Time::from_ps(max_prop_f.round() as u64);
        let t = Timing {
            bit,
            preamble: bit * u64::from(phy.preamble_bits),
            ifg: bit * u64::from(phy.ifg_bits),
            ifg_part1: bit
                * match self.ifg_rule {
                    IfgRule::Ieee8023 => u64::from(phy.ifg_bits) * 2 / 3,
                    IfgRule::Restart => u64::from(phy.ifg_bits),
                    IfgRule::None => 0,
                },
            jam: bit * u64::from(phy.jam_bits),
            slot: bit * u64::from(phy.slot_bits),
            max_prop,
            extend_to: if phy.carrier_extension {
                bit * u64::from(phy.preamble_bits + phy.slot_bits)
            } else {
                Time::ZERO
            },
        };
        // Validity range of the exact model: every collision is detected by every
        // transmitter in it (no late collisions), so a frame is delivered exactly
        // when its sender detected no collision.
        // With carrier extension the shortest transmission lasts at least the slot.
        let min_frame = t.preamble + bit * 8 * u64::from(self.frames.min_bytes());
        let shortest = min_frame.max(t.extend_to);
        let limit = t.slot.min(shortest);
        if max_prop * 2 > limit {
            // The longest bus whose round trip fits, to 0.1 m below.
            let longest_m =
                (limit.as_ps() as f64 / 2.0 / PS_PER_SEC as f64 * phy.velocity_m_per_s * 10.0)
                    .floor()
                    / 10.0;
            return Err(ConfigError::BusTooLong {
                metres: self.bus_length_m,
                round_trip_bits: 2.0 * max_prop.as_ps() as f64 / bit.as_ps() as f64,
                slot_bits: phy.slot_bits,
                longest_m,
            });
        }
        let max_backoff = t.slot.checked_mul(beb.window(beb.backoff_limit().into()));
        let budget = max_backoff
            .and_then(|b| b.checked_add(self.duration))
            .and_then(|b| b.checked_add(min_frame.max(bit * 8 * 1518) * 4));
        match budget {
            Some(b) if b < Time::from_ps(1 << 62) => {}
            _ => {
                return Err(ConfigError::TooLong {
                    backoff_limit: self.backoff_limit,
                    slot_bits: phy.slot_bits,
                    bit_rate: phy.bit_rate,
                });
            }
        }
        Ok(t)
    }
}
