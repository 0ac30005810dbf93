"""Seed 000's 100 points, draw-size and sum-of-squares."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from judge.adjudicator.catalog import variant
from judge.rules.scoring import draw_size, hundred_points, sum_of_squares

POWERS = variant("standard").powers


def test_seed_000_plain_ranking() -> None:
    centers = {"FRANCE": 10, "ENGLAND": 8, "GERMANY": 6, "RUSSIA": 5, "TURKEY": 5}
    scores = hundred_points(centers, powers=POWERS)
    assert scores["FRANCE"] == 1 + 10 + 38
    assert scores["ENGLAND"] == 1 + 8 + 14
    assert scores["GERMANY"] == 1 + 6 + 7
    assert scores["RUSSIA"] == 6
    assert scores["ITALY"] == 1  # eliminated players keep the participation point


def test_seed_000_two_tied_first_share_38_and_14() -> None:
    centers = {"FRANCE": 9, "ENGLAND": 9, "GERMANY": 6, "TURKEY": 4, "ITALY": 6}
    scores = hundred_points(centers, powers=POWERS)
    assert scores["FRANCE"] == scores["ENGLAND"] == 1 + 9 + 26
    # two tied third share 7: 3 1/2 each
    assert scores["GERMANY"] == scores["ITALY"] == 1 + 6 + Fraction(7, 2)
    assert scores["TURKEY"] == 5


def test_seed_000_solo_takes_100() -> None:
    scores = hundred_points({"RUSSIA": 18, "TURKEY": 10}, solo_winner="RUSSIA", powers=POWERS)
    assert scores["RUSSIA"] == 100
    assert all(scores[p] == 0 for p in POWERS if p != "RUSSIA")


@given(st.lists(st.sampled_from(POWERS), min_size=34, max_size=34))
def test_hundred_points_share_100_when_every_centre_is_owned(owners: list[str]) -> None:
    centers = Counter(owners)
    scores = hundred_points(centers, powers=POWERS)
    # the bonuses of ranks nobody with a centre holds are not given out
    missing = sum((38, 14, 7)[len(centers) :])
    assert sum(scores.values()) == 100 - missing


def test_draw_size() -> None:
    scores = draw_size(["FRANCE", "ENGLAND", "RUSSIA"], POWERS)
    assert scores["FRANCE"] == Fraction(100, 3)
    assert scores["ITALY"] == 0
    assert draw_size(["TURKEY"], POWERS)["TURKEY"] == 100


def test_sum_of_squares() -> None:
    scores = sum_of_squares({"FRANCE": 3, "ENGLAND": 4})
    assert scores["FRANCE"] == 36 and scores["ENGLAND"] == 64
    assert sum_of_squares({"FRANCE": 18, "ENGLAND": 4}, solo_winner="FRANCE")["ENGLAND"] == 0
