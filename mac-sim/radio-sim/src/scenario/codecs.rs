//! The text forms of the radio model's own kinds of value: its names (topology,
//! traffic, destination, rule, countdown) and the words for "not set"
//! (`capture_db = "off"`, `min_be = "default"`, `cca_delay = "turnaround"`). Counts,
//! numbers and durations are the kit's (`sim_kit::schema`).

use radio_mac::Countdown;
use sim_kit::schema::{Codec, Off, OrWord, Real, Unit, ValueError, Word};

use crate::config::{COUNTDOWNS, Destination, Rule, Topology, Traffic, countdown_name};

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

/// The DCF's countdown by name: `virtual-slots` or `idle-slots`.
#[derive(Clone, Copy, Debug)]
pub struct CountdownName;

impl Codec for CountdownName {
    type Value = Countdown;
    type Error = ValueError;
    const CHOICES: &'static [&'static str] = &[COUNTDOWNS[0].0, COUNTDOWNS[1].0];
    fn parse(text: &str) -> Result<Countdown, ValueError> {
        COUNTDOWNS
            .iter()
            .find(|(name, _)| *name == text.trim())
            .map(|(_, c)| *c)
            .ok_or_else(|| ValueError::Value {
                text: text.to_string(),
                expected: "virtual-slots or idle-slots",
            })
    }
    fn text(v: &Countdown) -> String {
        countdown_name(*v).to_string()
    }
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
        assert_eq!(Destination::parse("neighbor"), Ok(Destination::Neighbour));
    }
}
