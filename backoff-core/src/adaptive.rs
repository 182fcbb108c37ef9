//! The AWS SDKs' *adaptive* retry mode: a client-side rate limiter that slows a client
//! down when the service throttles it and speeds it up again along a CUBIC curve
//! (AWS SDKs and Tools Reference Guide, "Retry behavior": adaptive mode "adds a
//! client-side rate limiting ... token bucket"; the algorithm and its constants are
//! the SDKs' own, e.g. botocore's `retries/adaptive.py`, `throttling.py` and
//! `bucket.py`). Three parts, each usable alone:
//!
//! * [`CubicRate`]: the rate to allow next. After a throttle at rate `W_max`, the
//!   allowed rate drops to `β W_max` and then follows `C (t − K)³ + W_max`, where
//!   `K = ∛(W_max (1 − β) / C)` is when the curve is back at `W_max`
//!   ([`BETA`] = 0.7, [`SCALE`] `C` = 0.4).
//! * [`SendRateMeter`]: the rate the client is actually sending, counted in
//!   half-second buckets and smoothed (`0.8 × the last bucket's + 0.2 × the
//!   previous estimate`, [`SMOOTHING`], [`BUCKET_NS`]).
//! * [`RateBucket`]: a token bucket that refills at the allowed rate (at least
//!   [`MIN_FILL`], 0.5 per second) and holds at most that many tokens (at least one).
//!
//! [`AdaptiveRateLimiter`] joins them as the SDKs do: it is off until the first
//! throttle; from then on every request takes a token first, and after every response
//! the allowed rate is the CUBIC curve's, but never more than twice the rate measured
//! ([`MAX_ADJUST`]).
//!
//! Integer-only and `no_std`: rates are [`Rate`]s in millionths of a request per
//! second, tokens in millionths, times are the caller's clock in nanoseconds (`_ns`),
//! so the limiter runs on a microcontroller's timer as well as on a server's
//! monotonic clock, and a test walks it through time without sleeping. The results
//! agree with the floating-point formulas within a few millionths of a request per
//! second (the crate's tests compare them).
//!
//! ```
//! use backoff_core::adaptive::{AdaptiveRateLimiter, Rate};
//! const S: u64 = 1_000_000_000;
//! let mut limiter = AdaptiveRateLimiter::new(0);
//! // Off until the first throttle: every request goes at once.
//! for i in 0..20 {
//!     assert!(limiter.acquire(i * S / 10).is_ok());
//!     limiter.on_response(i * S / 10, false);
//! }
//! // About 10 requests a second measured; a throttle cuts the allowed rate to 0.7 of it.
//! limiter.on_response(2 * S, true);
//! assert!(limiter.enabled());
//! let cut = limiter.allowed_rate();
//! assert!(cut < Rate::per_second(10) && cut > Rate::per_second(5), "{cut:?}");
//! // Now a request takes a token: the bucket holds the one it gathered since it was
//! // made, and the next request at once is refused with the wait it needs.
//! assert!(limiter.acquire(2 * S).is_ok());
//! let wait = limiter.acquire(2 * S).unwrap_err().wait_ns;
//! assert!(wait > 0 && limiter.acquire(2 * S + wait).is_ok());
//! ```

use core::cmp::{max, min};

/// The factor a throttle multiplies the allowed rate by: 0.7 (`beta`), as 7/10.
pub const BETA: (u64, u64) = (7, 10);
/// The CUBIC curve's scale `C`: 0.4 (`scale_constant`), as 2/5.
pub const SCALE: (u64, u64) = (2, 5);
/// The weight of the newest bucket in the measured send rate: 0.8, as 4/5.
pub const SMOOTHING: (u64, u64) = (4, 5);
/// The length of one bucket of the send-rate meter: half a second.
pub const BUCKET_NS: u64 = 500_000_000;
/// The lowest fill rate of the token bucket: half a request per second.
pub const MIN_FILL: Rate = Rate(500_000);
/// The allowed rate is at most this many times the measured send rate.
pub const MAX_ADJUST: u64 = 2;
/// The highest rate the limiter computes: 10⁹ requests per second (above it, rates
/// saturate here).
pub const MAX_RATE: Rate = Rate(1_000_000_000_000_000);

const MICRO: u64 = 1_000_000;
const NS_PER_S: u64 = 1_000_000_000;
const NS_PER_S_WIDE: u128 = 1_000_000_000;
/// The CUBIC curve's `t − K`, clamped to ±10⁶ s so that its cube fits `i128`.
const MAX_LAG_NS: i128 = 1_000_000_000_000_000;

/// A rate in millionths of a request per second.
///
/// ```
/// use backoff_core::adaptive::Rate;
/// assert_eq!(Rate::per_second(3).as_micros_per_sec(), 3_000_000);
/// assert!(Rate::from_micros_per_sec(500_000) < Rate::per_second(1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rate(u64);

impl Rate {
    /// No request at all.
    pub const ZERO: Rate = Rate(0);

    /// `n` requests per second (saturating at [`MAX_RATE`]).
    pub const fn per_second(n: u64) -> Rate {
        Rate::from_micros_per_sec(n.saturating_mul(MICRO))
    }

    /// `micros` millionths of a request per second (saturating at [`MAX_RATE`]).
    pub const fn from_micros_per_sec(micros: u64) -> Rate {
        if micros > MAX_RATE.0 {
            MAX_RATE
        } else {
            Rate(micros)
        }
    }

    /// The rate in millionths of a request per second.
    pub const fn as_micros_per_sec(self) -> u64 {
        self.0
    }

    /// `self × num / den`, rounded down (saturating; `den` 0 gives [`MAX_RATE`]).
    const fn scaled(self, num: u64, den: u64) -> Rate {
        let wide = (self.0 as u128).saturating_mul(num as u128);
        match wide.checked_div(den as u128) {
            Some(v) if v <= MAX_RATE.0 as u128 => Rate(v as u64),
            _ => MAX_RATE,
        }
    }
}

/// The largest `r` with `r³ <= x`.
fn cube_root(x: u128) -> u128 {
    // r < 2^43 for every u128 (2^129 > u128::MAX): a bisection over 44 bits.
    let (mut lo, mut hi) = (0u128, 1u128 << 43);
    while lo < hi {
        let mid = lo.saturating_add(hi.saturating_sub(lo).saturating_add(1) / 2);
        let cube = mid.checked_mul(mid).and_then(|m| m.checked_mul(mid));
        match cube {
            Some(c) if c <= x => lo = mid,
            _ => hi = mid.saturating_sub(1),
        }
    }
    lo
}

/// The CUBIC curve of the allowed rate (the SDKs' `CubicCalculator`): after a throttle
/// at `W_max` the rate is `β W_max`, then `C (t − K)³ + W_max` with `t` the time since
/// the throttle and `K = ∛(W_max (1 − β) / C)`.
///
/// ```
/// use backoff_core::adaptive::{CubicRate, Rate};
/// const S: u64 = 1_000_000_000;
/// let mut c = CubicRate::new(Rate::per_second(10), 0);
/// // K = ∛(10 × 0.3 / 0.4) s = 1.9574338... s: back at W_max then.
/// assert_eq!(c.zero_point_ns(), 1_957_433_820);
/// assert_eq!(c.on_success(1_957_433_820), Rate::per_second(10));
/// assert!(c.on_success(S) < Rate::per_second(10) && c.on_success(3 * S) > Rate::per_second(10));
/// // A throttle at 8/s: the rate drops to 0.7 × 8 = 5.6/s and the curve restarts there.
/// assert_eq!(c.on_throttle(Rate::per_second(8), S), Rate::from_micros_per_sec(5_600_000));
/// // C (0 − K)³ + W_max = 5.6/s again, within the integer rounding of K (1 ns).
/// assert!(c.on_success(S).as_micros_per_sec().abs_diff(5_600_000) <= 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubicRate {
    w_max: Rate,
    k_ns: u64,
    last_throttle_ns: u64,
}

impl CubicRate {
    /// The curve with `w_max` as its last rate at a throttle, that throttle at `now_ns`.
    pub fn new(w_max: Rate, now_ns: u64) -> CubicRate {
        CubicRate {
            w_max,
            k_ns: zero_point_ns(w_max),
            last_throttle_ns: now_ns,
        }
    }

    /// The rate at the last throttle, `W_max`.
    pub const fn w_max(&self) -> Rate {
        self.w_max
    }

    /// `K`, in nanoseconds after the last throttle: when the curve is back at `W_max`.
    pub const fn zero_point_ns(&self) -> u64 {
        self.k_ns
    }

    /// The rate to allow after a response that was not a throttle, at `now_ns`:
    /// `C (t − K)³ + W_max`, not below zero.
    pub fn on_success(&self, now_ns: u64) -> Rate {
        let since = i128::from(now_ns).saturating_sub(i128::from(self.last_throttle_ns));
        let lag = since
            .saturating_sub(i128::from(self.k_ns))
            .clamp(-MAX_LAG_NS, MAX_LAG_NS);
        // C (lag / 10⁹ s)³ requests per second, in millionths: C × lag³ / 10²¹.
        let cube = lag.saturating_mul(lag).saturating_mul(lag);
        let (c_num, c_den) = SCALE;
        let delta = cube
            .saturating_mul(i128::from(c_num))
            .checked_div(i128::from(c_den).saturating_mul(1_000_000_000_000_000_000_000))
            .unwrap_or(0);
        let rate = i128::from(self.w_max.0).saturating_add(delta);
        Rate::from_micros_per_sec(u64::try_from(rate.max(0)).unwrap_or(u64::MAX))
    }

    /// A throttle at `now_ns` while sending at `current`: `current` becomes `W_max`,
    /// the curve restarts, and the rate to allow is `β × current`.
    pub fn on_throttle(&mut self, current: Rate, now_ns: u64) -> Rate {
        *self = CubicRate::new(current, now_ns);
        current.scaled(BETA.0, BETA.1)
    }
}

/// `K = ∛(W_max (1 − β) / C)` seconds, in nanoseconds: `∛(W_max × 3/4 × 10²¹)` with
/// `W_max` in millionths of a request per second (`(K × 10⁹)³ = K³ × 10²⁷`).
fn zero_point_ns(w_max: Rate) -> u64 {
    let (b_num, b_den) = BETA;
    let (c_num, c_den) = SCALE;
    // (1 − β) / C = (b_den − b_num) c_den / (b_den c_num)
    let num = u128::from(b_den.saturating_sub(b_num)).saturating_mul(u128::from(c_den));
    let den = u128::from(b_den).saturating_mul(u128::from(c_num));
    let k_cubed = u128::from(w_max.0)
        .saturating_mul(num)
        .saturating_mul(1_000_000_000_000_000_000_000)
        .checked_div(den)
        .unwrap_or(u128::MAX);
    u64::try_from(cube_root(k_cubed)).unwrap_or(u64::MAX)
}

/// The rate a client is sending at (the SDKs' `RateClocker`): requests are counted in
/// half-second buckets; when a request falls in a later bucket, the count over the
/// buckets since the last estimate becomes a rate, and the estimate becomes
/// `0.8 × that + 0.2 × the previous estimate`. The first bucket starts at the whole
/// second at or before the meter's creation.
///
/// ```
/// use backoff_core::adaptive::{Rate, SendRateMeter};
/// const S: u64 = 1_000_000_000;
/// let mut m = SendRateMeter::new(0);
/// for t in [S / 10, 2 * S / 10, 3 * S / 10, 4 * S / 10, 49 * S / 100] {
///     assert_eq!(m.record(t), Rate::ZERO); // the first bucket is not over yet
/// }
/// // The sixth request starts the next bucket: 6 in half a second, 12/s, × 0.8.
/// assert_eq!(m.record(S / 2), Rate::from_micros_per_sec(9_600_000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendRateMeter {
    measured: Rate,
    /// The bucket of the last estimate, counted in half seconds.
    last_bucket: u64,
    count: u64,
}

impl SendRateMeter {
    /// A meter created at `now_ns`, that has measured nothing.
    pub const fn new(now_ns: u64) -> SendRateMeter {
        let whole_seconds = now_ns / NS_PER_S;
        SendRateMeter {
            measured: Rate::ZERO,
            last_bucket: whole_seconds.saturating_mul(NS_PER_S / BUCKET_NS),
            count: 0,
        }
    }

    /// The estimate so far.
    pub const fn measured(&self) -> Rate {
        self.measured
    }

    /// Count one request at `now_ns` and return the estimate.
    pub fn record(&mut self, now_ns: u64) -> Rate {
        let bucket = now_ns / BUCKET_NS;
        self.count = self.count.saturating_add(1);
        if bucket > self.last_bucket {
            let buckets = bucket.saturating_sub(self.last_bucket);
            // count / (buckets × ½ s), in millionths per second.
            let per_bucket = u128::from(self.count)
                .saturating_mul(u128::from(MICRO))
                .saturating_mul(u128::from(NS_PER_S / BUCKET_NS))
                .checked_div(u128::from(buckets))
                .unwrap_or(0);
            let (s_num, s_den) = SMOOTHING;
            let smoothed = per_bucket
                .saturating_mul(u128::from(s_num))
                .saturating_add(
                    u128::from(self.measured.0)
                        .saturating_mul(u128::from(s_den.saturating_sub(s_num))),
                )
                .checked_div(u128::from(s_den))
                .unwrap_or(0);
            self.measured = Rate::from_micros_per_sec(u64::try_from(smoothed).unwrap_or(u64::MAX));
            self.count = 0;
            self.last_bucket = bucket;
        }
        self.measured
    }
}

/// A request that must wait for a token of the [`RateBucket`] first: how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Throttled {
    /// Nanoseconds until a token is there, at the current fill rate.
    pub wait_ns: u64,
}

/// The token bucket of the adaptive mode (the SDKs' `TokenBucket`): it refills at the
/// allowed rate (at least [`MIN_FILL`]) and holds at most that many tokens, at least
/// one; a request takes one token. Tokens are counted in millionths.
///
/// ```
/// use backoff_core::adaptive::{Rate, RateBucket};
/// const S: u64 = 1_000_000_000;
/// let mut b = RateBucket::new(Rate::per_second(2), 0);
/// // It starts empty: the first token comes after half a second at 2/s.
/// assert_eq!(b.acquire(0).unwrap_err().wait_ns, S / 2);
/// assert!(b.acquire(S / 2).is_ok());
/// // After ten idle seconds it holds 2 tokens, its most at 2/s.
/// assert!(b.acquire(11 * S).is_ok() && b.acquire(11 * S).is_ok());
/// assert!(b.acquire(11 * S).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateBucket {
    fill: Rate,
    /// The most it holds, in millionths of a token.
    max_tokens: u64,
    /// What it holds, in millionths of a token.
    tokens: u64,
    /// The fraction of a millionth of a token carried from the last refill, in
    /// units of 10⁻⁹ of a millionth (so that refilling often loses nothing).
    carry: u64,
    last_ns: u64,
}

impl RateBucket {
    /// An empty bucket at `rate`, at `now_ns`.
    pub fn new(rate: Rate, now_ns: u64) -> RateBucket {
        let mut b = RateBucket {
            fill: MIN_FILL,
            max_tokens: MICRO,
            tokens: 0,
            carry: 0,
            last_ns: now_ns,
        };
        b.set_rate(rate, now_ns);
        b
    }

    /// The fill rate.
    pub const fn fill_rate(&self) -> Rate {
        self.fill
    }

    /// The tokens it holds, in millionths (as of its last refill).
    pub const fn tokens_micros(&self) -> u64 {
        self.tokens
    }

    /// Refill to `now_ns`, then fill at `rate` (at least [`MIN_FILL`]) and hold at most
    /// `rate` tokens (at least one) from then on.
    pub fn set_rate(&mut self, rate: Rate, now_ns: u64) {
        self.refill(now_ns);
        self.fill = max(rate, MIN_FILL);
        self.max_tokens = max(rate.0, MICRO);
        self.tokens = min(self.tokens, self.max_tokens);
    }

    /// Take one token at `now_ns`.
    ///
    /// # Errors
    ///
    /// [`Throttled`] with the nanoseconds until a token is there, when the bucket holds
    /// less than one; nothing is taken then.
    pub fn acquire(&mut self, now_ns: u64) -> Result<(), Throttled> {
        self.refill(now_ns);
        if self.tokens >= MICRO {
            self.tokens = self.tokens.saturating_sub(MICRO);
            return Ok(());
        }
        // ⌈(missing millionths × 10⁹ − carry) / fill⌉ nanoseconds.
        let missing = u128::from(MICRO.saturating_sub(self.tokens))
            .saturating_mul(u128::from(NS_PER_S))
            .saturating_sub(u128::from(self.carry));
        let fill = u128::from(self.fill.0.max(1));
        let wait = missing.div_ceil(fill);
        Err(Throttled {
            wait_ns: u64::try_from(wait).unwrap_or(u64::MAX),
        })
    }

    fn refill(&mut self, now_ns: u64) {
        let elapsed = now_ns.saturating_sub(self.last_ns);
        let gained = u128::from(elapsed)
            .saturating_mul(u128::from(self.fill.0))
            .saturating_add(u128::from(self.carry));
        let whole = gained / NS_PER_S_WIDE;
        self.carry = u64::try_from(gained % NS_PER_S_WIDE).unwrap_or(0);
        let tokens = u128::from(self.tokens).saturating_add(whole);
        self.tokens = u64::try_from(min(tokens, u128::from(self.max_tokens))).unwrap_or(u64::MAX);
        if self.tokens == self.max_tokens {
            self.carry = 0;
        }
        self.last_ns = max(self.last_ns, now_ns);
    }
}

/// The adaptive retry mode's client-side rate limiter (the SDKs' `ClientRateLimiter`):
/// call [`acquire`](Self::acquire) before sending each request (first attempts and
/// retries alike) and [`on_response`](Self::on_response) after each response, saying
/// whether it was a throttle (HTTP 429, `Throttling`, `SlowDown`, ...: the caller's
/// classification). Off until the first throttle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdaptiveRateLimiter {
    cubic: CubicRate,
    meter: SendRateMeter,
    bucket: RateBucket,
    enabled: bool,
}

impl AdaptiveRateLimiter {
    /// A limiter created at `now_ns`, as the SDKs create one: the curve at 0, the
    /// bucket at 1 request per second, the meter empty, and off.
    pub fn new(now_ns: u64) -> AdaptiveRateLimiter {
        AdaptiveRateLimiter {
            cubic: CubicRate::new(Rate::ZERO, now_ns),
            meter: SendRateMeter::new(now_ns),
            bucket: RateBucket::new(Rate::per_second(1), now_ns),
            enabled: false,
        }
    }

    /// Whether a throttle has been seen, so that requests wait for tokens.
    pub const fn enabled(&self) -> bool {
        self.enabled
    }

    /// The rate requests are allowed at: the bucket's fill rate.
    pub const fn allowed_rate(&self) -> Rate {
        self.bucket.fill_rate()
    }

    /// The send rate measured so far.
    pub const fn measured_rate(&self) -> Rate {
        self.meter.measured()
    }

    /// Before sending a request at `now_ns`: take a token, once the limiter is on.
    ///
    /// # Errors
    ///
    /// [`Throttled`] with how long to wait before asking again; the request is not to
    /// be sent before then.
    pub fn acquire(&mut self, now_ns: u64) -> Result<(), Throttled> {
        if self.enabled {
            self.bucket.acquire(now_ns)
        } else {
            Ok(())
        }
    }

    /// After a response at `now_ns`, `throttled` if the service throttled the
    /// request: the new allowed rate, the CUBIC curve's but at most twice the
    /// measured send rate.
    pub fn on_response(&mut self, now_ns: u64, throttled: bool) {
        let measured = self.meter.record(now_ns);
        let next = if throttled {
            let at = if self.enabled {
                min(measured, self.bucket.fill_rate())
            } else {
                measured
            };
            self.enabled = true;
            self.cubic.on_throttle(at, now_ns)
        } else {
            self.cubic.on_success(now_ns)
        };
        self.bucket
            .set_rate(min(next, measured.scaled(MAX_ADJUST, 1)), now_ns);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_roots_are_floors() {
        let cube = |v: u128| v.checked_pow(3);
        for x in [0u128, 1, 7, 8, 9, 26, 27, 28, 999, 1000, 1001, u128::MAX] {
            let r = cube_root(x);
            assert!(cube(r).is_some_and(|c| c <= x), "{x}");
            assert!(cube(r.saturating_add(1)).is_none_or(|c| c > x), "{x}");
        }
        assert_eq!(cube_root(u128::MAX), 6_981_463_658_331);
    }

    #[test]
    fn rates_saturate() {
        assert_eq!(Rate::per_second(u64::MAX), MAX_RATE);
        assert_eq!(Rate::per_second(1).scaled(1, 0), MAX_RATE);
        let mut c = CubicRate::new(MAX_RATE, 0);
        assert_eq!(c.on_success(u64::MAX), MAX_RATE);
        assert_eq!(c.on_throttle(MAX_RATE, 0), MAX_RATE.scaled(7, 10));
        // Long before the throttle the curve would be negative: zero.
        let c = CubicRate::new(Rate::per_second(1), u64::MAX);
        assert_eq!(c.on_success(0), Rate::ZERO);
    }
}
