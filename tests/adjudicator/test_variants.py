"""Variants: the catalog, and seed 001's games for fewer players through ``judge adjudicate``.

Seed 001 ("Alternate Way to Play", p. 19): six players, Italy is out: "Italian units hold in
position and defend themselves, but don't support each other. Units belonging to any of the
players can support them in their holding position. If Italian units are forced to retreat,
they're disbanded." Five players: Italy and Germany so. Two players: "Italy is neutral and
Italian territory can't be entered. The game begins in 1914. Before the Fall 1914 adjustments,
flip a coin. Italy joins the winner of the toss in Spring 1915. The first player to control 24
supply centers wins."
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from judge.adjudicator.adjudication import Options, adjudicate
from judge.adjudicator.catalog import variant, variant_names
from judge.adjudicator.jsonio import RequestError, adjudicate_json
from judge.adjudicator.orders import parse_canonical
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position
from judge.adjudicator.variant import VariantError
from tests.standard_variant import STANDARD

STANDARD_UNITS = {p: list(u) for p, u in variant("standard").board.starting_units.items()}


def _results(answer: dict, power: str) -> dict[str, dict]:
    return {r["order"]: r for r in answer["results"].get(power, [])}


def test_installed_variants_include_the_standard_map_and_seed_001_games() -> None:
    names = variant_names()
    for name in ("standard", "standard-6", "standard-5", "standard-4", "standard-3",
                 "standard-2", "pure"):
        assert name in names
    out = subprocess.run([sys.executable, "-m", "judge.cli", "variants"], check=True,
                         capture_output=True, text=True).stdout.split()
    assert out == list(names)


def test_the_standard_variant_is_the_2008_board() -> None:
    v = variant("standard")
    assert v.powers == ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    assert len(v.supply_centers) == 34 and v.victory == 18 and v.players == 7
    assert str(v.first_phase) == "S1901M"
    assert v.homes["RUSSIA"] == ("MOS", "SEV", "STP", "WAR")
    start = v.initial_position()
    assert len(start.units) == 22 and start.variant == "standard" and start.homes == v.homes
    assert sorted(start.centers) == sorted(c for cs in v.homes.values() for c in cs)


def test_a_position_names_its_variant_and_its_home_centres() -> None:
    """Issue 12: no Position silently assumes the standard map's homes or first phase."""
    with pytest.raises(TypeError):
        Position(Phase.parse("S1901M"), {}, {})  # type: ignore[call-arg]
    pure = variant("pure")
    start = pure.initial_position()
    assert start.variant == "pure" and start.homes == pure.homes
    assert start.phase == pure.first_phase and set(start.powers()) == set(pure.powers)
    # without centres, every power of the variant owns its own home centres
    empty = pure.position("F1903M", {})
    assert empty.variant == "pure" and empty.centers == start.centers
    assert STANDARD.position("F1903M", {}).homes == STANDARD.homes != empty.homes


@pytest.mark.parametrize(
    ("name", "seats"),
    [
        ("standard-4", [["ENGLAND"], ["AUSTRIA", "FRANCE"], ["GERMANY", "TURKEY"],
                        ["ITALY", "RUSSIA"]]),
        ("standard-3", [["AUSTRIA", "ENGLAND", "GERMANY"], ["ITALY", "RUSSIA"],
                        ["FRANCE", "TURKEY"]]),
        ("standard-2", [["ENGLAND", "FRANCE", "RUSSIA"], ["AUSTRIA", "GERMANY", "TURKEY"]]),
        ("standard-6", [[p] for p in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA",
                                      "TURKEY")]),
        ("standard-5", [[p] for p in ("AUSTRIA", "ENGLAND", "FRANCE", "RUSSIA", "TURKEY")]),
    ],
)
def test_seats_are_the_rulebook_pairings(name: str, seats: list[list[str]]) -> None:
    assert [list(s) for s in variant(name).seats] == seats


def test_six_players_italian_orders_are_refused_and_its_units_hold() -> None:
    answer = adjudicate_json({
        "phase": "S1901M", "variant": "standard-6", "units": STANDARD_UNITS,
        "orders": {"ITALY": ["A VEN - TYR"], "AUSTRIA": ["A VIE - TYR"]},
    })
    italy = _results(answer, "ITALY")
    assert italy["A VEN - TYR"]["result"] == "fails"
    assert italy["A VEN - TYR"]["refusal"] == "neutral_power"
    assert italy["A VEN H"]["generated"] is True
    assert "A VEN" in answer["units"]["ITALY"]
    assert "A TYR" in answer["units"]["AUSTRIA"]


def test_six_players_any_power_may_support_an_italian_unit_to_hold() -> None:
    request = {
        "phase": "S1902M", "variant": "standard-6",
        "units": {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI", "A TYR"], "FRANCE": ["A PIE"]},
        "orders": {"AUSTRIA": ["A TRI - VEN", "A TYR S A TRI - VEN"],
                   "FRANCE": ["A PIE S A VEN"]},
    }
    answer = adjudicate_json(request)
    assert "A VEN" in answer["units"]["ITALY"]
    assert _results(answer, "AUSTRIA")["A TRI - VEN"]["result"] == "fails"


def test_six_players_a_dislodged_italian_unit_is_disbanded_not_retreated() -> None:
    answer = adjudicate_json({
        "phase": "F1902M", "variant": "standard-6",
        "units": {"ITALY": ["A VEN", "F NAP"], "AUSTRIA": ["A TRI", "A TYR"]},
        "centers": {"ITALY": ["NAP", "ROM", "VEN"], "AUSTRIA": ["BUD", "TRI", "VIE"]},
        "orders": {"AUSTRIA": ["A TRI - VEN", "A TYR S A TRI - VEN"]},
    })
    assert answer["units"]["ITALY"] == ["F NAP"]
    assert answer["dislodged"] == {}
    assert "VEN" in answer["centers"]["AUSTRIA"]
    # Austria builds one (four centres, two units); Italy (two centres now, one unit) makes
    # no adjustment as a neutral: the winter is due for Austria only
    assert answer["next_phase"] == "W1902A"
    # the standard game keeps the retreat
    standard = adjudicate_json({
        "phase": "F1902M",
        "units": {"ITALY": ["A VEN", "F NAP"], "AUSTRIA": ["A TRI", "A TYR"]},
        "centers": {"ITALY": ["NAP", "ROM", "VEN"], "AUSTRIA": ["BUD", "TRI", "VIE"]},
        "orders": {"AUSTRIA": ["A TRI - VEN", "A TYR S A TRI - VEN"]},
    })
    assert "A VEN" in standard["dislodged"]["ITALY"]


def test_neutral_powers_make_no_adjustments() -> None:
    position = STANDARD.position(
        "W1902A", {"ITALY": ["A VEN", "F NAP", "A ROM"], "GERMANY": ["A BER"]},
        {"ITALY": ["VEN"], "GERMANY": ["BER", "KIE", "MUN"]},
    )
    result = adjudicate(position, {}, Options(), variant("standard-5"))
    assert len(result.position.units) == 4  # nobody removed, nobody built
    assert "ITALY" not in result.results and "GERMANY" not in result.results
    standard = adjudicate(position, {}, Options(), variant("standard"))
    assert len(standard.position.units) == 2  # the standard game removes two Italian units


def test_two_players_start_in_1914_with_italy_closed() -> None:
    v = variant("standard-2")
    assert str(v.first_phase) == "S1914M" and v.victory == 24
    answer = adjudicate_json({
        "phase": "S1914M", "variant": "standard-2", "units": STANDARD_UNITS,
        "orders": {"AUSTRIA": ["A VIE - TYR", "F TRI - VEN"], "FRANCE": ["A MAR - PIE"]},
    })
    assert _results(answer, "AUSTRIA")["F TRI - VEN"]["refusal"] == "not_adjacent"
    assert _results(answer, "FRANCE")["A MAR - PIE"]["refusal"] == "not_adjacent"
    assert _results(answer, "AUSTRIA")["A VIE - TYR"]["result"] == "succeeds"


def test_two_players_the_lot_is_needed_from_the_fall_1914_adjustments() -> None:
    request = {
        "phase": "W1914A", "variant": "standard-2",
        "units": {"ITALY": ["A VEN", "F NAP"], "ENGLAND": ["F LON"]},
        "centers": {"ITALY": ["NAP", "ROM", "VEN"], "ENGLAND": ["LON"]},
    }
    with pytest.raises(RequestError, match="italy_joins"):
        adjudicate_json(request)
    with pytest.raises(RequestError, match="italy_joins"):
        adjudicate_json({**request, "italy_joins": "ITALY"})
    joined = adjudicate_json({**request, "italy_joins": "ENGLAND",
                              "orders": {"ITALY": ["A ROM B"]}})
    assert "A ROM" in joined["units"]["ITALY"]  # Italy adjusts, played by England's player
    spring = adjudicate_json({
        "phase": "S1915M", "variant": "standard-2", "italy_joins": "ENGLAND",
        "units": {"ITALY": ["A VEN"], "AUSTRIA": ["A TYR"]},
        "orders": {"ITALY": ["A VEN - PIE"], "AUSTRIA": ["A TYR - VEN"]},
    })
    assert spring["units"] == {"AUSTRIA": ["A VEN"], "ITALY": ["A PIE"]}


def test_seats_follow_the_lot() -> None:
    v = variant("standard-2")
    assert v.seat_of("ITALY", "FRANCE") == v.seat_of("ENGLAND")
    assert v.seat_powers(v.seat_of("ENGLAND"), "FRANCE") == (
        "ENGLAND", "FRANCE", "ITALY", "RUSSIA")
    with pytest.raises(VariantError):
        v.rules_at(Phase.parse("S1915M"))
    assert v.active_powers(Phase.parse("S1914M")) == (
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY")


def test_unknown_variant_and_foreign_powers_are_refused() -> None:
    with pytest.raises(RequestError, match="unknown variant"):
        adjudicate_json({"phase": "S1901M", "variant": "nowhere"})
    with pytest.raises(RequestError, match="draws no lot"):
        adjudicate_json({"phase": "S1901M", "italy_joins": "FRANCE"})


def test_judge_adjudicate_reads_the_variant_from_the_cli() -> None:
    request = {"phase": "S1901M", "variant": "standard-6", "units": STANDARD_UNITS,
               "orders": {"ITALY": ["F NAP - ION"]}}
    run = subprocess.run([sys.executable, "-m", "judge.cli", "adjudicate"],
                         input=json.dumps(request), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert _results(answer, "ITALY")["F NAP - ION"]["refusal"] == "neutral_power"


def test_orders_for_neutral_units_never_reach_the_resolver() -> None:
    position = STANDARD.position("S1901M", {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI"]})
    orders = {"ITALY": [parse_canonical("A VEN - TRI")]}
    result = adjudicate(position, orders, Options(), variant("standard-6"))
    assert result.position.units == position.units


def test_a_player_wins_with_his_powers_centres_added_up() -> None:
    from judge.rules.game_end import seat_victory

    v = variant("standard-2")
    centres = {"ENGLAND": ["BRE", "EDI", "LON", "LVP", "MAR", "PAR", "BEL", "HOL"],
               "FRANCE": ["SPA", "POR", "NWY", "SWE", "DEN", "KIE", "BER", "MUN"],
               "RUSSIA": ["MOS", "SEV", "STP", "WAR", "RUM", "BUL", "SER"]}
    position = STANDARD.position("S1916M", {}, centres)
    assert seat_victory(v, position, "AUSTRIA") is None  # 23 centres
    centres["ITALY"] = ["NAP"]
    position = STANDARD.position("S1916M", {}, centres)
    assert seat_victory(v, position, "AUSTRIA") is None  # Italy joined the other side
    assert seat_victory(v, position, "ENGLAND") == ("ENGLAND", "FRANCE", "ITALY", "RUSSIA")
