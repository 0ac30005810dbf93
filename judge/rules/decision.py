"""What :func:`judge.rules.due.decide` answers: one action, its reason, and what to apply."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from judge.adjudicator.orders import Order
from judge.rules.game_end import GameEnd
from judge.rules.generated import GeneratedOrder
from judge.rules.snapshot import SeatStatus


class Action(StrEnum):
    NOTHING = "nothing"  # not due yet: wake again at ``wake_at``
    EXTEND_DEADLINE = "extend_deadline"  # move the deadline, charge late days
    ADJUDICATE = "adjudicate"  # adjudicate ``orders`` now, then apply seat updates
    DECLARE_SOMMOSSA = "declare_sommossa"  # no replacement came: the power goes into Sommossa
    END_GAME = "end_game"


class Why(StrEnum):
    """The reason for the action, for the GM log and the bulletins."""

    BEFORE_DEADLINE = "before_deadline"
    WAITING_FOR_PLAYERS = "waiting_for_players"  # all in, but someone asked to wait
    SUSPENDED_FOR_REPLACEMENT = "suspended_for_replacement"
    LATE_DAYS_CHARGED = "late_days_charged"
    REPLACEMENT_FOUND = "replacement_found"  # one more week of diplomacy for the newcomer
    NO_REPLACEMENT = "no_replacement"
    ALL_ORDERS_IN = "all_orders_in"  # early: everyone sent orders, nobody asked to wait
    LATE_POWERS_ALL_IN = "late_powers_all_in"  # during an extension, the late ones sent orders
    DEADLINE_PASSED = "deadline_passed"
    GM_PROCESS = "gm_process"  # the GM's PROCESS: the phase is adjudicated at once
    GAME_OVER = "game_over"


class SeatChangeWhy(StrEnum):
    ORDERS_RECEIVED = "orders_received"  # strike count back to 0, others' orders dropped
    FIRST_ONP = "first_onp"
    ABANDONED_AWAIT_REPLACEMENT = "abandoned_await_replacement"
    ABANDONED_SOMMOSSA = "abandoned_sommossa"
    REPLACEMENT_TAKES_OVER = "replacement_takes_over"
    NO_REPLACEMENT_SOMMOSSA = "no_replacement_sommossa"
    LATE_DAY_CHARGED = "late_day_charged"


@dataclass(frozen=True, slots=True)
class SeatUpdate:
    """New values for a seat; None leaves a field as it is."""

    why: SeatChangeWhy
    status: SeatStatus | None = None
    strikes: int | None = None
    late_days_charged: int = 0


@dataclass(frozen=True, slots=True)
class Decision:
    """The service applies this in one transaction.

    ``orders``: for ADJUDICATE, every order to adjudicate per power (submitted and generated).
    ``generated``: the made-up ones among them, each with its rule (publish these).
    ``drop_foreign_orders_for``: powers whose player is back: delete the others' orders for them.
    ``call_replacement_for``: powers to advertise for a replacement player.
    ``new_deadline``: the deadline of this phase (EXTEND/DECLARE) or, for ADJUDICATE with a
    suspension, the earliest the next phase may be processed (``suspend_until``).
    """

    action: Action
    why: Why
    wake_at: datetime | None = None
    new_deadline: datetime | None = None
    seat_updates: Mapping[str, SeatUpdate] = field(default_factory=dict)
    orders: Mapping[str, tuple[Order, ...]] = field(default_factory=dict)
    generated: Mapping[str, tuple[GeneratedOrder, ...]] = field(default_factory=dict)
    drop_foreign_orders_for: tuple[str, ...] = ()
    call_replacement_for: tuple[str, ...] = ()
    suspend_until: datetime | None = None
    game_end: GameEnd | None = None
