"""backoff-core's truncated binary exponential backoff (IEEE 802.3), as the
simulator and the firmware use it."""

from __future__ import annotations

from typing import Iterable, Iterator, List, Optional, Union

from . import _native


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


#: The retry presets of backoff-core (the documented defaults of well-known systems).
PRESETS = tuple(_native.preset_names())


def preset(name: str, rng_seed: int, limit: int = 1000) -> Iterator[float]:
    """The delays, seconds, of backoff-core's preset ``name`` (one of ``PRESETS``:
    Go's cenkalti/backoff, gRPC connection backoff, Celery, APUE's connect_retry) for a
    request that fails at once every time, until the policy gives up (or ``limit``
    delays: gRPC's connection backoff never does)."""
    for ns in _native.preset_delays(name, rng_seed, limit):
        yield ns / 1e9
