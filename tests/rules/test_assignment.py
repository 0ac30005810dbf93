"""Nation assignment by lot and by preference lists, recorded and replayable."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.adjudicator.catalog import variant
from judge.rules.assignment import (
    Lot,
    RandomChooser,
    RecordMismatch,
    assign_by_lot,
    assign_by_preference,
    replay_lot,
    replay_preference,
    seat_label,
    seat_ranking,
)

POWERS = variant("standard").powers
PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]


def test_by_lot_is_a_recorded_permutation() -> None:
    assignment = assign_by_lot(PLAYERS, RandomChooser(random.Random(7)), POWERS)
    assert sorted(assignment.powers.values()) == sorted(POWERS)
    assert len(assignment.lots) == 7
    assert replay_lot(PLAYERS, assignment.lots, POWERS) == assignment


def test_unique_first_choices_are_granted_without_a_draw() -> None:
    prefs = {p: POWERS[i:] + POWERS[:i] for i, p in enumerate(PLAYERS)}
    assignment = assign_by_preference(prefs, RandomChooser(random.Random(1)), POWERS)
    assert assignment.powers == {p: POWERS[i] for i, p in enumerate(PLAYERS)}
    assert assignment.lots == ()


def test_shared_first_choice_is_drawn_then_the_loser_takes_the_next_rank() -> None:
    prefs = {
        "ann": ["FRANCE", "ENGLAND"],
        "bob": ["FRANCE", "GERMANY"],
        "cat": ["ITALY"],
    }
    assignment = assign_by_preference(prefs, RandomChooser(random.Random(3)), POWERS)
    assert assignment.lots[0].prize == "FRANCE"
    assert assignment.lots[0].contenders == ("ann", "bob")
    winner = assignment.lots[0].winner
    loser = "bob" if winner == "ann" else "ann"
    assert assignment.powers[winner] == "FRANCE"
    assert assignment.powers[loser] == {"ann": "ENGLAND", "bob": "GERMANY"}[loser]
    assert assignment.powers["cat"] == "ITALY"


def test_replay_reproduces_and_a_forged_record_is_caught() -> None:
    prefs = {p: list(POWERS) for p in PLAYERS}  # everyone wants the same order
    assignment = assign_by_preference(prefs, RandomChooser(random.Random(11)), POWERS)
    assert replay_preference(prefs, assignment.lots, POWERS) == assignment
    forged = list(assignment.lots)
    forged[0] = Lot(forged[0].prize, forged[0].contenders, "mallory")
    with pytest.raises(RecordMismatch):
        replay_preference(prefs, forged, POWERS)
    with pytest.raises(RecordMismatch):
        replay_preference(prefs, assignment.lots[:-1], POWERS)


def test_bad_preference_list() -> None:
    with pytest.raises(ValueError):
        assign_by_preference({"ann": ["FRANCE", "FRANCE"]}, RandomChooser(random.Random(0)), POWERS)


@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=7))
def test_every_player_gets_a_distinct_power(rng: random.Random, count: int) -> None:
    players = PLAYERS[:count]
    prefs = {p: rng.sample(list(POWERS), 7) for p in players}
    assignment = assign_by_preference(prefs, RandomChooser(rng), POWERS)
    assert set(assignment.powers) == set(players)
    assert len(set(assignment.powers.values())) == count
    # somebody's first choice is always granted
    assert any(assignment.powers[p] == prefs[p][0] for p in players)


def test_seats_are_drawn_and_preferences_read_over_seats() -> None:
    """Seed 001's three-player game: three seats of several powers each, by lot and by
    preference lists naming powers (a seat ranks where its first-named power does)."""
    seats = variant("standard-3").seats
    labels = [seat_label(s) for s in seats]
    assert labels == ["AUSTRIA+ENGLAND+GERMANY", "ITALY+RUSSIA", "FRANCE+TURKEY"]
    drawn = assign_by_lot(PLAYERS[:3], RandomChooser(random.Random(5)), labels)
    assert sorted(drawn.powers.values()) == sorted(labels)
    assert replay_lot(PLAYERS[:3], drawn.lots, labels) == drawn
    wishes = {"ann": seat_ranking(["TURKEY", "ENGLAND"], seats),
              "bob": seat_ranking(["RUSSIA", "ITALY", "FRANCE"], seats),
              "cat": seat_ranking(["GERMANY"], seats)}
    assert wishes["ann"] == ["FRANCE+TURKEY", "AUSTRIA+ENGLAND+GERMANY"]
    assert wishes["bob"] == ["ITALY+RUSSIA", "FRANCE+TURKEY"]
    chosen = assign_by_preference(wishes, RandomChooser(random.Random(0)), labels)
    assert chosen.powers == {"ann": "FRANCE+TURKEY", "bob": "ITALY+RUSSIA",
                             "cat": "AUSTRIA+ENGLAND+GERMANY"}
    # a neutral power names no seat (six players: Italy is out)
    assert seat_ranking(["ITALY", "FRANCE"], variant("standard-6").seats) == ["FRANCE"]
