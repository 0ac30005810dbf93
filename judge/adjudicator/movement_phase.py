"""The movement phase: read the orders, resolve them, explain each outcome, build the next position.

The hot path of every game, so it is written as flat loops over tuples, with the common cases
(a planned legality answer, a move that succeeded, a unit nobody attacked) read off directly and
only the rest sent to the general code (``legality.normalize_with``, ``MovementVerdicts.fate``),
which gives the same answer for every case; ``tests/adjudicator/test_fast_paths.py`` checks it.
The orders are indexed for the resolver as they are read (one pass, not two), and the results
are built only when first read (``outcomes.Adjudication``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, cast

from judge.adjudicator.adjustments import BuildRule
from judge.adjudicator.convoy_routes import route_exists
from judge.adjudicator.geography import Board
from judge.adjudicator.legality import (
    MovementMemo,
    Refusal,
    SupportPlan,
    fleets_at_sea,
    movement_memo,
    normalize_with,
)
from judge.adjudicator.order_index import OrderIndex
from judge.adjudicator.order_plans import NO_PLAN, PlanKey, make_plan
from judge.adjudicator.order_result import OrderResult, Outcome
from judge.adjudicator.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    unit_value,
)
from judge.adjudicator.outcomes import Adjudication
from judge.adjudicator.phase_flow import (
    NOT_ABOUT_OWN_UNIT,
    finish,
    hold_value,
)
from judge.adjudicator.position import Dislodged, Position
from judge.adjudicator.resolver import SUCCESS_FATE, unit_label
from judge.adjudicator.retreats import retreat_options
from judge.adjudicator.verdicts import MovementVerdicts

_ILLEGAL: Final = Outcome.ILLEGAL
_BOUNCED: Final = Outcome.BOUNCED
_SUCCEEDS: Final = Outcome.SUCCEEDS
_VOID: Final = Outcome.VOID
_DUPLICATE: Final = Refusal.DUPLICATE_ORDER
_NO_FLEETS: Final = Refusal.NO_FLEETS_TO_CONVOY

# per power, its orders as given, as read (the order or why not) and the province each governs
Read = list[tuple[str, list[tuple[Order, "Order | Refusal", "str | None"]]]]


def adjudicate_movement(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    board: Board,
    neutral: frozenset[str] = frozenset(),
    builds: BuildRule = BuildRule.HOME,
) -> Adjudication:
    """``adjudicate`` for a movement phase (see ``adjudication.py`` for the contract)."""
    # a copy: the results are explained on first read, whatever the caller does to its position
    units = dict(position.units)
    memo = movement_memo(board)
    read, legal, governed, index = _read(memo, units, orders)
    resolver = MovementVerdicts(board, units, legal, index)
    resolver.run()
    nxt, destroyed = _next_position(position, board, memo.province, resolver, neutral, builds)
    return Adjudication(
        position.phase,
        None,
        None,
        nxt,
        destroyed,
        lambda: _results(resolver, units, read, governed),
    )


def _read(
    memo: MovementMemo,
    units: dict[str, Unit],
    orders: Mapping[str, Sequence[Order]],
) -> tuple[Read, dict[str, Order], set[str], OrderIndex]:
    """Check every order; the first order for a unit governs it, a second is a duplicate.

    The governing legal orders go into ``legal`` and, sorted by kind, into the resolver's index.
    Orders are told apart by ``type(order) is Kind``, written out at each test: as fast as one
    ``order.__class__`` kept in a local (``type`` of one argument is a specialised call), and
    it is the form that lets mypy narrow ``order`` to that kind.
    """
    board = memo.board
    province = memo.province
    index = OrderIndex(province, board.army_adjacency)
    move_to = index.move_to
    move_loc = index.move_loc
    attackers = index.attackers
    armies_moving = index.armies_moving
    armies_at_sea = index.armies_at_sea
    supports = index.supports
    contested = index.contested
    facing = index.facing
    plans = memo.plans
    support_plans = memo.support_plans
    legal: dict[str, Order] = {}
    governed: set[str] = set()
    read: Read = []
    seas: list[str] = []  # the fleets at sea, found when an army first needs them
    for power, given in orders.items():
        mine: list[tuple[Order, Order | Refusal, str | None]] = []
        read.append((power, mine))
        for order in given:
            norm: Order | Refusal
            if type(order) is Move or type(order) is Hold:
                plan = plans.get(order)
                if plan is None:  # first sight of this order
                    plan = plans[order] = make_plan(memo, order, power)
                if plan is NO_PLAN:
                    norm = normalize_with(memo, units, power, order)
                else:
                    (
                        prov,
                        expected,
                        epower,
                        unit_type,
                        loc,
                        norm,
                        by_sea,
                        target,
                        target_loc,
                        army,
                        at_sea,
                    ) = plan
                    unit = units.get(prov)
                    if (unit is expected and power is epower) or (
                        unit is not None
                        and unit.power == power
                        and unit.type is unit_type
                        and unit.location == loc
                    ):
                        # the unit stands as planned: the cached answer holds
                        # by_sea only for a legal army move, whose target_loc is its target
                        if by_sea and not _carried(units, board, prov, target_loc, seas):
                            norm = _NO_FLEETS
                        elif not isinstance(norm, Refusal):
                            if prov in governed:
                                mine.append((order, _DUPLICATE, None))
                            else:
                                governed.add(prov)
                                legal[prov] = norm
                                mine.append((order, norm, prov))
                                if target is not None:  # OrderIndex.add_move, inlined
                                    move_to[prov] = target
                                    move_loc[prov] = target_loc
                                    if move_to.get(target) == prov:
                                        facing.append(prov)
                                    if target in attackers:
                                        attackers[target].append(prov)
                                        contested.append(target)
                                    else:
                                        attackers[target] = [prov]
                                    if army:
                                        armies_moving.append(prov)
                                        if at_sea:
                                            armies_at_sea.append(prov)
                            continue
                        # a refusal about this unit: handled below like any other
                    else:
                        norm = normalize_with(memo, units, power, order)
            elif type(order) is SupportMove or type(order) is SupportHold:
                splan = support_plans.get(order)
                if splan is not None:
                    (
                        prov,
                        expected,
                        epower,
                        unit_type,
                        loc,
                        other_prov,
                        other_type,
                        other_loc,
                        norm,
                    ) = splan
                    unit = units.get(prov)
                    other = units.get(other_prov)
                    if (
                        (unit is expected and power is epower)
                        or (
                            unit is not None
                            and unit.power == power
                            and unit.type is unit_type
                            and unit.location == loc
                        )
                    ) and (
                        other is not None
                        and other.type is other_type
                        and other.location == other_loc
                    ):
                        # both units stand as when the plan was made: the answer holds
                        if prov in governed:
                            mine.append((order, _DUPLICATE, None))
                        else:
                            governed.add(prov)
                            legal[prov] = norm
                            mine.append((order, norm, prov))
                            supports.append((prov, norm))
                        continue
                norm = normalize_with(memo, units, power, order)
                if type(norm) is SupportMove or type(norm) is SupportHold:  # legal
                    _plan_support(support_plans, power, province, units, order, norm)
            else:
                norm = normalize_with(memo, units, power, order)
            gov: str | None = None
            if isinstance(norm, Refusal):
                if norm not in NOT_ABOUT_OWN_UNIT and type(order) is not Waive:
                    gov = province[order.location]
            elif not isinstance(norm, Waive):  # (never: a WAIVE is refused here)
                gov = province[norm.location]
            if gov is not None:
                if gov in governed:
                    norm, gov = _DUPLICATE, None
                else:
                    governed.add(gov)
                    if not isinstance(norm, Refusal):
                        legal[gov] = norm
                        index.add(gov, norm)
            mine.append((order, norm, gov))
    return read, legal, governed, index


def _carried(
    units: dict[str, Unit], board: Board, start: str, target: str, seas: list[str]
) -> bool:
    """``legality.fleets_could_carry``, with the fleets at sea listed once per phase."""
    if not seas:
        seas.extend(fleets_at_sea(units, board))
        if not seas:
            return False
    return route_exists(board, start, target, seas)


def _plan_support(
    plans: dict[PlanKey, SupportPlan],
    power: str,
    province: dict[str, str],
    units: dict[str, Unit],
    order: SupportHold | SupportMove,
    norm: SupportHold | SupportMove,
) -> None:
    """Keep a support's legal answer for the next time both units stand exactly so."""
    prov = province[order.location]
    other_prov = province[order.supported]
    unit, other = units[prov], units[other_prov]
    if unit.location == order.location and other.location == order.supported:
        plans[order] = (
            prov,
            unit_value(unit.power, unit.type, unit.location),
            power,
            unit.type,
            unit.location,
            other_prov,
            other.type,
            other.location,
            norm,
        )


def _results(
    resolver: MovementVerdicts, units: dict[str, Unit], read: Read, governed: set[str]
) -> tuple[dict[str, list[OrderResult]], dict[str, OrderResult]]:
    """An outcome for every order, then a generated hold for every unit no order governs.

    Most orders succeed, or were met by nobody: those are read off the decisions directly and
    only the rest ask ``fate`` why, which answers the common cases the same way.
    """
    decided = resolver.result
    move_loc = resolver.move_loc
    arrivals = resolver.arrivals
    attackers = resolver.attackers
    void = resolver.void
    paradox = resolver.paradox
    by_power: dict[str, list[OrderResult]] = {}
    unit_results: dict[str, OrderResult] = {}
    # OrderResult and the resolver's methods are named at each call, not kept in locals: the
    # compiled build then makes the (native) result and calls the methods directly, where a
    # class or a bound method kept in a local is called through Python
    for power, mine in read:
        if not mine:
            continue
        results: list[OrderResult] = []
        by_power[power] = results
        for order, norm, prov in mine:
            if prov is None or isinstance(norm, Refusal):
                # the unit held: it may still have been dislodged (a legal order always
                # governs a province, so a missing one means a refusal)
                attacker = arrivals.get(prov) if prov is not None else None
                dislodger = unit_label(units[attacker]) if attacker is not None else None
                # (a cast the compiled build checks: a legal order always governs a province)
                r = OrderResult(power, order, _ILLEGAL, cast(Refusal, norm), (), dislodger, False)
            elif prov in move_loc:
                if decided[prov]:
                    r = OrderResult(power, norm, _SUCCEEDS, None, (), None, False)
                else:
                    rivals = resolver.bounced_by_land(prov)
                    if rivals is not None:
                        attacker = arrivals.get(prov)
                        dislodger = unit_label(units[attacker]) if attacker is not None else None
                        r = OrderResult(power, norm, _BOUNCED, None, rivals, dislodger, False)
                    else:
                        f = resolver.fate(prov)
                        r = OrderResult(power, norm, f.outcome, None, f.by, f.dislodged_by, False)
            elif prov not in attackers:
                # nobody moved against it: not dislodged, and no support of it cut
                if prov in void:
                    r = OrderResult(power, norm, _VOID, None, (), None, False)
                elif paradox and type(norm) is Convoy:
                    f = resolver.fate(prov)
                    r = OrderResult(power, norm, f.outcome, None, f.by, f.dislodged_by, False)
                else:
                    r = OrderResult(power, norm, _SUCCEEDS, None, (), None, False)
            elif prov not in arrivals and type(norm) is Hold:
                r = OrderResult(power, norm, _SUCCEEDS, None, (), None, False)
            elif prov in void and prov not in arrivals:
                r = OrderResult(power, norm, _VOID, None, (), None, False)
            else:
                f = resolver.fate(prov)
                r = OrderResult(power, norm, f.outcome, None, f.by, f.dislodged_by, False)
            results.append(r)
            if prov is not None:
                unit_results[prov] = r
    if governed.issuperset(units):
        return by_power, unit_results  # every unit had an order (the common case)
    for prov, unit in units.items():
        if prov in governed:
            continue
        f = resolver.fate(prov) if prov in arrivals else SUCCESS_FATE  # held, maybe dislodged
        hold = hold_value(unit.type, unit.location)
        r = OrderResult(unit.power, hold, f.outcome, None, f.by, f.dislodged_by, True)
        by_power.setdefault(unit.power, []).append(r)
        unit_results[prov] = r
    return by_power, unit_results


def _next_position(
    position: Position,
    board: Board,
    province: dict[str, str],
    resolver: MovementVerdicts,
    neutral: frozenset[str],
    builds: BuildRule,
) -> tuple[Position, tuple[Unit, ...]]:
    """Units moved, the dislodged with their retreats, centres captured after the Fall.

    A neutral power's dislodged unit is disbanded at once (seed 001, six players: "if Italian
    units are forced to retreat, they're disbanded").
    """
    decided = resolver.result
    move_loc = resolver.move_loc
    arrivals = resolver.arrivals
    after: dict[str, Unit] = {}
    beaten: list[tuple[str, Unit, str]] = []
    for prov, unit in position.units.items():
        if prov in move_loc and decided[prov]:
            loc = move_loc[prov]
            after[province[loc]] = unit.moved_to(loc)
        elif prov in arrivals:
            beaten.append((prov, unit, arrivals[prov]))
        else:
            after[prov] = unit
    dislodged: dict[str, Dislodged] = {}
    destroyed: list[Unit] = []
    if beaten:
        standoffs = resolver.standoffs(after)
        for prov, unit, attacker in beaten:
            origin = None if attacker in resolver.convoyed else attacker
            options = (
                () if unit.power in neutral
                else retreat_options(board, unit, after, origin, standoffs)
            )
            if options:
                dislodged[prov] = Dislodged(unit, origin, options)
            else:
                destroyed.append(unit)
    nxt = finish(
        position.phase, board, after, dict(position.centers), dislodged, position.homes, neutral,
        position.variant, builds,
    )
    return nxt, tuple(destroyed)
