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
