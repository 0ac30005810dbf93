"""Cooperation between one power's units, and convoys: what the plain baseline never does.

* A unit left holding supports the own attack that most needs it (a move into a centre, or into
  a province where another power's units stand or could come), or, failing that, the hold of an
  own unit on a threatened centre.
* An army on a coast with own fleets at sea next to it may be carried to a better place; the
  fleets of one complete route are ordered to convoy it.

Orders are only ever taken from the legal lists, so the result stays legal.
"""

from __future__ import annotations

from judge.adjudicator.convoy_routes import route_exists
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from judge.adjudicator.position import Position
from judge.bots.baseline import Legal, target_province
from judge.bots.mapview import MapView
from judge.bots.valuation import Valuation


def _province(location: str) -> str:
    return location.split("/", 1)[0]


def _idle_move(position: Position, power: str, order: Order, valuation: Valuation) -> bool:
    """A move into a province that is no centre and holds no foreign unit: a unit to spare."""
    if not isinstance(order, Move):
        return False
    dest = _province(order.target)
    foe = position.units.get(dest)
    return dest not in valuation.base and (foe is None or foe.power == power)


def add_supports(
    position: Position,
    power: str,
    legal: Legal,
    chosen: dict[str, Order],
    valuation: Valuation,
    eager: bool = False,
) -> dict[str, Order]:
    """Units left holding (and, if ``eager``, units on idle moves) back the attacks in need."""
    out = dict(chosen)
    spare = {
        loc
        for loc, order in out.items()
        if isinstance(order, Hold) or (eager and _idle_move(position, power, order, valuation))
    }
    attacks: dict[str, str] = {}  # destination province -> mover location
    for loc, order in out.items():
        if isinstance(order, Move) and loc not in spare:
            attacks[_province(order.target)] = loc
    backing: dict[str, int] = {}
    for order in out.values():
        if isinstance(order, SupportMove):
            dest = _province(order.target)
            backing[dest] = backing.get(dest, 0) + 1
    for loc in sorted(spare):
        best: tuple[float, Order] | None = None
        for order in legal[loc]:
            gain = 0.0
            if isinstance(order, SupportMove):
                dest = _province(order.target)
                if attacks.get(dest) != order.supported:
                    continue
                foe = position.units.get(dest)
                opposition = valuation.threat.get(dest, 0) + (
                    1 if foe and foe.power != power else 0
                )
                if opposition <= backing.get(dest, 0):
                    continue
                gain = valuation.base.get(dest, 0.0) + 1.0 + 10.0 * opposition
            elif isinstance(order, SupportHold):
                prov = _province(order.supported)
                other = out.get(order.supported)
                if other is None or isinstance(other, Move):
                    continue
                threat = valuation.threat.get(prov, 0)
                if threat <= backing.get(prov, 0):
                    continue
                gain = 0.5 * valuation.base.get(prov, 0.0) + 5.0 * threat
            else:
                continue
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, order)
        if best is not None:
            order = best[1]
            out[loc] = order
            if isinstance(order, SupportMove):
                dest = _province(order.target)
            elif isinstance(order, SupportHold):
                dest = _province(order.supported)
            else:
                continue
            backing[dest] = backing.get(dest, 0) + 1
    return out


def add_convoys(
    board: Board,
    view: MapView,
    position: Position,
    power: str,
    legal: Legal,
    chosen: dict[str, Order],
    valuation: Valuation,
    eager: bool = False,
) -> dict[str, Order]:
    """Carry an army by sea when the place reached is worth more than its land order.

    Only fleets left holding convoy, unless ``eager``: then any own fleet at sea may be taken
    off its move (the search compares both kinds of candidate).
    """
    out = dict(chosen)
    free_fleets = {
        loc for loc, order in out.items() if loc in view.sea and (eager or isinstance(order, Hold))
    }
    if not free_fleets:
        return out
    taken = {
        target_province(o)
        for loc, o in out.items()
        if isinstance(o, Move) and loc not in free_fleets
    }
    # the free fleets' convoys by (army, destination), in the fleets' order: looked up for
    # each army move instead of scanning every fleet's legal list again (Youngstown's fleets
    # list hundreds of orders each)
    offered: dict[tuple[str, str], list[Convoy]] = {}
    for f in sorted(free_fleets):
        for c in legal[f]:
            if isinstance(c, Convoy):
                offered.setdefault((c.army, c.target), []).append(c)
    for loc in sorted(out):
        unit = position.units.get(_province(loc))
        if unit is None or unit.type.value != "A":
            continue
        current = out[loc]
        here = valuation.of("A", target_province(current) or loc)
        best: tuple[float, Move, list[Convoy]] | None = None
        for order in legal[loc]:
            if not isinstance(order, Move) or _province(order.target) in taken:
                continue
            adjacent = _province(order.target) in view.army_moves.get(loc, ())
            if adjacent and not order.via_convoy:
                continue
            convoys = [c for c in offered.get((loc, order.target), ())
                       if c.location in free_fleets]  # a fleet already carrying is not free
            if not convoys or not route_exists(
                board, loc, order.target, [c.location for c in convoys]
            ):
                continue
            value = valuation.of("A", order.target)
            if value > here and (best is None or value > best[0]):
                best = (value, order, convoys)
        if best is None:
            continue
        _, move, convoys = best
        out[loc] = move
        taken.add(_province(move.target))
        for c in convoys:
            out[c.location] = c
            free_fleets.discard(c.location)
        if not free_fleets:
            break
    return out
