"""Tables of the JSON API (issue 27): the bearer tokens programs use instead of mail, and the
games' webhooks with their delivery queue."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from judge.storage.base import Base


class ApiToken(Base):
    """A bearer token for one seat (``power``) or one game's GM (``power = "GM"``).

    Only the token's SHA-256 is kept: a token is 256 random bits, so a fast hash is as safe as
    a slow one (no dictionary to try) and checking it costs nothing per request."""

    __tablename__ = "api_token"
    __table_args__ = (Index(None, "game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created: Mapped[datetime]
    revoked_at: Mapped[datetime | None]
    last_used_at: Mapped[datetime | None]


WEBHOOK_KINDS = ("discord", "slack", "json")
WEBHOOK_EVENTS = ("results", "deadline", "missing", "start", "end", "notice")
DELIVERY_STATUSES = ("pending", "sent", "dead")


class Webhook(Base):
    """Where a game's events are posted (the GM's WEBHOOK): one per game.

    ``secret`` signs the generic JSON payloads (HMAC-SHA256): it must be kept to sign, so it is
    stored as it is; it was mailed to the GM's address of record and grants nothing here."""

    __tablename__ = "webhook"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), unique=True)
    url: Mapped[str] = mapped_column(String(500))
    kind: Mapped[str] = mapped_column(String(16))
    events: Mapped[list[str]] = mapped_column(JSON, default=list)
    secret: Mapped[str] = mapped_column(String(64))
    gm_told: Mapped[bool] = mapped_column(default=False)  # of a dead delivery, once
    created: Mapped[datetime]


class WebhookDelivery(Base):
    """One event to post: a durable queue, like the outbox (retries with backoff, then dead)."""

    __tablename__ = "webhook_delivery"
    __table_args__ = (Index(None, "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    webhook_id: Mapped[int] = mapped_column(ForeignKey("webhook.id", ondelete="CASCADE"),
                                            index=True)
    event: Mapped[str] = mapped_column(String(16))
    phase: Mapped[str] = mapped_column(String(8))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    tries: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime]
    last_error: Mapped[str] = mapped_column(String(300), default="")
    created: Mapped[datetime]
    sent_at: Mapped[datetime | None]
