"""Group commit in the listeners: mails arriving together share one transaction, each gets
its 250 only after that commit, 451 for all of them if it fails."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy.orm import Session

from judge.mail import listener as listener_module
from judge.mail.listener import StoringHandler, start_listener
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import list_inbound

from .peers import deliver, make_mail

CAP = 4_000
CLIENTS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="mail-client")
BOTH = pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)


class FailingCommit(Database):
    """A real database whose transactions fail at commit time while ``fail`` is set (the
    statements have run: the rollback must undo them)."""

    fail = False

    @contextmanager
    def session(self) -> Iterator[Session]:
        with super().session() as session:
            yield session
            if self.fail:
                raise RuntimeError("injected commit failure")


class Gate:
    """Wraps ``store_received_many``: records each group's size; the first group is held
    until ``open()`` so that the mails delivered meanwhile queue up as the next group."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.sizes: list[int] = []
        self.release = threading.Event()
        self.entered = threading.Event()

    def __call__(self, db: Database, mails: list[dict[str, Any]]) -> list[bool]:
        self.sizes.append(len(mails))
        if len(self.sizes) == 1:
            self.entered.set()
            assert self.release.wait(20)
        return self.real(db, mails)

    def open(self) -> None:
        self.release.set()


class Served:
    def __init__(self, db: FailingCommit, handler: StoringHandler, port: int,
                 gate: Gate) -> None:
        self.db, self.handler, self.port, self.gate = db, handler, port, gate
        self.stored_calls = 0

    async def deliver(self, raw: bytes, lmtp: bool = True) -> int:
        # own threads: the default executor also runs the listener's commits
        return await asyncio.get_running_loop().run_in_executor(
            CLIENTS, lambda: deliver(self.port, raw, lmtp=lmtp))

    async def group(self, first: bytes, rest: list[bytes]) -> tuple[int, list[int]]:
        """Deliver ``first`` (held in its commit), then ``rest`` together; only then commit."""
        one = asyncio.ensure_future(self.deliver(first))
        assert await asyncio.to_thread(self.gate.entered.wait, 10)
        others = [asyncio.ensure_future(self.deliver(raw)) for raw in rest]
        queued = sum(1 for raw in rest if len(raw) <= CAP * listener_module.HARD_LIMIT_FACTOR)
        for _ in range(400):
            if len(self.handler._waiting) >= queued and all(
                    t.done() for t, raw in zip(others, rest, strict=True)
                    if len(raw) > CAP * listener_module.HARD_LIMIT_FACTOR):
                break
            await asyncio.sleep(0.01)
        assert len(self.handler._waiting) == queued
        # nobody has been acknowledged before the commit
        assert not one.done()
        assert all(not t.done() for t, raw in zip(others, rest, strict=True)
                   if len(raw) <= CAP * listener_module.HARD_LIMIT_FACTOR)
        self.gate.open()
        return await one, list(await asyncio.gather(*others))

    def rows(self) -> list[Any]:
        with self.db.session() as s:
            return list_inbound(s)


@pytest.fixture
async def served(database_url: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Served]:
    settings = Settings(database_url=database_url, address="judge@example.org",
                        max_message_bytes=CAP)
    db = FailingCommit(database_url)
    db.migrate()
    gate = Gate(listener_module.store_received_many)
    monkeypatch.setattr(listener_module, "store_received_many", gate)
    served: Served | None = None

    def counted() -> None:
        assert served is not None
        served.stored_calls += 1

    handler = StoringHandler(db, settings, "lmtp", on_stored=counted)
    lst = await start_listener(handler, "127.0.0.1", 0, True, settings)
    served = Served(db, handler, lst.port, gate)
    try:
        yield served
    finally:
        gate.open()
        await lst.stop(grace=5)
        db.dispose()


@BOTH
async def test_mails_arriving_together_share_one_commit(served: Served) -> None:
    first, rest = make_mail(message_id="<g0@x>"), [make_mail(message_id=f"<g{n}@x>")
                                                     for n in range(1, 6)]
    code, codes = await served.group(first, rest)
    assert (code, codes) == (250, [250] * 5)
    assert served.gate.sizes == [1, 5]
    assert sorted(r.message_id for r in served.rows()) == [f"<g{n}@x>" for n in range(6)]
    assert served.stored_calls == 6
    assert served.handler.idle.is_set() and served.handler.in_flight == 0


@BOTH
async def test_duplicates_within_and_across_groups_are_stored_once(served: Served) -> None:
    first = make_mail(body="HELP\n", message_id="<d0@x>")
    twin = make_mail(body="HELP\n", message_id="<d1@x>")
    other_body = make_mail(body="LIST\n", message_id="<d1@x>")  # same id, other body: new
    code, codes = await served.group(first, [twin, first, twin, other_body])
    assert (code, codes) == (250, [250] * 4)
    assert served.gate.sizes == [1, 4]
    rows = served.rows()
    assert sorted((r.message_id, r.raw) for r in rows) == sorted(
        [("<d0@x>", first), ("<d1@x>", twin), ("<d1@x>", other_body)])
    assert served.stored_calls == 3
    # and again later, alone: still 250, still stored once
    assert await served.deliver(twin) == 250
    assert len(served.rows()) == 3 and served.stored_calls == 3


@BOTH
async def test_duplicates_without_message_id(served: Served) -> None:
    bare = b"From: p@example.org\r\nSubject: x\r\n\r\nHELP\r\n"
    other = b"From: q@example.org\r\nSubject: x\r\n\r\nHELP\r\n"  # same body, other headers
    code, codes = await served.group(make_mail(), [bare, bare, other])
    assert (code, codes) == (250, [250, 250, 250])
    assert len(served.rows()) == 3


@BOTH
async def test_failed_commit_refuses_the_whole_group(served: Served) -> None:
    first = make_mail(message_id="<f0@x>")
    rest = [make_mail(message_id=f"<f{n}@x>") for n in range(1, 5)]
    one = asyncio.ensure_future(served.deliver(first))
    assert await asyncio.to_thread(served.gate.entered.wait, 10)
    served.db.fail = True  # the held group and the next one both fail at commit
    codes = await asyncio.gather(*(served.deliver(raw) for raw in rest),
                                 _open_later(served))
    assert await one == 451
    assert list(codes[:-1]) == [451] * 4
    assert served.gate.sizes[0] == 1 and sum(served.gate.sizes) == 5
    served.db.fail = False
    assert served.rows() == [] and served.stored_calls == 0
    # the sender tries again later: now each is stored once
    assert [await served.deliver(raw) for raw in [first, *rest]] == [250] * 5
    assert len(served.rows()) == 5 and served.stored_calls == 5


async def _open_later(served: Served) -> None:
    for _ in range(400):
        if len(served.handler._waiting) >= 4:
            break
        await asyncio.sleep(0.01)
    served.gate.open()


@BOTH
async def test_store_function_raising_gives_451_to_each(served: Served,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    real = served.gate.real

    def broken(db: Database, mails: list[dict[str, Any]]) -> list[bool]:
        if len(mails) > 1:
            raise ConnectionError("database went away")
        return real(db, mails)

    served.gate.real = broken
    code, codes = await served.group(make_mail(message_id="<s0@x>"),
                                     [make_mail(message_id=f"<s{n}@x>") for n in range(1, 4)])
    assert code == 250 and codes == [451, 451, 451]
    assert [r.message_id for r in served.rows()] == ["<s0@x>"]
    served.gate.real = real
    assert await served.deliver(make_mail(message_id="<s9@x>")) == 250


@BOTH
async def test_oversized_mail_in_a_group_does_not_affect_the_others(served: Served) -> None:
    line = "x" * 70 + "\n"
    huge = make_mail(body=line * (CAP * listener_module.HARD_LIMIT_FACTOR // 70 + 10))
    big = make_mail(body="HELP\n" + line * (CAP // 70 + 10), message_id="<big@x>")
    mails = [make_mail(message_id="<o1@x>"), huge, big, make_mail(message_id="<o2@x>")]
    code, codes = await served.group(make_mail(message_id="<o0@x>"), mails)
    assert code == 250 and codes == [250, 552, 250, 250]
    rows = {r.message_id: r for r in served.rows()}
    assert sorted(rows) == ["<big@x>", "<o0@x>", "<o1@x>", "<o2@x>"]
    assert rows["<big@x>"].oversized and rows["<big@x>"].size == len(big)
    assert len(rows["<big@x>"].raw) == CAP
    assert not any(rows[k].oversized for k in ("<o0@x>", "<o1@x>", "<o2@x>"))


async def test_group_over_the_maximum_is_split(served: Served,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listener_module, "GROUP_COMMIT_MAX", 3)
    code, codes = await served.group(make_mail(), [make_mail() for _ in range(7)])
    assert code == 250 and codes == [250] * 7
    assert served.gate.sizes == [1, 3, 3, 1]
    assert len(served.rows()) == 8


@BOTH
async def test_mails_the_columns_cannot_hold_as_sent_are_stored(served: Served) -> None:
    """A folded Message-ID longer than its column, one holding a NUL byte (PostgreSQL
    refuses NUL in text), a very long envelope sender: stored all the same, and found
    again as duplicates when re-sent."""
    long_id = "<" + "\r\n ".join("x" * 70 for _ in range(20)) + "@example.org>"
    folded = make_mail(message_id=long_id)
    nul = make_mail(message_id="<a\x00b@example.org>")
    long_sender = "s" * 400 + "@example.org"
    odd_sender = make_mail(message_id="<odd-sender@x>")
    good = [make_mail(message_id=f"<ok{n}@x>") for n in range(2)]

    def send_long_sender() -> int:
        return deliver(served.port, odd_sender, sender=long_sender)

    first = asyncio.ensure_future(served.deliver(make_mail(message_id="<ok-first@x>")))
    assert await asyncio.to_thread(served.gate.entered.wait, 10)
    loop = asyncio.get_running_loop()
    others = [asyncio.ensure_future(served.deliver(raw)) for raw in (good[0], folded, nul)]
    others.append(asyncio.ensure_future(loop.run_in_executor(CLIENTS, send_long_sender)))
    others.append(asyncio.ensure_future(served.deliver(good[1])))
    for _ in range(400):
        if len(served.handler._waiting) >= 5:
            break
        await asyncio.sleep(0.01)
    served.gate.open()
    assert await first == 250
    assert list(await asyncio.gather(*others)) == [250] * 5
    assert served.gate.sizes == [1, 5]
    rows = served.rows()
    assert len(rows) == 6
    assert all(len(r.message_id) <= 998 and "\x00" not in r.message_id for r in rows)
    assert max(len(r.envelope_from) for r in rows) == 320
    # sent again: recognised, acknowledged, not stored twice
    assert [await served.deliver(raw) for raw in (folded, nul)] == [250, 250]
    assert len(served.rows()) == 6


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_mail_the_database_refuses_does_not_keep_the_others_out(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    from judge.storage import mailrepo

    # without the cut, PostgreSQL refuses a sender longer than its column
    monkeypatch.setattr(mailrepo, "ENVELOPE_FROM_MAX", 10**6)
    long_sender = "s" * 400 + "@example.org"
    refused = make_mail(message_id="<refused@x>")

    def send_refused() -> int:
        return deliver(served.port, refused, sender=long_sender)

    first = asyncio.ensure_future(served.deliver(make_mail(message_id="<r0@x>")))
    assert await asyncio.to_thread(served.gate.entered.wait, 10)
    loop = asyncio.get_running_loop()
    others = [asyncio.ensure_future(served.deliver(make_mail(message_id="<r1@x>"))),
              asyncio.ensure_future(loop.run_in_executor(CLIENTS, send_refused)),
              asyncio.ensure_future(served.deliver(make_mail(message_id="<r2@x>")))]
    for _ in range(400):
        if len(served.handler._waiting) >= 3:
            break
        await asyncio.sleep(0.01)
    served.gate.open()
    assert await first == 250
    assert list(await asyncio.gather(*others)) == [250, 451, 250]
    assert served.gate.sizes == [1, 3]
    assert sorted(r.message_id for r in served.rows()) == ["<r0@x>", "<r1@x>", "<r2@x>"]
    assert served.stored_calls == 3


@BOTH
def test_integrity_error_that_is_not_a_duplicate_is_not_acknowledged(database_url: str) -> None:
    """store_received takes a unique-constraint error for "stored meanwhile" only when the
    mail really is stored."""
    from datetime import UTC, datetime

    from sqlalchemy.exc import IntegrityError

    from judge.storage.mailrepo import store_received, store_received_many

    db = Database(database_url)
    db.migrate()
    try:
        fields = dict(raw=make_mail(message_id="<i@x>"), message_id="<i@x>",
                      envelope_from="p@example.org", envelope_to=["judge@x"], source="lmtp",
                      max_bytes=10**6)
        with pytest.raises(IntegrityError):
            store_received(db, now=None, **fields)  # NOT NULL: not a duplicate
        # in a group, each mail is tried alone: each gets its own error (451), none is lost
        results = store_received_many(db, [dict(fields, now=None), dict(fields, now=None)])
        assert [type(r) for r in results] == [IntegrityError, IntegrityError]
        with db.session() as s:
            assert list_inbound(s) == []
        now = datetime.now(UTC)
        assert store_received_many(db, [dict(fields, now=now), dict(fields, now=now)]) == [
            True, False]
        assert store_received(db, now=now, **fields) is False
    finally:
        db.dispose()
