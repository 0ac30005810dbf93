"""A shallow search: play candidate order sets through the judge's own adjudicator.

The candidates are the engine's own order sets (the best-valued one and a few drawn by weighted
choice, each with cooperation and convoys added); the likely replies are the other powers'
baseline orders, drawn the same way from *their* values. Each candidate meets each reply in
``adjudicate`` and the outcome is scored for the searching power: centres held after the Fall
(occupied in Spring), units lost, enemies on own centres, and where the units end up. A
personality's ``risk`` mixes the worst reply's score with the mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Order
from judge.adjudicator.outcomes import Options
from judge.adjudicator.phase_flow import capture_centers
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.bots.mapview import MapView
from judge.bots.valuation import Valuation

CENTRE = 3.0
OCCUPIED = 1.5
INVADED = 1.5
LOST = 1.2
STRUCK = 0.3


def score(
    variant: Variant,
    view: MapView,
    before: Position,
    after: Position,
    power: str,
    valuation: Valuation,
    norm: float,
) -> float:
    units = after.units
    fall = before.phase.season_rank == 1
    centres = capture_centers(variant.board, units, after.centers) if fall else after.centers
    value = 0.0
    for prov, unit in units.items():
        if unit.power == power:
            value += valuation.of(unit.type.value, unit.location) / norm
            if not fall and prov in view.supply_centers and centres.get(prov) != power:
                value += OCCUPIED
        elif not fall and centres.get(prov) == power:
            value -= INVADED
    for dislodged in after.dislodged.values():
        value += -LOST if dislodged.unit.power == power else STRUCK
    return value + CENTRE * sum(1 for p in centres.values() if p == power)


def best_candidate(
    variant: Variant,
    view: MapView,
    position: Position,
    power: str,
    candidates: Sequence[list[Order]],
    replies: Sequence[Mapping[str, list[Order]]],
    valuation: Valuation,
    risk: float,
    options: Options | None = None,
    board: Board | None = None,
) -> list[Order]:
    """``options`` and ``board``: the phase's (``engine.phase_rules``)."""
    if len(candidates) == 1 or not replies:
        return list(candidates[0])
    norm = valuation.top()
    best: tuple[float, int] | None = None
    for index, candidate in enumerate(candidates):
        scores = []
        for reply in replies:
            orders = dict(reply)
            orders[power] = candidate
            after = adjudicate(
                position, orders, options or Options(), variant=variant, board=board
            ).position
            scores.append(score(variant, view, position, after, power, valuation, norm))
        mean = sum(scores) / len(scores)
        total = risk * mean + (1.0 - risk) * min(scores)
        if best is None or total > best[0]:
            best = (total, index)
    assert best is not None
    return list(candidates[best[1]])
