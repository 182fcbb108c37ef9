//! The tower policy under tokio's paused clock: the waits are the policy's (and the
//! server's pushback) to the nanosecond of virtual time, the budget shared by every
//! request of the stack ends retries when spent, permanent errors are not retried,
//! and the observer sees it all.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use backoff_core::observe::EventCounts;
use backoff_core::retry::Failure;
use backoff_core::tower::{RetryPolicy, TokioTime};
use backoff_core::{Policy, Ratio, Retrier, Schedule, ServerAnswer, Stop, TokenBudget};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;
use tokio::time::{Duration, Instant};
use tower::{Service, ServiceBuilder, ServiceExt};

/// A status and an optional pushback, as a gRPC response carries them.
type Reply = Result<(u32, Option<u32>), ()>;

const OK: u32 = 0;
const UNAVAILABLE: u32 = 14;
const INVALID_ARGUMENT: u32 = 3;

fn classify(r: &Reply) -> Result<(), Failure<()>> {
    match r {
        Ok((OK, _)) => Ok(()),
        Ok((UNAVAILABLE, Some(ms))) => {
            Err(Failure::Answered((), ServerAnswer::pushback_millis(*ms)))
        }
        Ok((UNAVAILABLE, None)) | Err(()) => Err(Failure::Transient(())),
        _ => Err(Failure::Permanent(())),
    }
}

/// A service whose first `failures` calls answer `status` (with `pushback`), then OK.
fn service(
    failures: u32,
    status: u32,
    pushback: Option<u32>,
    calls: Arc<AtomicU32>,
) -> impl Service<u32, Response = (u32, Option<u32>), Error = (), Future = std::future::Ready<Reply>>
+ Clone {
    tower::service_fn(move |_req: u32| {
        let n = calls.fetch_add(1, Ordering::SeqCst);
        std::future::ready(if n < failures {
            Ok((status, pushback))
        } else {
            Ok((OK, None))
        })
    })
}

fn constant(ms: u64, attempts: u32) -> Policy {
    Policy::new(Schedule::constant(Duration::from_millis(ms)))
        .with_stop(Stop::NEVER.with_max_attempts(attempts).unwrap())
        .with_server_answers(true)
}

#[tokio::test(start_paused = true)]
async fn retries_wait_the_policy_delays_on_tokio_virtual_time() {
    let calls = Arc::new(AtomicU32::new(0));
    let policy = RetryPolicy::new(
        Retrier::new(constant(250, 4)).with_observer(EventCounts::default()),
        XorShiftRng::seed_from_u64(1),
        classify,
        TokioTime,
    );
    let probe = policy.clone();
    let mut svc = ServiceBuilder::new().layer(policy.layer()).service(service(
        3,
        UNAVAILABLE,
        None,
        calls.clone(),
    ));
    let start = Instant::now();
    let reply = svc.ready().await.unwrap().call(1).await;
    assert_eq!(reply, Ok((OK, None)));
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    assert_eq!(start.elapsed(), Duration::from_millis(750)); // three waits of 250 ms, virtual
    assert_eq!(probe.with_retrier(|r| r.observer().retries), 3);
}

#[tokio::test(start_paused = true)]
async fn a_pushback_replaces_the_delay_and_attempts_stay_bounded() {
    let calls = Arc::new(AtomicU32::new(0));
    let policy = RetryPolicy::new(
        Retrier::new(constant(10, 3)),
        XorShiftRng::seed_from_u64(1),
        classify,
        TokioTime,
    );
    let mut svc = ServiceBuilder::new().layer(policy.layer()).service(service(
        9,
        UNAVAILABLE,
        Some(400),
        calls.clone(),
    ));
    let start = Instant::now();
    let reply = svc.ready().await.unwrap().call(1).await;
    assert_eq!(reply, Ok((UNAVAILABLE, Some(400)))); // 3 attempts, all failed: the last answer
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    assert_eq!(start.elapsed(), Duration::from_millis(800));
}

#[tokio::test(start_paused = true)]
async fn a_permanent_error_is_not_retried() {
    let calls = Arc::new(AtomicU32::new(0));
    let policy = RetryPolicy::new(
        Retrier::new(constant(10, 5)),
        XorShiftRng::seed_from_u64(1),
        classify,
        TokioTime,
    );
    let mut svc = ServiceBuilder::new().layer(policy.layer()).service(service(
        9,
        INVALID_ARGUMENT,
        None,
        calls.clone(),
    ));
    let reply = svc.ready().await.unwrap().call(1).await;
    assert_eq!(reply, Ok((INVALID_ARGUMENT, None)));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn the_throttling_budget_is_shared_by_every_request_of_the_stack() {
    // retryThrottling 10 tokens, 0.1: failures take one each; at 5 tokens (half)
    // retries stop, for every request of the stack.
    let calls = Arc::new(AtomicU32::new(0));
    let budget = TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap();
    let policy = RetryPolicy::new(
        Retrier::new(constant(1, 5))
            .with_gate(budget)
            .with_observer(EventCounts::default()),
        XorShiftRng::seed_from_u64(1),
        classify,
        TokioTime,
    );
    let probe = policy.clone();
    let svc = ServiceBuilder::new().layer(policy.layer()).service(service(
        u32::MAX,
        UNAVAILABLE,
        None,
        calls.clone(),
    ));
    let mut attempts = Vec::new();
    for _ in 0..4 {
        let before = calls.load(Ordering::SeqCst);
        let _ = svc.clone().oneshot(1).await;
        attempts.push(calls.load(Ordering::SeqCst) - before);
    }
    // 10 -> 9 -> 8 -> 7 -> 6 -> 5 (5 attempts, the last not retried: max attempts),
    // then 5 -> 4: no retry (not above half), and every later request: one attempt.
    assert_eq!(attempts, [5, 1, 1, 1]);
    assert_eq!(probe.with_retrier(|r| r.gate().tokens_milli()), 2_000);
    assert_eq!(probe.with_retrier(|r| r.observer().budget_exhausted), 3);
}
