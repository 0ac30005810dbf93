"""Where things are drawn: each variant's ``drawing.json`` (one data file per variant).

``judge/variants/<name>/drawing.json`` holds, on a ``width`` x ``height`` canvas:
  ``provinces``  per province code: ``path`` (its shape, SVG path data), ``unit`` (where a unit
                 stands), ``label`` (the centre of its name) and, for a supply centre, ``centre``;
  ``coasts``     per split coast (``STP/NC``...): where a fleet on it stands;
  ``unplayed``   ``land`` (Ireland, Iceland, Africa beyond the board...) and ``water`` (lakes),
                 drawn but not played;
  ``credits``    (optional) lines the map prints in a corner: an imported drawing's title, maker
                 and licence (``judge.maps.ps_drawing`` converts DPjudge's ``.ps`` drawings).
The standard board's file is generated from Natural Earth data by ``scripts/map_drawing.py`` (run
by hand): the shapes form one planar coverage, so two provinces share a border exactly when they
share an edge. This module only loads the file and derives the border lines from those edges;
tests/maps/test_drawing.py checks the drawing against the map graph.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from judge.adjudicator.geography import Board, load_board

Point = tuple[float, float]
Ring = list[Point]
Edge = tuple[Point, Point]

UNPLAYED_LAND = "_land"
UNPLAYED_WATER = "_water"

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def parse_path(d: str) -> list[Ring]:
    """The rings of path data made of ``M x,y L x,y ... Z`` (the only commands the files use)."""
    rings: list[Ring] = []
    for chunk in d.split("M")[1:]:
        values = [float(v) for v in _NUMBER.findall(chunk)]
        rings.append(list(zip(values[0::2], values[1::2], strict=True)))
    return rings


@dataclass(frozen=True, eq=False)
class Layout:
    width: int
    height: int
    paths: dict[str, str]  # province code (or _land/_water) -> SVG path data
    rings: dict[str, list[Ring]]  # the same shapes as point lists
    anchors: dict[str, Point]  # location (province or coast) -> unit position
    labels: dict[str, Point]  # province -> centre of its name
    centres: dict[str, Point]  # supply centre -> its marker
    kinds: dict[str, str]  # province code -> its kind on the variant's map
    borders: dict[frozenset[str], list[Edge]] = field(default_factory=dict)
    credits: tuple[str, ...] = ()  # lines printed in a corner (an imported drawing's makers)

    def anchor(self, location: str) -> Point:
        """Where a unit at ``location`` is drawn (a coast falls back to its province)."""
        if location in self.anchors:
            return self.anchors[location]
        return self.anchors[location.split("/", 1)[0]]

    def kind(self, owner: str) -> str:
        """``sea``, ``coast``, ``land``, ``impassable``, or ``offboard`` for unplayed land/water."""
        if owner.startswith("_"):
            return "offboard"
        return self.kinds[owner]

    @property
    def coasts(self) -> dict[str, Point]:
        return {k: v for k, v in self.anchors.items() if "/" in k}


def shared_edges(rings: dict[str, list[Ring]]) -> dict[frozenset[str], list[Edge]]:
    """The edges two shapes have in common, per pair of shape names.

    The shapes are a coverage whose common borders have identical vertices (the generator
    simplifies them together), so an edge of one shape is an edge of its neighbour too (either
    way round: rings are not all wound the same way).
    """
    owners: dict[Edge, list[str]] = {}
    order: list[Edge] = []
    for name, shape in rings.items():
        for ring in shape:
            for i, p in enumerate(ring):
                q = ring[(i + 1) % len(ring)]
                if p == q:
                    continue
                key = (p, q) if p < q else (q, p)
                if key not in owners:
                    owners[key] = []
                    order.append((p, q))
                owners[key].append(name)
    out: dict[frozenset[str], list[Edge]] = {}
    for p, q in order:  # in ring order, so that a border's edges chain into polylines
        names = owners[(p, q) if p < q else (q, p)]
        if len(names) == 2 and names[0] != names[1]:
            out.setdefault(frozenset(names), []).append((p, q))
    return out


def _board_of(name: str) -> Board:
    """A variant folder's own map, or (for one over another map) the map it names."""
    folder = resources.files("judge.variants").joinpath(name)
    if folder.joinpath("map.json").is_file():
        return load_board(name)
    raw = json.loads(folder.joinpath("variant.json").read_text("utf-8"))
    return load_board(raw.get("map", "standard"))


def standard_layout() -> Layout:
    return variant_layout("standard")


def _point(raw: list[float]) -> Point:
    return (float(raw[0]), float(raw[1]))


@cache
def variant_layout(name: str) -> Layout:
    """The drawing of variant folder ``name`` (a variant without its own uses the standard one)."""
    folder = resources.files("judge.variants").joinpath(name)
    if not folder.joinpath("drawing.json").is_file():
        name, folder = "standard", resources.files("judge.variants").joinpath("standard")
    raw = json.loads(folder.joinpath("drawing.json").read_text("utf-8"))
    kinds = {code: p.kind for code, p in _board_of(name).provinces.items()}
    return layout_from_json(raw, kinds)


def layout_from_json(raw: dict[str, Any], kinds: dict[str, str]) -> Layout:
    """The layout of a ``drawing.json`` (already read) for a map whose provinces are ``kinds``."""
    paths: dict[str, str] = {code: p["path"] for code, p in raw["provinces"].items()}
    for key, owner in (("land", UNPLAYED_LAND), ("water", UNPLAYED_WATER)):
        if raw.get("unplayed", {}).get(key):
            paths[owner] = raw["unplayed"][key]
    rings = {code: parse_path(d) for code, d in paths.items()}
    anchors = {code: _point(p["unit"]) for code, p in raw["provinces"].items()}
    anchors.update({code: _point(v) for code, v in raw.get("coasts", {}).items()})
    labels = {code: _point(p["label"]) for code, p in raw["provinces"].items()}
    centres = {code: _point(p["centre"]) for code, p in raw["provinces"].items() if "centre" in p}
    return Layout(
        int(raw["width"]), int(raw["height"]), paths, rings, anchors, labels, centres, kinds,
        shared_edges(rings), tuple(str(line) for line in raw.get("credits", ())),
    )
