//! What the server said with a failure, typed: gRPC retry pushback, HTTP
//! `Retry-After`, or "do not retry". Hand it to
//! [`RetryState::on_failure_with`](crate::RetryState::on_failure_with); a [`Policy`](crate::Policy)
//! that honours server answers ([`Policy::with_server_answers`](crate::Policy::with_server_answers)) follows it, one that
//! does not ignores it.
//!
//! | answer | source | what the policy does |
//! |---|---|---|
//! | [`ServerAnswer::Pushback`] | gRFC A6 "gRPC Retry Design", section *Pushback*: metadata `grpc-retry-pushback-ms` | retry after exactly this delay (no draw from the RNG); if that attempt fails too, the backoff **restarts from the initial backoff** (A6, *Summary of Retry and Hedging Logic*, case 5: "If this attempt also fails, retry delay will reset to initial backoff for the following retry") |
//! | [`ServerAnswer::RetryAfter`] | RFC 9110 section 10.2.3, `Retry-After` | retry after `max(own delay, Retry-After)`: the policy draws its own delay as usual (its schedule goes on from there) and waits at least what the server asked |
//! | [`ServerAnswer::DoNotRetry`] | A6: a negative or unparseable pushback; a non-retryable status; an explicit overload refusal | give up with [`StopReason::ServerRefused`](crate::StopReason::ServerRefused) |
//!
//! The stop rules still apply to a delay the server chose: a pushback after the last
//! attempt allowed gives up with `MaxAttempts` (A6: "If the client has already
//! exhausted its `maxAttempts`, the call will not be retried even if the server says to
//! retry after a given delay"), and a delay past the maximum single delay or the
//! maximum elapsed time gives up as any other delay would. The policy's ceiling does
//! not cut a server's delay: the server asked for it.
//!
//! ```
//! use backoff_core::{ServerAnswer, parse_grpc_pushback, parse_retry_after_seconds};
//! assert_eq!(parse_grpc_pushback(b"250"), ServerAnswer::Pushback { delay_ns: 250_000_000 });
//! assert_eq!(parse_grpc_pushback(b"-1"), ServerAnswer::DoNotRetry);
//! assert_eq!(parse_grpc_pushback(b"soon"), ServerAnswer::DoNotRetry);
//! assert_eq!(parse_retry_after_seconds(b"120"), Ok(ServerAnswer::RetryAfter { delay_ns: 120_000_000_000 }));
//! assert!(parse_retry_after_seconds(b"Fri, 31 Dec 1999 23:59:59 GMT").is_err());
//! // An HTTP-date: the caller, who has a clock, turns it into seconds from now.
//! assert_eq!(ServerAnswer::retry_after_date(-30), ServerAnswer::RetryAfter { delay_ns: 0 });
//! ```

use core::fmt;

const NANOS_PER_MILLI: u64 = 1_000_000;
const NANOS_PER_SEC: u64 = 1_000_000_000;

/// What the server said with a failed attempt.
///
/// `#[non_exhaustive]`: other protocols' answers may become variants, so a `match`
/// outside this crate needs a `_` arm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ServerAnswer {
    /// Nothing: the policy's own schedule decides.
    #[default]
    None,
    /// Do not retry (gRFC A6: a negative or unparseable `grpc-retry-pushback-ms`; or
    /// the caller's classification: a non-retryable status, an explicit overload
    /// refusal).
    DoNotRetry,
    /// gRPC server pushback (gRFC A6, *Pushback*): retry after exactly this delay,
    /// then restart the backoff from the initial backoff.
    Pushback {
        /// The delay in nanoseconds.
        delay_ns: u64,
    },
    /// HTTP `Retry-After` (RFC 9110 section 10.2.3): wait at least this long.
    RetryAfter {
        /// The delay in nanoseconds.
        delay_ns: u64,
    },
}

impl ServerAnswer {
    /// A gRPC pushback of `ms` milliseconds (the valid, non-negative values of
    /// `grpc-retry-pushback-ms`, a signed 32-bit integer).
    ///
    /// ```
    /// use backoff_core::ServerAnswer;
    /// assert_eq!(ServerAnswer::pushback_millis(5), ServerAnswer::Pushback { delay_ns: 5_000_000 });
    /// ```
    pub const fn pushback_millis(ms: u32) -> Self {
        ServerAnswer::Pushback {
            delay_ns: (ms as u64).saturating_mul(NANOS_PER_MILLI),
        }
    }

    /// A `Retry-After` of `secs` delay-seconds (RFC 9110 section 10.2.3), saturating
    /// at `u64::MAX` nanoseconds.
    ///
    /// ```
    /// use backoff_core::ServerAnswer;
    /// assert_eq!(ServerAnswer::retry_after_secs(2), ServerAnswer::RetryAfter { delay_ns: 2_000_000_000 });
    /// ```
    pub const fn retry_after_secs(secs: u64) -> Self {
        ServerAnswer::RetryAfter {
            delay_ns: secs.saturating_mul(NANOS_PER_SEC),
        }
    }

    /// A `Retry-After` given as an HTTP-date (RFC 9110 section 10.2.3), which the
    /// caller has turned into `secs_from_now` on its own clock (this crate has none). A
    /// date in the past is a zero delay.
    ///
    /// ```
    /// use backoff_core::ServerAnswer;
    /// assert_eq!(ServerAnswer::retry_after_date(3), ServerAnswer::retry_after_secs(3));
    /// assert_eq!(ServerAnswer::retry_after_date(i64::MIN), ServerAnswer::retry_after_secs(0));
    /// ```
    pub const fn retry_after_date(secs_from_now: i64) -> Self {
        let secs = if secs_from_now < 0 {
            0
        } else {
            secs_from_now.unsigned_abs()
        };
        Self::retry_after_secs(secs)
    }
}

/// Parse the value of gRPC's `grpc-retry-pushback-ms` metadata (gRFC A6, *Pushback*):
/// "an ASCII encoded signed 32-bit integer ... that represents how many milliseconds
/// to wait before sending a retry. If the value for pushback is negative or
/// unparseble, then it will be seen as the server asking the client not to retry at
/// all."
///
/// An optional `-` then one or more ASCII digits, within `i32`: a value `>= 0` is a
/// [`ServerAnswer::Pushback`] (`-0` is the integer 0, as gRPC's own parsers read it,
/// so a pushback of 0 ms); anything else (negative, empty, other bytes, spaces, a
/// `+`, out of `i32` range) is [`ServerAnswer::DoNotRetry`]. Leading zeros are
/// accepted, as grpc-go's `strconv.Atoi` accepts them, although A6 says a server sends
/// none; unlike `strconv.Atoi`, a `+` sign and values beyond `i32` are refused, A6's
/// value being a signed 32-bit integer. Never panics, allocates nothing.
///
/// ```
/// use backoff_core::{ServerAnswer, parse_grpc_pushback};
/// assert_eq!(parse_grpc_pushback(b"0"), ServerAnswer::Pushback { delay_ns: 0 });
/// assert_eq!(parse_grpc_pushback(b"-0"), ServerAnswer::Pushback { delay_ns: 0 });
/// assert_eq!(parse_grpc_pushback(b"2147483647"), ServerAnswer::pushback_millis(2_147_483_647));
/// assert_eq!(parse_grpc_pushback(b"2147483648"), ServerAnswer::DoNotRetry);
/// assert_eq!(parse_grpc_pushback(b""), ServerAnswer::DoNotRetry);
/// ```
pub fn parse_grpc_pushback(value: &[u8]) -> ServerAnswer {
    let (negative, digits) = match value.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, value),
    };
    match parse_digits(digits) {
        // `-0` (and `-00`) is the integer 0, not a negative value.
        Some(0) => ServerAnswer::Pushback { delay_ns: 0 },
        Some(n) if negative && n <= 2_147_483_648 => ServerAnswer::DoNotRetry,
        Some(n) if !negative => match u32::try_from(n) {
            Ok(ms) if ms <= i32::MAX.unsigned_abs() => ServerAnswer::pushback_millis(ms),
            _ => ServerAnswer::DoNotRetry,
        },
        _ => ServerAnswer::DoNotRetry,
    }
}

/// `1*DIGIT` as a `u64`, or `None` for an empty input, another byte, or a value past
/// `u64::MAX`.
fn parse_digits(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n
            .checked_mul(10)?
            .checked_add(u64::from(b.wrapping_sub(b'0')))?;
    }
    Some(n)
}

/// Parse an HTTP `Retry-After` field value as delay-seconds (RFC 9110 section
/// 10.2.3: `delay-seconds = 1*DIGIT`, "a non-negative decimal integer, representing
/// time in seconds"). A value too large saturates at `u64::MAX` nanoseconds. The
/// value is the field value as the HTTP layer hands it, its surrounding whitespace
/// already removed (RFC 9110 section 5.5). Never panics, allocates nothing.
///
/// ```
/// use backoff_core::{ServerAnswer, parse_retry_after_seconds};
/// assert_eq!(parse_retry_after_seconds(b"0"), Ok(ServerAnswer::retry_after_secs(0)));
/// assert_eq!(parse_retry_after_seconds(b"99999999999999999999999"),
///            Ok(ServerAnswer::RetryAfter { delay_ns: u64::MAX }));
/// assert!(parse_retry_after_seconds(b"-1").is_err());
/// assert!(parse_retry_after_seconds(b"1.5").is_err());
/// ```
///
/// # Errors
///
/// [`RetryAfterError`] when the value is not `1*DIGIT`: empty, a sign, a fraction,
/// spaces, or an HTTP-date (which the caller, who has a clock, converts and passes
/// to [`ServerAnswer::retry_after_date`]).
pub fn parse_retry_after_seconds(value: &[u8]) -> Result<ServerAnswer, RetryAfterError> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return Err(RetryAfterError);
    }
    let secs = value.iter().fold(0u64, |n, &b| {
        n.saturating_mul(10)
            .saturating_add(u64::from(b.wrapping_sub(b'0')))
    });
    Ok(ServerAnswer::retry_after_secs(secs))
}

/// A `Retry-After` value that is not delay-seconds (`1*DIGIT`, RFC 9110 section
/// 10.2.3): perhaps an HTTP-date, perhaps garbage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RetryAfterError;

impl fmt::Display for RetryAfterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Retry-After value is not delay-seconds (1*DIGIT)")
    }
}

impl core::error::Error for RetryAfterError {}
