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
from judge.adjudicator.legality import Refusal, movement_memo, normalize_with
from judge.adjudicator.orders import Hold, Order, Unit, Waive
from judge.adjudicator.outcomes import Adjudication, Options, OrderResult, Outcome
from judge.adjudicator.phase import PhaseType
from judge.adjudicator.phase_flow import (
    NOT_ABOUT_OWN_UNIT,
    capture_centers,
    finish,
    hold_value,
    unit_value,
)
from judge.adjudicator.position import Dislodged, Position
from judge.adjudicator.resolver import province_index
from judge.adjudicator.retreat_phase import adjudicate_retreats
from judge.adjudicator.retreats import retreat_options
from judge.adjudicator.verdicts import MovementVerdicts

_ILLEGAL = Outcome.ILLEGAL
_SUCCEEDS = Outcome.SUCCEEDS
_VOID = Outcome.VOID
DEFAULT_OPTIONS = Options()


def _movement(
    position: Position, orders: Mapping[str, Sequence[Order]], board: Board
) -> Adjudication:
    # the hot path of every game: written as flat loops over tuples on purpose
    units = position.units
    province = province_index(board)
    memo = movement_memo(board)
    entries: list[tuple[str, Order, Order | Refusal, str | None]] = []
    legal: dict[str, Order] = {}
    governed: set[str] = set()
    for power, given in orders.items():
        for order in given:
            norm = normalize_with(memo, units, power, order)
            prov: str | None = None
            if norm.__class__ is Refusal:
                if norm not in NOT_ABOUT_OWN_UNIT and order.__class__ is not Waive:
                    prov = province[order.location]  # type: ignore[union-attr]
            else:
                prov = province[norm.location]  # type: ignore[union-attr]
            if prov is not None:
                if prov in governed:
                    norm, prov = Refusal.DUPLICATE_ORDER, None
                else:
                    governed.add(prov)
                    if norm.__class__ is not Refusal:
                        legal[prov] = norm  # type: ignore[assignment]
            entries.append((power, order, norm, prov))
    resolver = MovementVerdicts(board, units, legal)
    resolver.run()
    fate = resolver.fate
    decided = resolver.result
    move_loc = resolver.move_loc
    arrivals = resolver.arrivals
    void = resolver.void
    by_power: dict[str, list[OrderResult]] = {}
    unit_results: dict[str, OrderResult] = {}
    new = tuple.__new__  # NamedTuple construction without the keyword-handling wrapper
    for power, order, norm, prov in entries:
        if norm.__class__ is Refusal:
            dislodger = fate(prov).dislodged_by if prov is not None else None
            r = new(OrderResult, (power, order, _ILLEGAL, norm, (), dislodger, False))
        elif (
            prov in move_loc and decided[prov] or prov not in arrivals and norm.__class__ is Hold
        ):  # the common case, without asking why
            r = new(OrderResult, (power, norm, _SUCCEEDS, None, (), None, False))
        elif prov in void and prov not in arrivals:
            r = new(OrderResult, (power, norm, _VOID, None, (), None, False))
        else:
            f = fate(prov)  # type: ignore[arg-type]
            r = new(OrderResult, (power, norm, f.outcome, None, f.by, f.dislodged_by, False))
        if power in by_power:
            by_power[power].append(r)
        else:
            by_power[power] = [r]
        if prov is not None:
            unit_results[prov] = r
    for prov, unit in units.items():
        if prov in governed:
            continue
        f = fate(prov)
        r = OrderResult(
            unit.power,
            hold_value(unit.type, unit.location),
            f.outcome,
            None,
            f.by,
            f.dislodged_by,
            True,
        )
        by_power.setdefault(unit.power, []).append(r)
        unit_results[prov] = r

    after: dict[str, Unit] = {}
    beaten: list[tuple[str, Unit, str]] = []
    for prov, unit in units.items():
        if prov in move_loc and decided[prov]:
            loc = move_loc[prov]
            after[province[loc]] = unit_value(unit.power, unit.type, loc)
            continue
        attacker = arrivals.get(prov)
        if attacker is None:
            after[prov] = unit
        else:
            beaten.append((prov, unit, attacker))
    standoffs = resolver.standoffs(after) if beaten else set()
    dislodged: dict[str, Dislodged] = {}
    destroyed: list[Unit] = []
    for prov, unit, attacker in beaten:
        origin = None if attacker in resolver.convoyed else attacker
        options = retreat_options(board, unit, after, origin, standoffs)
        if options:
            dislodged[prov] = Dislodged(unit, origin, options)
        else:
            destroyed.append(unit)
    nxt = finish(position.phase, board, after, dict(position.centers), dislodged, position.homes)
    return Adjudication(position.phase, by_power, unit_results, nxt, tuple(destroyed))


def adjudicate(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    options: Options = DEFAULT_OPTIONS,
    board: Board | None = None,
) -> Adjudication:
    """Adjudicate one phase; see the module docstring for the contract."""
    b = board or standard_board()
    kind = position.phase.kind
    if kind is PhaseType.MOVEMENT:
        return _movement(position, orders, b)
    if kind is PhaseType.RETREAT:
        return adjudicate_retreats(position, orders, b)
    return adjudicate_adjustments(position, orders, b, options)


__all__ = ["POWERS", "Adjudication", "Options", "adjudicate", "capture_centers"]
