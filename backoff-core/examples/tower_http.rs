//! backoff-core's retry policy in a tower stack over `http` types, the request and
//! response types of hyper and axum: a service that answers `503 Service
//! Unavailable` with `Retry-After: 1` twice, then `200 OK`. The client honours the
//! server's `Retry-After` (RFC 9110 section 10.2.3) over its own jittered backoff,
//! spends retries from a budget shared by every request, and counts every decision.
//!
//! Run it with `cargo run -p backoff-core --example tower_http --features tokio`:
//! tokio's clock is paused, so the two seconds of waiting pass at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use backoff_core::observe::EventCounts;
use backoff_core::retry::Failure;
use backoff_core::tower::{RetryPolicy, TokioTime};
use backoff_core::{
    Jitter, Policy, Ratio, Retrier, Schedule, ServerAnswer, Stop, TtlBudget,
    parse_retry_after_seconds,
};
use http::{Request, Response, StatusCode, header::RETRY_AFTER};
use rand_core::SeedableRng;
use tower::{ServiceBuilder, ServiceExt};

/// How the client judges a response: 2xx is done; 429 and 503 are retried, with the
/// server's `Retry-After` when it sends one; other errors are the request's fault.
fn classify(
    r: &Result<Response<&'static str>, std::convert::Infallible>,
) -> Result<(), Failure<()>> {
    let resp = match r {
        Ok(resp) => resp,
        Err(never) => match *never {},
    };
    let status = resp.status();
    if status.is_success() {
        return Ok(());
    }
    let answer = resp
        .headers()
        .get(RETRY_AFTER)
        .and_then(|v| parse_retry_after_seconds(v.as_bytes()).ok())
        .unwrap_or(ServerAnswer::None);
    match status {
        StatusCode::TOO_MANY_REQUESTS => Err(Failure::Throttled(())),
        StatusCode::SERVICE_UNAVAILABLE => Err(Failure::Answered((), answer)),
        _ => Err(Failure::Permanent(())),
    }
}

#[tokio::main(flavor = "current_thread", start_paused = true)]
async fn main() {
    let calls = Arc::new(AtomicU32::new(0));
    let counter = calls.clone();
    let service = tower::service_fn(move |_req: Request<()>| {
        let n = counter.fetch_add(1, Ordering::SeqCst);
        let resp = if n < 2 {
            Response::builder()
                .status(StatusCode::SERVICE_UNAVAILABLE)
                .header(RETRY_AFTER, "1")
                .body("busy")
        } else {
            Response::builder().status(StatusCode::OK).body("hello")
        };
        std::future::ready(Ok::<_, std::convert::Infallible>(
            resp.expect("a valid response"),
        ))
    });

    // 100 ms doubling to 5 s, full jitter, 4 attempts, server answers honoured; a
    // Finagle-style budget: 20 % of requests plus 10 per second, over 10 s.
    let policy = Policy::new(
        Schedule::exponential(
            std::time::Duration::from_millis(100),
            Ratio::TWO,
            std::time::Duration::from_secs(5),
        )
        .expect("initial below max"),
    )
    .with_jitter(Jitter::Full)
    .with_stop(Stop::NEVER.with_max_attempts(4).expect("4 > 0"))
    .with_server_answers(true);
    let budget =
        TtlBudget::<10>::new(10_000_000_000, 10, Ratio::from_percent(20)).expect("valid budget");
    let retrier = Retrier::new(policy)
        .with_gate(budget)
        .with_observer(EventCounts::default());
    let layer = RetryPolicy::new(
        retrier,
        rand_xorshift::XorShiftRng::seed_from_u64(1),
        classify,
        TokioTime,
    );
    let probe = layer.clone();
    let client = ServiceBuilder::new().layer(layer.layer()).service(service);

    let start = tokio::time::Instant::now();
    let resp = client.oneshot(Request::new(())).await.expect("infallible");
    println!(
        "{} {:?} after {} attempts and {:?} of (virtual) waiting",
        resp.status(),
        resp.body(),
        calls.load(Ordering::SeqCst),
        start.elapsed()
    );
    println!("decisions: {:?}", probe.with_retrier(|r| *r.observer()));
}
