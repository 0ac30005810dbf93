"""The adjudicator's one entry point.

``adjudicate(position, orders) -> Adjudication``

* ``position``: a ``Position`` in any phase (movement, retreat or adjustment).
* ``orders``: power -> the orders that power submitted (order objects from ``orders.py``), in the
  order written. Each order is checked by ``legality.normalize``: an illegal order gets the
  outcome ``ILLEGAL`` with its ``Refusal`` and its unit holds (movement) or is disbanded
  (retreat). A second order for the same unit is refused as ``DUPLICATE_ORDER``.
* Defaults, kept apart as ``generated`` results: in movement phases units without an order hold;
  in retreat phases dislodged units without an order are disbanded; in adjustment phases missing
  builds are waived and missing removals are chosen by the civil-disorder rule of the 2008
  rulebook (see ``adjustments.py``; ``Options.removal_distance`` selects the 2023 variant).
* ``variant``: the game's ``Variant`` (map, neutral powers, closed territory; ``catalog.py``).
  Orders for a neutral power are refused (``NEUTRAL_POWER``) and its units hold; any power may
  support them to hold; a neutral unit that is dislodged is disbanded; neutral powers make no
  adjustments. ``Options.joins`` names the power that won the two-player game's lot.

``Adjudication`` holds, per power, an ``OrderResult`` for every order (submitted first, then
generated); ``unit_results`` gives the one result that governs each unit of the phase (keyed by
province; in retreat phases by the dislodged unit's province); ``position`` is the next position:
phase advanced with empty retreat and adjustment phases skipped, dislodged units with their legal
retreats, supply centres captured after the Fall moves (after the Fall retreats when there are
some). ``destroyed`` lists units that left the board (no retreat, disbanded, removed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from judge.adjudicator.adjustment_phase import adjudicate_adjustments
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.adjudicator.movement_phase import adjudicate_movement
from judge.adjudicator.order_result import OrderResult, Outcome
from judge.adjudicator.orders import Order
from judge.adjudicator.outcomes import Adjudication, Options
from judge.adjudicator.phase_flow import capture_centers
from judge.adjudicator.position import Position
from judge.adjudicator.refusals import Refusal
from judge.adjudicator.retreat_phase import adjudicate_retreats
from judge.adjudicator.variant import Variant

DEFAULT_OPTIONS: Final = Options()
_MOVEMENT: Final = 0  # Phase.kind_rank of PhaseType.MOVEMENT
_RETREAT: Final = 1


def adjudicate(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    options: Options = DEFAULT_OPTIONS,
    variant: Variant | None = None,
    *,
    board: Board | None = None,
) -> Adjudication:
    """Adjudicate one phase; see the module docstring for the contract.

    ``variant`` defaults to the one the position names (``Position.variant``); ``board``, for
    callers that hold one already (the bots' search), replaces the variant's board of the phase.
    """
    v = variant or installed_variant(position.variant)
    rules = v.rules_at(position.phase, options.joins)
    board = board or rules.board
    neutral = rules.neutral
    builds = options.builds or v.builds
    refused: dict[str, list[Order]] = {}
    if neutral:
        refused = {p: list(os) for p, os in orders.items() if p in neutral and os}
        orders = {p: os for p, os in orders.items() if p not in neutral}
    kind = position.phase.kind_rank  # the rank, not the ``kind`` property: this runs every phase
    if kind == _MOVEMENT:
        result = adjudicate_movement(position, orders, board, neutral, builds)
    elif kind == _RETREAT:
        result = adjudicate_retreats(position, orders, board, neutral, builds)
    else:
        result = adjudicate_adjustments(position, orders, board, options, neutral, builds)
    return _with_refused(result, refused) if refused else result


def _with_refused(inner: Adjudication, refused: dict[str, list[Order]]) -> Adjudication:
    """The results of ``inner`` with the orders given for neutral powers refused, first."""

    def explain() -> tuple[dict[str, list[OrderResult]], dict[str, OrderResult]]:
        results = {p: list(rs) for p, rs in inner.results.items()}
        for power, given in refused.items():
            results[power] = [
                OrderResult(power, o, Outcome.ILLEGAL, Refusal.NEUTRAL_POWER) for o in given
            ] + results.get(power, [])
        return results, inner.unit_results

    return Adjudication(inner.phase, None, None, inner.position, inner.destroyed, explain)


__all__ = ["Adjudication", "Options", "adjudicate", "capture_centers"]
