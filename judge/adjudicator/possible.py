"""Every legal order for a power's units, and a seeded random player built on it.

``possible_orders(position, power)`` -> location -> orders (movement: hold, moves including
convoyed ones the fleets on the board could carry, supports, convoys; retreat: retreats and
disband; adjustment: builds by home centre, waive under ``"WAIVE"``, or removals). Every order
listed passes ``legality.check``. ``random_orders`` draws one order per unit from these lists
with an injected ``random.Random``, so games are reproducible. ``all_possible_orders(position)``
lists every power's in one call. What the map alone decides (a unit's moves, the supports it
could give into each province, ready made) is built once per board, unit type and location.
"""

from __future__ import annotations

import random
from functools import cache
from operator import attrgetter
from typing import Final

from judge.adjudicator.adjustments import BuildRule, build_sites
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.convoy_routes import convoy_destinations, sea_neighbours, seas_touching
from judge.adjudicator.geography import Board
from judge.adjudicator.legality import Refusal, build_location
from judge.adjudicator.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from judge.adjudicator.position import Position

ARMY: Final = UnitType.ARMY
FLEET: Final = UnitType.FLEET


@cache
def _fleet_moves(board: Board, location: str) -> tuple[str, ...]:
    return tuple(sorted(board.fleet_adjacency.get(location, ())))


@cache
def _reach(board: Board, unit_type: UnitType, location: str) -> frozenset[str]:
    """Provinces a unit could support into (and, without convoys, move to)."""
    if unit_type is ARMY:
        return board.army_adjacency.get(location.split("/", 1)[0], frozenset())
    return frozenset(t.split("/", 1)[0] for t in board.fleet_adjacency.get(location, ()))


@cache
def _movers_into(board: Board) -> dict[str, tuple[tuple[str, UnitType, str], ...]]:
    """Province -> every (province, unit type, location) from which a unit could move there."""
    into: dict[str, list[tuple[str, UnitType, str]]] = {}
    for loc in sorted(board.locations):
        prov = loc.split("/", 1)[0]
        for kind in (ARMY, FLEET):
            if kind is ARMY and (loc != prov or not board.can_army_stand(loc)):
                continue
            if kind is FLEET and not board.can_fleet_stand(loc):
                continue
            for target in sorted(_reach(board, kind, loc)):
                into.setdefault(target, []).append((prov, kind, loc))
    return {t: tuple(v) for t, v in into.items()}


class _SeaLanes:
    """The seas holding fleets, grouped into connected stretches an army could cross."""

    def __init__(self, board: Board, units: dict[str, Unit]) -> None:
        seas = sea_neighbours(board)
        self.touching = seas_touching(board)
        fleet_seas = {p for p, u in units.items() if u.type is FLEET and p in seas}
        self.stretch_of: dict[str, int] = {}
        self.coasts: list[set[str]] = []
        for start in sorted(fleet_seas):
            if start in self.stretch_of:
                continue
            index = len(self.coasts)
            coasts: set[str] = set()
            stack = [start]
            self.stretch_of[start] = index
            while stack:
                sea = stack.pop()
                for nxt in seas[sea]:
                    if nxt in seas:
                        if nxt in fleet_seas and nxt not in self.stretch_of:
                            self.stretch_of[nxt] = index
                            stack.append(nxt)
                    else:
                        coasts.add(nxt)
            self.coasts.append(coasts)

    def stretches(self, prov: str) -> set[int]:
        return {self.stretch_of[s] for s in self.touching.get(prov, ()) if s in self.stretch_of}

    def reach(self, prov: str) -> set[str]:
        out: set[str] = set()
        for index in self.stretches(prov):
            out |= self.coasts[index]
        out.discard(prov)
        return out


@cache
def _own_moves(board: Board, kind: UnitType, loc: str) -> tuple[Order, ...]:
    """Hold and every move by land or sea lane (no convoy) for a unit at ``loc``."""
    orders: list[Order] = [Hold(kind, loc)]
    if kind is ARMY:
        adjacent = board.army_adjacency.get(loc, frozenset())
        orders.extend(Move(kind, loc, target) for target in sorted(adjacent))
    else:
        orders.extend(Move(kind, loc, target) for target in _fleet_moves(board, loc))
    return tuple(orders)


# Orders are immutable values and building a frozen dataclass costs about a microsecond, so the
# orders made for one call are kept for the next (the map bounds how many there can be).
_SUPPORT_HOLDS: Final[dict[tuple[UnitType, str, UnitType, str], SupportHold]] = {}
_SUPPORT_MOVES: Final[dict[tuple[UnitType, str, UnitType, str, str], SupportMove]] = {}
_CONVOYED_MOVES: Final[dict[tuple[str, str, bool], Move]] = {}


def _support_hold(t: UnitType, loc: str, kind: UnitType, other: str) -> SupportHold:
    key = (t, loc, kind, other)
    order = _SUPPORT_HOLDS.get(key)
    if order is None:
        order = _SUPPORT_HOLDS[key] = SupportHold(t, loc, kind, other)
    return order


def _support_move(t: UnitType, loc: str, kind: UnitType, other: str, target: str) -> SupportMove:
    key = (t, loc, kind, other, target)
    order = _SUPPORT_MOVES.get(key)
    if order is None:
        order = _SUPPORT_MOVES[key] = SupportMove(t, loc, kind, other, target)
    return order


def _convoyed_move(loc: str, target: str, via: bool) -> Move:
    key = (loc, target, via)
    order = _CONVOYED_MOVES.get(key)
    if order is None:
        order = _CONVOYED_MOVES[key] = Move(ARMY, loc, target, via)
    return order


@cache
def _convoys(board: Board, fleet_loc: str, army: str) -> tuple[Convoy, ...]:
    return tuple(
        Convoy(FLEET, fleet_loc, army, target)
        for target in sorted(convoy_destinations(board, fleet_loc, army))
    )


class _Listing:
    """Per board: the unit tables, by type and location, and one string per unit label (``A
    PAR``), shared by every table (a dict finds a key that is the same object without
    comparing its characters)."""

    __slots__ = ("board", "labels", "tables")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.labels: dict[tuple[UnitType, str], str] = {}
        # location -> [its army's table, its fleet's table], each made on first use
        self.tables: dict[str, list[_UnitTable | None]] = {}

    def label(self, kind: UnitType, loc: str) -> str:
        key = (kind, loc)
        text = self.labels.get(key)
        if text is None:
            text = self.labels[key] = f"{kind.value} {loc}"
        return text

    def table(self, kind: UnitType, loc: str) -> _UnitTable:
        pair = self.tables.get(loc)
        if pair is None:
            pair = self.tables[loc] = [None, None]
        index = 0 if kind is ARMY else 1
        table = pair[index]
        if table is None:
            table = pair[index] = _UnitTable(self, kind, loc)
        return table


class _UnitTable:
    """What a unit of one type at one location may be ordered, as far as the map alone says:
    its hold and moves, and for each province it could support into, the support orders ready
    made (a hold support by the label of the unit supported, a move support by the label of
    the unit that moves). Built once per board, type and location; a listing then only looks
    up which of them the units on the board make real."""

    __slots__ = (
        "label", "prov", "standable", "own", "adjacent", "reach", "targets", "convoys", "by_sea"
    )

    def __init__(self, listing: _Listing, kind: UnitType, loc: str) -> None:
        board = listing.board
        label = listing.label
        prov = loc.split("/", 1)[0]
        self.label = label(kind, loc)
        self.prov = prov
        self.standable = (
            board.can_army_stand(loc) if kind is ARMY else board.can_fleet_stand(loc)
        )
        self.own = _own_moves(board, kind, loc)
        self.adjacent = board.army_adjacency.get(prov, frozenset())
        self.reach = _reach(board, kind, loc)
        movers_into = _movers_into(board)
        targets: list[_Target] = []
        for target in sorted(self.reach):
            if (prov, target) in board.weak_links:
                continue  # no support across a weak link (geography.Board.weak_links)
            holds: dict[str, SupportHold] = {}
            for where in (target, *board.provinces[target].coasts):
                for other in (ARMY, FLEET):
                    if other is ARMY and where == target and board.can_army_stand(where):
                        holds[label(other, where)] = _support_hold(kind, loc, other, where)
                    if other is FLEET and board.can_fleet_stand(where):
                        holds[label(other, where)] = _support_hold(kind, loc, other, where)
            movers = {
                label(other, mover_loc): _support_move(kind, loc, other, mover_loc, target)
                for mover_prov, other, mover_loc in movers_into.get(target, ())
                if mover_prov != prov
            }
            targets.append((target, holds, movers))
        self.targets = tuple(targets)
        # a fleet at sea: army province -> the convoys it could give that army (none: absent)
        self.convoys: dict[str, tuple[Convoy, ...]] = {}
        if kind is FLEET and board.provinces[prov].convoys:
            for army in seas_touching(board):
                convoys = _convoys(board, loc, army)
                if convoys:
                    self.convoys[army] = convoys
        # an army: coastal province -> its move there by sea (made on first use)
        self.by_sea: dict[str, Move] = {}


_Target = tuple[str, dict[str, SupportHold], dict[str, SupportMove]]

_LISTINGS: Final[dict[int, _Listing]] = {}


def _listing(board: Board) -> _Listing:
    listing = _LISTINGS.get(id(board))
    if listing is None or listing.board is not board:
        listing = _LISTINGS[id(board)] = _Listing(board)
    return listing


_location = attrgetter("location")


class _SeaView:
    """What every power's listing shares: each unit's label and table, who could move where,
    the sea lanes and who they could carry where."""

    __slots__ = (
        "key", "labels", "tables", "lanes", "by_sea_into", "into", "armies", "stretch",
        "prov_of", "sea_only_memo",
    )

    def __init__(self, board: Board, units: dict[str, Unit], key: tuple[object, ...]) -> None:
        self.key = key
        listing = _listing(board)
        table_of = listing.table
        labels: dict[str, str] = {}
        tables: dict[str, _UnitTable] = {}
        prov_of: dict[str, str] = {}
        self.labels = labels
        self.tables = tables
        self.prov_of = prov_of  # label -> province
        self.sea_only_memo: dict[str, list[str]] = {}
        self.armies: list[str] = []  # the armies' provinces (whom a fleet could convoy)
        fleets = False
        # by location: the labels of the units that could move into each province, in this
        # order, are what the supports into it are about
        for unit in sorted(units.values(), key=_location):
            table = table_of(unit.type, unit.location)
            prov = table.prov
            labels[prov] = table.label
            tables[prov] = table
            prov_of[table.label] = prov
        into: dict[str, list[str]] = {}
        self.into = into
        for prov, unit in units.items():
            if unit.type is ARMY:
                self.armies.append(prov)
            else:
                fleets = True
        for table in tables.values():
            if not table.standable:
                continue
            label = table.label
            for target in table.reach:
                found = into.get(target)
                if found is None:
                    into[target] = [label]
                else:
                    found.append(label)
        self.lanes = _SeaLanes(board, units) if fleets else None
        # armies that could be carried into each coastal province, by the stretch they touch;
        # each list is read once per phase into ``sea_only`` (see ``_by_sea``)
        self.by_sea_into: dict[str, list[str]] = {}
        # per stretch of seas, the coasts it reaches, sorted (an army's moves by sea)
        self.stretch: dict[int, list[str]] = {}
        lanes = self.lanes
        if lanes is not None and lanes.coasts:
            armies_on: dict[int, list[str]] = {}
            for prov in self.armies:
                for index in lanes.stretches(prov):
                    armies_on.setdefault(index, []).append(units[prov].location)
            by_sea = self.by_sea_into
            for index, armies in armies_on.items():
                for coast in lanes.coasts[index]:
                    by_sea.setdefault(coast, []).extend(armies)

    def sea_only(self, target: str) -> list[str]:
        """The armies that could be carried into ``target``, each once, without those that
        could move there by land (supported as such) and without one standing there."""
        memo = self.sea_only_memo
        only = memo.get(target)
        if only is None:
            prov_of = self.prov_of
            by_land = {prov_of[label] for label in self.into.get(target, ())}
            by_land.add(target)
            only = memo[target] = [
                a for a in dict.fromkeys(self.by_sea_into[target]) if a not in by_land
            ]
        return only

    def sea_targets(self, prov: str) -> list[str]:
        """Where an army in ``prov`` could be carried by the fleets at sea, sorted."""
        lanes = self.lanes
        assert lanes is not None
        indexes = lanes.stretches(prov)
        if len(indexes) != 1:
            return sorted(lanes.reach(prov))
        (index,) = indexes
        coasts = self.stretch.get(index)
        if coasts is None:
            coasts = self.stretch[index] = sorted(lanes.coasts[index])
        return [c for c in coasts if c != prov]


# The seven listings of one phase share one view; the key compares unit objects by identity
# first, so checking it costs next to nothing.
_LAST_VIEW: Final[list[_SeaView]] = []


def _sea_view(board: Board, units: dict[str, Unit]) -> _SeaView:
    key = (id(board), tuple(units.items()))
    last = _LAST_VIEW[0] if _LAST_VIEW else None
    if last is not None and last.key == key:
        return last
    view = _SeaView(board, units, key)
    _LAST_VIEW[:] = [view]
    return view


def _unit_orders(units: dict[str, Unit], view: _SeaView, prov: str, unit: Unit) -> list[Order]:
    """The unit's orders: the table's, filtered by the units on the board (the listing's inner
    loop: plain loops of dict lookups, which the compiled build turns into C calls)."""
    t, loc = unit.type, unit.location
    table = view.tables[prov]
    lanes = view.lanes
    by_sea_into = view.by_sea_into
    into = view.into
    labels = view.labels
    orders: list[Order] = list(table.own)
    if t is ARMY and lanes is not None:
        adjacent = table.adjacent
        by_sea = table.by_sea
        for target in view.sea_targets(prov):
            move = by_sea.get(target)
            if move is None:
                move = by_sea[target] = _convoyed_move(loc, target, target in adjacent)
            orders.append(move)
    for target, holds, movers in table.targets:
        other = labels.get(target)
        if other is not None:
            hold = holds.get(other)
            if hold is None:  # a unit where the map says none can stand: made as asked
                there = units[target]
                hold = _support_hold(t, loc, there.type, there.location)
            orders.append(hold)
        movers_in = into.get(target)
        if movers_in is not None:
            for label in movers_in:
                support = movers.get(label)
                if support is not None:  # None: the supporter itself
                    orders.append(support)
        if by_sea_into and target in by_sea_into:
            for army in view.sea_only(target):
                if army != prov:
                    orders.append(_support_move(t, loc, ARMY, army, target))
    if table.convoys and lanes is not None and prov in lanes.stretch_of:
        convoys = table.convoys
        for army in view.armies:
            found = convoys.get(army)
            if found is not None:
                orders.extend(found)
    return orders


def _movement(position: Position, power: str, board: Board) -> dict[str, list[Order]]:
    units = position.units
    view = _sea_view(board, units)
    return {
        unit.location: _unit_orders(units, view, prov, unit)
        for prov, unit in units.items()
        if unit.power == power
    }


def _retreats(position: Position, power: str) -> dict[str, list[Order]]:
    out: dict[str, list[Order]] = {}
    for d in position.dislodged.values():
        unit = d.unit
        if unit.power != power:
            continue
        orders: list[Order] = [Retreat(unit.type, unit.location, r) for r in d.retreats]
        orders.append(Disband(unit.type, unit.location))
        out[unit.location] = orders
    return out


def _adjustments(
    position: Position, power: str, board: Board, builds: BuildRule
) -> dict[str, list[Order]]:
    owed = position.owed(power, board)
    out: dict[str, list[Order]] = {}
    if owed < 0:
        for unit in position.units_of(power):
            out[unit.location] = [Disband(unit.type, unit.location)]
        return out
    if owed == 0:
        return out
    sites = (
        position.homes.get(power, ())
        if builds is BuildRule.HOME
        else build_sites(builds, power, position.centers, position.homes)
    )
    partisan = board.partisan_sites(power, position.centers, position.homes)
    for home in (*sites, *partisan):
        if home in position.units or (
            position.centers.get(home) != power and home not in partisan
        ):
            continue
        made: list[Order] = []
        province = board.provinces[home]
        if province.is_land:
            made.append(Build(ARMY, home))
        for where in province.coasts or (home,):
            if not isinstance(build_location(board, FLEET, where), Refusal):
                made.append(Build(FLEET, where))
        out[home] = made
    out["WAIVE"] = [Waive()]
    return out


def possible_orders(
    position: Position, power: str, board: Board | None = None, builds: BuildRule | None = None
) -> dict[str, list[Order]]:
    """Every legal order of ``power``, by unit (or build site); ``builds``: the build rule when
    not the variant's (a game's BUILDS option)."""
    b = board or installed_variant(position.variant).board
    if position.phase.is_movement:
        return _movement(position, power, b)
    if position.phase.is_retreat:
        return _retreats(position, power)
    rule = builds or installed_variant(position.variant).builds
    return _adjustments(position, power, b, rule)


def all_possible_orders(
    position: Position, board: Board | None = None
) -> dict[str, dict[str, list[Order]]]:
    """``possible_orders`` of every power of the position's variant, in one call (a movement
    phase is listed in one pass over the units): power -> location -> orders."""
    v = installed_variant(position.variant)
    b = board or v.board
    if not position.phase.is_movement:
        return {power: possible_orders(position, power, b) for power in v.powers}
    units = position.units
    view = _sea_view(b, units)
    out: dict[str, dict[str, list[Order]]] = {power: {} for power in v.powers}
    for prov, unit in units.items():
        mine = out.get(unit.power)
        if mine is None:
            mine = out[unit.power] = {}
        mine[unit.location] = _unit_orders(units, view, prov, unit)
    return out


def random_orders(
    position: Position, power: str, rng: random.Random, board: Board | None = None
) -> list[Order]:
    """One plausible order per unit (moves favoured over supports), drawn from the legal ones."""
    options = possible_orders(position, power, board)
    if position.phase.is_movement:
        chosen: list[Order] = []
        for orders in options.values():
            moves = [o for o in orders if isinstance(o, Move)]
            supports = [o for o in orders if isinstance(o, SupportHold | SupportMove | Convoy)]
            roll = rng.random()
            if roll < 0.55 and moves:
                chosen.append(rng.choice(moves))
            elif roll < 0.9 and supports:
                chosen.append(rng.choice(supports))
            else:
                chosen.append(orders[0])
        return chosen
    if position.phase.is_retreat:
        return [rng.choice(orders) for orders in options.values()]
    owed = position.owed(power, board or installed_variant(position.variant).board)
    if owed < 0:
        victims = rng.sample(sorted(options), -owed)
        return [options[v][0] for v in victims]
    homes = [h for h in sorted(options) if h != "WAIVE"]
    rng.shuffle(homes)
    return [rng.choice(options[h]) for h in homes[:owed]]
