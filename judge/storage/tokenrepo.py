"""Repository functions for the API's bearer tokens (``judge.storage.models_api``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from judge.storage.models_api import ApiToken
from judge.storage.models_game import Game, Seat


def add_token(session: Session, row: ApiToken) -> ApiToken:
    session.add(row)
    session.flush()
    return row


def token_by_digest(session: Session, digest: str) -> ApiToken | None:
    return session.scalar(select(ApiToken).where(ApiToken.token_sha256 == digest))


def live_tokens(session: Session, game_id: int, power: str) -> list[ApiToken]:
    return list(session.scalars(select(ApiToken).where(
        ApiToken.game_id == game_id, ApiToken.power == power,
        ApiToken.revoked_at.is_(None)).order_by(ApiToken.id)))


def revoke_tokens(session: Session, game_id: int, power: str | None, now: datetime) -> int:
    """Revoke the live tokens of one seat (``power``), or of the whole game (None)."""
    query = update(ApiToken).where(ApiToken.game_id == game_id, ApiToken.revoked_at.is_(None))
    if power is not None:
        query = query.where(ApiToken.power == power)
    result = session.execute(query.values(revoked_at=now))
    return int(getattr(result, "rowcount", 0) or 0)


def games_of_account(session: Session, account_id: int | None, statuses: tuple[str, ...],
                     limit: int = 100) -> list[Game]:
    """The games (of ``statuses``) in which ``account_id`` holds a seat or is the GM."""
    if account_id is None:
        return []
    seated = select(Seat.game_id).where(Seat.account_id == account_id)
    return list(session.scalars(select(Game).where(
        Game.status.in_(statuses),
        or_(Game.id.in_(seated), Game.gm_account_id == account_id)).order_by(Game.id)
        .limit(limit)))
