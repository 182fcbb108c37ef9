//! Regional rules of the sub-GHz bands: how much of the time a transmitter may be on
//! the air ([`DutyCycle`], with the EU868 sub-bands in [`eu868`]).
//!
//! ## Duty cycle, as the MAC enforces it
//!
//! ETSI EN 300 220-2 (the harmonised standard for short-range devices at 25-1000
//! MHz) and ERC Recommendation 70-03 annex 1 limit a device's time on the air in each
//! sub-band of 863-870 MHz to a share of any hour: 0.1 %, 1 % or 10 %. A MAC with a
//! [`DutyCycle`] ([`MacConfig::with_duty_cycle`](crate::MacConfig::with_duty_cycle))
//! keeps it the way LoRaWAN devices do (LoRaWAN Regional Parameters RP002, EU863-870
//! "the end-device ... SHALL respect the duty cycle"; Semtech's LoRaMac-node): after
//! a transmission of air time `T` the sub-band is closed for the off-time
//! `T (1 / d - 1)`, so that on-time over on-time plus off-time never exceeds `d`.
//! A data frame's channel access waits until the off-time is over. An ACK cannot
//! wait (its sender would give up on it), so it goes on time and its off-time is
//! added to the one still running: the next data frame waits for both, and the
//! share over any stretch that ends with an off-time stays at most `d`.
//!
//! ```
//! use radio_mac::region::{eu868, DutyCycle};
//! let band = eu868::sub_band(868_100_000).unwrap();
//! assert_eq!(band.duty_cycle, DutyCycle::ONE_PERCENT);
//! // 51.456 ms on the air close the sub-band for 99 times as long.
//! assert_eq!(band.duty_cycle.off_time_ns(51_456_000), 5_094_144_000);
//! assert!(eu868::sub_band(868_650_000).is_none()); // between sub-bands
//! ```

use crate::error::{ConfigError, ConfigErrorKind};

/// The largest share of the time a transmitter may be on the air, in parts per
/// million.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DutyCycle {
    ppm: u32,
}

impl DutyCycle {
    /// No limit (100 %): no off-time.
    pub const UNLIMITED: Self = Self { ppm: 1_000_000 };
    /// 10 %.
    pub const TEN_PERCENT: Self = Self { ppm: 100_000 };
    /// 1 %.
    pub const ONE_PERCENT: Self = Self { ppm: 10_000 };
    /// 0.1 %.
    pub const TENTH_PERCENT: Self = Self { ppm: 1_000 };

    /// A share of `ppm` parts per million (1 to 1,000,000).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::DutyCycle`] for 0 or above 1,000,000.
    pub const fn from_ppm(ppm: u32) -> Result<Self, ConfigError> {
        if ppm == 0 || ppm > 1_000_000 {
            return Err(ConfigError::new(ConfigErrorKind::DutyCycle));
        }
        Ok(Self { ppm })
    }

    /// The share, parts per million.
    pub const fn ppm(&self) -> u32 {
        self.ppm
    }

    /// The off-time after `air_ns` on the air: `air (1 / d - 1)`, rounded up.
    pub const fn off_time_ns(&self, air_ns: u64) -> u64 {
        let ppm = self.ppm as u64;
        air_ns.saturating_mul(1_000_000 - ppm).div_ceil(ppm)
    }
}

/// The EU863-870 sub-bands and their duty cycles.
pub mod eu868 {
    use super::DutyCycle;

    /// A sub-band: channel centre frequencies from `low_hz` to `high_hz`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[cfg_attr(feature = "defmt", derive(defmt::Format))]
    pub struct SubBand {
        /// The lowest centre frequency, Hz.
        pub low_hz: u32,
        /// The highest centre frequency, Hz.
        pub high_hz: u32,
        /// The duty cycle.
        pub duty_cycle: DutyCycle,
    }

    /// The sub-bands of ERC Recommendation 70-03 annex 1 (bands h1.3 to h1.7) as the
    /// LoRaWAN Regional Parameters (RP002, EU863-870) and Semtech's LoRaMac-node
    /// group them, by channel centre frequency: 863-865 MHz 0.1 %, 865-868 MHz 1 %,
    /// 868-868.6 MHz 1 % (where LoRaWAN's 868.1, 868.3 and 868.5 MHz are),
    /// 868.7-869.2 MHz 0.1 %, 869.4-869.65 MHz 10 %, 869.7-870 MHz 1 %.
    pub const SUB_BANDS: [SubBand; 6] = [
        band(863_000_000, 864_999_999, DutyCycle::TENTH_PERCENT),
        band(865_000_000, 868_000_000, DutyCycle::ONE_PERCENT),
        band(868_000_001, 868_600_000, DutyCycle::ONE_PERCENT),
        band(868_700_000, 869_200_000, DutyCycle::TENTH_PERCENT),
        band(869_400_000, 869_650_000, DutyCycle::TEN_PERCENT),
        band(869_700_000, 870_000_000, DutyCycle::ONE_PERCENT),
    ];

    const fn band(low_hz: u32, high_hz: u32, duty_cycle: DutyCycle) -> SubBand {
        SubBand {
            low_hz,
            high_hz,
            duty_cycle,
        }
    }

    /// The sub-band of a channel centred on `frequency_hz`; `None` outside them all
    /// (where an EU device may not transmit under these rules).
    pub fn sub_band(frequency_hz: u32) -> Option<SubBand> {
        SUB_BANDS
            .iter()
            .copied()
            .find(|b| (b.low_hz..=b.high_hz).contains(&frequency_hz))
    }
}
