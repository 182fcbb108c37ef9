//! The server's answer: gRFC A6 pushback (its summary's cases 4 and 5 and the
//! `maxAttempts` rule), RFC 9110 `Retry-After` delay-seconds, the AWS standard-mode
//! retry quota's arithmetic, and parsers that never panic on any bytes.

use backoff_core::{
    Jitter, Policy, QuotaFailure, Ratio, RetryDecision, RetryQuota, RetryState, Schedule,
    ServerAnswer, Stop, StopReason, parse_grpc_pushback, parse_retry_after_seconds, presets,
};
use core::time::Duration;
use proptest::prelude::*;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

const MS: u64 = 1_000_000;

fn rng() -> XorShiftRng {
    XorShiftRng::seed_from_u64(42)
}

/// 100 ms doubling to 10 s, no jitter, honouring server answers.
fn exp(max_attempts: u32) -> Policy {
    Policy::new(
        Schedule::exponential(
            Duration::from_millis(100),
            Ratio::TWO,
            Duration::from_secs(10),
        )
        .unwrap(),
    )
    .with_stop(Stop::NEVER.with_max_attempts(max_attempts).unwrap())
    .with_server_answers(true)
}

#[test]
fn pushback_parser_follows_a6() {
    for (value, want) in [
        (&b"0"[..], ServerAnswer::Pushback { delay_ns: 0 }),
        (b"1", ServerAnswer::Pushback { delay_ns: MS }),
        (
            b"1500",
            ServerAnswer::Pushback {
                delay_ns: 1500 * MS,
            },
        ),
        (b"007", ServerAnswer::Pushback { delay_ns: 7 * MS }),
        (
            b"2147483647",
            ServerAnswer::Pushback {
                delay_ns: 2_147_483_647 * MS,
            },
        ),
        // -0 is the integer 0 (grpc-go's strconv.Atoi and grpc-java's parseInt read
        // it so), a pushback of 0 ms, not a negative value.
        (b"-0", ServerAnswer::Pushback { delay_ns: 0 }),
        (b"-000", ServerAnswer::Pushback { delay_ns: 0 }),
        // "negative or unparseble": do not retry.
        (b"-1", ServerAnswer::DoNotRetry),
        (b"-2147483648", ServerAnswer::DoNotRetry),
        (b"2147483648", ServerAnswer::DoNotRetry),
        (b"99999999999999999999999", ServerAnswer::DoNotRetry),
        (b"", ServerAnswer::DoNotRetry),
        (b"-", ServerAnswer::DoNotRetry),
        (b"+5", ServerAnswer::DoNotRetry),
        (b" 5", ServerAnswer::DoNotRetry),
        (b"5 ", ServerAnswer::DoNotRetry),
        (b"1.5", ServerAnswer::DoNotRetry),
        (b"0x10", ServerAnswer::DoNotRetry),
        (b"\xff", ServerAnswer::DoNotRetry),
    ] {
        assert_eq!(parse_grpc_pushback(value), want, "{value:?}");
    }
}

#[test]
fn retry_after_parser_follows_rfc_9110() {
    for (value, secs) in [
        (&b"0"[..], 0u64),
        (b"1", 1),
        (b"120", 120),
        (b"000120", 120),
        (b"18446744073", 18_446_744_073),
    ] {
        assert_eq!(
            parse_retry_after_seconds(value),
            Ok(ServerAnswer::RetryAfter {
                delay_ns: secs * 1_000_000_000
            }),
            "{value:?}"
        );
    }
    // Saturates rather than wrapping.
    for huge in [
        &b"18446744074"[..],
        b"18446744073709551616",
        b"9999999999999999999999999",
    ] {
        assert_eq!(
            parse_retry_after_seconds(huge),
            Ok(ServerAnswer::RetryAfter { delay_ns: u64::MAX })
        );
    }
    for bad in [
        &b""[..],
        b"-1",
        b"+1",
        b"1.5",
        b" 1",
        b"1 ",
        b"1s",
        b"Fri, 31 Dec 1999 23:59:59 GMT",
        b"\x00",
    ] {
        assert!(parse_retry_after_seconds(bad).is_err(), "{bad:?}");
    }
    assert_eq!(
        parse_retry_after_seconds(b"x").unwrap_err().to_string(),
        "Retry-After value is not delay-seconds (1*DIGIT)"
    );
    assert_eq!(
        ServerAnswer::retry_after_date(-1),
        ServerAnswer::RetryAfter { delay_ns: 0 }
    );
    assert_eq!(
        ServerAnswer::retry_after_date(i64::MAX),
        ServerAnswer::RetryAfter { delay_ns: u64::MAX }
    );
}

/// A6 case 5: "Retry in n ms. If this attempt also fails, retry delay will reset to
/// initial backoff for the following retry".
#[test]
fn pushback_replaces_the_delay_then_the_backoff_restarts() {
    let p = exp(10);
    let mut r = rng();
    let mut s = RetryState::new();
    let delays: Vec<_> = (0..3)
        .map(|_| s.on_failure(&p, 0, &mut r).delay_nanos().unwrap())
        .collect();
    assert_eq!(delays, [100 * MS, 200 * MS, 400 * MS]);
    assert_eq!(
        s.on_failure_with(&p, 0, ServerAnswer::pushback_millis(3_000), &mut r),
        RetryDecision::Retry {
            delay_ns: 3_000 * MS
        }
    );
    let after: Vec<_> = (0..3)
        .map(|_| s.on_failure(&p, 0, &mut r).delay_nanos().unwrap())
        .collect();
    assert_eq!(after, [100 * MS, 200 * MS, 400 * MS]);
    assert_eq!(s.failures(), 7);
    // A zero pushback: retry at once.
    assert_eq!(
        s.on_failure_with(&p, 0, ServerAnswer::pushback_millis(0), &mut r),
        RetryDecision::Retry { delay_ns: 0 }
    );
}

/// A6 case 4 ("Pushback: Don't retry") and the `maxAttempts` rule ("If the client has
/// already exhausted its maxAttempts, the call will not be retried even if the server
/// says to retry after a given delay").
#[test]
fn pushback_cannot_outlive_the_stop_rules() {
    let p = exp(2);
    let mut r = rng();
    let mut s = RetryState::new();
    assert_eq!(
        s.on_failure_with(&p, 0, parse_grpc_pushback(b"-1"), &mut r),
        RetryDecision::GiveUp(StopReason::ServerRefused)
    );
    let mut s = RetryState::new();
    assert!(
        s.on_failure_with(&p, 0, ServerAnswer::pushback_millis(5), &mut r)
            .delay_nanos()
            .is_some()
    );
    assert_eq!(
        s.on_failure_with(&p, 0, ServerAnswer::pushback_millis(5), &mut r),
        RetryDecision::GiveUp(StopReason::MaxAttempts)
    );
    let limited = exp(5).with_stop(
        Stop::NEVER
            .with_max_delay(Duration::from_secs(1))
            .with_max_elapsed(Duration::from_secs(10)),
    );
    let mut s = RetryState::new();
    assert_eq!(
        s.on_failure_with(&limited, 0, ServerAnswer::pushback_millis(1_001), &mut r),
        RetryDecision::GiveUp(StopReason::DelayTooLong)
    );
    assert_eq!(
        s.on_failure_with(
            &limited,
            9_500 * MS,
            ServerAnswer::pushback_millis(600),
            &mut r
        ),
        RetryDecision::GiveUp(StopReason::MaxElapsed)
    );
}

#[test]
fn grpc_preset_honours_pushback_and_others_do_not() {
    let g = presets::grpc_retry(
        5,
        Duration::from_millis(100),
        Duration::from_secs(1),
        Ratio::TWO,
    )
    .unwrap();
    assert!(g.honours_server_answers());
    let mut r = rng();
    assert_eq!(
        RetryState::new().on_failure_with(&g, 0, ServerAnswer::pushback_millis(42), &mut r),
        RetryDecision::Retry { delay_ns: 42 * MS }
    );
    // A policy that does not honour answers ignores them, drawing as on_failure does.
    let plain = exp(5).with_server_answers(false).with_jitter(Jitter::Full);
    for answer in [
        ServerAnswer::DoNotRetry,
        ServerAnswer::pushback_millis(9),
        ServerAnswer::retry_after_secs(9),
    ] {
        let (mut a, mut b) = (rng(), rng());
        assert_eq!(
            RetryState::new().on_failure_with(&plain, 0, answer, &mut a),
            RetryState::new().on_failure(&plain, 0, &mut b)
        );
    }
}

/// `Retry-After` is a floor: `max(own delay, Retry-After)`; the schedule goes on from
/// its own delay.
#[test]
fn retry_after_is_a_floor_on_the_own_schedule() {
    let p = exp(10);
    let mut r = rng();
    let mut s = RetryState::new();
    let ra = ServerAnswer::RetryAfter { delay_ns: 150 * MS };
    let got: Vec<_> = (0..3)
        .map(|_| s.on_failure_with(&p, 0, ra, &mut r).delay_nanos().unwrap())
        .collect();
    assert_eq!(got, [150 * MS, 200 * MS, 400 * MS]);
    assert_eq!(s.prev_delay_nanos(), 400 * MS);
    let capped = p.with_stop(Stop::NEVER.with_max_delay(Duration::from_secs(1)));
    assert_eq!(
        RetryState::new().on_failure_with(&capped, 0, ServerAnswer::retry_after_secs(2), &mut r),
        RetryDecision::GiveUp(StopReason::DelayTooLong)
    );
    // Jittered policies draw exactly as without the answer.
    let j = p.with_jitter(Jitter::Full);
    let (mut a, mut b) = (rng(), rng());
    let (mut sa, mut sb) = (RetryState::new(), RetryState::new());
    for _ in 0..5 {
        let own = sb.on_failure(&j, 0, &mut b).delay_nanos().unwrap();
        let with = sa.on_failure_with(&j, 0, ra, &mut a).delay_nanos().unwrap();
        assert_eq!(with, own.max(150 * MS));
    }
}

#[test]
fn aws_quota_arithmetic() {
    let mut q = RetryQuota::AWS_STANDARD;
    assert_eq!((q.capacity(), q.available()), (500, 500));
    assert_eq!(q.cost(QuotaFailure::Timeout), 10);
    assert_eq!(q.cost(QuotaFailure::Retryable), 5);
    // 50 timeouts empty the bucket; the 51st retry is refused and takes nothing.
    for _ in 0..50 {
        assert_eq!(q.try_acquire(QuotaFailure::Timeout), Some(10));
    }
    assert_eq!(q.available(), 0);
    assert_eq!(q.try_acquire(QuotaFailure::Retryable), None);
    assert_eq!(q.available(), 0);
    // Four first-attempt successes: +1 each; a retryable error (5) then fits.
    for _ in 0..4 {
        q.on_success(0);
    }
    assert_eq!(q.try_acquire(QuotaFailure::Retryable), None);
    q.on_success(0);
    assert_eq!(q.try_acquire(QuotaFailure::Retryable), Some(5));
    assert_eq!(q.available(), 0);
    // That retry succeeded: its cost comes back.
    q.on_success(5);
    assert_eq!(q.available(), 5);
    // Never past the capacity.
    let mut full = RetryQuota::new(7, 5, 10, 1).unwrap();
    full.on_success(10);
    assert_eq!(full.available(), 7);
    assert!(RetryQuota::new(1, 1, 0, 1).is_err());
}

proptest! {
    #[test]
    fn parsers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        let p = parse_grpc_pushback(&bytes);
        let known = matches!(p, ServerAnswer::DoNotRetry | ServerAnswer::Pushback { .. });
        prop_assert!(known, "{:?}", p);
        if let ServerAnswer::Pushback { delay_ns } = p {
            prop_assert!(delay_ns <= 2_147_483_647 * MS);
        }
        match parse_retry_after_seconds(&bytes) {
            Ok(ServerAnswer::RetryAfter { .. }) => {
                let digits = !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit);
                prop_assert!(digits, "{:?}", bytes);
            }
            Ok(other) => prop_assert!(false, "{other:?}"),
            Err(_) => {
                let not_digits = bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit);
                prop_assert!(not_digits, "{:?}", bytes);
            }
        }
    }

    #[test]
    fn digits_parse_as_their_value(n in 0u32..=i32::MAX.unsigned_abs()) {
        let text = n.to_string();
        prop_assert_eq!(parse_grpc_pushback(text.as_bytes()), ServerAnswer::pushback_millis(n));
        prop_assert_eq!(
            parse_retry_after_seconds(text.as_bytes()),
            Ok(ServerAnswer::retry_after_secs(u64::from(n)))
        );
        let negative = format!("-{n}");
        prop_assert_eq!(parse_grpc_pushback(negative.as_bytes()), ServerAnswer::DoNotRetry);
    }

    #[test]
    fn answers_never_panic(
        delay in any::<u64>(),
        elapsed in any::<u64>(),
        kind in 0u8..4,
        seed in any::<u64>(),
        failures in 0u32..8,
    ) {
        let answer = match kind {
            0 => ServerAnswer::None,
            1 => ServerAnswer::DoNotRetry,
            2 => ServerAnswer::Pushback { delay_ns: delay },
            _ => ServerAnswer::RetryAfter { delay_ns: delay },
        };
        let p = exp(6).with_jitter(Jitter::Decorrelated);
        let mut r = XorShiftRng::seed_from_u64(seed);
        let mut s = RetryState::new();
        for _ in 0..failures {
            let _ = s.on_failure(&p, 0, &mut r);
        }
        let d = s.on_failure_with(&p, elapsed, answer, &mut r);
        if let (RetryDecision::Retry { delay_ns }, ServerAnswer::RetryAfter { delay_ns: floor }) = (d, answer) {
            prop_assert!(delay_ns >= floor, "{} < {}", delay_ns, floor);
        }
    }
}
