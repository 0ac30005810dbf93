"""Claims of shared work between judge processes (the turn pool's workers, several nodes).

On PostgreSQL a claim is a row lock taken with ``SELECT ... FOR UPDATE SKIP LOCKED``: held
by the claiming transaction, skipped by every other one, released by the commit, or by the
server when the claimer's connection dies (a SIGKILLed node's claims are free again at once,
with no lease to wait out). On SQLite the claiming transaction is ``BEGIN IMMEDIATE``: the
one writer of the database, so a plain select is already an atomic claim there (SQLAlchemy
emits no ``FOR UPDATE`` for SQLite).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Integer, Table, bindparam, select, text
from sqlalchemy.orm import Session

from judge.storage.database import Database
from judge.storage.models_game import Deadline, Game
from judge.storage.models_mail import OutboundMail
from judge.storage.rowmemo import recall, remember

EARLY = "early"  # a deadline row meaning "look at this game now" (its orders may be complete)


def claim_due_deadline(session: Session, now: datetime, skip: Sequence[int] = ()) -> int | None:
    """The id of the oldest open deadline row due at ``now`` whose GAME no other transaction
    holds, its game row now locked by this one (so two workers never work on one game, and a
    worker closing a game's rows never waits for another); None when none is left.
    ``skip``: rows that failed in this pass (they stay open for a later wake-up)."""
    stmt = (
        select(Deadline.id)
        .join(Game, Game.id == Deadline.game_id)
        .where(Deadline.done.is_(False), Deadline.due_at <= now)
        .order_by(Deadline.due_at, Deadline.id)
        .limit(1)
        .with_for_update(of=Game, skip_locked=True)
    )
    if skip:
        stmt = stmt.where(Deadline.id.not_in(list(skip)))
    return session.scalar(stmt)


def open_early_row(session: Session, game_id: int, phase: str) -> bool:
    """Whether the game already has an open "look now" row for ``phase``.

    A row this transaction added is known without asking (an order mail asks twice, and the
    drain handles several in one transaction); it is still open unless this transaction closed
    it (``close_deadlines`` sets ``done`` on it too). A row found in the table is not
    remembered: another node's scheduler may take it meanwhile (PostgreSQL)."""
    if recall(session, EARLY, (game_id, phase), lambda row: not row.done) is not None:
        return True
    stmt = select(Deadline.id).where(Deadline.game_id == game_id, Deadline.done.is_(False),
                                     Deadline.kind == EARLY, Deadline.phase == phase).limit(1)
    return session.scalar(stmt) is not None


def add_early_row(session: Session, game_id: int, phase: str, now: datetime) -> None:
    row = Deadline(game_id=game_id, phase=phase, due_at=now, kind=EARLY, done=False)
    session.add(row)
    remember(session, EARLY, (game_id, phase), row)


_OUTBOUND = cast(Table, OutboundMail.__table__)
_CLAIM_NEXT_OUTBOUND = (
    select(_OUTBOUND)
    .where(_OUTBOUND.c.status.in_(("pending", "sending")),
           _OUTBOUND.c.next_attempt_at <= bindparam("now", type_=_OUTBOUND.c.created.type))
    .order_by(_OUTBOUND.c.next_attempt_at, _OUTBOUND.c.id)
    .limit(bindparam("limit", type_=Integer))
    .with_for_update(skip_locked=True)
)


def claim_due_outbound(session: Session, now: datetime, limit: int = 1) -> list[Any]:
    """Due outbox rows no other transaction holds, locked by this one until it ends
    (PostgreSQL: the sender keeps the transaction open while the message is at the relay)."""
    return list(session.execute(_CLAIM_NEXT_OUTBOUND, {"now": now, "limit": limit}))


class MailboxLock:
    """One node at a time polls a mailbox: a PostgreSQL session-level advisory lock, held on
    a connection of its own for as long as the node polls (released by the server when that
    connection ends: a node that dies lets another take over at its next try). SQLite is one
    node: always held. Should the holding connection be lost while the holder polls on, two
    nodes may poll for a moment; the stored mail's (Message-ID, body hash) key makes the
    second copy a duplicate."""

    def __init__(self, db: Database, name: str) -> None:
        self.db = db
        # advisory lock keys are bigint: a stable hash of the mailbox's name
        digest = hashlib.sha256(f"judge-imap:{name}".encode()).digest()
        self.key = int.from_bytes(digest[:8], "big", signed=True)
        self.conn: Any = None

    def hold(self) -> bool:
        """True when this node holds the lock (taking it if free)."""
        if self.db.is_sqlite:
            return True
        if self.conn is not None:
            try:
                self.conn.exec_driver_sql("SELECT 1")
                self.conn.commit()  # not left idle in a transaction between polls
                return True
            except Exception:
                self.release()
        conn = self.db.engine.connect()
        try:
            got = bool(conn.execute(text("SELECT pg_try_advisory_lock(:k)"),
                                    {"k": self.key}).scalar())
            conn.commit()  # the lock is the session's, not the transaction's
        except Exception:
            conn.close()
            raise
        if not got:
            conn.close()
            return False
        self.conn = conn
        return True

    def release(self) -> None:
        if self.conn is not None:
            conn, self.conn = self.conn, None
            with contextlib.suppress(Exception):
                conn.invalidate()  # closing the session releases the lock for certain
            with contextlib.suppress(Exception):
                conn.close()
