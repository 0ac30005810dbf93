"""Weighted choice among ranked candidates, with the injected random generator.

DumbBot's published idea: usually the best-valued destination, sometimes the next ones when their
values are close. Here the chance of each of the best few falls off exponentially with its gap
to the best, relative to the best's size; ``temperature`` 0 always takes the best.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
TOP = 4  # candidates further down are never drawn: they are rarely sensible


def shuffle(items: list[T], rng: random.Random) -> None:
    """``rng.shuffle(items)``, the same draws and the same order, compiled: the standard
    library's shuffle is Python code, and the likely replies' shuffles were a tenth of a
    computer power's decision (``tests/bots/test_choice.py`` checks it against the library's).
    Written as CPython's ``Random.shuffle`` and ``_randbelow_with_getrandbits`` are."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = rng.getrandbits(k)
        while j >= n:
            j = rng.getrandbits(k)
        items[i], items[j] = items[j], items[i]


def ranked(items: Sequence[tuple[float, T]]) -> list[tuple[float, T]]:
    """Best first; ties keep their given order (callers give a sorted, reproducible order)."""
    return sorted(items, key=lambda item: -item[0])


def pick_index(values: Sequence[float], rng: random.Random, temperature: float) -> int:
    """An index into ``values`` (sorted best first)."""
    if len(values) <= 1 or temperature <= 0:
        return 0
    best = values[0]
    scale = max(abs(best), 1.0) * temperature
    weights = [math.exp((v - best) / scale) for v in values[:TOP]]
    roll = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        roll -= w
        if roll <= 0:
            return i
    return len(weights) - 1
