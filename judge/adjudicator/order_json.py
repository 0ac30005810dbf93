"""One order's result as the JSON of ``judge adjudicate`` (``OrderResult.to_json``).

A module of its own, apart from ``outcomes.py``, so that the optional compiled build (setup.py)
compiles it: a batch writes one of these per order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # outcomes.py imports this module
    from judge.adjudicator.order_result import OrderResult


def order_result_json(result: OrderResult, order_text: str) -> dict[str, Any]:
    """``order_text``: ``str(result.order)`` (callers that write many keep the texts)."""
    # ``_value_`` rather than ``value``: the same string without the enum's descriptor, which
    # costs a microsecond per order of a batch
    outcome = result.outcome
    if outcome == "succeeds":  # Outcome.SUCCEEDS (a StrEnum equals its value)
        out: dict[str, Any] = {"order": order_text, "result": "succeeds"}
    else:
        out = {"order": order_text, "result": "fails", "reason": outcome._value_}
    refusal = result.refusal
    if refusal is not None:
        out["refusal"] = refusal._value_
    if result.by:
        out["by"] = list(result.by)
    if result.dislodged_by is not None:
        out["dislodged_by"] = result.dislodged_by
    if result.generated:
        out["generated"] = True
    return out
