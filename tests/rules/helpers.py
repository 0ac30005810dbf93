"""Small builders for rules tests."""

from __future__ import annotations

from judge.adjudicator.orders import parse_unit
from judge.adjudicator.position import Dislodged, Position
from tests.standard_variant import STANDARD


def position(
    phase: str,
    units: dict[str, list[str]],
    centers: dict[str, list[str]] | None = None,
    dislodged: dict[str, dict[str, list[str]]] | None = None,
) -> Position:
    pos = STANDARD.position(phase, units, centers)
    for power, by_unit in (dislodged or {}).items():
        for text, retreats in by_unit.items():
            unit = parse_unit(text, power)
            pos.dislodged[unit.province] = Dislodged(unit, None, tuple(retreats))
    return pos


def texts(generated: list) -> list[str]:
    return [str(g) for g in generated]
