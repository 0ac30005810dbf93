"""The simple greedy opponent: the issue's rung of the ladder, about fifty lines, deterministic.

Issue 29 measured the computer powers against "a simple greedy opponent that is not part of the
project" (about fifty lines, deterministic). This is our own of that kind, kept in the benchmark
(not in the judge): every unit, in the order of its location, takes the adjacent supply centre
it does not own (a free one first), else steps towards the nearest one, else holds; a unit on
an own centre that a foreign unit could enter holds, and so does one on a centre it is about to
take; no unit moves where another own unit stands or goes. No
supports, no convoys, no memory, no randomness. Retreats go as close to a centre as they can;
builds are armies where an army can stand (fleets elsewhere), removals the units furthest from
any centre to take. Orders come from ``possible_orders``, so they are legal.
"""

from __future__ import annotations

from collections import deque

from judge.adjudicator.orders import Build, Disband, Hold, Move, Order, Retreat
from judge.adjudicator.position import Position
from judge.adjudicator.possible import possible_orders
from judge.adjudicator.variant import Variant
from judge.bots.mapview import view_of_variant


def _distances(variant: Variant, position: Position, power: str) -> dict[str, int]:
    """Province -> steps (by any unit) to the nearest supply centre ``power`` does not own."""
    view = view_of_variant(variant)
    steps: dict[str, set[str]] = {p: set(t) for p, t in view.army_moves.items()}
    for loc, targets in view.fleet_reach.items():
        steps.setdefault(loc.split("/")[0], set()).update(targets)
    goals = [sc for sc in sorted(view.supply_centers) if position.centers.get(sc) != power]
    dist = dict.fromkeys(goals, 0)
    queue = deque(goals)
    while queue:
        here = queue.popleft()
        for step in sorted(steps.get(here, ())):
            if step not in dist:
                dist[step] = dist[here] + 1
                queue.append(step)
    return dist


def greedy_orders(position: Position, power: str, variant: Variant) -> list[Order]:
    legal = possible_orders(position, power, variant.board)
    dist = _distances(variant, position, power)
    far = len(dist) + 1
    if position.phase.is_adjustment:
        owed = position.owed(power, variant.board)
        if owed < 0:
            units = sorted(position.units_of(power),
                           key=lambda u: (-dist.get(u.location.split("/")[0], far), u.location))
            return [Disband(u.type, u.location) for u in units[:-owed]]
        builds = [o for loc in sorted(legal) for o in legal[loc] if isinstance(o, Build)]
        chosen: dict[str, Order] = {}
        for order in sorted(builds, key=lambda o: (o.unit_type.value != "A", o.location)):
            home = order.location.split("/")[0]
            if home not in chosen and len(chosen) < owed:
                chosen[home] = order
        return list(chosen.values())
    view = view_of_variant(variant)
    taken = {u.location.split("/")[0] for u in position.units_of(power)}
    out: list[Order] = []
    for loc in sorted(legal):
        here = loc.split("/")[0]
        foes = any(u.power != power and here in view.reach(u.type.value, u.location)
                   for u in position.units.values())
        by_land = view.army_moves.get(loc, frozenset()) | view.fleet_reach.get(loc, frozenset())
        options = [o for o in legal[loc] if isinstance(o, Move | Retreat)
                   and o.target.split("/")[0] in by_land and o.target.split("/")[0] not in taken]

        def value(order: Move | Retreat) -> tuple[int, int, str]:
            dest = order.target.split("/")[0]
            free = dest not in position.units
            return (-dist.get(dest, far), int(free), order.target)

        best = max(options, key=value, default=None)
        # an own centre under threat is kept, a centre to take is stood on until it is taken
        stay = not position.phase.is_retreat and (
            (position.centers.get(here) == power and foes) or dist.get(here) == 0)
        if best is not None and not stay and (
            position.phase.is_retreat or dist.get(best.target.split("/")[0], far) < dist.get(
                here, far) or dist.get(best.target.split("/")[0], far) == 0):
            taken.add(best.target.split("/")[0])
            out.append(best)
        elif position.phase.is_retreat:
            out.append(next(o for o in legal[loc] if isinstance(o, Disband)))
        else:
            taken.add(here)
            out.append(next(o for o in legal[loc] if isinstance(o, Hold)))
    return out
