"""Repository functions for the mail pipeline. Each takes the caller's Session; the caller's
``Database.session()`` block is the transaction."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Integer, Table, bindparam, func, insert, select, tuple_, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from judge.storage.database import Database
from judge.storage.models_game import Account, Game, Seat
from judge.storage.models_mail import ImapState, InboundMail, MailTrouble, OutboundMail


def body_digest(raw: bytes) -> str:
    """sha256 of everything after the header block (the same body re-sent keeps its hash)."""
    cut = raw.find(b"\r\n\r\n")
    skip = 4
    if cut < 0:
        cut, skip = raw.find(b"\n\n"), 2
    body = raw[cut + skip :] if cut >= 0 else b""
    return hashlib.sha256(body).hexdigest()


# the inbound_mail columns' sizes
MESSAGE_ID_MAX = 998
ENVELOPE_FROM_MAX = 320


def stored_message_id(message_id: str, raw: bytes) -> str:
    """The Message-ID as stored: a missing one is made from the whole mail (two different
    mails with the same body must not collide), one longer than the column (a folded header
    can be) or holding a NUL from its own hash, so the same mail sent again still matches."""
    if not message_id:
        return "<sha256:" + hashlib.sha256(raw).hexdigest() + ">"
    if len(message_id) > MESSAGE_ID_MAX or "\x00" in message_id:  # PostgreSQL refuses NUL
        return "<sha256-id:" + hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest() + ">"
    return message_id


def stored_envelope_from(envelope_from: str) -> str:
    return envelope_from.replace("\x00", "")[:ENVELOPE_FROM_MAX]


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
    message_id = stored_message_id(message_id, raw)
    envelope_from = stored_envelope_from(envelope_from)
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
            # a duplicate only if the mail really is stored: never acknowledge a lost mail
            key = (stored_message_id(fields["message_id"], fields["raw"]),
                   body_digest(fields["raw"]))
            if session.execute(_STORED_KEYS, {"keys": [key]}).first() is None:
                raise
            if after is not None:
                after(session)
        return False


def inbound_values(
    *,
    raw: bytes,
    message_id: str,
    envelope_from: str,
    envelope_to: Sequence[str],
    source: str,
    now: datetime,
    max_bytes: int,
) -> dict[str, Any]:
    """The column values ``store_inbound`` would write, for the batched insert."""
    return {
        "message_id": stored_message_id(message_id, raw),
        "body_sha256": body_digest(raw),
        "raw": raw[:max_bytes] if len(raw) > max_bytes else raw,
        "size": len(raw),
        "oversized": len(raw) > max_bytes,
        "envelope_from": stored_envelope_from(envelope_from),
        "envelope_to": list(envelope_to),
        "source": source,
        "received_at": now,
        "status": "new",
    }


# Statements of the hot paths, built once: a Core statement on the table skips the ORM
# compilation and the cache-key walk of a statement built anew on every call.
# (a declarative class's __table__ is a Table; SQLAlchemy types it as any FromClause)
_INBOUND = cast(Table, InboundMail.__table__)
_OUTBOUND = cast(Table, OutboundMail.__table__)
_STORED_KEYS = select(_INBOUND.c.message_id, _INBOUND.c.body_sha256).where(
    tuple_(_INBOUND.c.message_id, _INBOUND.c.body_sha256).in_(bindparam("keys", expanding=True))
)
_INSERT_INBOUND = insert(_INBOUND)
_PEEK = (
    select(_INBOUND.c.id, _INBOUND.c.raw, _INBOUND.c.envelope_from, _INBOUND.c.size,
           _INBOUND.c.oversized, _INBOUND.c.envelope_to)
    .where(_INBOUND.c.status == "new")
    .order_by(_INBOUND.c.id)
    .limit(bindparam("limit", type_=Integer))
)
_PEEK_ONE = _PEEK.where(_INBOUND.c.id == bindparam("only_id"))
_CLAIM = _PEEK.with_for_update(skip_locked=True)
_CLAIM_ONE = _PEEK_ONE.with_for_update(skip_locked=True)


def store_inbound_many(session: Session, mails: Sequence[dict[str, Any]]) -> list[bool]:
    """``store_inbound`` for several mails with one look-up and one insert (group commit).

    ``mails`` are ``store_inbound`` keyword arguments; returns, per mail, True when stored and
    False for a duplicate (of a stored mail or of an earlier one in the same batch).
    """
    values = [inbound_values(**m) for m in mails]
    keys = [(v["message_id"], v["body_sha256"]) for v in values]
    found = session.execute(_STORED_KEYS, {"keys": sorted(set(keys))})
    existing = {(message_id, digest) for message_id, digest in found}
    stored: list[bool] = []
    fresh: list[dict[str, Any]] = []
    for key, value in zip(keys, values, strict=True):
        new = key not in existing
        existing.add(key)
        stored.append(new)
        if new:
            fresh.append(value)
    if fresh:
        session.execute(_INSERT_INBOUND, fresh)
    return stored


def store_received_many(db: Database, mails: Sequence[dict[str, Any]]
                        ) -> list[bool | Exception]:
    """Several received mails committed in ONE transaction; per mail True when stored,
    False for a duplicate, or the exception that kept it from being stored.

    Nothing is acknowledged before this returns, so a crash loses only unacknowledged mail.
    When the batch hits the unique constraint (another process stored one of them meanwhile)
    or the database refuses one of its rows, each mail is stored on its own instead, so one
    mail the database refuses does not keep the others out. Raises when the database itself
    is failing (nothing of the batch is stored then).
    """
    for attempt in (1, 2):
        try:
            with db.session() as session:
                return list(store_inbound_many(session, mails))
        except IntegrityError:
            if len(mails) == 1:
                return [False]  # the same mail, stored meanwhile by another process
            return [_store_alone(db, m) for m in mails]
        except DBAPIError as exc:
            # a pooled connection the server dropped (restart): the pool has been renewed,
            # so try once more rather than refuse the mail (a commit that did go through
            # makes the retry find the mails stored: they are acknowledged all the same)
            if exc.connection_invalidated and attempt == 1:
                continue
            if exc.connection_invalidated or len(mails) == 1:
                raise
            results = [_store_alone(db, m) for m in mails]
            if all(isinstance(r, Exception) for r in results):
                raise  # not one mail's fault
            return results
    raise AssertionError("unreachable")


def _store_alone(db: Database, mail: dict[str, Any]) -> bool | Exception:
    try:
        return store_received(db, **mail)
    except DBAPIError as exc:
        return exc


def claim_new_inbound(session: Session, limit: int, only_id: int | None = None) -> list[Any]:
    """The oldest new mail (up to ``limit``), locked for this transaction (SKIP LOCKED).

    Light rows (id, raw, envelope_from, size, oversized, envelope_to), not ORM objects.
    """
    if only_id is None:
        return list(session.execute(_CLAIM, {"limit": limit}))
    return list(session.execute(_CLAIM_ONE, {"limit": limit, "only_id": only_id}))


def peek_new_inbound(session: Session, limit: int, only_id: int | None = None) -> list[Any]:
    """The rows ``claim_new_inbound`` would take, read without locking anything: what a
    drain prepares (decodes, checks passwords of) before its write transaction."""
    if only_id is None:
        return list(session.execute(_PEEK, {"limit": limit}))
    return list(session.execute(_PEEK_ONE, {"limit": limit, "only_id": only_id}))


def inbound_rows(session: Session, ids: Sequence[int]) -> list[Any]:
    """Light rows (as ``claim_new_inbound``'s) of the inbound mails ``ids``, whatever their
    status."""
    query = select(*_PEEK.selected_columns).where(_INBOUND.c.id.in_(list(ids)))
    return list(session.execute(query.order_by(_INBOUND.c.id)))


_FINISH_INBOUND = (
    update(_INBOUND)
    .where(_INBOUND.c.id == bindparam("b_id"))
    .values(status=bindparam("b_status"), processed_at=bindparam("b_when"),
            note=bindparam("b_note"), error=bindparam("b_error"))
)


def finish_inbound(session: Session, results: Sequence[tuple[int, str, datetime, str | None,
                                                              str | None]]) -> None:
    """Mark several inbound mails at once: (id, status, processed_at, note, error) each."""
    if results:
        session.execute(_FINISH_INBOUND, [
            {"b_id": i, "b_status": st, "b_when": when, "b_note": note, "b_error": err}
            for i, st, when, note, err in results
        ])


OUTBOUND_COLUMNS = ("to_addr", "subject", "headers", "body", "attachments", "kind", "game_id",
                    "list_id", "inbound_id", "in_reply_to", "references", "message_id",
                    "status", "tries", "next_attempt_at", "created")


_INSERT_OUTBOUND = insert(_OUTBOUND)


def insert_outbound(session: Session, rows: Sequence[OutboundMail]) -> None:
    """Insert outbox rows built with ``outbound_row`` in one statement (no ORM flush).

    The rows stay transient (their ``id`` is not set); use ``enqueue_outbound`` when the
    caller needs the id or the ORM object in the session.
    """
    if rows:
        session.execute(_INSERT_OUTBOUND, [
            {name: getattr(row, name) for name in OUTBOUND_COLUMNS} for row in rows
        ])


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


def enqueue_outbound_many(session: Session, rows: list[OutboundMail]) -> list[OutboundMail]:
    """Queue several rows in one flush (SQLAlchemy batches their INSERT ... RETURNING)."""
    session.add_all(rows)
    session.flush()
    return rows


# built once (a Core statement on the table: no ORM compilation per call)
_COUNT_RECENT_TO = select(func.count(_OUTBOUND.c.id)).where(
    _OUTBOUND.c.to_addr == bindparam("address"),
    _OUTBOUND.c.created >= bindparam("since", type_=_OUTBOUND.c.created.type),
    _OUTBOUND.c.kind == bindparam("kind"),
)


def count_recent_to(session: Session, address: str, since: datetime, kind: str = "reply") -> int:
    # exact match, so the (to_addr, created) index serves it; addresses are stored as given
    if session.autoflush:
        session.flush()  # a Core statement does not autoflush: count rows added but not flushed
    params = {"address": address, "since": since, "kind": kind}
    return int(session.execute(_COUNT_RECENT_TO, params).scalar() or 0)


_DUE_ROWS = (
    select(_OUTBOUND)
    .where(_OUTBOUND.c.status.in_(("pending", "sending")),
           _OUTBOUND.c.next_attempt_at <= bindparam("now", type_=_OUTBOUND.c.created.type))
    .order_by(_OUTBOUND.c.next_attempt_at, _OUTBOUND.c.id)
    .limit(bindparam("limit", type_=Integer))
)
_MARK_SENT = (
    update(_OUTBOUND)
    .where(_OUTBOUND.c.id.in_(bindparam("ids", expanding=True)))
    .values(status="sent", sent_at=bindparam("now", type_=_OUTBOUND.c.created.type),
            tries=_OUTBOUND.c.tries + 1, last_error=None)
)


def due_outbound_rows(session: Session, now: datetime, limit: int = 50) -> list[Any]:
    """``due_outbound`` as light read-only rows (same attribute names), for the sender."""
    return list(session.execute(_DUE_ROWS, {"now": now, "limit": limit}))


def mark_outbound_sent(session: Session, ids: Sequence[int], now: datetime) -> None:
    """Several rows accepted by the relay: one statement, each row's tries counted."""
    if ids:
        session.execute(_MARK_SENT, {"ids": list(ids), "now": now})


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


_SET_RAW = update(_INBOUND).where(_INBOUND.c.id == bindparam("b_id")).values(
    raw=bindparam("b_raw"))


def set_inbound_raw(session: Session, inbound_id: int, raw: bytes) -> None:
    """Replace a handled mail's stored bytes (its passwords masked)."""
    set_inbound_raws(session, [(inbound_id, raw)])


def set_inbound_raws(session: Session, masked: Sequence[tuple[int, bytes]]) -> None:
    """``set_inbound_raw`` for several mails in one statement (the drain's batch)."""
    if masked:
        session.execute(_SET_RAW, [{"b_id": i, "b_raw": raw} for i, raw in masked])


# --- dead letters and bounces -------------------------------------------------------------

def requeue_dead_outbound(session: Session, ids: Sequence[int], now: datetime,
                          all_dead: bool = False) -> list[int]:
    """Dead outbox rows (the given ids, or all with ``all_dead``) back to pending, due now,
    with their tries reset; returns the ids requeued."""
    stmt = select(OutboundMail.id).where(OutboundMail.status == "dead")
    if ids:
        stmt = stmt.where(OutboundMail.id.in_(list(ids)))
    elif not all_dead:
        return []
    found = list(session.scalars(stmt.order_by(OutboundMail.id)))
    if found:
        session.execute(update(OutboundMail).where(OutboundMail.id.in_(found)).values(
            status="pending", tries=0, next_attempt_at=now))
    return found


def outbound_by_id(session: Session, outbound_id: int) -> OutboundMail | None:
    return session.get(OutboundMail, outbound_id)


def game_of_mail_to(session: Session, message_ids: Sequence[str], kind: str,
                    to_addr: str) -> int | None:
    """The game of the mail of ``kind`` this judge sent ``to_addr`` under one of
    ``message_ids`` (a reply's References), if any: what a mail answers."""
    if not message_ids:
        return None
    stmt = (select(OutboundMail.game_id)
            .where(OutboundMail.message_id.in_(list(message_ids)), OutboundMail.kind == kind,
                   func.lower(OutboundMail.to_addr) == to_addr.lower(),
                   OutboundMail.game_id.is_not(None))
            .order_by(OutboundMail.id.desc()).limit(1))
    return cast("int | None", session.scalar(stmt))


def seats_at_address(session: Session, address: str, game_id: int | None = None
                     ) -> list[tuple[Game, Seat]]:
    """The seats, in games not finished, whose player's address is ``address`` (any case);
    only in game ``game_id`` when given."""
    stmt = (select(Game, Seat).join(Seat, Seat.game_id == Game.id)
            .join(Account, Account.id == Seat.account_id)
            .where(func.lower(Account.address) == address.lower(), Game.status != "finished")
            .order_by(Game.id, Seat.power))
    if game_id is not None:
        stmt = stmt.where(Game.id == game_id)
    return [(game, seat) for game, seat in session.execute(stmt)]


def add_mail_trouble(session: Session, *, game_id: int, power: str, address: str, kind: str,
                     outbound_id: int | None, detail: str, now: datetime) -> bool:
    """Record trouble for a seat's address; False when it was already recorded (the GM has
    been told), True when it is new."""
    known = session.scalar(select(MailTrouble.id).where(
        MailTrouble.game_id == game_id, MailTrouble.power == power,
        func.lower(MailTrouble.address) == address.lower()))
    if known is not None:
        return False
    session.add(MailTrouble(game_id=game_id, power=power, address=address, kind=kind,
                            outbound_id=outbound_id, detail=detail[:2000], created=now))
    session.flush()
    return True
