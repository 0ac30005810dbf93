"""Properties of the adjudicator over random positions and random legal (and some foreign) orders."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.adjudicator.adjudication import Adjudication, adjudicate
from judge.adjudicator.jsonio import position_to_json
from judge.adjudicator.orders import Order
from judge.adjudicator.position import Position
from judge.adjudicator.possible import random_orders
from tests.standard_variant import STANDARD


def _position_after(seed: int, phases: int) -> Position:
    rng = random.Random(seed)
    position = STANDARD.initial_position()
    for _ in range(phases):
        orders = {p: random_orders(position, p, rng) for p in STANDARD.powers}
        position = adjudicate(position, orders).position
    return position


def _orders(position: Position, rng: random.Random) -> dict[str, list[Order]]:
    orders = {p: random_orders(position, p, rng) for p in STANDARD.powers}
    # a few orders for other powers' units: refused, and never in the way of the owner's order
    for power in STANDARD.powers:
        other = rng.choice(STANDARD.powers)
        if other != power and orders[other] and rng.random() < 0.3:
            orders[power].append(rng.choice(orders[other]))
    return orders


def _summary(result: Adjudication) -> tuple:
    per_order = sorted(
        (r.power, str(r.order), r.outcome.value, r.refusal, r.by, r.dislodged_by, r.generated)
        for rs in result.results.values()
        for r in rs
    )
    return per_order, position_to_json(result.position), sorted(map(str, result.destroyed))


positions = st.builds(
    _position_after,
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=14),
)


@settings(max_examples=80, deadline=None)
@given(positions, st.integers(min_value=0, max_value=10**6))
def test_every_unit_gets_exactly_one_outcome(position: Position, seed: int) -> None:
    orders = _orders(position, random.Random(seed))
    result = adjudicate(position, orders)
    if position.phase.is_movement:
        expected = set(position.units)
    elif position.phase.is_retreat:
        expected = set(position.dislodged)
    else:
        return
    assert set(result.unit_results) == expected
    governing = [
        r
        for rs in result.results.values()
        for r in rs
        if any(r is u for u in result.unit_results.values())
    ]
    assert len(governing) == len(expected)


@settings(max_examples=80, deadline=None)
@given(positions, st.integers(min_value=0, max_value=10**6), st.randoms(use_true_random=False))
def test_shuffling_orders_never_changes_the_result(
    position: Position, seed: int, shuffler: random.Random
) -> None:
    if position.phase.is_adjustment:
        return  # builds and removals are taken in the order written (DATC 6.I.1, 6.J.1)
    orders = _orders(position, random.Random(seed))
    shuffled_powers = list(orders)
    shuffler.shuffle(shuffled_powers)
    shuffled: dict[str, list[Order]] = {}
    for power in shuffled_powers:
        given_orders = list(orders[power])
        shuffler.shuffle(given_orders)
        shuffled[power] = given_orders
    assert _summary(adjudicate(position, orders)) == _summary(adjudicate(position, shuffled))


@settings(max_examples=80, deadline=None)
@given(positions, st.integers(min_value=0, max_value=10**6))
def test_no_two_units_end_in_one_province(position: Position, seed: int) -> None:
    result = adjudicate(position, _orders(position, random.Random(seed)))
    after = result.position
    for prov, unit in after.units.items():
        assert unit.province == prov
    for prov, d in after.dislodged.items():
        assert d.unit.province == prov and d.retreats
        assert all(r.split("/")[0] not in after.units for r in d.retreats)
    if position.phase.is_movement:
        # every unit is on the board, waiting to retreat, or destroyed: none was overwritten
        assert len(after.units) + len(after.dislodged) + len(result.destroyed) == len(
            position.units
        )
    elif position.phase.is_retreat:
        assert len(after.units) + len(result.destroyed) == len(position.units) + len(
            position.dislodged
        )
