"""The legal orders of a movement phase sorted by kind, as the resolver reads them.

The movement phase fills an ``OrderIndex`` as it accepts each order (one pass over the orders
instead of two); ``MovementResolver`` links it up (convoys, supports, head-to-head battles).
"""

from __future__ import annotations

from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Convoy, Move, Order, SupportHold, SupportMove, UnitType

_ARMY = UnitType.ARMY

_PROVINCES: dict[int, tuple[Board, dict[str, str]]] = {}


def province_index(board: Board) -> dict[str, str]:
    """Location -> province, per board (``split`` on every lookup showed up in profiles)."""
    entry = _PROVINCES.get(id(board))
    if entry is None or entry[0] is not board:
        entry = _PROVINCES[id(board)] = (
            board,
            {loc: loc.split("/", 1)[0] for loc in board.locations},
        )
    return entry[1]


class OrderIndex:
    """The legal orders of a movement phase sorted by kind, in the order they were accepted."""

    __slots__ = (
        "province",
        "army_adjacency",
        "move_to",
        "move_loc",
        "attackers",
        "armies_moving",
        "armies_at_sea",
        "contested",
        "facing",
        "convoys",
        "supports",
    )

    def __init__(self, province: dict[str, str], army_adjacency: dict[str, frozenset[str]]) -> None:
        self.province = province  # location -> province
        self.army_adjacency = army_adjacency
        self.move_to: dict[str, str] = {}  # mover's province -> target province
        self.move_loc: dict[str, str] = {}  # mover's province -> target location
        self.attackers: dict[str, list[str]] = {}  # target province -> movers' provinces
        self.armies_moving: list[str] = []
        # armies that want the sea (not adjacent, or VIA): without any convoy order, the only
        # ones that can be convoyed at all
        self.armies_at_sea: list[str] = []
        # targets with a second attacker (the resolver sorts only their lists), and movers whose
        # target moves back at them (each pair once): found here, not by a pass over all moves
        self.contested: list[str] = []
        self.facing: list[str] = []
        self.convoys: list[tuple[str, Convoy]] = []
        self.supports: list[tuple[str, SupportHold | SupportMove]] = []

    def add(self, prov: str, order: Order) -> None:
        """Index the order governing the unit in ``prov`` (the movement phase inlines moves)."""
        # ``type(order) is Kind`` at each test: mypy narrows by it (order classes are final)
        if type(order) is Move:
            loc = order.target
            target = self.province[loc]
            self.add_move(prov, target, loc, order.unit_type is _ARMY, order.via_convoy)
        elif type(order) is Convoy:
            self.convoys.append((prov, order))
        elif type(order) is SupportHold or type(order) is SupportMove:
            self.supports.append((prov, order))

    def add_move(self, prov: str, target: str, loc: str, army: bool, via: bool) -> None:
        move_to = self.move_to
        move_to[prov] = target
        self.move_loc[prov] = loc
        if move_to.get(target) == prov:
            self.facing.append(prov)
        attackers = self.attackers
        if target in attackers:
            attackers[target].append(prov)
            self.contested.append(target)
        else:
            attackers[target] = [prov]
        if army:
            self.armies_moving.append(prov)
            if via or target not in self.army_adjacency[prov]:
                self.armies_at_sea.append(prov)
