//! The error of every constructor: a parameter it cannot accept. (When a retry loop
//! gives up, it returns the caller's own error in a `retry::GaveUp`.)

use core::fmt;

/// What was wrong with a parameter (see [`ConfigError::kind`]).
///
/// `#[non_exhaustive]`: new constructors may reject new kinds of parameter, so a
/// `match` outside this crate needs a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ConfigErrorKind {
    /// `backoffLimit` above [`BebConfig::MAX_BACKOFF_LIMIT`](crate::BebConfig::MAX_BACKOFF_LIMIT):
    /// the window `2^k` would not fit the `u32` slot count.
    BackoffLimitTooLarge,
    /// `attemptLimit` of zero: a frame could never be sent.
    ZeroAttemptLimit,
    /// A slot time of zero nanoseconds, or a bit rate of zero.
    ZeroSlotTime,
    /// A value outside the range a policy accepts (a ratio with a zero denominator,
    /// a minimum above a maximum, a fraction above one, ...).
    OutOfRange,
}

/// A parameter was rejected by a constructor. Nothing was built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ConfigError {
    kind: ConfigErrorKind,
}

impl ConfigError {
    /// An error of the given kind.
    pub const fn new(kind: ConfigErrorKind) -> Self {
        Self { kind }
    }

    /// What was wrong.
    pub const fn kind(&self) -> ConfigErrorKind {
        self.kind
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ConfigErrorKind::BackoffLimitTooLarge => "backoff limit above 32",
            ConfigErrorKind::ZeroAttemptLimit => "attempt limit of zero",
            ConfigErrorKind::ZeroSlotTime => "slot time or bit rate of zero",
            ConfigErrorKind::OutOfRange => "parameter out of range",
        };
        f.write_str(what)
    }
}

impl core::error::Error for ConfigError {}
