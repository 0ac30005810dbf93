"""Votes for an abandoned power's units count once per person (seed 001's multi-power seats)."""

from __future__ import annotations

from datetime import UTC, datetime

from judge.adjudicator.catalog import variant
from judge.adjudicator.orders import parse_canonical
from judge.rules.due import one_vote_per_player
from judge.rules.snapshot import GameSnapshot, SeatState, SeatStatus


def _snapshot() -> GameSnapshot:
    # three players: ann holds Austria/England/Germany, bob Italy/Russia, cat France/Turkey
    holders = {"AUSTRIA": 1, "ENGLAND": 1, "GERMANY": 1, "ITALY": 2, "RUSSIA": 2,
               "FRANCE": 3, "TURKEY": 3}
    seats = {p: SeatState(p, holder=h) for p, h in holders.items()}
    seats["TURKEY"] = SeatState("TURKEY", status=SeatStatus.SOMMOSSA, holder=3)
    three = variant("standard-3")
    return GameSnapshot(position=three.initial_position(), deadline=datetime(2026, 1, 1, tzinfo=UTC),
                        now=datetime(2026, 1, 2, tzinfo=UTC), seats=seats, variant=three)


def test_a_player_votes_once_and_never_for_his_own_power() -> None:
    order = [parse_canonical("A CON - BUL")]
    votes = {"AUSTRIA": order, "ENGLAND": order, "GERMANY": order,  # ann three times
             "RUSSIA": [parse_canonical("A CON H")],  # bob once
             "FRANCE": order}  # cat, who holds Turkey itself
    kept = one_vote_per_player(_snapshot(), "TURKEY", votes)
    assert sorted(kept) == ["AUSTRIA", "RUSSIA"]


def test_seven_players_are_not_touched() -> None:
    seats = {p: SeatState(p, holder=i) for i, p in enumerate(variant("standard").powers)}
    snap = GameSnapshot(position=variant("standard").initial_position(),
                        deadline=datetime(2026, 1, 1, tzinfo=UTC),
                        now=datetime(2026, 1, 2, tzinfo=UTC), seats=seats)
    votes = {p: [parse_canonical("A CON H")] for p in ("AUSTRIA", "ENGLAND", "RUSSIA")}
    assert one_vote_per_player(snap, "TURKEY", votes) == votes
