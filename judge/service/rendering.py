"""Results bulletins rendered off the game's transaction (issue 16).

Drawing a phase's map with CairoSVG was 88% of a turn, and it ran inside the transaction that
holds the game row and (on SQLite) the one writer lock, once per recipient. Now the turn's
transaction stores, with the turn, a ``render_job`` row holding the bulletin's view (plain
JSON) and what the map is drawn from, and queues its outbox rows held (status
``rendering``, empty). After the commit, with no lock held, the map is drawn once and the
text rendered; a second short transaction stores the map once as a content-addressed blob,
fills and releases the held rows and the turn's stored bulletin, and deletes the job.

Crash safety: the job is committed with the turn, so a crash before the second transaction
loses nothing; the sweep (``render_pending``, run by the inbox drain's housekeeping and at
start) renders what is left. Two workers rendering the same job waste a drawing but queue
its mails once: the second transaction deletes the job row and writes only if it was there.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from judge.bulletins.render import render
from judge.maps.attachment import map_png
from judge.service.header_safety import addr_spec
from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Database, Session
from judge.storage.blobrepo import (
    add_render_job,
    after_commit,
    finish_render_job,
    hold_outbound,
    outbound_ids_after,
    put_blob,
    render_job,
    render_job_ids,
)
from judge.storage.mailrepo import enqueue_outbound_many
from judge.storage.models import Game, RenderJob

log = logging.getLogger(__name__)


def _plain(view: dict[str, Any]) -> dict[str, Any]:
    """The view as stored JSON reads it back (tuples become lists): the text rendered after
    the commit is rendered from exactly what was stored."""
    loaded: dict[str, Any] = json.loads(json.dumps(view))
    return loaded


def queue_results(session: Session, settings: Settings, now: datetime, game: Game, *,
                  event: str, language: str, view: dict[str, Any], addresses: list[str],
                  map_spec: dict[str, Any] | None, turn_id: int | None) -> RenderJob:
    """Queue the ``event`` bulletin to ``addresses`` as held rows plus a render job; the
    map and text are made after this transaction commits (``run_job``)."""
    rows = []
    for address in addresses:
        if addr_spec(address) is None:
            continue  # never a header built from something that is not one address
        row = outbound_row(settings, now, to=address, subject="", body="", kind="bulletin",
                           game=game)
        row.status = "rendering"
        rows.append(row)
    fill = [row.id for row in enqueue_outbound_many(session, rows)]
    job = add_render_job(session, RenderJob(
        game_id=game.id, turn_id=turn_id, event=event, language=language, view=_plain(view),
        map_spec=map_spec, fill_ids=fill, hold_ids=list(fill), created=now))
    job_id = job.id
    # the job as this transaction stores it (its view read back from JSON already): rendered
    # from memory after the commit, not read back in a transaction of its own
    after_commit(session, lambda db: run_job(db, settings, job_id, job))
    return job


def hold_rest(session: Session, job: RenderJob, game: Game) -> None:
    """Hold the game's mail queued after the job's rows in this transaction (the end of the
    game, a computer power's press): it leaves after the results, as it did before."""
    if not job.fill_ids:
        return
    later = [i for i in outbound_ids_after(session, game.id, min(job.fill_ids))
             if i not in set(job.fill_ids)]
    if later:
        hold_outbound(session, later)
        job.hold_ids = [*job.fill_ids, *later]
        session.flush()


def _render(job: RenderJob) -> tuple[str, str, dict[str, Any] | None, bytes | None]:
    subject, body = render(job.event, job.language, dict(job.view or {}))
    spec = job.map_spec
    if not spec:
        return subject, body, None, None
    png = map_png(spec["game"], spec["phase"], spec.get("before") or {}, spec.get("outcomes"),
                  spec.get("after"), language=spec.get("language") or "en")
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in spec["game"]) or "game"
    return subject, body, {"mime": "image/png", "filename": f"{safe}-{spec['phase']}.png"}, png


def run_job(db: Database, settings: Settings, job_id: int, job: RenderJob | None = None,
            ) -> bool:
    """Render one job and queue its mails; False when it was gone (done by another worker).
    ``job``: the committed row as its transaction left it (else it is read)."""
    if job is None:
        with db.reading() as session:
            job = render_job(session, job_id)
            if job is None:
                return False
            session.expunge(job)
    # no transaction, no lock: the expensive part
    subject, body, attachment, png = _render(job)
    with db.session() as session:
        digest = None
        attachments: list[dict[str, Any]] = []
        if attachment is not None and png is not None:
            digest = put_blob(session, png, attachment["mime"], job.created)
            attachments = [{**attachment, "blob": digest}]
        done = finish_render_job(session, job_id, subject=subject, body=body,
                                 attachments=attachments, blob_sha256=digest,
                                 bulletin={"subject": subject, "body": body,
                                           "event": job.event})
        if not done:
            session.rollback()
    return done


def render_pending(db: Database, settings: Settings, limit: int = 100,
                   created_before: datetime | None = None) -> int:
    """Render the jobs left over (a crash between a turn's commit and its rendering);
    ``created_before``: only jobs older than that (younger ones are still being rendered by
    the process that committed them)."""
    with db.reading() as session:
        ids = render_job_ids(session, limit, created_before)
    done = 0
    for job_id in ids:
        try:
            done += run_job(db, settings, job_id)
        except Exception:
            log.exception("render job %s failed; it is tried again at the next sweep", job_id)
    return done
