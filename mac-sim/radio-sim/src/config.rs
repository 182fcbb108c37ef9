//! The parameters of a run: one [`RadioConfig`], built once (from the defaults, a
//! scenario file, the command line or a sweep point, all through
//! [`crate::scenario::Scenario`]) and read by everything else.
//!
//! The channel-access rule is the one place that knows radio-mac's configuration
//! API: [`mac_config`] maps a [`RuleConfig`] (the rule's name and its parameters) to
//! a [`MacConfig`].

use core::fmt;

use radio_mac::config::ConfigErrorKind;
use radio_mac::frame::OVERHEAD;
use radio_mac::phy::{Bandwidth, CodingRate, LoRa};
use radio_mac::{Address, ChannelAccess, Countdown, CsmaCa, Dcf, DutyCycle, MacConfig};
use serde::Serialize;
use sim_kit::time::Time;

/// The longest PHY payload of any PHY modelled, in bytes: LoRa's 255 (IEEE
/// 802.15.4's `aMaxPhyPacketSize` is 127; [`Phy::max_packet`]).
pub const MAX_PHY_PACKET: usize = 255;
/// The longest payload a frame can carry on any PHY: [`MAX_PHY_PACKET`] minus
/// radio-mac's header and frame check ([`OVERHEAD`] = 9 bytes), 246 bytes (118 on
/// IEEE 802.15.4, [`Phy::max_payload`]).
pub const MAX_PAYLOAD: usize = MAX_PHY_PACKET - OVERHEAD;
/// The shortest payload: the driver writes a 4-byte frame number into every payload,
/// by which the receiver checks that each delivered frame arrived exactly once.
pub const MIN_PAYLOAD: usize = 4;
/// The most stations: radio-mac's addresses are one byte and 0xFF is broadcast;
/// station `i` has address `i + 1`.
pub const MAX_STATIONS: u16 = 254;

/// The PHY: its air time, slot and turnaround, and the defaults of the parameters
/// that depend on it (capture, path loss).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phy {
    /// IEEE 802.15.4-2020 O-QPSK at 2.4 GHz (clause 12): 250 kb/s, 127-byte packets,
    /// turnaround 192 µs, unit backoff period 320 µs
    /// ([`MacConfig::IEEE_802_15_4_2450`]).
    #[default]
    #[serde(rename = "ieee802154-2450")]
    Ieee802154_2450,
    /// LoRa on a Semtech SX127x, timed as the radio board's firmware times it
    /// (`sx127x_radio::Settings::mac_config`): Semtech's time on air, a turnaround of
    /// one symbol, channel activity detection of two, 255-byte packets.
    Lora,
}

impl Phy {
    /// The name used in files, on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ieee802154_2450 => "ieee802154-2450",
            Self::Lora => "lora",
        }
    }

    /// The longest payload of a frame: the PHY's packet minus radio-mac's 9 bytes.
    pub const fn max_payload(self) -> usize {
        self.max_packet() - OVERHEAD
    }

    /// The longest PHY packet: 127 bytes (IEEE 802.15.4's `aMaxPhyPacketSize`) or
    /// 255 (the SX127x's FIFO).
    pub const fn max_packet(self) -> usize {
        match self {
            Self::Ieee802154_2450 => radio_mac::Phy::IEEE_802_15_4_2450.max_packet(),
            Self::Lora => radio_mac::Phy::LoRa(LoRa::SF7_BW125).max_packet(),
        }
    }

    /// The capture threshold when `capture_db` is left to the PHY: none for IEEE
    /// 802.15.4; 6 dB for LoRa, the power threshold Bor et al. measured for two
    /// packets of one spreading factor and use in LoRaSim ("Do LoRa low-power
    /// wide-area networks scale?", MSWiM 2016, section 3.3).
    pub const fn capture_db(self) -> Option<f64> {
        match self {
            Self::Ieee802154_2450 => None,
            Self::Lora => Some(6.0),
        }
    }

    /// Path loss at 1 m, dB, when `reference_loss` is left to the PHY: 40.2 (free
    /// space at 2.45 GHz, `20 log10(4 pi / lambda)`); for LoRa at 868 MHz the
    /// log-distance fit of Petäjäjärvi et al. (ITST 2015) that Bor et al. use,
    /// PL(40 m) = 127.41 dB with exponent 2.08, carried to 1 m:
    /// `127.41 - 20.8 log10(40)` = 94.09 dB (the same loss at every distance of 40 m
    /// and more; shadowing, their sigma of 3.57 dB, is not modelled).
    pub fn reference_loss_db(self) -> f64 {
        match self {
            Self::Ieee802154_2450 => 40.2,
            Self::Lora => 127.41 - 20.8 * 40f64.log10(),
        }
    }

    /// The path-loss exponent when it is left to the PHY: 3 at 2.4 GHz (outdoor and
    /// obstructed indoor links measure 2.7 to 3.5), 2.08 for LoRa at 868 MHz
    /// (Petäjäjärvi et al., as above).
    pub const fn path_loss_exponent(self) -> f64 {
        match self {
            Self::Ieee802154_2450 => 3.0,
            Self::Lora => 2.08,
        }
    }
}

/// A LoRa setting's text forms: the bandwidth in kHz as the SX127x datasheet writes
/// it (`125`, `7.8`), the coding rate as `4/5`.
pub const BANDWIDTHS: [(&str, Bandwidth); 10] = [
    ("7.8", Bandwidth::Khz7_8),
    ("10.4", Bandwidth::Khz10_4),
    ("15.6", Bandwidth::Khz15_6),
    ("20.8", Bandwidth::Khz20_8),
    ("31.25", Bandwidth::Khz31_25),
    ("41.7", Bandwidth::Khz41_7),
    ("62.5", Bandwidth::Khz62_5),
    ("125", Bandwidth::Khz125),
    ("250", Bandwidth::Khz250),
    ("500", Bandwidth::Khz500),
];

/// The coding rates by name.
pub const CODING_RATES: [(&str, CodingRate); 4] = [
    ("4/5", CodingRate::Cr4_5),
    ("4/6", CodingRate::Cr4_6),
    ("4/7", CodingRate::Cr4_7),
    ("4/8", CodingRate::Cr4_8),
];

/// The text of a bandwidth (kHz).
pub fn bandwidth_name(b: Bandwidth) -> &'static str {
    BANDWIDTHS
        .iter()
        .find(|(_, v)| *v == b)
        .map_or("125", |(n, _)| n)
}

/// The text of a coding rate.
pub fn coding_rate_name(c: CodingRate) -> &'static str {
    CODING_RATES
        .iter()
        .find(|(_, v)| *v == c)
        .map_or("4/5", |(n, _)| n)
}

fn bandwidth_key<S: serde::Serializer>(b: &Bandwidth, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(bandwidth_name(*b))
}

fn coding_rate_key<S: serde::Serializer>(c: &CodingRate, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(coding_rate_name(*c))
}

/// A parameter whose default is the PHY's: `None` = the PHY's, `Some(v)` = set.
fn phy_or_key<S: serde::Serializer, T: Serialize>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.serialize_some(v),
        None => s.serialize_str("phy"),
    }
}

/// Who hears whom (see the crate docs for the powers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topology {
    /// Everyone hears everyone, at the fixed power.
    All,
    /// Stations on a line `spacing` apart; `i` hears `i - 1` and `i + 1` only.
    Line,
    /// Everyone hears the sink (station 0) only: the others are hidden from each
    /// other.
    Star,
    /// A random geometric graph: positions uniform in a square of side `area`, a link
    /// when the distance is at most `radius`.
    Random,
    /// Positions given in a scenario file (`[[station]]`), a link when the distance
    /// is at most `radius`.
    Positions,
}

impl Topology {
    /// The name used in files, on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Line => "line",
            Self::Star => "star",
            Self::Random => "random",
            Self::Positions => "positions",
        }
    }
}

/// How frames arrive at the senders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Traffic {
    /// Every sender always has a frame waiting.
    Saturated,
    /// Poisson arrivals: aggregate offered load `load` (see [`RadioConfig::load`]).
    Poisson,
}

impl Traffic {
    /// The name used in files, on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Saturated => "saturated",
            Self::Poisson => "poisson",
        }
    }
}

/// Where a sender's frames go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Destination {
    /// Station 0, the sink (which sends nothing).
    Sink,
    /// A station the sender hears, drawn uniformly for every frame.
    Neighbour,
}

impl Destination {
    /// The name used in files, on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Sink => "sink",
            Self::Neighbour => "neighbour",
        }
    }
}

/// The channel-access rule by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// IEEE 802.15.4 unslotted CSMA/CA (`min_be`, `max_be`, `max_csma_backoffs`,
    /// `max_frame_retries`): the default.
    #[default]
    Ieee802154,
    /// IEEE 802.3 truncated binary exponential backoff after a busy channel and after
    /// a missing ACK: radio-mac's rule today.
    Beb,
    /// An IEEE 802.11 DCF-like rule (`cw_min`, `max_stage`, `retry_limit`).
    Dcf,
}

impl Rule {
    /// The name used in files, on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ieee802154 => "ieee802154",
            Self::Beb => "beb",
            Self::Dcf => "dcf",
        }
    }
}

/// A channel-access rule and its parameters; a parameter left out takes the rule's
/// default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RuleConfig {
    /// The rule.
    pub rule: Rule,
    /// IEEE 802.15.4 `macMinBE`.
    pub min_be: Option<u32>,
    /// IEEE 802.15.4 `macMaxBE`.
    pub max_be: Option<u32>,
    /// IEEE 802.15.4 `macMaxCSMABackoffs`.
    pub max_csma_backoffs: Option<u32>,
    /// IEEE 802.15.4 `macMaxFrameRetries`.
    pub max_frame_retries: Option<u32>,
    /// DCF `CWmin` (slots).
    pub cw_min: Option<u32>,
    /// DCF: the backoff stage at which the window stops doubling.
    pub max_stage: Option<u32>,
    /// DCF: the retry limit.
    pub retry_limit: Option<u32>,
    /// DCF: how the counter counts down.
    #[serde(serialize_with = "countdown_key")]
    pub countdown: Option<Countdown>,
}

/// The DCF countdowns by the name the key `countdown` gives them.
pub const COUNTDOWNS: [(&str, Countdown); 2] = [
    ("virtual-slots", Countdown::VirtualSlots),
    ("idle-slots", Countdown::IdleSlots),
];

/// The key value of `countdown`.
pub fn countdown_name(countdown: Countdown) -> &'static str {
    match countdown {
        Countdown::VirtualSlots => COUNTDOWNS[0].0,
        Countdown::IdleSlots => COUNTDOWNS[1].0,
    }
}

/// Serialise a countdown by its key value (`None` when left to the rule's default).
fn countdown_key<S: serde::Serializer>(c: &Option<Countdown>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_some(countdown_name(*c)),
        None => s.serialize_none(),
    }
}

impl RuleConfig {
    /// The parameters that are set, by key.
    pub fn parameters(&self) -> Vec<(&'static str, u32)> {
        [
            ("min_be", self.min_be),
            ("max_be", self.max_be),
            ("max_csma_backoffs", self.max_csma_backoffs),
            ("max_frame_retries", self.max_frame_retries),
            ("cw_min", self.cw_min),
            ("max_stage", self.max_stage),
            ("retry_limit", self.retry_limit),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect()
    }
}

/// The MAC configuration of `rule`: the one mapping from rule names and parameters to
/// radio-mac's [`MacConfig`] (every station then gets its own address), on the
/// timing of `base` (the PHY's, [`RadioConfig::phy_config`]).
///
/// * `ieee802154`: [`ChannelAccess::Ieee802154Unslotted`], IEEE 802.15.4-2020 unslotted
///   CSMA-CA (clause 6.2.5.1), the parameters left out at the standard's defaults
///   ([`CsmaCa::IEEE_802_15_4`]: macMinBE 3, macMaxBE 5, macMaxCSMABackoffs 4,
///   macMaxFrameRetries 3).
/// * `beb`: [`ChannelAccess::Beb`], IEEE 802.3 truncated binary exponential backoff after
///   a busy channel and after a missing ACK (radio-mac's earlier rule); no parameters.
/// * `dcf`: [`ChannelAccess::DcfLike`], the IEEE 802.11 DCF as Bianchi (2000) models it,
///   the parameters left out at [`Dcf::BIANCHI`] (`cw_min` 32, `max_stage` 5,
///   `retry_limit` 7).
///
/// # Errors
///
/// [`ConfigError::RuleParameter`] for a parameter the rule does not take,
/// [`ConfigError::Value`] for one outside the range radio-mac accepts (the standard's).
pub fn mac_config(rule: &RuleConfig, base: MacConfig) -> Result<MacConfig, ConfigError> {
    const CSMA_KEYS: [&str; 4] = ["min_be", "max_be", "max_csma_backoffs", "max_frame_retries"];
    const DCF_KEYS: [&str; 4] = ["cw_min", "max_stage", "retry_limit", "countdown"];
    let takes: &[&str] = match rule.rule {
        Rule::Ieee802154 => &CSMA_KEYS,
        Rule::Beb => &[],
        Rule::Dcf => &DCF_KEYS,
    };
    let countdown = rule.countdown.map(|_| ("countdown", 0));
    let given = rule.parameters().into_iter().chain(countdown);
    if let Some((key, _)) = given.into_iter().find(|(k, _)| !takes.contains(k)) {
        return Err(ConfigError::RuleParameter {
            rule: rule.rule.name(),
            key,
        });
    }
    let small = |key: &'static str, v: Option<u32>, default: u8| -> Result<u8, ConfigError> {
        v.map_or(Ok(default), |v| {
            u8::try_from(v).map_err(|_| ConfigError::Value {
                key,
                problem: format!("{v} is out of range"),
            })
        })
    };
    let refused = |key: &'static str, e: radio_mac::config::ConfigError| ConfigError::Value {
        key,
        problem: e.to_string(),
    };
    let access = match rule.rule {
        Rule::Beb => ChannelAccess::Beb,
        Rule::Ieee802154 => {
            let d = CsmaCa::IEEE_802_15_4;
            let min_be = small("min_be", rule.min_be, d.min_be())?;
            let max_be = small("max_be", rule.max_be, d.max_be())?;
            let backoffs = small(
                "max_csma_backoffs",
                rule.max_csma_backoffs,
                d.max_csma_backoffs(),
            )?;
            let retries = small(
                "max_frame_retries",
                rule.max_frame_retries,
                d.max_frame_retries(),
            )?;
            let csma = CsmaCa::new(min_be, max_be, backoffs, retries).map_err(|e| {
                let key = match e.kind() {
                    ConfigErrorKind::CsmaBackoffs => "max_csma_backoffs",
                    ConfigErrorKind::FrameRetries => "max_frame_retries",
                    _ if rule.max_be.is_some() => "max_be",
                    _ => "min_be",
                };
                refused(key, e)
            })?;
            ChannelAccess::Ieee802154Unslotted(csma)
        }
        Rule::Dcf => {
            let d = Dcf::BIANCHI;
            let cw_min = match rule.cw_min {
                None => d.cw_min(),
                Some(v) => u16::try_from(v).map_err(|_| ConfigError::Value {
                    key: "cw_min",
                    problem: format!("{v} is out of range (at most 65535 slots)"),
                })?,
            };
            let max_stage = small("max_stage", rule.max_stage, d.max_stage())?;
            let retry_limit = rule.retry_limit.unwrap_or(d.retry_limit());
            let dcf = Dcf::new(cw_min, max_stage, retry_limit).map_err(|e| {
                let key = match e.kind() {
                    ConfigErrorKind::ZeroWindow => "cw_min",
                    _ => "max_stage",
                };
                refused(key, e)
            })?;
            ChannelAccess::DcfLike(dcf.with_countdown(rule.countdown.unwrap_or(d.countdown())))
        }
    };
    Ok(base.with_access(access))
}

/// A position in metres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Position {
    /// East, metres.
    pub x: f64,
    /// North, metres.
    pub y: f64,
}

/// Everything a run needs (see [`crate::scenario::FIELDS`] for every key, its
/// unit and default).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RadioConfig {
    /// Stations, the sink (station 0) included.
    pub stations: u16,
    /// Who hears whom.
    pub topology: Topology,
    /// Link range of `random` and `positions`, metres.
    pub radius_m: f64,
    /// Side of the square of `random`, metres.
    pub area_m: f64,
    /// Distance between neighbours of `line`, metres.
    pub spacing_m: f64,
    /// Positions of `positions` (from a scenario file), one per station.
    pub positions: Vec<Position>,
    /// The PHY.
    pub phy: Phy,
    /// LoRa: the spreading factor, 7 to 12.
    pub spreading_factor: u8,
    /// LoRa: the bandwidth.
    #[serde(serialize_with = "bandwidth_key")]
    pub bandwidth: Bandwidth,
    /// LoRa: the coding rate.
    #[serde(serialize_with = "coding_rate_key")]
    pub coding_rate: CodingRate,
    /// LoRa: the programmed preamble, symbols (4.25 more go on the air).
    pub preamble: u16,
    /// The duty cycle every station keeps, percent (radio-mac's time credits,
    /// [`radio_mac::region`]); `None`: no limit.
    pub duty_cycle_pct: Option<f64>,
    /// Transmit power, dBm.
    pub tx_power_dbm: f64,
    /// Path loss at the reference distance of 1 m, dB; `None`: the PHY's
    /// ([`Phy::reference_loss_db`]).
    #[serde(serialize_with = "phy_or_key")]
    pub reference_loss_db: Option<f64>,
    /// Path-loss exponent; `None`: the PHY's ([`Phy::path_loss_exponent`]).
    #[serde(serialize_with = "phy_or_key")]
    pub path_loss_exponent: Option<f64>,
    /// The received power of every link when no positions exist (`all`, `star`), dBm.
    pub fixed_rx_dbm: f64,
    /// How frames arrive.
    pub traffic: Traffic,
    /// Poisson: the aggregate offered load G, the senders' offered data air time as a
    /// fraction of the channel time.
    pub load: f64,
    /// Where frames go.
    pub to: Destination,
    /// Payload bytes per frame.
    pub payload: u16,
    /// Frames each sender's host queue holds (the frame inside the MAC not counted).
    pub queue: u32,
    /// Probability that an arrival that would be intact is lost, per receiver.
    pub loss: f64,
    /// Capture threshold, dB: `Some(None)` for no capture, `None` for the PHY's
    /// ([`Phy::capture_db`]).
    #[serde(serialize_with = "phy_or_key")]
    pub capture_db: Option<Option<f64>>,
    /// From a transmission's start to when the listeners' CCA sees it: `None` for the
    /// MAC's turnaround time.
    pub cca_delay: Option<Time>,
    /// The clear-channel assessment's energy threshold, dBm: a station's carrier
    /// sense sees a transmission it hears only when it arrives at least this strong
    /// (IEEE 802.15.4-2020 clause 10.2.7, CCA mode 1; the standard allows at most
    /// 10 dB above the receiver's sensitivity, -85 dBm at 2.4 GHz). `None`: every
    /// transmission a station hears.
    pub cca_threshold_dbm: Option<f64>,
    /// The channel-access rule.
    pub rule: RuleConfig,
    /// Simulated time before the measurement.
    pub warmup: Time,
    /// Simulated time measured, after the warm-up.
    pub duration: Time,
    /// Seed of every random choice.
    pub seed: u64,
}

impl Default for RadioConfig {
    fn default() -> Self {
        Self {
            stations: 10,
            topology: Topology::All,
            radius_m: 30.0,
            area_m: 100.0,
            spacing_m: 10.0,
            positions: Vec::new(),
            phy: Phy::Ieee802154_2450,
            spreading_factor: 7,
            bandwidth: Bandwidth::Khz125,
            coding_rate: CodingRate::Cr4_5,
            preamble: 8,
            duty_cycle_pct: None,
            tx_power_dbm: 0.0,
            reference_loss_db: None,
            path_loss_exponent: None,
            fixed_rx_dbm: -60.0,
            traffic: Traffic::Saturated,
            load: 0.4,
            to: Destination::Sink,
            payload: 50,
            queue: 64,
            loss: 0.0,
            capture_db: None,
            cca_delay: None,
            cca_threshold_dbm: None,
            rule: RuleConfig::default(),
            warmup: Time::from_secs(1),
            duration: Time::from_secs(10),
            seed: 1,
        }
    }
}

impl RadioConfig {
    /// Check every value's range, the combination of values and the rule; returns
    /// the MAC configuration. The one place a radio run's ranges are checked, for
    /// every door.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] saying which key is wrong: the first in the table's order
    /// whose value is out of range, then the rule's parameters, then the
    /// combination.
    pub fn validate(&self) -> Result<MacConfig, ConfigError> {
        self.check_ranges()?;
        let mac = mac_config(&self.rule, self.phy_config()?)?;
        if self.stations < 2 || self.stations > MAX_STATIONS {
            return Err(ConfigError::Value {
                key: "stations",
                problem: format!("{} must be 2 to {MAX_STATIONS}", self.stations),
            });
        }
        let payload = usize::from(self.payload);
        let max = self.phy.max_payload();
        if !(MIN_PAYLOAD..=max).contains(&payload) {
            return Err(ConfigError::Value {
                key: "payload",
                problem: format!(
                    "{payload} must be {MIN_PAYLOAD} to {max} bytes (phy {})",
                    self.phy.name()
                ),
            });
        }
        if self.topology == Topology::Positions {
            if self.positions.len() != usize::from(self.stations) {
                return Err(ConfigError::Value {
                    key: "stations",
                    problem: format!(
                        "{} stations but {} positions ([[station]] tables)",
                        self.stations,
                        self.positions.len()
                    ),
                });
            }
        } else if !self.positions.is_empty() {
            return Err(ConfigError::Value {
                key: "topology",
                problem: format!(
                    "positions ([[station]] tables) need topology \"positions\", not \"{}\"",
                    self.topology.name()
                ),
            });
        }
        Ok(mac)
    }

    /// Each value alone against its range, in the table's order.
    fn check_ranges(&self) -> Result<(), ConfigError> {
        let real = |key: &'static str, x: f64, ok: bool, range: &str| {
            if x.is_finite() && ok {
                Ok(())
            } else {
                Err(ConfigError::Value {
                    key,
                    problem: format!("{x} is not {range}"),
                })
            }
        };
        let above_zero = |key, x: f64| real(key, x, x > 0.0, "above 0");
        let at_least_zero = |key, x: f64| real(key, x, x >= 0.0, "0 or more");
        above_zero("radius", self.radius_m)?;
        above_zero("area", self.area_m)?;
        above_zero("spacing", self.spacing_m)?;
        real(
            "tx_power",
            self.tx_power_dbm,
            true,
            "a finite number of dBm",
        )?;
        if let Some(db) = self.reference_loss_db {
            at_least_zero("reference_loss", db)?;
        }
        if let Some(n) = self.path_loss_exponent {
            above_zero("path_loss_exponent", n)?;
        }
        if !(7..=12).contains(&self.spreading_factor) {
            return Err(ConfigError::Value {
                key: "spreading_factor",
                problem: format!(
                    "{} is not 7 to 12 (SF6 needs an implicit header, which radio-mac's frames cannot use)",
                    self.spreading_factor
                ),
            });
        }
        if self.preamble < 6 {
            return Err(ConfigError::Value {
                key: "preamble",
                problem: format!("{} is not 6 symbols or more", self.preamble),
            });
        }
        if let Some(pct) = self.duty_cycle_pct {
            real(
                "duty_cycle",
                pct,
                pct > 0.0 && pct <= 100.0,
                "above 0 and at most 100 (%)",
            )?;
        }
        real(
            "fixed_rx",
            self.fixed_rx_dbm,
            true,
            "a finite number of dBm",
        )?;
        above_zero("load", self.load)?;
        if self.queue == 0 {
            return Err(ConfigError::Value {
                key: "queue",
                problem: "0 is not 1 or more frames".to_string(),
            });
        }
        real(
            "loss",
            self.loss,
            (0.0..1.0).contains(&self.loss),
            "0 to below 1",
        )?;
        if let Some(Some(db)) = self.capture_db {
            at_least_zero("capture_db", db)?;
        }
        if let Some(dbm) = self.cca_threshold_dbm {
            real("cca_threshold_dbm", dbm, true, "a finite number of dBm")?;
        }
        if self.duration == Time::ZERO {
            return Err(ConfigError::Value {
                key: "duration",
                problem: "0s is not a positive time".to_string(),
            });
        }
        Ok(())
    }

    /// The MAC's timing on this PHY, before the rule: [`MacConfig::IEEE_802_15_4_2450`],
    /// or for LoRa the radio board's (`sx127x_radio::Settings::mac_config`) at this
    /// spreading factor, bandwidth, coding rate and preamble; with the duty cycle.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] for LoRa settings radio-mac refuses.
    pub fn phy_config(&self) -> Result<MacConfig, ConfigError> {
        let duty = match self.duty_cycle_pct {
            None => DutyCycle::UNLIMITED,
            Some(pct) => {
                let ppm = (pct * 10_000.0).round() as u32;
                DutyCycle::from_ppm(ppm).map_err(|e| ConfigError::Value {
                    key: "duty_cycle",
                    problem: e.to_string(),
                })?
            }
        };
        let base = match self.phy {
            Phy::Ieee802154_2450 => MacConfig::IEEE_802_15_4_2450,
            Phy::Lora => {
                let refused = |key: &'static str| {
                    move |e: radio_mac::config::ConfigError| ConfigError::Value {
                        key,
                        problem: e.to_string(),
                    }
                };
                let lora = LoRa::new(self.spreading_factor, self.bandwidth, self.coding_rate)
                    .map_err(refused("spreading_factor"))?
                    .with_preamble_symbols(self.preamble)
                    .map_err(refused("preamble"))?;
                let settings = sx127x_radio::Settings {
                    lora,
                    ..sx127x_radio::Settings::EU868_SF7_BW125
                };
                settings.mac_config(Address(1)).map_err(refused("phy"))?
            }
        };
        Ok(base.with_duty_cycle(duty))
    }

    /// The capture threshold in effect, dB (`None`: no capture).
    pub fn capture(&self) -> Option<f64> {
        self.capture_db.unwrap_or(self.phy.capture_db())
    }

    /// The path loss at 1 m in effect, dB.
    pub fn reference_loss(&self) -> f64 {
        self.reference_loss_db
            .unwrap_or(self.phy.reference_loss_db())
    }

    /// The path-loss exponent in effect.
    pub fn path_loss(&self) -> f64 {
        self.path_loss_exponent
            .unwrap_or(self.phy.path_loss_exponent())
    }

    /// The CCA delay in nanoseconds for `mac`.
    pub fn cca_delay_ns(&self, mac: &MacConfig) -> u64 {
        self.cca_delay.map_or(mac.sifs_ns(), Time::as_ns)
    }
}

/// A configuration that cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// A rule parameter that the chosen rule does not take.
    RuleParameter {
        /// The rule.
        rule: &'static str,
        /// The parameter's key.
        key: &'static str,
    },
    /// A value or combination that cannot be used.
    Value {
        /// The key.
        key: &'static str,
        /// What is wrong.
        problem: String,
    },
}

impl ConfigError {
    /// The key the error is about.
    pub fn key(&self) -> &'static str {
        match self {
            Self::RuleParameter { key, .. } | Self::Value { key, .. } => key,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RuleParameter { rule, key } => {
                write!(f, "{key}: not a parameter of rule {rule}")
            }
            Self::Value { key, problem } => write!(f, "{key}: {problem}"),
        }
    }
}

impl std::error::Error for ConfigError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_maps_to_radio_macs_rule_with_the_standards_defaults() {
        let beb = RuleConfig {
            rule: Rule::Beb,
            ..RuleConfig::default()
        };
        let base = MacConfig::IEEE_802_15_4_2450;
        let access = |r: &RuleConfig| mac_config(r, base).map(|c| c.access());
        assert_eq!(access(&beb), Ok(ChannelAccess::Beb));
        assert_eq!(
            access(&RuleConfig::default()),
            Ok(ChannelAccess::Ieee802154Unslotted(CsmaCa::IEEE_802_15_4))
        );
        let dcf = RuleConfig {
            rule: Rule::Dcf,
            cw_min: Some(16),
            retry_limit: Some(u32::MAX),
            ..RuleConfig::default()
        };
        assert_eq!(
            access(&dcf),
            Ok(ChannelAccess::DcfLike(Dcf::new(16, 5, u32::MAX).unwrap()))
        );
        let beb_param = RuleConfig {
            max_be: Some(5),
            ..beb
        };
        assert_eq!(mac_config(&beb_param, base).unwrap_err().key(), "max_be");
        let dcf_param = RuleConfig {
            min_be: Some(3),
            ..dcf
        };
        assert_eq!(mac_config(&dcf_param, base).unwrap_err().key(), "min_be");
    }

    #[test]
    fn out_of_range_rule_parameters_name_their_key() {
        let csma = |f: fn(&mut RuleConfig)| {
            let mut r = RuleConfig::default();
            f(&mut r);
            mac_config(&r, MacConfig::IEEE_802_15_4_2450)
                .unwrap_err()
                .key()
        };
        assert_eq!(csma(|r| r.max_be = Some(9)), "max_be");
        assert_eq!(csma(|r| r.min_be = Some(6)), "min_be");
        assert_eq!(csma(|r| r.max_csma_backoffs = Some(6)), "max_csma_backoffs");
        assert_eq!(csma(|r| r.max_frame_retries = Some(8)), "max_frame_retries");
        assert_eq!(csma(|r| r.min_be = Some(300)), "min_be");
        let dcf = |f: fn(&mut RuleConfig)| {
            let mut r = RuleConfig {
                rule: Rule::Dcf,
                ..RuleConfig::default()
            };
            f(&mut r);
            mac_config(&r, MacConfig::IEEE_802_15_4_2450)
                .unwrap_err()
                .key()
        };
        assert_eq!(dcf(|r| r.cw_min = Some(0)), "cw_min");
        assert_eq!(dcf(|r| r.cw_min = Some(70_000)), "cw_min");
        assert_eq!(dcf(|r| r.max_stage = Some(17)), "max_stage");
    }

    #[test]
    fn the_payload_fits_each_phys_packet() {
        assert_eq!(Phy::Ieee802154_2450.max_payload(), 118);
        assert_eq!(Phy::Lora.max_payload(), 246);
        assert_eq!(MAX_PAYLOAD, 246);
    }

    #[test]
    fn lora_is_timed_as_the_radio_board_flashes_it() {
        let c = RadioConfig {
            phy: Phy::Lora,
            ..RadioConfig::default()
        };
        let board = sx127x_radio::Settings::EU868_SF7_BW125
            .mac_config(Address(1))
            .unwrap();
        let mac = c.validate().unwrap();
        assert_eq!(mac.phy(), board.phy());
        assert_eq!(mac.slot(), board.slot());
        assert_eq!(mac.ack_timeout_ns(), board.ack_timeout_ns());
        assert_eq!(c.capture(), Some(6.0));
        assert!(
            (c.reference_loss() - 94.088).abs() < 1e-3,
            "{}",
            c.reference_loss()
        );
        assert_eq!(RadioConfig::default().capture(), None);
    }
}
