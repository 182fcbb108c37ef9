//! A `tower::retry::Policy` over a [`Retrier`] (feature `tower`): backoff-core's
//! policies, budgets, breakers, server answers and observer in a tower stack, under
//! tonic, hyper or axum.
//!
//! [`RetryPolicy`] decides each retry as [`Retrier::on_failure`] does, from how the
//! caller classifies a response ([`Classify`]: `Ok(())` for a success, a
//! [`Failure`] otherwise, with the server's answer read from the response's headers),
//! and waits on an [`AsyncTime`]: [`TokioTime`] (feature `tokio`), whose sleeps follow
//! tokio's clock, paused in tests, or one's own. The retrier is shared by every
//! request the stack sends (clones of the policy share it); each request keeps its own
//! [`RetryState`].
//!
//! Tower sends a request's first attempt without asking the policy, so a gate
//! admits retries only: a breaker that is open refuses the retry (the request fails
//! with its last error), a rate limiter's wait is added to the delay. Budgets count
//! every request, first attempts included (the policy sees each request when it
//! clones it).
//!
//! ```
//! # #[cfg(feature = "tokio")] {
//! use backoff_core::tower::{RetryPolicy, TokioTime};
//! use backoff_core::retry::Failure;
//! use backoff_core::{Policy, Retrier, Schedule, Stop, Ratio, TokenBudget, parse_grpc_pushback};
//! use rand_core::SeedableRng;
//!
//! // gRPC's service config: retryPolicy 4 attempts, 100 ms doubling to 1 s;
//! // retryThrottling 10 tokens, 0.1; pushback honoured.
//! let policy = backoff_core::presets::grpc_retry(
//!     4, core::time::Duration::from_millis(100), core::time::Duration::from_secs(1), Ratio::TWO,
//! ).unwrap();
//! let budget = TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap();
//! let retrier = Retrier::new(policy).with_gate(budget);
//! let rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
//! // A response is (status, pushback header): UNAVAILABLE (14) is retried.
//! let classify = |r: &Result<(u32, &'static [u8]), ()>| match r {
//!     Ok((0, _)) => Ok(()),
//!     Ok((14, pushback)) => Err(Failure::Answered((), parse_grpc_pushback(pushback))),
//!     _ => Err(Failure::Permanent(())),
//! };
//! let layer = RetryPolicy::new(retrier, rng, classify, TokioTime).layer();
//! # let _ = layer;
//! # }
//! ```

use std::boxed::Box;
use std::sync::{Arc, Mutex, PoisonError};

use core::future::Future;
use core::pin::Pin;
use core::time::Duration;

use rand_core::Rng;

use crate::gate::{Admit, RetryGate};
use crate::observe::Observer;
use crate::policy::RetryState;
use crate::retrier::{Retrier, Verdict};
use crate::retry::Failure;

/// A clock and a way to wait, for async code.
pub trait AsyncTime: Clone {
    /// The future of one wait.
    type Sleep: Future<Output = ()> + Send + 'static;
    /// Time now on this clock, in nanoseconds from any fixed origin.
    fn now_ns(&self) -> u64;
    /// Wait `duration`.
    fn sleep(&self, duration: Duration) -> Self::Sleep;
}

/// tokio's clock (`tokio::time::Instant`, `tokio::time::sleep`; feature `tokio`),
/// which `tokio::time::pause` stops and advances in tests.
#[cfg(feature = "tokio")]
#[derive(Clone, Copy, Debug, Default)]
pub struct TokioTime;

#[cfg(feature = "tokio")]
impl AsyncTime for TokioTime {
    type Sleep = tokio::time::Sleep;
    fn now_ns(&self) -> u64 {
        use std::sync::OnceLock;
        static ORIGIN: OnceLock<tokio::time::Instant> = OnceLock::new();
        let origin = *ORIGIN.get_or_init(tokio::time::Instant::now);
        crate::time::duration_to_nanos(
            tokio::time::Instant::now().saturating_duration_since(origin),
        )
    }
    fn sleep(&self, duration: Duration) -> Self::Sleep {
        tokio::time::sleep(duration)
    }
}

/// How a response is judged: `Ok(())` for a success, the [`Failure`] otherwise.
pub trait Classify<Res, E>: Clone {
    /// Judge one attempt's result.
    ///
    /// # Errors
    ///
    /// The failure the attempt was: transient, permanent, answered by the server
    /// (pushback, `Retry-After`) or throttled.
    fn classify(&self, result: &Result<Res, E>) -> Result<(), Failure<()>>;
}

impl<Res, E, F: Fn(&Result<Res, E>) -> Result<(), Failure<()>> + Clone> Classify<Res, E> for F {
    fn classify(&self, result: &Result<Res, E>) -> Result<(), Failure<()>> {
        self(result)
    }
}

struct Shared<G, O, R> {
    retrier: Retrier<G, O>,
    rng: R,
}

/// A `tower::retry::Policy` over a [`Retrier`] (see the [module](self)).
pub struct RetryPolicy<G, O, R, C, T> {
    shared: Arc<Mutex<Shared<G, O, R>>>,
    call: RetryState,
    started_ns: Option<u64>,
    classify: C,
    time: T,
}

impl<G, O, R, C: Clone, T: Clone> Clone for RetryPolicy<G, O, R, C, T> {
    /// A policy for another request: the same retrier, a fresh request state.
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
            call: RetryState::new(),
            started_ns: None,
            classify: self.classify.clone(),
            time: self.time.clone(),
        }
    }
}

impl<G, O, R, C, T> RetryPolicy<G, O, R, C, T> {
    /// A policy over `retrier`, drawing its jitter from `rng`, judging responses with
    /// `classify` and waiting on `time`.
    pub fn new(retrier: Retrier<G, O>, rng: R, classify: C, time: T) -> Self {
        Self {
            shared: Arc::new(Mutex::new(Shared { retrier, rng })),
            call: RetryState::new(),
            started_ns: None,
            classify,
            time,
        }
    }

    /// `tower::retry::RetryLayer` with this policy.
    pub fn layer(self) -> tower::retry::RetryLayer<Self> {
        tower::retry::RetryLayer::new(self)
    }

    /// Look at the shared retrier (its gate's balance, its observer's counts).
    pub fn with_retrier<U>(&self, f: impl FnOnce(&mut Retrier<G, O>) -> U) -> U {
        // Every change under the lock is one decision of the retrier, which leaves it
        // consistent if a classifier or observer panicked: a poisoned lock is used.
        let mut s = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut s.retrier)
    }
}

impl<Req, Res, E, G, O, R, C, T> tower::retry::Policy<Req, Res, E> for RetryPolicy<G, O, R, C, T>
where
    Req: Clone,
    G: RetryGate + Send + 'static,
    O: Observer + Send + 'static,
    R: Rng + Send + 'static,
    C: Classify<Res, E>,
    T: AsyncTime + Send + 'static,
{
    type Future = Pin<Box<dyn Future<Output = ()> + Send>>;

    fn retry(&mut self, _req: &mut Req, result: &mut Result<Res, E>) -> Option<Self::Future> {
        let verdict = self.classify.classify(result);
        let now_ns = self.time.now_ns();
        let elapsed_ns = now_ns.saturating_sub(self.started_ns.unwrap_or(now_ns));
        let mut s = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        let Shared { retrier, rng } = &mut *s;
        let failure = match verdict {
            Ok(()) => {
                retrier.on_success(&mut self.call, now_ns);
                self.started_ns = None;
                return None;
            }
            Err(f) => f,
        };
        let Verdict::Retry { delay_ns } =
            retrier.on_failure(&mut self.call, &failure, now_ns, elapsed_ns, rng)
        else {
            self.call.reset();
            self.started_ns = None;
            return None;
        };
        let wait_ns = match retrier.admit(&self.call, now_ns) {
            Admit::Go => None,
            Admit::Wait { wait_ns } => Some(wait_ns),
            Admit::Refuse(_) => {
                self.call.reset();
                self.started_ns = None;
                return None;
            }
        };
        drop(s);
        let time = self.time.clone();
        let shared = Arc::clone(&self.shared);
        let call = self.call;
        Some(Box::pin(async move {
            let Some(wait_ns) = wait_ns else {
                time.sleep(Duration::from_nanos(delay_ns)).await;
                return;
            };
            // A rate limiter's token: wait for it, then take it.
            time.sleep(Duration::from_nanos(delay_ns.max(wait_ns)))
                .await;
            loop {
                let admit = {
                    let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
                    s.retrier.admit(&call, time.now_ns())
                };
                match admit {
                    Admit::Wait { wait_ns } => {
                        time.sleep(Duration::from_nanos(wait_ns.max(1))).await
                    }
                    _ => return,
                }
            }
        }))
    }

    fn clone_request(&mut self, req: &Req) -> Option<Req> {
        if self.started_ns.is_none() {
            let now_ns = self.time.now_ns();
            self.started_ns = Some(now_ns);
            // Tower sends the first attempt whatever the gate says; the gate counts it.
            let mut s = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
            let _ = s.retrier.admit(&self.call, now_ns);
        }
        Some(req.clone())
    }
}
