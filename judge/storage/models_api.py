"""Tables of the JSON API (issue 27): the bearer tokens programs use instead of mail."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
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
