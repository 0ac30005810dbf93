"""Generate ``judge/variants/standard/drawing.json`` (the board's drawing) from Natural Earth data.

Run by hand, never at run time or in CI; only its output is committed. It needs Shapely (the
``maps`` extra: ``pip install -e '.[maps]'``) and the public-domain Natural Earth 1:50m countries
that the npm package ``world-atlas`` ships as TopoJSON::

    cd /tmp && npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    python scripts/map_drawing.py /tmp/package/countries-50m.json
    python scripts/map_drawing.py --pure       # the abstract Pure board (no data needed)

How the standard board is made:
  1. every country is projected (Lambert conformal conic over Europe, then a gentle magnifier
     on central Europe, as the classic board enlarges it) and clipped to the board's frame;
  2. each country is given to the provinces that may own part of it (``COUNTRIES``), so the
     classic board's borders that follow real ones (Spain and Portugal, Norway and Sweden...)
     are the real ones; a country given to several provinces is split among them by the
     nearest of their hand-placed seeds (``SEEDS``, lon/lat), which also split the sea;
  3. small islands, countries no province owns (Ireland, Iceland, Africa beyond Tunis...) and
     parts given to ``_off`` are drawn as land that is not played; ``FILLS`` close the straits
     the board closes (the Danish belts and the Sound, the Sea of Marmara);
  4. the pieces are noded into one planar coverage, simplified together (shared borders stay
     shared), rounded, and written with unit, coast, label and centre anchors.
tests/maps/test_drawing.py then checks the result against the map graph (borders iff adjacent).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import polygonize, polylabel, unary_union

ROOT = Path(__file__).resolve().parent.parent
LonLat = tuple[float, float]

# --- projection -------------------------------------------------------------------------------
PHI1, PHI2, PHI0, LAM0 = math.radians(40), math.radians(62), math.radians(52), math.radians(14)
_N = math.log(math.cos(PHI1) / math.cos(PHI2)) / math.log(
    math.tan(math.pi / 4 + PHI2 / 2) / math.tan(math.pi / 4 + PHI1 / 2)
)
_F = math.cos(PHI1) * math.tan(math.pi / 4 + PHI1 / 2) ** _N / _N
_RHO0 = _F / math.tan(math.pi / 4 + PHI0 / 2) ** _N
# the magnifier: distances from CENTRE (lon/lat) grow by up to MAGNIFY near it, fading with RADIUS
CENTRE: LonLat = (9.0, 49.0)
MAGNIFY, RADIUS = 0.9, 0.38


def _lcc(lon: float, lat: float) -> tuple[float, float]:
    lam, phi = math.radians(lon), math.radians(max(min(lat, 89.0), -89.0))
    rho = _F / math.tan(math.pi / 4 + phi / 2) ** _N
    return rho * math.sin(_N * (lam - LAM0)), -(_RHO0 - rho * math.cos(_N * (lam - LAM0)))


_CX, _CY = _lcc(*CENTRE)


# a second, smaller one on Britain, which the board draws larger than life
BRITAIN: LonLat = (-2.5, 54.5)
MAGNIFY_GB, RADIUS_GB = 0.6, 0.07


def _magnify(x: float, y: float, cx: float, cy: float, m: float, radius: float) -> tuple[float, float]:
    # injective while m < 2.2: the radial map r -> r(1 + m exp(-(r/R)^2)) keeps increasing
    dx, dy = x - cx, y - cy
    k = 1 + m * math.exp(-((math.hypot(dx, dy) / radius) ** 2))
    return cx + dx * k, cy + dy * k


def project(lon: float, lat: float) -> tuple[float, float]:
    """Board coordinates before scaling (y grows southwards, as in SVG)."""
    x, y = _magnify(*_lcc(lon, lat), _CX, _CY, MAGNIFY, RADIUS)
    bx, by = _magnify(*_lcc(*BRITAIN), _CX, _CY, MAGNIFY, RADIUS)
    return _magnify(x, y, bx, by, MAGNIFY_GB, RADIUS_GB)


# the frame, in lon/lat of its corners' sides: west, east, north, south (projected box around them)
FRAME_POINTS: list[LonLat] = [(-19.0, 52.0), (46.0, 45.0), (25.0, 72.5), (5.0, 30.5), (40.0, 31.0), (-17.0, 38.0)]
WIDTH = 1200

# --- who owns which country -------------------------------------------------------------------
COUNTRIES: dict[str, list[str]] = {
    "United Kingdom": ["CLY", "EDI", "LVP", "YOR", "WAL", "LON"],
    "Norway": ["NWY"],
    "Sweden": ["SWE"],
    "Finland": ["FIN"],
    "Denmark": ["DEN"],
    "Netherlands": ["HOL"],
    "Belgium": ["BEL"],
    "Luxembourg": ["BUR"],
    "France": ["BRE", "PIC", "PAR", "BUR", "GAS", "MAR"],
    "Monaco": ["MAR"],
    "Spain": ["SPA"],
    "Andorra": ["SPA"],
    "Portugal": ["POR"],
    "Switzerland": ["SWI"],
    "Liechtenstein": ["SWI"],
    "Germany": ["KIE", "BER", "RUH", "MUN"],
    "Poland": ["BER", "PRU", "SIL", "WAR", "GAL"],
    "Czechia": ["BOH"],
    "Austria": ["VIE", "TYR"],
    "Italy": ["PIE", "VEN", "TUS", "ROM", "NAP", "APU", "TYR"],
    "San Marino": ["VEN"],
    "Vatican": ["ROM"],
    "Slovenia": ["TRI"],
    "Croatia": ["TRI"],
    "Bosnia and Herz.": ["TRI"],
    "Montenegro": ["ALB"],
    "Albania": ["ALB"],
    "Serbia": ["SER", "BUD"],
    "Kosovo": ["SER"],
    "Macedonia": ["SER"],
    "Greece": ["GRE", "BUL"],  # Western Thrace: Bulgaria's south coast on the board
    "Bulgaria": ["BUL"],
    "Hungary": ["BUD"],
    "Slovakia": ["VIE", "BUD"],
    "Romania": ["RUM", "BUD"],
    "Moldova": ["RUM"],
    "Ukraine": ["GAL", "UKR", "SEV", "BUD", "RUM"],
    "Belarus": ["WAR", "MOS", "LVN"],
    "Lithuania": ["LVN"],
    "Latvia": ["LVN"],
    "Estonia": ["LVN"],
    "Russia": ["STP", "MOS", "SEV", "LVN", "PRU", "UKR", "_off"],
    "Georgia": ["ARM"],
    "Armenia": ["ARM"],
    "Turkey": ["CON", "ANK", "SMY", "ARM", "SYR"],
    "Syria": ["SYR", "_off"],
    "Lebanon": ["SYR"],
    "Morocco": ["NAF", "_off"],
    "Algeria": ["NAF", "_off"],
    "Tunisia": ["TUN"],
}
# island parts kept (a point inside each); every other part but a country's largest is unplayed
KEEP_PARTS: list[LonLat] = [
    (14.0, 37.5),  # Sicily (Naples)
    (11.8, 55.4),  # Zealand (Denmark)
    (10.4, 55.3),  # Funen (Denmark)
    (27.0, 41.4),  # Thrace (Constantinople)
    (21.0, 54.8),  # Kaliningrad (Prussia)
    (23.0, 37.5),  # the Peloponnese, if cut off
    (23.8, 38.6),  # Euboea (Greece)
    (11.4, 54.8), (11.95, 54.8), (12.3, 54.98),  # Lolland, Falster, Mon (Denmark)
    (13.4, 54.45), (11.15, 54.45),  # Ruegen, Fehmarn (Germany)
    (-1.3, 50.68),  # the Isle of Wight (London)
    (-4.35, 53.27), (-1.3, 60.3), (-3.1, 58.98),  # Anglesey, Shetland, Orkney
    (-6.2, 57.3), (-6.6, 58.2), (-5.9, 56.45), (-6.2, 55.8),  # Skye, Lewis, Mull, Islay (Clyde)
]
# countries whose other islands are all unplayed (Corsica, Sardinia, Crete, the Balearics...);
# elsewhere an island of at least 0.1 square degrees belongs to the provinces around it
MAIN_ONLY = {"France", "Italy", "Spain", "Greece", "Turkey", "United Kingdom"}  # UK: Ulster
# straits the board closes, given to the province that bridges them (lon/lat rings)
FILLS: dict[str, list[LonLat]] = {
    # the Little and Great Belts and the Sound: Denmark one block touching Sweden (army DEN-SWE)
    "DEN": [(9.55, 55.2), (9.7, 55.75), (10.6, 55.75), (11.2, 55.95), (12.3, 56.12), (12.75, 56.2),
            (13.2, 56.1), (13.2, 55.8), (12.6, 55.5), (12.2, 55.0), (11.0, 54.85), (10.0, 54.9)],
    # the Sea of Marmara and its straits: Constantinople holds both shores (no BLA-AEG border)
    "CON": [(26.1, 40.1), (26.7, 40.0), (27.5, 40.25), (29.95, 40.35), (29.95, 40.95),
            (29.25, 41.3), (28.95, 41.3), (28.85, 41.0), (27.0, 41.0), (26.4, 40.65)],
}

# seeds: each province (and ``_off``, unplayed land) gets the parts of its countries (or of the
# sea) nearest to one of its seeds
SEEDS: dict[str, list[LonLat]] = {
    # Britain
    "CLY": [(-4.4, 57.2), (-5.0, 57.6), (-4.6, 56.3), (-4.7, 58.4)],
    "EDI": [(-3.5, 57.4), (-3.2, 56.0), (-2.9, 57.2), (-3.6, 58.4), (-2.5, 55.6)],
    "LVP": [(-2.9, 53.6), (-3.0, 54.6), (-4.5, 55.1)],
    "YOR": [(-1.2, 53.9), (-1.7, 54.9), (-1.2, 53.0), (-2.0, 55.4)],
    "WAL": [(-3.8, 52.2), (-3.3, 51.7), (-2.5, 52.6), (-4.5, 50.5)],
    "LON": [(-0.3, 51.5), (1.0, 51.2), (-1.3, 50.9)],
    # France and the Low Countries
    "BRE": [(-3.0, 48.2), (-1.5, 48.0)],
    "PIC": [(2.3, 50.0), (0.8, 49.6)],
    "PAR": [(2.3, 48.6), (1.0, 47.3)],
    "BUR": [(5.0, 47.3), (6.3, 48.5), (4.5, 46.3), (4.8, 49.2)],
    "GAS": [(-0.5, 44.5), (0.5, 45.8), (0.5, 43.3)],
    "MAR": [(5.4, 43.8), (4.6, 45.2), (2.6, 43.0), (6.8, 44.3)],
    # Germany and Poland
    "KIE": [(9.8, 54.0), (8.6, 53.0), (10.2, 52.5)],
    "RUH": [(7.1, 51.3), (7.0, 50.2), (7.3, 49.5)],
    "MUN": [(11.5, 48.2), (9.0, 48.6), (10.5, 49.9), (12.3, 50.9)],
    "BER": [(13.4, 52.5), (12.5, 53.5), (14.6, 53.4)],
    "PRU": [(18.5, 54.0), (20.7, 54.6), (16.8, 53.9)],
    "SIL": [(17.0, 51.1), (15.5, 51.6), (17.9, 50.6)],
    "WAR": [(21.0, 52.2), (22.7, 51.2), (19.8, 52.7), (24.5, 52.3)],
    "GAL": [(19.0, 49.8), (20.3, 49.9), (22.8, 49.8), (24.3, 49.6), (25.9, 48.6)],
    # Austria-Hungary
    "BOH": [(14.4, 50.0), (16.5, 49.5)],
    "VIE": [(16.4, 48.2), (15.7, 47.1), (18.5, 49.1), (17.8, 48.4)],
    "TYR": [(11.4, 47.3), (13.3, 46.8), (11.2, 46.4), (9.8, 46.4), (13.5, 47.6), (14.0, 48.3)],
    "TRI": [(14.5, 45.8), (16.0, 45.0), (17.8, 44.0), (16.2, 43.5)],
    "BUD": [(19.0, 47.5), (21.5, 48.6), (20.5, 48.8), (23.6, 46.8), (21.8, 46.0), (19.8, 45.4), (23.5, 48.3)],
    # Italy
    "PIE": [(7.7, 45.1), (8.9, 45.4), (8.7, 44.4)],
    "VEN": [(13.2, 45.9), (12.0, 45.5), (11.0, 44.7), (13.0, 43.5), (10.3, 45.3)],
    "TUS": [(11.1, 43.4), (10.2, 44.0)],
    "ROM": [(12.5, 41.9), (12.9, 42.6)],
    "APU": [(16.5, 40.9), (15.4, 41.6), (14.3, 42.2), (17.9, 40.4)],
    "NAP": [(14.5, 40.8), (16.3, 39.0), (14.0, 37.6), (15.6, 40.2)],
    # the Balkans
    "ALB": [(19.9, 41.2), (19.3, 42.6)],
    "SER": [(20.8, 43.8), (21.4, 42.0), (20.9, 42.6)],
    "GRE": [(22.5, 39.5), (22.0, 37.5), (23.5, 38.3)],
    "BUL": [(25.0, 42.6), (25.5, 41.1)],
    "RUM": [(26.1, 44.4), (27.3, 46.6), (28.8, 45.1), (28.5, 47.0), (24.0, 44.6)],
    # Russia
    "UKR": [(30.5, 50.4), (33.0, 49.0), (35.5, 50.2), (28.5, 49.4), (38.0, 51.0)],
    "SEV": [(30.7, 46.6), (33.3, 46.6), (34.2, 45.0), (37.5, 47.2), (40.5, 46.5), (43.5, 44.5), (45.0, 47.5)],
    "MOS": [(37.6, 55.7), (40.5, 53.0), (44.0, 54.5), (32.0, 54.3), (36.0, 58.0), (29.5, 53.0),
            (47.0, 57.0), (44.5, 50.5)],
    "STP": [(30.3, 59.9), (33.5, 62.5), (40.5, 64.5), (35.0, 67.8), (46.0, 62.5), (30.5, 66.0)],
    "LVN": [(24.5, 56.9), (25.0, 58.8), (23.8, 55.0), (27.5, 55.8)],
    # Turkey and the east
    "CON": [(28.9, 41.0), (27.0, 41.4), (29.5, 40.2), (27.5, 40.2)],
    "ANK": [(32.8, 39.9), (34.0, 41.2), (31.0, 40.9), (36.5, 40.8)],
    "SMY": [(27.3, 38.4), (30.0, 37.8), (33.0, 37.3), (35.5, 37.4), (29.5, 39.2)],
    "ARM": [(40.0, 40.0), (41.5, 39.0), (43.5, 40.0), (38.5, 38.8), (42.8, 41.9), (44.5, 40.2)],
    "SYR": [(36.5, 36.3), (36.3, 34.5), (37.5, 36.8)],
    # Scandinavia
    "NWY": [(10.0, 61.0)],
    "SWE": [(16.0, 60.0)],
    "FIN": [(26.0, 63.0)],
    "DEN": [(9.5, 56.0)],
    # Africa
    "NAF": [(-6.0, 34.0), (0.0, 35.0), (5.0, 36.0), (-3.0, 32.5)],
    "TUN": [(9.5, 35.5)],
    "SWI": [(8.2, 46.8)],
    "HOL": [(5.5, 52.2)],
    "BEL": [(4.5, 50.7)],
    "SPA": [(-3.7, 40.4)],
    "POR": [(-8.0, 39.5)],
    "_off": [(-2.0, 28.0), (5.0, 29.0), (10.0, 31.0), (40.0, 34.0), (45.0, 34.5),
             (38.0, 33.0)],
    # seas
    "NAO": [(-6.2, 55.5), (-5.8, 56.3), (-6.5, 57.5), (-20.0, 57.0), (-14.0, 55.5), (-25.0, 62.0), (-10.0, 56.5), (-17.0, 52.5)],
    "NWG": [(0.0, 66.0), (-6.0, 62.0), (5.0, 62.5), (6.0, 65.0), (-5.0, 59.2), (0.5, 61.5), (10.0, 69.0)],
    "BAR": [(50.0, 69.5), (55.0, 71.0), (35.0, 72.0), (25.0, 72.5), (39.0, 66.0), (45.0, 71.0), (20.0, 72.5)],
    "NTH": [(3.0, 56.0), (2.5, 54.0), (5.0, 58.0), (3.2, 52.2), (0.0, 56.5), (7.0, 56.3), (4.5, 60.5), (-2.0, 56.2), (-3.0, 56.05), (-2.0, 57.6), (0.5, 54.0)],
    "ENG": [(-3.0, 49.8), (0.0, 50.2), (-5.8, 49.4), (1.5, 50.8)],
    "IRI": [(-3.8, 54.75), (-4.3, 54.2), (-5.0, 53.5), (-5.6, 52.0), (-8.0, 50.8), (-10.5, 51.0)],
    "MAO": [(-12.0, 45.0), (-7.0, 46.5), (-15.0, 38.0), (-11.0, 40.0), (-9.0, 35.0), (-6.7, 36.3),
            (-4.0, 44.5), (-18.0, 42.0), (-9.0, 48.5), (-14.0, 48.0)],
    "WES": [(-3.5, 36.1), (2.0, 38.5), (5.0, 38.0), (8.0, 37.6)],
    "LYO": [(4.5, 42.5), (8.7, 43.6), (6.5, 42.0)],
    "TYS": [(12.0, 40.0), (11.0, 42.0), (13.5, 39.0), (10.5, 38.5)],
    "ION": [(18.0, 37.0), (21.5, 35.5), (15.0, 34.5), (17.5, 39.5), (12.5, 34.5), (19.2, 39.5)],
    "ADR": [(15.0, 43.0), (17.0, 42.0), (13.3, 44.5)],
    "AEG": [(25.0, 39.0), (25.0, 37.2), (24.5, 40.5), (27.0, 36.6)],
    "EAS": [(31.0, 34.5), (28.5, 35.0), (25.5, 33.8), (34.0, 35.8)],
    "BLA": [(34.0, 43.0), (31.0, 43.5), (38.0, 43.0), (30.5, 45.0), (36.5, 46.0), (29.3, 42.5)],
    "BAL": [(18.0, 55.5), (20.0, 57.0), (14.5, 55.0), (11.2, 54.6), (13.5, 55.0), (10.1, 54.75), (22.0, 58.0),
            (23.5, 57.5)],
    "BOT": [(20.0, 62.5), (22.0, 64.5), (20.0, 60.4), (26.0, 60.0), (23.0, 59.5)],
    "SKA": [(11.4, 57.3), (8.5, 58.0), (10.9, 56.5), (12.3, 56.6)],
    "HEL": [(7.8, 54.1), (8.2, 54.6), (9.0, 53.9)],
}
SEAS = {"NAO", "NWG", "BAR", "NTH", "ENG", "IRI", "MAO", "WES", "LYO", "TYS", "ION", "ADR", "AEG",
        "EAS", "BLA", "BAL", "BOT", "SKA", "HEL"}

# unit, coast and label anchors (lon/lat) where the computed ones are not where players look
ANCHORS: dict[str, LonLat] = {
    # the seas' fleets stand where the board has them, near the coasts they serve
    "NWG": (3.0, 64.0),
    "ION": (18.5, 36.8),
    "NAO": (-15.0, 55.0),
    "MAO": (-11.0, 44.5),
    "BAR": (38.0, 71.0),
    "EAS": (30.0, 34.2),
    # Russia's provinces run off the board's edge: their units stand near their cities
    "MOS": (37.0, 55.2),
    "STP": (34.0, 62.8),
    "SEV": (38.5, 47.6),
    "UKR": (31.5, 49.6),
    "ARM": (41.0, 40.0),
    "NAP": (15.4, 40.5),
    "STP/NC": (38.0, 68.2),
    "STP/SC": (29.0, 60.3),
    "SPA/NC": (-5.5, 43.2),
    "SPA/SC": (-2.5, 37.0),
    "BUL/EC": (27.6, 42.8),
    "BUL/SC": (25.3, 41.3),
}


WORLD = box(-40, 20, 70, 80)  # lon/lat: all that the frame can show


def _topology(path: Path) -> list[tuple[str, Any]]:
    """(country name, shapely geometry in lon/lat) for every country of a TopoJSON file."""
    topo = json.loads(path.read_text("utf-8"))
    sx, sy = topo["transform"]["scale"]
    tx, ty = topo["transform"]["translate"]
    arcs: list[list[tuple[float, float]]] = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(indexes: list[int]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for i in indexes:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        if max(x for x, _ in out) - min(x for x, _ in out) > 180:
            # a ring across the antimeridian (Russia's far east): one side shifted by a turn
            out = [(x + 360 if x < 0 else x, y) for x, y in out]
        return out

    result = []
    for geo in topo["objects"]["countries"]["geometries"]:
        if geo["type"] == "Polygon":
            polys = [geo["arcs"]]
        elif geo["type"] == "MultiPolygon":
            polys = geo["arcs"]
        else:
            continue
        # each part is clipped to Europe on its own: Russia's far east crosses the antimeridian
        shapes = [shapely.make_valid(Polygon(ring(p[0]), [ring(h) for h in p[1:]])).intersection(WORLD)
                  for p in polys]
        result.append((geo["properties"]["name"], unary_union(shapes)))
    return result


def _projected(geom: Any, scale: tuple[float, float, float]) -> Any:
    k, ox, oy = scale

    def f(coords: Any) -> Any:
        out = []
        for lon, lat in coords:
            x, y = project(lon, lat)
            out.append(((x - ox) * k, (y - oy) * k))
        return out

    return shapely.transform(geom, lambda a: __import__("numpy").array(f(a)))


def _scale() -> tuple[float, float, float, float]:
    """(pixels per projected unit, x offset, y offset, height) of the frame."""
    xs, ys = zip(*(project(lon, lat) for lon, lat in FRAME_POINTS), strict=True)
    k = WIDTH / (max(xs) - min(xs))
    return k, min(xs), min(ys), (max(ys) - min(ys)) * k


def _pt(lonlat: LonLat, scale: tuple[float, float, float]) -> tuple[float, float]:
    x, y = project(*lonlat)
    return ((x - scale[1]) * scale[0], (y - scale[2]) * scale[0])


def _nearest(owners: list[str], p: Point, seeds: dict[str, list[tuple[float, float]]]) -> str:
    best, dist = owners[0], math.inf
    for owner in owners:
        for sx, sy in seeds.get(owner, []):
            d = (sx - p.x) ** 2 + (sy - p.y) ** 2
            if d < dist:
                best, dist = owner, d
    return best


def build_standard(data: Path) -> dict[str, Any]:
    k, ox, oy, height = _scale()
    height = round(height)
    sc = (k, ox, oy)
    frame = box(0, 0, WIDTH, height)
    seeds = {o: [_pt(s, sc) for s in pts] for o, pts in SEEDS.items()}
    countries = _topology(data)
    zones: list[tuple[Any, list[str]]] = []  # (projected geometry, owners)
    land_ll = unary_union([g for _, g in countries if g.intersects(WORLD)])
    for name, geom in countries:
        if geom.is_empty:
            continue
        owners = COUNTRIES.get(name, ["_off"])
        parts = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
        largest = max(parts, key=lambda g: g.area)
        kept, unplayed = [], []
        for part in parts:
            if part.area < 0.004:
                continue  # islets under ~25 km2 are not drawn (they are sea)
            keep = (
                part is largest
                or any(part.contains(Point(p)) for p in KEEP_PARTS)
                or (part.area >= 0.1 and name not in MAIN_ONLY)
            )
            (kept if keep else unplayed).append(part)
        for group, who in ((kept, owners), (unplayed, ["_off"])):
            if group:
                g = shapely.make_valid(_projected(unary_union(group), sc)).intersection(frame)
                if not g.is_empty:
                    zones.append((g, who))
    for owner, ring in FILLS.items():
        fill = Polygon(ring).difference(land_ll)
        zones.append((_projected(fill, sc).intersection(frame), [owner]))
    land = unary_union([z for z, _ in zones])
    sea = frame.difference(land)
    zones.append((sea, sorted(SEAS)))
    # the dividing lines: every zone's outline and the seeds' Voronoi edges inside it
    lines = [frame.boundary] + [z.boundary for z, _ in zones]
    for zone, owners in zones:
        pts = [p for o in owners for p in seeds.get(o, [])]
        if len(set(owners)) < 2 or len(pts) < 2:
            continue
        cells = shapely.voronoi_polygons(shapely.MultiPoint(pts), extend_to=frame)
        edges = unary_union([c.boundary for c in cells.geoms])
        lines.append(edges.intersection(zone))
    noded = unary_union(lines)
    faces = list(polygonize(noded))
    owned: dict[str, list[Any]] = defaultdict(list)
    zone_tree = shapely.STRtree([z for z, _ in zones])
    for face in faces:
        if face.area < 1e-6:
            continue
        p = face.representative_point()
        hits = [i for i in zone_tree.query(p) if zones[i][0].contains(p)]
        if not hits:
            owned["_off"].append(face)
            continue
        owners = zones[hits[0]][1]
        if owners == sorted(SEAS):
            # a sea with no seed in reach is a lake: drawn as water, not played
            owner = _nearest(owners, p, seeds)
            comp = next(g for g in (sea.geoms if hasattr(sea, "geoms") else [sea]) if g.contains(p))
            if not any(comp.contains(Point(s)) for o in SEAS for s in seeds[o]):
                owner = "_lake"
        else:
            owner = _nearest(owners, p, seeds)
        owned[owner].append(face)
    names = sorted(owned)
    merged = [unary_union(owned[n]) for n in names]
    simple = shapely.coverage_simplify(merged, 0.9)
    out: dict[str, Any] = {}
    for name, geom in zip(names, simple, strict=True):
        out[name] = shapely.set_precision(geom, 0.1, mode="pointwise")
    # the shapes must tile the frame: no gap, no overlap (a gap would be a white hole)
    total = sum(g.area for g in out.values())
    if abs(total - frame.area) > 0.001 * frame.area or not shapely.coverage_is_valid(list(out.values())):
        raise SystemExit(f"the shapes do not tile the frame ({total:.0f} of {frame.area:.0f} px2)")
    return {"width": WIDTH, "height": height, "shapes": out, "scale": sc}


def _path(geom: Any) -> str:
    parts = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
    out = []
    for poly in parts:
        for ring in [poly.exterior, *poly.interiors]:
            pts = list(ring.coords)[:-1]
            if len(pts) < 3:
                continue
            out.append("M" + "L".join(f"{_n(x)},{_n(y)}" for x, y in pts) + "Z")
    return "".join(out)


def _n(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


# label boxes are sized for the longest short name in any language (4 bold letters of 10 px)
LABEL_W, LABEL_H = 30.0, 11.0
UNIT_HALF = (16.0, 13.0)  # half the size of a unit marker (a fleet's is the wider), plus a margin


def _largest(geom: Any) -> Any:
    parts = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
    return max(parts, key=lambda g: g.area)


def _label_box(x: float, y: float) -> Any:
    return box(x - LABEL_W / 2, y - LABEL_H / 2, x + LABEL_W / 2, y + LABEL_H / 2)


def _unit_box(x: float, y: float) -> Any:
    return box(x - UNIT_HALF[0], y - UNIT_HALF[1], x + UNIT_HALF[0], y + UNIT_HALF[1])


def _place(poly: Any, near: tuple[float, float], units: Any, arrows: Any,
           shape: Any, avoid: list[Any]) -> tuple[float, float]:
    """The best spot around ``near`` for ``shape(x, y)``: inside ``poly``, clear of every unit
    marker and of what is already placed, and off the lines arrows between neighbours take."""
    offsets = [(0, -22), (0, 22), (-30, 0), (30, 0), (-24, -20), (24, -20), (-24, 20), (24, 20),
               (0, -30), (0, 30), (-40, 0), (40, 0), (-34, -26), (34, -26), (-34, 26), (34, 26),
               (0, -40), (0, 40), (-50, 0), (50, 0)]
    def score(x: float, y: float, rank: float) -> tuple[bool, float]:
        s = shape(x, y)
        hits_unit = s.intersects(units)
        overlap = sum(s.intersection(o).area for o in avoid)
        inside = s.intersection(poly).area / s.area
        crossed = s.intersection(arrows).length
        fits = not hits_unit and overlap == 0 and inside > 0.999
        return fits, -1000 * hits_unit - 10 * overlap - 200 * (1 - inside) - 6 * crossed - rank

    best, best_score = (near[0], near[1] - 22), -math.inf
    for rank, (dx, dy) in enumerate(offsets):
        x, y = near[0] + dx, near[1] + dy
        fits, value = score(x, y, rank)
        if fits:
            value += 1000
        if value > best_score:
            best, best_score = (round(x, 1), round(y, 1)), value
    if best_score > 1000 - len(offsets):
        return best  # one of the usual spots fits and no arrow line crosses it
    # search the shape near the unit (or all of it, for a narrow one) on a 3 px grid
    x0, y0, x1, y1 = poly.bounds
    x0, y0 = max(x0, near[0] - 70), max(y0, near[1] - 70)
    x1, y1 = min(x1, near[0] + 70), min(y1, near[1] + 70)
    for gx in range(int(x0), int(x1) + 1, 3):
        for gy in range(int(y0), int(y1) + 1, 3):
            if not poly.contains(Point(gx, gy)):
                continue
            fits, value = score(gx, gy, math.dist((gx, gy), near) / 3)
            if fits:
                value += 1000
            if value > best_score:
                best, best_score = (float(gx), float(gy)), value
    return best


def drawing_of(built: dict[str, Any], board: dict[str, Any]) -> dict[str, Any]:
    """The data file: province paths, unit/coast/label/centre anchors, unplayed land and water."""
    shapes, sc = built["shapes"], built["scale"]
    provinces = {p["code"]: p for p in board["provinces"] if not p["parent"]}
    coasts = sorted(p["code"] for p in board["provinces"] if p["parent"])
    units: dict[str, tuple[float, float]] = {}
    for code in provinces:
        if code in ANCHORS:
            units[code] = _pt(ANCHORS[code], sc)
        else:
            c = polylabel(_largest(shapes[code]), tolerance=0.5)
            units[code] = (c.x, c.y)
    coast_at = {c: _pt(ANCHORS[c], sc) for c in coasts}
    unit_boxes = unary_union([_unit_box(*p) for p in list(units.values()) + list(coast_at.values())])
    at = {**units, **coast_at}
    segments = []
    for p in board["provinces"]:
        for q in p["army_neighbours"] + p["fleet_neighbours"]:
            if p["code"] < q:
                segments.append(LineString([at[p["code"]], at[q]]))
    arrows = unary_union(segments)
    labels: dict[str, tuple[float, float]] = {}
    centres: dict[str, tuple[float, float]] = {}
    placed: list[Any] = []
    for code in sorted(provinces, key=lambda c: shapes[c].area):
        if provinces[code]["type"] == "impassable":
            continue
        poly = shapes[code]
        labels[code] = _place(poly, units[code], unit_boxes, arrows, _label_box, placed)
        placed.append(_label_box(*labels[code]))
        if provinces[code]["supply_center"]:
            dot = lambda x, y: Point(x, y).buffer(6)  # noqa: E731
            centres[code] = _place(poly, units[code], unit_boxes, arrows, dot, placed)
            placed.append(dot(*centres[code]))
    labels["SWI"] = tuple(round(v, 1) for v in units["SWI"])  # type: ignore[assignment]
    out_prov = {}
    for code in sorted(provinces):
        entry: dict[str, Any] = {
            "path": _path(shapes[code]),
            "unit": [round(units[code][0], 1), round(units[code][1], 1)],
            "label": list(labels[code]),
        }
        if code in centres:
            entry["centre"] = list(centres[code])
        out_prov[code] = entry
    return {
        "variant": board["variant"],
        "source": "Natural Earth 1:50m countries (public domain) from the npm package world-atlas "
                  "2.0.2, projected and split by scripts/map_drawing.py; do not edit by hand",
        "width": built["width"],
        "height": built["height"],
        "provinces": out_prov,
        "coasts": {c: [round(coast_at[c][0], 1), round(coast_at[c][1], 1)] for c in coasts},
        "unplayed": {"land": _path(shapes["_off"]) if "_off" in shapes else "",
                     "water": _path(shapes["_lake"]) if "_lake" in shapes else ""},
    }


def pure_drawing(board: dict[str, Any]) -> dict[str, Any]:
    """The abstract Pure board: seven wedges of a ring (every province borders every other on
    that board, which no flat drawing can show, so its arrows carry the adjacency)."""
    codes = [p["code"] for p in board["provinces"]]
    size, cx, cy, r_out, r_in = 600, 300.0, 300.0, 270.0, 70.0
    n = len(codes)
    out: dict[str, Any] = {}
    # the hub the wedges meet around, drawn as land no one plays, with the wedges' own vertices
    hub = [(cx + r_in * math.cos(-math.pi / 2 + (k / 12 - 0.5) * 2 * math.pi / n),
            cy + r_in * math.sin(-math.pi / 2 + (k / 12 - 0.5) * 2 * math.pi / n))
           for k in range(12 * n)]
    for i, code in enumerate(codes):
        a0 = -math.pi / 2 + (i - 0.5) * 2 * math.pi / n
        a1 = a0 + 2 * math.pi / n
        steps = 12
        outer = [(cx + r_out * math.cos(a0 + (a1 - a0) * k / steps),
                  cy + r_out * math.sin(a0 + (a1 - a0) * k / steps)) for k in range(steps + 1)]
        inner = [(cx + r_in * math.cos(a1 - (a1 - a0) * k / steps),
                  cy + r_in * math.sin(a1 - (a1 - a0) * k / steps)) for k in range(steps + 1)]
        mid = (a0 + a1) / 2

        def at(r: float, mid: float = mid) -> list[float]:
            return [round(cx + r * math.cos(mid), 1), round(cy + r * math.sin(mid), 1)]

        entry = {"path": _path(Polygon(outer + inner)), "unit": at(165), "label": at(215)}
        if next(p for p in board["provinces"] if p["code"] == code)["supply_center"]:
            entry["centre"] = at(115)
        out[code] = entry
    return {
        "variant": board["variant"],
        "source": "an abstract ring drawn by scripts/map_drawing.py --pure; do not edit by hand",
        "width": size, "height": size, "provinces": out, "coasts": {},
        "unplayed": {"land": _path(Polygon(hub)), "water": ""},
    }


def _write(folder: str, drawing: dict[str, Any]) -> Path:
    target = ROOT / "judge" / "variants" / folder / "drawing.json"
    text = json.dumps(drawing, ensure_ascii=False, indent=1, sort_keys=False)
    target.write_text(text + "\n", encoding="utf-8")
    print(f"{target}: {len(text) // 1024} KB")
    return target


def _board(folder: str) -> dict[str, Any]:
    return json.loads((ROOT / "judge" / "variants" / folder / "map.json").read_text("utf-8"))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, help="world-atlas countries-50m.json")
    parser.add_argument("--pure", action="store_true", help="write the Pure board's drawing")
    args = parser.parse_args(argv)
    if args.pure:
        _write("pure", pure_drawing(_board("pure")))
        return 0
    if args.data is None:
        parser.error("give the path of world-atlas's countries-50m.json (see the docstring)")
    _write("standard", drawing_of(build_standard(args.data), _board("standard")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
