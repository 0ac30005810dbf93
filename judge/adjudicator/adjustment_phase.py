"""The adjustment phase: builds, waives, removals and civil-disorder removals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.adjudicator.adjustments import BuildRule, RemovalDistance, removal_order
from judge.adjudicator.geography import Board
from judge.adjudicator.legality import Refusal, normalize
from judge.adjudicator.order_result import OrderResult, Outcome
from judge.adjudicator.orders import Build, Disband, Order, Unit, Waive, unit_value
from judge.adjudicator.outcomes import Adjudication, Options
from judge.adjudicator.phase_flow import advance, by_power
from judge.adjudicator.position import Position


def adjudicate_adjustments(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    board: Board,
    options: Options,
    neutral: frozenset[str] = frozenset(),
    builds: BuildRule = BuildRule.HOME,
) -> Adjudication:
    """Builds and removals per power; neutral powers (``variant.py``) make none."""
    units = dict(position.units)
    results: list[OrderResult] = []
    unit_results: dict[str, OrderResult] = {}
    destroyed: list[Unit] = []
    powers = sorted(
        (set(orders) | {u.power for u in units.values()} | set(position.centers.values()))
        - neutral
    )
    for power in powers:
        owed = position.owed(power, board)  # with 1900's partisan sites
        builds_left = max(owed, 0)
        removals_left = max(-owed, 0)
        built: set[str] = set()
        removed: set[str] = set()
        for order in orders.get(power, ()):
            norm = normalize(position, power, order, board, builds)
            if not isinstance(norm, Refusal):
                if isinstance(norm, Build):
                    prov = norm.location.split("/", 1)[0]
                    if prov in built:
                        norm = Refusal.ALREADY_BUILT_THERE
                    elif builds_left == 0:
                        norm = Refusal.TOO_MANY_BUILDS
                elif isinstance(norm, Waive):
                    if builds_left == 0:
                        norm = Refusal.TOO_MANY_BUILDS
                elif isinstance(norm, Disband):
                    prov = norm.location.split("/", 1)[0]
                    if prov in removed:
                        norm = Refusal.DUPLICATE_ORDER
                    elif removals_left == 0:
                        norm = Refusal.TOO_MANY_REMOVALS
            if isinstance(norm, Refusal):
                results.append(OrderResult(power, order, Outcome.ILLEGAL, norm))
                continue
            r = OrderResult(power, norm, Outcome.SUCCEEDS)
            results.append(r)
            if isinstance(norm, Build):
                prov = norm.location.split("/", 1)[0]
                built.add(prov)
                builds_left -= 1
                units[prov] = unit_value(power, norm.unit_type, norm.location)
                unit_results[prov] = r
            elif isinstance(norm, Waive):
                builds_left -= 1
            elif isinstance(norm, Disband):
                prov = norm.location.split("/", 1)[0]
                removed.add(prov)
                removals_left -= 1
                destroyed.append(units.pop(prov))
                unit_results[prov] = r
        for _ in range(builds_left):
            results.append(OrderResult(power, Waive(), Outcome.SUCCEEDS, generated=True))
        if removals_left:
            if options.removal_distance is RemovalDistance.OWNED:
                reference = frozenset(position.centers_of(power))
            else:
                reference = frozenset(position.homes.get(power, ()))
            mine = [u for u in units.values() if u.power == power]
            for unit in removal_order(board, mine, reference)[:removals_left]:
                r = OrderResult(
                    power, Disband(unit.type, unit.location), Outcome.SUCCEEDS, generated=True
                )
                results.append(r)
                unit_results[unit.province] = r
                destroyed.append(units.pop(unit.province))
    nxt = Position(
        position.phase, units, dict(position.centers), {}, position.homes, position.variant
    )
    nxt.phase = advance(position.phase, nxt, neutral, builds, board)
    return Adjudication(position.phase, by_power(results), unit_results, nxt, tuple(destroyed))
