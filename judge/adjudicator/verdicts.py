"""Reading a resolved movement phase: why each order did what it did, and the standoffs."""

from __future__ import annotations

from typing import Final

from judge.adjudicator.order_result import Outcome
from judge.adjudicator.orders import Convoy, SupportHold, SupportMove, Unit
from judge.adjudicator.resolver import (
    _PATH,
    SUCCESS_FATE,
    VOID_FATE,
    MovementResolver,
    UnitFate,
    unit_label,
)

_BOUNCED: Final = Outcome.BOUNCED
_DISLODGED: Final = Outcome.DISLODGED
_SUPPORT_CUT: Final = Outcome.SUPPORT_CUT


class MovementVerdicts(MovementResolver):
    """A ``MovementResolver`` that, once ``run()``, explains every unit's fate."""

    __slots__ = ()

    def moved(self, prov: str) -> bool:
        return prov in self.move_to and self.result[prov]

    def dislodger(self, prov: str) -> str | None:
        attacker = self.arrivals.get(prov)
        if attacker is None or (prov in self.move_to and self.result[prov]):
            return None
        return attacker

    def _blockers(self, prov: str) -> tuple[str, ...]:
        target = self.move_to[prov]
        attack = self._attack(prov)
        found: list[str] = []
        if prov in self.h2h:
            if attack <= self._defend(target):
                found.append(target)
        elif target in self.units and attack <= self._hold(target):
            found.append(target)
        for other in self.attackers[target]:
            if other != prov and attack <= self._prevent(other):
                found.append(other)
        units = self.units
        if len(found) == 1:
            return (unit_label(units[found[0]]),)
        return tuple(sorted([unit_label(units[p]) for p in found]))

    def bounced_by_land(self, prov: str) -> tuple[str, ...] | None:
        """``fate(prov).by`` for a move that failed into an empty province that only unsupported
        moves by land wanted (each prevents the others, 1 against 1, as ``run`` decides them),
        else None: the most common bounce, answered without redoing the strengths."""
        target = self.move_to[prov]
        units = self.units
        if target in units:
            return None
        rivals = self.attackers[target]
        if len(rivals) < 2:
            return None  # (a lone move by land into an empty province never fails)
        convoyed = self.convoyed
        move_support = self.move_support
        weak = self.weak
        for a in rivals:
            if a in convoyed or a in move_support or a in weak:
                return None
        if len(rivals) == 2:
            other = rivals[1] if rivals[0] == prov else rivals[0]
            return (unit_label(units[other]),)
        return tuple(sorted([unit_label(units[a]) for a in rivals if a != prov]))

    def fate(self, prov: str) -> UnitFate:
        """Outcome of the (legal) order of the unit in ``prov``; units without one held."""
        units = self.units
        result = self.result
        moving = prov in self.move_to
        attacker = self.arrivals.get(prov)
        if attacker is not None and not (moving and result[prov]):
            by_whom: str | None = unit_label(units[attacker])
        else:
            by_whom = None
        if moving:
            if result[prov]:
                return SUCCESS_FATE
            if prov in self.no_route:
                outcome = Outcome.NO_CONVOY_ROUTE
            elif prov in self.paradox:
                outcome = Outcome.CONVOY_PARADOX
            elif prov in self.convoyed and not self._resolve(_PATH + prov):
                outcome = Outcome.CONVOY_DISRUPTED
            else:
                return UnitFate(_BOUNCED, self._blockers(prov), by_whom)
            return UnitFate(outcome, (), by_whom)
        if by_whom is not None:
            return UnitFate(_DISLODGED, (by_whom,), by_whom)
        if prov in self.void:
            return VOID_FATE
        kind = self.orders.get(prov).__class__
        if kind is SupportHold or kind is SupportMove:
            cutter = self._cutter(prov)
            if cutter is not None:
                return UnitFate(_SUPPORT_CUT, (unit_label(units[cutter]),), None)
        elif kind is Convoy and self.orders[prov].army in self.paradox:  # type: ignore[union-attr]
            return UnitFate(Outcome.CONVOY_PARADOX)
        return SUCCESS_FATE

    def standoffs(self, occupied: set[str] | dict[str, Unit]) -> set[str]:
        """Vacant provinces where a move that could have arrived did not."""
        out: set[str] = set()
        for prov, target in self.move_to.items():
            if target in occupied or self.result[prov]:
                continue
            if prov in self.convoyed and not self._has_path(prov):
                continue
            if self._head_to_head(prov) and self.result[target]:
                continue  # beaten head to head: no standoff in the winner's old province
            out.add(target)
        return out
