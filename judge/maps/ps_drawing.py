"""A DPjudge map's PostScript drawing (``NAME.ps``) converted into the judge's ``drawing.json``.

Used by the variant importer and ``scripts/variant_drawings.py`` only, never by the server at run
time (the server reads the ``drawing.json`` this writes, with no extra dependency).

Why Ghostscript rather than reading the path operators here: a DPjudge ``.ps`` is a program, not
a list of shapes. Its outlines sit in procedures called through abbreviations (``m``/``l``/``c``
bound by ``ld``), under scalings (``.1429 .1429 x``), inside a form (``MapForm execform``) whose
matrix the paint procedure undoes, after a page set-up that rotates landscape drawings a quarter
turn; the thirty drawings do not all use the same procedure names (``OutlineChartBlack``,
``IncludeInternalBorders``, ``IncludeSeaBorders``...). Reading the operators would mean
re-implementing a PostScript interpreter's graphics state. Instead the drawing runs in
Ghostscript (Debian's ``gs``) with ``fill``, ``stroke``, ``rectfill`` and ``show`` redefined
before the file is read (so its ``ld``/``bind`` pick the redefinitions up): each prints its path,
flattened, in the map's own coordinates (the matrix in force after ``SwitchToMapMode``, so the
page's orientation falls away), with its colour; ``show`` prints the text drawn on the map (the
credits some drawings carry). The visible part of the map is ``SwitchToMapMode``'s clip. The older drawings made for George
Boyce's mapit (``chromatic.ps``, ``classical.ps``) have only ``DrawMap``, which leaves the map's
matrix in force: their paths are printed in device space and mapped back through it, and their
``Credits`` procedure (the texts only) is run too.

The drawing is lines, not one shape per province: coastlines are the edges of filled sea or
land shapes, borders and rivers separate strokes. All of them are noded together with the map's
frame and polygonized (Shapely); each face goes to the province whose label point (the ``% INFO``
header: where DPjudge puts the unit and, below it, the name) it holds. A face holding none is a
piece of a province cut off by a river or a connection arrow, merged into the neighbour it
shares most border with, or, when large, land or water drawn but not played (its colour is the
topmost fill under it). The provinces are then simplified together as a coverage (shared borders
keep identical vertices, which ``layout.shared_edges`` relies on) and scaled to pixels, y down.
"""

from __future__ import annotations

import math
import re
import subprocess
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import polygonize, polylabel, unary_union

# Redefinitions read before the drawing, so that its ``/f /fill ld`` and ``bind`` take them.
# Each prints "F|S b g r width" (the stack pops the colour backwards), the path in map
# coordinates ("M y x", "L y x", "Z": pathforall's stack pops the point backwards too), "E".
_HOOK = r"""
/_p { 20 string cvs print ( ) print } bind def
/MapCTM null def
/_emit {
  MapCTM null ne {
    print ( ) print currentrgbcolor _p _p _p currentlinewidth _p (\n) print
    gsave MapCTM setmatrix 0.2 setflat flattenpath
    { (M ) print _p _p (\n) print } { (L ) print _p _p (\n) print } { } { (Z\n) print }
    pathforall grestore (E\n) print
  } { pop } ifelse
} bind def
/fill { (F) _emit newpath } def
/eofill { (F) _emit newpath } def
/stroke { (S) _emit newpath } def
/rectfill {
  gsave newpath 4 -2 roll moveto dup 0 exch rlineto exch 0 rlineto neg 0 exch rlineto
  closepath (F) _emit grestore
} def
/TextCTM null def
/_text {
  MapCTM null ne TextCTM null ne or {
    currentpoint transform MapCTM null ne { MapCTM } { TextCTM } ifelse itransform
    (T ) print _p _p print (\n) print
  } { pop } ifelse
} bind def
/show { dup _text stringwidth rmoveto } def
/ashow { exch pop exch pop show } def
/widthshow { 4 1 roll pop pop pop show } def
/awidthshow { 6 1 roll pop pop pop pop pop show } def
"""
# What DPjudge's map program appends for an empty board, with the map's matrix recorded first.
_RUN = r"""
/SwitchToMapMode where { pop } { (MAPIT\n) print quit } ifelse
PageSetup SwitchToMapMode
/MapCTM matrix currentmatrix def
(CLIP ) print clippath MapCTM setmatrix pathbbox 4 { _p } repeat (\n) print
MapForm execform
/DrawOffBoardBoxes where { pop DrawOffBoardBoxes } if
quit
"""
# The older drawings (George Boyce's mapit: chromatic.ps) have ``DrawMap`` alone, which leaves
# the map's matrix in force when it ends: the paths are printed in device space, then the
# matrix, and mapped back to the map's coordinates here.
_RUN_MAPIT = r"""
/MapCTM matrix def
DrawMap
(CTM ) print matrix currentmatrix { _p } forall (\n) print
/MapCTM null def /TextCTM matrix def
/Credits where { pop { Credits } stopped pop } if
quit
"""

Point2 = tuple[float, float]
# the drawing's larger side in pixels (the standard board's is 1200), more (up to LARGEST) for a
# map whose provinces stand closer than SPACING pixels (youngstown's Europe is a corner of Asia)
TARGET = 1100
LARGEST = 1800
SPACING = 26.0
# simplification tolerance, in output pixels
TOLERANCE = 0.5
# a face without a label point larger than this share of the map is unplayed land or water;
# smaller ones are pieces of their neighbour (cut off by a river or an arrow)
UNPLAYED_SHARE = 0.002
# loose ends of lines this close to another line are joined to it (map units of a drawing 900
# wide, as dpmap's are, whose lines are about one wide; mapit's are ten times larger)
SNAP = 1.5
REFERENCE_SIDE = 900.0
# how far from its island (map units) an island's label may stand in the sea
ISLAND_REACH = 25.0
# the smallest share of the map an area standing for a province (whose label is elsewhere) has
MIN_AREA = 0.00002
LICENCE = "MIT licence, Copyright 2017 Manus Hand (DPjudge)"

_INFO = re.compile(r"^%\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s+(\S+)\s*(.*)$")
_SUPPLY = re.compile(r"^\s*/(\S+)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s+\w+\s*$")
_GREY = re.compile(r"^\s*/(\w+)\s+(\.?\d*\.?\d+)\s+g\s*$")
_RGB = re.compile(r"^\s*/(\w+)\s+(\.?\d*\.?\d+)\s+(\.?\d*\.?\d+)\s+(\.?\d*\.?\d+)\s+r\s*$")
_POWER = re.compile(r"^\s*/(\S+)\s+\((.*?)\)\s+/(\w+)\s+/(\w+)")


class PsDrawingError(ValueError):
    """The drawing cannot be converted (Ghostscript failed, or a province has no label)."""


@dataclass
class Trace:
    """What Ghostscript printed: the visible box, the painted paths and the texts."""

    clip: tuple[float, float, float, float]  # x0, y0, x1, y1 in map coordinates
    fills: list[tuple[tuple[float, float, float], list[list[Point2]]]] = field(default_factory=list)
    strokes: list[list[list[Point2]]] = field(default_factory=list)
    texts: list[tuple[Point2, str]] = field(default_factory=list)


def run_ghostscript(ps_text: str, gs: str = "gs", timeout: float = 120.0, run: str = _RUN) -> str:
    """The output of the drawing run with the hooks (the PostScript is read from stdin)."""
    program = _HOOK + "\n" + ps_text + "\n" + run
    try:
        done = subprocess.run(
            [gs, "-q", "-dNODISPLAY", "-dBATCH", "-dNOPAUSE", "-"],
            input=program.encode("latin-1", "replace"), capture_output=True, timeout=timeout,
            check=False,
        )
    except FileNotFoundError as exc:
        raise PsDrawingError(f"Ghostscript ({gs}) is not installed: apt-get install ghostscript") from exc
    out = done.stdout.decode("latin-1")
    if out.startswith("MAPIT") and "/DrawMap" in ps_text:
        return run_ghostscript(ps_text, gs, timeout, _RUN_MAPIT)
    if "/undefined in" in out.split("CLIP", 1)[0] or out.startswith("MAPIT"):
        raise PsDrawingError("the drawing is neither dpmap's (PageSetup, SwitchToMapMode, "
                             "MapForm) nor mapit's (DrawMap)")
    if done.returncode != 0 or not ("CLIP" in out or "CTM" in out) or "Error" in out:
        raise PsDrawingError(f"Ghostscript failed on the drawing: {(out + done.stderr.decode('latin-1'))[:300]}")
    return out


def parse_trace(out: str) -> Trace:
    trace = Trace((0.0, 0.0, 0.0, 0.0))
    seen = False
    matrix: list[float] = []
    kind = ""
    colour = (0.0, 0.0, 0.0)
    rings: list[list[Point2]] = []
    for line in out.splitlines():
        parts = line.split()
        if not parts:
            continue
        tag = parts[0]
        if tag == "CLIP":
            ury, urx, lly, llx = (float(v) for v in parts[1:5])
            trace.clip, seen = (llx, lly, urx, ury), True
        elif tag == "CTM":
            matrix, seen = [float(v) for v in parts[1:7]], True
        elif tag in ("F", "S") and len(parts) == 5:
            kind, rings = tag, []
            b, g, r = (float(v) for v in parts[1:4])
            colour = (r, g, b)
        elif tag == "M":
            rings.append([(float(parts[2]), float(parts[1]))])
        elif tag == "L" and rings:
            rings[-1].append((float(parts[2]), float(parts[1])))
        elif tag == "Z" and rings:
            rings[-1].append(rings[-1][0])
        elif tag == "E":
            if kind == "F":
                trace.fills.append((colour, rings))
            else:
                trace.strokes.append(rings)
        elif tag == "T" and len(parts) >= 3:
            text = line.split(None, 3)[3] if len(parts) > 3 else ""
            trace.texts.append(((float(parts[2]), float(parts[1])), text))
    if not seen:
        raise PsDrawingError("Ghostscript printed no map (no SwitchToMapMode clip, no DrawMap)")
    if matrix:
        _to_map(trace, matrix)
    return trace


def _to_map(trace: Trace, matrix: list[float]) -> None:
    """A mapit trace's device coordinates mapped back through the map's ``matrix``; its
    visible box is what the map paints."""
    a, b, c, d, e, f = matrix
    det = a * d - b * c

    def back(p: Point2) -> Point2:
        x, y = p[0] - e, p[1] - f
        return ((d * x - c * y) / det, (a * y - b * x) / det)

    trace.fills = [(colour, [[back(p) for p in ring] for ring in rings])
                   for colour, rings in trace.fills]
    trace.strokes = [[[back(p) for p in ring] for ring in rings] for rings in trace.strokes]
    trace.texts = [(back(p), text) for p, text in trace.texts]
    points = [p for _, rings in trace.fills for ring in rings for p in ring]
    points += [p for rings in trace.strokes for ring in rings for p in ring]
    if not points:
        raise PsDrawingError("the drawing's DrawMap paints nothing")
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    trace.clip = (min(xs), min(ys), max(xs), max(ys))


def _info_lines(ps_text: str) -> Iterator[re.Match[str]]:
    """The lines of the ``% INFO`` header, matched (x, y, code, name)."""
    inside = False
    for line in ps_text.splitlines():
        if line.startswith("% INFO"):
            inside = True
        elif line.startswith("% MAP") or (inside and not line.startswith("%")):
            return
        elif inside and (m := _INFO.match(line)):
            yield m


def label_points(ps_text: str) -> dict[str, Point2]:
    """``% INFO``: each province's (and split coast's) point, where DPjudge draws its unit."""
    return {
        m.group(3).upper(): (float(m.group(1)), float(m.group(2)))
        for m in _info_lines(ps_text)
    }


def info_names(ps_text: str) -> dict[str, str]:
    """``% INFO``: each point's name (``AND`` -> ``Andalusia``)."""
    return {m.group(3).upper(): m.group(4).strip() for m in _info_lines(ps_text)}


def _renamed(points: dict[str, Point2], info: dict[str, str], codes: Collection[str],
             names: Mapping[str, str]) -> dict[str, Point2]:
    """The label points under the ``.map``'s codes: a code the drawing lacks takes the point
    of the same name (and its split coasts)."""
    out = dict(points)
    by_name = {name.lower(): code for code, name in info.items() if "/" not in code}
    for code in codes:
        code = code.upper()
        if code in out or "/" in code:
            continue
        other = by_name.get(names.get(code, "").lower())
        if other is None or other in codes:
            continue
        for key, point in points.items():
            head, _, coast = key.partition("/")
            if head == other:
                out[code + ("/" + coast if coast else "")] = point
                out.pop(key, None)
    return out


def _block(ps_text: str, name: str) -> list[str]:
    lines = ps_text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"/{name} {{"):
            out = []
            for body in lines[i + 1:]:
                if body.startswith("}"):
                    break
                out.append(body)
            return out
    return []


def supply_points(ps_text: str) -> dict[str, Point2]:
    """``/VisitSupplies``: where each supply centre's marker is drawn."""
    return {m.group(1).upper(): (float(m.group(2)), float(m.group(3)))
            for line in _block(ps_text, "VisitSupplies") if (m := _SUPPLY.match(line))}


def credits_of(ps_text: str, trace: Trace) -> list[str]:
    """The drawing's own credits: its title and maker (DSC header) and the text on the map."""
    out: list[str] = []
    for line in ps_text.splitlines()[:20]:
        for key in ("%%Title:", "%%Creator:"):
            if line.startswith(key):
                out.append(line[len(key):].strip())
    # each text the drawing shows is a line of its credits (classical's five)
    out.extend(re.sub(r"\s+", " ", t.strip()) for _, t in trace.texts if t.strip())
    out.append(f"DPjudge map library, {LICENCE}")
    return out


def _lines(trace: Trace) -> list[LineString]:
    out: list[LineString] = []
    for rings in [r for _, r in trace.fills] + trace.strokes:
        for ring in rings:
            if len(ring) >= 2 and len(set(ring)) >= 2:
                out.append(LineString(ring))
    return out


def _close_gaps(network: Any, snap: float = SNAP) -> Any:
    """The network with each loose end joined to the nearest line within ``SNAP``.

    The drawings' borders are drawn a map unit wide and often stop a fraction of a unit short
    of the coast: seen, the areas are closed; as lines, they are not."""
    segments = list(getattr(network, "geoms", [network]))
    degree: dict[Point2, int] = defaultdict(int)
    for seg in segments:
        degree[seg.coords[0]] += 1
        degree[seg.coords[-1]] += 1
    tree = shapely.STRtree(segments)
    joins: list[LineString] = []
    for end, count in degree.items():
        if count != 1:
            continue
        here = Point(end)
        best, distance = None, snap
        for j in tree.query(here.buffer(snap)):
            seg = segments[int(j)]
            if end in (seg.coords[0], seg.coords[-1]):
                continue
            d = seg.distance(here)
            if d <= distance:
                best, distance = seg, d
        if best is not None and distance > 0:
            target = best.interpolate(best.project(here))
            # a little beyond the line, so that noding cuts it there (the nearest point
            # itself is off the line by a rounding error)
            over = 1 + 0.05 / distance
            joins.append(LineString([end, (end[0] + (target.x - end[0]) * over,
                                           end[1] + (target.y - end[1]) * over)]))
    return unary_union([network, *joins]) if joins else network


def _colour_at(point: Point, fills: list[tuple[tuple[float, float, float], Polygon]]) -> str:
    """``water`` or ``land``: the colour of the topmost fill under ``point``; ``blank`` where
    the drawing paints nothing (the page's corners around chromatic's round map)."""
    for colour, shape in reversed(fills):
        if shape.contains(point):
            r, g, b = colour
            return "water" if b > r + 0.1 else "land"
    return "blank"


def _unplayed(colour: str) -> str:
    return "water" if colour == "water" else "land"


def _fill_shapes(trace: Trace) -> list[tuple[tuple[float, float, float], Polygon]]:
    out = []
    for colour, rings in trace.fills:
        for ring in rings:
            if len(ring) >= 4:
                shape = shapely.make_valid(Polygon(ring))
                if not shape.is_empty and shape.area > 0:
                    out.append((colour, shape))
    return out


def drawing_from_ps(ps_text: str, codes: Collection[str], variant: str = "",
                    gs: str = "gs", *, names: Mapping[str, str] | None = None,
                    impassable: Collection[str] = (), seas: Collection[str] = (),
                    ) -> dict[str, Any]:
    """The ``drawing.json`` of the map drawn by ``ps_text`` for provinces ``codes`` (the
    ``.map``'s abbreviations; split coasts are read from the drawing's label points).

    A code the drawing labels otherwise (modern's Andalusia is ``ADL`` in the ``.map``, ``AND``
    in the drawing) is found by its English name in ``names`` (code -> name), as the
    drawing's ``% INFO`` header names each point. A province of ``impassable`` may have no
    label (canton's Nepal): it is left out and its area drawn as land not played. ``seas``
    (the sea provinces' codes), when given, tell a label standing in the wrong colour (on
    youngstown, Venice's is in the Adriatic) from its province's own: the province is then
    the nearest area of its colour that holds no label of its colour."""
    trace = parse_trace(run_ghostscript(ps_text, gs))
    points = _renamed(label_points(ps_text), info_names(ps_text), codes, names or {})
    blocked = {c.upper() for c in impassable}
    wanted = {c.upper() for c in codes if "/" not in c}
    missing = sorted(wanted - set(points) - blocked)
    if missing:
        raise PsDrawingError(f"the drawing has no label point for {', '.join(missing)}")
    wanted &= set(points)
    x0, y0, x1, y1 = trace.clip
    frame = box(x0, y0, x1, y1)
    lines = [g for g in (ln.intersection(frame) for ln in _lines(trace)) if not g.is_empty]
    # the tolerances in the drawing's own units
    size = max(x1 - x0, y1 - y0) / REFERENCE_SIDE
    network = _close_gaps(unary_union([*lines, frame.exterior]), SNAP * size)
    province_points = {c: p for c, p in points.items() if "/" not in c}
    fills = _fill_shapes(trace)
    faces = [f for f in polygonize(network) if f.area > 1e-6]
    water = {c.upper() for c in seas}
    owner, crowded = _owners(faces, province_points, wanted, fills, water, ISLAND_REACH * size)
    if crowded:
        # a face still holding several labels (a strait with no line across it, a border left
        # open) is cut between them, half way (Voronoi), and the network polygonized again
        cuts = _cuts(faces, crowded, province_points)
        faces = [f for f in polygonize(unary_union([network, *cuts])) if f.area > 1e-6]
        owner, crowded = _owners(faces, province_points, wanted, fills, water, ISLAND_REACH * size)
        if crowded:
            codes_left = sorted(c for cs in crowded.values() for c in cs)
            raise PsDrawingError(f"{', '.join(codes_left)} share areas of the drawing")
    total = frame.area
    unplayed: dict[int, str] = {}
    for i, face in enumerate(faces):
        if i not in owner and face.area > UNPLAYED_SHARE * total:
            unplayed[i] = "_" + _unplayed(_colour_at(face.representative_point(), fills))
    _merge_pieces(faces, owner, unplayed)
    groups: dict[str, list[Polygon]] = defaultdict(list)
    for i, face in enumerate(faces):
        name = owner.get(i) or unplayed.get(i)
        if name is None:
            continue
        if name not in wanted and not name.startswith("_"):
            name = "_" + _unplayed(_colour_at(face.representative_point(), fills))
        groups[name].append(face)
    shape_names = sorted(groups)
    merged = [unary_union(groups[n]) for n in shape_names]
    scale = _scale(trace.clip, [province_points[c] for c in wanted])
    simple = shapely.coverage_simplify(merged, TOLERANCE / scale)

    def to_px(p: Point2) -> Point2:
        return (round((p[0] - x0) * scale, 1), round((y1 - p[1]) * scale, 1))

    # whole pixels, every rounded coordinate inside
    width, height = math.ceil((x1 - x0) * scale - 0.01), math.ceil((y1 - y0) * scale - 0.01)
    paths = {n: _path(g, to_px) for n, g in zip(shape_names, simple, strict=True)}
    shapes_px = {n: affinity.affine_transform(g, [scale, 0, 0, -scale, -x0 * scale, y1 * scale])
                 for n, g in zip(shape_names, merged, strict=True)}
    centres = supply_points(ps_text)
    provinces: dict[str, Any] = {}
    for code in sorted(wanted):
        unit = _inside(to_px(province_points[code]), shapes_px.get(code))
        record: dict[str, Any] = {
            "path": paths.get(code, ""),
            "unit": list(unit),
            "label": list(_label(unit, shapes_px.get(code), width, height)),
        }
        if code in centres:
            record["centre"] = list(to_px(centres[code]))
        provinces[code] = record
    coasts = {c: list(to_px(p)) for c, p in sorted(points.items())
              if "/" in c and c.split("/", 1)[0] in wanted}
    return {
        "variant": variant,
        "source": (f"DPjudge's {variant or 'map'}.ps (the DPjudge map library, {LICENCE}), "
                   "converted by judge.maps.ps_drawing (scripts/variant_drawings.py); "
                   "do not edit by hand"),
        "credits": credits_of(ps_text, trace),
        "width": width,
        "height": height,
        "provinces": provinces,
        "coasts": coasts,
        "unplayed": {k: paths[f"_{k}"] for k in ("land", "water") if f"_{k}" in paths},
    }


def _holders(faces: list[Polygon], points: dict[str, Point2]) -> dict[int, list[str]]:
    tree = shapely.STRtree(faces)
    held: dict[int, list[str]] = defaultdict(list)
    for code, (px, py) in sorted(points.items()):
        here = Point(px, py)
        for i in tree.query(here, predicate="within"):
            held[int(i)].append(code)
            break
    return held


def _cuts(faces: list[Polygon], crowded: dict[int, list[str]],
          points: dict[str, Point2]) -> list[Any]:
    """The lines that share out each face holding several provinces' labels."""
    out: list[Any] = []
    for i, codes in crowded.items():
        face = faces[i]
        cells = shapely.voronoi_polygons(shapely.MultiPoint([points[c] for c in codes]),
                                         extend_to=face.envelope.buffer(1))
        for cell in cells.geoms:
            # a little beyond the face, so that noding cuts its border there
            edge = cell.exterior.intersection(face.buffer(0.05))
            if not edge.is_empty:
                out.append(edge)
    return out


def _owners(faces: list[Polygon], points: dict[str, Point2], wanted: set[str],
            fills: list[tuple[tuple[float, float, float], Polygon]], seas: set[str],
            reach: float = ISLAND_REACH) -> tuple[dict[int, str], dict[int, list[str]]]:
    """Each face's province, and the faces left holding several provinces' labels.

    An island's label often stands in the sea beside it (DPjudge writes it there in white):
    a face holding several labels first gives each nearby face of the other colour (land in
    the sea, sea in the land) that holds no label to the label nearest it."""
    held = _holders(faces, points)
    tree = shapely.STRtree(faces)
    colour: dict[int, str] = {}
    # slivers left between nearly identical lines are never a province's own area
    least = MIN_AREA * sum(f.area for f in faces)

    def colour_of(i: int) -> str:
        if i not in colour:
            colour[i] = _colour_at(faces[i].representative_point(), fills)
        return colour[i]

    owner: dict[int, str] = {}
    crowded: dict[int, list[str]] = {}
    if seas:
        held = _placed(faces, held, points, wanted, seas, colour_of, tree, least, fills, reach)
    for i, codes in sorted(held.items()):
        ours = [c for c in codes if c in wanted] or codes[:1]
        if len(ours) > 1:
            near = [int(j) for j in tree.query(faces[i].buffer(reach))
                    if int(j) not in held and int(j) not in owner
                    and faces[int(j)].area >= least and colour_of(int(j)) != colour_of(i)]
            for j in sorted(near, key=lambda j: -faces[j].area):
                if len(ours) < 2:
                    break
                # with the seas known, land goes to land provinces only (Sicily, not played,
                # lies between the Tyrrhenian and Ionian seas' labels)
                fit = [c for c in ours if not seas or (c in seas) == (colour_of(j) == "water")]
                if not fit:
                    continue
                code = min(fit, key=lambda c: faces[j].distance(Point(points[c])))
                if faces[j].distance(Point(points[code])) <= reach:
                    owner[j] = code
                    ours.remove(code)
        if len(ours) == 1:
            owner[i] = ours[0]
        else:
            crowded[i] = ours
    return owner, crowded


def _placed(faces: list[Polygon], held: dict[int, list[str]], points: dict[str, Point2],
            wanted: set[str], seas: set[str], colour_of: Callable[[int], str],
            tree: Any, least: float, fills: list[tuple[tuple[float, float, float], Polygon]],
            reach: float = ISLAND_REACH) -> dict[int, list[str]]:
    """``held`` with each label standing in the wrong colour moved to its province's area:
    the nearest one of its colour (within ``ISLAND_REACH``) that holds no label of its
    colour; a label with no such area stays where it is."""
    expected = {c: "water" if c in seas else "land" for c in wanted}
    out: dict[int, list[str]] = defaultdict(list)
    strays: list[tuple[int, str]] = []
    for i, codes in held.items():
        for code in codes:
            if code in expected and _colour_at(Point(points[code]), fills) != expected[code]:
                strays.append((i, code))
            else:
                out[i].append(code)
    for i, code in strays:
        here = Point(points[code])
        free = [int(j) for j in tree.query(here.buffer(reach))
                if faces[int(j)].area >= least and colour_of(int(j)) == expected[code]
                and not any(c in wanted for c in out.get(int(j), []))]
        if free:
            j = min(free, key=lambda j: (faces[j].distance(here), -faces[j].area))
            out[j].append(code)
        else:
            out[i].append(code)
    return dict(out)


def _scale(clip: tuple[float, float, float, float], points: list[Point2]) -> float:
    """Pixels per map unit: the drawing TARGET wide, or wider (up to LARGEST) until nine
    labels in ten stand SPACING pixels or more from their nearest neighbour (units are 22
    wide, names 10 high)."""
    x0, y0, x1, y1 = clip
    side = max(x1 - x0, y1 - y0)
    nearest = sorted(
        min(((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5 for q in points if q != p)
        for p in points
    ) if len(points) > 1 else []
    tight = nearest[len(nearest) // 10] if nearest else side
    # rounded down: the TARGET stays the size in whole pixels
    return math.floor(min(max(TARGET / side, SPACING / max(tight, 1e-6)), LARGEST / side) * 1e4) / 1e4


def _merge_pieces(faces: list[Polygon], owner: dict[int, str], unplayed: dict[int, str]) -> None:
    """Give each unnamed small face to the named neighbour it shares most border with."""
    named = {**owner, **unplayed}
    tree = shapely.STRtree(faces)
    pending = [i for i in range(len(faces)) if i not in named]
    while pending:
        left: list[int] = []
        for i in pending:
            best, length = None, 0.0
            for j in tree.query(faces[i]):
                j = int(j)
                if j == i or j not in named:
                    continue
                shared = faces[i].boundary.intersection(faces[j].boundary).length
                if shared > length:
                    best, length = j, shared
            if best is None:
                left.append(i)
            elif best in owner:
                owner[i] = owner[best]
                named[i] = owner[best]
            else:
                unplayed[i] = unplayed[best]
                named[i] = unplayed[best]
        if len(left) == len(pending):
            break  # islands of unnamed faces with no named neighbour stay undrawn
        pending = left


def _inside(point: Point2, shape: Any) -> Point2:
    """Where the unit stands: DPjudge's point, or, when that lies outside the province (an
    island's, written in the sea beside it; youngstown's Venice, in the Adriatic), the point
    of the province farthest from its borders."""
    if shape is None or shape.is_empty or shape.buffer(1.0).contains(Point(point)):
        return point
    parts = shape.geoms if isinstance(shape, MultiPolygon) else [shape]
    largest = max(parts, key=lambda g: g.area)
    centre = polylabel(largest, tolerance=0.5)
    return (round(centre.x, 1), round(centre.y, 1))


def _label(unit: Point2, shape: Any, width: int, height: int) -> Point2:
    """Where the name stands: below the unit, as DPjudge writes it, else above, else on it."""
    for dy in (19.0, -19.0):
        x, y = unit[0], unit[1] + dy
        if 0 <= y <= height and (shape is None or shape.contains(Point(x, y))):
            return (round(x, 1), round(y, 1))
    return unit


def _rings(geometry: Any) -> Iterable[Any]:
    polygons = geometry.geoms if isinstance(geometry, MultiPolygon) else [geometry]
    for polygon in polygons:
        if isinstance(polygon, Polygon) and not polygon.is_empty:
            yield polygon.exterior
            yield from polygon.interiors


def _path(geometry: Any, to_px: Any) -> str:
    out: list[str] = []
    for ring in _rings(geometry):
        pts: list[Point2] = []
        for p in ring.coords[:-1]:
            q = to_px(p)
            if not pts or pts[-1] != q:
                pts.append(q)
        if len(pts) >= 3:
            out.append("M" + "L".join(f"{x:g},{y:g}" for x, y in pts) + "Z")
    return "".join(out)


def drawing_for_map(ps_text: str, map_json: Mapping[str, Any], variant: str = "",
                    gs: str = "gs") -> dict[str, Any]:
    """``drawing_from_ps`` for the provinces of a variant's ``map.json`` (as ``judge variants
    import --drawing`` and ``scripts/variant_drawings.py`` have it): its codes, their English
    names, its impassable provinces and its seas."""
    provinces = map_json["provinces"]
    records = [p for p in (provinces.values() if isinstance(provinces, dict) else provinces)
               if not p.get("parent")]
    codes = sorted(str(p["code"]).upper() for p in records)
    names = {str(p["code"]).upper(): str(p.get("names", {}).get("en", {}).get("name", ""))
             for p in records}
    shut = [str(p["code"]).upper() for p in records if p.get("type") == "impassable"]
    seas = [str(p["code"]).upper() for p in records if p.get("type") == "sea"]
    return drawing_from_ps(ps_text, codes, variant, gs, names=names, impassable=shut, seas=seas)
