"""Repository functions for the games' webhooks and their delivery queue."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from judge.storage.models_api import Webhook, WebhookDelivery
from judge.storage.models_game import Game


def hook_of_game(session: Session, game_id: int) -> Webhook | None:
    return session.scalar(select(Webhook).where(Webhook.game_id == game_id))


def delete_hook(session: Session, game_id: int) -> bool:
    hook = hook_of_game(session, game_id)
    if hook is None:
        return False
    session.delete(hook)
    session.flush()
    return True


def add(session: Session, row: Webhook | WebhookDelivery) -> None:
    session.add(row)
    session.flush()


def delivered_before(session: Session, webhook_id: int, event: str, phase: str) -> bool:
    return session.scalar(select(WebhookDelivery.id).where(
        WebhookDelivery.webhook_id == webhook_id, WebhookDelivery.event == event,
        WebhookDelivery.phase == phase).limit(1)) is not None


def due(session: Session, now: datetime, limit: int) -> list[tuple[WebhookDelivery, Webhook]]:
    rows = session.execute(
        select(WebhookDelivery, Webhook).join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .where(WebhookDelivery.status == "pending", WebhookDelivery.next_attempt_at <= now)
        .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id).limit(limit)).all()
    return [(d, h) for d, h in rows]


def delivery(session: Session, delivery_id: int) -> tuple[WebhookDelivery, Webhook] | None:
    row = session.execute(
        select(WebhookDelivery, Webhook).join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .where(WebhookDelivery.id == delivery_id)).first()
    return (row[0], row[1]) if row is not None else None


def next_due(session: Session) -> datetime | None:
    return session.scalar(select(WebhookDelivery.next_attempt_at).where(
        WebhookDelivery.status == "pending").order_by(WebhookDelivery.next_attempt_at).limit(1))


def game_of(session: Session, game_id: int) -> Game | None:
    return session.get(Game, game_id)


def claim(session: Session, delivery_id: int, now: datetime, until: datetime) -> bool:
    """Take a due delivery for one poster: its next attempt moves to ``until`` only if it is
    still pending and due (another judge node that took it first makes this false)."""
    result = session.execute(update(WebhookDelivery).where(
        WebhookDelivery.id == delivery_id, WebhookDelivery.status == "pending",
        WebhookDelivery.next_attempt_at <= now).values(next_attempt_at=until))
    return int(getattr(result, "rowcount", 0) or 0) == 1
