"""Issue 15 point 3: each variant's drawing matches its map graph.

The standard board's shapes come from real geography (scripts/map_drawing.py); these checks are
what makes them the board a club player knows: every province drawn, two provinces share a drawn
border exactly when they are adjacent, units and coasts stand inside their own province (each
coast on its own sea), and names never sit on a unit.
"""

from __future__ import annotations

import math

import pytest

from judge.adjudicator.geography import Board, load_board
from judge.maps.layout import Edge, Layout, Point, Ring, variant_layout
from judge.maps.svg import _label

VARIANTS_WITH_DRAWINGS = ["standard", "pure"]
# The only drawn borders the graph does not have: an impassable province (Switzerland) touches
# its neighbours on the board without being adjacent to them. Every other pair that shares a
# border is adjacent, and the reverse; the board's straits (the Sound between Denmark and
# Sweden, the Bosporus and Dardanelles inside Constantinople) are drawn closed, as on the board.
UNPLAYABLE_KINDS = {"impassable"}
MIN_BORDER = 1.0  # px: a shared border shorter than this is a point contact, not a border


def inside(point: Point, rings: list[Ring]) -> bool:
    """Even-odd rule over all the rings of a shape (islands and holes alike)."""
    x, y = point
    result = False
    for ring in rings:
        for i, (x1, y1) in enumerate(ring):
            x2, y2 = ring[i - 1]
            if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
                result = not result
    return result


def length(edges: list[Edge]) -> float:
    return sum(math.dist(p, q) for p, q in edges)


def distance_to_edges(point: Point, edges: list[Edge]) -> float:
    best = math.inf
    px, py = point
    for (ax, ay), (bx, by) in edges:
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy or 1.0)))
        best = min(best, math.hypot(px - ax - t * dx, py - ay - t * dy))
    return best


def graph_pairs(board: Board) -> set[frozenset[str]]:
    pairs = {frozenset((s, t)) for s, ts in board.army_adjacency.items() for t in ts}
    pairs |= {
        frozenset((s.split("/")[0], t.split("/")[0]))
        for s, ts in board.fleet_adjacency.items()
        for t in ts
    }
    return pairs


def drawn_pairs(layout: Layout) -> set[frozenset[str]]:
    return {
        pair for pair, edges in layout.borders.items()
        if not any(o.startswith("_") for o in pair) and length(edges) >= MIN_BORDER
    }


@pytest.mark.parametrize("variant", VARIANTS_WITH_DRAWINGS)
def test_every_province_has_a_shape_and_its_units_stand_inside(variant: str) -> None:
    layout, board = variant_layout(variant), load_board(variant)
    assert set(board.provinces) <= set(layout.rings), set(board.provinces) - set(layout.rings)
    for code in board.provinces:
        assert layout.rings[code] and all(len(r) >= 3 for r in layout.rings[code]), code
        x, y = layout.anchor(code)
        assert 0 < x < layout.width and 0 < y < layout.height, code
        assert inside((x, y), layout.rings[code]), f"{code}'s unit stands outside it"
    for coast in board.locations:
        if "/" in coast:
            assert coast in layout.anchors, coast
            assert inside(layout.anchors[coast], layout.rings[coast.split("/")[0]]), coast


def test_standard_borders_are_exactly_the_adjacencies() -> None:
    layout, board = variant_layout("standard"), load_board("standard")
    real = {p for p in graph_pairs(board)}
    drawn = {
        p for p in drawn_pairs(layout) if not any(layout.kind(o) in UNPLAYABLE_KINDS for o in p)
    }
    assert not real - drawn, f"adjacent but not touching: {sorted(map(sorted, real - drawn))}"
    assert not drawn - real, f"touching but not adjacent: {sorted(map(sorted, drawn - real))}"
    # Switzerland is drawn where it is, bordering France, Germany, Austria and Italy's provinces
    swiss = {o for p in drawn_pairs(layout) if "SWI" in p for o in p} - {"SWI"}
    assert {"MAR", "BUR", "MUN", "TYR", "PIE"} <= swiss


def test_each_split_coast_stands_on_its_own_seas() -> None:
    """STP/NC on the Barents Sea, STP/SC on the Gulf of Bothnia, and so on: a coast's anchor is
    nearer to the seas it reaches than to the seas only its sister coast reaches."""
    layout, board = variant_layout("standard"), load_board("standard")
    coasts = [c for c in board.locations if "/" in c]
    assert len(coasts) == 6
    for coast in coasts:
        province = coast.split("/")[0]
        own = {t.split("/")[0] for t in board.fleet_adjacency[coast]}
        sisters = [c for c in coasts if c.startswith(province + "/") and c != coast]
        other = {t.split("/")[0] for s in sisters for t in board.fleet_adjacency[s]} - own
        seas = {s for s in own | other if layout.kind(s) == "sea"}
        dist = {
            s: distance_to_edges(layout.anchors[coast], layout.borders[frozenset((province, s))])
            for s in seas
        }
        own_seas = [dist[s] for s in own & seas]
        assert own_seas and min(own_seas) < 25, (coast, dist)
        for s in other & seas:
            assert dist[s] > min(own_seas), (coast, dist)


def label_box(code: str, board: Board, at: Point) -> tuple[float, float, float, float]:
    # bold 10 px DejaVu Sans capitals are at most 7 px wide; the longest name in any language
    width = max(len(_label(code, board, lang)) for lang in ("en", "it", "fr")) * 7.0 + 2
    return (at[0] - width / 2, at[1] - 5.5, at[0] + width / 2, at[1] + 5.5)


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("variant", VARIANTS_WITH_DRAWINGS)
def test_labels_and_centres_never_sit_on_a_unit(variant: str) -> None:
    layout, board = variant_layout(variant), load_board(variant)
    # a fleet's marker is 28 x 18 px, an army's a circle of radius 11
    units = [(x - 14, y - 11, x + 14, y + 11) for x, y in layout.anchors.values()]
    for code, at in layout.labels.items():
        if layout.kind(code) in UNPLAYABLE_KINDS:
            continue
        box = label_box(code, board, at)
        assert not any(overlaps(box, u) for u in units), f"{code}'s name is on a unit"
        assert inside(at, layout.rings[code]), f"{code}'s name is outside it"
    assert set(layout.centres) == set(board.supply_centers)
    for code, (x, y) in layout.centres.items():
        dot = (x - 4.5, y - 4.5, x + 4.5, y + 4.5)
        assert not any(overlaps(dot, u) for u in units), f"{code}'s centre is on a unit"
        assert inside((x, y), layout.rings[code]), code


def test_pure_ring_borders_are_adjacencies() -> None:
    """The Pure board is abstract: every province borders every other in its graph, which no
    flat drawing can show, so only the ring's own borders are checked (all seven are real)."""
    layout, board = variant_layout("pure"), load_board("pure")
    drawn = drawn_pairs(layout)
    assert len(drawn) == len(board.provinces)
    assert drawn <= graph_pairs(board)


def area(ring: Ring) -> float:
    pairs = zip(ring, ring[1:] + ring[:1], strict=True)
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in pairs)) / 2


def test_unplayed_lands_are_drawn() -> None:
    """Ireland, Iceland, Corsica, Sardinia, Crete, Cyprus: islands no province owns; and the
    land beyond the board (Africa past Tunis, Asia past Armenia) along its edges."""
    layout = variant_layout("standard")
    islands = [
        r for r in layout.rings["_land"]
        if all(0 < x < layout.width and 0 < y < layout.height for x, y in r) and area(r) > 150
    ]
    assert len(islands) >= 6
    edge = [r for r in layout.rings["_land"] if any(y >= layout.height for _, y in r)]
    assert edge, "no land beyond the board's southern edge"


def crosses(p: Point, q: Point, box: tuple[float, float, float, float]) -> bool:
    """Whether the segment p-q passes through the box (Liang-Barsky clipping)."""
    (x0, y0, x1, y1), dx, dy = box, q[0] - p[0], q[1] - p[1]
    t0, t1 = 0.0, 1.0
    for d, room in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if d == 0:
            if room < 0:
                return False
        elif d < 0:
            t0 = max(t0, room / d)
        else:
            t1 = min(t1, room / d)
    return t0 <= t1


def test_names_keep_off_the_arrows_lines() -> None:
    """A move or support between two neighbours is drawn along the line joining their units;
    names are placed off those lines. A few narrow provinces (Holland, Wales, the Heligoland
    Bight...) have no room off every line: at most 8 of the 75 names touch one."""
    layout, board = variant_layout("standard"), load_board("standard")
    lines = {
        tuple(sorted((s, t)))
        for s, ts in [*board.army_adjacency.items(), *board.fleet_adjacency.items()]
        for t in ts
    }
    crossed = [
        code for code, at in layout.labels.items()
        if layout.kind(code) not in UNPLAYABLE_KINDS
        and any(crosses(layout.anchor(a), layout.anchor(b), label_box(code, board, at))
                for a, b in lines)
    ]
    assert len(crossed) <= 8, crossed
