"""1900's two DPjudge rules on its map, converted from its ``.map`` by the importer.

The "Cape of Good Hope" links (``Board.weak_links``), Egypt and Hejaz to the Mid-Atlantic: a
move along one is made at half strength and cuts no support (unless it dislodges the supporter),
nobody supports across one, and a retreat along one yields to another retreat to the same
province. Russia's partisan site Siberia (``Board.partisan_sites``): while Russia has lost some
but not all of its home centres, it counts one build more (or one removal fewer) and Russia may
build there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge.adjudicator.catalog import add_variant_folder, remove_variant_folder, variant
from judge.adjudicator.jsonio import adjudicate_json
from judge.cli import main

LIBRARY = Path(__file__).resolve().parents[2] / ".." / "shared" / "variants" / "dpjudge"

pytestmark = pytest.mark.skipif(
    not (LIBRARY / "1900.map").exists(), reason="DPjudge's map library is not there"
)


@pytest.fixture(scope="module")
def name(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    out = tmp_path_factory.mktemp("maps")
    assert main(["variants", "import", str(LIBRARY / "1900.map"), "--name", "weak1900",
                 "--out", str(out)]) == 0
    added = add_variant_folder(out / "weak1900")
    yield added
    remove_variant_folder(added)


def _play(name: str, units: dict[str, list[str]], orders: dict[str, list[str]],
          **more: Any) -> dict[str, Any]:
    return adjudicate_json({"variant": name, "phase": more.pop("phase", "S1901M"),
                            "units": units, "orders": orders, **more})


def _result(answer: dict[str, Any], power: str, order: str) -> dict[str, Any]:
    return next(r for r in answer["results"][power] if r["order"] == order)


def test_a_move_along_a_weak_link_is_half_strength(name: str) -> None:
    # alone into an empty sea it succeeds; against a plain move it loses (1/2 against 1)
    alone = _play(name, {"BRITAIN": ["F EGY"]}, {"BRITAIN": ["F EGY - MAO"]})
    assert _result(alone, "BRITAIN", "F EGY - MAO")["result"] == "succeeds"
    rivals = _play(name, {"BRITAIN": ["F EGY"], "FRANCE": ["F BRE"]},
                   {"BRITAIN": ["F EGY - MAO"], "FRANCE": ["F BRE - MAO"]})
    assert _result(rivals, "FRANCE", "F BRE - MAO")["result"] == "succeeds"
    assert _result(rivals, "BRITAIN", "F EGY - MAO")["result"] == "fails"
    # two half-strength moves stand each other off
    both = _play(name, {"BRITAIN": ["F EGY"], "TURKEY": ["F HEJ"]},
                 {"BRITAIN": ["F EGY - MAO"], "TURKEY": ["F HEJ - MAO"]})
    assert _result(both, "BRITAIN", "F EGY - MAO")["result"] == "fails"
    assert _result(both, "TURKEY", "F HEJ - MAO")["result"] == "fails"


def test_a_supported_weak_move_counts_its_support_in_full(name: str) -> None:
    # 1/2 + 1 against a fleet holding with 1: dislodged
    units = {"BRITAIN": ["F EGY", "F GIB"], "FRANCE": ["F MAO"]}
    answer = _play(name, units, {"BRITAIN": ["F EGY - MAO", "F GIB S F EGY - MAO"],
                                 "FRANCE": ["F MAO H"]})
    assert _result(answer, "BRITAIN", "F EGY - MAO")["result"] == "succeeds"
    assert "F MAO" in answer["dislodged"]["FRANCE"]
    # 1/2 + 1 against 1 + 1: bounced
    units["FRANCE"].append("F BRE")
    answer = _play(name, units, {"BRITAIN": ["F EGY - MAO", "F GIB S F EGY - MAO"],
                                 "FRANCE": ["F MAO H", "F BRE S F MAO"]})
    assert _result(answer, "BRITAIN", "F EGY - MAO")["result"] == "fails"


def test_no_support_across_a_weak_link(name: str) -> None:
    units = {"BRITAIN": ["F EGY", "F MAO"], "FRANCE": ["F BRE"], "TURKEY": ["F EAS"]}
    answer = _play(name, units, {"BRITAIN": ["F EGY S F BRE - MAO", "F MAO S F EGY"],
                                 "TURKEY": ["F EAS - EGY"]})
    for order in ("F EGY S F BRE - MAO", "F MAO S F EGY"):
        result = _result(answer, "BRITAIN", order)
        assert result["reason"] == "illegal" and result["refusal"] == "support_unreachable"
    # supports that do not cross the link stay legal
    legal = _play(name, units, {"BRITAIN": ["F MAO S F BRE - GAS"], "FRANCE": ["F BRE - GAS"]})
    assert _result(legal, "BRITAIN", "F MAO S F BRE - GAS")["result"] == "succeeds"


def test_a_weak_move_cuts_no_support_unless_it_dislodges(name: str) -> None:
    # Italy attacks the Eastern Mediterranean with one support; Egypt's support of it holds
    # (1 + 1 against 2) although France's fleet attacks Egypt from the Mid-Atlantic
    units = {"BRITAIN": ["F EGY", "F EAS"], "ITALY": ["F ION", "F AEG"], "FRANCE": ["F MAO"]}
    orders = {"BRITAIN": ["F EGY S F EAS", "F EAS H"],
              "ITALY": ["F ION - EAS", "F AEG S F ION - EAS"], "FRANCE": ["F MAO - EGY"]}
    answer = _play(name, units, orders)
    assert _result(answer, "ITALY", "F ION - EAS")["result"] == "fails"
    assert _result(answer, "BRITAIN", "F EGY S F EAS")["result"] == "succeeds"
    # the same attack from a plain neighbour cuts it: Italy dislodges
    units2 = {"BRITAIN": ["F EGY", "F EAS"], "ITALY": ["F ION", "F AEG"], "FRANCE": ["F CYR"]}
    orders2 = {**orders, "FRANCE": ["F CYR - EGY"]}
    answer = _play(name, units2, orders2)
    assert _result(answer, "ITALY", "F ION - EAS")["result"] == "succeeds"


def test_a_retreat_along_a_weak_link_yields(name: str) -> None:
    dislodged = {"BRITAIN": {"F EGY": ["MAO"]}, "FRANCE": {"F BRE": ["MAO"]}}
    answer = _play(name, {"ITALY": ["F EAS"]}, {"BRITAIN": ["F EGY R MAO"],
                                               "FRANCE": ["F BRE R MAO"]},
                   phase="S1901R", dislodged=dislodged)
    assert answer["units"]["FRANCE"] == ["F MAO"]
    assert "BRITAIN" not in answer["units"]
    # two retreats neither along a weak link: both disbanded, as the rulebook says
    dislodged = {"BRITAIN": {"F GAS": ["MAO"]}, "FRANCE": {"F BRE": ["MAO"]}}
    answer = _play(name, {"ITALY": ["F EAS"]}, {"BRITAIN": ["F GAS R MAO"],
                                               "FRANCE": ["F BRE R MAO"]},
                   phase="S1901R", dislodged=dislodged)
    assert "FRANCE" not in answer["units"] and "BRITAIN" not in answer["units"]


HOMES_LOST_ONE = {"RUSSIA": ["MOS", "SEV", "STP"], "GERMANY": ["BER", "COL", "KIE", "MUN", "WAR"]}


def test_partisan_siberia_counts_while_some_homes_are_lost(name: str) -> None:
    board = variant(name).board
    assert board.partisans == {"RUSSIA": ("SIB",)}
    units = {"RUSSIA": ["A MOS", "F SEV", "F STP/SC"], "GERMANY": ["A BER"]}
    pos = variant(name).position("W1901A", units, HOMES_LOST_ONE)
    # three centres, three units, Warsaw lost: one build, in Siberia (owned by nobody)
    assert pos.owed("RUSSIA", board) == 1 and pos.owed("RUSSIA") == 0
    assert pos.adjustment_counts(board)["RUSSIA"] == 1
    answer = _play(name, units, {"RUSSIA": ["A SIB B"]}, phase="W1901A", centers=HOMES_LOST_ONE)
    assert _result(answer, "RUSSIA", "A SIB B")["result"] == "succeeds"
    assert "A SIB" in answer["units"]["RUSSIA"]
    # every home held: Siberia counts for nothing, a build there is refused
    all_homes = {"RUSSIA": ["MOS", "SEV", "STP", "WAR"], "GERMANY": ["BER", "COL", "KIE", "MUN"]}
    answer = _play(name, units, {"RUSSIA": ["A SIB B", "A WAR B"]}, phase="W1901A",
                   centers=all_homes)
    assert _result(answer, "RUSSIA", "A SIB B")["refusal"] == "not_a_home_center"
    assert _result(answer, "RUSSIA", "A WAR B")["result"] == "succeeds"
    # every home lost: nothing either (DPjudge: only while some, not all, are lost)
    none_left = {"RUSSIA": ["NWY"], "GERMANY": ["BER", "COL", "KIE", "MUN", "MOS", "SEV", "STP",
                                                "WAR"]}
    pos = variant(name).position("W1901A", {"RUSSIA": ["A SIB"]}, none_left)
    assert pos.owed("RUSSIA", board) == 0


def test_partisan_siberia_spares_a_removal(name: str) -> None:
    # four units on three centres with Warsaw lost: no removal owed, so no adjustment phase
    units = {"RUSSIA": ["A MOS", "F SEV", "F STP/SC", "A UKR"], "GERMANY": ["A WAR"]}
    centers = {"RUSSIA": ["MOS", "SEV", "STP"], "GERMANY": ["BER", "COL", "KIE", "MUN", "WAR"]}
    answer = _play(name, units, {"RUSSIA": ["A UKR H"]}, phase="F1901M", centers=centers)
    # Germany has five centres and one unit: it builds, Russia owes nothing
    assert answer["next_phase"] == "W1901A"
    w = variant(name).position("W1901A", units, centers)
    assert w.owed("RUSSIA", variant(name).board) == 0
    answer = _play(name, units, {"GERMANY": ["WAIVE", "WAIVE", "WAIVE", "WAIVE"]},
                   phase="W1901A", centers=centers)
    assert sorted(answer["units"]["RUSSIA"]) == ["A MOS", "A UKR", "F SEV", "F STP/SC"]
