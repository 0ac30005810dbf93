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
    """Sea province (or port) -> the provinces (sea or coastal) a fleet there touches."""
    out: dict[str, frozenset[str]] = {}
    for code, prov in board.provinces.items():
        if prov.convoys:
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


class _Numbering:
    """A board's seas and the provinces they touch, numbered (seas first), for ``_Walk``."""

    def __init__(self, board: Board) -> None:
        seas = sea_neighbours(board)
        coasts = sorted({p for around in seas.values() for p in around} - set(seas))
        self.names: list[str] = sorted(seas) + coasts
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        self.is_sea: list[bool] = [name in seas for name in self.names]
        # where a convoyed army may land: any coast, a port included (a port is a sea too)
        self.is_end: list[bool] = [
            name not in seas or board.provinces[name].port for name in self.names
        ]
        # sea -> the numbers of the provinces a fleet there touches (none for a coast)
        self.around: list[list[int]] = [
            sorted(self.index[p] for p in seas[name]) if name in seas else []
            for name in self.names
        ]

    def provinces(self, mask: int) -> frozenset[str]:
        names = self.names
        out: list[str] = []
        while mask:
            low = mask & -mask
            out.append(names[low.bit_length() - 1])
            mask ^= low
        return frozenset(out)


@cache
def _numbering(board: Board) -> _Numbering:
    return _Numbering(board)


@cache
def _routes_from(board: Board, start: str) -> dict[str, frozenset[str]]:
    """For an army in ``start``: fleet province -> destinations it helps reach on a minimal route.

    A depth-first walk over chains of seas (``_Walk``), over the board's provinces numbered
    once (``_Numbering``), sets of them as bit masks: a fresh process's first convoy orders
    were mostly this function (callgrind).
    """
    first = seas_touching(board).get(start)
    if not first:
        return {}
    numbers = _numbering(board)
    index = numbers.index
    walk = _Walk(
        numbers.around, numbers.is_sea, numbers.is_end, index[start],
        sum(1 << index[p] for p in first),
    )
    for sea in sorted(first):
        walk.walk(index[sea])
    names = numbers.names
    return {
        names[f]: numbers.provinces(mask) for f, mask in enumerate(walk.found) if mask
    }


class _Walk:
    """The walk of ``_routes_from``, over numbered provinces.

    A chain has a shortcut when a fleet earlier than the last one already touches the next sea
    or the destination; ``covered`` counts, for each province, the earlier fleets that touch it,
    kept as the walk goes (so the test is a look-up, not a pass over the chain).
    """

    def __init__(
        self,
        around: list[list[int]],
        is_sea: list[bool],
        is_end: list[bool],
        start: int,
        first: int,
    ) -> None:
        self.around = around  # sea -> the provinces a fleet there touches
        self.is_sea = is_sea
        self.is_end = is_end
        self.start = start
        self.first = first  # mask of the seas that touch the start
        self.found = [0] * len(around)  # fleet -> mask of the destinations it helps reach
        self.covered = [0] * len(around)  # province -> how many fleets of path[:-1] touch it
        self.on_path = [False] * len(around)
        self.path: list[int] = []

    def walk(self, here: int) -> None:
        path, covered, is_sea, is_end = self.path, self.covered, self.is_sea, self.is_end
        path.append(here)
        self.on_path[here] = True
        around = self.around[here]
        reached = 0
        for dest in around:
            # a coast other than the start that no earlier fleet reaches (else: a shortcut)
            if is_end[dest] and dest != self.start and not covered[dest]:
                reached |= 1 << dest
        if reached:
            found = self.found
            for f in path:
                found[f] |= reached
        for nxt in around:
            if not is_sea[nxt] or self.on_path[nxt] or self.first >> nxt & 1 or covered[nxt]:
                continue
            for p in around:  # ``here`` is an earlier fleet of the chain that goes on to nxt
                covered[p] += 1
            self.walk(nxt)
            for p in around:
                covered[p] -= 1
        self.on_path[here] = False
        path.pop()


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
