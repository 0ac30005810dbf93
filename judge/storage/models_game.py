"""Tables of the game world: accounts, games, seats, orders, votes, press, turns, deadlines."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from judge.adjudicator.catalog import variant as installed_variant
from judge.rules.option_registry import default_options
from judge.storage.base import Base

GAME_STATUSES = ("forming", "active", "paused", "finished")
SEAT_STATUSES = ("active", "onp1", "abandoned", "sommossa", "eliminated", "vacant")
ORDER_SOURCES = ("submitted", "generated", "vote")
VOTE_KINDS = ("draw", "concede", "sommossa_order")
DEADLINE_KINDS = ("process", "reminder", "resume")  # "resume": a pause at its limit (issue 30)


def default_game_options() -> dict[str, Any]:
    # the options' defaults come from the one registry (judge.rules.option_registry);
    # restrict_press is the judge's bookkeeping, no option anyone sets
    return {**default_options(), "restrict_press": False}


class Account(Base):
    __tablename__ = "account"

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(320), unique=True)
    display_name: Mapped[str] = mapped_column(String(200), default="")
    language: Mapped[str] = mapped_column(String(8), default="en")
    created: Mapped[datetime]
    # set once the address answered a confirmation token: only then may the judge mail it
    # anything but a direct reply (or a confirmation)
    confirmed_at: Mapped[datetime | None]


class Game(Base):
    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    variant: Mapped[str] = mapped_column(String(32), default="standard")
    status: Mapped[str] = mapped_column(String(16), default="forming")
    language: Mapped[str] = mapped_column(String(8), default="en")
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=default_game_options)
    password_hash: Mapped[str] = mapped_column(String(255), default="")
    gm_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id"))
    # the default variant's first phase until START sets the game's own
    phase: Mapped[str] = mapped_column(String(8), default=lambda: str(installed_variant().first_phase))
    position: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    deadline: Mapped[datetime | None]
    created: Mapped[datetime]


class Seat(Base):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="active")
    late_days_used: Mapped[int] = mapped_column(default=0)
    late_days_this_turn: Mapped[int] = mapped_column(default=0)
    strikes: Mapped[int] = mapped_column(default=0)
    wait: Mapped[bool] = mapped_column(default=False)
    password_hash: Mapped[str] = mapped_column(String(255), default="")
    preferences: Mapped[list[Any]] = mapped_column(JSON, default=list)
    anon_token: Mapped[str | None] = mapped_column(String(64), unique=True)
    # blind games: the secret part of the relay addresses mailed to this seat's player only,
    # so a mail to <game>-<power>-<secret>@ is known to come from this seat
    relay_secret: Mapped[str | None] = mapped_column(String(32), unique=True)


class OrderSet(Base):
    """Every submitted version is kept; the current one is the highest version."""

    __tablename__ = "order_set"
    __table_args__ = (UniqueConstraint("game_id", "power", "phase", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(16))
    phase: Mapped[str] = mapped_column(String(8))
    version: Mapped[int] = mapped_column(default=1)
    orders: Mapped[list[Any]] = mapped_column(JSON, default=list)
    source: Mapped[str] = mapped_column(String(16), default="submitted")
    submitted_by_id: Mapped[int | None] = mapped_column(ForeignKey("account.id"))
    created: Mapped[datetime]


class Vote(Base):
    __tablename__ = "vote"
    __table_args__ = (Index(None, "game_id", "phase", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(8))
    kind: Mapped[str] = mapped_column(String(16))
    voter_power: Mapped[str] = mapped_column(String(16))
    target_power: Mapped[str | None] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created: Mapped[datetime]


class Press(Base):
    __tablename__ = "press"
    __table_args__ = (Index(None, "game_id", "phase"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(8))
    from_power: Mapped[str] = mapped_column(String(16))
    to_powers: Mapped[list[Any]] = mapped_column(JSON, default=list)
    grey: Mapped[bool] = mapped_column(default=False)
    body: Mapped[str] = mapped_column(Text, default="")
    created: Mapped[datetime]


class Turn(Base):
    """Immutable snapshot of one processed phase: the archive reads only these."""

    __tablename__ = "turn"
    __table_args__ = (UniqueConstraint("game_id", "phase"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(8))
    position_before: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    orders_submitted: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    orders_generated: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    orders_illegal: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    outcomes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    position_after: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    bulletins: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created: Mapped[datetime]


class Deadline(Base):
    __tablename__ = "deadline"
    __table_args__ = (Index(None, "done", "due_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(8))
    due_at: Mapped[datetime]
    kind: Mapped[str] = mapped_column(String(16), default="process")
    done: Mapped[bool] = mapped_column(default=False)


class PlayerRecord(Base):
    """A player's record in one game (issue 30 point 6): phases he ordered in, phases he
    missed, whether he abandoned his power or was replaced. Counted as it happens (the seat
    rows follow the power, not the person); summed over his games it is his reliability."""

    __tablename__ = "player_record"
    __table_args__ = (UniqueConstraint("account_id", "game_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"),
                                            index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    played: Mapped[int] = mapped_column(default=0)
    missed: Mapped[int] = mapped_column(default=0)
    abandoned: Mapped[int] = mapped_column(default=0)
    replaced: Mapped[int] = mapped_column(default=0)


class AuditLog(Base):
    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), index=True
    )
    actor_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id"))
    action: Mapped[str] = mapped_column(String(64))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    at: Mapped[datetime]
