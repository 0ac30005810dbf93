"""The promise ledger: what breaks each agreement, the verdict after each phase, and trust.

An accepted agreement holds until it is broken (peace, alliance, neutral zone, shared centres)
or, for a support, for the next movement phase only. After each adjudicated movement phase
``judge_phase`` reads the orders given (legal ones only: an order the judge refused changed
nothing) and the outcome, and says for every active agreement whether it was kept or broken,
by whom, and by which order:

* peace / alliance: a party ordered a move into a province where the other party's unit stood
  or into a centre the other owned, or supported a third power's move there;
* neutral zone: a party ordered a move into the zone;
* shared centres: a party ordered a move into a centre promised to the other;
* support: the supporter had a unit that could give the support (``possible_orders``) and did
  not; a support that no unit could give is kept (nothing could be done).

``Trust`` is each power's view of each other power, in [-1, 1]. A kept agreement raises it by the
holder's ``gratitude``; a broken one lowers it by half the holder's ``betrayal_weight`` and adds a
scar: every Winter ``forgive`` moves the value back towards the scar floor (−0.15 per betrayal)
at the holder's ``forgiveness`` rate, never above it, so a betrayal is paid for durably.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from judge.adjudicator.legality import Refusal, normalize
from judge.adjudicator.orders import Move, Order, SupportMove
from judge.adjudicator.position import Position
from judge.adjudicator.possible import possible_orders
from judge.bots.personality import Personality
from judge.bots.proposals import Kind, Proposal

SCAR = 0.15


class Status(StrEnum):
    PROPOSED = "proposed"
    ACTIVE = "active"
    REFUSED = "refused"
    KEPT = "kept"  # a one-phase agreement (support) that was honoured
    BROKEN = "broken"


@dataclass(slots=True)
class Agreement:
    number: int
    proposal: Proposal
    since: str  # the phase it was accepted in
    status: Status = Status.ACTIVE
    broken_by: str | None = None
    evidence: str | None = None  # the canonical order that broke it


@dataclass(frozen=True, slots=True)
class Verdict:
    number: int
    kept: bool
    breaker: str | None = None
    evidence: str | None = None


def _province(location: str) -> str:
    return location.split("/", 1)[0]


def _legal(position: Position, orders: Mapping[str, Sequence[Order]]) -> dict[str, list[Order]]:
    return {
        power: [o for o in given if not isinstance(normalize(position, power, o), Refusal)]
        for power, given in orders.items()
    }


def _hostile(position: Position, actor: str, victim: str, order: Order) -> bool:
    if isinstance(order, Move):
        dest = _province(order.target)
    elif isinstance(order, SupportMove):
        dest = _province(order.target)
        mover = position.units.get(_province(order.supported))
        if mover is None or mover.power in (actor, victim):
            return False  # own supports are judged through the move they back
    else:
        return False
    unit = position.units.get(dest)
    return (unit is not None and unit.power == victim) or position.centers.get(dest) == victim


def _breach(position: Position, agreement: Agreement, orders: dict[str, list[Order]]) -> Verdict:
    deal = agreement.proposal
    a, b = deal.parties
    if deal.kind in (Kind.PEACE, Kind.ALLIANCE):
        for actor, victim in ((a, b), (b, a)):
            for order in orders.get(actor, ()):
                if _hostile(position, actor, victim, order):
                    return Verdict(agreement.number, False, actor, str(order))
    elif deal.kind is Kind.DMZ:
        for actor in (a, b):
            for order in orders.get(actor, ()):
                if isinstance(order, Move) and _province(order.target) == deal.zone:
                    return Verdict(agreement.number, False, actor, str(order))
    elif deal.kind is Kind.SHARE:
        for place, owner in deal.shares:
            actor = b if owner == a else a
            for order in orders.get(actor, ()):
                if isinstance(order, Move) and _province(order.target) == place:
                    return Verdict(agreement.number, False, actor, str(order))
    elif deal.kind is Kind.SUPPORT and deal.order is not None:
        move = deal.order
        mover = position.units.get(_province(move.location))
        supporter = b if mover is not None and mover.power == a else a
        if mover is None:
            return Verdict(agreement.number, True)
        wanted = _province(move.target)

        def backs(o: Order) -> bool:
            return (
                isinstance(o, SupportMove)
                and _province(o.supported) == _province(move.location)
                and _province(o.target) == wanted
            )

        if any(backs(o) for o in orders.get(supporter, ())):
            return Verdict(agreement.number, True)
        could = any(
            backs(o) for options in possible_orders(position, supporter).values() for o in options
        )
        if could:
            return Verdict(agreement.number, False, supporter, None)
    return Verdict(agreement.number, True)


def judge_phase(
    position: Position, orders: Mapping[str, Sequence[Order]], agreements: Sequence[Agreement]
) -> list[Verdict]:
    """Verdicts for the active agreements after the movement phase played from ``position``."""
    if not position.phase.is_movement:
        return []
    legal = _legal(position, orders)
    return [_breach(position, a, legal) for a in agreements if a.status is Status.ACTIVE]


def apply_verdicts(agreements: Sequence[Agreement], verdicts: Sequence[Verdict]) -> None:
    by_number = {a.number: a for a in agreements}
    for verdict in verdicts:
        agreement = by_number[verdict.number]
        if not verdict.kept:
            agreement.status = Status.BROKEN
            agreement.broken_by = verdict.breaker
            agreement.evidence = verdict.evidence
        elif agreement.proposal.kind is Kind.SUPPORT:
            agreement.status = Status.KEPT


REFUSED = 0.02  # trust lost when a proposal is refused
REFUSED_DEMAND = 0.1  # ... and when a demand is


@dataclass
class Trust:
    """``values[(holder, other)]``: how far ``holder`` trusts ``other``; 0 to begin with."""

    values: dict[tuple[str, str], float] = field(default_factory=dict)
    betrayals: dict[tuple[str, str], int] = field(default_factory=dict)

    def of(self, holder: str, other: str) -> float:
        return self.values.get((holder, other), 0.0)

    def _set(self, holder: str, other: str, value: float) -> None:
        self.values[(holder, other)] = max(-1.0, min(1.0, value))

    def record(
        self,
        agreement: Agreement,
        verdict: Verdict,
        characters: Mapping[str, Personality],
    ) -> None:
        a, b = agreement.proposal.parties
        for holder, other in ((a, b), (b, a)):
            person = characters.get(holder)
            if person is None:
                continue  # a human keeps no trust figures
            if verdict.kept:
                self._set(holder, other, self.of(holder, other) + person.gratitude)
            elif verdict.breaker == other:
                key = (holder, other)
                self.betrayals[key] = self.betrayals.get(key, 0) + 1
                self._set(holder, other, self.of(holder, other) - 0.5 * person.betrayal_weight)

    def refused(self, holder: str, other: str, demand: bool) -> None:
        """``other`` said no to ``holder``'s proposal: a small cost, more for a demand (a
        refusal to keep out of ``holder``'s own centre reads as a threat)."""
        self._set(holder, other, self.of(holder, other) - (REFUSED_DEMAND if demand else REFUSED))

    def forgive(self, characters: Mapping[str, Personality]) -> None:
        """Once a year: lost trust comes back towards the scar floor, never above it."""
        for (holder, other), value in list(self.values.items()):
            person = characters.get(holder)
            floor = -SCAR * self.betrayals.get((holder, other), 0)
            if person is not None and value < floor:
                self._set(holder, other, value + person.forgiveness * (floor - value))
