"""The layout places every province and coast, inside its own shape."""

from __future__ import annotations

from judge.maps.layout import standard_layout
from judge.maps.voronoi import Point
from tests.standard_variant import STANDARD


def inside(point: Point, polygon: list[Point]) -> bool:
    x, y = point
    result = False
    for i, (x1, y1) in enumerate(polygon):
        x2, y2 = polygon[i - 1]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            result = not result
    return result


def test_every_location_has_an_anchor_on_the_canvas() -> None:
    layout = standard_layout()
    board = STANDARD.board
    for location in board.locations:
        x, y = layout.anchor(location)
        assert 0 < x < layout.width and 0 < y < layout.height, location
    assert {o for o in layout.owners.values() if not o.startswith("_")} == set(board.provinces)


def test_units_stand_inside_their_own_province() -> None:
    layout = standard_layout()
    for code in STANDARD.board.provinces:
        anchor = layout.anchor(code)
        cells = [poly for site, poly in layout.cells.items() if layout.owners[site] == code]
        assert any(inside(anchor, poly) for poly in cells), code


def test_most_board_adjacencies_are_shared_borders() -> None:
    """A Voronoi schematic cannot match every border; it must match nearly all of them."""
    layout = standard_layout()
    board = STANDARD.board
    drawn = {frozenset((a, b)) for a, b, _, _ in layout.edges}
    real = {frozenset((s, t)) for s, ts in board.army_adjacency.items() for t in ts}
    real |= {
        frozenset((s.split("/")[0], t.split("/")[0]))
        for s, ts in board.fleet_adjacency.items()
        for t in ts
    }
    assert len(real & drawn) / len(real) > 0.9
