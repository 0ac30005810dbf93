"""Province shapes as Voronoi cells of the layout's province centres.

A schematic map needs areas players can click with their eyes, not survey-grade borders: each
province gets the part of the canvas nearer to its centre than to any other site (filler sites
shape coasts and off-board land). Computed by clipping the canvas rectangle with one half-plane
per other site, which is exact, pure and fast enough for ~100 sites.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

Point = tuple[float, float]


def _clip(polygon: list[Point], a: float, b: float, c: float) -> list[Point]:
    """Keep the part of ``polygon`` where a*x + b*y <= c (Sutherland-Hodgman, one edge)."""
    out: list[Point] = []
    if not polygon:
        return out
    prev = polygon[-1]
    prev_in = a * prev[0] + b * prev[1] <= c
    for cur in polygon:
        cur_in = a * cur[0] + b * cur[1] <= c
        if cur_in != prev_in:
            dp = a * prev[0] + b * prev[1] - c
            dc = a * cur[0] + b * cur[1] - c
            t = dp / (dp - dc)
            out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
        if cur_in:
            out.append(cur)
        prev, prev_in = cur, cur_in
    return out


def cells(sites: Mapping[str, Point], width: float, height: float) -> dict[str, list[Point]]:
    """The Voronoi cell of every site, clipped to the ``width`` x ``height`` canvas."""
    box: list[Point] = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    result: dict[str, list[Point]] = {}
    items: Sequence[tuple[str, Point]] = list(sites.items())
    for name, (px, py) in items:
        poly = list(box)
        for other, (qx, qy) in items:
            if other == name:
                continue
            # points nearer to p than to q: 2(q-p).x <= |q|^2 - |p|^2
            a, b = 2 * (qx - px), 2 * (qy - py)
            c = qx * qx + qy * qy - px * px - py * py
            poly = _clip(poly, a, b, c)
        result[name] = poly
    return result


def neighbours(polygons: Mapping[str, list[Point]], min_edge: float = 4.0) -> set[frozenset[str]]:
    """Pairs of cells sharing an edge at least ``min_edge`` long (used to check the layout)."""
    def edges(poly: list[Point]) -> list[tuple[Point, Point]]:
        return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]

    def key(p: Point) -> tuple[int, int]:
        return (round(p[0] * 10), round(p[1] * 10))

    index: dict[tuple[tuple[int, int], tuple[int, int]], str] = {}
    pairs: set[frozenset[str]] = set()
    for name, poly in polygons.items():
        for p, q in edges(poly):
            if ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5 < min_edge:
                continue
            k = tuple(sorted((key(p), key(q))))
            other = index.get(k)  # type: ignore[arg-type]
            if other is not None and other != name:
                pairs.add(frozenset((name, other)))
            index[k] = name  # type: ignore[index]
    return pairs


def shared_edges(
    polygons: Mapping[str, list[Point]], min_edge: float = 0.5
) -> list[tuple[str, str, Point, Point]]:
    """Edges two cells share, as (cell, other cell, start, end).

    Neighbouring cells compute their common vertices separately, so endpoints are matched
    after rounding to half a pixel rather than exactly.
    """

    def key(p: Point) -> tuple[int, int]:
        return (round(p[0] * 2), round(p[1] * 2))

    seen: dict[tuple[tuple[int, int], tuple[int, int]], str] = {}
    out: list[tuple[str, str, Point, Point]] = []
    for name, poly in polygons.items():
        for i, p in enumerate(poly):
            q = poly[(i + 1) % len(poly)]
            if ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5 < min_edge:
                continue
            a, b = key(p), key(q)
            k = (a, b) if a <= b else (b, a)
            other = seen.get(k)
            if other is None:
                seen[k] = name
            elif other != name:
                out.append((other, name, p, q))
    return out
