//! The adaptive retry mode's rate limiter against the published formulas: a
//! floating-point limiter written from them (the AWS SDKs' `CubicCalculator`,
//! `RateClocker`, `TokenBucket` and `ClientRateLimiter`, with their constants β = 0.7,
//! C = 0.4, smoothing 0.8, half-second buckets, a minimum fill rate of 0.5/s and a new
//! rate of at most twice the measured one) walks the same requests and responses as
//! the crate's integer one, and every rate, token count and wait must agree.
//!
//! Thresholds: the integer limiter rounds each rate down to a millionth of a request
//! per second and `K` down to a nanosecond, so a rate may differ from the formula's by
//! a few millionths (the tolerance is 10 millionths, or 10⁻⁹ of the rate), and a wait
//! for a token within 10⁻⁴ of itself (the tokens integrate the rates); the CUBIC
//! rate is recomputed from `W_max` and the time at every step and the meter's
//! smoothing shrinks an old error by 0.2 each bucket, so errors do not accumulate.

use backoff_core::adaptive::{
    AdaptiveRateLimiter, CubicRate, MAX_ADJUST, MIN_FILL, Rate, RateBucket, SendRateMeter,
};

const S: u64 = 1_000_000_000;

/// The formulas, in `f64` seconds and requests per second.
struct Reference {
    w_max: f64,
    k: f64,
    last_fail: f64,
    measured: f64,
    last_bucket: f64,
    count: f64,
    fill: f64,
    max_capacity: f64,
    capacity: f64,
    last: f64,
    enabled: bool,
}

impl Reference {
    fn new(t: f64) -> Self {
        let mut r = Reference {
            w_max: 0.0,
            k: 0.0,
            last_fail: t,
            measured: 0.0,
            last_bucket: t.floor(),
            count: 0.0,
            fill: 0.0,
            max_capacity: 0.0,
            capacity: 0.0,
            last: t,
            enabled: false,
        };
        r.k = (r.w_max * (1.0 - 0.7) / 0.4).cbrt();
        r.set_rate(1.0, t);
        r
    }
    fn refill(&mut self, t: f64) {
        self.capacity = (self.capacity + (t - self.last) * self.fill).min(self.max_capacity);
        self.last = t;
    }
    fn set_rate(&mut self, value: f64, t: f64) {
        self.refill(t);
        self.fill = value.max(0.5);
        self.max_capacity = if value >= 1.0 { value } else { 1.0 };
        self.capacity = self.capacity.min(self.max_capacity);
    }
    /// `None` when a token is taken, else the wait in seconds.
    fn acquire(&mut self, t: f64) -> Option<f64> {
        if !self.enabled {
            return None;
        }
        self.refill(t);
        if self.capacity >= 1.0 {
            self.capacity -= 1.0;
            None
        } else {
            Some((1.0 - self.capacity) / self.fill)
        }
    }
    fn on_response(&mut self, t: f64, throttled: bool) {
        let bucket = (t * 2.0).floor() / 2.0;
        self.count += 1.0;
        if bucket > self.last_bucket {
            let current = self.count / (bucket - self.last_bucket);
            self.measured = current * 0.8 + self.measured * 0.2;
            self.count = 0.0;
            self.last_bucket = bucket;
        }
        let next = if throttled {
            let at = if self.enabled {
                self.measured.min(self.fill)
            } else {
                self.measured
            };
            self.enabled = true;
            self.w_max = at;
            self.k = (at * (1.0 - 0.7) / 0.4).cbrt();
            self.last_fail = t;
            at * 0.7
        } else {
            0.4 * (t - self.last_fail - self.k).powi(3) + self.w_max
        };
        self.set_rate(next.min(2.0 * self.measured), t);
    }
}

fn close(got: Rate, want: f64, what: &str) {
    let got = got.as_micros_per_sec() as f64;
    let want = (want * 1e6).max(0.0);
    let tol = 10.0_f64.max(want * 1e-9);
    assert!(
        (got - want).abs() <= tol,
        "{what}: {got} millionths/s against {want}"
    );
}

#[test]
fn the_published_constants() {
    assert_eq!(MIN_FILL, Rate::from_micros_per_sec(500_000));
    assert_eq!(MAX_ADJUST, 2);
    // botocore's hand-verified zero points: K = 1.9574338205844317 s for W_max 10,
    // 1.8171205928321397 s for W_max 8.
    assert_eq!(
        CubicRate::new(Rate::per_second(10), 0).zero_point_ns(),
        1_957_433_820
    );
    let mut c = CubicRate::new(Rate::per_second(10), 0);
    let after = c.on_throttle(Rate::per_second(8), S);
    assert_eq!(c.zero_point_ns(), 1_817_120_592);
    assert_eq!(
        (c.w_max(), after),
        (Rate::per_second(8), Rate::from_micros_per_sec(5_600_000))
    );
    // Before K the curve is below W_max, at K on it, after it above.
    let c = CubicRate::new(Rate::per_second(10), 0);
    let k = c.zero_point_ns();
    for t in [k / 3, k / 2, k * 10 / 11] {
        assert!(c.on_success(t) <= Rate::per_second(10));
    }
    assert_eq!(c.on_success(k), Rate::per_second(10));
    for t in [k * 11 / 10, 2 * k] {
        assert!(c.on_success(t) >= Rate::per_second(10));
    }
}

#[test]
fn the_meter_as_published() {
    // One request at 1 s after a meter made at 0: one request over the two buckets    // first estimate is 1 per second weighted by 0.8.
    let mut m = SendRateMeter::new(0);
    assert_eq!(m.record(S), Rate::from_micros_per_sec(800_000));
    // One request a second for 20 s: 1 per second.
    let mut m = SendRateMeter::new(0);
    for t in 1..=20 {
        m.record(t * S);
    }
    close(m.measured(), 1.0, "constant rate");
    // Two a second, then a pause of 10 s: between 0.1 and 2.
    let mut m = SendRateMeter::new(0);
    for t in [2, 3, 4, 5, 6, 7, 8] {
        m.record(t * S / 2);
    }
    let two = m.measured();
    assert!(two >= Rate::from_micros_per_sec(1_990_000) && two <= Rate::per_second(2));
    let after = m.record(14 * S);
    assert!(after >= Rate::from_micros_per_sec(100_000) && after <= Rate::per_second(2));
    // Requests at the same instant add no bucket.
    let mut m = SendRateMeter::new(0);
    for t in [1, 1, 1, 2, 3] {
        m.record(t * S);
    }
    assert!(m.measured() >= Rate::per_second(1));
}

#[test]
fn the_bucket_refills_exactly_however_often_it_is_asked() {
    // At 3/s, refilled every 7 919 ns (setting the same rate refills it), it gains
    // exactly 3 tokens a second, as one refill after a second gives.
    let mut often = RateBucket::new(Rate::per_second(3), 0);
    let mut t = 0;
    while t < S {
        t = (t + 7_919).min(S);
        often.set_rate(Rate::per_second(3), t);
    }
    let mut once = RateBucket::new(Rate::per_second(3), 0);
    assert!(once.acquire(S).is_ok() && often.tokens_micros() == 3_000_000);
    assert_eq!(once.tokens_micros(), 2_000_000);
}

/// A client's requests: bursts at 20/s, pauses, and throttles when it sends faster
/// than a service's 8/s, as the limiter lets it.
#[test]
fn the_limiter_follows_the_formulas_through_throttles_and_recovery() {
    let mut int = AdaptiveRateLimiter::new(0);
    let mut float = Reference::new(0.0);
    let mut t: u64 = 0;
    let mut sent_in_last_second: Vec<u64> = Vec::new();
    let mut waits = 0;
    let mut throttles = 0;
    for step in 0..3_000u64 {
        // The client wants a request every 50 ms, with a 3-second pause every 20 s.
        t += if step % 400 == 399 { 3 * S } else { S / 20 };
        loop {
            let a = int.acquire(t);
            let b = float.acquire(t as f64 / 1e9);
            match (a, b) {
                (Ok(()), None) => break,
                (Err(w), Some(ws)) => {
                    // The rates agree within 10 millionths per second; the tokens
                    // integrate that over the seconds since the bucket was last full,
                    // so a wait agrees within 10⁻⁴ of itself (and 2 µs of rounding).
                    let want = (ws * 1e9).ceil();
                    let tol = 2_000.0 + want * 1e-4;
                    assert!(
                        (w.wait_ns as f64 - want).abs() <= tol,
                        "wait {} against {want}",
                        w.wait_ns
                    );
                    waits += 1;
                    t += w.wait_ns;
                }
                (a, b) => panic!("at {t} ns the limiters disagree: {a:?} against {b:?}"),
            }
        }
        sent_in_last_second.retain(|&s| s + S > t);
        sent_in_last_second.push(t);
        let throttled = sent_in_last_second.len() > 8;
        throttles += u32::from(throttled);
        int.on_response(t, throttled);
        float.on_response(t as f64 / 1e9, throttled);
        assert_eq!(int.enabled(), float.enabled);
        close(
            int.measured_rate(),
            float.measured,
            &format!("measured at step {step}"),
        );
        close(
            int.allowed_rate(),
            float.fill,
            &format!("allowed at step {step}"),
        );
    }
    // The walk saw both sides of the curve.
    assert!(
        throttles > 10 && waits > 100,
        "{throttles} throttles, {waits} waits"
    );
}
