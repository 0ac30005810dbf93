"""The narrow board interface of the bots' reasoning: provinces, adjacency, centres, homes, powers.

The reasoning never reads the adjudicator's ``Board`` directly, only this value, so a new board
source (the coming ``Variant``) needs one more adapter function and nothing else. Legality is still
decided by the adjudicator itself (``possible_orders``), with the same board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from judge.adjudicator.geography import POWERS, Board


@dataclass(frozen=True, eq=False)
class MapView:
    powers: tuple[str, ...]
    provinces: tuple[str, ...]  # every passable province
    supply_centers: frozenset[str]
    homes: dict[str, tuple[str, ...]]
    # province -> provinces an army may move to
    army_moves: dict[str, frozenset[str]]
    # location (coasts included) -> locations a fleet may move to
    fleet_moves: dict[str, frozenset[str]]
    # location -> provinces a fleet there could support into
    fleet_reach: dict[str, frozenset[str]]
    land: frozenset[str]  # provinces an army may stand in
    sea: frozenset[str]

    @staticmethod
    def province_of(location: str) -> str:
        return location.split("/", 1)[0]

    def reach(self, unit_type: str, location: str) -> frozenset[str]:
        """Provinces a unit could move or support into (without a convoy)."""
        if unit_type == "A":
            return self.army_moves.get(location, frozenset())
        return self.fleet_reach.get(location, frozenset())


@cache
def view_of_board(board: Board) -> MapView:
    """The adapter for the adjudicator's ``Board`` (the standard map today)."""
    fleet_reach = {
        loc: frozenset(t.split("/", 1)[0] for t in targets)
        for loc, targets in board.fleet_adjacency.items()
    }
    passable = tuple(sorted(c for c, p in board.provinces.items() if p.kind != "impassable"))
    return MapView(
        powers=POWERS,
        provinces=passable,
        supply_centers=board.supply_centers,
        homes=board.all_home_centers,
        army_moves=dict(board.army_adjacency),
        fleet_moves=dict(board.fleet_adjacency),
        fleet_reach=fleet_reach,
        land=frozenset(c for c, p in board.provinces.items() if p.is_land),
        sea=frozenset(c for c, p in board.provinces.items() if p.is_sea),
    )
