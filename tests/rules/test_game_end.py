"""Solo, temporal end (phase or date), draw and concession votes, elimination."""

from __future__ import annotations

from datetime import UTC, datetime

from judge.adjudicator.catalog import variant
from judge.adjudicator.phase import Phase
from judge.rules.game_end import (
    SEED_000_DEFAULT_END,
    EndReason,
    check_end,
    eliminated,
    survivors,
)
from judge.rules.options import EndConditions
from tests.rules.helpers import position

NOW = datetime(2026, 6, 1, tzinfo=UTC)
EIGHTEEN = ["PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER", "DEN", "LON",
            "EDI", "LVP", "NWY", "SWE", "TUN", "NAP"]


def _pos(phase: str = "W1905A", centers: dict | None = None, units: dict | None = None):
    units = units or {"FRANCE": ["A PAR"], "ENGLAND": ["F NTH"], "RUSSIA": ["A MOS"]}
    centers = centers or {"FRANCE": ["PAR", "BRE"], "ENGLAND": ["LON"], "RUSSIA": ["MOS", "WAR", "SEV"]}
    return position(phase, units, centers)


def test_solo_at_18_centres_and_switched_off() -> None:
    pos = _pos(centers={"FRANCE": EIGHTEEN, "RUSSIA": ["MOS"], "ENGLAND": ["STP"]})
    end = check_end(pos, EndConditions(), NOW)
    assert end is not None and end.reason is EndReason.SOLO and end.winners == ("FRANCE",)
    assert check_end(pos, EndConditions(solo_centers=None), NOW) is None
    assert check_end(_pos(), EndConditions(), NOW) is None


def test_temporal_game_ends_after_fall_1907_by_default_seed_000() -> None:
    conditions = EndConditions(end_after=SEED_000_DEFAULT_END)
    assert check_end(_pos("F1907M"), conditions, NOW) is None
    assert check_end(_pos("F1907R"), conditions, NOW) is None
    end = check_end(_pos("W1907A"), conditions, NOW)
    assert end is not None and end.reason is EndReason.END_PHASE_PASSED
    assert end.winners == ("RUSSIA",)
    assert end.centers["RUSSIA"] == 3


def test_temporal_game_tied_leaders_share() -> None:
    centers = {"FRANCE": ["PAR", "BRE"], "ENGLAND": ["LON", "EDI"], "RUSSIA": ["MOS"]}
    end = check_end(_pos("S1903M", centers), EndConditions(end_on=NOW), NOW)
    assert end is not None and end.reason is EndReason.END_DATE_REACHED
    assert end.winners == ("ENGLAND", "FRANCE") and end.is_draw
    assert check_end(_pos("S1903M", centers), EndConditions(end_after=Phase.parse("S1903M")), NOW) is None


def test_draw_needs_every_survivor() -> None:
    pos = _pos()
    assert check_end(pos, EndConditions(), NOW, draw_votes={"FRANCE", "ENGLAND"}) is None
    end = check_end(pos, EndConditions(), NOW, draw_votes={"FRANCE", "ENGLAND", "RUSSIA", "ITALY"})
    assert end is not None and end.reason is EndReason.DRAW
    assert end.winners == ("ENGLAND", "FRANCE", "RUSSIA")


def test_concession_needs_every_other_survivor() -> None:
    pos = _pos()
    partial = {"ENGLAND": "FRANCE"}
    assert check_end(pos, EndConditions(), NOW, concessions=partial) is None
    full = {"ENGLAND": "FRANCE", "RUSSIA": "FRANCE"}
    end = check_end(pos, EndConditions(), NOW, concessions=full)
    assert end is not None and end.reason is EndReason.CONCESSION and end.winners == ("FRANCE",)


def test_elimination_and_last_survivor() -> None:
    pos = _pos()
    assert survivors(pos) == ("ENGLAND", "FRANCE", "RUSSIA")
    assert "ITALY" in eliminated(pos)
    # a power with a centre but no unit survives
    pos = _pos(units={"FRANCE": ["A PAR"]}, centers={"FRANCE": ["PAR"], "RUSSIA": ["MOS"]})
    assert "RUSSIA" in survivors(pos)
    pos = _pos(units={"FRANCE": ["A PAR"]}, centers={"FRANCE": ["PAR"]})
    end = check_end(pos, EndConditions(solo_centers=None), NOW)
    assert end is not None and end.reason is EndReason.LAST_SURVIVOR


def test_a_player_of_several_powers_wins_with_their_centres_together() -> None:
    """Seed 001, three players: France/Turkey with 10 + 8 centres wins at 18 though neither
    country has 18; the seven-power count would see no winner."""
    three = variant("standard-3")
    pos = _pos(centers={"FRANCE": EIGHTEEN[:10], "TURKEY": EIGHTEEN[10:], "RUSSIA": ["MOS"]})
    assert check_end(pos, EndConditions(), NOW) is None
    end = check_end(pos, EndConditions(), NOW, variant=three)
    assert end is not None and end.reason is EndReason.SOLO
    assert end.winners == ("FRANCE", "TURKEY")
    # only one player's powers left: that player has won
    alone = _pos(units={"FRANCE": ["A PAR"], "TURKEY": ["A CON"]},
                 centers={"FRANCE": ["PAR"], "TURKEY": ["CON"]})
    assert check_end(alone, EndConditions(), NOW) is None  # seven players: two survive
    last = check_end(alone, EndConditions(), NOW, variant=three)
    assert last is not None and last.reason is EndReason.LAST_SURVIVOR


def test_the_two_player_lot_counts_italy_for_its_new_player() -> None:
    two = variant("standard-2")
    centres = {"ENGLAND": EIGHTEEN[:8], "FRANCE": EIGHTEEN[8:14], "RUSSIA": ["MOS", "WAR",
               "SEV", "STP"], "ITALY": ["ROM", "VEN", "TRI", "VIE", "BUD", "SER"]}
    pos = _pos(phase="S1916M", centers=centres)
    # 18 without Italy; with Italy (joined England's side by the lot) 24
    assert check_end(pos, EndConditions(solo_centers=24), NOW, variant=two,
                     joins="AUSTRIA") is None
    end = check_end(pos, EndConditions(solo_centers=24), NOW, variant=two, joins="ENGLAND")
    assert end is not None and end.winners == ("ENGLAND", "FRANCE", "ITALY", "RUSSIA")
