//! Load shedding and rate limiting at the server: a bounded queue and a token-bucket
//! rate limiter, both answering at once with a rejection that carries a Retry-After
//! delay (HTTP 429/503). Whether a client honours it is its strategy's `retry-after`.

use serde::Serialize;

use sim_kit::time::{PS_PER_SEC, Time};

/// A token bucket: `per_s` admissions per second on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RateLimit {
    /// Admissions per second.
    pub per_s: f64,
    /// Admissions banked at most.
    pub burst: u32,
}

/// The state of a [`RateLimit`].
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    limit: RateLimit,
    tokens: f64,
    last: Time,
}

impl Bucket {
    /// A full bucket.
    pub fn new(limit: RateLimit) -> Self {
        Self {
            limit,
            tokens: f64::from(limit.burst),
            last: Time::ZERO,
        }
    }

    /// Admit a request at `now` (taking a token), or refuse it.
    ///
    /// ```
    /// use retry_storm::shedding::{Bucket, RateLimit};
    /// use sim_kit::time::Time;
    /// let mut b = Bucket::new(RateLimit { per_s: 10.0, burst: 2 });
    /// assert!(b.admit(Time::ZERO) && b.admit(Time::ZERO));
    /// assert!(!b.admit(Time::ZERO)); // the burst is spent
    /// assert!(b.admit(Time::from_ms(100))); // one token back after 1/10 s
    /// ```
    #[inline]
    pub fn admit(&mut self, now: Time) -> bool {
        let dt = (now - self.last.min(now)).as_ps_f64() / PS_PER_SEC as f64;
        self.last = now;
        self.tokens = (self.tokens + dt * self.limit.per_s).min(f64::from(self.limit.burst));
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
