"""Issue 16: a results bulletin is rendered after the turn's commit, its map drawn once and
stored once (content-addressed), nothing lost or queued twice when a crash falls in between,
and sent bodies and maps pruned while the archive keeps every bulletin. SQLite and
PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from judge.bulletins.views import notice_view
from judge.mail.sender import blob_refs, build_message
from judge.service import announce, inbox, rendering, turns
from judge.storage import Database, blobrepo
from judge.storage.mailrepo import due_outbound_rows
from judge.storage.models import Blob, Game, OutboundMail, RenderJob, Turn
from tests.service.games import SETTINGS, START, new_game, send
from tests.service.sample_game import SPRING_1901


def play(db: Database, game_id: int, when) -> turns.TurnReport:
    for power, given in SPRING_1901.items():
        send(db, game_id, power, given, when)
    with db.session() as s:
        game = s.get(Game, game_id)
        return turns.process(s, game, when, SETTINGS)


def bulletins(db: Database) -> list[OutboundMail]:
    with db.session() as s:
        return list(s.scalars(select(OutboundMail).where(OutboundMail.kind == "bulletin")
                              .order_by(OutboundMail.id)))


def test_the_map_is_drawn_once_and_every_bulletin_references_it(db: Database) -> None:
    gid = new_game(db)
    when = START + timedelta(hours=1)
    report = play(db, gid, when)
    assert report.action == "adjudicated"
    rows = bulletins(db)
    assert len(rows) == 8  # seven players and the GM
    (digest,) = {r.blob_sha256 for r in rows}
    assert digest is not None
    assert all(r.status == "pending" and r.attachments == [
        {"mime": "image/png", "filename": "alpha-S1901M.png", "blob": digest}] for r in rows)
    assert {r.body for r in rows} == {report.body} and report.body
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(Blob)) == 1
        assert s.scalar(select(func.count()).select_from(RenderJob)) == 0
        turn = s.scalar(select(Turn).where(Turn.game_id == gid))
        assert turn.bulletins["en"]["body"] == report.body
        stored = blobrepo.blobs(s, blob_refs(rows))
    # the sender builds the MIME message from the reference
    message = build_message(rows[0], SETTINGS, blobs=stored)
    (picture,) = [p for p in message.walk() if p.get_content_type() == "image/png"]
    assert picture.get_payload(decode=True) == stored[digest]
    assert stored[digest].startswith(b"\x89PNG")


def test_a_crash_before_rendering_loses_nothing_and_queues_nothing_twice(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = new_game(db)
    when = START + timedelta(hours=1)
    # the judge dies right after the turn's commit: the work after the commit never runs
    monkeypatch.setattr(rendering, "after_commit", lambda session, work: None)
    assert play(db, gid, when).action == "adjudicated"
    rows = bulletins(db)
    assert len(rows) == 8 and {r.status for r in rows} == {"rendering"}
    with db.session() as s:
        assert due_outbound_rows(s, when + timedelta(days=1)) == []  # nothing half-made leaves
        (job_id,) = s.scalars(select(RenderJob.id))
        assert s.scalar(select(Turn.bulletins).where(Turn.game_id == gid)) == {}
    # two workers find the left-over job: the second finds it done and writes nothing
    assert rendering.render_pending(db, SETTINGS) == 1
    assert rendering.run_job(db, SETTINGS, job_id) is False
    rows = bulletins(db)
    assert len(rows) == 8 and {r.status for r in rows} == {"pending"}
    assert all(r.body.startswith(":: Judge") and r.blob_sha256 for r in rows)
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(RenderJob)) == 0
        assert s.scalar(select(func.count()).select_from(Blob)) == 1
        assert s.scalar(select(Turn.bulletins).where(Turn.game_id == gid))["en"]["body"]


def test_sent_bodies_and_maps_are_pruned_and_the_archive_keeps_the_bulletin(
        db: Database) -> None:
    gid = new_game(db)
    when = START + timedelta(hours=1)
    report = play(db, gid, when)
    rows = bulletins(db)
    sent_at = when + timedelta(minutes=1)
    with db.session() as s:
        # all but one sent: the map stays while a message still needs it
        s.execute(update(OutboundMail).where(OutboundMail.id.in_([r.id for r in rows[1:]]))
                  .values(status="sent", sent_at=sent_at))
    days = SETTINGS.sent_mail_retention_days
    assert inbox.prune_sent(db, SETTINGS, sent_at + timedelta(days=days - 1)) == (0, 0)
    later = sent_at + timedelta(days=days + 1)
    assert inbox.prune_sent(db, SETTINGS, later) == (7, 0)
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(Blob)) == 1
        s.execute(update(OutboundMail).where(OutboundMail.id == rows[0].id)
                  .values(status="sent", sent_at=sent_at))
    assert inbox.prune_sent(db, SETTINGS, later) == (1, 1)
    rows = bulletins(db)
    assert all(r.body == "" and r.attachments == [] and r.blob_sha256 is None for r in rows)
    assert all(r.message_id and r.to_addr for r in rows)  # a late bounce still finds its row
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(Blob)) == 0
        turn = s.scalar(select(Turn).where(Turn.game_id == gid))
        assert turn.bulletins["en"]["body"] == report.body


def test_mail_queued_after_the_bulletin_waits_for_it(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The end of a game (or a computer power's press) queued in the turn's transaction after
    the results is held with them, so it never leaves before the results it follows."""
    gid = new_game(db)
    monkeypatch.setattr(rendering, "after_commit", lambda session, work: None)
    with db.session() as s:
        game = s.get(Game, gid)
        job = rendering.queue_results(
            s, SETTINGS, START, game, event="notice", language="en", addresses=["a@x.test"],
            turn_id=None, map_spec=None,
            view=notice_view(announce.game_info(game, SETTINGS), "S1901M", []))
        announce.queue(s, SETTINGS, START, game, ["b@x.test"], "after", "after")
        rendering.hold_rest(s, job, game)
        job_id = job.id
    rows = bulletins(db)
    assert [(r.to_addr, r.status) for r in rows] == [("a@x.test", "rendering"),
                                                     ("b@x.test", "rendering")]
    assert rendering.run_job(db, SETTINGS, job_id)
    rows = bulletins(db)
    assert [(r.to_addr, r.status) for r in rows] == [("a@x.test", "pending"),
                                                     ("b@x.test", "pending")]
    assert rows[0].body and rows[1].body == "after"
