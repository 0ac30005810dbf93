"""The house-rule keys of a ``judge adjudicate`` request, and the orders they make up.

Keys (all optional): ``"rules": "italian" | "rulebook" | "french"``; ``"onp": {"FRANCE": 1}`` (consecutive
ONP count reached in this movement phase: 1 = mutual support, 2 or more = abandoned, most voted
orders); ``"sommossa": ["TURKEY"]``; ``"votes": {"TURKEY": {"ENGLAND": ["A CON - BUL"]}}``
(orders other players sent for an abandoned or Sommossa power); ``"homes"``
(power -> home centres; default the variant's). The adjudicator's keys ``"variant"`` and
``"options"`` are read here too: the made-up orders are the variant's powers' (neutral ones make
none) and removals count distance as ``options.removal_distance`` says, as the adjudicator does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from judge.adjudicator.adjustments import RemovalDistance
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.jsonio import RequestError, options_from_json, variant_from_request
from judge.adjudicator.orders import NotationError, Order, parse_canonical
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.rules.fill import Standing, generate_orders, holds_for_silence
from judge.rules.generated import GeneratedOrder
from judge.rules.options import RuleSet

# keys only the house rules read ("homes" is part of the adjudicator's contract too)
HOUSE_KEYS: Final = ("rules", "onp", "sommossa", "votes")


_MOVEMENT_RANK: Final = 0  # Phase.kind_rank of a movement phase


class HouseRequestError(ValueError):
    """The house-rule keys of a request are malformed (the message says how)."""


@dataclass(frozen=True, slots=True)
class HouseRequest:
    rules: RuleSet = RuleSet.ITALIAN
    onp: Mapping[str, int] = field(default_factory=dict)
    sommossa: frozenset[str] = frozenset()
    votes: Mapping[str, Mapping[str, Sequence[Order]]] = field(default_factory=dict)
    homes: Mapping[str, tuple[str, ...]] | None = None
    variant: Variant = field(default_factory=installed_variant)
    distance: RemovalDistance = RemovalDistance.HOME
    joins: str | None = None


def _power(name: Any, where: str, powers: Sequence[str]) -> str:
    if not isinstance(name, str) or name.upper() not in powers:
        raise HouseRequestError(f"{where}: unknown power {name!r}")
    return name.upper()


def _orders(texts: Any, where: str) -> list[Order]:
    if not isinstance(texts, list):
        raise HouseRequestError(f"{where}: expected a list of orders")
    try:
        return [parse_canonical(t) for t in texts]
    except (NotationError, AttributeError) as exc:
        raise HouseRequestError(f"{where}: {exc}") from exc


# the keys read below besides the adjudicator's: a request with none of them (most of a batch)
# gets the defaults, one value per variant and options (a HouseRequest is immutable)
_OWN_KEYS: Final = (*HOUSE_KEYS, "homes")
_PLAIN: Final[dict[tuple[str, RemovalDistance, str | None], HouseRequest]] = {}


def _plain_request(variant: Variant, distance: RemovalDistance, joins: str | None) -> HouseRequest:
    key = (variant.name, distance, joins)
    request = _PLAIN.get(key)
    if request is None or request.variant is not variant:
        request = _PLAIN[key] = HouseRequest(variant=variant, distance=distance, joins=joins)
    return request


def read_house_request(obj: Mapping[str, Any]) -> HouseRequest:
    try:
        variant = variant_from_request(obj)
        options = options_from_json(obj.get("options"), variant, obj.get("italy_joins"))
    except RequestError as exc:
        raise HouseRequestError(str(exc)) from exc
    if not any(key in obj for key in _OWN_KEYS):
        return _plain_request(variant, options.removal_distance, options.joins)
    powers = variant.powers
    rules_text = obj.get("rules", RuleSet.ITALIAN.value)
    try:
        rules = RuleSet(rules_text)
    except ValueError as bad:  # not ``exc``: the compiled build gives a name one type
        raise HouseRequestError(f'"rules" must be "italian", "rulebook" or "french", not {rules_text!r}') from bad
    onp_raw = obj.get("onp", {})
    if not isinstance(onp_raw, dict):
        raise HouseRequestError('"onp" must map powers to ONP counts')
    onp: dict[str, int] = {}
    for name, count in onp_raw.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise HouseRequestError(f'"onp": {name} needs a count of 0 or more')
        onp[_power(name, '"onp"', powers)] = count
    sommossa_raw = obj.get("sommossa", [])
    if not isinstance(sommossa_raw, list):
        raise HouseRequestError('"sommossa" must be a list of powers')
    sommossa = frozenset(_power(n, '"sommossa"', powers) for n in sommossa_raw)
    votes_raw = obj.get("votes", {})
    if not isinstance(votes_raw, dict):
        raise HouseRequestError('"votes" must map powers to {voter: [orders]}')
    votes: dict[str, dict[str, list[Order]]] = {}
    for name, by_voter in votes_raw.items():
        power = _power(name, '"votes"', powers)
        if not isinstance(by_voter, dict):
            raise HouseRequestError(f'"votes": {power} must map voters to orders')
        votes[power] = {
            _power(v, f'"votes" for {power}', powers): _orders(texts, f'"votes" {power} from {v}')
            for v, texts in by_voter.items()
        }
    homes_raw = obj.get("homes")
    homes = None
    if homes_raw is not None:
        if not isinstance(homes_raw, dict):
            raise HouseRequestError('"homes" must map powers to home centres')
        board = variant.board
        homes = {}
        for name, centres in homes_raw.items():
            codes = tuple(sorted(str(c).upper() for c in centres))
            for code in codes:
                if code not in board.provinces or not board.provinces[code].supply_center:
                    raise HouseRequestError(f'"homes": {code} is not a supply centre')
            homes[_power(name, '"homes"', powers)] = codes
    return HouseRequest(
        rules, onp, sommossa, votes, homes, variant, options.removal_distance, options.joins
    )


def standing_of(request: HouseRequest, power: str, position: Position) -> Standing:
    if power in request.sommossa:
        return Standing.SOMMOSSA
    count = request.onp.get(power, 0)
    # the phase's rank, not its ``is_movement`` property: asked for every power of every request
    if count == 0 or position.phase.kind_rank != _MOVEMENT_RANK:
        return Standing.PLAYING
    return Standing.FIRST_ONP if count == 1 else Standing.ABANDONED


def house_orders(
    position: Position, submitted: Mapping[str, Sequence[Order]], request: HouseRequest
) -> dict[str, list[GeneratedOrder]]:
    """Every order the house rules make up, per power (powers with none left out)."""
    if request.homes is not None:
        position = replace(position, homes={**position.homes, **request.homes})
    result: dict[str, list[GeneratedOrder]] = {}
    # a dict, for the compiled build: a Mapping's ``get`` is a call through Python, 7 a request
    by_power = submitted if isinstance(submitted, dict) else dict(submitted)
    variant = request.variant
    try:
        rules = variant.rules_at(position.phase, request.joins)
    except ValueError as exc:
        raise HouseRequestError(str(exc)) from exc
    board, neutral = rules.board, rules.neutral
    movement = position.phase.kind_rank == _MOVEMENT_RANK
    # nobody in ONP or Sommossa: every power is PLAYING (``standing_of``), the common case
    everyone_plays = not request.onp and not request.sommossa
    if movement and everyone_plays and not holds_for_silence(request.rules):
        return result  # nothing is made up for a playing power in a movement phase (fill.py)
    with_units: set[str] | None = None  # the powers with a unit, when first needed
    for power in variant.powers:  # the active ones (``Variant.active_powers``), in its order
        if power in neutral:
            continue
        given = by_power.get(power)
        if movement and everyone_plays:
            if given:
                # its player's orders: nothing is made up in a movement phase
                # (``fill.generate_orders`` makes holds only for a player who sent none), the
                # common case of a batch
                continue
            if with_units is None:
                with_units = {u.power for u in position.units.values()}
            if power not in with_units:
                continue  # none sent, and no unit to hold: an eliminated power (most of them)
        standing = standing_of(request, power, position)
        own = tuple(given) if given else ()
        if standing is not Standing.PLAYING and own:
            raise HouseRequestError(
                f"{power} has orders but is marked as {standing.value}: send one or the other"
            )
        if movement and own and standing is Standing.PLAYING:
            continue
        by_voter = request.votes.get(power)
        votes = {v: o for v, o in by_voter.items() if v != power} if by_voter else {}
        made = generate_orders(
            position, power, own, standing, request.rules, votes, board, request.distance
        )
        if made:
            result[power] = made
    return result
