"""What the service layer tells the rules about a game at one moment (plain data)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.orders import Order
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.rules.options import GameOptions


class SeatStatus(StrEnum):
    ACTIVE = "active"  # a player gives the orders
    AWAITING_REPLACEMENT = "awaiting_replacement"  # abandoned, game suspended, search on
    SOMMOSSA = "sommossa"  # nobody plays it: the others vote its orders
    ELIMINATED = "eliminated"


@dataclass(frozen=True, slots=True)
class SeatState:
    """One power's seat.

    ``strikes``: consecutive movement phases without orders before this one (ONP count).
    ``late_days_left`` / ``late_days_used_this_turn``: the ritardo balance.
    ``has_orders``: the player sent orders for this phase (WAIVE or partial orders count).
    ``wait``: the player asked that the phase not be processed before its deadline.
    """

    power: str
    status: SeatStatus = SeatStatus.ACTIVE
    strikes: int = 0
    late_days_left: int = 10
    late_days_used_this_turn: int = 0
    has_orders: bool = False
    wait: bool = False
    # who plays it (an account id; None: nobody): one person may hold several powers
    holder: int | None = None


@dataclass(frozen=True, slots=True)
class ReplacementSearch:
    """A call for a replacement player, made when ``power`` was abandoned."""

    power: str
    found: bool = False  # a new player has accepted the seat


@dataclass(frozen=True, slots=True)
class GameSnapshot:
    """Everything :func:`judge.rules.due.decide` reads.

    ``orders``: orders submitted by each power for this phase (parsed, canonical).
    ``foreign_orders``: for a power with an ONP or in Sommossa, voter -> orders that voter sent
    for that power's units (secret; only active players' votes count).
    ``extended``: the deadline of this phase has already been moved by late days.
    ``suspended``: the deadline is the end of a suspension for a replacement search.
    ``draw_votes``: powers voting for a draw of all survivors; ``concessions``: voter -> power.
    ``variant``: the game's map and seats; ``joins``: the power the two-player lot gave the
    neutral one to, once drawn (``Variant.rules_at``).
    """

    position: Position
    deadline: datetime
    now: datetime
    seats: Mapping[str, SeatState]
    orders: Mapping[str, Sequence[Order]] = field(default_factory=dict)
    foreign_orders: Mapping[str, Mapping[str, Sequence[Order]]] = field(default_factory=dict)
    options: GameOptions = field(default_factory=GameOptions)
    extended: bool = False
    suspended: bool = False
    replacement: ReplacementSearch | None = None
    draw_votes: frozenset[str] = frozenset()
    concessions: Mapping[str, str] = field(default_factory=dict)
    variant: Variant = field(default_factory=installed_variant)
    joins: str | None = None

    @property
    def powers(self) -> tuple[str, ...]:
        """The powers somebody plays this phase (the variant's neutral ones left out)."""
        return self.variant.active_powers(self.position.phase, self.joins)

    def seat(self, power: str) -> SeatState:
        return self.seats.get(power, SeatState(power, status=SeatStatus.ELIMINATED))

    def late_balances(self) -> dict[str, int]:
        """Late days left per power still in the game, for every bulletin."""
        return {
            p: seat.late_days_left
            for p, seat in sorted(self.seats.items())
            if seat.status is not SeatStatus.ELIMINATED
        }
