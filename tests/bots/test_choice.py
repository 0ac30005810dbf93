"""The computer powers' weighted choice and shuffle: the compiled shuffle draws as the standard
library's does, so a seed gives the same games as it gave with ``random.Random.shuffle``."""

from __future__ import annotations

import random

from judge.bots.choice import pick_index, shuffle


def test_shuffle_is_the_standard_library_s_draw_for_draw() -> None:
    for seed in range(200):
        for size in (0, 1, 2, 3, 7, 16, 33, 100):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, library = list(range(size)), list(range(size))
            shuffle(mine, ours)
            theirs.shuffle(library)
            assert mine == library, (seed, size)
            # the generators drew alike: what comes next is the same too
            assert ours.random() == theirs.random()


def test_temperature_zero_takes_the_best_and_a_draw_stays_in_the_best_few() -> None:
    rng = random.Random(3)
    assert pick_index([5.0, 4.9, 1.0], rng, 0.0) == 0
    picks = {pick_index([5.0, 4.9, 4.8, 4.7, 4.6, 4.5], rng, 1.0) for _ in range(500)}
    assert picks <= {0, 1, 2, 3} and len(picks) > 1
