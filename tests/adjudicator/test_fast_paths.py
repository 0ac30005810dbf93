"""The movement phase's fast paths answer exactly as the general code does (movement_phase.py).

The references here take the slow road on purpose: every order through
``legality.normalize_with``, every move decision through ``_resolve`` without the shortcuts of
``MovementResolver.run``, and every outcome through ``MovementVerdicts.fate``. Orders are random
legal ones, coordinated ones (supports and convoys that match a move) and mangled ones (wrong
unit type, foreign units, unknown coasts, VIA, duplicates, missing orders).
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.legality import movement_memo, normalize_with
from judge.adjudicator.movement_phase import _read, _results
from judge.adjudicator.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from judge.adjudicator.outcomes import OrderResult, Outcome
from judge.adjudicator.phase_flow import NOT_ABOUT_OWN_UNIT
from judge.adjudicator.position import Position
from judge.adjudicator.possible import possible_orders, random_orders
from judge.adjudicator.refusals import Refusal
from judge.adjudicator.resolver import unit_label
from judge.adjudicator.verdicts import MovementVerdicts
from tests.standard_variant import STANDARD

BOARD = STANDARD.board
LOCATIONS = sorted(BOARD.locations)


def _movement_position(seed: int, phases: int) -> Position:
    rng = random.Random(seed)
    position = STANDARD.initial_position()
    for _ in range(phases):
        orders = {p: random_orders(position, p, rng) for p in STANDARD.powers}
        position = adjudicate(position, orders).position
    while not position.phase.is_movement:
        orders = {p: random_orders(position, p, rng) for p in STANDARD.powers}
        position = adjudicate(position, orders).position
    return position


def _coordinated(position: Position, rng: random.Random) -> dict[str, list[Order]]:
    """Moves first, then supports and convoys for the moves and holds actually ordered."""
    options = {p: possible_orders(position, p) for p in STANDARD.powers}
    chosen: dict[str, Order] = {}
    for listing in options.values():
        for loc, orders in listing.items():
            moves = [o for o in orders if isinstance(o, Move)]
            chosen[loc] = rng.choice(moves) if moves and rng.random() < 0.55 else orders[0]
    wanted = set(chosen.values())
    for listing in options.values():
        for loc, orders in listing.items():
            if rng.random() >= 0.45:
                continue
            good = [o for o in orders if _helps(o, wanted)]
            if good:
                chosen[loc] = rng.choice(good)
    return {p: [chosen[loc] for loc in listing] for p, listing in options.items()}


def _helps(order: Order, wanted: set[Order]) -> bool:
    if isinstance(order, SupportMove):
        t, src, dst = order.supported_type, order.supported, order.target
        return Move(t, src, dst) in wanted or Move(t, src, dst, True) in wanted
    if isinstance(order, SupportHold):
        return Hold(order.supported_type, order.supported) in wanted
    if isinstance(order, Convoy):
        a, dst = order.army, order.target
        return Move(UnitType.ARMY, a, dst) in wanted or Move(UnitType.ARMY, a, dst, True) in wanted
    return False


def _mangle(position: Position, orders: dict[str, list[Order]], rng: random.Random) -> None:
    units = list(position.units.values())
    for given_orders in list(orders.values()):
        for i, order in enumerate(given_orders):
            roll = rng.random()
            if roll < 0.08:
                given_orders[i] = _random_order(rng, units)
            elif roll < 0.12 and isinstance(order, Move) and order.unit_type is UnitType.ARMY:
                given_orders[i] = Move(UnitType.ARMY, order.location, order.target, True)
            elif roll < 0.15:
                given_orders.append(order)  # a duplicate
        if given_orders and rng.random() < 0.1:
            given_orders.pop(rng.randrange(len(given_orders)))  # a unit left to hold
        rng.shuffle(given_orders)
        if rng.random() < 0.2:
            other = rng.choice(STANDARD.powers)
            if orders[other]:
                given_orders.append(rng.choice(orders[other]))  # somebody else's unit


def _random_order(rng: random.Random, units: list) -> Order:
    unit, other = rng.choice(units), rng.choice(units)
    kind = rng.choice([UnitType.ARMY, UnitType.FLEET])
    loc = unit.location if rng.random() < 0.7 else rng.choice(LOCATIONS)
    if rng.random() < 0.2:
        loc = loc.split("/")[0]  # a coast left out
    pick = rng.randrange(6)
    if pick == 0:
        return Hold(kind, loc)
    if pick == 1:
        return Move(kind, loc, rng.choice(LOCATIONS), rng.random() < 0.3)
    if pick == 2:
        return SupportHold(kind, loc, other.type, other.location)
    if pick == 3:
        return SupportMove(kind, loc, other.type, other.location, rng.choice(LOCATIONS))
    if pick == 4:
        return Convoy(kind, loc, other.location, rng.choice(LOCATIONS))
    return Waive()


def _orders(position: Position, seed: int, style: int) -> dict[str, list[Order]]:
    rng = random.Random(seed)
    if style == 0:
        orders = {p: random_orders(position, p, rng) for p in STANDARD.powers}
    else:
        orders = _coordinated(position, rng)
    if style == 2:
        _mangle(position, orders, rng)
    return orders


def _slow_read(position: Position, orders: dict[str, list[Order]]) -> list:
    """The orders read through ``normalize_with`` alone (what the plans stand in for)."""
    memo = movement_memo(BOARD)
    governed: set[str] = set()
    out = []
    for power, given_orders in orders.items():
        mine = []
        for order in given_orders:
            norm = normalize_with(memo, position.units, power, order)
            prov = None
            if isinstance(norm, Refusal):
                if norm not in NOT_ABOUT_OWN_UNIT and not isinstance(order, Waive):
                    prov = order.location.split("/")[0]  # type: ignore[union-attr]
            else:
                prov = norm.location.split("/")[0]  # type: ignore[union-attr]
            if prov is not None:
                if prov in governed:
                    norm, prov = Refusal.DUPLICATE_ORDER, None
                else:
                    governed.add(prov)
            mine.append((order, norm, prov))
        out.append((power, mine))
    return out


cases = st.tuples(
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=24),
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from([0, 1, 2]),
)


@settings(max_examples=150, deadline=None)
@given(cases)
def test_planned_legality_is_normalize_with(case: tuple[int, int, int, int]) -> None:
    seed, phases, order_seed, style = case
    position = _movement_position(seed, phases)
    orders = _orders(position, order_seed, style)
    read, legal, governed, _ = _read(movement_memo(BOARD), position.units, orders)
    assert read == _slow_read(position, orders)
    assert governed == {prov for _, mine in read for _, _, prov in mine if prov is not None}
    assert legal == {
        prov: norm
        for _, mine in read
        for _, norm, prov in mine
        if prov is not None and not isinstance(norm, Refusal)
    }


# what the resolver derives from the orders before deciding anything
LINKS = (
    "move_to",
    "move_loc",
    "attackers",
    "convoyed",
    "no_route",
    "fleets_for",
    "hold_support",
    "move_support",
    "support_into",
    "void",
    "h2h",
    "result",
)


def _slow_run(resolver: MovementVerdicts) -> None:
    """``run`` without its shortcuts: every move through ``_resolve``."""
    for prov in sorted(resolver.move_to):
        if prov not in resolver.result:
            resolver._resolve(prov)
    resolver.arrivals = {t: p for p, t in resolver.move_to.items() if resolver.result[p]}
    resolver.cuts = {}


@settings(max_examples=150, deadline=None)
@given(cases)
def test_run_shortcuts_and_result_shortcuts_agree_with_the_general_code(
    case: tuple[int, int, int, int],
) -> None:
    seed, phases, order_seed, style = case
    position = _movement_position(seed, phases)
    orders = _orders(position, order_seed, style)
    read, legal, governed, index = _read(movement_memo(BOARD), position.units, orders)
    fast = MovementVerdicts(BOARD, position.units, legal, index)
    slow = MovementVerdicts(BOARD, position.units, legal)  # indexes the orders itself
    for name in LINKS:
        assert getattr(fast, name) == getattr(slow, name), name
    assert list(fast.move_to) == list(slow.move_to)
    fast.run()
    _slow_run(slow)
    assert {p: fast.result[p] for p in fast.move_to} == {p: slow.result[p] for p in slow.move_to}
    assert fast.arrivals == slow.arrivals

    by_power, unit_results = _results(fast, position.units, read, governed)
    expected: dict[str, list[OrderResult]] = {}
    for power, mine in read:
        for order, norm, prov in mine:
            if isinstance(norm, Refusal):
                dislodger = slow.fate(prov).dislodged_by if prov is not None else None
                r = OrderResult(power, order, Outcome.ILLEGAL, norm, (), dislodger)
            else:
                f = slow.fate(prov)  # type: ignore[arg-type]
                r = OrderResult(power, norm, f.outcome, None, f.by, f.dislodged_by)
            expected.setdefault(power, []).append(r)
    for prov, unit in position.units.items():
        if prov not in governed:
            f = slow.fate(prov)
            hold = Hold(unit.type, unit.location)
            r = OrderResult(unit.power, hold, f.outcome, None, f.by, f.dislodged_by, True)
            expected.setdefault(unit.power, []).append(r)
    assert by_power == expected
    assert set(unit_results) == set(position.units) | governed


def test_results_are_explained_lazily_and_are_values() -> None:
    position = _movement_position(7, 6)
    orders = _orders(position, 3, 1)
    first = adjudicate(position, orders)
    second = adjudicate(position, orders)
    # the caller may change its position afterwards: the results were of the position given
    for prov in list(position.units):
        del position.units[prov]
    assert first == second
    assert first.results == second.results
    assert all(r.order is not None for rs in first.results.values() for r in rs)
    assert {unit_label(u) for u in second.destroyed} == {unit_label(u) for u in first.destroyed}
    assert pickle.loads(pickle.dumps(first)) == first
    assert copy.deepcopy(second) == second
    with pytest.raises(AttributeError):
        first.phase = position.phase  # type: ignore[misc]
    with pytest.raises(AttributeError):
        first.results = {}  # type: ignore[misc]


@settings(max_examples=40, deadline=None)
@given(cases)
def test_plans_do_not_rely_on_shared_units_or_power_names(case: tuple[int, int, int, int]) -> None:
    """The plans recognise the shared unit values and power names by identity first; copies
    (a position read from storage, power names from another source) take the other road."""
    seed, phases, order_seed, style = case
    position = _movement_position(seed, phases)
    orders = _orders(position, order_seed, style)
    shared = adjudicate(position, orders)
    copied = Position(
        position.phase,
        {p: Unit("".join(u.power), u.type, "".join(u.location)) for p, u in position.units.items()},
        dict(position.centers),
        dict(position.dislodged),
        dict(position.homes),
        position.variant,
    )
    renamed = {"".join(list(power)): list(given) for power, given in orders.items()}
    assert adjudicate(copied, renamed) == shared
