"""Repository functions for the mail pipeline. Each takes the caller's Session; the caller's
``Database.session()`` block is the transaction."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.storage.database import Database
from judge.storage.models_mail import ImapState, InboundMail, OutboundMail


def body_digest(raw: bytes) -> str:
    """sha256 of everything after the header block (the same body re-sent keeps its hash)."""
    cut = raw.find(b"\r\n\r\n")
    skip = 4
    if cut < 0:
        cut, skip = raw.find(b"\n\n"), 2
    body = raw[cut + skip :] if cut >= 0 else b""
    return hashlib.sha256(body).hexdigest()


def store_inbound(
    session: Session,
    *,
    raw: bytes,
    message_id: str,
    envelope_from: str,
    envelope_to: Sequence[str],
    source: str,
    now: datetime,
    max_bytes: int,
) -> InboundMail | None:
    """Insert a received mail unless the same (Message-ID, body hash) is already stored.

    Returns the new row, or None for a duplicate. A mail bigger than ``max_bytes`` is kept cut
    to that size and flagged, so the judge can answer why it was not read.
    """
    digest = body_digest(raw)
    if not message_id:
        # no Message-ID: two different mails with the same body must not collide
        message_id = "<sha256:" + hashlib.sha256(raw).hexdigest() + ">"
    existing = session.scalar(
        select(InboundMail.id).where(
            InboundMail.message_id == message_id, InboundMail.body_sha256 == digest
        )
    )
    if existing is not None:
        return None
    row = InboundMail(
        message_id=message_id,
        body_sha256=digest,
        raw=raw[:max_bytes] if len(raw) > max_bytes else raw,
        size=len(raw),
        oversized=len(raw) > max_bytes,
        envelope_from=envelope_from,
        envelope_to=list(envelope_to),
        source=source,
        received_at=now,
        status="new",
    )
    session.add(row)
    session.flush()
    return row


def store_received(
    db: Database,
    after: Callable[[Session], None] | None = None,
    **fields: Any,
) -> bool:
    """``store_inbound`` in a transaction of its own (plus ``after`` in the same one).

    True when stored, False for a duplicate. Two copies racing past the duplicate check
    (PostgreSQL, two listeners) end in the unique constraint: the loser is a duplicate too.
    """
    try:
        with db.session() as session:
            stored = store_inbound(session, **fields) is not None
            if after is not None:
                after(session)
            return stored
    except IntegrityError:
        with db.session() as session:
            if after is not None:
                after(session)
        return False


def next_new_inbound(session: Session, after_id: int = 0) -> InboundMail | None:
    stmt = (
        select(InboundMail)
        .where(InboundMail.status == "new", InboundMail.id > after_id)
        .order_by(InboundMail.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    return session.scalar(stmt)


def mark_inbound(
    session: Session,
    inbound_id: int,
    status: str,
    now: datetime,
    error: str | None = None,
    note: str | None = None,
) -> None:
    session.execute(
        update(InboundMail)
        .where(InboundMail.id == inbound_id)
        .values(status=status, processed_at=now, error=error, note=note)
    )


def requeue_failed(session: Session, ids: Sequence[int] = ()) -> list[int]:
    """Set failed mail (all, or the given ids) back to new; returns the ids requeued."""
    stmt = select(InboundMail.id).where(InboundMail.status == "failed")
    if ids:
        stmt = stmt.where(InboundMail.id.in_(list(ids)))
    found = list(session.scalars(stmt.order_by(InboundMail.id)))
    if found:
        session.execute(
            update(InboundMail)
            .where(InboundMail.id.in_(found))
            .values(status="new", error=None, processed_at=None)
        )
    return found


def list_inbound(session: Session, status: str | None = None) -> list[InboundMail]:
    stmt = select(InboundMail).order_by(InboundMail.id)
    if status:
        stmt = stmt.where(InboundMail.status == status)
    return list(session.scalars(stmt))


def enqueue_outbound(session: Session, row: OutboundMail) -> OutboundMail:
    session.add(row)
    session.flush()
    return row


def count_recent_to(session: Session, address: str, since: datetime, kind: str = "reply") -> int:
    # exact match, so the (to_addr, created) index serves it; addresses are stored as given
    stmt = select(func.count(OutboundMail.id)).where(
        OutboundMail.to_addr == address,
        OutboundMail.created >= since,
        OutboundMail.kind == kind,
    )
    return int(session.scalar(stmt) or 0)


def due_outbound(session: Session, now: datetime, limit: int = 50) -> list[OutboundMail]:
    stmt = (
        select(OutboundMail)
        .where(OutboundMail.status.in_(("pending", "sending")), OutboundMail.next_attempt_at <= now)
        .order_by(OutboundMail.next_attempt_at, OutboundMail.id)
        .limit(limit)
    )
    return list(session.scalars(stmt))


def next_due_time(session: Session) -> datetime | None:
    return session.scalar(
        select(func.min(OutboundMail.next_attempt_at)).where(
            OutboundMail.status.in_(("pending", "sending"))
        )
    )


def mark_outbound(session: Session, outbound_id: int, **values: Any) -> None:
    session.execute(update(OutboundMail).where(OutboundMail.id == outbound_id).values(**values))


def list_outbound(session: Session, status: str | None = None, limit: int = 200) -> list[OutboundMail]:
    stmt = select(OutboundMail).order_by(OutboundMail.id.desc()).limit(limit)
    if status:
        stmt = stmt.where(OutboundMail.status == status)
    return list(session.scalars(stmt))


def retry_backoff(tries: int, base: float, cap: float) -> timedelta:
    return timedelta(seconds=min(cap, base * (2 ** max(0, tries - 1))))


def imap_watermark(session: Session, account: str) -> ImapState:
    state = session.scalar(select(ImapState).where(ImapState.account == account))
    if state is None:
        state = ImapState(account=account, uidvalidity=0, last_uid=0)
        session.add(state)
        session.flush()
    return state


def set_imap_watermark(session: Session, account: str, uidvalidity: int, last_uid: int) -> None:
    state = imap_watermark(session, account)
    state.uidvalidity = uidvalidity
    state.last_uid = last_uid
