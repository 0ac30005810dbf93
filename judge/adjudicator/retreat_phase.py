"""The retreat phase: each dislodged unit retreats, or is disbanded (see ``retreats.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.adjudicator.adjustments import BuildRule
from judge.adjudicator.geography import Board
from judge.adjudicator.legality import Refusal
from judge.adjudicator.order_result import OrderResult, Outcome
from judge.adjudicator.orders import Disband, Order, Retreat
from judge.adjudicator.outcomes import Adjudication
from judge.adjudicator.phase_flow import by_power, finish, read_orders
from judge.adjudicator.position import Position
from judge.adjudicator.retreats import resolve_retreats


def adjudicate_retreats(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    board: Board,
    neutral: frozenset[str] = frozenset(),
    builds: BuildRule = BuildRule.HOME,
) -> Adjudication:
    waiting = {prov: d.unit for prov, d in position.dislodged.items()}
    entries, governing = read_orders(position, orders, board, waiting)
    legal: dict[str, Order] = {}
    for prov, e in governing.items():
        if not isinstance(e.norm, Refusal):
            legal[prov] = e.norm
    generated: list[tuple[str, Order]] = []
    for prov, unit in waiting.items():
        if prov not in governing:
            order = Disband(unit.type, unit.location)
            legal[prov] = order
            generated.append((prov, order))
    fates, arrived = resolve_retreats(waiting, legal, board.weak_links)
    results: list[OrderResult] = []
    unit_results: dict[str, OrderResult] = {}
    for e in entries:
        if isinstance(e.norm, Refusal):
            r = OrderResult(e.power, e.order, Outcome.ILLEGAL, e.norm)
        else:
            outcome, by = fates[e.province]  # type: ignore[index]
            r = OrderResult(e.power, e.norm, outcome, None, by)
        results.append(r)
        if e.province is not None:
            unit_results[e.province] = r
    for prov, disband in generated:
        outcome, by = fates[prov]
        r = OrderResult(waiting[prov].power, disband, outcome, None, by, generated=True)
        results.append(r)
        unit_results[prov] = r
    units = dict(position.units)
    units.update(arrived)
    destroyed = tuple(u for prov, u in waiting.items() if not _retreated(prov, legal, fates))
    nxt = finish(position.phase, board, units, dict(position.centers), {}, position.homes,
                 neutral, position.variant, builds)
    return Adjudication(position.phase, by_power(results), unit_results, nxt, destroyed)


def _retreated(
    prov: str, legal: dict[str, Order], fates: dict[str, tuple[Outcome, tuple[str, ...]]]
) -> bool:
    return isinstance(legal.get(prov), Retreat) and fates[prov][0] is Outcome.SUCCEEDS
