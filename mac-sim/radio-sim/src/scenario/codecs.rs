//! The text forms of the radio model's own kinds of value: its names (PHY, LoRa
//! bandwidth and coding rate, topology, traffic, destination, rule, countdown) and
//! the words for "not set" (`capture_db = "off"`, `min_be = "default"`,
//! `cca_delay = "turnaround"`, `reference_loss = "phy"`). Counts, numbers and
//! durations are the kit's (`sim_kit::schema`).

use radio_mac::Countdown;
use radio_mac::phy::{Bandwidth, CodingRate};
use sim_kit::schema::{Codec, Off, OrWord, Real, Unit, ValueError, Word};

use crate::config::{
    BANDWIDTHS, CODING_RATES, COUNTDOWNS, Destination, Phy, Rule, Topology, Traffic,
    bandwidth_name, coding_rate_name, countdown_name,
};

/// A codec for a choice of names: `$ty` read from and written as one of `$names`.
macro_rules! names {
    ($ty:ty, $expected:literal, [$($name:literal => $v:expr),* $(,)?] $(, also [$($alt:literal => $av:expr),*])?) => {
        impl Codec for $ty {
            type Value = $ty;
            type Error = ValueError;
            const CHOICES: &'static [&'static str] = &[$($name),*];
            fn parse(text: &str) -> Result<$ty, ValueError> {
                match text.trim() {
                    $($name => Ok($v),)*
                    $($($alt => Ok($av),)*)?
                    _ => Err(ValueError::Value { text: text.to_string(), expected: $expected }),
                }
            }
            fn text(v: &$ty) -> String {
                v.name().to_string()
            }
        }
    };
}

names!(Phy, "ieee802154-2450 or lora", [
    "ieee802154-2450" => Phy::Ieee802154_2450,
    "lora" => Phy::Lora,
]);
names!(Topology, "all, line, star, random or positions", [
    "all" => Topology::All,
    "line" => Topology::Line,
    "star" => Topology::Star,
    "random" => Topology::Random,
    "positions" => Topology::Positions,
]);
names!(Traffic, "saturated or poisson", [
    "saturated" => Traffic::Saturated,
    "poisson" => Traffic::Poisson,
]);
names!(Destination, "sink or neighbour", [
    "sink" => Destination::Sink,
    "neighbour" => Destination::Neighbour,
], also ["neighbor" => Destination::Neighbour]);
names!(Rule, "ieee802154, beb or dcf", [
    "ieee802154" => Rule::Ieee802154,
    "beb" => Rule::Beb,
    "dcf" => Rule::Dcf,
]);

/// A choice from a table of (name, value) pairs.
macro_rules! table_codec {
    ($(#[$doc:meta])* $codec:ident, $value:ty, $table:expr, $name:expr, $expected:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $codec;

        impl Codec for $codec {
            type Value = $value;
            type Error = ValueError;
            const CHOICES: &'static [&'static str] = &{
                let mut names = [""; $table.len()];
                let mut i = 0;
                while i < names.len() {
                    names[i] = $table[i].0;
                    i += 1;
                }
                names
            };
            fn parse(text: &str) -> Result<$value, ValueError> {
                $table
                    .iter()
                    .find(|(name, _)| *name == text.trim())
                    .map(|(_, v)| *v)
                    .ok_or_else(|| ValueError::Value {
                        text: text.to_string(),
                        expected: $expected,
                    })
            }
            fn text(v: &$value) -> String {
                $name(*v).to_string()
            }
        }
    };
}

table_codec!(
    /// The DCF's countdown by name: `virtual-slots` or `idle-slots`.
    CountdownName, Countdown, COUNTDOWNS, countdown_name, "virtual-slots or idle-slots"
);
table_codec!(
    /// A LoRa bandwidth in kHz, as the SX127x datasheet writes it: `125`, `7.8`.
    BandwidthKhz, Bandwidth, BANDWIDTHS, bandwidth_name,
    "a LoRa bandwidth in kHz: 7.8, 10.4, 15.6, 20.8, 31.25, 41.7, 62.5, 125, 250 or 500"
);
table_codec!(
    /// A LoRa coding rate: `4/5` to `4/8`.
    CodingRateName, CodingRate, CODING_RATES, coding_rate_name, "4/5, 4/6, 4/7 or 4/8"
);

/// `phy`: the PHY's own value of a parameter ([`Phy`]).
#[derive(Clone, Copy, Debug)]
pub struct PhyDefault;
impl Word for PhyDefault {
    const WORD: &'static str = "phy";
}

/// `default`: the channel-access rule's own value of a parameter.
#[derive(Clone, Copy, Debug)]
pub struct RuleDefault;
impl Word for RuleDefault {
    const WORD: &'static str = "default";
}

/// `turnaround`: the MAC's receive-to-transmit turnaround.
#[derive(Clone, Copy, Debug)]
pub struct Turnaround;
impl Word for Turnaround {
    const WORD: &'static str = "turnaround";
}

/// Metres: the column of `radius` is `radius_m`.
#[derive(Clone, Copy, Debug)]
pub struct M;
impl Unit for M {
    const SUFFIX: &'static str = "m";
}

/// Decibels.
#[derive(Clone, Copy, Debug)]
pub struct Db;
impl Unit for Db {
    const SUFFIX: &'static str = "db";
}

/// Decibels relative to a milliwatt.
#[derive(Clone, Copy, Debug)]
pub struct Dbm;
impl Unit for Dbm {
    const SUFFIX: &'static str = "dbm";
}

/// Metres.
pub type Metres = Real<M>;
/// Decibels.
pub type Decibels = Real<Db>;
/// dBm.
pub type DecibelMilliwatts = Real<Dbm>;

/// A number, or `off`.
pub type OffOr<C> = OrWord<C, Off>;
/// A value, or `default` (the rule's).
pub type RuleOr<C> = OrWord<C, RuleDefault>;
/// A duration, or `turnaround`.
pub type TurnaroundOr<C> = OrWord<C, Turnaround>;
/// A value, or `phy` (the PHY's).
pub type PhyOr<C> = OrWord<C, PhyDefault>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_reads_back_to_itself() {
        fn check<C: Codec<Error = ValueError>>() {
            for c in C::CHOICES {
                assert_eq!(C::text(&C::parse(c).unwrap()), *c);
            }
            assert!(C::parse("nonsense").is_err());
        }
        check::<Topology>();
        check::<Traffic>();
        check::<Destination>();
        check::<Rule>();
        check::<CountdownName>();
        check::<Phy>();
        check::<BandwidthKhz>();
        check::<CodingRateName>();
        assert_eq!(Destination::parse("neighbor"), Ok(Destination::Neighbour));
    }
}
