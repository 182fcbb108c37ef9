//! Hedging against gRFC A6's rules (*Hedging Policy*, *Throttling Retry Attempts and
//! Hedged RPCs*, *Pushback*, *Limits on Retries and Hedges*, *Summary of Retry and
//! Hedging Logic*), each rule a test, the document's own examples among them; and the
//! hedging hazard (a slowdown every copy shares) with the guard that holds it.

use backoff_core::hedge::{
    GUARD_MAX_SHIFT, HedgeEnd, HedgeFailure, HedgeGate, HedgeGuard, HedgeResponse, HedgeStep,
    HedgedCall, HedgingPolicy,
};
use backoff_core::{Ratio, ServerAnswer, TokenBudget};
use core::time::Duration;

const MS: u64 = 1_000_000;

fn a6_example() -> HedgingPolicy {
    // "maxAttempts": 4, "hedgingDelay": ".5s"
    HedgingPolicy::new(4, Duration::from_millis(500)).unwrap()
}

/// Poll until the call asks to wait or stops; the attempts it sent.
fn sends<G: HedgeGate>(call: &mut HedgedCall, now: u64, gate: &mut G) -> (Vec<u32>, HedgeStep) {
    let mut sent = Vec::new();
    loop {
        match call.poll(now, gate) {
            HedgeStep::Send { attempt } => sent.push(attempt),
            step => return (sent, step),
        }
    }
}

#[test]
fn a6_timeline_one_more_attempt_every_hedging_delay_up_to_max_attempts() {
    // A6: "after 1ms there would be one outstanding RPC (the original), after 501ms
    // there would be two ..., after 1001ms there would be three ..., and after 1501ms
    // there would be four."
    let mut call = HedgedCall::new(a6_example(), 0);
    let mut outstanding = Vec::new();
    for t in [1, 501, 1001, 1501, 2001, 5001] {
        let _ = sends(&mut call, t * MS, &mut ());
        outstanding.push(call.outstanding());
    }
    assert_eq!(outstanding, [1, 2, 3, 4, 4, 4]);
    assert_eq!(call.poll(5001 * MS, &mut ()), HedgeStep::AwaitOutstanding);
}

#[test]
fn a6_zero_delay_sends_every_attempt_at_once() {
    // A6: "Set this to "0s", or leave unset, to immediately send all maxAttempts RPCs."
    let p = HedgingPolicy::new(4, Duration::ZERO).unwrap();
    let mut call = HedgedCall::new(p, 7);
    let (sent, step) = sends(&mut call, 7, &mut ());
    assert_eq!(sent, [1, 2, 3, 4]);
    assert_eq!(step, HedgeStep::AwaitOutstanding);
}

#[test]
fn a6_max_attempts_capped_at_five_and_at_least_two() {
    // A6: "higher values will be treated as equal to the maximum value"; "must be two
    // or greater".
    let p = HedgingPolicy::new(10, Duration::ZERO).unwrap();
    assert_eq!(p.max_attempts(), 5);
    let (sent, _) = sends(&mut HedgedCall::new(p, 0), 0, &mut ());
    assert_eq!(sent.len(), 5);
    assert!(HedgingPolicy::new(1, Duration::ZERO).is_err());
    assert!(HedgingPolicy::new(0, Duration::ZERO).is_err());
    assert_eq!(HedgingPolicy::with_cap(10, 0, 8).unwrap().max_attempts(), 8);
}

#[test]
fn a6_ok_ends_the_call_and_later_responses_change_nothing() {
    let mut call = HedgedCall::new(a6_example(), 0);
    let _ = sends(&mut call, 0, &mut ());
    let _ = sends(&mut call, 600 * MS, &mut ());
    call.on_response(1, 650 * MS, HedgeResponse::Ok, &mut ());
    let done = HedgeStep::Done(HedgeEnd::Succeeded { attempt: 1 });
    assert_eq!(call.poll(650 * MS, &mut ()), done);
    call.on_response(2, 700 * MS, HedgeResponse::Fatal, &mut ());
    assert_eq!(call.poll(2_000 * MS, &mut ()), done);
    assert_eq!(call.sent(), 2);
}

#[test]
fn a6_non_fatal_sends_the_next_at_once_and_later_ones_resume_at_the_delay() {
    // Summary 2: "Immediately send next scheduled hedged request, if any. Subsequent
    // hedged requests will resume at hedgingDelay."
    let mut call = HedgedCall::new(a6_example(), 0);
    let _ = sends(&mut call, 0, &mut ());
    call.on_response(1, 120 * MS, HedgeResponse::NON_FATAL, &mut ());
    let (sent, step) = sends(&mut call, 120 * MS, &mut ());
    assert_eq!(sent, [2]);
    assert_eq!(step, HedgeStep::WaitUntil { at_ns: 620 * MS });
}

#[test]
fn a6_fatal_ends_the_call_with_its_error() {
    // Summary 3: "Cancel previous and pending hedges."
    let mut call = HedgedCall::new(a6_example(), 0);
    let _ = sends(&mut call, 0, &mut ());
    let _ = sends(&mut call, 500 * MS, &mut ());
    call.on_response(2, 510 * MS, HedgeResponse::Fatal, &mut ());
    assert_eq!(
        call.poll(510 * MS, &mut ()),
        HedgeStep::Done(HedgeEnd::Failed(HedgeFailure::Fatal))
    );
}

#[test]
fn a6_pushback_do_not_retry_stops_hedges_but_not_those_in_flight() {
    // Summary 4: "Don't send any more hedged requests."
    let mut call = HedgedCall::new(a6_example(), 0);
    let _ = sends(&mut call, 0, &mut ());
    let _ = sends(&mut call, 500 * MS, &mut ());
    call.on_response(
        1,
        600 * MS,
        HedgeResponse::NonFatal(ServerAnswer::DoNotRetry),
        &mut (),
    );
    assert_eq!(call.poll(5_000 * MS, &mut ()), HedgeStep::AwaitOutstanding);
    assert_eq!(call.sent(), 2);
    // The hedge in flight may still answer.
    call.on_response(2, 5_100 * MS, HedgeResponse::Ok, &mut ());
    assert_eq!(
        call.poll(5_100 * MS, &mut ()),
        HedgeStep::Done(HedgeEnd::Succeeded { attempt: 2 })
    );
    // And if it fails too, the server's refusal is why.
    let mut call = HedgedCall::new(a6_example(), 0);
    let _ = sends(&mut call, 0, &mut ());
    call.on_response(
        1,
        MS,
        HedgeResponse::NonFatal(ServerAnswer::DoNotRetry),
        &mut (),
    );
    assert_eq!(
        call.poll(MS, &mut ()),
        HedgeStep::Done(HedgeEnd::Failed(HedgeFailure::ServerRefused))
    );
}

#[test]
fn a6_pushback_delays_the_next_hedge_and_later_ones_follow_at_the_delay() {
    // Summary 5: "Send next hedged request in n ms. Subsequent hedged requests will
    // resume at n + hedgingDelay."
    let mut call = HedgedCall::new(a6_example(), 0);
    let _ = sends(&mut call, 0, &mut ());
    call.on_response(
        1,
        100 * MS,
        HedgeResponse::NonFatal(ServerAnswer::pushback_millis(50)),
        &mut (),
    );
    assert_eq!(
        call.poll(100 * MS, &mut ()),
        HedgeStep::WaitUntil { at_ns: 150 * MS }
    );
    let (sent, step) = sends(&mut call, 150 * MS, &mut ());
    assert_eq!(sent, [2]);
    assert_eq!(step, HedgeStep::WaitUntil { at_ns: 650 * MS });
}

#[test]
fn a6_every_attempt_failed_ends_the_call() {
    // "If all instances of a hedged RPC fail, there are no additional retry attempts."
    let p = HedgingPolicy::new(2, Duration::ZERO).unwrap();
    let mut call = HedgedCall::new(p, 0);
    let _ = sends(&mut call, 0, &mut ());
    call.on_response(2, MS, HedgeResponse::NON_FATAL, &mut ());
    assert_eq!(call.poll(MS, &mut ()), HedgeStep::AwaitOutstanding);
    call.on_response(1, 2 * MS, HedgeResponse::NON_FATAL, &mut ());
    assert_eq!(
        call.poll(2 * MS, &mut ()),
        HedgeStep::Done(HedgeEnd::Failed(HedgeFailure::AllFailed))
    );
}

#[test]
fn a6_the_deadline_applies_to_the_whole_chain() {
    let mut call = HedgedCall::new(a6_example(), 0).with_deadline(700 * MS);
    let _ = sends(&mut call, 0, &mut ());
    assert_eq!(
        call.poll(0, &mut ()),
        HedgeStep::WaitUntil { at_ns: 500 * MS }
    );
    let _ = sends(&mut call, 500 * MS, &mut ());
    assert_eq!(
        call.poll(500 * MS, &mut ()),
        HedgeStep::WaitUntil { at_ns: 700 * MS }
    );
    assert_eq!(
        call.poll(700 * MS, &mut ()),
        HedgeStep::Done(HedgeEnd::Failed(HedgeFailure::Deadline))
    );
}

#[test]
fn a6_throttling_the_original_always_goes_hedges_only_above_half_the_tokens() {
    // A6: "The first outgoing RPC will always be sent, but subsequent hedged RPCs will
    // only be sent if token_count is greater than the threshold." maxTokens 10,
    // tokenRatio 0.1 (A6's throttling example): 5 counted failures bring 10 to 5.
    let mut tokens = TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap();
    let p = HedgingPolicy::new(5, Duration::ZERO).unwrap();
    let mut call = HedgedCall::new(p, 0);
    let (sent, _) = sends(&mut call, 0, &mut tokens);
    assert_eq!(sent, [1, 2, 3, 4, 5]);
    for a in 1..=4 {
        call.on_response(a, MS, HedgeResponse::NON_FATAL, &mut tokens);
    }
    // 6 tokens: above half. A fatal status is not counted (A6: only retryable or
    // non-fatal statuses, and pushback refusals, count as failures).
    call.on_response(5, MS, HedgeResponse::Fatal, &mut tokens);
    assert_eq!(tokens.tokens_milli(), 6_000);
    let mut call = HedgedCall::new(p, 0);
    let (sent, _) = sends(&mut call, 0, &mut tokens);
    assert_eq!(sent.len(), 5);
    call.on_response(
        1,
        MS,
        HedgeResponse::NonFatal(ServerAnswer::DoNotRetry),
        &mut tokens,
    );
    assert_eq!(tokens.tokens_milli(), 5_000); // the refusing pushback counted: at half
    // Now only originals go out; with nothing else in flight, the failure is returned.
    let mut call = HedgedCall::new(p, 0);
    let (sent, step) = sends(&mut call, 0, &mut tokens);
    assert_eq!(sent, [1]);
    assert_eq!(step, HedgeStep::AwaitOutstanding);
    call.on_response(1, MS, HedgeResponse::NON_FATAL, &mut tokens);
    assert_eq!(
        call.poll(MS, &mut tokens),
        HedgeStep::Done(HedgeEnd::Failed(HedgeFailure::Throttled))
    );
    // Successes earn the tokens back: 0.1 each, 11 of them to rise above half.
    for _ in 0..11 {
        tokens.record(true);
    }
    assert!(tokens.allows_retry());
    let (sent, _) = sends(&mut HedgedCall::new(p, 0), 0, &mut tokens);
    assert_eq!(sent.len(), 5);
}

/// A service under test: calls start every `gap` ns; attempt `a` of call `i` takes
/// `latency(i, a)` and succeeds. Returns (attempts sent, calls, calls a hedge won,
/// total latency of the calls).
fn serve<G: HedgeGate>(
    policy: HedgingPolicy,
    gate: &mut G,
    calls: u32,
    gap: u64,
    mut latency: impl FnMut(u32, u32) -> u64,
) -> (u64, u32, u32, u64) {
    let (mut attempts, mut hedge_wins, mut total) = (0u64, 0u32, 0u64);
    for i in 0..calls {
        let start = u64::from(i) * gap;
        let mut call = HedgedCall::new(policy, start);
        let mut in_flight: Vec<(u64, u32)> = Vec::new();
        let mut now = start;
        loop {
            match call.poll(now, gate) {
                HedgeStep::Send { attempt } => {
                    attempts += 1;
                    in_flight.push((now + latency(i, attempt), attempt));
                }
                HedgeStep::Done(end) => {
                    let HedgeEnd::Succeeded { attempt } = end else {
                        panic!("every attempt succeeds here: {end:?}")
                    };
                    hedge_wins += u32::from(attempt > 1);
                    total += now - start;
                    break;
                }
                step => {
                    in_flight.sort();
                    let (answer_at, attempt) = in_flight[0];
                    match step {
                        HedgeStep::WaitUntil { at_ns } if at_ns < answer_at => now = at_ns,
                        _ => {
                            now = answer_at;
                            in_flight.remove(0);
                            call.on_response(attempt, now, HedgeResponse::Ok, gate);
                        }
                    }
                }
            }
        }
    }
    (attempts, calls, hedge_wins, total)
}

#[test]
fn hazard_a_slowdown_every_copy_shares_multiplies_the_load_and_the_guard_holds_it() {
    // Every answer takes 50 ms, plus 200 ms during the slowdown (a partial outage that
    // hits every backend alike); hedges after 100 ms, up to 4 attempts, one call every
    // 10 ms for 100 s. Threshold: without a gate each slowed call sends 3 attempts
    // (at 0, 100 and 200 ms, answered at 250), exactly; with the guard, at most 10 % of
    // calls hedge plus the 10 banked, whatever the latency.
    let policy = HedgingPolicy::new(4, Duration::from_millis(100)).unwrap();
    let calls = 10_000;
    let slow = |_, _| 250 * MS;
    let (attempts, n, wins, _) = serve(policy, &mut (), calls, 10 * MS, slow);
    assert_eq!(
        attempts,
        3 * u64::from(n),
        "every call hedges twice: 3x the load"
    );
    assert_eq!(wins, 0, "and no hedge is faster");

    let mut guard = HedgeGuard::tail_at_scale();
    let (attempts, n, wins, _) = serve(policy, &mut guard, calls, 10 * MS, slow);
    let hedges = attempts - u64::from(n);
    assert!(
        hedges <= u64::from(n) / 10 + 10,
        "{hedges} hedges for {n} calls"
    );
    assert_eq!(wins, 0);
    // It backs off: the hedging delay is lengthened (it probes between 200 ms, which
    // still hedges, and 400 ms, past the 250 ms itself).
    assert!(
        guard.backoff_shift() >= 1,
        "shift {}",
        guard.backoff_shift()
    );
    assert!(guard.backoff_shift() <= GUARD_MAX_SHIFT);
}

#[test]
fn guard_keeps_hedging_where_it_helps() {
    // One attempt in 20 lands on a slow backend (1 s), the others answer in 20 ms
    // (a deterministic pattern, so the counts are exact): a hedge after 100 ms wins
    // every slow call, and the guard, allowing 10 %, lets them all through and never
    // backs off.
    let policy = HedgingPolicy::new(2, Duration::from_millis(100)).unwrap();
    let latency = |i: u32, a: u32| {
        if a == 1 && i % 20 == 19 {
            1_000 * MS
        } else {
            20 * MS
        }
    };
    let mut guard = HedgeGuard::tail_at_scale();
    let (attempts, n, wins, total) = serve(policy, &mut guard, 2_000, 10 * MS, latency);
    assert_eq!(wins, 100);
    assert_eq!(attempts, u64::from(n) + 100);
    assert_eq!(guard.backoff_shift(), 0);
    // Mean latency: 1900 calls at 20 ms and 100 at 120 ms (hedge at 100 + 20).
    assert_eq!(total, 1_900 * 20 * MS + 100 * 120 * MS);
    let (_, _, _, unhedged) = serve(
        HedgingPolicy::with_cap(2, u64::MAX, 5).unwrap(),
        &mut (),
        2_000,
        10 * MS,
        latency,
    );
    assert_eq!(unhedged, 1_900 * 20 * MS + 100 * 1_000 * MS);
}

#[test]
fn guard_comes_back_after_the_slowdown() {
    // 20 s of a shared slowdown, then healthy with one slow backend attempt in 20:
    // the guard's delay returns to the policy's (probing one step per 100 unhedged
    // calls) and hedges win again.
    let policy = HedgingPolicy::new(2, Duration::from_millis(100)).unwrap();
    let mut guard = HedgeGuard::tail_at_scale();
    let _ = serve(policy, &mut guard, 2_000, 10 * MS, |_, _| 250 * MS);
    let backed_off = guard.backoff_shift();
    assert!(backed_off >= 1);
    let latency = |i: u32, a: u32| {
        if a == 1 && i % 20 == 19 {
            1_000 * MS
        } else {
            20 * MS
        }
    };
    let _ = serve(policy, &mut guard, 20_000, 10 * MS, latency);
    assert_eq!(guard.backoff_shift(), 0);
}

#[test]
fn guard_refuses_a_share_above_one_or_no_burst() {
    assert!(HedgeGuard::new(Ratio::from_percent(101), 10).is_err());
    assert!(HedgeGuard::new(Ratio::from_percent(5), 0).is_err());
    assert_eq!(
        HedgeGuard::new(Ratio::from_percent(10), 10).unwrap(),
        HedgeGuard::tail_at_scale()
    );
}

#[test]
fn throttling_and_guard_together_both_must_allow() {
    let tokens = TokenBudget::with_ratio(10, Ratio::from_thousandths(100)).unwrap();
    let mut gate = (tokens, HedgeGuard::tail_at_scale());
    // The guard's bucket starts empty: no hedge until requests have earned one.
    let p = HedgingPolicy::new(2, Duration::ZERO).unwrap();
    let (sent, _) = sends(&mut HedgedCall::new(p, 0), 0, &mut gate);
    assert_eq!(sent, [1]);
    for _ in 0..20 {
        gate.on_original(0);
    }
    let (sent, _) = sends(&mut HedgedCall::new(p, 0), 0, &mut gate);
    assert_eq!(sent, [1, 2]);
}

#[test]
fn an_observer_sees_each_hedge_and_a_failed_end_once() {
    use backoff_core::observe::Event;
    use backoff_core::retry::GiveUpReason;
    let mut seen = Vec::new();
    let mut log = |e: &Event| seen.push(*e);
    let p = HedgingPolicy::new(3, Duration::ZERO).unwrap();
    let mut call = HedgedCall::new(p, 0);
    while let HedgeStep::Send { .. } = call.poll_observed(0, &mut (), &mut log) {}
    for a in 1..=3 {
        call.on_response(a, MS, HedgeResponse::NON_FATAL, &mut ());
    }
    for _ in 0..3 {
        let _ = call.poll_observed(MS, &mut (), &mut log);
    }
    assert_eq!(
        seen,
        [
            Event::HedgeSent { attempt: 2 },
            Event::HedgeSent { attempt: 3 },
            Event::GaveUp {
                attempts: 3,
                reason: GiveUpReason::Policy(backoff_core::StopReason::MaxAttempts)
            },
        ]
    );
}
