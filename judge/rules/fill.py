"""Which orders the judge writes for a power, by phase, rule set and the power's standing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

from judge.adjudicator.adjustments import RemovalDistance
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Build, Disband, Hold, Order, Retreat, Waive
from judge.adjudicator.position import Position
from judge.rules.defaults import automatic_builds, removals_for, tacit_retreat
from judge.rules.generated import GeneratedOrder, GeneratedWhy
from judge.rules.onp import abandoned_orders, mutual_support_orders
from judge.rules.options import RuleSet
from judge.rules.sommossa import (
    sommossa_adjustment_orders,
    sommossa_movement_orders,
    sommossa_retreat_orders,
)

_MOVEMENT_RANK = 0  # Phase.kind_rank
_RETREAT_RANK = 1


class Standing(StrEnum):
    """Who gives a power's orders in this phase."""

    PLAYING = "playing"  # its player (missing orders get the rule set's defaults)
    FIRST_ONP = "first_onp"  # its player sent nothing for the first time: mutual support
    ABANDONED = "abandoned"  # second ONP in a row: the others' most voted orders
    SOMMOSSA = "sommossa"  # nobody: the others vote each movement phase


def generate_orders(
    position: Position,
    power: str,
    submitted: Sequence[Order],
    standing: Standing,
    rules: RuleSet,
    votes: Mapping[str, Sequence[Order]] | None = None,
    board: Board | None = None,
    distance: RemovalDistance = RemovalDistance.HOME,
) -> list[GeneratedOrder]:
    """The orders the judge makes up for ``power`` (never one for a unit the player ordered).

    ``distance``: how civil-disorder and automatic removals count distance (the adjudicator's
    ``Options.removal_distance``, so both layers agree).
    """
    board = board or installed_variant(position.variant).board
    kind = position.phase.kind_rank  # not the properties: this runs for every power of a phase
    if kind == _MOVEMENT_RANK:
        return _movement(position, power, submitted, standing, rules, votes or {}, board)
    if kind == _RETREAT_RANK:
        return _retreat(position, power, submitted, standing, rules, board)
    return _adjustment(position, power, submitted, standing, rules, board, distance)


def _movement(
    position: Position,
    power: str,
    submitted: Sequence[Order],
    standing: Standing,
    rules: RuleSet,
    votes: Mapping[str, Sequence[Order]],
    board: Board,
) -> list[GeneratedOrder]:
    if standing is Standing.SOMMOSSA:
        return sommossa_movement_orders(position, power, votes)
    if standing is Standing.ABANDONED:
        return abandoned_orders(position.units_of(power), votes)
    if standing is Standing.FIRST_ONP:
        return mutual_support_orders(position, power, board)
    if holds_for_silence(rules) and not submitted:
        return [
            GeneratedOrder(Hold(u.type, u.location), GeneratedWhy.CIVIL_DISORDER_HOLD)
            for u in position.units_of(power)
        ]
    return []


def holds_for_silence(rules: RuleSet) -> bool:
    """Whether a playing power that sent no movement orders gets holds made up (civil
    disorder); else nothing is made up for it in a movement phase (its units hold all the same,
    by the rulebook's default, and the service counts its ONP)."""
    return rules.civil_disorder


def _retreat(
    position: Position,
    power: str,
    submitted: Sequence[Order],
    standing: Standing,
    rules: RuleSet,
    board: Board,
) -> list[GeneratedOrder]:
    if standing is Standing.SOMMOSSA:
        return sommossa_retreat_orders(position, power)
    ordered = {
        o.location.split("/", 1)[0] for o in submitted if isinstance(o, Retreat | Disband)
    }
    result = []
    for province, dislodged in sorted(position.dislodged.items()):
        if dislodged.unit.power != power or province in ordered:
            continue
        if rules.civil_disorder:
            unit = dislodged.unit
            result.append(
                GeneratedOrder(Disband(unit.type, unit.location), GeneratedWhy.CIVIL_DISORDER_DISBAND)
            )
        else:
            result.append(tacit_retreat(dislodged, position.homes, board))
    return result


def _adjustment(
    position: Position,
    power: str,
    submitted: Sequence[Order],
    standing: Standing,
    rules: RuleSet,
    board: Board,
    distance: RemovalDistance,
) -> list[GeneratedOrder]:
    if standing is Standing.SOMMOSSA:
        return sommossa_adjustment_orders(position, power, rules, board, distance)
    owed = position.owed(power, board)  # with 1900's partisan sites
    if owed < 0:
        removed = {o.location.split("/", 1)[0] for o in submitted if isinstance(o, Disband)}
        still = -owed - len(removed)
        if still <= 0:
            return []
        return removals_for(rules, position, power, still, removed, board, distance)
    # A player who sent any build or waive chose how many to build: no automatic builds then.
    sent_any = any(isinstance(o, Build | Waive) for o in submitted)
    if owed > 0 and rules is RuleSet.ITALIAN and not sent_any:
        return automatic_builds(position, power, owed, board)
    return []
