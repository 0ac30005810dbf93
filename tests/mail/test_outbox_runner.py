"""The outbox runner over a real relay: one commit per message, sending stops when "sent"
cannot be written, unbuildable rows dead-lettered once, dead mail told to the GM once per
seat, and ``judge outbox retry``."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from judge import cli_mail
from judge.mail import outbox as outbox_module
from judge.mail.outbox import OutboxRunner, jittered
from judge.mail.transport import Build, SmtpTransport
from judge.service.mailtrouble import dead_letter_hook
from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import enqueue_outbound, list_outbound
from judge.storage.models import MailTrouble, OutboundMail
from tests.service.games import new_game, player

from .peers import CapturingRelay

BOTH = pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def db(settings: Settings) -> Any:
    database = Database(settings.database_url)
    database.migrate()
    yield database
    database.dispose()


def enqueue(db: Database, settings: Settings, count: int = 1, **kw: Any) -> list[int]:
    ids = []
    with db.session() as s:
        for n in range(count):
            fields: dict[str, Any] = dict(to=f"p{n}@example.org", subject="Bulletin",
                                          body=f"text {n}\n")
            fields.update(kw)
            row = enqueue_outbound(s, outbound_row(settings, datetime.now(UTC), **fields))
            ids.append(row.id)
    return ids


def statuses(db: Database) -> list[tuple[str, int]]:
    with db.session() as s:
        return [(r.status, r.tries) for r in sorted(list_outbound(s), key=lambda r: r.id)]


class WatchingTransport(SmtpTransport):
    """The real SMTP transport, looking at the database before each message: every message
    the relay took before must already be recorded sent."""

    def __init__(self, settings: Settings, db: Database, relay: CapturingRelay) -> None:
        super().__init__(settings)
        self.db, self.relay = db, relay
        self.seen: list[int] = []

    async def send(self, mail_from: str, rcpt: str, build: Build) -> None:
        accepted = len(self.relay.messages)
        with self.db.session() as s:
            sent = len(list(s.scalars(select(OutboundMail.id)
                                      .where(OutboundMail.status == "sent"))))
        self.seen.append(sent)
        assert sent == accepted
        await super().send(mail_from, rcpt, build)


@BOTH
async def test_each_message_is_recorded_before_the_next_is_sent(
        db: Database, settings: Settings, relay: CapturingRelay) -> None:
    enqueue(db, settings, 5)
    transport = WatchingTransport(settings, db, relay)
    runner = OutboxRunner(db, settings, transports=[transport])
    try:
        assert await runner.send_due() == 5
    finally:
        await runner.close()
    assert transport.seen == [0, 1, 2, 3, 4]
    assert statuses(db) == [("sent", 1)] * 5
    # VERP: each message left with its own return path
    paths = [m.mail_from for m in relay.messages]
    assert len(set(paths)) == 5 and all(p.startswith("judge+bounce-") for p in paths)


@BOTH
async def test_sending_stops_while_sent_cannot_be_recorded(
        db: Database, settings: Settings, relay: CapturingRelay,
        monkeypatch: pytest.MonkeyPatch) -> None:
    enqueue(db, settings, 3)
    real = outbox_module.mark_outbound_sent
    broken = {"on": True}

    def mark(session: Any, ids: Any, now: datetime) -> None:
        if broken["on"]:
            raise OperationalError("UPDATE outbound_mail", {}, Exception("disk full"))
        real(session, ids, now)

    monkeypatch.setattr(outbox_module, "mark_outbound_sent", mark)
    runner = OutboxRunner(db, settings)
    try:
        for _ in range(3):
            with pytest.raises(OperationalError):
                await runner.send_due()
        # one message reached the relay; nothing more is sent while its mark fails
        assert len(relay.messages) == 1
        assert statuses(db) == [("pending", 0)] * 3
        broken["on"] = False
        assert await runner.send_due() == 2
    finally:
        await runner.close()
    assert statuses(db) == [("sent", 1)] * 3
    assert sorted(m.message["Message-ID"] for m in relay.messages) == sorted(
        {m.message["Message-ID"] for m in relay.messages})
    assert len(relay.messages) == 3


async def test_runner_loop_backs_off_while_the_database_fails(
        db: Database, settings: Settings, relay: CapturingRelay,
        monkeypatch: pytest.MonkeyPatch) -> None:
    enqueue(db, settings, 2)
    real = outbox_module.mark_outbound_sent
    failures = {"left": 3}

    def mark(session: Any, ids: Any, now: datetime) -> None:
        if failures["left"]:
            failures["left"] -= 1
            raise OperationalError("UPDATE outbound_mail", {}, Exception("disk full"))
        real(session, ids, now)

    monkeypatch.setattr(outbox_module, "mark_outbound_sent", mark)
    quick = replace(settings, retry_max_seconds=0.05)
    runner = OutboxRunner(db, quick)
    task = asyncio.create_task(runner.run())
    try:
        for _ in range(200):
            if statuses(db) == [("sent", 1)] * 2:
                break
            await asyncio.sleep(0.05)
    finally:
        runner.stopping.set()
        await asyncio.wait_for(task, 10)
    assert statuses(db) == [("sent", 1)] * 2
    assert len(relay.messages) == 2  # the first one was never sent again


@BOTH
async def test_unbuildable_row_is_dead_lettered_once(
        db: Database, settings: Settings, relay: CapturingRelay,
        caplog: pytest.LogCaptureFixture) -> None:
    [bad] = enqueue(db, settings, attachments=[{"filename": "x", "mime": "text/plain"}])
    enqueue(db, settings, to="q@example.org")
    runner = OutboxRunner(db, settings)
    try:
        with caplog.at_level(logging.ERROR, logger="judge.mail.outbox"):
            assert await runner.send_due() == 1
            assert await runner.send_due() == 0
    finally:
        await runner.close()
    with db.session() as s:
        row = s.get(OutboundMail, bad)
        assert row is not None
        assert (row.status, row.tries) == ("dead", 1)
        assert "bad message" in (row.last_error or "")
    lines = [r for r in caplog.records if "cannot be built" in r.getMessage()]
    assert len(lines) == 1
    assert [m.rcpt_tos for m in relay.messages] == [["q@example.org"]]


def test_backoff_is_jittered() -> None:
    delays = {jittered(timedelta(seconds=100)).total_seconds() for _ in range(50)}
    assert all(50 <= d <= 100 for d in delays)
    assert len(delays) > 1


@BOTH
async def test_dead_mail_tells_the_gm_once_per_seat(
        db: Database, settings: Settings, relay: CapturingRelay) -> None:
    game_id = new_game(db)
    with db.session() as s:
        from judge.storage.models import Game
        game = s.get(Game, game_id)
        for n in range(2):
            enqueue_outbound(s, outbound_row(settings, datetime.now(UTC), to=player("FRANCE"),
                                             subject=f"alpha: bulletin {n}", body="x\n",
                                             kind="bulletin", game=game))
    relay.answer_next("550 5.1.1 no such user", "550 5.1.1 no such user")
    runner = OutboxRunner(db, settings, on_dead=dead_letter_hook(settings,
                                                                 lambda: datetime.now(UTC)))
    try:
        await runner.send_due()  # both dead; one notice queued for the GM
        await runner.send_due()  # the notice goes out
    finally:
        await runner.close()
    with db.session() as s:
        troubles = list(s.scalars(select(MailTrouble)))
        rows = sorted(list_outbound(s), key=lambda r: r.id)
    assert [(t.power, t.address, t.kind) for t in troubles] == [
        ("FRANCE", player("FRANCE"), "dead")]
    assert [r.status for r in rows] == ["dead", "dead", "sent"]
    [notice] = relay.messages
    assert notice.rcpt_tos == ["gm@players.test"]
    assert "FRANCE" in notice.message["Subject"]
    assert "550" in notice.message.get_payload(decode=True).decode()


@BOTH
async def test_outbox_retry_requeues_dead_mail(
        db: Database, settings: Settings, relay: CapturingRelay,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    ids = enqueue(db, settings, 3)
    relay.answer_next(*["550 5.1.1 no"] * 3)
    runner = OutboxRunner(db, settings)
    try:
        await runner.send_due()
        assert [s for s, _ in statuses(db)] == ["dead"] * 3
        monkeypatch.setenv("JUDGE_DATABASE_URL", settings.database_url)
        monkeypatch.delenv("JUDGE_CONFIG", raising=False)
        assert await asyncio.to_thread(cli_mail.main, ["outbox", "retry"]) == 2
        assert await asyncio.to_thread(cli_mail.main, ["outbox", "retry", str(ids[0])]) == 0
        assert f"requeued 1 dead outbound mail(s): {ids[0]}" in capsys.readouterr().out
        assert await runner.send_due() == 1
        assert await asyncio.to_thread(cli_mail.main, ["outbox", "retry", "--dead"]) == 0
        assert "requeued 2" in capsys.readouterr().out
        assert await runner.send_due() == 2
    finally:
        await runner.close()
    assert statuses(db) == [("sent", 1)] * 3
