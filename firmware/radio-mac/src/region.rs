//! Regional rules of the sub-GHz bands: how much of the time a transmitter may be on
//! the air ([`DutyCycle`], with the EU868 sub-bands in [`eu868`]).
//!
//! ## Duty cycle, as the MAC enforces it
//!
//! ETSI EN 300 220-2 (the harmonised standard for short-range devices at 25-1000
//! MHz) and ERC Recommendation 70-03 annex 1 limit a device's time on the air in each
//! sub-band of 863-870 MHz to a share of an observation period of one hour: 0.1 %,
//! 1 % or 10 %. A MAC with a [`DutyCycle`]
//! ([`MacConfig::with_duty_cycle`](crate::MacConfig::with_duty_cycle)) keeps it the
//! way Semtech's LoRaWAN stack does (LoRaMac-node's time credits, `RegionCommon.c`,
//! over its `DUTY_CYCLE_TIME_PERIOD` of one hour): a [`Credits`] account that starts
//! full, fills with elapsed time up to one period, and pays `air / d` for each
//! transmission (`air` on the air at duty cycle `d`). So in steady use a station is on
//! the air at most `d` of the time, and at most `d` of the period more in a burst
//! after a quiet hour.
//!
//! * A **data frame** waits (before its channel access) until the account holds its
//!   price.
//! * An **ACK** cannot wait (its sender would give up on it): it goes on time if the
//!   account holds its price, and is withheld otherwise (counted in
//!   `AirCounters::acks_withheld`): the sender then retries, as it does after any
//!   lost ACK. A station that acknowledges more than its share (a sink many stations
//!   send to) loses ACKs rather than the band's rule.
//!
//! ```
//! use radio_mac::region::{eu868, Credits, DutyCycle};
//! let band = eu868::sub_band(868_100_000).unwrap();
//! assert_eq!(band.duty_cycle, DutyCycle::ONE_PERCENT);
//! // 51.456 ms on the air cost 100 times as much credit: 5.1456 s.
//! assert_eq!(band.duty_cycle.price_ns(51_456_000), 5_145_600_000);
//! let mut account = Credits::full(band.duty_cycle);
//! assert_eq!(account.wait_ns(0, 51_456_000), 0);
//! // One hour of credit: 699 such frames at once, then one each 5.1456 s.
//! for _ in 0..699 { account.pay(0, 51_456_000); }
//! assert_eq!(account.wait_ns(0, 51_456_000), 1_920_000_000);
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
    /// No limit (100 %).
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

    /// The credit a transmission of `air_ns` on the air costs: `air / d`, rounded up
    /// (so an account that fills at one nanosecond a nanosecond sends `d` of the time).
    pub const fn price_ns(&self, air_ns: u64) -> u64 {
        air_ns.saturating_mul(1_000_000).div_ceil(self.ppm as u64)
    }

    /// Whether this is [`Self::UNLIMITED`].
    pub const fn is_unlimited(&self) -> bool {
        self.ppm >= 1_000_000
    }
}

/// The observation period of the duty cycle, one hour (ETSI EN 300 220; LoRaMac-node's
/// `DUTY_CYCLE_TIME_PERIOD`): the most credit an account holds.
pub const PERIOD_NS: u64 = 3_600_000_000_000;

/// A station's duty-cycle account: credit in nanoseconds that fills with elapsed time
/// up to [`PERIOD_NS`], each transmission paying [`DutyCycle::price_ns`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Credits {
    duty_cycle: DutyCycle,
    credit_ns: u64,
    at_ns: u64,
}

impl Credits {
    /// A full account (at time 0), as a station starts.
    pub const fn full(duty_cycle: DutyCycle) -> Self {
        Self {
            duty_cycle,
            credit_ns: PERIOD_NS,
            at_ns: 0,
        }
    }

    /// The duty cycle kept.
    pub const fn duty_cycle(&self) -> DutyCycle {
        self.duty_cycle
    }

    /// The credit at `now_ns`.
    pub const fn credit_ns(&self, now_ns: u64) -> u64 {
        let filled = self
            .credit_ns
            .saturating_add(now_ns.saturating_sub(self.at_ns));
        if filled > PERIOD_NS {
            PERIOD_NS
        } else {
            filled
        }
    }

    /// How long after `now_ns` the account holds the price of `air_ns` on the air: 0
    /// if it does now (always, without a limit).
    pub const fn wait_ns(&self, now_ns: u64, air_ns: u64) -> u64 {
        if self.duty_cycle.is_unlimited() {
            return 0;
        }
        self.duty_cycle
            .price_ns(air_ns)
            .saturating_sub(self.credit_ns(now_ns))
    }

    /// Pay for `air_ns` on the air starting at `now_ns`; `false` (and nothing paid)
    /// if the account does not hold its price.
    pub fn pay(&mut self, now_ns: u64, air_ns: u64) -> bool {
        if self.duty_cycle.is_unlimited() {
            return true;
        }
        let credit = self.credit_ns(now_ns);
        let price = self.duty_cycle.price_ns(air_ns);
        if credit < price {
            return false;
        }
        self.credit_ns = credit.saturating_sub(price);
        self.at_ns = self.at_ns.max(now_ns);
        true
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
