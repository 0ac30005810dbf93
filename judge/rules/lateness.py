"""Ritardo: late days (seed 002 gives the numbers, the issue decides the mechanism).

Each player has ``late_bonus_days`` for the whole game and may spend at most
``late_max_per_turn`` in one movement phase; retreat and adjustment phases allow none. At a
movement deadline each power without orders that still has a day to spend is charged one, and
the deadline moves 24 hours for everyone. A player may also spend days ahead of the deadline, and
the GM may grant extra days.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from judge.adjudicator.phase import Phase
from judge.rules.options import GameOptions

ONE_DAY = timedelta(hours=24)


@dataclass(frozen=True, slots=True)
class LateBalance:
    """A player's late days: left for the game, and spent in the current phase."""

    days_left: int
    used_this_turn: int = 0


def opening_balance(options: GameOptions) -> LateBalance:
    return LateBalance(days_left=options.late_bonus_days)


def days_spendable(phase: Phase, balance: LateBalance, options: GameOptions) -> int:
    if not phase.is_movement:
        return 0
    this_turn = max(options.late_max_per_turn - balance.used_this_turn, 0)
    return max(min(balance.days_left, this_turn), 0)


def charge(balance: LateBalance, days: int = 1) -> LateBalance:
    return replace(
        balance, days_left=balance.days_left - days, used_this_turn=balance.used_this_turn + days
    )


def new_turn(balance: LateBalance) -> LateBalance:
    """A new phase starts: the per-turn count starts again."""
    return replace(balance, used_this_turn=0)


def grant(balance: LateBalance, days: int) -> LateBalance:
    """The GM gives a player more days for the rest of the game."""
    return replace(balance, days_left=balance.days_left + days)


def extended_deadline(deadline: datetime, now: datetime, days: int = 1) -> datetime:
    """The deadline moves ``days`` × 24 h; if the judge woke late, from ``now`` instead."""
    moved = deadline + days * ONE_DAY
    return moved if moved > now else now + days * ONE_DAY


class AskAheadRefusal(StrEnum):
    """Why a request for late days ahead of the deadline is refused."""

    NOT_A_MOVEMENT_PHASE = "not_a_movement_phase"
    NO_DAYS_LEFT = "no_days_left"
    OVER_TURN_LIMIT = "over_turn_limit"
    DEADLINE_PASSED = "deadline_passed"
    NOT_POSITIVE = "not_positive"


@dataclass(frozen=True, slots=True)
class AskAheadGranted:
    days: int
    balance: LateBalance
    new_deadline: datetime


def ask_ahead(
    phase: Phase,
    balance: LateBalance,
    days: int,
    deadline: datetime,
    now: datetime,
    options: GameOptions,
) -> AskAheadGranted | AskAheadRefusal:
    """A player spends ``days`` before the deadline: everyone's deadline moves that much."""
    if days <= 0:
        return AskAheadRefusal.NOT_POSITIVE
    if not phase.is_movement:
        return AskAheadRefusal.NOT_A_MOVEMENT_PHASE
    if now >= deadline:
        return AskAheadRefusal.DEADLINE_PASSED
    if balance.days_left < days:
        return AskAheadRefusal.NO_DAYS_LEFT
    if days > days_spendable(phase, balance, options):
        return AskAheadRefusal.OVER_TURN_LIMIT
    return AskAheadGranted(days, charge(balance, days), deadline + days * ONE_DAY)
