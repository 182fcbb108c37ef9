"""backoff-core in a notebook: the truncated binary exponential backoff of IEEE 802.3
(as the simulator and the firmware use it) and the retry policies of services, as
iterators of delays.

    from itertools import islice
    from macsim import backoff
    list(backoff.grpc_retry(4, 0.1, 1.0, 2))           # 3 delays, seconds, then it gives up
    list(islice(backoff.preset("grpc-connection"), 5))  # it never gives up
    list(backoff.policy(0.1, 2, cap=10, jitter="full", max_attempts=5, rng_seed=7))

Every policy is built by backoff-core and every delay drawn by it
(``RetryState::on_failure``): the delays are those one request waits when each of its
attempts fails, until the policy gives up. Durations are seconds (an ``int``, a
``float`` or a ``datetime.timedelta``), kept as whole nanoseconds as backoff-core keeps
them; ratios (multipliers, spreads) are exact fractions (``2``, ``1.6``, ``"3/2"``,
``fractions.Fraction(8, 5)`` or ``(8, 5)``). A parameter backoff-core refuses raises
``ValueError`` with its message. Jitter comes from a xorshift generator seeded with
``rng_seed``, so the same seed gives the same delays.

Each function takes, besides its own parameters:

* ``rng_seed``: the seed of the jitter's generator (default 1);
* ``limit``: stop after this many delays even if the policy has not given up
  (default 1000; ``None``: no limit, for a policy that gives up by itself);
* ``attempt_duration``: how long each failed attempt takes, seconds (default 0: the
  failure is seen at once); the elapsed time the stop rules see (cenkalti's 15
  minutes, ``max_elapsed``) is the sum of the attempts and the delays so far.
"""

from __future__ import annotations

import datetime as _dt
import fractions as _fractions
import math as _math
import numbers as _numbers
from typing import Iterable, Iterator, List, Optional, Tuple, Union

from . import _native

__all__ = [
    "AWS_SDK_MAX_ATTEMPTS",
    "GRPC_MAX_ATTEMPTS_CAP",
    "PRESETS",
    "aws_decorrelated_jitter",
    "aws_equal_jitter",
    "aws_full_jitter",
    "celery",
    "decide",
    "delays",
    "google_cloud",
    "grpc_retry",
    "policy",
    "preset",
    "window",
]

#: A duration in seconds.
Seconds = Union[int, float, _dt.timedelta]
#: An exact ratio: a number, ``"NUM/DEN"``, a ``fractions.Fraction`` or ``(NUM, DEN)``.
RatioLike = Union[int, float, str, _fractions.Fraction, Tuple[int, int]]

_U32 = 2**32 - 1
_U64 = 2**64 - 1


# --- BEB (IEEE 802.3) ---------------------------------------------------------------


def decide(
    collisions: Union[int, Iterable[int]],
    rng_seed: int,
    backoff_limit: int = 10,
    attempt_limit: int = 16,
) -> Union[Optional[int], List[Optional[int]]]:
    """The decision after ``collisions`` collisions of a frame: the slots to wait, or
    ``None`` to discard it. The draws come from a xorshift generator seeded with
    ``rng_seed``; a list of collision counts draws one after the other from it."""
    if isinstance(collisions, int):
        return _native.beb_decide([collisions], rng_seed, backoff_limit, attempt_limit)[0]
    return _native.beb_decide(list(collisions), rng_seed, backoff_limit, attempt_limit)


def window(collisions: int, backoff_limit: int = 10, attempt_limit: int = 16) -> int:
    """The window, in slots, BEB draws from after ``collisions`` collisions."""
    return _native.beb_window(collisions, backoff_limit, attempt_limit)


def delays(rng_seed: int, backoff_limit: int = 10, attempt_limit: int = 16) -> Iterator[int]:
    """The backoffs, in slots, of one frame that collides at every attempt, until
    BEB discards it (after ``attempt_limit`` attempts)."""
    for d in decide(range(1, attempt_limit + 1), rng_seed, backoff_limit, attempt_limit):
        if d is None:
            return
        yield d


# --- conversions of Python values to what backoff-core takes ------------------------


def _ns(name: str, seconds: Seconds) -> int:
    """Seconds as whole nanoseconds (rounded), checked."""
    if isinstance(seconds, _dt.timedelta):
        ns = (seconds // _dt.timedelta(microseconds=1)) * 1000
    elif isinstance(seconds, bool) or not isinstance(seconds, _numbers.Real):
        raise ValueError(
            f"{name}: expected seconds (a number or a datetime.timedelta), "
            f"not {type(seconds).__name__}"
        )
    elif isinstance(seconds, _numbers.Integral):
        ns = int(seconds) * 10**9
    else:
        x = float(seconds)
        if not _math.isfinite(x):
            raise ValueError(f"{name}: {seconds!r} is not a duration")
        ns = round(x * 1e9)
    if not 0 <= ns <= _U64:
        raise ValueError(f"{name}: {seconds!r} s is outside 0 to {_U64 / 1e9:.0f} s")
    return ns


def _count(name: str, n: int, top: int = _U32) -> int:
    """A whole number from 0 to ``top``, checked."""
    if isinstance(n, bool) or not isinstance(n, _numbers.Integral):
        raise ValueError(f"{name}: expected a whole number, not {type(n).__name__}")
    if not 0 <= int(n) <= top:
        raise ValueError(f"{name}: {n} is outside 0 to {top}")
    return int(n)


def _ratio(name: str, x: RatioLike) -> Tuple[int, int]:
    """An exact ratio as ``(numerator, denominator)`` of 32-bit whole numbers. A float
    is taken as written (``1.6`` is 8/5); one that needs more digits is the nearest
    ratio that fits."""
    if isinstance(x, tuple) and len(x) == 2:
        num, den = _count(name, x[0]), _count(name, x[1])
        return num, den
    try:
        if isinstance(x, bool):
            raise TypeError
        if isinstance(x, float):
            if not _math.isfinite(x):
                raise ValueError
            f = _fractions.Fraction(repr(x))
            if f.denominator > _U32 or f.numerator > _U32:
                f = f.limit_denominator(_U32)
        else:
            f = _fractions.Fraction(x)
    except (TypeError, ValueError, ZeroDivisionError):
        raise ValueError(
            f"{name}: {x!r} is not a ratio (a number, 'NUM/DEN', a Fraction or (NUM, DEN))"
        ) from None
    if f < 0 or f.numerator > _U32 or f.denominator > _U32:
        raise ValueError(f"{name}: {x!r} is not a ratio of whole numbers from 0 to {_U32}")
    return f.numerator, f.denominator


def _delays(
    p, rng_seed: int, limit: Optional[int], attempt_duration: Seconds
) -> Iterator[float]:
    return p.delays(
        _count("rng_seed", rng_seed, _U64),
        None if limit is None else _count("limit", limit, 2**63 - 1),
        _ns("attempt_duration", attempt_duration),
    )


# --- the presets of backoff-core ----------------------------------------------------

#: The fixed presets of backoff-core (the documented defaults of well-known systems):
#: ``cenkalti`` (Go's cenkalti/backoff), ``grpc-connection`` (gRPC's connection
#: backoff), ``celery`` (Celery's ``retry_backoff`` defaults), ``apue-connect``
#: (APUE's ``connect_retry``).
PRESETS: Tuple[str, ...] = tuple(_native.preset_names())

#: The AWS SDKs' default ``max_attempts`` (standard retry mode, the first attempt
#: included), to pair with the AWS presets.
AWS_SDK_MAX_ATTEMPTS: int = _native.AWS_SDK_MAX_ATTEMPTS

#: The largest ``maxAttempts`` gRPC honours: larger values are taken as this.
GRPC_MAX_ATTEMPTS_CAP: int = _native.GRPC_MAX_ATTEMPTS_CAP


def preset(
    name: str,
    rng_seed: int = 1,
    limit: Optional[int] = 1000,
    *,
    attempt_duration: Seconds = 0,
) -> Iterator[float]:
    """The delays, seconds, of backoff-core's fixed preset ``name`` (one of
    ``PRESETS``): Go's cenkalti/backoff (0.5 s · 1.5^n ≤ 60 s, × U(0.5, 1.5), until 15
    minutes have elapsed), gRPC's connection backoff (1 s, then 1 s · 1.6^n ≤ 120 s,
    × U(0.8, 1.2), never gives up), Celery (U(0, 2^n s), 3 retries), APUE's
    connect_retry (1, 2, 4, ..., 64 s)."""
    return _delays(_native.preset(name), rng_seed, limit, attempt_duration)


def grpc_retry(
    max_attempts: int,
    initial_backoff: Seconds,
    max_backoff: Seconds,
    backoff_multiplier: RatioLike,
    *,
    rng_seed: int = 1,
    limit: Optional[int] = 1000,
    attempt_duration: Seconds = 0,
) -> Iterator[float]:
    """The delays, seconds, of a gRPC ``retryPolicy`` (gRFC A6): the n-th retry (from
    0) waits ``min(initial_backoff · backoff_multiplier^n, max_backoff) × U(0.8, 1.2)``;
    ``max_attempts`` counts the first attempt (at least 2; above
    ``GRPC_MAX_ATTEMPTS_CAP`` it is taken as 5, as gRPC does)."""
    p = _native.grpc_retry(
        _count("max_attempts", max_attempts),
        _ns("initial_backoff", initial_backoff),
        _ns("max_backoff", max_backoff),
        _ratio("backoff_multiplier", backoff_multiplier),
    )
    return _delays(p, rng_seed, limit, attempt_duration)


def celery(
    factor: int = 1,
    retry_backoff_max: int = 600,
    retry_jitter: bool = True,
    max_retries: int = 3,
    *,
    rng_seed: int = 1,
    limit: Optional[int] = 1000,
    attempt_duration: Seconds = 0,
) -> Iterator[float]:
    """The delays, seconds, of a Celery task with ``retry_backoff=factor``: the n-th
    retry (from 0) waits ``min(factor · 2^n, retry_backoff_max)`` seconds (whole
    seconds, as Celery takes them), with ``retry_jitter`` a uniform draw up to that;
    at most ``max_retries`` retries. The defaults are Celery's (``preset("celery")``).
    """
    p = _native.celery(
        _count("factor", factor),
        _count("retry_backoff_max", retry_backoff_max),
        bool(retry_jitter),
        _count("max_retries", max_retries),
    )
    return _delays(p, rng_seed, limit, attempt_duration)


def _aws(jitter, max_attempts, base, cap, rng_seed, limit, attempt_duration):
    p = _native.aws(
        jitter, _count("max_attempts", max_attempts), _ns("base", base), _ns("cap", cap)
    )
    return _delays(p, rng_seed, limit, attempt_duration)


def aws_full_jitter(
    max_attempts: int,
    base: Seconds,
    cap: Seconds,
    *,
    rng_seed: int = 1,
    limit: Optional[int] = 1000,
    attempt_duration: Seconds = 0,
) -> Iterator[float]:
    """The delays, seconds, of AWS's "full jitter" (the Architecture Blog's
    "Exponential Backoff and Jitter"): ``U(0, min(cap, base · 2^n))`` for the n-th
    retry (from 0), at most ``max_attempts`` attempts, the first included
    (``AWS_SDK_MAX_ATTEMPTS`` is the SDKs' default)."""
    return _aws("full", max_attempts, base, cap, rng_seed, limit, attempt_duration)


def aws_equal_jitter(
    max_attempts: int,
    base: Seconds,
    cap: Seconds,
    *,
    rng_seed: int = 1,
    limit: Optional[int] = 1000,
    attempt_duration: Seconds = 0,
) -> Iterator[float]:
    """The delays, seconds, of AWS's "equal jitter": ``t/2 + U(0, t/2)`` with
    ``t = min(cap, base · 2^n)``, at most ``max_attempts`` attempts."""
    return _aws("equal", max_attempts, base, cap, rng_seed, limit, attempt_duration)


def aws_decorrelated_jitter(
    max_attempts: int,
    base: Seconds,
    cap: Seconds,
    *,
    rng_seed: int = 1,
    limit: Optional[int] = 1000,
    attempt_duration: Seconds = 0,
) -> Iterator[float]:
    """The delays, seconds, of AWS's "decorrelated jitter":
    ``sleep = min(cap, U(base, 3 · sleep))`` from ``sleep = base``, at most
    ``max_attempts`` attempts."""
    return _aws("decorrelated", max_attempts, base, cap, rng_seed, limit, attempt_duration)


def google_cloud(
    max_attempts: int,
    maximum_backoff: Seconds,
    *,
    rng_seed: int = 1,
    limit: Optional[int] = 1000,
    attempt_duration: Seconds = 0,
) -> Iterator[float]:
    """The delays, seconds, of Google Cloud's truncated exponential backoff:
    ``min(2^n s + U(0, 1000 ms), maximum_backoff)`` for the n-th retry (from 0;
    ``maximum_backoff`` is typically 32 or 64 s), at most ``max_attempts`` attempts,
    the first included."""
    p = _native.google_cloud(
        _count("max_attempts", max_attempts), _ns("maximum_backoff", maximum_backoff)
    )
    return _delays(p, rng_seed, limit, attempt_duration)


def policy(
    initial: Seconds,
    multiplier: RatioLike = 2,
    cap: Optional[Seconds] = None,
    *,
    jitter: str = "none",
    spread: Optional[RatioLike] = None,
    jitter_max: Optional[Seconds] = None,
    ceiling: Optional[Seconds] = None,
    first_delay_unjittered: bool = False,
    max_attempts: Optional[int] = None,
    max_retries: Optional[int] = None,
    max_delay: Optional[Seconds] = None,
    max_elapsed: Optional[Seconds] = None,
    rng_seed: int = 1,
    limit: Optional[int] = 1000,
    attempt_duration: Seconds = 0,
) -> Iterator[float]:
    """The delays, seconds, of a retry policy of your own, as backoff-core's
    ``Policy`` builds it: after the f-th failure (f = 1 first) the delay is
    ``min(ceiling, jitter(min(initial · multiplier^(f-1), cap)))``.

    * ``initial``, ``multiplier`` (1 for a constant delay), ``cap``: the schedule
      (no ``cap``: it grows without one);
    * ``jitter``: ``"none"``; ``"full"``, ``U(0, d)``; ``"equal"``,
      ``d/2 + U(0, d/2)``; ``"decorrelated"``, ``min(cap, U(initial, 3 · previous))``;
      ``"factor"``, ``d · U(1 − spread, 1 + spread)`` (``spread`` at most 1:
      cenkalti's 0.5, gRPC's 0.2); ``"additive"``, ``d + U(0, jitter_max)``;
      ``"normal"``, ``d + N(0, (spread · d)²)`` clamped at 0;
    * ``ceiling``: a cap applied after jitter (Google Cloud's); ``first_delay_unjittered``:
      the first delay is exactly ``initial`` (gRPC's connection backoff);
    * stop rules, each off unless given: ``max_attempts`` (the first attempt included)
      or ``max_retries``; ``max_delay``, give up rather than wait longer once;
      ``max_elapsed``, give up when the elapsed time plus the next delay would pass it.

    Without a stop rule the policy never gives up: the delays end at ``limit``.
    """
    p = _native.policy(
        _ns("initial", initial),
        _ratio("multiplier", multiplier),
        None if cap is None else _ns("cap", cap),
        jitter,
        None if spread is None else _ratio("spread", spread),
        None if jitter_max is None else _ns("jitter_max", jitter_max),
        None if ceiling is None else _ns("ceiling", ceiling),
        bool(first_delay_unjittered),
        None if max_attempts is None else _count("max_attempts", max_attempts),
        None if max_retries is None else _count("max_retries", max_retries),
        None if max_delay is None else _ns("max_delay", max_delay),
        None if max_elapsed is None else _ns("max_elapsed", max_elapsed),
    )
    return _delays(p, rng_seed, limit, attempt_duration)
