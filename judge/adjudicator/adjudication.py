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

``Adjudication`` holds, per power, an ``OrderResult`` for every order (submitted first, then
generated); ``unit_results`` gives the one result that governs each unit of the phase (keyed by
province; in retreat phases by the dislodged unit's province); ``position`` is the next position:
phase advanced with empty retreat and adjustment phases skipped, dislodged units with their legal
retreats, supply centres captured after the Fall moves (after the Fall retreats when there are
some). ``destroyed`` lists units that left the board (no retreat, disbanded, removed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.adjudicator.adjustment_phase import adjudicate_adjustments
from judge.adjudicator.geography import POWERS, Board, standard_board
from judge.adjudicator.movement_phase import adjudicate_movement
from judge.adjudicator.orders import Order
from judge.adjudicator.outcomes import Adjudication, Options
from judge.adjudicator.phase_flow import capture_centers
from judge.adjudicator.position import Position
from judge.adjudicator.retreat_phase import adjudicate_retreats

DEFAULT_OPTIONS = Options()
_MOVEMENT = 0  # Phase.kind_rank of PhaseType.MOVEMENT
_RETREAT = 1


def adjudicate(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    options: Options = DEFAULT_OPTIONS,
    board: Board | None = None,
) -> Adjudication:
    """Adjudicate one phase; see the module docstring for the contract."""
    b = board or standard_board()
    kind = position.phase.kind_rank  # the rank, not the ``kind`` property: this runs every phase
    if kind == _MOVEMENT:
        return adjudicate_movement(position, orders, b)
    if kind == _RETREAT:
        return adjudicate_retreats(position, orders, b)
    return adjudicate_adjustments(position, orders, b, options)


__all__ = ["POWERS", "Adjudication", "Options", "adjudicate", "capture_centers"]
