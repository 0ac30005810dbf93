"""A trial's board played in parts: the battles its orders tie together, each adjudicated alone.

The computer powers' search (``search.py``) adjudicates thousands of trial boards a decision,
each the same board but for one or two of its own units' orders. A unit's fate depends only on
the units its battle is tied to, order by order: the unit it moves against or supports, the
others moving to the same place, the units attacking it or its supporters (every rule of the
2008 rulebook reads those and nothing further, once no army crosses the sea: a convoy's route
reads every fleet at sea, so its battle is tied to every fleet). So a reply's orders are split into parts once (``Split``), a trial's
own orders join the parts they name, and each joined part is adjudicated alone by the judge's
own adjudicator, or read from the parts seen before with the same own orders: most of a trial's
board is read, not played again. The units end exactly where the whole board's adjudication
leaves them (``tests/bots/test_search.py`` checks it on every one-unit change of mid-game
decisions). Pure (it imports the adjudicator only), and compiled with the search (setup.py).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Final

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Convoy, Move, Order, SupportHold, SupportMove, Unit, UnitType
from judge.adjudicator.outcomes import Options
from judge.adjudicator.phase_result import Adjudication
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant

_ARMY: Final = UnitType.ARMY


def _province(location: str) -> str:
    return location.split("/", 1)[0]


def _named(order: Order) -> tuple[str, ...]:
    """The provinces an order ties its unit's battle to: where it moves, whom it supports and
    where, whom it convoys and where."""
    if type(order) is Move:
        return (_province(order.target),)
    if type(order) is SupportMove:
        return (_province(order.supported), _province(order.target))
    if type(order) is SupportHold:
        return (_province(order.supported),)
    if type(order) is Convoy:
        return (_province(order.army), _province(order.target))
    return ()


def _root(parent: dict[str, str], prov: str) -> str:
    top = parent.setdefault(prov, prov)
    while top != prov:
        prov = top
        top = parent[prov]
    return top


def _top(parent: list[int], part: int) -> int:
    up = parent[part]
    while up != part:
        part = up
        up = parent[part]
    return up


def over_sea(order: Order, army_moves: Mapping[str, frozenset[str]]) -> bool:
    """A convoy, or an army's move that is not to a neighbour by land."""
    if type(order) is Convoy:
        return True
    if type(order) is Move and order.unit_type is _ARMY:
        return order.via_convoy or _province(order.target) not in army_moves.get(
            order.location, frozenset())
    return False


def lost_units(result: Adjudication) -> list[Unit]:
    """The units an adjudication dislodged or destroyed (dislodged with no retreat): to the
    search, a unit lost either way."""
    out = [d.unit for d in result.position.dislodged.values()]
    out.extend(result.destroyed)
    return out


# a part of a trial's board played alone: the units where it left them, and those it
# dislodged or destroyed
Part = tuple[list[tuple[str, Unit]], list[Unit]]


class Split:
    """One reply's board in parts, and the trials of the own orders against it (``after``).

    The parts without an own unit are played once, together; a part a trial's own orders join
    is played with them, and kept by those orders (a climb's next trials change another unit,
    and find it again)."""

    def __init__(
        self,
        variant: Variant,
        position: Position,
        power: str,
        reply: Mapping[str, list[Order]],
        options: Options,
        board: Board | None,
        army_moves: Mapping[str, frozenset[str]],
    ) -> None:
        self.variant = variant
        self.options = options
        self.board = board
        self.power = power
        self.units = position.units
        self.homes = position.homes
        # the parts are played in the position's own phase: a variant's rules (its board, its
        # neutral powers) may change from one phase to the next
        self.phase = position.phase
        self.army_moves = army_moves
        # an army's move over the sea reads every fleet's place (the routes the fleets at sea
        # make; the fleets on the coasts are taken too, more than needed, never less)
        self.fleets = tuple(sorted(prov for prov, unit in self.units.items()
                                   if unit.type is not _ARMY))
        self.theirs: dict[str, tuple[str, Order]] = {}
        parent: dict[str, str] = {}
        for other, given in reply.items():
            for order in given:
                prov = _province(order.location)  # type: ignore[union-attr]
                self.theirs[prov] = (other, order)
                for named in self._named(order):
                    parent[_root(parent, named)] = _root(parent, prov)
        roots: dict[str, int] = {}
        self.part: dict[str, int] = {}  # province -> its part of the reply's board
        for prov in sorted(set(parent) | set(self.units)):
            self.part[prov] = roots.setdefault(_root(parent, prov), len(roots))
        self.members: list[list[str]] = [[] for _ in roots]
        for prov in self.units:
            self.members[self.part[prov]].append(prov)
        own = {self.part[prov] for prov, unit in self.units.items() if unit.power == power}
        self.own_parts = sorted(own)
        # the parts without an own unit: the same in every trial unless an own order joins
        # them, so played once, together
        alone = [cid for cid in range(len(roots)) if cid not in own and self.members[cid]]
        placed: dict[int, list[tuple[str, Unit]]] = {cid: [] for cid in alone}
        lost: dict[int, list[Unit]] = {cid: [] for cid in alone}
        if alone:
            units, beaten = self._play(alone, [])
            for prov, unit in units:
                placed[self.part[prov]].append((prov, unit))
            for unit in beaten:
                lost[self.part[_province(unit.location)]].append(unit)
        self.fixed = [(cid, placed[cid], lost[cid]) for cid in alone]
        # order -> its unit's part and the parts it names, read once
        self.ties: dict[Order, tuple[int, ...]] = {}
        self.memo: dict[frozenset[Order], Part] = {}

    def _named(self, order: Order) -> tuple[str, ...]:
        named = _named(order)
        return named + self.fleets if over_sea(order, self.army_moves) else named

    def _tie(self, order: Order) -> tuple[int, ...]:
        part = self.part
        tie = [part[_province(order.location)]]  # type: ignore[union-attr]
        for named in self._named(order):
            cid = part.get(named)
            if cid is None:  # a place no reply order names and no unit stands in
                cid = part[named] = len(self.members)
                self.members.append([])
            tie.append(cid)
        out = self.ties[order] = tuple(tie)
        return out

    def _play(self, parts: Sequence[int], own: list[Order]) -> Part:
        units: dict[str, Unit] = {}
        given: dict[str, list[Order]] = {}
        for cid in parts:
            for prov in self.members[cid]:
                units[prov] = self.units[prov]
                mine = self.theirs.get(prov)
                if mine is not None:
                    given.setdefault(mine[0], []).append(mine[1])
        if own:
            given[self.power] = own
        result = adjudicate(
            Position(self.phase, units, {}, {}, self.homes, self.variant.name),
            given, self.options, variant=self.variant, board=self.board,
        )
        return list(result.position.units.items()), lost_units(result)

    def after(self, orders: Collection[Order]) -> Part:
        """Where a trial of the own ``orders`` (one for every own unit) leaves the units, and
        the units it dislodged or destroyed."""
        ties = self.ties
        read: list[tuple[int, ...]] = []
        for order in orders:
            tie = ties.get(order)
            read.append(tie if tie is not None else self._tie(order))
        parent = list(range(len(self.members)))
        for tie in read:
            mine = _top(parent, tie[0])
            for cid in tie[1:]:
                other = _top(parent, cid)
                if other != mine:
                    parent[other] = mine
        groups: dict[int, list[Order]] = {}
        for order, tie in zip(orders, read, strict=True):
            top = _top(parent, tie[0])
            group = groups.get(top)
            if group is None:
                groups[top] = [order]
            else:
                group.append(order)
        joined: dict[int, list[int]] = {}
        for cid in self.own_parts:
            joined.setdefault(_top(parent, cid), []).append(cid)
        units: list[tuple[str, Unit]] = []
        beaten: list[Unit] = []
        for cid, placed, lost in self.fixed:
            top = _top(parent, cid)
            if top in groups:
                joined.setdefault(top, []).append(cid)
            else:
                units.extend(placed)
                beaten.extend(lost)
        for top, own in groups.items():
            key = frozenset(own)
            found = self.memo.get(key)
            if found is None:
                found = self.memo[key] = self._play(joined.get(top, []), own)
            units.extend(found[0])
            beaten.extend(found[1])
        return units, beaten
