"""``judge adjudicate`` with the house rules: the design's JSON contract plus the keys of
:mod:`judge.rules.house_request`. The answer adds ``"generated"`` (power -> canonical orders the
judge made up, in the order they were made) and ``"generated_reasons"`` (power -> the same orders
as ``{"order", "why"}`` objects, ``why`` a :class:`judge.rules.generated.GeneratedWhy` value);
for powers at their second ONP, ``"abandonment"``: power -> ``"await_replacement"`` (three
centres, two at home) or ``"sommossa"``."""

from __future__ import annotations

from typing import Any

from judge.adjudicator.jsonio import (
    RequestError,
    answer_json,
    options_from_json,
    orders_from_json,
    position_from_json,
)
from judge.rules.fill import Standing
from judge.rules.generated import GeneratedOrder
from judge.rules.house_request import (
    HOUSE_KEYS,
    HouseRequestError,
    house_orders,
    read_house_request,
    standing_of,
)
from judge.rules.onp import after_abandonment


def adjudicate_json_with_rules(obj: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise RequestError("a request must be a JSON object")
    try:
        request = read_house_request(obj)
    except HouseRequestError as exc:
        raise RequestError(str(exc)) from exc
    # the request without the house keys (itself when it has none: it is only read)
    plain = obj
    if any(key in obj for key in HOUSE_KEYS):
        plain = {k: v for k, v in obj.items() if k not in HOUSE_KEYS}
    position = position_from_json(plain, request.variant)
    submitted = orders_from_json(plain.get("orders", {}), position, request.variant)
    try:
        made = house_orders(position, submitted, request)
    except HouseRequestError as exc:
        raise RequestError(str(exc)) from exc
    # the request is read once: the made-up orders are read as the submitted ones were
    # (``orders_from_json``), after them, power by power
    orders = submitted
    if made:
        orders = dict(submitted)
        for power, generated in made.items():
            extra = orders_from_json({power: [str(g) for g in generated]}, position, request.variant)
            orders[power] = orders.get(power, []) + extra[power]
    options = options_from_json(
        plain.get("options"), request.variant, plain.get("italy_joins"), position.phase
    )
    answer = answer_json(position, orders, options, request.variant)
    _mark_generated(answer, made)
    answer["generated"] = {p: [str(g) for g in gen] for p, gen in made.items()}
    answer["generated_reasons"] = {
        p: [{"order": str(g), "why": g.why.value} for g in gen] for p, gen in made.items()
    }
    abandoned = {
        p: after_abandonment(position, p).value
        for p in request.onp
        if standing_of(request, p, position) is Standing.ABANDONED
    }
    if abandoned:
        answer["abandonment"] = abandoned
    return answer


def _mark_generated(answer: dict[str, Any], made: dict[str, list[GeneratedOrder]]) -> None:
    """The adjudicator saw the house rules' orders as submitted: flag them in its results."""
    for power, generated in made.items():
        pending = [(str(g), g.why.value) for g in generated]
        for entry in answer.get("results", {}).get(power, []):
            if entry.get("generated"):
                continue
            for i, (text, why) in enumerate(pending):
                if entry.get("order") == text:
                    entry["generated"] = True
                    entry["why"] = why
                    del pending[i]
                    break
