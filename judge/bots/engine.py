"""The computer power's entry point: ``bot_orders(position, power, rng, ...)``.

Every phase kind is covered (movement with supports and convoys, retreats, builds and removals),
for any power on the board given. Orders come from the adjudicator's ``possible_orders`` lists
only, so they are legal by construction (the tests check every one with ``legality.check``).
``plain=True`` gives the DumbBot-style baseline of ``baseline.py`` (no cooperation, no convoys,
no search, no personality) that the benchmark plays against.

``commitments`` is what the diplomat decided to honour this phase: provinces not to enter
(neutral zones, a partner's centres), powers whose units are not to be attacked, and support
orders promised to another power (given when legal, they replace the supporting unit's order).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Move, Order, SupportMove
from judge.adjudicator.outcomes import Options
from judge.adjudicator.position import Position
from judge.adjudicator.possible import possible_orders
from judge.adjudicator.variant import Variant
from judge.bots.baseline import (
    Legal,
    adjustment_orders,
    movement_orders,
    own_moves,
    retreat_orders,
)
from judge.bots.mapview import MapView, view_of_variant
from judge.bots.personality import Personality, personality
from judge.bots.search import budget_for, improve
from judge.bots.tactics import add_convoys, add_supports
from judge.bots.valuation import Valuation, Weights, power_size, reach_counts, value_position

BASE_WEIGHTS = Weights()
PLAIN_TEMPERATURE = 0.08  # the baseline's randomness
CANDIDATES = 6
REPLIES = 3  # likely replies the search climbs against
FRESH = 6  # and the fresh ones its finalists are tried against (``search.FINALISTS``)


@dataclass(frozen=True, slots=True)
class Commitments:
    avoid: frozenset[str] = frozenset()
    spare: frozenset[str] = frozenset()
    supports: tuple[Order, ...] = ()
    # own moves another power promised to support: made as agreed (a supported attack is the
    # only way a lone unit takes a held centre, e.g. on Pure where every power has one army)
    moves: tuple[Order, ...] = ()
    stance: Mapping[str, float] = field(default_factory=dict)  # power -> attack value multiplier


NO_COMMITMENTS = Commitments()


def _weights(person: Personality, view: MapView) -> Weights:
    """A computer power's own weights: its character's appetites, and every centre worth the
    same whoever holds it, what the centre of a power of average size is worth on the map.
    DumbBot's size term (n^2 + 4n + 16 for an owner of n centres) makes a big power's centres
    the juicier target, a greedy player's reflex; a power that searches does better taking the
    centres it can reach, whoever holds them. The other powers' likely replies keep the
    baseline's weights: that is how they play."""
    average = len(view.supply_centers) / max(len(view.powers), 1)
    return replace(
        BASE_WEIGHTS,
        size_square=0.0,
        size_linear=0.0,
        size_constant=power_size(BASE_WEIGHTS, round(average)),
        spring_attack=BASE_WEIGHTS.spring_attack * person.attack,
        fall_attack=BASE_WEIGHTS.fall_attack * person.attack,
        spring_defence=BASE_WEIGHTS.spring_defence * person.defence,
        fall_defence=BASE_WEIGHTS.fall_defence * person.defence,
    )


def _avoided(position: Position, power: str, commitments: Commitments) -> frozenset[str]:
    spared = {
        prov
        for prov, unit in position.units.items()
        if unit.power in commitments.spare and unit.power != power
    }
    spared |= {
        prov
        for prov, owner in position.centers.items()
        if owner in commitments.spare and owner != power
    }
    return commitments.avoid | frozenset(spared)


def _honour(
    chosen: dict[str, Order], legal: Mapping[str, list[Order]], promised: tuple[Order, ...]
) -> None:
    for order in promised:
        loc = order.location  # type: ignore[union-attr]
        if loc in legal and order in legal[loc]:
            chosen[loc] = order
            if isinstance(order, Move):
                _clear_way(chosen, legal, loc, order)


def _clear_way(
    chosen: dict[str, Order], legal: Mapping[str, list[Order]], mover: str, move: Move
) -> None:
    """Another own unit bound for the same province backs the promised move instead (or
    holds): two own units must not bounce each other."""
    dest = move.target.split("/", 1)[0]
    for loc, order in list(chosen.items()):
        if loc == mover or not isinstance(order, Move):
            continue
        if order.target.split("/", 1)[0] != dest:
            continue
        backing = next(
            (
                o
                for o in legal[loc]
                if isinstance(o, SupportMove) and o.supported == mover and o.target == move.target
            ),
            None,
        )
        chosen[loc] = backing or legal[loc][0]


def phase_rules(v: Variant, position: Position, joins: str | None = None) -> tuple[Board, Options]:
    """The board of the position's phase (seed 001's two-player map is closed around neutral
    Italy until the lot) and the adjudication options the search plays it with. After the lot
    the board and the neutral powers are the same whichever seat Italy joined, so when the
    caller does not say, any seat's power stands in for it."""
    if joins is None and v.lot is not None and v.lot_drawn(position.phase):
        joins = v.seats[0][0]
    return v.rules_at(position.phase, joins).board, Options(joins=joins)


def bot_orders(
    position: Position,
    power: str,
    rng: random.Random,
    person: Personality | str | None = None,
    variant: Variant | None = None,
    commitments: Commitments = NO_COMMITMENTS,
    plain: bool = False,
    joins: str | None = None,
) -> list[Order]:
    """``joins``: on a map with a lot (standard-2), the power neutral Italy joined, once drawn."""
    v = variant or installed_variant(position.variant)
    b, options = phase_rules(v, position, joins)
    view = view_of_variant(v)
    legal = possible_orders(position, power, b)
    if not legal:
        return []
    character = person if isinstance(person, Personality) else personality(person)
    weights = BASE_WEIGHTS if plain else _weights(character, view)
    temperature = PLAIN_TEMPERATURE if plain else character.temperature
    stance = None if plain else commitments.stance
    counts = reach_counts(view, position)
    valuation = value_position(view, position, power, weights, stance, counts)
    if position.phase.is_retreat:
        return retreat_orders(legal, valuation, rng, 0.0 if not plain else temperature)
    if position.phase.is_adjustment:
        return adjustment_orders(
            position, power, legal, valuation, rng, 0.0 if not plain else temperature
        )
    if plain:
        return list(
            movement_orders(position, power, legal, valuation, rng, temperature, view).values()
        )
    avoid = _avoided(position, power, commitments)
    moves = own_moves(legal)
    candidates: list[list[Order]] = []
    seen: set[frozenset[Order]] = set()
    for i in range(CANDIDATES):
        chosen = movement_orders(
            position,
            power,
            legal,
            valuation,
            rng,
            0.0 if i == 0 else temperature + 0.05 * i,
            view,
            avoid,
            moves,
        )
        chosen = add_convoys(b, view, position, power, legal, chosen, valuation, eager=i % 2 == 1)
        chosen = add_supports(position, power, legal, chosen, valuation, eager=i % 3 == 2)
        _honour(chosen, legal, commitments.moves + commitments.supports)
        orders = [chosen[loc] for loc in sorted(chosen)]
        key = frozenset(orders)
        if key not in seen:
            seen.add(key)
            candidates.append(orders)
    models = reply_models(b, view, position, power, counts)
    replies = likely_replies(models, view, position, rng)
    fixed = {o.location for o in commitments.moves + commitments.supports  # type: ignore[union-attr]
             if o.location in legal and o in legal[o.location]}  # type: ignore[union-attr]
    return improve(
        v, view, position, power, legal, candidates, replies, valuation, character.risk, rng,
        options, b, fixed, avoid, budget_for(len(legal)),
        likely_replies(models, view, position, rng, FRESH),
    )[0]


ReplyModels = dict[str, tuple[Valuation, Legal, Legal]]  # power -> values, legal orders, moves


def reply_models(
    board: Board,
    view: MapView,
    position: Position,
    power: str,
    counts: dict[str, dict[str, int]],
) -> ReplyModels:
    """The other powers whose units could meet ours, with the baseline's values and legal
    orders: made once a decision, and drawn from as often as the search needs replies."""
    mine = counts.get(power, {})
    # only the powers whose units could meet ours matter to the outcome
    near = [
        other
        for other, reach in sorted(counts.items())
        if other != power and any(p in mine for p in reach)
    ]
    models: ReplyModels = {}
    for other in near:
        legal = possible_orders(position, other, board)
        if legal:
            models[other] = (
                value_position(view, position, other, BASE_WEIGHTS, None, counts),
                legal,
                own_moves(legal),
            )
    return models


def likely_replies(
    models: ReplyModels,
    view: MapView,
    position: Position,
    rng: random.Random,
    count: int = REPLIES,
) -> list[dict[str, list[Order]]]:
    """A few order sets for every other power near, drawn from the baseline with its own
    values."""
    replies: list[dict[str, list[Order]]] = []
    # the first at temperature 0, the others at the baseline's own temperature: drawn as the
    # baseline draws its orders (twice its temperature, tried before, made the replies less
    # like the orders that came)
    for i in range(count):
        reply: dict[str, list[Order]] = {}
        for other, (valuation, legal, moves) in models.items():
            chosen = movement_orders(
                position,
                other,
                legal,
                valuation,
                rng,
                0.0 if i == 0 else PLAIN_TEMPERATURE,
                view,
                moves=moves,
            )
            reply[other] = list(chosen.values())
        replies.append(reply)
    return replies


def describe(orders: list[Order]) -> list[str]:
    """Canonical text, one order per line, sorted: the CLI's and the bulletins' form."""
    return sorted(str(o) for o in orders)


__all__ = ["Commitments", "Move", "SupportMove", "bot_orders", "describe"]
