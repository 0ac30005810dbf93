"""The search: candidate order sets tried by trial adjudication against the neighbours' likely orders.

A movement decision starts from the engine's own order sets (the best-valued one and a few drawn
by weighted choice, with cooperation and convoys added) and improves the best of them one unit at
a time: each own unit tries its hold, its moves, a support for another own unit's hold or move,
a move with one or two other own units' support (a supported attack is the one thing
one-unit changes never find, since the lone move only bounces), and an army's move over the
sea with the own fleets that carry it (a convoy is the other). Each try is played through the
judge's own adjudicator (``adjudicate``, tens of µs a phase compiled) against every likely reply
of the other powers (their baseline orders drawn from *their* values), and the outcome is scored
for the searching power (``score``): supply centres after the Fall's capture and the builds
they owe that no free home centre can take, own centres invaded, threatened or left open and
foreign centres occupied after the Spring and those the Fall can then take (a Spring move is
worth what it enables), units lost and struck, and where the units stand by the valuation. A
change is kept when it raises the score (a personality's ``risk`` mixes the worst reply with
the mean); a unit whose order another power was promised keeps it. Two kinds of try are
skipped because they cannot change an outcome or cannot have changed since: a support into a
province no other power stands in or enters in any reply (``_alternatives``), and, after the
first pass, a unit no kept change came within two steps of (``_stirred``). A climb ends at the
first set no single change improves; budget left over climbs again from the next best of the
engine's starting sets (``RESTARTS`` climbs at most). The best few sets found by any climb are
then tried against fresh replies, and the best of them there is played: three replies are few,
and the set that suits them best is often one that suits only them.

A trial's board is played in parts (``battles.Split``): only the battles its own orders tie
together are adjudicated, each alone or read from a part seen before, and a board a trial
before left is not scored again. A trial ends exactly where the whole board's adjudication
would, so this changes a decision's time (a quarter to a third less), never its orders.

The budget is a count of trial adjudications, never the clock, so a decision is the same for
the same seed on any machine; it grows with the power's units (``budget_for``). Everything is
read from the variant's graph (the ``MapView`` and the legal order lists), nothing from one map.
This module is compiled with the adjudicator where an install can (setup.py): the trials are
most of a decision's time (adjudicating and scoring them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Final

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.adjustments import build_sites, builds_possible
from judge.adjudicator.convoy_routes import route_exists
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
)
from judge.adjudicator.outcomes import Options
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.bots.baseline import Legal
from judge.bots.battles import Split, lost_units
from judge.bots.choice import shuffle
from judge.bots.mapview import MapView
from judge.bots.valuation import Valuation

CENTRE = 3.0  # a supply centre held after the Fall
OCCUPIED = 1.5  # after the Spring: an own unit standing on a centre not yet ours
INVADED = 1.5  # after the Spring: another power's unit on one of our centres
EXPOSED = 0.6  # after the Spring: an own centre another power can reach and no own unit can
# after the Spring: a centre not yet ours that more own units reach (or stand on) than any one
# other power's, so the Fall can take it: the Spring move is worth what it enables in the Fall
PROSPECT = 2.0
LOST = 2.0  # an own unit dislodged
STRUCK = 0.3  # another power's unit dislodged
# after the Fall: a build owed that no free home centre can take (every home held by an own
# unit, or lost). A power that ended each Fall on its homes built nothing for years (seen: 6
# centres and 5 units from 1903 to 1906); a blocked build is worth less than a centre, or the
# search would rather not take the centre
BLOCKED = 1.5
# after the Spring: an own centre that more units of one other power reach (or stand on) than
# own units can defend, each own unit defending one centre only (``_outnumbered``), so the Fall
# may take it (EXPOSED counts only the centres no own unit reaches)
THREATENED = 1.2
# trial adjudications per movement decision, counted in units adjudicated (a trial of a
# 20-unit neighbourhood costs 20): a count, not the clock, so decisions are reproducible, and
# one that a large map's bigger neighbourhoods spend in fewer, dearer trials. A power with many
# units gets more (``budget_for``): each of its units needs its tries, and a late game's
# decisions (a front to break, a solo to reach) are the ones a starved search lost.
BUDGET = 6000
BUDGET_PER_UNIT = 2500
# a power of eight units and more. A late game's decision (a power of ten units and more on a
# board of thirty) gets about 150 trials at 12,000: not two passes of its climb. At 18,000 the
# benchmark's baseline row gave 1,030 solos in 3,150 games against 958 (32.7% against 30.4%;
# seeds 1 to 5 of its own, 593 against 518; the default run's games of that row, seeds 1 to 4,
# 437 against 440), for a p95 of the five default rows a fifth dearer (1,045 reference
# adjudications against 852). The cap was 12,000 while a tempted computer power searched twice
# a decision (``council.orders_of``), and 36,000 before the climb skipped the tries that cannot
# change an outcome
BUDGET_MOST = 18000
# climbs per decision: the climb from the best start stops at the first order set no single
# change improves; budget left over climbs again from the next best of the engine's starting
# sets, and the best set any climb found is kept (the benchmark's baseline row, seeds 1 to 5:
# 523 solos in 1,750 games against 455 with one climb; the p95 of that row 4% dearer, of the
# five default rows, where many first climbs converge early, about a third)
RESTARTS = 3
LOCAL = 3  # provinces this many steps from an own unit or centre are the trials' board
SUPPORTERS = 2  # supported-move tries per move (the first supporters by location)
CARRIERS = 3  # the most own fleets a convoy the climb tries takes
# the best order sets found are tried again against fresh replies, and the best there is
# played: the climb's own replies are few, and the set that suits them best is often the one
# that only suits them (the search's winner's curse)
FINALISTS = 8


_ARMY: Final = UnitType.ARMY


def budget_for(units: int) -> int:
    """The budget of a power with ``units`` units to order."""
    return min(max(BUDGET, BUDGET_PER_UNIT * units), BUDGET_MOST)


def _province(location: str) -> str:
    return location.split("/", 1)[0]


def score(
    variant: Variant,
    view: MapView,
    before: Position,
    after: Position,
    power: str,
    valuation: Valuation,
    norm: float,
    destroyed: Sequence[Unit] = (),
) -> float:
    """The searching power's outcome of one trial adjudication (higher is better): ``after``
    the position the trial left, ``destroyed`` the units it destroyed (dislodged with no
    retreat; a lost unit like a dislodged one)."""
    beaten = [d.unit for d in after.dislodged.values()]
    beaten.extend(destroyed)
    return _score(variant, view, before, list(after.units.items()), after.centers, beaten, power,
                  valuation, norm)


def _score(
    variant: Variant,
    view: MapView,
    before: Position,
    units: Sequence[tuple[str, Unit]],
    centres: dict[str, str],
    beaten: list[Unit],
    power: str,
    valuation: Valuation,
    norm: float,
) -> float:
    """``score`` of the units where a trial left them (province, unit) and the units it
    dislodged or destroyed.

    ``centres``: before the Fall's capture or after it, alike (the capture is counted here).
    The search's inner loop: most of a decision's time after the adjudications is spent here,
    so each unit's reach is read from one table per map (``_facts``), and after the Spring only
    the searching power's own centres are looked at for reach and defence."""
    fall = before.phase.season_rank == 1
    supply = view.supply_centers
    facts = _facts(view)
    value = 0.0
    own_centres: list[str] = []
    for sc, holder in centres.items():
        if holder == power:
            own_centres.append(sc)
    held = len(own_centres)
    # after the Spring: the supply centres other powers' units reach (not stand on), and per
    # power, centre -> its units that reach or stand on it (the searching power's units on
    # its own centres apart: ``defended``, the own centres some own unit reaches or stands on)
    reached: set[str] = set()
    near: dict[str, dict[str, int]] = {}
    defended: set[str] = set()
    own_units = 0
    place = 0.0
    # after the Spring: per own unit, the supply centres it stands on or reaches
    own_reach: list[tuple[str, ...]] = []
    for prov, unit in units:
        fact = facts.get(unit.location)
        if fact is None:
            fact = _fact(view, unit.location)
        kind, close, beyond = fact[0] if unit.type is _ARMY else fact[1]
        mine = unit.power == power
        on_centre = prov in supply
        if mine:
            own_units += 1
            place += valuation.of(kind, unit.location)
            if on_centre and centres.get(prov) != power:  # another power's centre, or a free one
                if fall:
                    held += 1  # taken as the year ends
                else:
                    value += OCCUPIED
        elif on_centre and centres.get(prov) == power:
            if fall:
                held -= 1  # lost as the year ends
            else:
                value -= INVADED
        if fall:
            continue
        counts = near.get(unit.power)
        if counts is None:
            counts = near[unit.power] = {}
        if mine:
            own_reach.append(close)
        for sc in close:
            if mine and centres.get(sc) == power:
                defended.add(sc)
            else:
                counts[sc] = counts.get(sc, 0) + 1
        if not mine:
            for sc in beyond:
                reached.add(sc)
    value += place / norm
    if not fall:
        # an own centre the Fall could take for nothing
        for sc in own_centres:
            if sc in reached and sc not in defended:
                value -= EXPOSED
        # an own centre more of one other power's units reach than own units can defend
        value -= THREATENED * _outnumbered(near, power, own_centres, own_reach)
        # centres the Fall can take: more own units at hand than any other power's, at most
        # one a unit
        mine_near = near.get(power)
        takeable = 0
        if mine_near is not None:
            for sc, n in mine_near.items():
                if _rival(near, power, sc) < n:
                    takeable += 1
        value += PROSPECT * min(takeable, own_units)
    for unit in beaten:
        value += -LOST if unit.power == power else STRUCK
    if fall and held > own_units:
        sites = build_sites(variant.builds, power, centres, before.homes)
        free = builds_possible(power, dict(units), centres, sites)
        if held - own_units > free:
            value -= BLOCKED * (held - own_units - free)
    return value + CENTRE * held


def _outnumbered(
    near: dict[str, dict[str, int]],
    power: str,
    own_centres: list[str],
    own_reach: list[tuple[str, ...]],
) -> int:
    """The own centres that more of one other power's units reach than own units can defend,
    each own unit defending one centre only.

    Counting every own unit at every centre it reaches, Austrian armies in Trieste and Serbia
    kept Vienna, Budapest and Trieste all safe from an Italian army in Venice and a Russian one
    in Galicia: the search emptied Vienna and Budapest in the Spring of 1901 and lost one of
    the three in the Fall. Here the centres needing fewest defenders are served first (most
    centres kept), each by the free units that can defend fewest other centres; a centre that
    cannot be served takes no unit (greedy, not an optimal assignment: a trial's score has
    tens of µs)."""
    need: dict[str, int] = {}
    for sc in own_centres:
        r = _rival(near, power, sc)
        if r > 0:
            need[sc] = r
    if not need:
        return 0
    options = [[sc for sc in close if sc in need] for close in own_reach]
    used = [False] * len(options)
    outnumbered = 0
    for sc in sorted(need, key=lambda c: (need[c], c)):
        free = [i for i in range(len(options)) if not used[i] and sc in options[i]]
        if len(free) < need[sc]:
            outnumbered += 1
            continue
        free.sort(key=lambda i: len(options[i]))
        for i in free[: need[sc]]:
            used[i] = True
    return outnumbered


def _rival(near: dict[str, dict[str, int]], power: str, sc: str) -> int:
    """The most units one other power has that reach or stand on ``sc``."""
    most = 0
    for other, reaching in near.items():
        if other != power:
            n = reaching.get(sc, 0)
            if n > most:
                most = n
    return most


# per unit type: (type letter, the supply centres a unit stands on or reaches, the supply
# centres it reaches without standing on them)
_Side = tuple[str, tuple[str, ...], tuple[str, ...]]
_Fact = tuple[_Side, _Side]  # (as an army, as a fleet)


@cache
def _facts(view: MapView) -> dict[str, _Fact]:
    """location -> its ``_Fact``, filled as trials meet units."""
    return {}


def _fact(view: MapView, location: str) -> _Fact:
    here = _province(location)
    sides = []
    for kind in ("A", "F"):
        beyond = tuple(sc for sc in view.reach(kind, location) if sc in view.supply_centers)
        close = (here, *beyond) if here in view.supply_centers else beyond
        sides.append((kind, close, beyond))
    fact = (sides[0], sides[1])
    _facts(view)[location] = fact
    return fact


@cache
def _neighbours(view: MapView) -> dict[str, frozenset[str]]:
    """Province -> the provinces a unit there (army or fleet, any coast) moves or supports to."""
    out: dict[str, set[str]] = {}
    for prov, targets in view.army_moves.items():
        out.setdefault(prov, set()).update(targets)
    for loc, provinces in view.fleet_reach.items():
        out.setdefault(view.province_of(loc), set()).update(provinces)
    return {prov: frozenset(targets) for prov, targets in out.items()}


def neighbourhood(view: MapView, position: Position, power: str) -> frozenset[str]:
    """The provinces within ``LOCAL`` steps of the power's units and centres: units further
    away can neither reach nor support into a place next to its units (the other powers'
    likely orders carry no convoys), so the trials leave them out."""
    graph = _neighbours(view)
    seen = {prov for prov, unit in position.units.items() if unit.power == power}
    seen |= {sc for sc, owner in position.centers.items() if owner == power}
    edge = set(seen)
    for _ in range(LOCAL):
        edge = {t for prov in edge for t in graph.get(prov, ())} - seen
        seen |= edge
    return frozenset(seen)


def _inside(order: Order, local: frozenset[str]) -> bool:
    if _province(order.location) not in local:  # type: ignore[union-attr]
        return False
    if isinstance(order, SupportHold | SupportMove):
        return _province(order.supported) in local
    if isinstance(order, Convoy):
        return _province(order.army) in local
    return True


def _first(pair: tuple[str, Unit]) -> str:
    return pair[0]


def _location(unit: Unit) -> str:
    return unit.location


class _Trials:
    """Scores of order sets against every reply, each set adjudicated once, within a budget."""

    def __init__(
        self,
        variant: Variant,
        view: MapView,
        position: Position,
        power: str,
        replies: Sequence[Mapping[str, list[Order]]],
        valuation: Valuation,
        risk: float,
        options: Options,
        board: Board | None,
        budget: int,
    ) -> None:
        self.variant = variant
        self.view = view
        local = neighbourhood(view, position, power)
        self.position = replace(
            position, units={p: u for p, u in position.units.items() if p in local}
        )
        self.power = power
        self.replies = [
            {other: [o for o in given if _inside(o, local)] for other, given in reply.items()}
            for reply in replies
        ] or [{}]
        self.cost = max(len(self.position.units), 1) * len(self.replies)
        self.valuation = valuation
        self.risk = risk
        self.options = options
        self.board = board
        self.left = budget
        self.memo: dict[frozenset[Order], float] = {}
        self.sets: dict[frozenset[Order], dict[str, Order]] = {}
        self.norm = 1.0
        # the own units' locations: a trial orders each of them once, or is played whole
        self.own = frozenset(unit.location for unit in self.position.units.values()
                             if unit.power == power)
        # per reply: a board's units -> its score
        self.scored: list[dict[tuple[frozenset[int], frozenset[int]], float]] = [
            {} for _ in self.replies]
        # each reply's board in parts (``battles.Split``)
        self.splits = [Split(variant, self.position, power, reply, options, board, view.army_moves)
                       for reply in self.replies]

    def affordable(self) -> bool:
        return self.left >= self.cost

    def value(self, orders: Mapping[str, Order]) -> float:
        key = frozenset(orders.values())
        known = self.memo.get(key)
        if known is not None:
            return known
        given = list(orders.values())
        whole = len(orders) != len(self.own) or not self.own.issuperset(orders)
        scores = []
        for reply, split, scored in zip(self.replies, self.splits, self.scored, strict=True):
            if not whole:
                units, beaten = split.after(given)
            else:
                all_orders = dict(reply)
                all_orders[self.power] = given
                result = adjudicate(self.position, all_orders, self.options,
                                    variant=self.variant, board=self.board)
                units = list(result.position.units.items())
                beaten = lost_units(result)
            # most trials leave a board a trial before left (a changed support nobody cut, a
            # move that bounces as the hold stood): its score is read, not counted again. The
            # units are the adjudicator's shared values (``orders.unit_value``) or the
            # position's own, so the same board is the same units, and they outlive the
            # decision, so an id names one unit
            seen = (frozenset([id(unit) for _, unit in units]),
                    frozenset([id(unit) for unit in beaten]))
            value = scored.get(seen)
            if value is None:
                # in one order, whichever way the board was played: a float sum's last bit
                # hangs on its order, and a tie then on that bit
                units.sort(key=_first)
                beaten.sort(key=_location)
                value = scored[seen] = _score(
                    self.variant, self.view, self.position, units, self.position.centers,
                    beaten, self.power, self.valuation, self.norm)
            scores.append(value)
        self.left -= self.cost
        mean = sum(scores) / len(scores)
        total = self.risk * mean + (1.0 - self.risk) * min(scores)
        self.memo[key] = total
        self.sets[key] = dict(orders)
        return total

    def leaders(self, count: int) -> list[tuple[float, dict[str, Order]]]:
        """The ``count`` best order sets tried, best first."""
        ranked = sorted(self.memo.items(), key=lambda item: -item[1])[:count]
        return [(value, self.sets[key]) for key, value in ranked]


Backings = dict[tuple[str, str], list[SupportMove]]  # (mover, target) -> own supports for it
Carriers = dict[tuple[str, str], list[Convoy]]  # (army, target) -> own fleets' convoys for it


def _offers(legal: Legal) -> tuple[Backings, Carriers]:
    """The own supports for each move and the own fleets' convoys for each army's move, by
    supporter or fleet location: made once a decision, in one pass over the legal lists (a
    fleet on a large map lists hundreds of orders)."""
    backings: Backings = {}
    carriers: Carriers = {}
    for loc in sorted(legal):
        for order in legal[loc]:
            if isinstance(order, SupportMove):
                backings.setdefault((order.supported, order.target), []).append(order)
            elif isinstance(order, Convoy):
                carriers.setdefault((order.army, order.target), []).append(order)
    return backings, carriers


def _carried(
    loc: str,
    move: Move,
    carriers: Mapping[tuple[str, str], list[Convoy]],
    fixed: Collection[str],
    board: Board,
) -> dict[str, Order] | None:
    """The army's move over the sea with the own fleets that carry it: the one fleet that makes
    a route alone, the first by location, or else every fleet that offers (at most
    ``CARRIERS``: beyond that the route is a long one, left to the engine's candidates); None
    when own fleets make no route. The climb's one-unit changes never found a convoy: the
    army's move alone only bounces, and a fleet's convoy alone carries nobody."""
    fleets = [c for c in carriers.get((loc, move.target), ()) if c.location not in fixed]
    if not fleets:
        return None
    for c in fleets:
        if route_exists(board, loc, move.target, [c.location]):
            return {loc: move, c.location: c}
    if len(fleets) > CARRIERS or not route_exists(
        board, loc, move.target, [c.location for c in fleets]
    ):
        return None
    out: dict[str, Order] = {loc: move}
    for c in fleets:
        out[c.location] = c
    return out


def _bound_for(chosen: Mapping[str, Order], dest: str, besides: str) -> bool:
    """Whether an own unit other than the one at ``besides`` moves into ``dest``."""
    for other, order in chosen.items():
        if other != besides and isinstance(order, Move) and _province(order.target) == dest:
            return True
    return False


def _alternatives(
    loc: str,
    chosen: Mapping[str, Order],
    legal: Legal,
    valuation: Valuation,
    position: Position,
    power: str,
    fixed: Collection[str],
    backings: Mapping[tuple[str, str], list[SupportMove]],
    avoid: Collection[str],
    view: MapView,
    contested: Collection[str],
    carriers: Mapping[tuple[str, str], list[Convoy]],
    board: Board,
) -> list[dict[str, Order]]:
    """Changes to try for the unit at ``loc``: location -> new order (one or two units).

    ``contested``: the provinces another power's unit stands in or enters in some reply. A
    support into a province outside them, that no other own unit enters either, changes no
    outcome: the unit it backs holds, or moves in, unopposed with or without it. Such a support
    leaves the board as the supporter's hold does (tried too), and a supported move into such
    a province as the lone move does: neither is tried. They were most of the trials that
    changed nothing; without them the late game's slow decisions take a third less time (p95
    83 to 55 ms on 134 of them), and the benchmark's strength is the same."""
    unit = position.units.get(_province(loc))
    kind = unit.type.value if unit else "A"
    singles: list[tuple[float, Order]] = []
    supported: list[dict[str, Order]] = []
    own = {_province(other): other for other in chosen}
    for order in legal[loc]:
        if order == chosen.get(loc):
            continue
        if isinstance(order, Hold):
            singles.append((valuation.of(kind, loc), order))
        elif isinstance(order, Move):
            dest = _province(order.target)
            if dest in avoid:
                continue  # a place promised to another power is not entered
            if kind == "A" and (order.via_convoy or dest not in view.army_moves.get(loc, ())):
                # over the sea: tried with the own fleets that carry it (alone, the move only
                # bounces or waits on another power's fleets)
                carried = _carried(loc, order, carriers, fixed, board)
                if carried is not None:
                    supported.append(carried)
                continue
            singles.append((valuation.of(kind, order.target), order))
            foe = position.units.get(dest)
            if (dest in valuation.base or (foe is not None and foe.power != power)) and (
                dest in contested or _bound_for(chosen, dest, loc)
            ):
                usable = [b for b in backings.get((loc, order.target), ())
                          if b.location not in fixed]
                for backing in usable[:SUPPORTERS]:
                    supported.append({loc: order, backing.location: backing})
                if len(usable) >= 2:
                    # a move with two supports: what a held and supported centre needs
                    supported.append({loc: order, usable[0].location: usable[0],
                                      usable[1].location: usable[1]})
        elif isinstance(order, SupportHold):
            mate = own.get(_province(order.supported))
            if (
                mate is None
                or mate == loc
                or isinstance(chosen.get(mate), Move)
                or _province(mate) not in contested
            ):
                continue
            singles.append((0.0, order))
        elif isinstance(order, SupportMove):
            mate = own.get(_province(order.supported))
            planned = chosen.get(mate) if mate else None
            if (
                mate is None
                or mate == loc
                or not isinstance(planned, Move)
                or planned.target != order.target
            ):
                continue
            if _province(order.target) not in contested and not _bound_for(
                chosen, _province(order.target), mate
            ):
                continue
            singles.append((1.0, order))
    singles.sort(key=lambda item: -item[0])
    return [{loc: o} for _, o in singles] + supported


def _stirred(
    graph: Mapping[str, frozenset[str]], before: Mapping[str, Order], after: Mapping[str, Order]
) -> set[str]:
    """The provinces within two steps of what a change touched (the changed units' places and
    the places their old and new orders name): a unit further away neither moves nor supports
    into a place whose battle the change could alter."""
    touched: set[str] = set()
    for loc, order in after.items():
        old = before.get(loc)
        if old == order:
            continue
        for o in (old, order):
            if o is None:
                continue
            touched.add(_province(loc))
            if isinstance(o, Move | SupportMove):
                touched.add(_province(o.target))
            if isinstance(o, SupportHold | SupportMove):
                touched.add(_province(o.supported))
    out = set(touched)
    edge = touched
    for _ in range(2):
        edge = {t for prov in edge for t in graph.get(prov, ())} - out
        out |= edge
    return out


def _climb(
    trials: _Trials,
    best: dict[str, Order],
    best_value: float,
    changes: Callable[[str, dict[str, Order]], list[dict[str, Order]]],
    fixed: Collection[str],
    graph: Mapping[str, frozenset[str]],
    rng: random.Random,
) -> tuple[float, dict[str, Order]]:
    """One climb from ``best``: each unit in turn takes the change that raises the score most,
    until a pass keeps none or the budget is spent. ``changes(loc, orders)``: the unit's
    ``_alternatives`` with the decision's lists bound."""
    improved = True
    # after the first pass, a unit is tried again only when a change kept since its last try
    # touched a place within its reach (``_stirred``)
    stale: set[str] = set()
    first = True
    while improved and trials.affordable():
        improved = False
        locations = sorted(loc for loc in best if loc not in fixed)
        shuffle(locations, rng)
        for loc in locations:
            if not first and _province(loc) not in stale:
                continue
            top: tuple[float, dict[str, Order]] | None = None
            for change in changes(loc, best):
                if not trials.affordable():
                    break
                trial = dict(best)
                trial.update(change)
                value = trials.value(trial)
                if value > best_value + 1e-9 and (top is None or value > top[0]):
                    top = (value, trial)
            if top is not None:
                stale |= _stirred(graph, best, top[1])
                best_value, best = top
                improved = True
            stale.discard(_province(loc))
            if not trials.affordable():
                break
        first = False
    return best_value, best


def improve(
    variant: Variant,
    view: MapView,
    position: Position,
    power: str,
    legal: Legal,
    candidates: Sequence[list[Order]],
    replies: Sequence[Mapping[str, list[Order]]],
    valuation: Valuation,
    risk: float,
    rng: random.Random,
    options: Options | None = None,
    board: Board | None = None,
    fixed: Collection[str] = (),
    avoid: Collection[str] = (),
    budget: int = BUDGET,
    fresh: Sequence[Mapping[str, list[Order]]] = (),
    restarts: int = RESTARTS,
) -> tuple[list[Order], float]:
    """The best order set found within ``budget`` trial adjudications, and its score: against
    the fresh replies when there are any (the climb's own score of its winner is biased up).

    ``options`` and ``board``: the phase's (``engine.phase_rules``). ``fixed``: locations whose
    orders stay as the candidates give them (promised to another power); ``avoid``: provinces
    promised not to be entered (the candidates keep out of them already).
    """
    trials = _Trials(variant, view, position, power, replies, valuation, risk,
                     options or Options(), board, budget)
    # the yardstick of the units' place values, fixed before any trial so that every score of
    # this decision is on the same scale
    for orders in candidates:
        for order in orders:
            if isinstance(order, Move):
                valuation.of(order.unit_type.value, order.target)
    trials.norm = valuation.top()
    starts: list[tuple[float, dict[str, Order]]] = []
    for orders in candidates:
        if not trials.affordable() and starts:
            break
        by_loc = {o.location: o for o in orders}  # type: ignore[union-attr]
        starts.append((trials.value(by_loc), by_loc))
    starts.sort(key=lambda item: -item[0])
    backings, carriers = _offers(legal)
    routes = board or variant.rules_at(position.phase, trials.options.joins).board
    contested = {prov for prov, unit in trials.position.units.items() if unit.power != power}
    for reply in trials.replies:
        for given in reply.values():
            for order in given:
                if isinstance(order, Move):
                    contested.add(_province(order.target))
    graph = _neighbours(view)

    def changes(loc: str, orders: dict[str, Order]) -> list[dict[str, Order]]:
        return _alternatives(loc, orders, legal, valuation, position, power, fixed, backings,
                             avoid, view, contested, carriers, routes)

    best_value, best = starts[0]
    for climbs, (start_value, start) in enumerate(starts):
        if climbs and (climbs >= restarts or not trials.affordable()):
            break
        value, found = _climb(trials, start, start_value, changes, fixed, graph, rng)
        if value > best_value:
            best_value, best = value, found
    leaders = trials.leaders(FINALISTS) if fresh else []
    if len(leaders) > 1:
        # the finalists against fresh replies (outside the budget: a fixed count of trials)
        check = _Trials(variant, view, position, power, fresh, valuation, risk,
                        options or Options(), board, len(leaders) * trials.cost * len(fresh))
        check.norm = trials.norm
        best = max(leaders, key=lambda item: check.value(item[1]))[1]
        best_value = check.value(best)
    return [best[loc] for loc in sorted(best)], best_value
