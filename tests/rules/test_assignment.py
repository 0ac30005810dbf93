"""Nation assignment by lot and by preference lists, recorded and replayable."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.adjudicator.geography import POWERS
from judge.rules.assignment import (
    Drawing,
    RandomChooser,
    RecordMismatch,
    assign_by_lot,
    assign_by_preference,
    replay_lot,
    replay_preference,
)

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]


def test_by_lot_is_a_recorded_permutation() -> None:
    assignment = assign_by_lot(PLAYERS, RandomChooser(random.Random(7)))
    assert sorted(assignment.powers.values()) == sorted(POWERS)
    assert len(assignment.lots) == 7
    assert replay_lot(PLAYERS, assignment.lots) == assignment


def test_unique_first_choices_are_granted_without_a_draw() -> None:
    prefs = {p: POWERS[i:] + POWERS[:i] for i, p in enumerate(PLAYERS)}
    assignment = assign_by_preference(prefs, RandomChooser(random.Random(1)))
    assert assignment.powers == {p: POWERS[i] for i, p in enumerate(PLAYERS)}
    assert assignment.lots == ()


def test_shared_first_choice_is_drawn_then_the_loser_takes_the_next_rank() -> None:
    prefs = {
        "ann": ["FRANCE", "ENGLAND"],
        "bob": ["FRANCE", "GERMANY"],
        "cat": ["ITALY"],
    }
    assignment = assign_by_preference(prefs, RandomChooser(random.Random(3)))
    assert assignment.lots[0].prize == "FRANCE"
    assert assignment.lots[0].contenders == ("ann", "bob")
    winner = assignment.lots[0].winner
    loser = "bob" if winner == "ann" else "ann"
    assert assignment.powers[winner] == "FRANCE"
    assert assignment.powers[loser] == {"ann": "ENGLAND", "bob": "GERMANY"}[loser]
    assert assignment.powers["cat"] == "ITALY"


def test_replay_reproduces_and_a_forged_record_is_caught() -> None:
    prefs = {p: list(POWERS) for p in PLAYERS}  # everyone wants the same order
    assignment = assign_by_preference(prefs, RandomChooser(random.Random(11)))
    assert replay_preference(prefs, assignment.lots) == assignment
    forged = list(assignment.lots)
    forged[0] = Drawing(forged[0].prize, forged[0].contenders, "mallory")
    with pytest.raises(RecordMismatch):
        replay_preference(prefs, forged)
    with pytest.raises(RecordMismatch):
        replay_preference(prefs, assignment.lots[:-1])


def test_bad_preference_list() -> None:
    with pytest.raises(ValueError):
        assign_by_preference({"ann": ["FRANCE", "FRANCE"]}, RandomChooser(random.Random(0)))


@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=7))
def test_every_player_gets_a_distinct_power(rng: random.Random, count: int) -> None:
    players = PLAYERS[:count]
    prefs = {p: rng.sample(list(POWERS), 7) for p in players}
    assignment = assign_by_preference(prefs, RandomChooser(rng))
    assert set(assignment.powers) == set(players)
    assert len(set(assignment.powers.values())) == count
    # somebody's first choice is always granted
    assert any(assignment.powers[p] == prefs[p][0] for p in players)
