"""The plain DumbBot-style player: values, weighted choice, nothing else.

Every order comes from the adjudicator's ``possible_orders`` lists, so none is ever illegal.
Movement: units in a random order each take a destination by weighted choice over the values of
staying and of each adjacent place; a place another own unit already goes to is not taken twice
(the unit supports that move instead when it can, as DumbBot does), and a place an own unit still
stands in is left until that unit has chosen. Retreats take the best free place; builds the best
home centre and unit type by value; removals the units standing where they are worth least.

This is the benchmark's baseline (no cooperation, no convoys, no search, no personality); the
engine builds on the same pieces.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.orders import (
    Build,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportMove,
    Waive,
)
from judge.adjudicator.position import Position
from judge.bots.choice import pick_index, ranked, shuffle
from judge.bots.mapview import MapView
from judge.bots.valuation import Valuation

Legal = Mapping[str, Sequence[Order]]  # location -> legal orders (possible_orders' answer)


def _province(location: str) -> str:
    return location.split("/", 1)[0]


def target_province(order: Order) -> str | None:
    """Where the ordered unit will stand if the order succeeds (movement and retreats)."""
    if isinstance(order, Move | Retreat):
        return _province(order.target)
    if isinstance(order, Waive):
        return None
    return _province(order.location)


def movement_orders(
    position: Position,
    power: str,
    legal: Legal,
    valuation: Valuation,
    rng: random.Random,
    temperature: float,
    view: MapView,
    avoid: frozenset[str] = frozenset(),
    moves: Legal | None = None,
) -> dict[str, Order]:
    """Location -> order for every own unit, by land or along the coast only (no convoys).

    ``avoid``: provinces promised not to be entered. ``moves``: ``own_moves(legal)``, when the
    caller draws several order sets from the same lists (made once, not at every draw).
    """
    if moves is None:
        moves = own_moves(legal)
    locations = sorted(legal)
    shuffle(locations, rng)
    chosen: dict[str, Order] = {}
    going: dict[str, str] = {}  # destination province -> location of the own unit moving there
    own_at = {_province(loc): loc for loc in legal}
    queue = list(locations)
    deferred: set[str] = set()
    while queue:
        loc = queue.pop(0)
        orders = legal[loc]
        kind = orders[0].unit_type.value  # type: ignore[union-attr]
        options: list[tuple[float, Order]] = []
        # Equal values are broken by this power's own draw, not by the provinces' names: on a
        # map where every place is worth the same (Pure: every province next to every other,
        # so the spread values are flat) a fixed order sent every power at the same province
        # and every move bounced, turn after turn. Only the holds and moves are drawn: the
        # supports and convoys, most of a unit's list on a large map (Youngstown), are never
        # options here, and shuffling them was most of a decision's time.
        shuffled = list(moves[loc])
        shuffle(shuffled, rng)
        for order in shuffled:
            if isinstance(order, Hold):
                options.append((valuation.of(kind, loc), order))
            elif isinstance(order, Move) and not order.via_convoy:
                dest = _province(order.target)
                if dest in avoid or (kind == "A" and dest not in view.army_moves.get(loc, ())):
                    continue  # promised away, or an army that would need a convoy
                options.append((valuation.of(kind, order.target), order))
        options = ranked(options)
        start = pick_index([v for v, _ in options], rng, temperature)
        decided: Order | None = None
        wait = False
        for _, order in options[start:] + options[:start]:
            dest = target_province(order) or _province(loc)
            if dest in going:
                support = _support_for(orders, going[dest], dest)
                if support is not None:
                    decided = support
                    break
                continue
            other = own_at.get(dest)
            if other is not None and other != loc:
                held = chosen.get(other)
                if held is None and loc not in deferred:
                    wait = True  # let the unit standing there choose first
                    break
                if held is None or not isinstance(held, Move):
                    continue
            decided = order
            break
        if wait:
            deferred.add(loc)
            queue.append(loc)
            continue
        if decided is None:
            decided = orders[0]  # the hold
        chosen[loc] = decided
        lands = target_province(decided)
        if lands is not None and not isinstance(decided, SupportMove):
            going[lands] = loc
    return chosen


def own_moves(legal: Legal) -> dict[str, tuple[Order, ...]]:
    """Each unit's hold and moves out of its legal orders (the only ones ``movement_orders``
    draws from; a unit's supports and convoys are most of its list on a large map)."""
    return {loc: tuple(o for o in orders if isinstance(o, Hold | Move))
            for loc, orders in legal.items()}


def _support_for(orders: Sequence[Order], mover: str, dest: str) -> Order | None:
    for order in orders:
        if (
            isinstance(order, SupportMove)
            and order.supported == mover
            and _province(order.target) == dest
        ):
            return order
    return None


def retreat_orders(
    legal: Legal, valuation: Valuation, rng: random.Random, temperature: float
) -> list[Order]:
    taken: set[str] = set()
    out: list[Order] = []
    for loc in sorted(legal):
        orders = legal[loc]
        options = ranked(
            [
                (valuation.of(o.unit_type.value, o.target), o)
                for o in orders
                if isinstance(o, Retreat)
            ]
        )
        start = pick_index([v for v, _ in options], rng, temperature)
        pick: Order | None = None
        for _, order in options[start:] + options[:start]:
            if _province(order.target) not in taken:
                pick = order
                taken.add(_province(order.target))
                break
        out.append(pick or next(o for o in orders if isinstance(o, Disband)))
    return out


def adjustment_orders(
    position: Position,
    power: str,
    legal: Legal,
    valuation: Valuation,
    rng: random.Random,
    temperature: float,
) -> list[Order]:
    owed = position.owed(power, installed_variant(position.variant).board)
    if owed < 0:
        removals = ranked(
            [
                (-valuation.of(u.type.value, u.location), u.location)
                for u in position.units_of(power)
            ]
        )
        out: list[Order] = []
        for _, loc in removals[:-owed]:
            out.append(legal[loc][0])
        return out
    builds: list[tuple[float, Order]] = []
    for home in sorted(h for h in legal if h != "WAIVE"):
        for order in legal[home]:
            if isinstance(order, Build):
                builds.append((valuation.of(order.unit_type.value, order.location), order))
    out = []
    used: set[str] = set()
    while len(out) < owed:
        options = ranked([(v, o) for v, o in builds if _province(o.location) not in used])  # type: ignore[union-attr]
        if not options:
            break
        _, order = options[pick_index([v for v, _ in options], rng, temperature)]
        out.append(order)
        used.add(_province(order.location))  # type: ignore[union-attr]
    if not out and owed > 0 and "WAIVE" in legal:
        out.append(Waive())
    return out
