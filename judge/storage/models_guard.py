"""Tables that keep a public judge safe: address confirmations and sign-on lockouts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from judge.storage.base import Base

# "mail": a whole mail held until its sender confirms (JOIN, CREATE, OBSERVE from a new
# address); "address": SET ADDRESS to a new address; "replace": REPLACE power address
CONFIRMATION_ACTIONS = ("mail", "address", "replace")
CONFIRMATION_STATUSES = ("pending", "confirmed", "expired")


class Confirmation(Base):
    """A token mailed to an address that has not confirmed it reads its mail.

    Only the token's SHA-256 is kept, so the table alone confirms nothing."""

    __tablename__ = "confirmation"
    __table_args__ = (
        Index(None, "address", "created"),
        Index(None, "requested_by_id", "created"),
        Index(None, "status", "expires_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    address: Mapped[str] = mapped_column(String(320))
    action: Mapped[str] = mapped_column(String(16))
    requested_by_id: Mapped[int | None] = mapped_column(ForeignKey("account.id"))
    inbound_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_mail.id", ondelete="SET NULL"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    power: Mapped[str | None] = mapped_column(String(16))  # a seat's power, or "GM"
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created: Mapped[datetime]
    expires_at: Mapped[datetime]
    done_at: Mapped[datetime | None]


class SignonLock(Base):
    """Wrong passwords given for one seat (or a game's GM, ``power = "GM"``)."""

    __tablename__ = "signon_lock"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(16))
    failures: Mapped[int] = mapped_column(default=0)
    first_failure_at: Mapped[datetime | None]
    locked_until: Mapped[datetime | None]
    gm_told: Mapped[bool] = mapped_column(default=False)
