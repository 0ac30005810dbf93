"""Tables of the computer powers (issue 14): who is a bot, the promise ledger, trust.

``bot_seat`` says which powers of a game the computer plays and with what character (and
which coalitions it has announced); ``agreement`` is the promise ledger, one row per proposal
with its terms, status and, once broken, by whom and by which order; ``trust`` holds each
computer power's view of each other power.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from judge.storage.base import Base

AGREEMENT_STATUSES = ("proposed", "active", "refused", "kept", "broken")


class BotSeat(Base):
    __tablename__ = "bot_seat"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(16))
    personality: Mapped[str] = mapped_column(String(32))
    announced: Mapped[list[Any]] = mapped_column(JSON, default=list)  # leaders it denounced


class AgreementRecord(Base):
    __tablename__ = "agreement"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    proposer: Mapped[str] = mapped_column(String(16))
    partner: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16))
    terms: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    since_phase: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(16), default="proposed")
    broken_by: Mapped[str | None] = mapped_column(String(16))
    evidence: Mapped[str | None] = mapped_column(String(64))


class TrustRecord(Base):
    __tablename__ = "trust"
    __table_args__ = (UniqueConstraint("game_id", "holder", "other"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    holder: Mapped[str] = mapped_column(String(16))
    other: Mapped[str] = mapped_column(String(16))
    value: Mapped[float] = mapped_column(Float, default=0.0)
    betrayals: Mapped[int] = mapped_column(default=0)


class CouncilSnapshot(Base):
    """The whole council (``Council.to_json``: ledger, trust, coalitions announced) as it stood
    when a phase was adjudicated, before the ledger judged it: ROLLBACK to that phase puts it
    back. One row per adjudicated turn, written and deleted with the turn."""

    __tablename__ = "council_snapshot"
    __table_args__ = (UniqueConstraint("game_id", "phase"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(8))
    council: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
