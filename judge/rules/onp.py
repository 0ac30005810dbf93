"""ONP ("ordini non pervenuti"): seed 002's two strikes for a player who sends no orders.

Only spring and fall movement phases count. The first ONP gives every unit a hold with mutual
support (the a-e algorithm below); the second is abandonment: the units take the most voted orders
the other players sent for them (tie or none: hold), then the game waits for a replacement if the
power keeps three centres, two of them at home, or the power goes into Sommossa.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Hold, Order, SupportHold, Unit, UnitType
from judge.adjudicator.position import Position
from judge.rules.generated import GeneratedOrder, GeneratedWhy
from judge.rules.territory import FAR_AWAY
from judge.rules.votes import most_voted_orders


def mutual_support_orders(
    position: Position, power: str, board: Board | None = None
) -> list[GeneratedOrder]:
    """First ONP: each unit, in canonical order of its province, supports another in place.

    Among several units it could support, it picks by seed 002's criteria, each only breaking
    the ties of the one before: (a) a unit with no support yet; (b) a unit on a supply centre;
    (c) the unit nearest the home centres; (d) an army; (e) the first by canonical code.
    """
    board = board or installed_variant(position.variant).board
    units = position.units_of(power)
    homes = frozenset(position.homes.get(power, ()))
    distance = board.distances(homes) if homes else {}
    received: Counter[str] = Counter()
    result: list[GeneratedOrder] = []
    for unit in units:
        candidates = [
            other
            for other in units
            if other is not unit and board.can_reach(unit.type.value, unit.location, other.province)
        ]
        if not candidates:
            result.append(
                GeneratedOrder(Hold(unit.type, unit.location), GeneratedWhy.ONP_NOTHING_TO_SUPPORT)
            )
            continue
        target = _pick_supported(candidates, received, distance, board)
        received[target.province] += 1
        result.append(
            GeneratedOrder(
                SupportHold(unit.type, unit.location, target.type, target.location),
                GeneratedWhy.ONP_MUTUAL_SUPPORT,
            )
        )
    return result


def _pick_supported(
    candidates: list[Unit], received: Counter[str], distance: Mapping[str, int], board: Board
) -> Unit:
    pool = _prefer(candidates, lambda u: received[u.province] == 0)
    pool = _prefer(pool, lambda u: board.provinces[u.province].supply_center)
    nearest = min(distance.get(u.province, FAR_AWAY) for u in pool)
    pool = [u for u in pool if distance.get(u.province, FAR_AWAY) == nearest]
    pool = _prefer(pool, lambda u: u.type is UnitType.ARMY)
    return min(pool, key=lambda u: u.location)


def _prefer(pool: list[Unit], wanted: Callable[[Unit], bool]) -> list[Unit]:
    """Keep the units meeting a criterion; if none or all meet it, it is a tie: keep them all."""
    kept = [u for u in pool if wanted(u)]
    return kept or pool


def abandoned_orders(
    units: Sequence[Unit], votes: Mapping[str, Sequence[Order]]
) -> list[GeneratedOrder]:
    """Second ONP: the most voted of the other players' orders for each unit."""
    return most_voted_orders(
        units,
        votes,
        chosen_why=GeneratedWhy.ABANDONED_MAJORITY,
        hold_why=GeneratedWhy.ABANDONED_NO_MAJORITY_HOLD,
    )


def keeps_three_and_two(position: Position, power: str) -> bool:
    """At least three centres, two of them home centres: a replacement may still take over."""
    owned = position.centers_of(power)
    homes = set(position.homes.get(power, ()))
    return len(owned) >= 3 and sum(1 for c in owned if c in homes) >= 2


class AbandonmentOutcome(StrEnum):
    """What follows a second ONP."""

    AWAIT_REPLACEMENT = "await_replacement"  # three centres, two at home: suspend and call
    SOMMOSSA = "sommossa"  # fewer centres: straight into Sommossa


def after_abandonment(position: Position, power: str) -> AbandonmentOutcome:
    if keeps_three_and_two(position, power):
        return AbandonmentOutcome.AWAIT_REPLACEMENT
    return AbandonmentOutcome.SOMMOSSA


def strikes_after(strikes: int, sent_orders: bool) -> int:
    """Consecutive ONPs after a movement phase (retreat and adjustment phases do not count)."""
    return 0 if sent_orders else strikes + 1

