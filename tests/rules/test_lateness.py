"""Ritardo: late-day balances, asking ahead, GM grants."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from judge.adjudicator.phase import Phase
from judge.rules.lateness import (
    AskAheadGranted,
    AskAheadRefusal,
    LateBalance,
    ask_ahead,
    charge,
    days_spendable,
    extended_deadline,
    grant,
    new_turn,
    opening_balance,
)
from judge.rules.options import GameOptions

OPTIONS = GameOptions()
SPRING = Phase.parse("S1902M")
T0 = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def test_defaults_ten_days_three_per_turn() -> None:
    balance = opening_balance(OPTIONS)
    assert balance == LateBalance(10, 0)
    assert days_spendable(SPRING, balance, OPTIONS) == 3
    spent = charge(charge(charge(balance)))
    assert spent == LateBalance(7, 3)
    assert days_spendable(SPRING, spent, OPTIONS) == 0
    assert days_spendable(SPRING, new_turn(spent), OPTIONS) == 3


def test_no_late_days_in_retreats_and_adjustments() -> None:
    for phase in ("F1902R", "W1902A"):
        assert days_spendable(Phase.parse(phase), LateBalance(10, 0), OPTIONS) == 0


def test_the_game_total_caps_the_turn() -> None:
    assert days_spendable(SPRING, LateBalance(1, 0), OPTIONS) == 1
    assert days_spendable(SPRING, LateBalance(0, 0), OPTIONS) == 0
    options = GameOptions(late_bonus_days=0, late_max_per_turn=0)
    assert days_spendable(SPRING, opening_balance(options), options) == 0


def test_gm_grant() -> None:
    assert grant(LateBalance(0, 2), 2) == LateBalance(2, 2)


def test_deadline_moves_a_day_or_from_now_when_woken_late() -> None:
    assert extended_deadline(T0, T0 + timedelta(minutes=1)) == T0 + timedelta(days=1)
    late_wake = T0 + timedelta(days=2)
    assert extended_deadline(T0, late_wake) == late_wake + timedelta(days=1)


def test_ask_ahead() -> None:
    balance = LateBalance(10, 0)
    granted = ask_ahead(SPRING, balance, 2, T0, T0 - timedelta(hours=5), OPTIONS)
    assert granted == AskAheadGranted(2, LateBalance(8, 2), T0 + timedelta(days=2))
    assert ask_ahead(SPRING, balance, 4, T0, T0 - timedelta(hours=5), OPTIONS) is (
        AskAheadRefusal.OVER_TURN_LIMIT
    )
    assert ask_ahead(SPRING, LateBalance(1, 0), 2, T0, T0, OPTIONS) is (
        AskAheadRefusal.DEADLINE_PASSED
    )
    assert ask_ahead(SPRING, LateBalance(1, 0), 2, T0, T0 - timedelta(1), OPTIONS) is (
        AskAheadRefusal.NO_DAYS_LEFT
    )
    assert ask_ahead(Phase.parse("W1902A"), balance, 1, T0, T0 - timedelta(1), OPTIONS) is (
        AskAheadRefusal.NOT_A_MOVEMENT_PHASE
    )
    assert ask_ahead(SPRING, balance, 0, T0, T0 - timedelta(1), OPTIONS) is (
        AskAheadRefusal.NOT_POSITIVE
    )
