"""Repository functions for the game world (the service layer builds on these)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.storage.models_game import Account, AuditLog, Deadline, Game, OrderSet, Seat, Turn
from judge.storage.rowmemo import recall, remember


def account_for(session: Session, address: str, now: datetime, display_name: str = "") -> Account:
    """The account of ``address`` (matched case-insensitively), created on first sight."""
    found = account_by_address(session, address)
    if found is None:
        found = Account(address=address, display_name=display_name, created=now)
        session.add(found)
        session.flush()
        remember(session, "account", address.lower(), found)
    return found


def account_by_address(session: Session, address: str) -> Account | None:
    """The account of ``address`` (matched case-insensitively), if any."""
    key = address.lower()
    found: Account | None = recall(session, "account", key,
                                   lambda row: row.address.lower() == key)
    if found is None:
        found = remember(session, "account", key, session.scalar(
            select(Account).where(func.lower(Account.address) == key)))
    return found


def game_by_name(session: Session, name: str, lock: bool = False) -> Game | None:
    key = name.lower()
    if not lock:  # a lock is taken by the query: always asked
        found: Game | None = recall(session, "game", key, lambda row: row.name.lower() == key)
        if found is not None:
            return found
    stmt = select(Game).where(func.lower(Game.name) == key)
    if lock:
        stmt = stmt.with_for_update()
    return remember(session, "game", key, session.scalar(stmt))


def seats(session: Session, game_id: int) -> list[Seat]:
    return list(session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.power)))


def current_orders(session: Session, game_id: int, phase: str, power: str) -> OrderSet | None:
    stmt = (
        select(OrderSet)
        .where(OrderSet.game_id == game_id, OrderSet.phase == phase, OrderSet.power == power)
        .order_by(OrderSet.version.desc())
        .limit(1)
    )
    return session.scalar(stmt)


def current_orders_by_power(session: Session, game_id: int, phase: str) -> dict[str, OrderSet]:
    """Each power's latest orders for ``phase`` (``current_orders`` of every power), in one
    query: a turn reads them all."""
    stmt = (
        select(OrderSet)
        .where(OrderSet.game_id == game_id, OrderSet.phase == phase)
        .order_by(OrderSet.power, OrderSet.version)
    )
    return {row.power: row for row in session.scalars(stmt)}  # the highest version last


def submit_orders(
    session: Session,
    game_id: int,
    phase: str,
    power: str,
    orders: list[str],
    now: datetime,
    source: str = "submitted",
    submitted_by_id: int | None = None,
) -> OrderSet:
    """Add a new version of a power's orders; earlier versions stay for the record."""
    previous = current_orders(session, game_id, phase, power)
    row = OrderSet(game_id=game_id, phase=phase, power=power, orders=list(orders),
                   version=(previous.version + 1) if previous else 1, source=source,
                   submitted_by_id=submitted_by_id, created=now)
    session.add(row)
    session.flush()
    return row


def turns(session: Session, game_id: int) -> list[Turn]:
    return list(session.scalars(select(Turn).where(Turn.game_id == game_id).order_by(Turn.id)))


def due_deadlines(session: Session, now: datetime) -> list[Deadline]:
    stmt = (
        select(Deadline)
        .where(Deadline.done.is_(False), Deadline.due_at <= now)
        .order_by(Deadline.due_at, Deadline.id)
    )
    return list(session.scalars(stmt))


def next_deadline(session: Session) -> datetime | None:
    return session.scalar(select(func.min(Deadline.due_at)).where(Deadline.done.is_(False)))


def audit(
    session: Session,
    now: datetime,
    action: str,
    game_id: int | None = None,
    actor_account_id: int | None = None,
    **detail: Any,
) -> AuditLog:
    row = AuditLog(game_id=game_id, actor_account_id=actor_account_id, action=action,
                   detail=detail, at=now)
    session.add(row)
    return row
