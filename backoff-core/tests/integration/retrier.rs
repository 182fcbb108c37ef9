//! The retrier, its gates and its observer: every kind of event seen where it
//! happens, the gates asked in their order, decisions identical to the plain policy
//! loop when nothing else is there, and the manual clock walking it all without
//! sleeping.

use backoff_core::clock::ManualClock;
use backoff_core::gate::{Admit, RetryGate};
use backoff_core::observe::{Event, EventCounts, Observer};
use backoff_core::retry::{Failure, GiveUpReason, retry, retry_delay};
use backoff_core::{
    AdaptiveRateLimiter, BreakerConfig, BreakerState, CircuitBreaker, Jitter, Policy, Ratio,
    Retrier, RetryState, Schedule, ServerAnswer, Stop, StopReason, TokenBudget,
};
use core::time::Duration;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

const MS: u64 = 1_000_000;

fn policy(attempts: u32) -> Policy {
    Policy::new(
        Schedule::exponential(
            Duration::from_millis(100),
            Ratio::TWO,
            Duration::from_secs(10),
        )
        .unwrap(),
    )
    .with_jitter(Jitter::Full)
    .with_stop(Stop::NEVER.with_max_attempts(attempts).unwrap())
}

fn rng() -> XorShiftRng {
    XorShiftRng::seed_from_u64(42)
}

#[test]
fn without_gate_or_observer_the_retrier_decides_as_the_policy_loop_does() {
    for attempts in [1, 2, 5, 9] {
        let (a, b) = (ManualClock::new(), ManualClock::new());
        let plain: Result<(), _> = retry(
            &policy(attempts),
            &mut rng(),
            &mut a.timer(),
            |n| Err(Failure::Transient(n)),
            |_, _| {},
        );
        let mut r = Retrier::new(policy(attempts));
        let ours: Result<(), _> =
            r.retry(&mut rng(), &mut b.timer(), |n| Err(Failure::Transient(n)));
        let (plain, ours) = (plain.unwrap_err(), ours.unwrap_err());
        assert_eq!(a.sleeps(), b.sleeps(), "{attempts} attempts");
        assert_eq!((plain.attempts, plain.reason), (ours.attempts, ours.reason));
        assert_eq!(Some(plain.error), ours.error);
    }
}

#[test]
fn every_retry_and_the_end_are_seen_with_their_delays() {
    let mut seen = Vec::new();
    let clock = ManualClock::new();
    let mut r = Retrier::new(policy(3)).with_observer(|e: &Event| seen.push(*e));
    let out: Result<(), _> = r.retry(&mut rng(), &mut clock.timer(), |_| {
        Err(Failure::Transient("x"))
    });
    assert_eq!(
        out.unwrap_err().reason,
        GiveUpReason::Policy(StopReason::MaxAttempts)
    );
    let sleeps: Vec<u64> = clock.sleeps().iter().map(|d| d.as_nanos() as u64).collect();
    assert_eq!(
        seen,
        [
            Event::Retry {
                attempt: 1,
                delay_ns: sleeps[0]
            },
            Event::Retry {
                attempt: 2,
                delay_ns: sleeps[1]
            },
            Event::GaveUp {
                attempts: 3,
                reason: GiveUpReason::Policy(StopReason::MaxAttempts)
            },
        ]
    );
    // Full jitter: each delay within its window.
    assert!(sleeps[0] <= 100 * MS && sleeps[1] <= 200 * MS);
}

#[test]
fn a_permanent_failure_ends_the_request_at_once() {
    let mut r = Retrier::new(policy(5)).with_observer(EventCounts::default());
    let out: Result<(), _> = r.retry(&mut rng(), &mut ManualClock::new().timer(), |_| {
        Err(Failure::Permanent("bad request"))
    });
    let e = out.unwrap_err();
    assert_eq!(
        (e.attempts, e.reason, e.error),
        (1, GiveUpReason::Permanent, Some("bad request"))
    );
    assert_eq!(r.observer().gave_up, 1);
    assert_eq!(r.observer().retries, 0);
}

#[test]
fn server_answers_are_seen_and_followed_only_when_the_policy_honours_them() {
    for honour in [true, false] {
        let mut seen = Vec::new();
        let clock = ManualClock::new();
        let p = Policy::new(Schedule::constant_nanos(10 * MS))
            .with_stop(Stop::NEVER.with_max_attempts(2).unwrap())
            .with_server_answers(honour);
        let mut r = Retrier::new(p).with_observer(|e: &Event| seen.push(*e));
        let answer = ServerAnswer::pushback_millis(300);
        let out = r.retry(&mut rng(), &mut clock.timer(), |n| {
            if n == 1 {
                Err(Failure::Answered("unavailable", answer))
            } else {
                Ok(n)
            }
        });
        assert_eq!(out, Ok(2));
        assert_eq!(
            seen[0],
            Event::ServerAnswer {
                answer,
                honoured: honour
            }
        );
        let waited = if honour { 300 * MS } else { 10 * MS };
        assert_eq!(
            seen[1],
            Event::Retry {
                attempt: 1,
                delay_ns: waited
            }
        );
        assert_eq!(clock.now_nanos(), waited);
    }
    // A refusal from a policy that honours it: no retry.
    let p = policy(5).with_server_answers(true);
    let mut r = Retrier::new(p).with_observer(EventCounts::default());
    let out: Result<(), _> = r.retry(&mut rng(), &mut ManualClock::new().timer(), |_| {
        Err(Failure::Answered("overloaded", ServerAnswer::DoNotRetry))
    });
    assert_eq!(
        out.unwrap_err().reason,
        GiveUpReason::Policy(StopReason::ServerRefused)
    );
    assert_eq!(r.observer().answers_honoured, 1);
}

#[test]
fn the_retry_budget_ends_requests_when_spent_and_says_so() {
    // gRPC retryThrottling, 4 tokens, ratio 0.1: every failure takes one; retries
    // only above 2 tokens. The first request: 4 -> 3 (retry), 3 -> 2 (no retry: at half).
    let budget = TokenBudget::with_ratio(4, Ratio::from_thousandths(100)).unwrap();
    let mut r = Retrier::new(policy(10))
        .with_gate(budget)
        .with_observer(EventCounts::default());
    let out: Result<(), _> = r.retry(&mut rng(), &mut ManualClock::new().timer(), |_| {
        Err(Failure::Transient(()))
    });
    let e = out.unwrap_err();
    assert_eq!((e.attempts, e.reason), (2, GiveUpReason::Budget));
    assert_eq!(r.observer().budget_exhausted, 1);
    assert_eq!(r.observer().retries, 1);
    assert_eq!(r.gate().tokens_milli(), 2_000);
    // A permanent failure is not the server's: it takes no token.
    let _: Result<(), _> = r.retry(&mut rng(), &mut ManualClock::new().timer(), |_| {
        Err(Failure::Permanent(()))
    });
    assert_eq!(r.gate().tokens_milli(), 2_000);
}

/// Every event, kept.
#[derive(Default)]
struct Log(Vec<Event>);
impl Observer for Log {
    fn on_event(&mut self, e: &Event) {
        self.0.push(*e);
    }
}

fn breaker() -> CircuitBreaker<10> {
    CircuitBreaker::new(BreakerConfig {
        failure_threshold: Ratio::HALF,
        min_calls: 2,
        window_ns: 10_000 * MS,
        open_ns: 1_000 * MS,
        half_open_probes: 1,
    })
    .unwrap()
}

#[test]
fn the_breaker_refuses_while_open_and_its_moves_are_seen() {
    let clock = ManualClock::new();
    let p = Policy::new(Schedule::constant_nanos(MS))
        .with_stop(Stop::NEVER.with_max_attempts(5).unwrap());
    let mut r = Retrier::new(p)
        .with_gate(breaker())
        .with_observer(Log::default());
    // Two failures open it; the third attempt is refused with the last error.
    let out: Result<(), _> = r.retry(&mut rng(), &mut clock.timer(), |n| {
        Err(Failure::Transient(n))
    });
    let e = out.unwrap_err();
    assert_eq!(
        (e.attempts, e.reason, e.error),
        (2, GiveUpReason::BreakerOpen, Some(2))
    );
    assert!(r.observer().0.contains(&Event::BreakerChanged {
        from: BreakerState::Closed,
        to: BreakerState::Open {
            until_ns: 1_001 * MS
        },
    }));
    // A new request while open: refused before its first attempt, no error to give.
    let out: Result<(), _> = r.retry(
        &mut rng(),
        &mut clock.timer(),
        |_| -> Result<(), Failure<u32>> { unreachable!("refused") },
    );
    let e = out.unwrap_err();
    assert_eq!(
        (e.attempts, e.reason, e.error),
        (0, GiveUpReason::BreakerOpen, None)
    );
    // After the open period a probe goes; its success closes the breaker.
    clock.advance(Duration::from_secs(2));
    r.observer_mut().0.clear();
    let out = r.retry(&mut rng(), &mut clock.timer(), Ok::<_, Failure<()>>);
    assert_eq!(out, Ok(1));
    let moves: Vec<_> = r
        .observer()
        .0
        .iter()
        .filter_map(|e| match e {
            Event::BreakerChanged { from, to } => Some((*from, *to)),
            _ => None,
        })
        .collect();
    assert!(matches!(
        moves[..],
        [
            (BreakerState::Open { .. }, BreakerState::HalfOpen { .. }),
            (BreakerState::HalfOpen { .. }, BreakerState::Closed)
        ]
    ));
}

#[test]
fn the_adaptive_limiter_holds_attempts_back_after_throttling_and_the_waits_are_seen() {
    let clock = ManualClock::new();
    let p = Policy::new(Schedule::constant_nanos(0))
        .with_stop(Stop::NEVER.with_max_attempts(30).unwrap());
    let limiter = AdaptiveRateLimiter::new(0);
    let mut r = Retrier::new(p)
        .with_gate(limiter)
        .with_observer(EventCounts::default());
    // A service that throttles its first 20 attempts and then answers: retries with
    // no delay of their own are paced by the limiter (AWS adaptive mode).
    let out = r.retry(&mut rng(), &mut clock.timer(), |n| {
        if n <= 20 {
            Err(Failure::Throttled("SlowDown"))
        } else {
            Ok(n)
        }
    });
    assert_eq!(out, Ok(21));
    let c = *r.observer();
    assert!(c.throttled > 0, "{c:?}");
    assert_eq!(c.retries, 20);
    // The waits are the limiter's: real time passed on the manual clock only.
    assert!(clock.now() > Duration::from_secs(1), "{:?}", clock.now());
}

#[test]
fn a_pair_of_gates_asks_both_in_order() {
    let mut gate = (
        breaker(),
        TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap(),
    );
    let mut counts = EventCounts::default();
    assert_eq!(gate.admit(0, true, &mut counts), Admit::Go);
    assert!(gate.allow_retry(0));
    // Open the breaker: the pair refuses, and the budget is not consulted.
    let mut r = Retrier::new(policy(1)).with_gate(&mut gate);
    let mut s = RetryState::new();
    for t in [1, 2] {
        let _ = r.on_failure(&mut s, &Failure::Transient(()), t, 0, &mut rng());
        s.reset();
    }
    assert_eq!(r.admit(&s, 3), Admit::Refuse(GiveUpReason::BreakerOpen));
    assert_eq!(gate.1.tokens_milli(), 8_000);
}

#[test]
fn the_manual_clock_is_a_delay_for_the_firmware_loop_and_advances_without_writing_a_wait() {
    let clock = ManualClock::new();
    clock.advance(Duration::from_millis(5));
    let p = Policy::new(Schedule::constant_nanos(7 * MS))
        .with_stop(Stop::NEVER.with_max_attempts(3).unwrap());
    let out: Result<(), _> = retry_delay(
        &p,
        &mut rng(),
        &mut clock.timer(),
        |_| Err(Failure::Transient(())),
        |_, _| {},
    );
    assert!(out.is_err());
    assert_eq!(clock.sleeps(), [Duration::from_millis(7); 2]);
    assert_eq!(clock.now(), Duration::from_millis(19));
    // Clones share the time.
    let other = clock.clone();
    other.advance(Duration::from_millis(1));
    assert_eq!(clock.now(), Duration::from_millis(20));
}
