"""A map: provinces, coasts, adjacency, supply and home centres.

A ``Board`` is built from a variant folder's ``map.json`` (``judge/variants/<name>/``; the
standard map's is built from the verified reference table by ``scripts/build_map_data.py``) and
reached through the game's ``Variant`` (``variant.py``). Locations are upper-case canonical
codes: a province (``BUL``) or a coast of a two-coast province (``BUL/EC``). Every other module
(legality, resolver, parsing, house rules) asks the board it is given about adjacency.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any


@dataclass(frozen=True, slots=True)
class Province:
    code: str
    kind: str  # "sea" | "coast" | "land" | "impassable"
    supply_center: bool
    home: str | None
    coasts: tuple[str, ...]
    names: dict[str, Any] = field(hash=False, compare=False)
    # DPjudge's PORT: a coastal province whose fleet may convoy, as a fleet at sea does
    port: bool = False

    def __reduce__(self) -> tuple[type[Province], tuple[object, ...]]:
        # its class and fields (see orders.py: the compiled build refuses the default)
        return (
            Province,
            (self.code, self.kind, self.supply_center, self.home, self.coasts, self.names,
             self.port),
        )

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def convoys(self) -> bool:
        """Whether a fleet here may convoy: at sea, or in a port."""
        return self.kind == "sea" or self.port

    @property
    def is_land(self) -> bool:
        return self.kind in ("coast", "land")


@dataclass(frozen=True, eq=False)
class Board:
    """Immutable map data with the lookups the adjudicator needs on its hot path."""

    provinces: dict[str, Province]
    # army moves, by province
    army_adjacency: dict[str, frozenset[str]]
    # fleet moves, by location (coasts included); targets carry their coast
    fleet_adjacency: dict[str, frozenset[str]]
    starting_units: dict[str, tuple[str, ...]]
    locations: frozenset[str]
    # names of coast rows (BUL/EC...) per language, for the parsers
    coast_names: dict[str, dict[str, Any]]
    # the powers of this map, in their conventional (alphabetical) order
    powers: tuple[str, ...]
    # the map folder's name (``judge/variants/<name>/map.json``)
    name: str
    # DPjudge's "Cape of Good Hope" links (``map.json`` "weak_links", 1900's Egypt and Hejaz to
    # the Mid-Atlantic), as (from, to) provinces: a move along one is made at half strength and
    # cuts no support, no unit supports across one, and a retreat along one yields (see
    # docs/variants-format.md). Empty on every other map.
    weak_links: frozenset[tuple[str, str]] = frozenset()
    # DPjudge's partisan sites (``map.json`` "partisans", 1900's ``*SIB``): per power, provinces
    # that are no supply centre but, while the power has lost some but not all of its home
    # centres, each count as one centre more for its adjustments and are places it may build
    partisans: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __reduce__(self) -> tuple[type[Board], tuple[object, ...]]:
        # its class and fields (see orders.py: the compiled build refuses the default)
        return (
            Board,
            (
                self.provinces,
                self.army_adjacency,
                self.fleet_adjacency,
                self.starting_units,
                self.locations,
                self.coast_names,
                self.powers,
                self.name,
                self.weak_links,
                self.partisans,
            ),
        )

    @property
    def supply_centers(self) -> frozenset[str]:
        return frozenset(c for c, p in self.provinces.items() if p.supply_center)

    def home_centers(self, power: str) -> tuple[str, ...]:
        return _home_centers(self, power)

    @property
    def all_home_centers(self) -> dict[str, tuple[str, ...]]:
        """A new dict each time (callers may change it); its tuples are computed once."""
        return {power: _home_centers(self, power) for power in self.powers}

    def partisan_sites(
        self, power: str, centers: Mapping[str, str], homes: Mapping[str, tuple[str, ...]]
    ) -> tuple[str, ...]:
        """``power``'s partisan sites that count now (DPjudge's rule, as its ``ownership``
        applies it): all of them while the power has lost some but not all of its home centres,
        else none. Each adds one to the builds it is owed (or one fewer removal) and is a place
        it may build while no unit stands there; none is a centre (victory ignores them)."""
        sites = self.partisans.get(power)
        if not sites:
            return ()
        own = homes.get(power, ())
        lost = sum(1 for h in own if centers.get(h) != power)
        return sites if 0 < lost < len(own) else ()

    def province_of(self, location: str) -> str:
        return location.split("/", 1)[0]

    def coast_of(self, location: str) -> str | None:
        parts = location.split("/", 1)
        return parts[1] if len(parts) == 2 else None

    def is_location(self, location: str) -> bool:
        return location in self.locations

    def can_army_stand(self, location: str) -> bool:
        prov = self.provinces.get(location)
        return prov is not None and prov.is_land

    def can_fleet_stand(self, location: str) -> bool:
        """Fleets stand at sea, on a one-coast coastal province, or on a named coast."""
        return location in self.fleet_adjacency

    def army_can_move(self, source: str, target: str) -> bool:
        return self.province_of(target) in self.army_adjacency.get(self.province_of(source), ())

    def fleet_can_move(self, source: str, target: str) -> bool:
        """Exact: a fleet moves from its location to a location (coast given where needed)."""
        return target in self.fleet_adjacency.get(source, ())

    def fleet_reaches_province(self, source: str, province: str) -> bool:
        """True if the fleet can reach some coast of ``province`` (for supports and hold)."""
        targets = self.fleet_adjacency.get(source, ())
        return any(self.province_of(t) == province for t in targets)

    def fleet_coasts_reachable(self, source: str, province: str) -> list[str]:
        return sorted(
            t for t in self.fleet_adjacency.get(source, ()) if self.province_of(t) == province
        )

    def can_reach(self, unit_type: str, source: str, province: str) -> bool:
        """Whether a unit of ``unit_type`` at ``source`` may support into ``province``: it
        borders it, and not by a weak link (no support across one, as DPjudge)."""
        if self.weak_links and (self.province_of(source), province) in self.weak_links:
            return False
        if unit_type == "A":
            return self.army_can_move(source, province)
        return self.fleet_reaches_province(source, province)

    def distances(self, targets: frozenset[str] | set[str]) -> dict[str, int]:
        """Province-to-target distance in moves, counting both land and sea adjacency.

        Seed 000 and the 2008 rulebook count civil-disorder distance in provinces whatever the
        unit type, so this BFS walks the union of army and fleet adjacency between provinces.
        """
        dist: dict[str, int] = {t: 0 for t in targets}
        queue = deque(targets)
        while queue:
            here = queue.popleft()
            for nxt in _province_graph(self)[here]:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist


@cache
def _home_centers(board: Board, power: str) -> tuple[str, ...]:
    return tuple(sorted(c for c, p in board.provinces.items() if p.home == power))


@cache
def _province_graph(board: Board) -> dict[str, frozenset[str]]:
    graph: dict[str, set[str]] = {code: set() for code in board.provinces}
    for src, targets in board.army_adjacency.items():
        graph[src].update(targets)
    for src, targets in board.fleet_adjacency.items():
        graph[board.province_of(src)].update(board.province_of(t) for t in targets)
    return {k: frozenset(v) for k, v in graph.items()}


def board_from_json(raw: dict[str, Any]) -> Board:
    """A board from the ``map.json`` shape (see ``judge/variants/standard/map.json``)."""
    provinces: dict[str, Province] = {}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    coasts: dict[str, list[str]] = {}
    locations: set[str] = set()
    for row in raw["provinces"]:
        code = row["code"]
        locations.add(code)
        if row["parent"]:
            coasts.setdefault(row["parent"], []).append(code)
        if row["army_neighbours"] or (not row["parent"] and row["type"] in ("coast", "land")):
            # an island (ancmed's Baleares, chromatic's) is land with no army neighbour: armies
            # stand there and leave by sea only
            army[code] = frozenset(row["army_neighbours"])
        if row["fleet_neighbours"]:
            fleet[code] = frozenset(row["fleet_neighbours"])
    for row in raw["provinces"]:
        if row["parent"]:
            continue
        code = row["code"]
        provinces[code] = Province(
            code=code,
            kind=row["type"],
            supply_center=row["supply_center"],
            home=row["home"],
            coasts=tuple(sorted(coasts.get(code, ()))),
            names=row["names"],
            port=bool(row.get("port", False)),
        )
    # coast rows keep their names reachable too, for the parsers
    coast_names = {row["code"]: row["names"] for row in raw["provinces"] if row["parent"]}
    board = Board(
        provinces=provinces,
        army_adjacency=army,
        fleet_adjacency=fleet,
        starting_units={p: tuple(u) for p, u in raw["starting_units"].items()},
        locations=frozenset(locations),
        coast_names=coast_names,
        powers=tuple(sorted(raw["starting_units"])),
        name=raw["variant"],
        weak_links=frozenset((a, b) for a, b in raw.get("weak_links", ())),
        partisans={p: tuple(sites) for p, sites in raw.get("partisans", {}).items()},
    )
    return board


def closed_board(board: Board, closed: frozenset[str]) -> Board:
    """The same map with ``closed`` provinces impassable: no move, retreat or support reaches them.

    Seed 001's two-player game closes Italy's territory while Italy is neutral; units standing
    there keep their place (they hold), nobody else can enter.
    """
    army = {
        src: frozenset(t for t in targets if t not in closed)
        for src, targets in board.army_adjacency.items()
        if src not in closed
    }
    fleet = {
        src: frozenset(t for t in targets if board.province_of(t) not in closed)
        for src, targets in board.fleet_adjacency.items()
        if board.province_of(src) not in closed
    }
    return Board(
        provinces=board.provinces,
        army_adjacency=army,
        fleet_adjacency={**{s: frozenset() for s in board.fleet_adjacency}, **fleet},
        starting_units=board.starting_units,
        locations=board.locations,
        coast_names=board.coast_names,
        powers=board.powers,
        name=board.name,
        weak_links=board.weak_links,
        partisans=board.partisans,
    )


# variant folders added beside the installed ones (catalog.add_variant_folder), by name
EXTRA_FOLDERS: dict[str, Traversable] = {}


def variant_folder(name: str) -> Traversable:
    """The folder of variant ``name``: an added one, else the installed package data's."""
    return EXTRA_FOLDERS.get(name) or resources.files("judge.variants").joinpath(name)


@cache
def map_json(name: str) -> dict[str, Any]:
    """Variant folder ``name``'s ``map.json``, parsed once (callers must not change it)."""
    parsed: dict[str, Any] = json.loads(variant_folder(name).joinpath("map.json").read_text("utf-8"))
    return parsed


@cache
def load_board(name: str) -> Board:
    """The map of variant folder ``name`` (loaded once: boards are immutable)."""
    return board_from_json(map_json(name))
