"""Holds and moves answered from a per-order cache: the adjudicator's fast path for legality.

Most orders of a phase are holds and moves that came before (a unit holding, moving to the
province it bounced from). Their legality is decided by the map once the ordered unit is known,
apart from one question about the other units (can fleets at sea carry an army that must go by
sea?). For each distinct hold or move a *plan* records that unit and the answer
``legality.normalize_with`` gives when it stands so; the adjudicator checks the unit in the real
position and takes the answer, or asks ``normalize_with`` when it differs. The answer is computed
by ``normalize_with`` itself (``move_entry`` for moves), so the two paths cannot disagree.

Supports are planned from their first real answer instead: there are many more distinct ones
(a unit, a supported unit and a target), so the plan costs nothing extra to make and is only
kept when the answer was a legal order. Its answer holds wherever both units stand as they stood
then (``normalize_with`` reads nothing else for a support). Convoys are rarely given twice and
are not planned.
"""

from __future__ import annotations

from typing import Final, Literal

from judge.adjudicator.legality import MovementMemo, Plan, move_entry, normalize_with
from judge.adjudicator.orders import (
    Hold,
    Move,
    Order,
    UnitType,
    unit_value,
)

NO_PLAN: Final = False  # an order the general path handles (an unknown location)
# plans are kept by the order itself: orders are shared per text (``orders.parse_canonical``),
# keep their hash, and a look-up of the same object compares nothing more
PlanKey = Order


def make_plan(memo: MovementMemo, order: Hold | Move, power: str) -> Plan | Literal[False]:
    """The plan of one hold or move, first seen given by ``power``, or ``NO_PLAN``.

    The answer does not depend on the power once the caller has checked ownership: the plan
    serves every power, ``power`` only makes the identity check of the common case possible.
    """
    loc = order.location
    prov = memo.province.get(loc)
    if prov is None:
        return NO_PLAN
    kind = order.unit_type
    unit = unit_value(power, kind, loc)
    if type(order) is Move:
        answer, by_sea = move_entry(memo, unit, order)
        if type(answer) is not Move:
            return (prov, unit, power, kind, loc, answer, by_sea, None, "", False, False)
        target = answer.target
        target_prov = memo.province[target]
        army = answer.unit_type is UnitType.ARMY
        # as OrderIndex.add_move: an army that wants the sea (VIA, or not adjacent)
        at_sea = army and (
            answer.via_convoy or target_prov not in memo.board.army_adjacency[prov]
        )
        return (prov, unit, power, kind, loc, answer, by_sea, target_prov, target, army, at_sea)
    answer = normalize_with(memo, {prov: unit}, power, order)
    return (prov, unit, power, kind, loc, answer, False, None, "", False, False)


