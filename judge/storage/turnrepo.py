"""Repository functions for turn processing and deadlines (judge.service.turns, deadlines).

Kept in their own module so turn processing never needs SQLAlchemy outside storage; each
function takes the caller's Session, whose transaction it joins.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from judge.storage.models_game import Account, Deadline, Game


def lock_game(session: Session, game_id: int) -> Game | None:
    """The game row, locked until the transaction ends (SELECT ... FOR UPDATE on PostgreSQL;
    SQLite already serialises writers with BEGIN IMMEDIATE). Re-read, not taken from the
    session's identity map, so a second worker sees the first one's commit."""
    stmt = select(Game).where(Game.id == game_id).with_for_update()
    return session.scalars(stmt.execution_options(populate_existing=True)).first()


@contextmanager
def savepoint(session: Session) -> Iterator[None]:
    """A part of the caller's transaction that may fail alone (SAVEPOINT): when the block
    raises, its changes are undone and the exception goes on; the rest of the transaction
    stays (SQLite too: the engine issues its own BEGIN, see ``database``)."""
    with session.begin_nested():
        yield


def close_deadlines(session: Session, game_id: int) -> None:
    session.execute(
        update(Deadline).where(Deadline.game_id == game_id, Deadline.done.is_(False))
        .values(done=True)
    )


def account_address(session: Session, account_id: int | None) -> str | None:
    if account_id is None:
        return None
    return session.scalar(select(Account.address).where(Account.id == account_id))


def active_game_ids(session: Session) -> list[int]:
    return list(session.scalars(select(Game.id).where(Game.status == "active")
                                .order_by(Game.id)))
