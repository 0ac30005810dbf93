"""The drawings converted from DPjudge's ``.ps`` files (``judge.maps.ps_drawing``) draw their map.

For each shipped ``drawing.json`` made from a DPjudge drawing, the provinces, coasts, powers and
starting units are read from the DPjudge ``.map`` it belongs to (``../shared/variants/``; a few
lines of its dialect are enough here: terrain lines, power lines and unit lines, following
``USE`` includes), so the check holds whichever variant folders ship the map itself. Then:
every province of the ``.map`` has an area (an impassable one may be left out), every split
coast its anchor, every point stands in the drawing's box, neighbouring provinces mostly share
a border line, and the renderer draws the first position (SVG and PNG) with every unit, the
credits and the licence.
"""

from __future__ import annotations

import io
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from judge.adjudicator.geography import Board, Province
from judge.maps import render_png
from judge.maps.layout import Layout, layout_from_json
from judge.maps.scene import MapSnapshot
from judge.maps.style import power_colour
from judge.maps.svg import draw_svg

LIBRARY = Path(__file__).resolve().parents[3] / "shared" / "variants" / "dpjudge"
KINDS = {"LAND": "land", "COAST": "coast", "PORT": "coast", "WATER": "sea", "SHUT": "impassable"}
_TERRAIN = re.compile(r"^(LAND|COAST|PORT|WATER|SHUT)\s+(\S+)\s*(?:ABUTS\s*(.*))?$")
_POWER = re.compile(r"^([A-Za-z][A-Za-z_]*)\s+\(([^)]*)\)\s*(.*)$")
_UNIT = re.compile(r"^([AF])\s+(\S+)\s*$")


def _drawings() -> list[str]:
    root = resources.files("judge.variants")
    out = []
    for folder in sorted(root.iterdir(), key=lambda f: f.name):
        drawing = folder.joinpath("drawing.json")
        if drawing.is_file() and "DPjudge" in json.loads(drawing.read_text("utf-8"))["source"]:
            out.append(folder.name)
    return out


VARIANTS = _drawings()


def _lines(path: Path) -> list[str]:
    out: list[str] = []
    for raw in path.read_text("latin-1").splitlines():
        line = raw.split("#", 1)[0].strip()
        words = line.split()
        if len(words) == 2 and words[0] in ("USE", "MAP"):
            name = words[1] if "." in words[1] else words[1] + ".map"
            out.extend(_lines(path.parent / name))
        elif line:
            out.append(line)
    return out


def read_map(name: str) -> dict[str, Any]:
    """Provinces (code -> kind), coasts, adjacencies, centres, powers and units of a ``.map``."""
    kinds: dict[str, str] = {}
    coasts: set[str] = set()
    edges: set[frozenset[str]] = set()
    centres: set[str] = set()
    units: dict[str, list[str]] = {}
    power = ""
    renamed: dict[str, str] = {}
    unplayed: set[str] = set()
    for line in _lines(LIBRARY / f"{name}.map"):
        words = line.split()
        if words[0] == "DROP":  # gone from here on (a later line may make it again)
            for code in (w.upper() for w in words[1:]):
                kinds.pop(code, None)
                centres.discard(code)
                coasts.difference_update({c for c in coasts if c.startswith(code + "/")})
        elif words[0] == "UNPLAYED":
            unplayed.update(w.upper() for w in words[1:])
        elif len(words) > 3 and words[1] == "->" and "=" in line:
            # "PIE -> Savoy = sav pie": the province is renamed
            renamed[words[0].upper()] = line.split("=", 1)[1].split()[0].upper()
        elif m := _TERRAIN.match(line):
            code = m.group(2).upper()
            head = code.split("/", 1)[0]
            if "/" in code:
                coasts.add(code)
            else:
                kinds[head] = KINDS[m.group(1)]
            for other in (m.group(3) or "").split():
                edges.add(frozenset((head, other.strip("*~").split("/", 1)[0].upper())))
        elif line.startswith("UNOWNED"):  # "-POR": no longer a centre
            for word in (w.upper() for w in words[1:]):
                (centres.discard(word[1:]) if word.startswith("-") else centres.add(word))
        elif (m := _POWER.match(line)) and m.group(1).upper() not in KINDS:
            power = m.group(1).upper()
            units.setdefault(power, [])
            centres.update(w.upper() for w in m.group(3).split())
        elif (m := _UNIT.match(line)) and power:
            units[power].append(f"{m.group(1)} {m.group(2).upper()}")
        elif line.split()[0] in KINDS or "=" in line:
            continue
        elif re.fullmatch(r"[A-Z][A-Z_]+", line):
            power = line  # a .military file names the power alone above its units
            units.setdefault(power, [])
    def new(code: str) -> str:
        head, _, coast = code.partition("/")
        return renamed.get(head, head) + ("/" + coast if coast else "")

    kinds = {new(c): k for c, k in kinds.items()}
    coasts = {new(c) for c in coasts}
    edges = {frozenset(new(c) for c in e) for e in edges}
    edges = {e for e in edges if len(e) == 2 and e <= set(kinds)}
    # the units of the powers still played, on provinces the map still has
    units = {p: [u for u in us if new(u.split()[1]).split("/")[0] in kinds]
             for p, us in units.items() if p not in unplayed}
    return {"kinds": kinds, "coasts": coasts, "edges": edges,
            "centres": {new(c) for c in centres} & set(kinds),
            "units": {p: [f"{u[0]} {new(u.split()[1])}" for u in us] for p, us in units.items() if us}}


def _drawing(name: str) -> dict[str, Any]:
    folder = resources.files("judge.variants").joinpath(name)
    return json.loads(folder.joinpath("drawing.json").read_text("utf-8"))


def _board(name: str, dp: dict[str, Any]) -> Board:
    provinces = {
        code: Province(code, kind, code in dp["centres"], None,
                       tuple(sorted(c for c in dp["coasts"] if c.startswith(code + "/"))),
                       {"en": {"name": code, "abbr": [code]}})
        for code, kind in dp["kinds"].items()
    }
    return Board(provinces, {}, {}, {}, frozenset([*provinces, *dp["coasts"]]), {},
                 tuple(sorted(dp["units"])), name)


def _inside(layout: Layout, point: tuple[float, float]) -> bool:
    return 0 <= point[0] <= layout.width and 0 <= point[1] <= layout.height


@pytest.fixture(scope="module", params=VARIANTS)
def case(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any], Layout, dict[str, Any]]:
    name = request.param
    dp = read_map(name)
    raw = _drawing(name)
    return name, dp, layout_from_json(raw, dp["kinds"]), raw


def test_the_shipped_variants_have_their_drawings() -> None:
    for name in ("ancmed", "1900", "modern", "youngstown", "chaos", "milan", "canton",
                 "crowded", "fiveman", "britain", "sengoku"):
        assert name in VARIANTS


def test_every_province_has_an_area_and_every_coast_its_anchor(case: Any) -> None:
    name, dp, layout, raw = case
    for code, kind in dp["kinds"].items():
        if kind == "impassable" and code not in raw["provinces"]:
            continue  # an impassable province the drawing does not label (canton's Nepal)
        assert layout.rings.get(code), f"{name}: {code} has no area"
        assert code in layout.anchors and code in layout.labels
    assert dp["coasts"] <= set(layout.coasts), name
    assert set(raw["provinces"]) <= set(dp["kinds"]), name
    # the supply centres' markers where DPjudge draws them (a centre it marks nowhere, as
    # fiveman's St Petersburg, gets one beside its unit)
    assert set(layout.centres) <= set(raw["provinces"]), name
    if layout.centres:  # a mapit drawing (chromatic) marks none: the renderer places them
        assert len(dp["centres"] - set(layout.centres)) <= 1, name


def test_every_point_stands_in_the_drawing(case: Any) -> None:
    name, _, layout, _ = case
    for table in (layout.anchors, layout.labels, layout.centres):
        for code, point in table.items():
            assert _inside(layout, point), f"{name}: {code} at {point}"
    for code, rings in layout.rings.items():
        for ring in rings:
            assert all(-0.5 <= x <= layout.width + 0.5 and -0.5 <= y <= layout.height + 0.5
                       for x, y in ring), f"{name}: {code} leaves the drawing"


def _within(rings: list[list[tuple[float, float]]], point: tuple[float, float]) -> bool:
    """Even-odd, as the SVG fills the paths; a point on the border line counts (1.5 px)."""
    x, y = point
    inside = False
    for ring in rings:
        for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                inside = not inside
            # distance to the edge, for points on the border line
            dx, dy = bx - ax, by - ay
            t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy or 1)))
            if (ax + t * dx - x) ** 2 + (ay + t * dy - y) ** 2 <= 1.5 ** 2:
                return True
    return inside


def test_every_unit_stands_in_its_province(case: Any) -> None:
    # DPjudge writes some labels beside their province (an island's in the sea): the unit
    # then stands inside the province
    name, _, layout, raw = case
    for code in raw["provinces"]:
        assert _within(layout.rings[code], layout.anchors[code]), f"{name}: {code}"


def test_neighbours_share_a_border(case: Any) -> None:
    # the areas form one coverage (identical vertices on common borders), so that the
    # renderer finds the border lines; some neighbours touch at a point only, across a strait
    # the drawing does not close, or (youngstown's) over a label's box: 84% there, 90-100%
    # on the others
    name, dp, layout, _ = case
    drawn = [e for e in dp["edges"] if all(c in layout.rings for c in e)]
    shared = [e for e in drawn if e in layout.borders]
    assert len(shared) >= 0.8 * len(drawn), f"{name}: {len(shared)} of {len(drawn)}"


def test_the_first_position_is_drawn(case: Any) -> None:
    name, dp, layout, raw = case
    board = _board(name, dp)
    home = {c: p for p, units in dp["units"].items() for u in units for c in [u.split()[1]]}
    snap = MapSnapshot.from_dict({
        "phase": "S1901M", "variant": name, "units": dp["units"],
        "centers": {p: [c for c, q in home.items() if q == p and c in dp["centres"]]
                    for p in dp["units"]},
        "orders": {p: [f"{u} H" for u in units[:1]] for p, units in dp["units"].items()},
    })
    svg = draw_svg(snap, layout, board)
    for code in raw["provinces"]:
        assert f'data-province="{code}"' in svg
    for power, units in dp["units"].items():
        for unit in units:
            assert f'data-unit="{unit}"' in svg, f"{name}: {unit}"
        assert power_colour(name, power) in svg
    assert 'class="credits"' in svg and "MIT licence" in svg
    for line in raw["credits"]:
        assert line.replace("&", "&amp;") in svg
    png = Image.open(io.BytesIO(render_png(svg)))
    assert png.size == (layout.width, layout.height)
    # land, sea and power colours, not one flat picture
    assert len(png.convert("RGB").getcolors(1 << 20) or []) > 20


def test_the_powers_of_a_map_get_distinct_colours() -> None:
    # the importer keeps the drawing's colours but gives a power whose colour another already
    # has (Chaos paints Berlin and Norway alike) one of its own
    chaos = tuple(sorted(set(_powers_of("chaos"))))
    colours = {power_colour("chaos", p) for p in chaos}
    assert len(chaos) > 30 and len(colours) == len(chaos)


def _powers_of(name: str) -> tuple[str, ...]:
    return tuple(sorted(m.group(1).upper() for line in _lines(LIBRARY / f"{name}.map")
                        if (m := _POWER.match(line))))
