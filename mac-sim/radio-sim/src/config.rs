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
use radio_mac::{ChannelAccess, Countdown, CsmaCa, Dcf, MacConfig};
use serde::Serialize;
use sim_kit::time::Time;

/// IEEE 802.15.4's `aMaxPhyPacketSize`: the longest PHY payload, in bytes.
pub const MAX_PHY_PACKET: usize = 127;
/// The longest payload a frame can carry: [`MAX_PHY_PACKET`] minus radio-mac's
/// header and frame check ([`OVERHEAD`] = 9 bytes), 118 bytes.
pub const MAX_PAYLOAD: usize = MAX_PHY_PACKET - OVERHEAD;
/// The shortest payload: the driver writes a 4-byte frame number into every payload,
/// by which the receiver checks that each delivered frame arrived exactly once.
pub const MIN_PAYLOAD: usize = 4;
/// The most stations: radio-mac's addresses are one byte and 0xFF is broadcast;
/// station `i` has address `i + 1`.
pub const MAX_STATIONS: u16 = 254;

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
/// radio-mac's [`MacConfig`] (every station then gets its own address), on
/// [`MacConfig::IEEE_802_15_4_2450`]'s timing.
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
pub fn mac_config(rule: &RuleConfig) -> Result<MacConfig, ConfigError> {
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
    let base = MacConfig::IEEE_802_15_4_2450;
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
    /// Transmit power, dBm.
    pub tx_power_dbm: f64,
    /// Path loss at the reference distance of 1 m, dB.
    pub reference_loss_db: f64,
    /// Path-loss exponent.
    pub path_loss_exponent: f64,
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
    /// Capture threshold, dB: `None` for no capture.
    pub capture_db: Option<f64>,
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
            tx_power_dbm: 0.0,
            reference_loss_db: 40.2,
            path_loss_exponent: 3.0,
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
        let mac = mac_config(&self.rule)?;
        if self.stations < 2 || self.stations > MAX_STATIONS {
            return Err(ConfigError::Value {
                key: "stations",
                problem: format!("{} must be 2 to {MAX_STATIONS}", self.stations),
            });
        }
        let payload = usize::from(self.payload);
        if !(MIN_PAYLOAD..=MAX_PAYLOAD).contains(&payload) {
            return Err(ConfigError::Value {
                key: "payload",
                problem: format!("{payload} must be {MIN_PAYLOAD} to {MAX_PAYLOAD} bytes"),
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
        at_least_zero("reference_loss", self.reference_loss_db)?;
        above_zero("path_loss_exponent", self.path_loss_exponent)?;
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
        if let Some(db) = self.capture_db {
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
        let access = |r: &RuleConfig| mac_config(r).map(|c| c.access());
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
        assert_eq!(mac_config(&beb_param).unwrap_err().key(), "max_be");
        let dcf_param = RuleConfig {
            min_be: Some(3),
            ..dcf
        };
        assert_eq!(mac_config(&dcf_param).unwrap_err().key(), "min_be");
    }

    #[test]
    fn out_of_range_rule_parameters_name_their_key() {
        let csma = |f: fn(&mut RuleConfig)| {
            let mut r = RuleConfig::default();
            f(&mut r);
            mac_config(&r).unwrap_err().key()
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
            mac_config(&r).unwrap_err().key()
        };
        assert_eq!(dcf(|r| r.cw_min = Some(0)), "cw_min");
        assert_eq!(dcf(|r| r.cw_min = Some(70_000)), "cw_min");
        assert_eq!(dcf(|r| r.max_stage = Some(17)), "max_stage");
    }

    #[test]
    fn the_payload_fits_802_15_4s_packet() {
        assert_eq!(MAX_PAYLOAD, 118);
    }
}
