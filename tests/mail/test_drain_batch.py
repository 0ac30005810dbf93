"""The batched inbox drain: up to DRAIN_BATCH mails per transaction, redone one per
transaction when one of them fails, reply cap and stop requests honoured inside a batch."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from judge import cli_mail
from judge.mail.decoding import decode
from judge.mail.outbox import OutboxRunner
from judge.service import dispatch as dispatch_module
from judge.service import inbox
from judge.service.uow import MailContext, outbound_row
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import enqueue_outbound, list_inbound, list_outbound, store_inbound

from .peers import CapturingRelay, make_mail

BOTH = pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)


class CountingDb(Database):
    """A real database that counts its transactions."""

    transactions = 0

    @contextmanager
    def session(self) -> Iterator[Session]:
        self.transactions += 1
        with super().session() as session:
            yield session


@pytest.fixture
def db(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[CountingDb]:
    monkeypatch.setattr(inbox, "BATCH_SECONDS", 60.0)  # a slow machine must not cut batches
    database = CountingDb(settings.database_url)
    database.migrate()
    yield database
    database.dispose()


def store(db: Database, count: int, prefix: str = "m",
          sender: str = "player@example.org") -> list[str]:
    ids = [f"<{prefix}{n}@example.org>" for n in range(count)]
    with db.session() as s:
        for mid in ids:
            store_inbound(s, raw=make_mail("HELP\n", sender=sender, message_id=mid),
                          message_id=mid, envelope_from=sender, envelope_to=["judge@x"],
                          source="lmtp", now=datetime.now(UTC), max_bytes=10**6)
    return ids


class Recorder:
    """The real dispatcher, counting calls per Message-ID; raises for ``bad`` mail after
    queueing a reply (which must be rolled back)."""

    def __init__(self, bad: set[str] | None = None, after=None, before=None) -> None:
        self.bad = set(bad or ())
        self.calls: Counter[str] = Counter()
        self.after = after
        self.before = before

    def __call__(self, ctx: MailContext) -> None:
        self.calls[ctx.mail.message_id] += 1
        if self.before is not None:
            self.before(ctx)
        if ctx.mail.message_id in self.bad:
            ctx.reply("this reply must be rolled back")
            raise RuntimeError(f"handler bug for {ctx.mail.message_id}")
        dispatch_module.dispatch(ctx)
        if self.after is not None:
            self.after(ctx)


def drain(db: Database, settings: Settings, dispatcher, limit: int = inbox.DRAIN_BATCH,
          stopping=lambda: False) -> list[int]:
    return inbox.drain_some(db, settings, decode, dispatcher, limit=limit, stopping=stopping)


def replies_by_mail(db: Database, kind: str | None = None) -> Counter[str]:
    with db.session() as s:
        return Counter(r.in_reply_to for r in list_outbound(s, limit=1000)
                       if kind is None or r.kind == kind or (kind == "reply" and r.kind.startswith(kind)))


def outbound_to(db: Database, message_id: str) -> list:
    """The outbox rows answering the mail ``message_id``."""
    with db.session() as s:
        return [r for r in list_outbound(s, limit=1000) if r.in_reply_to == message_id]


def statuses(db: Database) -> dict[str, str]:
    with db.session() as s:
        return {r.message_id: r.status for r in list_inbound(s)}


@BOTH
def test_up_to_sixteen_mails_per_transaction(db: CountingDb, settings: Settings) -> None:
    ids = store(db, 20)
    rec = Recorder()
    # twenty HELP mails from one address: within its anonymous budget of answers
    settings = replace(settings, anonymous_replies_per_address_per_day=20)
    db.transactions = 0
    first = drain(db, settings, rec)
    assert len(first) == 16 and db.transactions == 1
    second = drain(db, settings, rec)
    assert len(second) == 4 and db.transactions == 2
    assert drain(db, settings, rec) == []
    assert set(statuses(db).values()) == {"done"}
    assert rec.calls == Counter({mid: 1 for mid in ids})
    assert replies_by_mail(db) == Counter({mid: 1 for mid in ids})


@BOTH
async def test_failing_mail_in_a_batch_is_the_only_one_failed(
    db: CountingDb, settings: Settings, relay: CapturingRelay,
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    ids = store(db, 6)
    bad = ids[3]
    rec = Recorder(bad={bad})
    db.transactions = 0
    handled = await asyncio.to_thread(drain, db, settings, rec)
    assert len(handled) == 6
    # the batch (rolled back), then one transaction per mail, plus the failure's own
    assert db.transactions == 1 + 6 + 1
    with db.session() as s:
        rows = {r.message_id: r for r in list_inbound(s)}
    assert {mid: r.status for mid, r in rows.items()} == {
        mid: ("failed" if mid == bad else "done") for mid in ids}
    assert f"RuntimeError: handler bug for {bad}" in (rows[bad].error or "")
    assert all(rows[mid].error is None for mid in ids if mid != bad)
    # the ones before the failing mail ran twice (the first run rolled back), those after once
    assert [rec.calls[mid] for mid in ids] == [2, 2, 2, 2, 1, 1]
    # one reply each: the failed mail's says it could not be handled
    assert replies_by_mail(db) == Counter({mid: 1 for mid in ids})
    assert [r.body for r in outbound_to(db, bad)] == [inbox.failed_text("en")]
    # exactly one reply each reaches the relay
    sender = OutboxRunner(db, settings)
    try:
        assert await sender.send_due() == 6
    finally:
        await sender.close()
    got = Counter(m.message["In-Reply-To"] for m in relay.messages)
    assert got == Counter({mid: 1 for mid in ids})
    # `judge retry-failed` re-runs it (the bug fixed)
    monkeypatch.setenv("JUDGE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("JUDGE_ADDRESS", settings.address)
    monkeypatch.delenv("JUDGE_CONFIG", raising=False)
    assert await asyncio.to_thread(cli_mail.main, ["retry-failed"]) == 0
    out = capsys.readouterr().out
    assert f"{rows[bad].id}: done" in out
    assert statuses(db) == {mid: "done" for mid in ids}
    assert replies_by_mail(db) == Counter({mid: 2 if mid == bad else 1 for mid in ids})


@BOTH
def test_database_level_failure_in_the_batch_is_isolated(db: CountingDb,
                                                         settings: Settings) -> None:
    """A mail whose handler breaks the transaction itself (a failing statement)."""
    from sqlalchemy import text

    ids = store(db, 4)

    def sql_error(ctx: MailContext) -> None:
        if ctx.mail.message_id == ids[1]:
            ctx.session.execute(text("SELECT * FROM no_such_table"))

    rec = Recorder(after=sql_error)
    assert len(drain(db, settings, rec)) == 4
    assert statuses(db) == {mid: ("failed" if mid == ids[1] else "done") for mid in ids}
    assert replies_by_mail(db) == Counter({mid: 1 for mid in ids})
    assert [r.body for r in outbound_to(db, ids[1])] == [inbox.failed_text("en")]


@BOTH
def test_every_mail_of_a_batch_failing(db: CountingDb, settings: Settings) -> None:
    ids = store(db, 3)
    rec = Recorder(bad=set(ids))
    assert len(drain(db, settings, rec)) == 3
    assert set(statuses(db).values()) == {"failed"}
    # each sender is told once that its mail could not be handled
    assert replies_by_mail(db, kind="reply") == Counter({mid: 1 for mid in ids})
    assert {r.body for mid in ids for r in outbound_to(db, mid)} == {inbox.failed_text("en")}


@BOTH
def test_daily_reply_cap_across_a_batch(db: CountingDb, settings: Settings) -> None:
    capped = replace(settings, replies_per_address_per_day=3,
                     anonymous_replies_per_address_per_day=3)  # HELP: anonymous
    now = datetime.now(UTC)
    with db.session() as s:
        # one reply already sent today, one yesterday (not counted), one notice (not counted)
        enqueue_outbound(s, outbound_row(capped, now - timedelta(hours=1),
                                         to="player@example.org", subject="x", body="x",
                                         kind="reply_anon"))
        enqueue_outbound(s, outbound_row(capped, now - timedelta(days=2),
                                         to="player@example.org", subject="x", body="x",
                                         kind="reply_anon"))
        enqueue_outbound(s, outbound_row(capped, now, to="player@example.org", subject="x",
                                         body="x", kind="bulletin"))
    mine = store(db, 5, "p")
    theirs = store(db, 4, "o", sender="other@example.org")
    handled = drain(db, capped, Recorder())
    assert len(handled) == 9
    with db.session() as s:
        notes = {r.message_id: r.note for r in list_inbound(s)}
    dropped = "reply dropped: daily reply cap"
    assert [notes[m] for m in mine] == [None, None, dropped, dropped, dropped]
    assert [notes[m] for m in theirs] == [None, None, None, dropped]
    replies = replies_by_mail(db, "reply")
    assert sum(replies[m] for m in mine) == 2 and sum(replies[m] for m in theirs) == 3
    # past the cap, one notice says so, once per address (issue 10, point 10)
    notices = replies_by_mail(db, "cap_notice")
    assert sum(notices[m] for m in mine) == 1 and sum(notices[m] for m in theirs) == 1
    # the next batch counts what the last one committed
    later = store(db, 2, "q")
    drain(db, capped, Recorder())
    with db.session() as s:
        notes = {r.message_id: r.note for r in list_inbound(s)}
    assert [notes[m] for m in later] == [dropped, dropped]


@BOTH
def test_reply_cap_when_the_batch_is_redone_one_by_one(db: CountingDb,
                                                       settings: Settings) -> None:
    capped = replace(settings, replies_per_address_per_day=2,
                     anonymous_replies_per_address_per_day=2)  # HELP: anonymous
    ids = store(db, 5)
    handled = drain(db, capped, Recorder(bad={ids[4]}))
    assert len(handled) == 5
    with db.session() as s:
        notes = [r.note for r in list_inbound(s)]
    assert notes[:4] == [None, None, "reply dropped: daily reply cap",
                         "reply dropped: daily reply cap"]
    assert sum(replies_by_mail(db, "reply").values()) == 2
    assert sum(replies_by_mail(db, "cap_notice").values()) == 1


@BOTH
def test_stop_request_mid_batch_leaves_the_rest_new(db: CountingDb, settings: Settings) -> None:
    ids = store(db, 10)
    stop = {"now": False}

    def request_stop(ctx: MailContext) -> None:
        if ctx.mail.message_id == ids[2]:
            stop["now"] = True

    rec = Recorder(after=request_stop)
    handled = drain(db, settings, rec, stopping=lambda: stop["now"])
    assert len(handled) == 3
    assert statuses(db) == {mid: ("done" if n < 3 else "new") for n, mid in enumerate(ids)}
    assert replies_by_mail(db) == Counter({mid: 1 for mid in ids[:3]})
    # after a restart the rest is handled, each once
    stop["now"] = False
    assert len(drain(db, settings, rec)) == 7
    assert rec.calls == Counter({mid: 1 for mid in ids})
    assert replies_by_mail(db) == Counter({mid: 1 for mid in ids})


@BOTH
def test_stop_request_while_redoing_a_failed_batch(db: CountingDb, settings: Settings) -> None:
    ids = store(db, 6)
    stop = {"now": False}

    def request_stop(ctx: MailContext) -> None:
        if ctx.mail.message_id == ids[5]:
            stop["now"] = True  # arrives while the batch fails at this very mail

    rec = Recorder(bad={ids[5]}, before=request_stop)
    handled = drain(db, settings, rec, stopping=lambda: stop["now"])
    # the batch is rolled back; the redo sees the stop after its first mail
    assert len(handled) == 1
    assert statuses(db) == {mid: ("done" if mid == ids[0] else "new") for mid in ids}
    assert replies_by_mail(db) == Counter({ids[0]: 1})
    stop["now"] = False
    drain(db, settings, Recorder(bad={ids[5]}))
    assert statuses(db) == {mid: ("failed" if mid == ids[5] else "done") for mid in ids}
    # the failed one's reply says it could not be handled
    assert replies_by_mail(db) == Counter({mid: 1 for mid in ids})


@BOTH
def test_a_mail_prepared_and_not_handled_is_not_prepared_again(
        db: CountingDb, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: a round whose write transaction stops early (here: after one mail) keeps
    what it prepared for the others; the next rounds handle them without preparing again,
    and each is handled once with its reply."""
    ids = store(db, 5)
    prepared: Counter[str] = Counter()
    real = dispatch_module.prepare

    def counting(reader, mail, settings_):  # noqa: ANN001
        prepared[mail.message_id] += 1
        return real(reader, mail, settings_)

    monkeypatch.setattr(dispatch_module, "prepare", counting)
    monkeypatch.setattr(inbox, "BATCH_SECONDS", -1.0)  # every batch stops after its first mail
    rec = Recorder()
    ahead = inbox.PreparedAhead()
    handled: list[int] = []
    while True:
        got = inbox.drain_some(db, settings, decode, rec, limit=inbox.DRAIN_BATCH, ahead=ahead)
        if not got:
            break
        assert len(got) == 1
        handled.extend(got)
    assert len(handled) == 5 and set(statuses(db).values()) == {"done"}
    assert prepared == Counter({mid: 1 for mid in ids})
    assert rec.calls == Counter({mid: 1 for mid in ids})
    assert replies_by_mail(db) == Counter({mid: 1 for mid in ids})


@BOTH
def test_a_failed_batch_is_redone_without_preparing_again(
        db: CountingDb, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: the mails of a batch that failed are handled again one per transaction with
    what the batch prepared for them (a failing mail must not double the scrypt work of the
    whole batch); each ends handled once, the failing one failed."""
    ids = store(db, 5)
    prepared: Counter[str] = Counter()
    real = dispatch_module.prepare

    def counting(reader, mail, settings_):  # noqa: ANN001
        prepared[mail.message_id] += 1
        return real(reader, mail, settings_)

    monkeypatch.setattr(dispatch_module, "prepare", counting)
    rec = Recorder(bad={ids[2]})
    ahead = inbox.PreparedAhead()
    handled = inbox.drain_some(db, settings, decode, rec, limit=inbox.DRAIN_BATCH, ahead=ahead)
    assert len(handled) == 5
    assert statuses(db) == {mid: ("failed" if mid == ids[2] else "done") for mid in ids}
    assert prepared == Counter({mid: 1 for mid in ids})
    assert replies_by_mail(db) == Counter({mid: 1 for mid in ids})
