"""Every order the house rules make up is legal for the adjudicator, on random positions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.outcomes import Outcome
from judge.adjudicator.position import Position
from judge.rules.fill import Standing, generate_orders
from judge.rules.onp import mutual_support_orders
from judge.rules.options import RuleSet
from tests.rules.helpers import texts
from tests.standard_variant import STANDARD

BOARD = STANDARD.board
_SPOTS = sorted(
    [f"A {c}" for c, p in BOARD.provinces.items() if p.is_land]
    + [f"F {loc}" for loc in BOARD.fleet_adjacency]
)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    chosen = draw(st.lists(st.sampled_from(_SPOTS), min_size=1, max_size=14))
    units: dict[str, list[str]] = {}
    taken: set[str] = set()
    for spot in chosen:
        province = spot.split()[1].split("/")[0]
        if province in taken:
            continue
        taken.add(province)
        units.setdefault(draw(st.sampled_from(STANDARD.powers)), []).append(spot)
    return STANDARD.position("S1903M", units)


@settings(max_examples=80, deadline=None)
@given(positions())
def test_mutual_support_orders_are_never_illegal(pos: Position) -> None:
    orders = {
        p: [g.order for g in generate_orders(pos, p, (), Standing.FIRST_ONP, RuleSet.ITALIAN)]
        for p in STANDARD.powers
    }
    result = adjudicate(pos, orders)
    for power, results in result.results.items():
        for r in results:
            assert r.outcome is not Outcome.ILLEGAL, (power, str(r.order), r.refusal)


def test_russia_in_the_north() -> None:
    pos = STANDARD.position("F1904M", {"RUSSIA": ["F BOT", "A STP", "A FIN", "F SWE"]})
    assert texts(mutual_support_orders(pos, "RUSSIA")) == [
        "F BOT S A STP",  # STP and SWE are centres; STP is a home centre (c)
        "A FIN S F SWE",  # SWE has no support yet (a)
        "A STP S A FIN",  # the only unit it can reach
        "F SWE S F BOT",  # BOT has no support yet (a)
    ]
