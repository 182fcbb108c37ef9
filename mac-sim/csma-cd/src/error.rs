//! [`ConfigError`]: a run parameter the simulator cannot accept, as
//! [`RunConfig::validate`](crate::config::RunConfig::validate), the models and the
//! parsers of parameter values find it.
//!
//! It is not the crate's only error type; the others wrap it or stand beside it:
//! [`FieldError`](crate::scenario::FieldError) names the parameter at fault,
//! [`SpecError`](crate::sweep::SpecError) is a sweep's,
//! [`CaptureError`](crate::capture::CaptureError) a capture file's,
//! [`ScenarioError`](crate::scenario::ScenarioError) a scenario file's (with file,
//! line and key) and [`ShardParseError`](crate::sweep::ShardParseError) a
//! `--shard` value's.

use std::fmt;

/// What was wrong with a run's parameters. `Display` gives a one-line message for a
/// network engineer, with units.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ConfigError {
    /// Zero stations.
    NoStations,
    /// More stations than the simulator indexes (`u32`, minus headroom).
    TooManyStations(u64),
    /// A frame size outside 64..=1518 bytes.
    FrameSize(u32),
    /// A frame-size specification that does not parse.
    FrameSpec(String),
    /// A value that is not of its parameter's kind: the text as given and what was
    /// expected (e.g. `a whole number`).
    Value {
        /// The text as given.
        text: String,
        /// What the parameter takes, e.g. `a whole number from 0`.
        expected: &'static str,
    },
    /// A slotted run's number of successes outside 1..=10⁹.
    Successes(u64),
    /// A sweep's list of values that cannot be accepted, with why.
    List(String),
    /// A parameter name that is not in the schema: the name, and the schema's keys
    /// ([`scenario::KEYS`](crate::scenario::KEYS)).
    UnknownParameter {
        /// The name as given.
        key: String,
        /// Every key of the schema, separated by `, `.
        known: &'static str,
    },
    /// A backoff algorithm that is not `beb`, `linear`, `poly[:DEGREE]` or
    /// `fixed[:SLOTS]`.
    Backoff(String),
    /// Offered load not a positive finite number.
    Load(String),
    /// Zero or unparseable simulated duration.
    Duration(String),
    /// The backoff limit (window exponent) is above what the arithmetic supports.
    BackoffLimit(u32),
    /// Attempt limit of zero or above the supported maximum.
    AttemptLimit(u32),
    /// A placement name that is not `point`, `even` or `random`.
    Placement(String),
    /// An interframe-gap rule that is not `8023`, `restart` or `none`.
    IfgRule(String),
    /// A jam rule that is not `preamble` or `immediate`.
    JamRule(String),
    /// A bus length that is negative or not finite (metres).
    BusLength(f64),
    /// A bus too long for the model: its length, the round trip in bit times and the
    /// slot (a round trip longer than the slot or the shortest frame would need late
    /// collisions, which are not modelled).
    BusTooLong {
        /// Metres.
        metres: f64,
        /// Round-trip propagation, bit times (infinite when beyond any clock).
        round_trip_bits: f64,
        /// The slot, bit times.
        slot_bits: u32,
        /// The longest bus whose round trip fits, metres (0 when not computed).
        longest_m: f64,
    },
    /// A `--medium` name that is not one of the presets.
    Medium(String),
    /// A parameter the Ethernet preset fixes, given another value: the preset, the
    /// parameter, the preset's value and the value given.
    MediumMismatch {
        /// The preset's name.
        medium: &'static str,
        /// The parameter, e.g. `bit rate`.
        what: &'static str,
        /// The preset's value, with unit.
        preset: String,
        /// The value given, with unit.
        given: String,
    },
    /// A bus longer than the preset's collision domain: the preset, the length, the
    /// limit and the clauses it comes from.
    MediumLength {
        /// The preset's name.
        medium: &'static str,
        /// The bus length given, metres.
        metres: f64,
        /// The longest collision domain of the preset, metres.
        max_m: f64,
        /// Where the limit comes from.
        clauses: &'static str,
    },
    /// A bit rate of zero or one that does not parse.
    BitRate(String),
    /// A warm-up not shorter than the run: both, in seconds.
    Warmup {
        /// The warm-up, seconds.
        warmup_s: f64,
        /// The simulated time, seconds.
        duration_s: f64,
    },
    /// A timing parameter (slot, preamble, gap, jam) out of range: which, its value
    /// and the range, in bit times.
    Timing {
        /// The parameter.
        name: &'static str,
        /// The value given.
        bits: u32,
        /// Least allowed.
        min: u32,
        /// Most allowed.
        max: u32,
    },
    /// Start times that do not fit the run (saturated traffic, one per station).
    StartTimes,
    /// Staged positions that are not one per station, ascending, on the cable.
    Positions,
    /// A slotted-model frame or slot of zero bit times.
    SlottedTiming,
    /// A fixed backoff window of zero slots.
    FixedWindow,
    /// A slotted-model transmission probability outside (0, 1].
    Probability(f64),
    /// A slotted-model transmission probability too small to draw from (`ln(1 − p)`
    /// rounds to zero).
    ProbabilityTooSmall(f64),
    /// A polynomial degree outside 1..=8.
    PolynomialDegree(u32),
    /// A queue limit of zero.
    QueueLimit,
    /// Signal speed not a positive finite number.
    Velocity(String),
    /// A capture window of zero successes.
    CaptureWindow,
    /// The longest backoff plus the duration would overflow the picosecond clock:
    /// the backoff limit, slot (bit times) and bit rate.
    TooLong {
        /// backoffLimit.
        backoff_limit: u32,
        /// The slot, bit times.
        slot_bits: u32,
        /// Bits per second.
        bit_rate: u64,
    },
    /// A slotted run that would need more than 10¹⁰ contention slots: the
    /// transmission probability, stations, frames asked for and slots needed.
    Endless {
        /// Per-slot transmission probability.
        probability: f64,
        /// Stations.
        stations: u32,
        /// Frames to deliver.
        successes: u64,
        /// Expected slots.
        slots: f64,
    },
    /// A parameter given where it has no effect on any run: why (the setting that
    /// leaves it without effect, and what it is for).
    NoEffect(&'static str),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ConfigError::*;
        match self {
            NoStations => write!(f, "the number of stations must be at least 1"),
            TooManyStations(n) => write!(f, "{n} stations: at most 4194304 are supported"),
            FrameSize(b) => write!(
                f,
                "frame size {b} bytes is out of range: an IEEE 802.3 frame is 64..=1518 bytes"
            ),
            FrameSpec(s) => write!(
                f,
                "frame sizes '{s}' not understood: give BYTES, MIN-MAX (uniform) or BYTES:WEIGHT,... (mix)"
            ),
            Value { text, expected } => write!(f, "'{text}' is not {expected}"),
            List(why) => write!(f, "{why}"),
            Successes(n) => write!(f, "successes {n} must be between 1 and 1000000000"),
            UnknownParameter { key, known } => write!(
                f,
                "unknown parameter '{key}' (the parameters are {})",
                known.trim_end_matches(", ")
            ),
            Backoff(s) => write!(
                f,
                "'{s}' is not a backoff algorithm: use beb, linear, poly[:DEGREE] or fixed[:SLOTS]"
            ),
            Load(s) => write!(
                f,
                "offered load '{s}' must be a fraction of the bit rate above 0 and at most 100 (e.g. 0.7)"
            ),
            Duration(s) => write!(
                f,
                "duration '{s}' must be a positive time with a unit: s, ms, us or ns (e.g. 10s)"
            ),
            BackoffLimit(k) => write!(
                f,
                "backoff limit {k} is too large: the window 2^k must fit 32 bits (k <= 32)"
            ),
            AttemptLimit(n) => write!(f, "attempt limit {n} must be between 1 and 1024"),
            Placement(s) => write!(f, "unknown placement '{s}': use point, even or random"),
            IfgRule(s) => write!(
                f,
                "unknown interframe-gap rule '{s}': use 8023, restart or none"
            ),
            JamRule(s) => write!(f, "unknown jam rule '{s}': use preamble or immediate"),
            BusLength(m) => write!(
                f,
                "bus length: '{m}' must be a non-negative number of metres"
            ),
            BusTooLong {
                metres,
                round_trip_bits,
                slot_bits,
                longest_m,
            } if round_trip_bits.is_finite() => write!(
                f,
                "bus length: {metres} m gives a round trip of {round_trip_bits:.1} bit times, longer than the slot ({slot_bits} bit times) or the shortest frame, and late collisions are not modelled: the longest bus that fits is {longest_m} m (change --length-m, or the slot with --slot-bits)"
            ),
            BusTooLong { metres, .. } => write!(f, "bus length: {metres} m is too long"),
            Medium(s) => write!(
                f,
                "unknown medium '{s}': use 10BASE5, 10BASE2, 10BASE-T, 100BASE-TX, 1000BASE-T or none"
            ),
            MediumMismatch {
                medium,
                what,
                preset,
                given,
            } => write!(
                f,
                "medium {medium} has a {what} of {preset}, not {given}: give the medium or the {what}, not both"
            ),
            MediumLength {
                medium,
                metres,
                max_m,
                clauses,
            } => write!(
                f,
                "bus length: {metres} m is longer than the {max_m} m collision domain of {medium} ({clauses}): give --length-m {max_m} or less, or leave out --medium"
            ),
            Warmup {
                warmup_s,
                duration_s,
            } => write!(
                f,
                "warm-up {warmup_s} s must be shorter than the simulated time {duration_s} s"
            ),
            BitRate(s) => write!(
                f,
                "bit rate '{s}' must be a positive number of bits per second (e.g. 10M, 100M, 1G)"
            ),
            Timing {
                name,
                bits,
                min,
                max,
            } => write!(
                f,
                "timing: {name} of {bits} bit times is outside {min}..={max}"
            ),
            StartTimes => write!(
                f,
                "timing: start times need saturated traffic and one time per station"
            ),
            Positions => write!(
                f,
                "placement: staged positions need one ascending position per station, on the cable"
            ),
            SlottedTiming => write!(f, "timing: frame and slot must be at least 1 bit time"),
            FixedWindow => write!(f, "backoff: fixed window must be at least 1 slot"),
            Probability(p) => write!(f, "backoff: transmission probability {p} must be in (0, 1]"),
            ProbabilityTooSmall(p) => write!(
                f,
                "backoff: transmission probability {p} is too small to draw from"
            ),
            PolynomialDegree(d) => {
                write!(f, "backoff: polynomial degree {d} must be between 1 and 8")
            }
            QueueLimit => write!(f, "the per-station queue limit must be at least 1 frame"),
            Velocity(s) => write!(
                f,
                "signal speed '{s}' must be a positive finite number of metres per second"
            ),
            CaptureWindow => write!(f, "the capture window must be at least 1 success"),
            TooLong {
                backoff_limit,
                slot_bits,
                bit_rate,
            } => write!(
                f,
                "run too long for the 64-bit picosecond clock: backoff limit {backoff_limit} with a {slot_bits}-bit slot at {bit_rate} b/s plus the duration exceeds 2^62 ps"
            ),
            Endless {
                probability,
                stations,
                successes,
                slots,
            } => write!(
                f,
                "this run would practically never finish: with p = {probability} and Q = {stations} the {successes} frames need about {slots:.1e} slots (at most 1e10)"
            ),
            NoEffect(why) => write!(f, "has no effect {why}"),
        }
    }
}

impl std::error::Error for ConfigError {}

impl From<sim_kit::schema::ValueError> for ConfigError {
    /// The kit's value errors as this model's, with the same text.
    fn from(e: sim_kit::schema::ValueError) -> Self {
        use sim_kit::schema::ValueError as V;
        match e {
            V::Value { text, expected } => Self::Value { text, expected },
            V::Duration(s) => Self::Duration(s),
            V::List(why) => Self::List(why),
            V::UnknownKey { key, known } => Self::UnknownParameter { key, known },
        }
    }
}
