//! Run an operation under a [`Policy`]: call it, and on a transient failure wait the
//! policy's delay and call it again, until it succeeds, fails permanently, or the
//! policy gives up.
//!
//! [`retry`] is the one blocking loop, generic over a [`Timer`] that tells elapsed time
//! and waits, so it runs on any clock, real or simulated. Two timers come with the
//! crate: `StdTimer` (feature `std`: `std::time::Instant` and `std::thread::sleep`,
//! used by `retry_std`) and `DelayTimer` (feature `embedded-hal`: waits through
//! `embedded_hal::delay::DelayNs`, used by `retry_delay`). `retry_async` (feature
//! `embedded-hal-async`) is the same loop awaiting
//! `embedded_hal_async::delay::DelayNs`, for embassy on a microcontroller or tokio on a
//! host. All of them make the same decisions, through one function.
//!
//! The operation decides, through its error, between [`Failure::Transient`] (retry)
//! and [`Failure::Permanent`] (stop now). A notify hook sees each error with the delay
//! chosen after it (`None` when the loop stops there).
//!
//! ```
//! use backoff_core::{Policy, Schedule, Stop};
//! use backoff_core::retry::{retry, Failure, GiveUpReason, Timer};
//! use rand_core::SeedableRng;
//!
//! /// Simulated time: sleeping just advances the clock.
//! struct SimClock(u64);
//! impl Timer for SimClock {
//!     fn elapsed_ns(&mut self) -> u64 { self.0 }
//!     fn sleep_ns(&mut self, ns: u64) { self.0 += ns; }
//! }
//!
//! let policy = Policy::new(Schedule::constant_nanos(1_000))
//!     .with_stop(Stop::NEVER.with_max_attempts(4).unwrap());
//! let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
//! let mut clock = SimClock(0);
//! let mut seen = Vec::new();
//! let r = retry(&policy, &mut rng, &mut clock,
//!     |attempt| if attempt < 3 { Err(Failure::Transient(attempt)) } else { Ok("done") },
//!     |err, delay| seen.push((*err, delay)));
//! assert_eq!(r, Ok("done"));
//! assert_eq!(seen, [(1, Some(1_000)), (2, Some(1_000))]);
//! assert_eq!(clock.0, 2_000);
//!
//! let r: Result<(), _> = retry(&policy, &mut rng, &mut clock,
//!     |_| Err(Failure::Permanent("bad request")), |_, _| {});
//! assert_eq!(r.unwrap_err().reason, GiveUpReason::Permanent);
//! ```

use rand_core::Rng;

use crate::answer::ServerAnswer;
use crate::policy::{Policy, RetryDecision, RetryState, StopReason};

/// How an attempt failed: the operation's error decides whether to retry.
///
/// `#[non_exhaustive]`: a server's own answer on when to retry (HTTP `Retry-After`,
/// gRPC's retry pushback) may become a variant, so a `match` outside this crate needs
/// a `_` arm. [`Failure::into_inner`] takes the error out of any variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Failure<E> {
    /// Worth retrying (a timeout, a busy server, a collision).
    Transient(E),
    /// Retrying cannot help (bad request, authentication): stop now.
    Permanent(E),
    /// Worth retrying, and the server said when (or whether): a gRPC pushback, an
    /// HTTP `Retry-After`, a refusal. The policy follows it if it honours server
    /// answers ([`Policy::with_server_answers`]).
    Answered(E, ServerAnswer),
    /// Worth retrying, and the server said it is throttling this client (the AWS
    /// SDKs' throttling error codes, HTTP 429): an adaptive rate limiter slows down.
    Throttled(E),
}

impl<E> Failure<E> {
    /// The error inside.
    pub fn into_inner(self) -> E {
        match self {
            Failure::Transient(e)
            | Failure::Permanent(e)
            | Failure::Answered(e, _)
            | Failure::Throttled(e) => e,
        }
    }

    /// What the server said with it ([`ServerAnswer::None`] unless [`Failure::Answered`]).
    pub const fn answer(&self) -> ServerAnswer {
        match self {
            Failure::Answered(_, a) => *a,
            _ => ServerAnswer::None,
        }
    }
}

/// Why [`retry`] stopped without a result.
///
/// `#[non_exhaustive]`: the retry loops may learn new reasons to stop (a retry budget
/// or a deadline, say), so a `match` outside this crate needs a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum GiveUpReason {
    /// The operation reported a [`Failure::Permanent`] error.
    Permanent,
    /// The policy's stopping rules ended it.
    Policy(StopReason),
    /// A retry budget had no retry left ([`RetryGate::allow_retry`](crate::gate::RetryGate::allow_retry)).
    Budget,
    /// The circuit breaker refused the attempt.
    BreakerOpen,
}

/// The last error, the attempts made, and why the loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct GaveUp<E> {
    /// The error of the last attempt.
    pub error: E,
    /// Attempts made, the first one included.
    pub attempts: u32,
    /// Why the loop stopped.
    pub reason: GiveUpReason,
}

/// A clock and a way to wait, in nanoseconds.
pub trait Timer {
    /// Time since the retry loop started (any monotonic origin works, as long as it is
    /// the same for the whole loop; [`retry`] only uses it for the elapsed-time limit).
    fn elapsed_ns(&mut self) -> u64;
    /// Block (or, in a simulation, advance time) for `ns` nanoseconds.
    fn sleep_ns(&mut self, ns: u64);
}

/// Call `op(attempt)` (attempt 1, 2, ...) until it returns `Ok`, a
/// [`Failure::Permanent`], or the policy gives up; between attempts wait the policy's
/// delay on `timer`. `notify(error, delay)` sees every error, with the delay about to be
/// waited or `None` when the loop stops.
///
/// # Errors
///
/// [`GaveUp`] with the last error, the attempts made and why: a
/// [`Failure::Permanent`] error, or the policy's stop rules.
pub fn retry<T, E, R, Tm, Op, N>(
    policy: &Policy,
    rng: &mut R,
    timer: &mut Tm,
    mut op: Op,
    mut notify: N,
) -> Result<T, GaveUp<E>>
where
    R: Rng + ?Sized,
    Tm: Timer + ?Sized,
    Op: FnMut(u32) -> Result<T, Failure<E>>,
    N: FnMut(&E, Option<u64>),
{
    let mut state = RetryState::new();
    loop {
        let outcome = op(state.attempt());
        match after_attempt(
            outcome,
            &mut state,
            policy,
            || timer.elapsed_ns(),
            rng,
            &mut notify,
        ) {
            Next::Done(result) => return result,
            Next::Wait(delay_ns) => timer.sleep_ns(delay_ns),
        }
    }
}

/// What a retry loop does after an attempt.
enum Next<T, E> {
    /// Return this.
    Done(Result<T, GaveUp<E>>),
    /// Wait this many nanoseconds, then make the next attempt.
    Wait(u64),
}

/// The decision every retry loop makes after an attempt, in one place: return the
/// value, give up (permanent error or the policy's stop rules), or wait the policy's
/// delay. `elapsed_ns` is asked only after a transient failure.
fn after_attempt<T, E, R, N>(
    outcome: Result<T, Failure<E>>,
    state: &mut RetryState,
    policy: &Policy,
    elapsed_ns: impl FnOnce() -> u64,
    rng: &mut R,
    notify: &mut N,
) -> Next<T, E>
where
    R: Rng + ?Sized,
    N: FnMut(&E, Option<u64>),
{
    let error = match outcome {
        Ok(v) => return Next::Done(Ok(v)),
        Err(Failure::Permanent(error)) => {
            notify(&error, None);
            return Next::Done(Err(GaveUp {
                error,
                attempts: state.attempt(),
                reason: GiveUpReason::Permanent,
            }));
        }
        Err(failure) => failure,
    };
    let answer = error.answer();
    let error = error.into_inner();
    match state.on_failure_with(policy, elapsed_ns(), answer, rng) {
        RetryDecision::Retry { delay_ns } => {
            notify(&error, Some(delay_ns));
            Next::Wait(delay_ns)
        }
        RetryDecision::GiveUp(reason) => {
            notify(&error, None);
            Next::Done(Err(GaveUp {
                error,
                attempts: state.failures(),
                reason: GiveUpReason::Policy(reason),
            }))
        }
    }
}

#[cfg(feature = "std")]
mod std_timer {
    use super::{Failure, GaveUp, Policy, Rng, Timer, retry};
    use crate::time::duration_to_nanos;
    use std::time::{Duration, Instant};

    /// Real time for [`retry`]: `Instant` for elapsed time, `thread::sleep` to wait
    /// (feature `std`).
    #[derive(Clone, Copy, Debug)]
    pub struct StdTimer {
        start: Instant,
    }

    impl StdTimer {
        /// A timer whose elapsed time starts now.
        pub fn start() -> Self {
            Self {
                start: Instant::now(),
            }
        }
    }

    impl Timer for StdTimer {
        fn elapsed_ns(&mut self) -> u64 {
            duration_to_nanos(self.start.elapsed())
        }
        fn sleep_ns(&mut self, ns: u64) {
            std::thread::sleep(Duration::from_nanos(ns));
        }
    }

    /// [`retry`] on real time, blocking the thread between attempts (feature `std`).
    ///
    /// ```
    /// use backoff_core::{Policy, Schedule, Stop};
    /// use backoff_core::retry::{retry_std, Failure};
    /// use core::time::Duration;
    /// use rand_core::SeedableRng;
    /// let policy = Policy::new(Schedule::constant(Duration::from_micros(50)))
    ///     .with_stop(Stop::NEVER.with_max_attempts(3).unwrap());
    /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
    /// let r = retry_std(&policy, &mut rng, |n| if n < 2 { Err(Failure::Transient(n)) } else { Ok(n) },
    ///     |e, d| eprintln!("attempt {e} failed, retrying in {d:?} ns"));
    /// assert_eq!(r, Ok(2));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`retry`](super::retry): [`GaveUp`] with the last error, the attempts made
    /// and why.
    pub fn retry_std<T, E, R, Op, N>(
        policy: &Policy,
        rng: &mut R,
        op: Op,
        notify: N,
    ) -> Result<T, GaveUp<E>>
    where
        R: Rng + ?Sized,
        Op: FnMut(u32) -> Result<T, Failure<E>>,
        N: FnMut(&E, Option<u64>),
    {
        retry(policy, rng, &mut StdTimer::start(), op, notify)
    }
}
#[cfg(feature = "std")]
pub use std_timer::{StdTimer, retry_std};

#[cfg(feature = "embedded-hal")]
mod delay_timer {
    use super::{Failure, GaveUp, Policy, Rng, Timer, retry};
    use crate::time::u32_pieces;
    use embedded_hal::delay::DelayNs;

    /// Waits through `embedded_hal::delay::DelayNs` (feature `embedded-hal`). Without a
    /// clock, elapsed time is the sum of the waits so far (the attempts' own durations
    /// are not counted); implement [`Timer`] over a real clock when that matters.
    #[derive(Debug)]
    pub struct DelayTimer<'a, D: DelayNs + ?Sized> {
        delay: &'a mut D,
        waited_ns: u64,
    }

    impl<'a, D: DelayNs + ?Sized> DelayTimer<'a, D> {
        /// A timer over `delay`, with nothing waited yet.
        pub fn new(delay: &'a mut D) -> Self {
            Self {
                delay,
                waited_ns: 0,
            }
        }
    }

    impl<D: DelayNs + ?Sized> Timer for DelayTimer<'_, D> {
        fn elapsed_ns(&mut self) -> u64 {
            self.waited_ns
        }
        fn sleep_ns(&mut self, ns: u64) {
            // DelayNs takes u32 nanoseconds (4.29 s): pay long waits out in pieces.
            for piece in u32_pieces(u128::from(ns)) {
                self.delay.delay_ns(piece);
            }
            self.waited_ns = self.waited_ns.saturating_add(ns);
        }
    }

    /// [`retry`] for firmware: waits through `DelayNs` (feature `embedded-hal`).
    ///
    /// ```
    /// use backoff_core::{Policy, Schedule, Stop};
    /// use backoff_core::retry::{retry_delay, Failure, GiveUpReason};
    /// use backoff_core::StopReason;
    /// use rand_core::SeedableRng;
    /// struct Count(u64);
    /// impl embedded_hal::delay::DelayNs for Count {
    ///     fn delay_ns(&mut self, ns: u32) { self.0 += u64::from(ns); }
    /// }
    /// let policy = Policy::new(Schedule::constant_nanos(5_000_000_000)) // 5 s > u32 ns
    ///     .with_stop(Stop::NEVER.with_max_attempts(2).unwrap());
    /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
    /// let mut delay = Count(0);
    /// let r: Result<(), _> = retry_delay(&policy, &mut rng, &mut delay,
    ///     |_| Err(Failure::Transient("nak")), |_, _| {});
    /// assert_eq!(r.unwrap_err().reason, GiveUpReason::Policy(StopReason::MaxAttempts));
    /// assert_eq!(delay.0, 5_000_000_000);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`retry`](super::retry): [`GaveUp`] with the last error, the attempts made
    /// and why.
    pub fn retry_delay<T, E, R, D, Op, N>(
        policy: &Policy,
        rng: &mut R,
        delay: &mut D,
        op: Op,
        notify: N,
    ) -> Result<T, GaveUp<E>>
    where
        R: Rng + ?Sized,
        D: DelayNs + ?Sized,
        Op: FnMut(u32) -> Result<T, Failure<E>>,
        N: FnMut(&E, Option<u64>),
    {
        retry(policy, rng, &mut DelayTimer::new(delay), op, notify)
    }
}
#[cfg(feature = "embedded-hal")]
pub use delay_timer::{DelayTimer, retry_delay};

#[cfg(feature = "embedded-hal-async")]
mod async_delay {
    use embedded_hal_async::delay::DelayNs;

    use super::{Failure, GaveUp, Next, Policy, RetryState, Rng, after_attempt};
    use crate::time::u32_pieces;

    /// [`retry`](super::retry) for async code: awaits the policy's delays through
    /// `embedded_hal_async::delay::DelayNs` (feature `embedded-hal-async`), so it runs
    /// under embassy (`embassy_time::Delay`) on a microcontroller and under tokio on a
    /// host (a `DelayNs` over `tokio::time::sleep`), with no allocation.
    ///
    /// `op` is an async closure called with the attempt number (1, 2, ...); it may
    /// borrow the driver mutably (`async |_| i2c.read(..).await`), and a plain closure
    /// returning a future works too. As with
    /// `retry_delay`, there is no clock: the elapsed time the policy's
    /// `max_elapsed` rule sees is the sum of the waits so far (the attempts' own
    /// durations are not counted). Waits longer than `u32::MAX` ns (4.29 s) are paid
    /// out in pieces.
    ///
    /// ```
    /// use backoff_core::{Policy, Schedule, Stop};
    /// use backoff_core::retry::{retry_async, Failure};
    /// use core::future::Future;
    /// use core::pin::pin;
    /// use core::task::{Context, Poll, Waker};
    /// use rand_core::SeedableRng;
    ///
    /// /// A delay that only counts (a real one is `embassy_time::Delay` or a tokio sleep).
    /// struct Count(u64);
    /// impl embedded_hal_async::delay::DelayNs for Count {
    ///     async fn delay_ns(&mut self, ns: u32) { self.0 += u64::from(ns); }
    /// }
    ///
    /// let policy = Policy::new(Schedule::constant_nanos(5_000_000_000)) // 5 s > u32 ns
    ///     .with_stop(Stop::NEVER.with_max_attempts(3).unwrap());
    /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
    /// let mut delay = Count(0);
    /// let fut = retry_async(&policy, &mut rng, &mut delay,
    ///     async |attempt| if attempt < 3 { Err(Failure::Transient(attempt)) } else { Ok(attempt) },
    ///     |_, _| {});
    /// // Nothing here ever waits for real, so one poll runs it to the end.
    /// let Poll::Ready(r) = pin!(fut).poll(&mut Context::from_waker(Waker::noop())) else { panic!() };
    /// assert_eq!(r, Ok(3));
    /// assert_eq!(delay.0, 10_000_000_000);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`retry`](super::retry): [`GaveUp`] with the last error, the attempts made
    /// and why.
    pub async fn retry_async<T, E, R, D, Op, N>(
        policy: &Policy,
        rng: &mut R,
        delay: &mut D,
        mut op: Op,
        mut notify: N,
    ) -> Result<T, GaveUp<E>>
    where
        R: Rng + ?Sized,
        D: DelayNs + ?Sized,
        Op: AsyncFnMut(u32) -> Result<T, Failure<E>>,
        N: FnMut(&E, Option<u64>),
    {
        let mut state = RetryState::new();
        let mut waited_ns = 0u64;
        loop {
            let outcome = op(state.attempt()).await;
            match after_attempt(outcome, &mut state, policy, || waited_ns, rng, &mut notify) {
                Next::Done(result) => return result,
                Next::Wait(delay_ns) => {
                    for piece in u32_pieces(u128::from(delay_ns)) {
                        delay.delay_ns(piece).await;
                    }
                    waited_ns = waited_ns.saturating_add(delay_ns);
                }
            }
        }
    }
}
#[cfg(feature = "embedded-hal-async")]
pub use async_delay::retry_async;
