"""Small builders for adjudicator tests: positions and orders from canonical text."""

from __future__ import annotations

from judge.adjudicator.adjudication import Adjudication, Options, adjudicate
from judge.adjudicator.orders import Order, parse_canonical
from judge.adjudicator.position import Position
from tests.standard_variant import STANDARD


def position(
    phase: str, units: dict[str, list[str]], centers: dict[str, list[str]] | None = None
) -> Position:
    return STANDARD.position(phase, units, centers)


def orders(texts: dict[str, list[str]]) -> dict[str, list[Order]]:
    return {power: [parse_canonical(t) for t in ts] for power, ts in texts.items()}


def run(pos: Position, texts: dict[str, list[str]], options: Options | None = None) -> Adjudication:
    if options is None:
        return adjudicate(pos, orders(texts))
    return adjudicate(pos, orders(texts), options)


def outcome_of(result: Adjudication, order_text: str) -> tuple[str, tuple[str, ...], str | None]:
    """(outcome, by, dislodged_by) of the submitted or generated order written ``order_text``."""
    for results in result.results.values():
        for r in results:
            if str(r.order) == order_text:
                return r.outcome.value, r.by, r.dislodged_by
    raise AssertionError(f"no result for {order_text!r}")
