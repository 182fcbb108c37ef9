//! Retry budgets: what bounds the load retries add when a server is in trouble.
//!
//! Backoff only postpones retries; a budget limits how many there are. Two kinds, both
//! integer-only, with time (where needed) passed in by the caller:
//!
//! * [`TokenBudget`]: gRPC's `retryThrottling` token bucket (gRFC A6). Each failure
//!   costs one token, each success earns `token_ratio` tokens, and retries are allowed
//!   only while more than half the tokens remain.
//! * [`RatioBudget`]: "retries at most X % of requests" (10 % in the seed articles,
//!   20 % in Finagle and Envoy) plus a minimum allowance per second so a quiet client
//!   can still retry.

use crate::error::{ConfigError, ConfigErrorKind};
use crate::policy::Ratio;

/// gRPC's retry throttle: a bucket of `max_tokens`, starting full. A failed RPC takes
/// one token (not below zero), a successful one adds `token_ratio` (up to the maximum),
/// and retries are allowed only while `tokens > max_tokens / 2`.
///
/// Tokens are kept in thousandths, so a `tokenRatio` with up to three decimal places
/// (the gRFC's limit) is exact.
///
/// ```
/// use backoff_core::TokenBudget;
/// // maxTokens 10, tokenRatio 0.1
/// let mut b = TokenBudget::new(10, 100).unwrap();
/// for _ in 0..4 { assert!(b.on_failure()); } // 9, 8, 7, 6 tokens: > 5, retry
/// assert!(!b.on_failure()); // 5 tokens: not > 5, throttled
/// for _ in 0..10 { b.on_success(); } // +1.0
/// assert!(b.allows_retry()); // 6 tokens
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TokenBudget {
    max_milli: u64,
    ratio_milli: u64,
    tokens_milli: u64,
}

impl TokenBudget {
    /// A full bucket of `max_tokens` (at least 1) that earns `token_ratio_thousandths`
    /// thousandths of a token per success (`100` for gRPC's `tokenRatio: 0.1`).
    pub const fn new(max_tokens: u32, token_ratio_thousandths: u32) -> Result<Self, ConfigError> {
        if max_tokens == 0 {
            return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
        }
        let max_milli = (max_tokens as u64).saturating_mul(1000);
        Ok(Self {
            max_milli,
            ratio_milli: token_ratio_thousandths as u64,
            tokens_milli: max_milli,
        })
    }

    /// Tokens left, in thousandths.
    pub const fn tokens_milli(&self) -> u64 {
        self.tokens_milli
    }

    /// Whether a retry is allowed now: `tokens > max_tokens / 2`.
    #[inline]
    pub const fn allows_retry(&self) -> bool {
        // tokens_milli > max_milli / 2, exactly: 2 · tokens > max.
        self.tokens_milli.saturating_mul(2) > self.max_milli
    }

    /// An RPC failed (with a status that counts as a failure): take one token, then say
    /// whether it may be retried.
    #[inline]
    pub fn on_failure(&mut self) -> bool {
        self.tokens_milli = self.tokens_milli.saturating_sub(1000);
        self.allows_retry()
    }

    /// An RPC succeeded: add `token_ratio`, up to the maximum.
    #[inline]
    pub fn on_success(&mut self) {
        self.tokens_milli = self
            .tokens_milli
            .saturating_add(self.ratio_milli)
            .min(self.max_milli);
    }
}

/// Units of [`RatioBudget`]'s balance per retry: one token is `10^9` units, so a
/// minimum allowance of `r` retries per second refills exactly `r` units per
/// nanosecond.
const UNITS_PER_TOKEN: u64 = 1_000_000_000;

/// "Retries at most `ratio` of requests", plus `min_per_sec` retries per second that a
/// quiet client may always make (Finagle's `RetryBudget`, Envoy's retry budget).
///
/// Each request ([`RatioBudget::on_request`], first attempts only) deposits `ratio`
/// of a token; each retry ([`RatioBudget::try_retry`]) withdraws one whole token or is
/// refused; time refills `min_per_sec` tokens per second. The balance is capped at
/// `max_tokens`, so idle periods cannot bank an unlimited burst, and starts at one
/// second's minimum allowance. Over any run, retries granted ≤
/// `initial + ratio · requests + min_per_sec · seconds`.
///
/// ```
/// use backoff_core::{RatioBudget, Ratio};
/// // 10 % of requests, no minimum allowance, at most 100 banked retries.
/// let mut b = RatioBudget::new(Ratio::from_percent(10), 0, 100).unwrap();
/// for _ in 0..9 { b.on_request(0); }
/// assert!(!b.try_retry(0)); // 0.9 tokens
/// b.on_request(0);
/// assert!(b.try_retry(0)); // 1.0 token: one retry per ten requests
/// assert!(!b.try_retry(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RatioBudget {
    deposit: u64,
    refill_per_ns: u64,
    cap: u64,
    balance: u64,
    last_ns: u64,
}

impl RatioBudget {
    /// A budget of `ratio` retries per request (`Ratio::from_percent(10)`), a minimum
    /// allowance of `min_per_sec` retries per second, and at most `max_tokens` (at
    /// least 1) retries banked.
    pub const fn new(ratio: Ratio, min_per_sec: u32, max_tokens: u32) -> Result<Self, ConfigError> {
        if max_tokens == 0 {
            return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
        }
        let cap = (max_tokens as u64).saturating_mul(UNITS_PER_TOKEN);
        let initial = (min_per_sec as u64).saturating_mul(UNITS_PER_TOKEN);
        Ok(Self {
            deposit: ratio.mul_floor(UNITS_PER_TOKEN),
            refill_per_ns: min_per_sec as u64,
            cap,
            balance: if initial < cap { initial } else { cap },
            last_ns: 0,
        })
    }

    /// Retries that could be granted now, in thousandths (before any refill since the
    /// last call).
    pub const fn balance_milli(&self) -> u64 {
        self.balance / (UNITS_PER_TOKEN / 1000)
    }

    /// Apply the time-based refill up to `now_ns` (a clock that goes backwards adds
    /// nothing).
    #[inline]
    fn refill(&mut self, now_ns: u64) {
        if now_ns > self.last_ns {
            let dt = now_ns.saturating_sub(self.last_ns);
            self.balance = self
                .balance
                .saturating_add(dt.saturating_mul(self.refill_per_ns))
                .min(self.cap);
            self.last_ns = now_ns;
        }
    }

    /// A new request (its first attempt) was sent at `now_ns`.
    #[inline]
    pub fn on_request(&mut self, now_ns: u64) {
        self.refill(now_ns);
        self.balance = self.balance.saturating_add(self.deposit).min(self.cap);
    }

    /// May a retry be sent at `now_ns`? If so, it is charged to the budget.
    #[inline]
    pub fn try_retry(&mut self, now_ns: u64) -> bool {
        self.refill(now_ns);
        match self.balance.checked_sub(UNITS_PER_TOKEN) {
            Some(rest) => {
                self.balance = rest;
                true
            }
            None => false,
        }
    }
}
