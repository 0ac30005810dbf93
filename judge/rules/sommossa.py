"""Sommossa: a power nobody plays, whose units the other players steer by vote (seed 002).

Movement phases: each active player may vote an order for each unit; the most voted order is
carried out, a tie means hold. Retreat phases: its dislodged units never retreat, they are
removed. Adjustment phases: removals follow the automatic rules, and it never builds. The votes
are secret while the game runs and are published when it ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.adjudicator.adjustments import RemovalDistance
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Disband, Order
from judge.adjudicator.position import Position
from judge.rules.defaults import removals_for
from judge.rules.generated import GeneratedOrder, GeneratedWhy
from judge.rules.options import RuleSet
from judge.rules.votes import most_voted_orders

# phase -> power in Sommossa -> voter -> orders
VoteRecord = Mapping[str, Mapping[str, Mapping[str, Sequence[Order]]]]


def sommossa_movement_orders(
    position: Position, power: str, votes: Mapping[str, Sequence[Order]]
) -> list[GeneratedOrder]:
    return most_voted_orders(
        position.units_of(power),
        votes,
        chosen_why=GeneratedWhy.SOMMOSSA_MAJORITY,
        hold_why=GeneratedWhy.SOMMOSSA_NO_MAJORITY_HOLD,
    )


def sommossa_retreat_orders(position: Position, power: str) -> list[GeneratedOrder]:
    return [
        GeneratedOrder(
            Disband(d.unit.type, d.unit.location), GeneratedWhy.SOMMOSSA_DISLODGED_REMOVED
        )
        for _, d in sorted(position.dislodged.items())
        if d.unit.power == power
    ]


def sommossa_adjustment_orders(
    position: Position,
    power: str,
    rules: RuleSet,
    board: Board | None = None,
    distance: RemovalDistance = RemovalDistance.HOME,
) -> list[GeneratedOrder]:
    """Removals by the automatic rules; a power in Sommossa never builds."""
    owed = position.owed(power, board or installed_variant(position.variant).board)
    if owed >= 0:
        return []
    return removals_for(rules, position, power, -owed, board=board, distance=distance)


PublishedVotes = dict[str, dict[str, dict[str, list[str]]]]


def publishable_votes(record: VoteRecord, game_over: bool) -> PublishedVotes | None:
    """The Sommossa votes, for publication only once the game is over (None before)."""
    if not game_over:
        return None
    return {
        phase: {
            power: {voter: [str(o) for o in orders] for voter, orders in sorted(by_voter.items())}
            for power, by_voter in sorted(by_power.items())
        }
        for phase, by_power in sorted(record.items())
    }
