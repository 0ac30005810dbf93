"""A short game on each scripted variant, written by hand from its map, through ``judge adjudicate``.

Each ``tests/data/variant_games/<variant>.json`` is a list of phases: the orders given and what
must follow (the outcome of named orders, the units and centres after, the next phase). A phase
starts from the variant's first position (``judge variants show``) or from the answer to the
phase before; ``"start"`` may replace units or centres by hand.

``ancmed`` and ``chaos`` are games from the first position (two game years of ancmed: a move, a
bounce, a convoy, a supported move, a support cut, a dislodgement and its retreat, builds;
Chaos's Winter 1900 builds and builds anywhere); so is ``1900``'s first year (a support across
a Cape of Good Hope link refused, a half-strength move that wins with one support, and Russia's
build in its partisan Siberia once Warsaw is lost). The other variants' scripts are one scene each,
set up by hand on provinces read from the variant's map (a helper listed candidate provinces:
a sea between two coasts, a province with three land neighbours...): a move, a bounce, a
support cut, a supported attack that dislodges, a convoy where the map has seas, the retreat,
then a build; their expectations are the rules', not the adjudicator's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge.adjudicator.catalog import variant
from judge.adjudicator.jsonio import adjudicate_json

SCRIPTS = Path(__file__).resolve().parents[1] / "data" / "variant_games"


def _first(name: str) -> dict[str, Any]:
    v = variant(name)
    start = v.initial_position()
    return {
        "variant": name,
        "phase": str(start.phase),
        "units": {
            p: [f"{u.type.value} {u.location}" for u in start.units.values() if u.power == p]
            for p in v.powers
        },
        "centers": {p: [c for c, o in start.centers.items() if o == p] for p in v.powers},
    }


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.json")))
def test_scripted_game(script: str) -> None:
    data = json.loads((SCRIPTS / script).read_text("utf-8"))
    name = data["variant"]
    state = _first(name)
    for step in data["phases"]:
        request = {**state, **step.get("start", {}), "orders": step.get("orders", {})}
        assert request["phase"] == step["phase"], "the script is out of step"
        answer = adjudicate_json(request)
        outcomes = {
            (power, r["order"]): r["result"]
            for power, results in answer["results"].items()
            for r in results
        }
        for power, expected in step.get("expect", {}).get("results", {}).items():
            for order, result in expected.items():
                assert outcomes.get((power, order)) == result, (step["phase"], power, order)
        for key in ("units", "centers", "dislodged"):
            if key in step.get("expect", {}):
                for power, value in step["expect"][key].items():
                    got = answer[key].get(power, [] if key != "dislodged" else {})
                    if isinstance(value, list):
                        assert sorted(got) == sorted(value), (step["phase"], key, power)
                    else:
                        assert got == value, (step["phase"], key, power)
        assert answer["next_phase"] == step["expect"]["next_phase"], step["phase"]
        state = {
            "variant": name,
            "phase": answer["next_phase"],
            "units": answer["units"],
            "centers": answer["centers"],
            "dislodged": {
                p: {u: d for u, d in ds.items()} for p, ds in answer["dislodged"].items()
            },
        }
