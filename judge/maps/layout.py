"""Where things are drawn: province sites, unit anchors and the cells they make.

Each variant folder's ``layout.json`` (``judge/variants/<name>/layout.json``) holds, on a ``width`` x ``height`` canvas:
  ``sites``   Voronoi seeds. ``PAR`` is Paris's main seed; ``MAO~29`` is an extra seed that
              gives the Mid-Atlantic more shape; ``_ASIA1`` is off-board land (Asia, Africa)
              that keeps coastlines where they belong.
  ``anchors`` where each province's unit, label and centre stand (placed by hand where
              players expect them) and the coasts (``STP/NC`` ...).
The seeds were fitted (hill climbing, offline) so that cells sharing a border are adjacent on
the board as far as a Voronoi diagram allows, with every anchor inside its own province; the
fit is data, so this module only loads and derives. tests/maps/test_layout.py checks it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from judge.adjudicator.geography import Board, load_board
from judge.maps.voronoi import Point, cells, shared_edges


@dataclass(frozen=True, eq=False)
class Layout:
    width: int
    height: int
    anchors: dict[str, Point]  # location (province or coast) -> unit position
    cells: dict[str, list[Point]]  # site -> polygon
    owners: dict[str, str]  # site -> province code, or "_..." for off-board land
    edges: list[tuple[str, str, Point, Point]]  # borders between different provinces
    kinds: dict[str, str]  # province code -> its kind on the variant's map

    def anchor(self, location: str) -> Point:
        """Where a unit at ``location`` is drawn (a coast falls back to its province)."""
        if location in self.anchors:
            return self.anchors[location]
        return self.anchors[location.split("/", 1)[0]]

    def kind(self, owner: str) -> str:
        """``sea``, ``coast``, ``land``, ``impassable`` or ``offboard``."""
        if owner.startswith("_"):
            return "offboard"
        return self.kinds[owner]


def _board_of(name: str) -> Board:
    """A variant folder's own map, or (for one over another map) the map it names."""
    folder = resources.files("judge.variants").joinpath(name)
    if folder.joinpath("map.json").is_file():
        return load_board(name)
    raw = json.loads(folder.joinpath("variant.json").read_text("utf-8"))
    return load_board(raw.get("map", "standard"))


def _owner(site: str) -> str:
    return site.split("~", 1)[0]


def standard_layout() -> Layout:
    return variant_layout("standard")


@cache
def variant_layout(name: str) -> Layout:
    """The drawing of variant folder ``name`` (a variant without its own uses the standard one)."""
    folder = resources.files("judge.variants").joinpath(name)
    if not folder.joinpath("layout.json").is_file():
        name, folder = "standard", resources.files("judge.variants").joinpath("standard")
    raw = json.loads(folder.joinpath("layout.json").read_text("utf-8"))
    width, height = int(raw["width"]), int(raw["height"])
    sites: dict[str, Point] = {k: (float(v[0]), float(v[1])) for k, v in raw["sites"].items()}
    anchors: dict[str, Point] = {k: v for k, v in sites.items() if "~" not in k and not k.startswith("_")}
    anchors.update({k: (float(v[0]), float(v[1])) for k, v in raw["anchors"].items()})
    polygons = cells(sites, width, height)
    owners = {site: _owner(site) for site in sites}
    edges = [
        (owners[a], owners[b], p, q)
        for a, b, p, q in shared_edges(polygons)
        if owners[a] != owners[b]
    ]
    kinds = {code: p.kind for code, p in _board_of(name).provinces.items()}
    return Layout(width, height, anchors, polygons, owners, edges, kinds)
