//! Retry policies for services and drivers: a [`Schedule`] (constant or exponential,
//! capped), a [`Jitter`] kind and [`Stop`] rules, combined in a small `Copy` value,
//! [`Policy`], with the per-request state kept apart in [`RetryState`].
//!
//! Time is always passed in by the caller, in integer nanoseconds (or
//! [`core::time::Duration`]): there is no clock in here, so a discrete-event simulator
//! can drive thousands of clients on simulated time, and firmware can use its tick
//! counter. Randomness is injected through [`rand_core::Rng`].
//!
//! ```
//! use backoff_core::{Jitter, Policy, Ratio, RetryDecision, RetryState, Schedule, Stop};
//! use core::time::Duration;
//! use rand_core::SeedableRng;
//!
//! // 100 ms, 200 ms, 400 ms, ... capped at 10 s, full jitter, 5 attempts in all.
//! let policy = Policy::new(
//!     Schedule::exponential(Duration::from_millis(100), Ratio::TWO, Duration::from_secs(10)).unwrap(),
//! )
//! .with_jitter(Jitter::Full)
//! .with_stop(Stop::NEVER.with_max_attempts(5).unwrap());
//!
//! let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
//! let mut state = RetryState::new();
//! let mut elapsed_ns = 0u64; // from the caller's clock, real or simulated
//! let mut retries = 0;
//! while let RetryDecision::Retry { delay_ns } = state.on_failure(&policy, elapsed_ns, &mut rng) {
//!     assert!(delay_ns <= 100_000_000 << retries);
//!     elapsed_ns += delay_ns;
//!     retries += 1;
//! }
//! assert_eq!(retries, 4); // five attempts, four retries
//! ```

mod exponential;
mod jitter;
pub mod presets;
mod ratio;
mod stop;

pub use crate::time::{duration_to_nanos, nanos_to_duration};
pub use exponential::Schedule;
pub use jitter::Jitter;
pub use ratio::{Fraction, Ratio};
pub use stop::{Stop, StopReason};

use core::time::Duration;

use rand_core::Rng;

use crate::answer::ServerAnswer;

/// What to do after a failed attempt.
///
/// Exhaustive on purpose: a policy either retries or gives up; why it gives up is
/// [`StopReason`], which may grow. A `match` on this enum needs no `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RetryDecision {
    /// Wait this long, then try again.
    Retry {
        /// The delay in nanoseconds.
        delay_ns: u64,
    },
    /// Give up, for this reason.
    GiveUp(StopReason),
}

impl RetryDecision {
    /// The delay in nanoseconds, or `None` when giving up.
    pub const fn delay_nanos(self) -> Option<u64> {
        match self {
            RetryDecision::Retry { delay_ns } => Some(delay_ns),
            RetryDecision::GiveUp(_) => None,
        }
    }

    /// The delay as a [`Duration`], or `None` when giving up.
    pub const fn delay(self) -> Option<Duration> {
        match self {
            RetryDecision::Retry { delay_ns } => Some(Duration::from_nanos(delay_ns)),
            RetryDecision::GiveUp(_) => None,
        }
    }
}

/// A complete retry policy: schedule, jitter, an optional ceiling applied after jitter,
/// and stopping rules. 80 bytes, `Copy`, shared by every request that uses it.
///
/// The delay after the `f`-th failure (`f >= 1`: the `f`-th failed attempt, the same
/// count as the collisions of [`BebConfig::decide`](crate::BebConfig::decide)) is
/// `min(ceiling, jitter(min(initial · multiplier^(f-1), max)))`. With
/// [`Policy::with_first_delay_unjittered`] the first one (`f = 1`) is exactly
/// `min(ceiling, initial)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Policy {
    schedule: Schedule,
    jitter: Jitter,
    stop: Stop,
    ceiling_ns: u64,
    jitter_first: bool,
    server_answers: bool,
}

impl Policy {
    /// The schedule alone: no jitter, no ceiling, never stops.
    pub const fn new(schedule: Schedule) -> Self {
        Self {
            schedule,
            jitter: Jitter::None,
            stop: Stop::NEVER,
            ceiling_ns: u64::MAX,
            jitter_first: true,
            server_answers: false,
        }
    }

    /// The same policy, honouring (`true`) or ignoring (`false`, the default of
    /// [`Policy::new`]) the server's answer handed to
    /// [`RetryState::on_failure_with`]: gRPC pushback, HTTP `Retry-After`, "do not
    /// retry" (the rules are in [`crate::answer`]). The gRPC retry preset
    /// ([`presets::grpc_retry`]) honours them, as gRFC A6 requires of a gRPC client.
    ///
    /// ```
    /// use backoff_core::{Policy, RetryDecision, RetryState, Schedule, ServerAnswer};
    /// use rand_core::SeedableRng;
    /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
    /// let p = Policy::new(Schedule::constant_nanos(1_000));
    /// let pushback = ServerAnswer::Pushback { delay_ns: 5_000 };
    /// let d = RetryState::new().on_failure_with(&p, 0, pushback, &mut rng);
    /// assert_eq!(d, RetryDecision::Retry { delay_ns: 1_000 }); // ignored
    /// let p = p.with_server_answers(true);
    /// let d = RetryState::new().on_failure_with(&p, 0, pushback, &mut rng);
    /// assert_eq!(d, RetryDecision::Retry { delay_ns: 5_000 }); // honoured
    /// ```
    pub const fn with_server_answers(mut self, honour: bool) -> Self {
        self.server_answers = honour;
        self
    }

    /// Whether the policy honours the server's answers
    /// ([`Policy::with_server_answers`]).
    pub const fn honours_server_answers(&self) -> bool {
        self.server_answers
    }

    /// The same policy with the first delay (after the first failure) left unjittered:
    /// exactly the schedule's initial delay, as gRPC's connection backoff waits
    /// `INITIAL_BACKOFF` before its second attempt. Later delays are jittered as before.
    pub const fn with_first_delay_unjittered(mut self) -> Self {
        self.jitter_first = false;
        self
    }

    /// Whether the first delay is jittered (true unless
    /// [`Policy::with_first_delay_unjittered`] was called).
    pub const fn jitters_first_delay(&self) -> bool {
        self.jitter_first
    }

    /// The same policy with this jitter.
    pub const fn with_jitter(mut self, jitter: Jitter) -> Self {
        self.jitter = jitter;
        self
    }

    /// The same policy with these stopping rules.
    pub const fn with_stop(mut self, stop: Stop) -> Self {
        self.stop = stop;
        self
    }

    /// The same policy with a ceiling applied *after* jitter (Google Cloud's
    /// `min(2^n + random_ms, maximum_backoff)`). The schedule's own `max` applies before
    /// jitter.
    pub const fn with_ceiling(self, ceiling: Duration) -> Self {
        self.with_ceiling_nanos(duration_to_nanos(ceiling))
    }

    /// [`Policy::with_ceiling`] in nanoseconds.
    pub const fn with_ceiling_nanos(mut self, ceiling_ns: u64) -> Self {
        self.ceiling_ns = ceiling_ns;
        self
    }

    /// The schedule.
    pub const fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// The jitter kind.
    pub const fn jitter(&self) -> Jitter {
        self.jitter
    }

    /// The stopping rules.
    pub const fn stop(&self) -> Stop {
        self.stop
    }

    /// The ceiling after jitter, in nanoseconds (`u64::MAX` when none).
    pub const fn ceiling_nanos(&self) -> u64 {
        self.ceiling_ns
    }

    /// The ceiling after jitter ([`Duration`] of `u64::MAX` ns when none).
    pub const fn ceiling(&self) -> Duration {
        Duration::from_nanos(self.ceiling_ns)
    }

    /// The pure rule: after `failures` failed attempts, with `prev_delay_ns` the
    /// previous delay (0 if none) and `elapsed_ns` the time since the first attempt
    /// began, retry after how long, or give up?
    ///
    /// `failures` counts from 1, this failure included: the same count as the
    /// `collisions` of [`BebConfig::decide`](crate::BebConfig::decide), and what
    /// [`RetryState::failures`] holds after [`RetryState::on_failure`]. As there,
    /// `failures = 0` means nothing has failed yet: the answer is `Retry` with no delay
    /// (go now), and nothing is drawn.
    ///
    /// The attempt limit is checked before anything is drawn, so a policy that gives up
    /// on attempts does not step the RNG.
    ///
    /// ```
    /// use backoff_core::{Policy, RetryDecision, Schedule};
    /// use rand_core::SeedableRng;
    /// let p = Policy::new(Schedule::constant_nanos(1_000));
    /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
    /// assert_eq!(p.decide(0, 0, 0, &mut rng), RetryDecision::Retry { delay_ns: 0 });
    /// assert_eq!(p.decide(1, 0, 0, &mut rng), RetryDecision::Retry { delay_ns: 1_000 });
    /// ```
    #[inline]
    pub fn decide<R: Rng + ?Sized>(
        &self,
        failures: u32,
        prev_delay_ns: u64,
        elapsed_ns: u64,
        rng: &mut R,
    ) -> RetryDecision {
        self.decide_at(failures, failures, prev_delay_ns, elapsed_ns, rng)
    }

    /// [`Policy::decide`] with the schedule at `step` (1 for the initial backoff) while
    /// the stop rules count `failures`: they differ after a gRPC pushback, which
    /// restarts the backoff but not the attempt count.
    #[inline]
    fn decide_at<R: Rng + ?Sized>(
        &self,
        failures: u32,
        step: u32,
        prev_delay_ns: u64,
        elapsed_ns: u64,
        rng: &mut R,
    ) -> RetryDecision {
        if failures == 0 {
            return RetryDecision::Retry { delay_ns: 0 };
        }
        if self.stop.attempts_exhausted(failures) {
            return RetryDecision::GiveUp(StopReason::MaxAttempts);
        }
        let base = self.schedule.base_after_nanos(step);
        let jittered = if step == 1 && !self.jitter_first {
            base
        } else {
            self.jitter
                .apply_nanos(base, prev_delay_ns, &self.schedule, rng)
        };
        let delay = jittered.min(self.ceiling_ns);
        match self.stop.check(failures, delay, elapsed_ns) {
            Some(reason) => RetryDecision::GiveUp(reason),
            None => RetryDecision::Retry { delay_ns: delay },
        }
    }
}

/// The per-request state of a [`Policy`]: failures so far and the last delay.
/// 16 bytes, `Copy`; keep one per request (or per simulated client) and share the
/// policy. It counts as [`FrameBackoff`](crate::FrameBackoff) does: [`failures`]
/// (like `collisions`) from 0, and [`attempt`] (the attempt about to be made) from 1.
///
/// [`failures`]: RetryState::failures
/// [`attempt`]: RetryState::attempt
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RetryState {
    failures: u32,
    /// The failure count at the last honoured gRPC pushback (0 if none): the
    /// schedule's step is `failures - backoff_origin`.
    backoff_origin: u32,
    prev_delay_ns: u64,
}

impl RetryState {
    /// A request before its first attempt.
    pub const fn new() -> Self {
        Self {
            failures: 0,
            backoff_origin: 0,
            prev_delay_ns: 0,
        }
    }

    /// Failed attempts so far (0 before the first failure).
    pub const fn failures(&self) -> u32 {
        self.failures
    }

    /// The number of the attempt about to be made (1 for the first), saturating at
    /// `u32::MAX`.
    pub const fn attempt(&self) -> u32 {
        self.failures.saturating_add(1)
    }

    /// The last delay of the policy's own schedule, in nanoseconds (0 before the first
    /// retry, and after a gRPC pushback, which restarts the schedule). It is the delay
    /// returned, except after a `Retry-After` longer than it (see [`crate::answer`]).
    pub const fn prev_delay_nanos(&self) -> u64 {
        self.prev_delay_ns
    }

    /// [`RetryState::prev_delay_nanos`] as a [`Duration`].
    pub const fn prev_delay(&self) -> Duration {
        Duration::from_nanos(self.prev_delay_ns)
    }

    /// The attempt that just finished failed: count it and ask the policy. `elapsed_ns`
    /// is the time since the first attempt began, on the caller's clock. The same as
    /// [`RetryState::on_failure_with`] with [`ServerAnswer::None`].
    #[inline]
    pub fn on_failure<R: Rng + ?Sized>(
        &mut self,
        policy: &Policy,
        elapsed_ns: u64,
        rng: &mut R,
    ) -> RetryDecision {
        self.on_failure_with(policy, elapsed_ns, ServerAnswer::None, rng)
    }

    /// The attempt that just finished failed, and the server said `answer` with it:
    /// count it and ask the policy, which follows the answer if it honours server
    /// answers ([`Policy::with_server_answers`]) and ignores it otherwise.
    ///
    /// * [`ServerAnswer::DoNotRetry`]: give up with [`StopReason::ServerRefused`].
    /// * [`ServerAnswer::Pushback`] (gRFC A6): retry after exactly the pushback, nothing
    ///   drawn; the next failure's delay restarts from the initial backoff.
    /// * [`ServerAnswer::RetryAfter`] (RFC 9110 section 10.2.3): the policy's own delay
    ///   `d` is drawn as usual, and the retry waits `max(d, Retry-After)`.
    ///
    /// The stop rules (attempts, maximum delay, maximum elapsed time) judge the delay
    /// actually waited. [`crate::answer`] has the sources.
    ///
    /// ```
    /// use backoff_core::{presets, Ratio, RetryDecision, RetryState, ServerAnswer, StopReason};
    /// use core::time::Duration;
    /// use rand_core::SeedableRng;
    /// let ms = Duration::from_millis;
    /// let p = presets::grpc_retry(3, ms(100), ms(1_000), Ratio::TWO).unwrap();
    /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
    /// let mut s = RetryState::new();
    /// let d = s.on_failure_with(&p, 0, ServerAnswer::pushback_millis(700), &mut rng);
    /// assert_eq!(d, RetryDecision::Retry { delay_ns: 700_000_000 });
    /// // That attempt fails too: the backoff restarts at 100 ms ± 20 %.
    /// let d = s.on_failure(&p, 700_000_000, &mut rng).delay_nanos().unwrap();
    /// assert!((80_000_000..=120_000_000).contains(&d));
    /// // The third attempt was the last one: a pushback cannot extend it.
    /// let d = s.on_failure_with(&p, 0, ServerAnswer::pushback_millis(1), &mut rng);
    /// assert_eq!(d, RetryDecision::GiveUp(StopReason::MaxAttempts));
    /// ```
    pub fn on_failure_with<R: Rng + ?Sized>(
        &mut self,
        policy: &Policy,
        elapsed_ns: u64,
        answer: ServerAnswer,
        rng: &mut R,
    ) -> RetryDecision {
        self.failures = self.failures.saturating_add(1);
        let answer = if policy.server_answers {
            answer
        } else {
            ServerAnswer::None
        };
        match answer {
            ServerAnswer::DoNotRetry => RetryDecision::GiveUp(StopReason::ServerRefused),
            ServerAnswer::Pushback { delay_ns } => {
                match policy.stop.check(self.failures, delay_ns, elapsed_ns) {
                    Some(reason) => RetryDecision::GiveUp(reason),
                    None => {
                        self.backoff_origin = self.failures;
                        self.prev_delay_ns = 0;
                        RetryDecision::Retry { delay_ns }
                    }
                }
            }
            ServerAnswer::None | ServerAnswer::RetryAfter { .. } => {
                let step = self.failures.saturating_sub(self.backoff_origin).max(1);
                let d = policy.decide_at(self.failures, step, self.prev_delay_ns, elapsed_ns, rng);
                let RetryDecision::Retry { delay_ns: own } = d else {
                    return d;
                };
                self.prev_delay_ns = own;
                let ServerAnswer::RetryAfter { delay_ns: server } = answer else {
                    return d;
                };
                let delay_ns = own.max(server);
                match policy.stop.check(self.failures, delay_ns, elapsed_ns) {
                    Some(reason) => RetryDecision::GiveUp(reason),
                    None => RetryDecision::Retry { delay_ns },
                }
            }
        }
    }

    /// The request succeeded or was abandoned: start the next one from zero.
    #[inline]
    pub fn reset(&mut self) {
        *self = Self::new();
    }
}
