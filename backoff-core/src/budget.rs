//! Retry budgets: what bounds the load retries add when a server is in trouble.
//!
//! Backoff only postpones retries; a budget limits how many there are. Four kinds,
//! all integer-only, with time (where needed) passed in by the caller as nanoseconds:
//!
//! | budget | rule | the systems it matches |
//! |---|---|---|
//! | [`TokenBudget`] | −1 token per failure, +`token_ratio` per success; retry while more than half the tokens remain | gRPC `retryThrottling` (gRFC A6), exactly |
//! | [`TtlBudget`] | each request deposits `ratio` of a retry, each retry withdraws one; deposits *and* withdrawals expire after `ttl`; a constant reserve of `min_per_sec · ttl` | Finagle's `RetryBudget(ttl, minRetriesPerSec, percentCanRetry)`, and tower's `TpsBudget` (Linkerd 2's `retryBudget` with `ttl`) |
//! | [`RetryQuota`] | a bucket of tokens; a retry takes 5 (10 after a timeout), a successful retry refunds its cost, a first-attempt success adds 1; no retry when the bucket lacks the cost | the AWS SDKs' `standard` retry mode, exactly |
//! | [`RatioBudget`] | the same deposits and withdrawals, kept until spent (capped at `max_tokens`); time refills `min_per_sec` per second | the "retries at most X % of requests" rule of the retry-storm literature, counted over the client's life: a bank that idle periods do not empty |
//!
//! The difference shows after a burst: 1000 requests in 10 s at 10 %, then silence.
//! At t = 25 s Finagle's budget (ttl 10 s, no minimum) allows 0 retries: the deposits
//! have expired. [`RatioBudget`] still allows 100: nothing expires. [`TtlBudget`]
//! allows 0, as Finagle:
//!
//! ```
//! use backoff_core::{Ratio, RatioBudget, TtlBudget};
//! const S: u64 = 1_000_000_000;
//! let mut ttl = TtlBudget::<10>::new(10 * S, 0, Ratio::from_percent(10)).unwrap();
//! let mut bank = RatioBudget::new(Ratio::from_percent(10), 0, 1_000).unwrap();
//! for i in 0..1000u64 {
//!     let now = i * 10 * S / 1000; // 1000 requests over 10 s
//!     ttl.on_request(now);
//!     bank.on_request(now);
//! }
//! assert_eq!(ttl.balance_milli_at(25 * S), 0); // Finagle: 0 retries at t = 25 s
//! assert_eq!(bank.balance_milli_at(25 * S), 100_000); // 100 retries banked
//! assert!(!ttl.try_retry(25 * S));
//! ```
//!
//! Envoy's `retry_budget` (`budget_percent` of the *active* requests, at least
//! `min_retry_concurrency`) limits concurrent retries rather than a rate, and is none
//! of these.

use crate::error::{ConfigError, ConfigErrorKind};
use crate::policy::Ratio;
use crate::window::BucketRing;

/// The largest `maxTokens` gRPC accepts in a `retryThrottling` config (gRFC A6).
pub const GRPC_MAX_TOKENS_LIMIT: u32 = 1000;

/// gRPC's retry throttle (gRFC A6 `retryThrottling`): a bucket of `max_tokens`,
/// starting full. A failed RPC takes one token (not below zero), a successful one adds
/// `token_ratio` (up to the maximum), and retries are allowed only while
/// `tokens > max_tokens / 2`.
///
/// Tokens are kept in thousandths, as the gRFC specifies `tokenRatio` to three decimal
/// places; a finer ratio is rounded down to thousandths.
///
/// ```
/// use backoff_core::{Ratio, TokenBudget};
/// // maxTokens 10, tokenRatio 0.1
/// let mut b = TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap();
/// for _ in 0..4 {
///     b.record(false);
///     assert!(b.allows_retry()); // 9, 8, 7, 6 tokens: > 5, retry
/// }
/// b.record(false);
/// assert!(!b.allows_retry()); // 5 tokens: not > 5, throttled
/// for _ in 0..10 { b.record(true); } // +1.0
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
    /// A full bucket of `max_tokens` that earns `token_ratio` of a token per success
    /// (`Ratio::from_thousandths(100)` for gRPC's `tokenRatio: 0.1`): the ratio is a
    /// [`Ratio`], as in [`RatioBudget::new`] and [`TtlBudget::new`].
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`]: `max_tokens` outside `1..=1000` (the gRFC's
    /// range, [`GRPC_MAX_TOKENS_LIMIT`]), or a `token_ratio` below one thousandth (zero
    /// included: the gRFC requires it to be greater than zero, and a bucket that never
    /// refills would throttle retries for good after a few failures).
    pub const fn with_ratio(max_tokens: u32, token_ratio: Ratio) -> Result<Self, ConfigError> {
        if max_tokens == 0 || max_tokens > GRPC_MAX_TOKENS_LIMIT {
            return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
        }
        let ratio_milli = token_ratio.mul_floor(1000);
        if ratio_milli == 0 {
            return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
        }
        let max_milli = (max_tokens as u64).saturating_mul(1000);
        Ok(Self {
            max_milli,
            ratio_milli,
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

    /// An RPC finished: a success adds `token_ratio` (up to the maximum), a failure
    /// (a status that counts as one) takes one token. Ask [`TokenBudget::allows_retry`]
    /// whether a failed RPC may be retried.
    #[inline]
    pub fn record(&mut self, success: bool) {
        self.tokens_milli = if success {
            self.tokens_milli
                .saturating_add(self.ratio_milli)
                .min(self.max_milli)
        } else {
            self.tokens_milli.saturating_sub(1000)
        };
    }
}

/// Units of a ratio budget's balance per retry: one token is `10^9` units, so a
/// minimum allowance of `r` retries per second refills exactly `r` units per
/// nanosecond.
const UNITS_PER_TOKEN: u64 = 1_000_000_000;
const UNITS_PER_MILLI: u64 = UNITS_PER_TOKEN / 1000;

/// "Retries at most `ratio` of requests", plus `min_per_sec` retries per second that a
/// quiet client may always make, with nothing expiring: see the [module](self) table
/// for how it differs from Finagle's ([`TtlBudget`]).
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
/// assert_eq!(b.balance_milli_at(0), 1_000);
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
    /// allowance of `min_per_sec` retries per second, and at most `max_tokens` retries
    /// banked.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] for `max_tokens = 0`.
    pub const fn new(ratio: Ratio, min_per_sec: u32, max_tokens: u32) -> Result<Self, ConfigError> {
        match core::num::NonZeroU32::new(max_tokens) {
            Some(max) => Ok(Self::with_cap(ratio, min_per_sec, max)),
            None => Err(ConfigError::new(ConfigErrorKind::OutOfRange)),
        }
    }

    /// [`RatioBudget::new`] for a cap that cannot be zero.
    pub(crate) const fn with_cap(
        ratio: Ratio,
        min_per_sec: u32,
        max_tokens: core::num::NonZeroU32,
    ) -> Self {
        let cap = (max_tokens.get() as u64).saturating_mul(UNITS_PER_TOKEN);
        let initial = (min_per_sec as u64).saturating_mul(UNITS_PER_TOKEN);
        Self {
            deposit: ratio.mul_floor(UNITS_PER_TOKEN),
            refill_per_ns: min_per_sec as u64,
            cap,
            balance: if initial < cap { initial } else { cap },
            last_ns: 0,
        }
    }

    /// The balance at `now_ns`, refill included, without changing anything.
    #[inline]
    const fn balance_at(&self, now_ns: u64) -> u64 {
        if now_ns <= self.last_ns {
            return self.balance; // a clock that goes backwards adds nothing
        }
        let refill = now_ns
            .saturating_sub(self.last_ns)
            .saturating_mul(self.refill_per_ns);
        let b = self.balance.saturating_add(refill);
        if b < self.cap { b } else { self.cap }
    }

    /// Retries that could be granted at `now_ns`, in thousandths, the time-based
    /// refill since the last call included. Changes nothing.
    pub const fn balance_milli_at(&self, now_ns: u64) -> u64 {
        self.balance_at(now_ns) / UNITS_PER_MILLI
    }

    /// Whether [`RatioBudget::try_retry`] would grant a retry at `now_ns`. Changes
    /// nothing.
    pub const fn allows_retry_at(&self, now_ns: u64) -> bool {
        self.balance_at(now_ns) >= UNITS_PER_TOKEN
    }

    /// Apply the time-based refill up to `now_ns`.
    #[inline]
    fn refill(&mut self, now_ns: u64) {
        self.balance = self.balance_at(now_ns);
        if now_ns > self.last_ns {
            self.last_ns = now_ns;
        }
    }

    /// A new request (its first attempt) was sent at `now_ns`.
    #[inline]
    pub fn on_request(&mut self, now_ns: u64) {
        self.refill(now_ns);
        self.balance = self.balance.saturating_add(self.deposit).min(self.cap);
    }

    /// May a retry be sent at `now_ns`? If so, it is charged to the budget: asking and
    /// charging are one call, so no other request can spend the same token in between
    /// (Finagle's `tryWithdraw`, tower's `withdraw`).
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

/// Finagle's retry budget: deposits and withdrawals that expire after a `ttl`, over
/// a constant reserve (see the [module](self) table for the systems it matches).
///
/// Each request ([`TtlBudget::on_request`]) deposits `ratio` of a retry, each retry
/// ([`TtlBudget::try_retry`]) withdraws one, and both are kept in a sliding window of
/// `ttl` split into `N` buckets (Finagle and tower use 10), so they drop out between
/// `ttl · (N−1)/N` and `ttl` after they were made. A retry is granted while
/// `reserve + deposits − withdrawals ≥ 1` over the window, where the reserve is
/// `min_per_sec · ttl` retries (Finagle's `minRetriesPerSec · ttl`), always available
/// and never used up for good. Time is the caller's, in nanoseconds, and should not go
/// backwards (older events than a bucket holds are dropped, nothing panics).
///
/// Finagle's defaults are `ttl` 10 s, `min_per_sec` 10, `ratio` 20 %:
///
/// ```
/// use backoff_core::{Ratio, TtlBudget};
/// const S: u64 = 1_000_000_000;
/// let mut b = TtlBudget::<10>::new(10 * S, 10, Ratio::from_percent(20)).unwrap();
/// assert_eq!(b.balance_milli_at(0), 100_000); // the reserve: 10/s · 10 s
/// for _ in 0..100 { assert!(b.try_retry(0)); }
/// assert!(!b.try_retry(0)); // reserve spent ...
/// for _ in 0..5 { b.on_request(S); }
/// assert!(b.try_retry(S)); // ... five requests at 20 % earn one retry
/// assert!(b.allows_retry_at(11 * S)); // the withdrawals of t = 0 have expired
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TtlBudget<const N: usize> {
    /// Deposits and withdrawals, in units of `1 / ratio.denom()` of a retry.
    ring: BucketRing<N>,
    deposit: u64,
    withdrawal: u64,
    reserve: u64,
}

impl<const N: usize> TtlBudget<N> {
    /// A budget whose deposits and withdrawals expire after `ttl_ns`, with a reserve of
    /// `min_per_sec · ttl` retries and `ratio` retries earned per request
    /// (`Ratio::from_percent(20)` for Finagle's `percentCanRetry` 0.2; above one is
    /// allowed, as in Finagle).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] when `N` is 0 or a bucket would be shorter than
    /// one nanosecond (`ttl_ns < N`).
    pub const fn new(ttl_ns: u64, min_per_sec: u32, ratio: Ratio) -> Result<Self, ConfigError> {
        let ring = match BucketRing::new(ttl_ns) {
            Some(r) => r,
            None => return Err(ConfigError::new(ConfigErrorKind::OutOfRange)),
        };
        // One retry is `den` units and a deposit `num`, so the ratio is exact.
        let withdrawal = ratio.denom() as u64;
        // reserve = min_per_sec · ttl_s retries, exact to the unit: < 2^32 · 2^64 · 2^32.
        let reserve_units = (min_per_sec as u128)
            .saturating_mul(ttl_ns as u128)
            .saturating_mul(withdrawal as u128)
            / 1_000_000_000;
        let reserve = if reserve_units > u64::MAX as u128 {
            u64::MAX
        } else {
            reserve_units as u64
        };
        Ok(Self {
            ring,
            deposit: ratio.numer() as u64,
            withdrawal,
            reserve,
        })
    }

    /// `reserve + deposits` and `withdrawals` in the window ending at `now_ns`.
    #[inline]
    fn sides(&self, now_ns: u64) -> (u64, u64) {
        let [deposits, withdrawals] = self.ring.sums(now_ns);
        (self.reserve.saturating_add(deposits), withdrawals)
    }

    /// Retries that could be granted at `now_ns`, in thousandths (0 when the window
    /// holds more withdrawals than the reserve and deposits cover). Changes nothing.
    pub fn balance_milli_at(&self, now_ns: u64) -> u64 {
        let (credit, debit) = self.sides(now_ns);
        let units = u128::from(credit.saturating_sub(debit));
        let milli = units
            .saturating_mul(1000)
            .checked_div(u128::from(self.withdrawal))
            .unwrap_or(0);
        u64::try_from(milli).unwrap_or(u64::MAX)
    }

    /// Whether [`TtlBudget::try_retry`] would grant a retry at `now_ns`. Changes
    /// nothing.
    #[inline]
    pub fn allows_retry_at(&self, now_ns: u64) -> bool {
        let (credit, debit) = self.sides(now_ns);
        credit.saturating_sub(debit) >= self.withdrawal
    }

    /// A new request (its first attempt) was sent at `now_ns`.
    #[inline]
    pub fn on_request(&mut self, now_ns: u64) {
        self.ring.add(now_ns, [self.deposit, 0]);
    }

    /// May a retry be sent at `now_ns`? If so, it is charged to the budget (asking and
    /// charging in one call, as [`RatioBudget::try_retry`]).
    #[inline]
    pub fn try_retry(&mut self, now_ns: u64) -> bool {
        let ok = self.allows_retry_at(now_ns);
        if ok {
            self.ring.add(now_ns, [0, self.withdrawal]);
        }
        ok
    }
}

/// The kind of failure a retry follows, which sets what the retry costs a
/// [`RetryQuota`].
///
/// `#[non_exhaustive]`: other kinds (throttling, say) may get their own cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum QuotaFailure {
    /// The attempt timed out: the dearer retry (AWS `TIMEOUT_RETRY_COST`, 10).
    Timeout,
    /// Any other retryable error (AWS `RETRY_COST`, 5).
    Retryable,
}

/// The AWS SDKs' *retry quota* of the `standard` retry mode (AWS SDKs and Tools
/// Reference Guide, "Retry behavior": standard mode "includes ... support for retry
/// quotas"; the constants are the SDKs' own, e.g. aws-sdk-js-v3 `middleware-retry`:
/// `INITIAL_RETRY_TOKENS = 500`, `RETRY_COST = 5`, `TIMEOUT_RETRY_COST = 10`,
/// `NO_RETRY_INCREMENT = 1`). A bucket that starts full:
///
/// * a retry takes its cost from the bucket ([`RetryQuota::try_acquire`]): 10 after a
///   timeout, 5 after another retryable error; when the bucket holds less than the
///   cost, **do not retry**;
/// * a request that succeeds after a retry refunds that retry's cost; one that
///   succeeds at its first attempt adds 1 ([`RetryQuota::on_success`]); the bucket
///   never holds more than its capacity.
///
/// (The opt-in "2026" retry behaviour of the AWS SDKs changes these costs; this is
/// the long-standing `standard` mode.) Integer-only, 20 bytes.
///
/// ```
/// use backoff_core::{QuotaFailure, RetryQuota};
/// let mut q = RetryQuota::AWS_STANDARD;
/// let cost = q.try_acquire(QuotaFailure::Timeout).unwrap();
/// assert_eq!((cost, q.available()), (10, 490));
/// q.on_success(cost); // the retry succeeded: its cost comes back
/// assert_eq!(q.available(), 500);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RetryQuota {
    capacity: u32,
    available: u32,
    retry_cost: u32,
    timeout_cost: u32,
    success_increment: u32,
}

impl RetryQuota {
    /// The AWS SDKs' standard mode: 500 tokens, a retry after a timeout costs 10,
    /// after another retryable error 5, a success without retry adds 1.
    pub const AWS_STANDARD: Self = Self {
        capacity: 500,
        available: 500,
        retry_cost: 5,
        timeout_cost: 10,
        success_increment: 1,
    };

    /// A full bucket of `capacity` tokens, with these costs and this increment.
    ///
    /// ```
    /// use backoff_core::{QuotaFailure, RetryQuota};
    /// let q = RetryQuota::new(500, 5, 10, 1).unwrap();
    /// assert_eq!(q, RetryQuota::AWS_STANDARD);
    /// assert!(RetryQuota::new(0, 5, 10, 1).is_err());
    /// assert!(RetryQuota::new(500, 0, 10, 1).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`] for a zero capacity or a zero cost (a free
    /// retry would never be limited).
    pub const fn new(
        capacity: u32,
        retry_cost: u32,
        timeout_cost: u32,
        success_increment: u32,
    ) -> Result<Self, ConfigError> {
        if capacity == 0 || retry_cost == 0 || timeout_cost == 0 {
            return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
        }
        Ok(Self {
            capacity,
            available: capacity,
            retry_cost,
            timeout_cost,
            success_increment,
        })
    }

    /// Tokens in the bucket.
    pub const fn available(&self) -> u32 {
        self.available
    }

    /// The bucket's size.
    pub const fn capacity(&self) -> u32 {
        self.capacity
    }

    /// What a retry after `failure` costs.
    pub const fn cost(&self, failure: QuotaFailure) -> u32 {
        match failure {
            QuotaFailure::Timeout => self.timeout_cost,
            QuotaFailure::Retryable => self.retry_cost,
        }
    }

    /// A retry after `failure` wants to go out: take its cost and return it (keep it
    /// for [`RetryQuota::on_success`]), or `None`, taking nothing, when the bucket
    /// holds less than the cost: then do not retry.
    ///
    /// ```
    /// use backoff_core::{QuotaFailure, RetryQuota};
    /// let mut q = RetryQuota::new(12, 5, 10, 1).unwrap();
    /// assert_eq!(q.try_acquire(QuotaFailure::Timeout), Some(10));
    /// assert_eq!(q.try_acquire(QuotaFailure::Retryable), None); // 2 left, 5 needed
    /// assert_eq!(q.available(), 2);
    /// ```
    pub fn try_acquire(&mut self, failure: QuotaFailure) -> Option<u32> {
        let cost = self.cost(failure);
        self.available = self.available.checked_sub(cost)?;
        Some(cost)
    }

    /// The request succeeded. `acquired` is what its last retry took from the bucket
    /// ([`RetryQuota::try_acquire`]'s answer), or 0 if it succeeded at its first
    /// attempt: the cost is refunded, or, without a retry, the increment added; never
    /// past the capacity.
    ///
    /// ```
    /// use backoff_core::RetryQuota;
    /// let mut q = RetryQuota::AWS_STANDARD;
    /// q.on_success(0);
    /// assert_eq!(q.available(), 500); // already full
    /// ```
    pub fn on_success(&mut self, acquired: u32) {
        let add = if acquired == 0 {
            self.success_increment
        } else {
            acquired
        };
        self.available = self.available.saturating_add(add).min(self.capacity);
    }
}
