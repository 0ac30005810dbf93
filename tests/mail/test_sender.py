"""The outbox sender against a relay that refuses on demand."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime

from judge.mail.outbox import OutboxRunner
from judge.mail.sender import build_message
from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import enqueue_outbound, list_outbound

from .peers import CapturingRelay, free_port


def _db(settings: Settings) -> Database:
    db = Database(settings.database_url)
    db.migrate()
    return db


def _enqueue(db: Database, settings: Settings, to: str = "p@example.org", **kw) -> str:
    with db.session() as s:
        row = outbound_row(settings, datetime.now(UTC), to=to, subject="Bulletin",
                           body="text", **kw)
        enqueue_outbound(s, row)
        return row.message_id


async def _send_until(sender: OutboxRunner, db: Database, done: set[str], rounds: int = 60) -> list:
    """Run ``sender`` until every row's status is in ``done``; its connection is closed
    after (a kept SMTP connection left to the garbage collector is a ResourceWarning)."""
    try:
        for _ in range(rounds):
            await sender.send_due()
            with db.session() as s:
                rows = list_outbound(s)
            if all(r.status in done for r in rows):
                return rows
            await asyncio.sleep(0.1)
    finally:
        await sender.close()
    raise AssertionError(f"outbox did not settle: {[(r.status, r.tries) for r in rows]}")


async def test_451_is_retried_then_sent(settings: Settings, relay: CapturingRelay) -> None:
    db = _db(settings)
    mid = _enqueue(db, settings, game="alpha", kind="bulletin")
    relay.answer_next("451 4.3.0 greylisted")
    rows = await _send_until(OutboxRunner(db, settings), db, {"sent"})
    assert rows[0].tries == 2 and rows[0].sent_at is not None
    [got] = relay.messages
    assert got.message["Message-ID"] == mid
    assert got.message["List-Id"] == "<alpha.example.org>"
    assert got.message["Auto-Submitted"] == "auto-generated"
    assert relay.handler.refused == ["451 4.3.0 greylisted"]


async def test_550_is_dead_at_once(settings: Settings, relay: CapturingRelay) -> None:
    db = _db(settings)
    _enqueue(db, settings)
    relay.answer_next("550 5.1.1 no such user")
    rows = await _send_until(OutboxRunner(db, settings), db, {"dead"})
    assert rows[0].tries == 1 and "550" in rows[0].last_error
    assert relay.messages == []


async def test_too_many_4xx_is_dead(settings: Settings, relay: CapturingRelay) -> None:
    db = _db(settings)
    _enqueue(db, settings)
    relay.answer_next(*["421 4.7.0 busy"] * settings.max_send_tries)
    rows = await _send_until(OutboxRunner(db, settings), db, {"dead"})
    assert rows[0].tries == settings.max_send_tries


async def test_unreachable_relay_backs_off_then_delivers(settings: Settings,
                                                          relay: CapturingRelay) -> None:
    db = _db(settings)
    _enqueue(db, settings)
    down = replace(settings, smtp_port=free_port())
    sender = OutboxRunner(db, down)
    try:
        await sender.send_due()
    finally:
        await sender.close()
    with db.session() as s:
        [row] = list_outbound(s)
    assert row.status == "pending" and row.tries == 1
    assert "unreachable" in row.last_error and row.next_attempt_at > row.created
    rows = await _send_until(OutboxRunner(db, settings), db, {"sent"})
    assert rows[0].tries == 2 and len(relay.messages) == 1


def test_message_headers() -> None:
    settings = Settings(address="judge@example.org")
    row = outbound_row(settings, datetime(2026, 3, 2, 10, tzinfo=UTC), to="p@example.org",
                       subject="Re: x", body="hi", kind="reply", in_reply_to="<a@b>",
                       references="<z@b> <a@b>",
                       attachments=[{"filename": "map.txt", "mime": "text/plain",
                                     "data_b64": "aGk="}])
    msg = build_message(row, settings)
    assert msg["From"] == "judge@example.org" and msg["To"] == "p@example.org"
    assert msg["In-Reply-To"] == "<a@b>" and msg["References"] == "<z@b> <a@b>"
    assert msg["Auto-Submitted"] == "auto-replied" and msg["X-Loop"] == "judge@example.org"
    assert msg["Date"] == "Mon, 02 Mar 2026 10:00:00 +0000"
    assert [p.get_filename() for p in msg.iter_attachments()] == ["map.txt"]
