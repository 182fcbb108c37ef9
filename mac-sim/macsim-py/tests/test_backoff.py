"""`macsim.backoff`: backoff-core's presets and policies as iterators of delays, each
checked against the sequence or the ranges backoff-core documents."""

import datetime
import fractions
import itertools

import pytest

from macsim import backoff

SEEDS = range(20)


def test_fixed_presets():
    assert set(backoff.PRESETS) == {"cenkalti", "grpc-connection", "celery", "apue-connect"}
    # APUE's connect_retry: 1, 2, 4, ..., 64 s, then give up.
    assert list(backoff.preset("apue-connect", 1)) == [1, 2, 4, 8, 16, 32, 64]
    # gRPC connection backoff: 1 s exactly, then 1.6^n s x U(0.8, 1.2), never stops.
    g = list(backoff.preset("grpc-connection", 3, limit=5))
    assert len(g) == 5 and g[0] == 1.0 and 0.8 * 1.6 <= g[1] <= 1.2 * 1.6
    assert len(list(backoff.preset("grpc-connection", 3))) == 1000  # the default limit
    endless = backoff.preset("grpc-connection", 3, limit=None)
    assert len(list(itertools.islice(endless, 5000))) == 5000
    # Celery: 3 retries. cenkalti: until 15 minutes have elapsed.
    assert len(list(backoff.preset("celery", 1))) == 3
    c = list(backoff.preset("cenkalti", 1, limit=None))
    assert 0.25 <= c[0] <= 0.75 and sum(c) <= 900 and max(c) <= 90
    with pytest.raises(ValueError, match="^preset: unknown preset 'nope' .*cenkalti"):
        backoff.preset("nope", 1)


def test_delays_are_an_iterator_repeatable_by_seed():
    d = backoff.preset("cenkalti", 5)
    assert iter(d) is d
    first = next(d)
    assert "cenkalti" in repr(d) and "1 failures" in repr(d)
    assert [first, *d] == list(backoff.preset("cenkalti", 5))
    assert list(backoff.preset("cenkalti", 5)) != list(backoff.preset("cenkalti", 6))


def test_grpc_retry():
    for seed in SEEDS:
        d = list(backoff.grpc_retry(4, 0.1, 1.0, 2, rng_seed=seed))
        assert len(d) == 3
        for x, (lo, hi) in zip(d, [(0.08, 0.12), (0.16, 0.24), (0.32, 0.48)]):
            assert lo <= x <= hi
    # maxAttempts above 5 is taken as 5 (gRFC A6): 4 retries.
    assert backoff.GRPC_MAX_ATTEMPTS_CAP == 5
    assert len(list(backoff.grpc_retry(10, 0.1, 1.0, 2))) == 4
    # The backoff stops growing at max_backoff (+20 %).
    assert max(backoff.grpc_retry(5, 1, 2, 3)) <= 2.4


def test_celery():
    # The example of backoff-core's docs: factor 5 s, no jitter, capped at 600 s.
    assert list(backoff.celery(5, 600, False, 10)) == [5, 10, 20, 40, 80, 160, 320, 600, 600, 600]
    assert list(backoff.celery(rng_seed=4)) == list(backoff.preset("celery", 4))
    for seed in SEEDS:
        for x, top in zip(backoff.celery(rng_seed=seed), [1, 2, 4]):
            assert 0 <= x <= top


def test_aws():
    assert backoff.AWS_SDK_MAX_ATTEMPTS == 3
    for seed in SEEDS:
        full = list(backoff.aws_full_jitter(5, 0.01, 1, rng_seed=seed))
        equal = list(backoff.aws_equal_jitter(5, 0.01, 1, rng_seed=seed))
        deco = list(backoff.aws_decorrelated_jitter(5, 0.01, 1, rng_seed=seed))
        assert len(full) == len(equal) == len(deco) == 4
        for n, (f, e) in enumerate(zip(full, equal)):
            t = min(1, 0.01 * 2**n)
            assert 0 <= f <= t and t / 2 <= e <= t
        prev = 0.01
        for x in deco:
            assert 0.01 <= x <= min(1, 3 * prev)
            prev = x


def test_google_cloud():
    for seed in SEEDS:
        d = list(backoff.google_cloud(10, 32, rng_seed=seed))
        assert len(d) == 9
        for n, x in enumerate(d[:5]):
            assert 2**n <= x <= 2**n + 1
        assert d[-1] == 32.0


def test_the_general_policy_rebuilds_the_presets():
    # Each preset is a Policy: built by hand from the same parts, the same delays.
    for seed in SEEDS:
        assert list(backoff.policy(0.5, 1.5, 60, jitter="factor", spread=0.5, max_elapsed=900,
                                   rng_seed=seed, limit=None)) == \
            list(backoff.preset("cenkalti", seed, limit=None))
        assert list(backoff.policy(1, 1.6, 120, jitter="factor", spread=0.2,
                                   first_delay_unjittered=True, rng_seed=seed, limit=50)) == \
            list(backoff.preset("grpc-connection", seed, limit=50))
        assert list(backoff.policy(1, 2, 32, jitter="additive", jitter_max=1, ceiling=32,
                                   max_attempts=10, rng_seed=seed)) == \
            list(backoff.google_cloud(10, 32, rng_seed=seed))
        assert list(backoff.policy(0.01, 2, 1, jitter="full", max_attempts=5, rng_seed=seed)) == \
            list(backoff.aws_full_jitter(5, 0.01, 1, rng_seed=seed))


def test_the_general_policy():
    # Constant, exponential, capped; stop rules.
    assert list(backoff.policy(0.25, 1, max_retries=3)) == [0.25, 0.25, 0.25]
    assert list(backoff.policy(1, 2, 10, max_attempts=7)) == [1, 2, 4, 8, 10, 10]
    assert list(backoff.policy(1, 2, max_delay=10)) == [1, 2, 4, 8]
    assert list(backoff.policy(1, 2, max_elapsed=10)) == [1, 2, 4]
    assert len(list(backoff.policy(1, 1))) == 1000  # never gives up: the limit
    assert list(backoff.policy(1, 2, 10, ceiling=3, max_retries=4)) == [1, 2, 3, 3]
    # Jitter kinds, within their ranges.
    for seed in SEEDS:
        [e] = backoff.policy(8, jitter="equal", max_retries=1, rng_seed=seed)
        assert 4 <= e <= 8
        [n] = backoff.policy(8, jitter="normal", spread="1/6", max_retries=1, rng_seed=seed)
        assert 0 <= n <= 16
    # Ratios and durations in every form Python offers mean the same.
    forms = [1.6, "8/5", "1.6", fractions.Fraction(8, 5), (8, 5), (16, 10)]
    runs = [list(backoff.policy(0.1, m, 5, jitter="full", max_retries=6, rng_seed=3)) for m in forms]
    assert all(r == runs[0] for r in runs)
    assert list(backoff.policy(datetime.timedelta(milliseconds=100), 2, datetime.timedelta(seconds=5),
                               max_retries=8)) == list(backoff.policy(0.1, 2, 5, max_retries=8))


def test_attempt_duration_counts_towards_the_elapsed_time():
    # cenkalti gives up when the elapsed time plus the next delay passes 15 minutes.
    quick = list(backoff.preset("cenkalti", 1, limit=None))
    slow = list(backoff.preset("cenkalti", 1, limit=None, attempt_duration=30))
    assert len(slow) < len(quick)
    assert sum(slow) + 30 * (len(slow) + 1) <= 900
    assert list(backoff.policy(1, 1, max_elapsed=10, attempt_duration=2)) == [1, 1, 1]


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: backoff.grpc_retry(1, 0.1, 1, 2), r"^grpc_retry: parameter out of range \("),
        (lambda: backoff.grpc_retry(3, 2, 1, 2), r"^grpc_retry: parameter out of range"),
        (lambda: backoff.grpc_retry(3, 0, 1, 2), r"^grpc_retry: parameter out of range"),
        (lambda: backoff.celery(0), r"^celery: parameter out of range"),
        (lambda: backoff.aws_full_jitter(0, 0.1, 1), r"^aws_full_jitter: attempt limit of zero"),
        (lambda: backoff.aws_equal_jitter(3, 2, 1), r"^aws_equal_jitter: parameter out of range"),
        (lambda: backoff.aws_decorrelated_jitter(3, 0, 1), r"^aws_decorrelated_jitter: parameter out of range"),
        (lambda: backoff.google_cloud(0, 32), r"^google_cloud: attempt limit of zero"),
        (lambda: backoff.policy(2, 2, 1), r"^initial: parameter out of range"),
        (lambda: backoff.policy(1, (3, 0)), r"^multiplier: parameter out of range"),
        (lambda: backoff.policy(1, jitter="factor", spread=1.5), r"^spread: parameter out of range"),
        (lambda: backoff.policy(1, jitter="factor"), r"^spread: the jitter factor needs it"),
        (lambda: backoff.policy(1, jitter="full", spread=0.5), r"^spread: only the jitters"),
        (lambda: backoff.policy(1, jitter="additive"), r"^jitter_max: the jitter additive needs it"),
        (lambda: backoff.policy(1, jitter="wobbly"), r"^jitter: unknown jitter 'wobbly'"),
        (lambda: backoff.policy(1, max_attempts=0), r"^max_attempts: attempt limit of zero"),
        (lambda: backoff.policy(1, max_attempts=2, max_retries=1), r"^max_retries: give max_attempts or"),
        (lambda: backoff.policy(-1), r"^initial: -1 s is outside"),
        (lambda: backoff.policy(float("nan")), r"^initial: nan is not a duration"),
        (lambda: backoff.policy("1s"), r"^initial: expected seconds"),
        (lambda: backoff.policy(1, "two"), r"^multiplier: 'two' is not a ratio"),
        (lambda: backoff.policy(1, -2), r"^multiplier: -2 is not a ratio of whole numbers"),
        (lambda: backoff.grpc_retry(-1, 0.1, 1, 2), r"^max_attempts: -1 is outside"),
        (lambda: backoff.preset("celery", -1), r"^rng_seed: -1 is outside"),
        (lambda: backoff.preset("celery", limit=-1), r"^limit: -1 is outside"),
    ],
)
def test_bad_parameters_raise_value_error_naming_them(call, message):
    with pytest.raises(ValueError, match=message):
        call()
