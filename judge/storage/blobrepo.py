"""Blobs (content-addressed attachments), render jobs, and pruning of sent outbox rows.

Each function takes the caller's Session; the caller's ``Database.session()`` block is the
transaction. ``after_commit`` registers work the ``Database`` runs once that block has
committed and released the writer lock (drawing a map must not hold it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, exists, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from judge.storage.database import AFTER_COMMIT
from judge.storage.models_blob import Blob, RenderJob
from judge.storage.models_game import Turn
from judge.storage.models_mail import OutboundMail


def after_commit(session: Session, work: Callable[[Any], object]) -> None:
    """Run ``work(db)`` after the transaction of ``session`` commits, outside its lock."""
    session.info.setdefault(AFTER_COMMIT, []).append(work)


def put_blob(session: Session, data: bytes, mime: str, now: datetime) -> str:
    """Store ``data`` once under its sha256 (a second put of the same bytes is a no-op)."""
    digest = hashlib.sha256(data).hexdigest()
    values = {"sha256": digest, "mime": mime, "data": data, "size": len(data), "created": now}
    dialect = session.get_bind().dialect.name
    maker = pg_insert if dialect == "postgresql" else sqlite_insert
    if dialect in ("postgresql", "sqlite"):
        session.execute(maker(Blob).values(**values).on_conflict_do_nothing())
    elif session.get(Blob, digest) is None:  # pragma: no cover - the two supported databases
        session.execute(insert(Blob).values(**values))
    return digest


def blobs(session: Session, digests: Iterable[str]) -> dict[str, bytes]:
    """The bytes of each stored blob among ``digests`` (one query)."""
    wanted = sorted(set(digests))
    if not wanted:
        return {}
    rows = session.execute(select(Blob.sha256, Blob.data).where(Blob.sha256.in_(wanted)))
    return {sha: bytes(data) for sha, data in rows}


def add_render_job(session: Session, job: RenderJob) -> RenderJob:
    session.add(job)
    session.flush()
    return job


def render_job_ids(session: Session, limit: int = 100,
                   created_before: datetime | None = None) -> list[int]:
    stmt = select(RenderJob.id).order_by(RenderJob.id).limit(limit)
    if created_before is not None:
        stmt = stmt.where(RenderJob.created < created_before)
    return list(session.scalars(stmt))


def render_job(session: Session, job_id: int) -> RenderJob | None:
    return session.get(RenderJob, job_id)


def outbound_ids_after(session: Session, game_id: int, first_id: int) -> list[int]:
    """Pending outbox rows of a game from ``first_id`` on (those this transaction queued;
    the game row is locked). Rows another render job holds are its own, not these."""
    session.flush()
    return list(session.scalars(
        select(OutboundMail.id).where(OutboundMail.game_id == game_id,
                                      OutboundMail.id >= first_id,
                                      OutboundMail.status == "pending")
        .order_by(OutboundMail.id)))


def hold_outbound(session: Session, ids: Sequence[int]) -> None:
    if ids:
        session.execute(update(OutboundMail).where(OutboundMail.id.in_(list(ids)),
                                                   OutboundMail.status == "pending")
                        .values(status="rendering"))


def finish_render_job(session: Session, job_id: int, *, subject: str, body: str,
                      attachments: list[dict[str, Any]], blob_sha256: str | None,
                      bulletin: dict[str, Any] | None) -> bool:
    """The job's rows filled and released, its turn's bulletin stored, the job deleted.

    False (and nothing written) when the job is gone: another worker finished it first, so
    its mails are queued once."""
    job = session.get(RenderJob, job_id, with_for_update=True)
    if job is None:
        return False
    gone = session.execute(delete(RenderJob).where(RenderJob.id == job_id))
    if gone.rowcount != 1:  # type: ignore[attr-defined]
        return False
    fill = [int(i) for i in job.fill_ids or []]
    hold = sorted({int(i) for i in job.hold_ids or []} | set(fill))
    if fill:
        session.execute(update(OutboundMail).where(OutboundMail.id.in_(fill))
                        .values(subject=subject, body=body, attachments=attachments,
                                blob_sha256=blob_sha256))
    if hold:
        session.execute(update(OutboundMail).where(OutboundMail.id.in_(hold),
                                                   OutboundMail.status == "rendering")
                        .values(status="pending"))
    if job.turn_id is not None and bulletin is not None:
        turn = session.get(Turn, job.turn_id)
        if turn is not None:
            turn.bulletins = {**(turn.bulletins or {}), job.language: bulletin}
    session.expunge(job)
    return True


def prune_outbound(session: Session, sent_before: datetime, now: datetime) -> tuple[int, int]:
    """Empty the body and attachments of mail sent before ``sent_before`` and delete the
    blobs no row references any more. Returns (rows emptied, blobs deleted).

    The row itself stays (Message-ID, recipient, dates): a late bounce still finds it, and the
    daily reply cap still counts it. The bulletins stay in the turn snapshots (archive)."""
    emptied = session.execute(
        update(OutboundMail)
        .where(OutboundMail.status == "sent", OutboundMail.sent_at < sent_before,
               (OutboundMail.body != "") | OutboundMail.blob_sha256.is_not(None))
        .values(body="", attachments=[], blob_sha256=None))
    referenced = exists().where(OutboundMail.blob_sha256 == Blob.sha256)
    dropped = session.execute(delete(Blob).where(~referenced, Blob.created < now))
    return int(emptied.rowcount or 0), int(dropped.rowcount or 0)  # type: ignore[attr-defined]
