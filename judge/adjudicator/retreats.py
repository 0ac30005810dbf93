"""Retreats: where a dislodged unit may go, and what happens when retreats meet.

A dislodged unit may not retreat into an occupied province, into the province its attacker came
from (unless the attacker was convoyed), nor into a province left vacant by a standoff. Two or
more retreats to one province all fail and those units are disbanded; a dislodged unit with no
valid retreat order is disbanded (2008 rulebook). Where the board has weak links (DPjudge's
"Cape of Good Hope" rule, ``Board.weak_links``), a retreat along one yields to the retreats that
are not along one: it fails whenever another unit retreats to the same province, and when a
single other retreat is left, that one succeeds.
"""

from __future__ import annotations

from collections.abc import Container

from judge.adjudicator.geography import Board
from judge.adjudicator.order_result import Outcome
from judge.adjudicator.orders import Disband, Order, Retreat, Unit, UnitType, unit_value


def retreat_options(
    board: Board,
    unit: Unit,
    occupied: Container[str],
    attacker_from: str | None,
    standoffs: Container[str],
) -> tuple[str, ...]:
    """Legal retreat locations (fleets get exact coasts), sorted."""
    if unit.type is UnitType.ARMY:
        candidates = board.army_adjacency.get(unit.province, frozenset())
    else:
        candidates = board.fleet_adjacency.get(unit.location, frozenset())
    out = []
    for loc in candidates:
        prov = loc.split("/", 1)[0]
        if prov in occupied or prov == attacker_from or prov in standoffs:
            continue
        out.append(loc)
    return tuple(sorted(out))


def resolve_retreats(
    dislodged_units: dict[str, Unit],
    orders: dict[str, Order],
    weak_links: Container[tuple[str, str]] = frozenset(),
) -> tuple[dict[str, tuple[Outcome, tuple[str, ...]]], dict[str, Unit]]:
    """Fate of each dislodged unit (by its province) and the units that arrive (by new province).

    ``orders`` holds one legal Retreat or Disband per dislodged province; the caller has already
    supplied the civil-disorder disband for units without one. ``weak_links``: the board's.
    """
    wanted: dict[str, list[str]] = {}
    for prov, order in orders.items():
        if isinstance(order, Retreat):
            wanted.setdefault(order.target.split("/", 1)[0], []).append(prov)
    fates: dict[str, tuple[Outcome, tuple[str, ...]]] = {}
    arrived: dict[str, Unit] = {}
    for prov, order in orders.items():
        unit = dislodged_units[prov]
        if isinstance(order, Disband):
            fates[prov] = (Outcome.SUCCEEDS, ())
            continue
        assert isinstance(order, Retreat)
        target = order.target.split("/", 1)[0]
        rivals = wanted[target]
        if len(rivals) > 1 and weak_links:
            strong = [p for p in rivals if (p, target) not in weak_links]
            if prov not in strong or len(strong) > 1:
                others = tuple(sorted(str(dislodged_units[p]) for p in rivals if p != prov))
                fates[prov] = (Outcome.BOUNCED, others)
                continue
        elif len(rivals) > 1:
            others = tuple(sorted(str(dislodged_units[p]) for p in rivals if p != prov))
            fates[prov] = (Outcome.BOUNCED, others)
            continue
        fates[prov] = (Outcome.SUCCEEDS, ())
        arrived[target] = unit_value(unit.power, unit.type, order.target)
    return fates, arrived
