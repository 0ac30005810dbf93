"""What happened to each order, and why: enough for a reply to explain every failure."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from judge.adjudicator.adjustments import RemovalDistance
from judge.adjudicator.legality import Refusal
from judge.adjudicator.orders import Order, Unit
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position


class Outcome(StrEnum):
    """Why an order did what it did; ``OrderResult.by`` names the units responsible."""

    SUCCEEDS = "succeeds"
    # a move or retreat stopped by the units in ``by``: standoff, defender, head-to-head
    BOUNCED = "bounced"
    # no chain of fleets was ordered to carry the army
    NO_CONVOY_ROUTE = "no_convoy_route"
    # the fleets were ordered, but dislodgements broke every chain
    CONVOY_DISRUPTED = "convoy_disrupted"
    # the Szykman rule: the convoyed move fails and has no effect
    CONVOY_PARADOX = "convoy_paradox"
    # the unit (holding, supporting or convoying) was dislodged by ``by``
    DISLODGED = "dislodged"
    # the support was cut by the attack from ``by``
    SUPPORT_CUT = "support_cut"
    # a support or convoy for an order nobody gave
    VOID = "void"
    # see ``OrderResult.refusal``; the unit holds (movement) or is disbanded (retreat)
    ILLEGAL = "illegal"


class OrderResult(NamedTuple):
    """One order and its fate. ``generated`` orders were supplied by the rules, not the player.

    A NamedTuple rather than a frozen dataclass: one is built per order per phase, and this is
    the adjudicator's hot path.
    """

    power: str
    order: Order
    outcome: Outcome
    refusal: Refusal | None = None
    by: tuple[str, ...] = ()  # the units (``A PAR``) responsible for the outcome
    dislodged_by: str | None = None  # set when the ordered unit was dislodged, whatever its order
    generated: bool = False

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCEEDS

    def to_json(self) -> dict:
        out: dict = {"order": str(self.order)}
        out["result"] = "succeeds" if self.succeeded else "fails"
        if not self.succeeded:
            out["reason"] = self.outcome.value
        if self.refusal is not None:
            out["refusal"] = self.refusal.value
        if self.by:
            out["by"] = list(self.by)
        if self.dislodged_by is not None:
            out["dislodged_by"] = self.dislodged_by
        if self.generated:
            out["generated"] = True
        return out


@dataclass(frozen=True, slots=True)
class Options:
    """Rule variants the seeds leave open (see CHOICES.md)."""

    removal_distance: RemovalDistance = RemovalDistance.HOME


@dataclass(frozen=True)
class Adjudication:
    """Everything one phase decided; see ``adjudication.py`` for the contract."""

    phase: Phase
    results: dict[str, list[OrderResult]]
    unit_results: dict[str, OrderResult]
    position: Position
    destroyed: tuple[Unit, ...] = field(default=())

    def submitted(self, power: str) -> list[OrderResult]:
        return [r for r in self.results.get(power, ()) if not r.generated]

    def generated(self, power: str) -> list[OrderResult]:
        return [r for r in self.results.get(power, ()) if r.generated]
