//! Why a configuration was refused: [`ConfigError`] with its [`kind`](ConfigError::kind),
//! returned by [`MacConfig`](crate::MacConfig)'s constructors and by the channel-access
//! rules' ([`access`](crate::access)). Its own module so that both may name it without
//! naming each other.

/// Why a configuration was refused (see [`ConfigError::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ConfigErrorKind {
    /// The station address is the broadcast address.
    BroadcastAddress,
    /// The bit rate is zero.
    ZeroBitRate,
    /// The slot would be zero (turnaround and CCA time both zero).
    ZeroSlot,
    /// IEEE 802.15.4 CSMA-CA: macMinBE above macMaxBE, or macMaxBE outside `3..=8`.
    BackoffExponent,
    /// IEEE 802.15.4 CSMA-CA: macMaxCSMABackoffs above 5.
    CsmaBackoffs,
    /// IEEE 802.15.4 CSMA-CA: macMaxFrameRetries above 7.
    FrameRetries,
    /// DCF: the window of stage 0 is zero.
    ZeroWindow,
    /// DCF: the maximum backoff stage is above 16.
    MaxStage,
    /// LoRa: a spreading factor outside 6 to 12, or SF6 with an explicit header.
    LoRaSpreadingFactor,
    /// LoRa: a programmed preamble shorter than 6 symbols.
    LoRaPreamble,
    /// A duty cycle of 0 or above 100 %.
    DutyCycle,
}

/// A configuration was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ConfigError {
    kind: ConfigErrorKind,
}

impl ConfigError {
    pub(crate) const fn new(kind: ConfigErrorKind) -> Self {
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
            ConfigErrorKind::BroadcastAddress => "the broadcast address cannot be a station",
            ConfigErrorKind::ZeroBitRate => "the bit rate must not be zero",
            ConfigErrorKind::ZeroSlot => "turnaround and CCA time cannot both be zero",
            ConfigErrorKind::BackoffExponent => {
                "macMinBE must not exceed macMaxBE, and macMaxBE must be 3 to 8"
            }
            ConfigErrorKind::CsmaBackoffs => "macMaxCSMABackoffs must be 0 to 5",
            ConfigErrorKind::FrameRetries => "macMaxFrameRetries must be 0 to 7",
            ConfigErrorKind::ZeroWindow => "the DCF window of stage 0 must not be zero",
            ConfigErrorKind::MaxStage => "the DCF maximum backoff stage must be 0 to 16",
            ConfigErrorKind::LoRaSpreadingFactor => {
                "the LoRa spreading factor must be 6 to 12, and SF6 needs an implicit header"
            }
            ConfigErrorKind::LoRaPreamble => "the LoRa preamble must be 6 symbols or more",
            ConfigErrorKind::DutyCycle => "the duty cycle must be above 0 and at most 100 %",
        })
    }
}

impl core::error::Error for ConfigError {}
