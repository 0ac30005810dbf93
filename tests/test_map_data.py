"""The packaged standard map against the counts and facts the reference table documents."""

from __future__ import annotations

import csv

import pytest

from tests.conftest import SHARED
from tests.standard_variant import STANDARD

BOARD = STANDARD.board


def test_province_counts() -> None:
    playable = [p for p in BOARD.provinces.values() if p.kind != "impassable"]
    assert len(playable) == 75
    assert sum(p.is_sea for p in playable) == 19
    assert BOARD.provinces["SWI"].kind == "impassable"
    coasts = [c for p in BOARD.provinces.values() for c in p.coasts]
    assert sorted(coasts) == ["BUL/EC", "BUL/SC", "SPA/NC", "SPA/SC", "STP/NC", "STP/SC"]


def test_centres_and_homes() -> None:
    assert len(BOARD.supply_centers) == 34
    homes = BOARD.all_home_centers
    assert sum(len(h) for h in homes.values()) == 22
    assert homes["RUSSIA"] == ("MOS", "SEV", "STP", "WAR")
    assert all(len(homes[p]) == 3 for p in STANDARD.powers if p != "RUSSIA")


def test_adjacency_counts_and_symmetry() -> None:
    army_pairs = {frozenset((a, b)) for a, ns in BOARD.army_adjacency.items() for b in ns}
    fleet_pairs = {frozenset((a, b)) for a, ns in BOARD.fleet_adjacency.items() for b in ns}
    assert len(army_pairs) == 111
    assert len(fleet_pairs) == 141
    for a, ns in BOARD.army_adjacency.items():
        assert all(a in BOARD.army_adjacency[b] for b in ns)
    for a, ns in BOARD.fleet_adjacency.items():
        assert all(a in BOARD.fleet_adjacency[b] for b in ns)


@pytest.mark.parametrize(
    ("unit", "source", "target", "expected"),
    [
        # seed 002: Trieste-Bohemia not adjacent; Finland cannot support into Norway
        ("A", "TRI", "BOH", False),
        ("F", "FIN", "NWY", False),
        ("A", "DEN", "SWE", True),
        # seed 000: Tuscany-Rome is a fleet move, Tuscany-Venice is not
        ("F", "TUS", "ROM", True),
        ("F", "TUS", "VEN", False),
        ("A", "BEL", "LON", False),
        ("F", "BER", "DEN", False),
        ("A", "SPA", "NAF", False),
        # seed 003: the Skagerrak does not touch the Baltic
        ("F", "SKA", "BAL", False),
        ("F", "AEG", "BUL/SC", True),
        ("F", "AEG", "BUL/EC", False),
    ],
)
def test_seed_adjacency_statements(unit: str, source: str, target: str, expected: bool) -> None:
    move = BOARD.army_can_move if unit == "A" else BOARD.fleet_can_move
    assert move(source, target) is expected


def test_names_in_three_languages() -> None:
    mar = BOARD.provinces["MAR"].names
    assert mar["fr"]["abbr"] == ["TOU"]
    assert mar["it"]["abbr"] == ["Mar"]
    assert BOARD.provinces["NAF"].names["fr"]["abbr"] == ["MAR"]
    assert BOARD.provinces["LVN"].names["it"]["abbr"][0] == "Liv"
    assert BOARD.coast_names["BUL/EC"]["fr"]["abbr"] == ["BUL CN"]


def test_matches_reference_table() -> None:
    path = SHARED / "reference" / "provinces.csv"
    if not path.exists():
        pytest.skip("../shared/reference/provinces.csv not present")
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        code = row["std_abbr"].upper()
        armies = {n.upper() for n in row["army_neighbours"].split()}
        fleets = {n.upper() for n in row["fleet_neighbours"].split()}
        assert set(BOARD.army_adjacency.get(code, ())) == armies, code
        assert set(BOARD.fleet_adjacency.get(code, ())) == fleets, code
