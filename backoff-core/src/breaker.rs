//! Breakers: switch retries, or all calls, off while the error ratio is high.
//!
//! * [`RetryBreaker`]: retries are allowed only while the recent error ratio is at or
//!   below a threshold (10 % in the seed articles); first attempts always go through.
//! * [`CircuitBreaker`]: the classic closed / open / half-open machine, with an error
//!   ratio threshold (e.g. 50 %), a minimum number of calls before it can trip, an open
//!   period and a limited number of half-open probes (resilience4j's semantics).
//!
//! Both keep their recent outcomes in an [`OutcomeWindow`] of `N` buckets; time is
//! passed in by the caller as nanoseconds.

use crate::error::{ConfigError, ConfigErrorKind};
use crate::policy::Ratio;
use crate::window::{Counts, OutcomeWindow};

/// Retries switch off while the error ratio over the window is above `threshold`, and
/// back on when it falls to or below it. Below `min_calls` calls in the window, retries
/// are always allowed (a single early failure must not switch them off).
///
/// ```
/// use backoff_core::{Ratio, RetryBreaker};
/// // 10 % over 10 s (ten 1 s buckets), judged from 10 calls on.
/// let mut b = RetryBreaker::<10>::new(Ratio::from_percent(10), 10, 10_000_000_000).unwrap();
/// for _ in 0..9 { b.record(0, true); }
/// b.record(0, false);
/// assert!(b.allows_retry(0)); // 1 of 10 = 10 %: not above
/// b.record(0, false);
/// assert!(!b.allows_retry(0)); // 2 of 11: above, no retries
/// assert!(b.allows_retry(10_000_000_000)); // the window has moved on
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RetryBreaker<const N: usize> {
    threshold: Ratio,
    min_calls: u32,
    window: OutcomeWindow<N>,
}

impl<const N: usize> RetryBreaker<N> {
    /// A breaker that refuses retries while more than `threshold` of the calls in the
    /// last `window_ns` failed, once at least `min_calls` calls were seen. The window is
    /// split in `N` buckets.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`]: `N = 0`, or a window shorter than `N` ns.
    pub const fn new(
        threshold: Ratio,
        min_calls: u32,
        window_ns: u64,
    ) -> Result<Self, ConfigError> {
        match OutcomeWindow::new(window_ns) {
            Ok(window) => Ok(Self {
                threshold,
                min_calls,
                window,
            }),
            Err(e) => Err(e),
        }
    }

    /// Record the outcome of an attempt (first or retry) at `now_ns`.
    #[inline]
    pub fn record(&mut self, now_ns: u64, success: bool) {
        self.window.record(now_ns, success);
    }

    /// The outcomes in the window ending at `now_ns`.
    pub fn counts(&self, now_ns: u64) -> Counts {
        self.window.counts(now_ns)
    }

    /// May a failed call be retried at `now_ns`?
    #[inline]
    pub fn allows_retry(&self, now_ns: u64) -> bool {
        let c = self.window.counts(now_ns);
        c.total() < u64::from(self.min_calls)
            || !c.failure_ratio_above(self.threshold.numer(), self.threshold.denom())
    }
}

/// The parameters of a [`CircuitBreaker`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BreakerConfig {
    /// Trip when at least this ratio of the calls in the window failed (e.g. 1/2).
    pub failure_threshold: Ratio,
    /// Calls needed in the window before the breaker may trip.
    pub min_calls: u32,
    /// The length of the window, in nanoseconds.
    pub window_ns: u64,
    /// How long the breaker stays open before letting probes through, in nanoseconds.
    pub open_ns: u64,
    /// Calls let through while half-open (at least 1); their failure ratio decides
    /// between closing and opening again.
    pub half_open_probes: u32,
}

impl BreakerConfig {
    /// resilience4j's defaults with a time window: 50 %, 100 calls, 60 s window and open
    /// period, 10 probes.
    pub const RESILIENCE4J: Self = Self {
        failure_threshold: Ratio::HALF,
        min_calls: 100,
        window_ns: 60_000_000_000,
        open_ns: 60_000_000_000,
        half_open_probes: 10,
    };
}

/// The state of a [`CircuitBreaker`].
///
/// `#[non_exhaustive]`: breakers elsewhere have more states than these three
/// (resilience4j's forced-open and disabled), which may be added, so a `match` outside
/// this crate needs a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum BreakerState {
    /// Calls go through; outcomes are counted.
    Closed,
    /// Calls are refused until `until_ns`.
    Open {
        /// When probes will be let through.
        until_ns: u64,
    },
    /// Up to `half_open_probes` calls go through to test the service.
    HalfOpen {
        /// Probes let through so far.
        issued: u32,
        /// Probes that succeeded.
        successes: u32,
        /// Probes that failed.
        failures: u32,
    },
}

/// Closed / open / half-open circuit breaker over a window of `N` buckets.
///
/// * **Closed**: every call is permitted. When the window holds at least `min_calls`
///   calls and at least `failure_threshold` of them failed, it opens.
/// * **Open**: calls are refused for `open_ns`; then the next [`acquire`](Self::acquire)
///   moves it to half-open. Outcomes of calls started before it opened are ignored.
/// * **Half-open**: `half_open_probes` calls are permitted. When all have reported, it
///   opens again if at least `failure_threshold` of them failed, and closes (with an
///   empty window) otherwise.
///
/// ```
/// use backoff_core::{BreakerConfig, BreakerState, CircuitBreaker, Ratio};
/// let cfg = BreakerConfig {
///     failure_threshold: Ratio::HALF, min_calls: 4, window_ns: 10_000,
///     open_ns: 1_000, half_open_probes: 1,
/// };
/// let mut cb = CircuitBreaker::<10>::new(cfg).unwrap();
/// for ok in [true, false, true, false] {
///     assert!(cb.acquire(0));
///     cb.on_result(0, ok);
/// }
/// assert_eq!(cb.state(), BreakerState::Open { until_ns: 1_000 }); // 2 of 4 failed
/// assert!(!cb.acquire(999));
/// assert!(cb.acquire(1_000)); // the probe
/// assert!(!cb.acquire(1_000)); // only one
/// cb.on_result(1_010, true);
/// assert_eq!(cb.state(), BreakerState::Closed);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CircuitBreaker<const N: usize> {
    config: BreakerConfig,
    window: OutcomeWindow<N>,
    state: BreakerState,
}

impl<const N: usize> CircuitBreaker<N> {
    /// A closed breaker.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::OutOfRange`]: zero `half_open_probes`, `N = 0`, or a window
    /// shorter than `N` ns.
    pub const fn new(config: BreakerConfig) -> Result<Self, ConfigError> {
        if config.half_open_probes == 0 {
            return Err(ConfigError::new(ConfigErrorKind::OutOfRange));
        }
        match OutcomeWindow::new(config.window_ns) {
            Ok(window) => Ok(Self {
                config,
                window,
                state: BreakerState::Closed,
            }),
            Err(e) => Err(e),
        }
    }

    /// The configuration.
    pub const fn config(&self) -> BreakerConfig {
        self.config
    }

    /// The current state (an open breaker whose period is over still reports `Open`
    /// until the next [`acquire`](Self::acquire)).
    pub const fn state(&self) -> BreakerState {
        self.state
    }

    /// The outcomes counted in the closed state's window ending at `now_ns`.
    pub fn counts(&self, now_ns: u64) -> Counts {
        self.window.counts(now_ns)
    }

    /// May a call start at `now_ns`? A `true` in the half-open state uses up a probe.
    #[inline]
    pub fn acquire(&mut self, now_ns: u64) -> bool {
        match self.state {
            BreakerState::Closed => true,
            BreakerState::Open { until_ns } => {
                if now_ns >= until_ns {
                    self.state = BreakerState::HalfOpen {
                        issued: 1,
                        successes: 0,
                        failures: 0,
                    };
                    true
                } else {
                    false
                }
            }
            BreakerState::HalfOpen {
                issued,
                successes,
                failures,
            } => {
                if issued < self.config.half_open_probes {
                    self.state = BreakerState::HalfOpen {
                        issued: issued.saturating_add(1),
                        successes,
                        failures,
                    };
                    true
                } else {
                    false
                }
            }
        }
    }

    /// A permitted call finished at `now_ns`, successfully or not.
    #[inline]
    pub fn on_result(&mut self, now_ns: u64, success: bool) {
        let t = self.config.failure_threshold;
        match self.state {
            BreakerState::Closed => {
                self.window.record(now_ns, success);
                if success {
                    return; // a success never trips it
                }
                let c = self.window.counts(now_ns);
                if c.total() >= u64::from(self.config.min_calls)
                    && c.failure_ratio_at_least(t.numer(), t.denom())
                {
                    self.trip(now_ns);
                }
            }
            BreakerState::Open { .. } => {} // a call from before it opened
            BreakerState::HalfOpen {
                issued,
                successes,
                failures,
            } => {
                let (successes, failures) = if success {
                    (successes.saturating_add(1), failures)
                } else {
                    (successes, failures.saturating_add(1))
                };
                let probes = Counts {
                    successes: u64::from(successes),
                    failures: u64::from(failures),
                };
                if probes.total() < u64::from(self.config.half_open_probes) {
                    self.state = BreakerState::HalfOpen {
                        issued,
                        successes,
                        failures,
                    };
                } else if probes.failure_ratio_at_least(t.numer(), t.denom()) {
                    self.trip(now_ns);
                } else {
                    self.window.clear();
                    self.state = BreakerState::Closed;
                }
            }
        }
    }

    fn trip(&mut self, now_ns: u64) {
        self.window.clear();
        self.state = BreakerState::Open {
            until_ns: now_ns.saturating_add(self.config.open_ns),
        };
    }
}
