"""The whole path: LMTP/SMTP in, stored, handled once, reply out at a capturing relay."""

from __future__ import annotations

import asyncio
import base64
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.service import inbox
from judge.service.uow import MailContext
from judge.storage import Database
from judge.storage.mailrepo import list_inbound, list_outbound, store_inbound

from .conftest import RunningJudge
from .peers import CapturingRelay, deliver, make_mail


async def _deliver(port: int, raw: bytes, lmtp: bool = True) -> int:
    return await asyncio.to_thread(deliver, port, raw, lmtp=lmtp)


async def _wait_replies(relay: CapturingRelay, count: int) -> list:
    return await asyncio.to_thread(relay.wait_for, count)


async def _wait_handled(judge: RunningJudge, count: int, timeout: float = 20.0) -> list:
    for _ in range(int(timeout / 0.05)):
        with judge.db.session() as s:
            rows = list_inbound(judge.db and s)
            if len(rows) >= count and all(r.status in ("done", "failed") for r in rows):
                return rows
        await asyncio.sleep(0.05)
    raise AssertionError("mail not handled in time")


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_help_over_lmtp_gets_a_threaded_reply(judge: RunningJudge,
                                                    relay: CapturingRelay) -> None:
    raw = make_mail("HELP\n", message_id="<help-1@example.org>", subject="hello")
    assert await _deliver(judge.lmtp_port, raw) == 250
    [reply] = await _wait_replies(relay, 1)
    msg = reply.message
    assert reply.rcpt_tos == ["player@example.org"]
    assert msg["From"] == "judge@example.org"
    assert msg["Subject"] == "Re: hello"
    assert msg["In-Reply-To"] == "<help-1@example.org>"
    assert "<help-1@example.org>" in msg["References"]
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["Message-ID"].endswith("@example.org>") and msg["Date"]
    assert "Commands understood" in msg.get_payload(decode=True).decode()
    rows = await _wait_handled(judge, 1)
    assert [r.status for r in rows] == ["done"]


async def test_help_over_smtp_listener(judge: RunningJudge, relay: CapturingRelay) -> None:
    assert await _deliver(judge.smtp_port, make_mail("help\n"), lmtp=False) == 250
    [reply] = await _wait_replies(relay, 1)
    assert "Commands understood" in reply.message.get_payload(decode=True).decode()


async def test_unknown_command_is_quoted_back(judge: RunningJudge, relay: CapturingRelay) -> None:
    assert await _deliver(judge.lmtp_port, make_mail("FROBNICATE now\n> HELP\n-- \nAnn\n")) == 250
    [reply] = await _wait_replies(relay, 1)
    text = reply.message.get_payload(decode=True).decode()
    assert "Not understood" in text and "FROBNICATE now" in text
    assert "Commands understood" not in text


async def test_duplicate_is_acknowledged_but_handled_once(judge: RunningJudge,
                                                          relay: CapturingRelay) -> None:
    raw = make_mail("HELP\n", message_id="<dup@example.org>")
    assert await _deliver(judge.lmtp_port, raw) == 250
    assert await _deliver(judge.lmtp_port, raw) == 250
    await _wait_replies(relay, 1)
    rows = await _wait_handled(judge, 1)
    assert len(rows) == 1
    await asyncio.sleep(0.5)
    assert len(relay.messages) == 1


BAD_MAIL = {
    # the line without a colon ends the header block early: the rest is read as body
    "malformed": b"From: Bad <player@example.org>\r\nMessage-ID: <bad1@x>\r\n"
                 b"Subject: =?x?Q?oops\r\nnot a header\r\n\r\nHELP\r\n",
    "charset": make_mail("HELP\n", extra_headers="Content-Type: text/plain; charset=x-martian\r\n"),
    "html": make_mail("<p>HELP</p>", extra_headers="Content-Type: text/html\r\n"),
    "base64": make_mail(base64.b64encode(b"HELP\r\n").decode() + "\n", extra_headers=(
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n")),
    "empty": make_mail(""),
}


async def test_bad_mail_gets_clear_replies_and_server_keeps_running(
    judge: RunningJudge, relay: CapturingRelay
) -> None:
    for raw in BAD_MAIL.values():
        assert await _deliver(judge.lmtp_port, raw) == 250
    replies = await _wait_replies(relay, len(BAD_MAIL))
    texts = {r.message["In-Reply-To"]: r.message.get_payload(decode=True).decode()
             for r in replies}
    assert "Commands understood" in texts["<bad1@x>"]
    by_kind = sorted(texts.values())
    assert any("x-martian" in t and "Commands understood" in t for t in by_kind)
    assert any("HTML part was read as text" in t for t in by_kind)
    assert any("No command found" in t for t in by_kind)
    assert sum("Commands understood" in t for t in by_kind) == 4
    # still serving
    assert await _deliver(judge.lmtp_port, make_mail("HELP\n")) == 250
    await _wait_replies(relay, len(BAD_MAIL) + 1)


async def test_attachments_and_size_cap(judge: RunningJudge, relay: CapturingRelay) -> None:
    cap = judge.ctx.settings.max_message_bytes
    small = make_mail(
        "--b\r\nContent-Type: text/plain\r\n\r\nHELP\r\n--b\r\n"
        "Content-Type: image/png\r\nContent-Disposition: attachment; filename=board.png\r\n"
        "Content-Transfer-Encoding: base64\r\n\r\niVBORw0K\r\n--b--\r\n",
        extra_headers="Content-Type: multipart/mixed; boundary=b\r\n")
    assert await _deliver(judge.lmtp_port, small) == 250
    [reply] = await _wait_replies(relay, 1)
    assert "Attachment board.png ignored." in reply.message.get_payload(decode=True).decode()
    # over the cap: kept (cut) and answered, never read as commands
    big = make_mail("HELP\n" + ("x" * 76 + "\n") * (2 * cap // 77))
    assert await _deliver(judge.lmtp_port, big) == 250
    replies = await _wait_replies(relay, 2)
    text = replies[1].message.get_payload(decode=True).decode()
    assert "none of it was read" in text and "Commands understood" not in text
    # a 10 MB attachment is over ten times the cap: refused at the door
    huge = make_mail(base64.encodebytes(b"\0" * 10_000_000).decode())
    assert await _deliver(judge.lmtp_port, huge) == 552
    assert await _deliver(judge.lmtp_port, make_mail("HELP\n")) == 250
    await _wait_replies(relay, 3)


@pytest.mark.parametrize("headers,sender", [
    ("Auto-Submitted: auto-replied\r\n", "player@example.org"),
    ("Precedence: bulk\r\n", "player@example.org"),
    ("Precedence: junk\r\n", "player@example.org"),
    ("", "MAILER-DAEMON@example.org"),
    ("", "postmaster@example.org"),
    ("", "judge@example.org"),
])
async def test_loops_get_no_reply(judge: RunningJudge, relay: CapturingRelay,
                                  headers: str, sender: str) -> None:
    raw = make_mail("HELP\n", sender=sender, extra_headers=headers)
    assert await _deliver(judge.lmtp_port, raw) == 250
    rows = await _wait_handled(judge, 1)
    assert rows[0].status == "done" and rows[0].note.startswith("no reply")
    with judge.db.session() as s:
        assert list_outbound(s) == []
    assert relay.messages == []


async def test_daily_reply_cap(settings, relay: CapturingRelay) -> None:
    from dataclasses import replace

    from .conftest import start_judge

    # HELP signs on to nothing: its answers count in the anonymous budget (issue 25)
    judge = await start_judge(replace(settings, replies_per_address_per_day=2,
                                      anonymous_replies_per_address_per_day=2))
    try:
        for _ in range(4):
            assert await _deliver(judge.lmtp_port, make_mail("HELP\n")) == 250
        rows = await _wait_handled(judge, 4)
        assert [r.note for r in rows].count("reply dropped: daily reply cap") == 2
        await _wait_replies(relay, 3)
        with judge.db.session() as s:
            # two replies, then the one notice that the cap was reached
            assert sorted(r.kind for r in list_outbound(s)) == ["cap_notice", "reply_anon",
                                                            "reply_anon"]
    finally:
        await judge.stop()


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
@pytest.mark.parametrize(("body", "said"), [
    ("HELP\n", "Your mail could not be handled"),
    ("AIUTO\n", "Non è stato possibile trattare la tua mail"),
])
async def test_failing_handler_is_answered_once_kept_and_retried(
    judge: RunningJudge, relay: CapturingRelay, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    body: str, said: str,
) -> None:
    """A mail whose handler raises: everything it did is rolled back, the mail is kept as
    failed with the reason (the traceback, also logged), and its sender gets ONE reply, in the mail's language,
    saying it could not be handled."""
    from judge.service import dispatch as dispatch_module

    real = dispatch_module.dispatch

    def broken(ctx: MailContext) -> None:
        ctx.reply("this reply must be rolled back")
        raise RuntimeError("handler bug")

    monkeypatch.setattr(dispatch_module, "dispatch", broken)
    assert await _deliver(judge.lmtp_port, make_mail(body)) == 250
    rows = await _wait_handled(judge, 1)
    assert rows[0].status == "failed" and "RuntimeError: handler bug" in rows[0].error
    [told] = await _wait_replies(relay, 1)
    text = told.message.get_payload(decode=True).decode()
    assert said in text and "rolled back" not in text
    assert told.message["To"] == "player@example.org"
    with judge.db.session() as s:
        assert [r.kind for r in list_outbound(s)] == ["reply_anon"]  # proves no sender
    monkeypatch.setattr(dispatch_module, "dispatch", real)
    assert inbox.retry_failed(judge.db) == [rows[0].id]
    judge.ctx.wake_inbox()
    replies = await _wait_replies(relay, 2)
    assert len(replies) == 2
    rows = await _wait_handled(judge, 1)
    assert rows[0].status == "done" and rows[0].error is None


async def test_stop_finishes_mail_in_hand_and_keeps_the_rest(
    settings, relay: CapturingRelay, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from judge.service import dispatch as dispatch_module

    from .conftest import start_judge

    real = dispatch_module.dispatch

    def slow(ctx: MailContext) -> None:
        time.sleep(0.1)  # a long handler: the stop arrives while one mail is in hand
        real(ctx)

    monkeypatch.setattr(dispatch_module, "dispatch", slow)
    # stored before the server starts (with SQLite a handler's transaction holds back the
    # listeners' commits, so mail delivered during a slow handler would arrive one by one)
    db = Database(settings.database_url)
    db.migrate()
    with db.session() as s:
        for n in range(10):
            store_inbound(s, raw=make_mail("HELP\n"), message_id=f"<stop-{n}@x>",
                          envelope_from="player@example.org", envelope_to=["judge@x"],
                          source="lmtp", now=datetime.now(UTC), max_bytes=10**6)
    db.dispose()
    judge = await start_judge(settings)
    await asyncio.sleep(0.25)
    await judge.stop()
    with judge.db.session() as s:
        statuses = [r.status for r in list_inbound(s)]
        replies = len(list_outbound(s))
    assert set(statuses) <= {"done", "new"} and "new" in statuses
    assert replies == statuses.count("done")
    # the rest is handled after a restart
    monkeypatch.setattr(dispatch_module, "dispatch", real)
    judge = await start_judge(settings)
    try:
        assert len(await _wait_replies(relay, 10)) == 10
        rows = await _wait_handled(judge, 10)
        assert {r.status for r in rows} == {"done"}
    finally:
        await judge.stop()
