"""How much each place is worth to one power: the DumbBot family of heuristics.

Follows the published description of David Norman's DumbBot (no code of it): a supply centre
is worth the *size* of its owner to an attacker (size = a*n^2 + b*n + c with n the owner's
centres, so big powers are the juicier targets) and, to its owner, the size of the largest power
threatening it; these values are spread over the map graph by repeated averaging with the
neighbours ("proximity", one map per level), separately for armies (provinces) and fleets
(locations with coasts); the value of a destination sums the levels with per-season weights, plus
the number of own units that could help there (strength) minus the most units any one other
power could bring (competition). Spring looks further ahead, Fall at the centres in reach now.

``stance`` scales the attack value of another power's centres: a power at peace is worth little
to attack, an enemy more (the diplomat sets it from trust and agreements).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from judge.adjudicator.position import Position
from judge.bots.mapview import MapView


@dataclass(frozen=True, slots=True)
class Weights:
    """Numbers of the heuristic; a personality replaces some of them."""

    size_square: float = 1.0
    size_linear: float = 4.0
    size_constant: float = 16.0
    spring_attack: float = 700.0
    spring_defence: float = 300.0
    fall_attack: float = 600.0
    fall_defence: float = 400.0
    spring_levels: tuple[float, ...] = (100.0, 1000.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
    fall_levels: tuple[float, ...] = (1000.0, 100.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
    strength: float = 1000.0
    competition: float = 1000.0
    build_defence: float = 1000.0  # winter: the weight of threats to a home centre
    removal_defence: float = 1000.0


@dataclass(frozen=True, slots=True, eq=False)
class _Graph:
    nodes: tuple[str, ...]
    index: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    province: tuple[str, ...]  # node -> its province


@cache
def _graphs(view: MapView) -> tuple[_Graph, _Graph]:
    def make(moves: Mapping[str, frozenset[str]]) -> _Graph:
        nodes = tuple(sorted(moves))
        index = {n: i for i, n in enumerate(nodes)}
        neighbours = tuple(tuple(sorted(index[t] for t in moves[n] if t in index)) for n in nodes)
        return _Graph(nodes, index, neighbours, tuple(view.province_of(n) for n in nodes))

    return make(view.army_moves), make(view.fleet_moves)


@cache
def _spread(
    view: MapView, graph: _Graph, levels: tuple[float, ...]
) -> dict[str, tuple[float, ...]]:
    """Node -> what a value of 1 on each centre (sorted) adds there, over the weighted levels.

    The spreading is linear in the centre values, so it is worked out once per map and season;
    a position then costs one dot product per node asked about, and only those nodes are asked.
    """
    centres = sorted(view.supply_centers)
    columns = []
    for sc in centres:
        level = [1.0 if p == sc else 0.0 for p in graph.province]
        total = [levels[0] * v for v in level]
        for weight in levels[1:]:
            level = [
                (level[i] + sum(level[j] for j in graph.neighbours[i])) / 5.0
                for i in range(len(level))
            ]
            total = [t + weight * v for t, v in zip(total, level, strict=True)]
        columns.append(total)
    return {node: tuple(col[i] for col in columns) for i, node in enumerate(graph.nodes)}


class Valuation:
    """Destination values for one power in one position (higher is better), computed on demand."""

    __slots__ = ("power", "base", "threat", "_vector", "_rows", "_mine", "_weights", "_memo")

    def __init__(
        self,
        power: str,
        base: dict[str, float],
        threat: dict[str, int],
        vector: tuple[float, ...],
        rows: tuple[dict[str, tuple[float, ...]], dict[str, tuple[float, ...]]],
        mine: dict[str, int],
        weights: Weights,
    ) -> None:
        self.power = power
        self.base = base  # province -> level-0 value (centres only)
        self.threat = threat  # province -> most units of one other power in reach
        self._vector = vector
        self._rows = rows
        self._mine = mine
        self._weights = weights
        self._memo: dict[tuple[str, str], float] = {}

    def of(self, unit_type: str, location: str) -> float:
        key = (unit_type, location)
        value = self._memo.get(key)
        if value is None:
            if unit_type == "A":
                location = location.split("/", 1)[0]
                row = self._rows[0].get(location)
            else:
                row = self._rows[1].get(location)
            if row is None:
                value = 0.0
            else:
                prov = location.split("/", 1)[0]
                value = (
                    sum(r * v for r, v in zip(row, self._vector, strict=True))
                    + self._weights.strength * self._mine.get(prov, 0)
                    - self._weights.competition * self.threat.get(prov, 0)
                )
            self._memo[key] = value
        return value

    def top(self) -> float:
        """The largest value asked about so far (at least 1): the search's yardstick."""
        return max(max(self._memo.values(), default=1.0), 1.0)


def power_size(weights: Weights, centres: int) -> float:
    return (
        weights.size_square * centres * centres
        + weights.size_linear * centres
        + weights.size_constant
    )


def reach_counts(view: MapView, position: Position) -> dict[str, dict[str, int]]:
    """Power -> province -> how many of its units could move (or hold) there."""
    counts: dict[str, dict[str, int]] = {}
    for prov, unit in position.units.items():
        mine = counts.setdefault(unit.power, {})
        mine[prov] = mine.get(prov, 0) + 1
        for target in view.reach(unit.type.value, unit.location):
            mine[target] = mine.get(target, 0) + 1
    return counts


def value_position(
    view: MapView,
    position: Position,
    power: str,
    weights: Weights,
    stance: Mapping[str, float] | None = None,
    counts: dict[str, dict[str, int]] | None = None,
) -> Valuation:
    stance = stance or {}
    counts = counts if counts is not None else reach_counts(view, position)
    owned: dict[str, int] = {}
    for holder in position.centers.values():
        owned[holder] = owned.get(holder, 0) + 1
    size = {p: power_size(weights, owned.get(p, 0)) for p in view.powers}
    fall = position.phase.season_rank == 1
    attack = weights.fall_attack if fall else weights.spring_attack
    defence = weights.fall_defence if fall else weights.spring_defence
    levels = weights.fall_levels if fall else weights.spring_levels
    # the largest power (by size) with a unit next to each province, and the most units of one
    # other power that could reach it
    threat_size: dict[str, float] = {}
    threat: dict[str, int] = {}
    for other, reach in counts.items():
        if other == power:
            continue
        for prov, n in reach.items():
            if size[other] > threat_size.get(prov, 0.0):
                threat_size[prov] = size[other]
            if n > threat.get(prov, 0):
                threat[prov] = n
    base: dict[str, float] = {}
    for sc in view.supply_centers:
        owner = position.centers.get(sc)
        if owner == power:
            base[sc] = defence * threat_size.get(sc, 0.0)
        elif owner is None:
            base[sc] = attack * weights.size_constant
        else:
            base[sc] = attack * size[owner] * stance.get(owner, 1.0)
    mine = counts.get(power, {})
    vector = tuple(base[sc] for sc in sorted(view.supply_centers))
    army_graph, fleet_graph = _graphs(view)
    rows = (_spread(view, army_graph, levels), _spread(view, fleet_graph, levels))
    return Valuation(power, base, threat, vector, rows, mine, weights)
