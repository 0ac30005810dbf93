"""Convoy geometry: which fleets can take part in a convoy, and whether a route exists.

A convoy order is legal only if the fleet lies on some *minimal* sea route from the army to its
destination: a chain of sea provinces with no shortcut (DATC 3.0, 6.G.19: a fleet that no route
needs cannot show intent). Minimal routes are the induced paths of the graph of the coastal
start, the seas and the coastal end; they are enumerated once per start province and cached.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from judge.adjudicator.geography import Board


@cache
def sea_neighbours(board: Board) -> dict[str, frozenset[str]]:
    """Sea province -> the provinces (sea or coastal) a fleet there touches."""
    out: dict[str, frozenset[str]] = {}
    for code, prov in board.provinces.items():
        if prov.is_sea:
            out[code] = frozenset(board.province_of(t) for t in board.fleet_adjacency.get(code, ()))
    return out


@cache
def seas_touching(board: Board) -> dict[str, frozenset[str]]:
    """Coastal province -> the sea provinces it borders."""
    seas = sea_neighbours(board)
    touching: dict[str, set[str]] = {}
    for sea, around in seas.items():
        for prov in around:
            if board.provinces[prov].kind == "coast":
                touching.setdefault(prov, set()).add(sea)
    return {k: frozenset(v) for k, v in touching.items()}


@cache
def _routes_from(board: Board, start: str) -> dict[str, frozenset[str]]:
    """For an army in ``start``: fleet province -> destinations it helps reach on a minimal route.

    A depth-first walk over chains of seas. A chain has a shortcut when a fleet earlier than
    the last one already touches the next sea or the destination; ``covered`` counts, for each
    province, the earlier fleets that touch it, kept as the walk goes (so the test is a look-up,
    not a pass over the chain: this walk is most of a fresh process's first convoy orders).
    """
    seas = sea_neighbours(board)
    first = seas_touching(board).get(start, frozenset())
    found: dict[str, set[str]] = {}
    path: list[str] = []
    on_path: set[str] = set()
    covered: dict[str, int] = {}  # province -> how many fleets of path[:-1] touch it

    def walk(here: str) -> None:
        path.append(here)
        on_path.add(here)
        around = seas[here]
        for dest in around:
            if dest in seas or dest == start:
                continue
            if covered.get(dest, 0):
                continue  # an earlier fleet already reaches it: this route has a shortcut
            for f in path:
                found.setdefault(f, set()).add(dest)
        for nxt in around:
            if nxt not in seas or nxt in on_path or nxt in first:
                continue
            if covered.get(nxt, 0):
                continue
            for p in around:  # ``here`` is an earlier fleet of the chain that goes on to nxt
                covered[p] = covered.get(p, 0) + 1
            walk(nxt)
            for p in around:
                covered[p] -= 1
        on_path.discard(here)
        path.pop()

    for sea in sorted(first):
        walk(sea)
    return {f: frozenset(d) for f, d in found.items()}


def fleet_can_convoy(board: Board, fleet: str, army: str, target: str) -> bool:
    """Whether a fleet in sea province ``fleet`` lies on a minimal route ``army`` -> ``target``."""
    return target in _routes_from(board, army).get(fleet, ())


def convoy_destinations(board: Board, fleet: str, army: str) -> frozenset[str]:
    return _routes_from(board, army).get(fleet, frozenset())


def route_exists(
    board: Board,
    start: str,
    target: str,
    fleets: Iterable[str],
    usable: Callable[[str], bool] | None = None,
) -> bool:
    """Breadth-first search over the given convoying fleets; ``usable`` is asked lazily."""
    seas = sea_neighbours(board)
    remaining = set(fleets)
    frontier = [f for f in remaining if start in seas[f]]
    remaining.difference_update(frontier)
    seen: set[str] = set()
    while frontier:
        f = frontier.pop()
        if f in seen:
            continue
        seen.add(f)
        if usable is not None and not usable(f):
            continue
        around = seas[f]
        if target in around:
            return True
        nxt = [g for g in remaining if g in around]
        remaining.difference_update(nxt)
        frontier.extend(nxt)
    return False


def army_could_be_convoyed(board: Board, start: str, target: str) -> bool:
    """Geography only: both ends are coastal, so some chain of fleets could carry the army."""
    touch = seas_touching(board)
    return start != target and start in touch and target in touch


def _warm(board: Board) -> None:
    for prov in seas_touching(board):
        _routes_from(board, prov)
