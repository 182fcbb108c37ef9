"""The theory beside the simulations: Metcalfe & Boggs efficiency and BEB's E(c)."""

from __future__ import annotations

from . import _native


def mb_efficiency(stations: int, frame_bits: float = 12144.0, slot_bits: float = 512.0) -> float:
    """Metcalfe & Boggs efficiency ``P/(P + W·C)`` of ``stations`` saturated stations,
    frames of ``frame_bits`` and slots of ``slot_bits`` bit times."""
    return _native.mb_efficiency(stations, frame_bits, slot_bits)


def expected_backoff(collisions: int, backoff_limit: int = 10, attempt_limit: int = 16) -> float:
    """``E(c)``, slots: the mean BEB backoff after the c-th collision."""
    return _native.beb_expected_backoff(collisions, backoff_limit, attempt_limit)
