//! The one error type of the simulator: a parameter it cannot accept.

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
    /// A bus length that is negative, not finite, or too long for the model.
    BusLength(String),
    /// A bit rate of zero or one that does not parse.
    BitRate(String),
    /// A timing parameter (slot, preamble, gap, jam) out of range.
    Timing(String),
    /// A backoff-algorithm parameter out of range.
    Backoff(String),
    /// A queue limit of zero.
    QueueLimit,
    /// Signal speed not a positive finite number.
    Velocity(String),
    /// A capture window of zero successes.
    CaptureWindow,
    /// The run would overflow the 64-bit picosecond clock.
    TooLong(String),
    /// The run could not finish in any reasonable time.
    Endless(String),
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
            BusLength(s) => write!(f, "bus length: {s}"),
            BitRate(s) => write!(
                f,
                "bit rate '{s}' must be a positive number of bits per second (e.g. 10M, 100M, 1G)"
            ),
            Timing(s) => write!(f, "timing: {s}"),
            Backoff(s) => write!(f, "backoff: {s}"),
            QueueLimit => write!(f, "the per-station queue limit must be at least 1 frame"),
            Velocity(s) => write!(
                f,
                "signal speed '{s}' must be a positive finite number of metres per second"
            ),
            CaptureWindow => write!(f, "the capture window must be at least 1 success"),
            TooLong(s) => write!(f, "run too long for the 64-bit picosecond clock: {s}"),
            Endless(s) => write!(f, "this run would practically never finish: {s}"),
        }
    }
}

impl std::error::Error for ConfigError {}
