"""One order's result: its outcome and why (``outcomes.py`` re-exports both names).

A module of its own so that the optional compiled build (setup.py) compiles ``OrderResult`` as
a native class: one is made per order per phase, and a native class is made in about a
twentieth of the time of the NamedTuple it was (callgrind: some 2,000 machine instructions
each through ``tuple.__new__``, a quarter of a batch's explaining). ``order_result_json``,
one result as the JSON of ``judge adjudicate``, lives here too, to tell outcomes apart by
identity. ``outcomes.py`` (the rule options, and these names re-exported) stays pure Python.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final, final

from judge.adjudicator.field_value import FieldValue
from judge.adjudicator.orders import Order
from judge.adjudicator.refusals import Refusal


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

    __hash__ = str.__hash__  # in C, as UnitType (orders.py)


@final
class OrderResult(FieldValue):
    """One order and its fate. ``generated`` orders were supplied by the rules, not the player.
    A value (``field_value.py``)."""

    __slots__ = ("power", "order", "outcome", "refusal", "by", "dislodged_by", "generated")
    _NAMES = ("power", "order", "outcome", "refusal", "by", "dislodged_by", "generated")

    power: Final[str]
    order: Final[Order]
    outcome: Final[Outcome]
    refusal: Final[Refusal | None]
    by: Final[tuple[str, ...]]  # the units (``A PAR``) responsible for the outcome
    dislodged_by: Final[str | None]  # set when the ordered unit was dislodged, whatever its order
    generated: Final[bool]

    def __init__(
        self,
        power: str,
        order: Order,
        outcome: Outcome,
        refusal: Refusal | None = None,
        by: tuple[str, ...] = (),
        dislodged_by: str | None = None,
        generated: bool = False,
    ) -> None:
        self.power = power
        self.order = order
        self.outcome = outcome
        self.refusal = refusal
        self.by = by
        self.dislodged_by = dislodged_by
        self.generated = generated

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.power, self.order, self.outcome, self.refusal, self.by, self.dislodged_by,
            self.generated,
        )

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCEEDS

    def to_json(self, order_text: str | None = None) -> dict[str, Any]:
        """``order_text``: ``str(self.order)``, when the caller has it already."""
        return order_result_json(self, str(self.order) if order_text is None else order_text)


_SUCCEEDS: Final = Outcome.SUCCEEDS
# the texts of outcomes and refusals, looked up by the member (hashed as its text, in C): reading
# ``.value`` or ``._value_`` of a member is an attribute look-up through Python's API, per order
_REASONS: Final[dict[Outcome, str]] = {o: o.value for o in Outcome}
_REFUSALS: Final[dict[Refusal, str]] = {r: r.value for r in Refusal}


def order_result_json(result: OrderResult, order_text: str) -> dict[str, Any]:
    """One order's result as the JSON of ``judge adjudicate`` (``OrderResult.to_json``; a batch
    writes one per order). ``order_text``: ``str(result.order)`` (callers that write many keep
    the texts)."""
    outcome = result.outcome
    if outcome is _SUCCEEDS:
        out: dict[str, Any] = {"order": order_text, "result": "succeeds"}
    else:
        out = {"order": order_text, "result": "fails", "reason": _REASONS[outcome]}
    refusal = result.refusal
    if refusal is not None:
        out["refusal"] = _REFUSALS[refusal]
    if result.by:
        out["by"] = list(result.by)
    if result.dislodged_by is not None:
        out["dislodged_by"] = result.dislodged_by
    if result.generated:
        out["generated"] = True
    return out
