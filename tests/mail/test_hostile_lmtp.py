"""Hostile mail over real LMTP to a running judge, replies read at a capturing relay: the
amplifier, automatic mail and header injection cases of issue 10, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from judge.service.confirm import token_in_subject
from judge.storage.mailrepo import list_inbound

from .conftest import RunningJudge
from .peers import CapturingRelay, deliver, make_mail

BOTH = pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
STRANGER = "stranger@evil.example"


async def _send(judge: RunningJudge, raw: bytes, sender: str = STRANGER) -> None:
    assert await asyncio.to_thread(deliver, judge.lmtp_port, raw, sender) == 250


async def _settled(judge: RunningJudge, count: int, timeout: float = 60.0) -> list[str]:
    """Wait until ``count`` mails are stored and none is new or being handled."""
    for _ in range(int(timeout / 0.05)):
        with judge.db.session() as s:
            statuses = [r.status for r in list_inbound(s)]
        if len(statuses) >= count and not {"new", "processing"} & set(statuses):
            return statuses
        await asyncio.sleep(0.05)
    raise AssertionError("mail not handled in time")


async def _quiet(judge: RunningJudge, relay: CapturingRelay, seconds: float = 1.5) -> None:
    """Let the outbox empty (no fixed count to wait for: the point is what does NOT come)."""
    from judge.storage.mailrepo import list_outbound

    for _ in range(int(30 / 0.05)):
        with judge.db.session() as s:
            waiting = list_outbound(s, "pending") + list_outbound(s, "sending")
        if not waiting:
            break
        judge.ctx.wake_outbox()
        await asyncio.sleep(0.05)
    await asyncio.sleep(seconds)


@BOTH
async def test_a_strangers_flood_of_addresses_sends_one_mail(judge: RunningJudge,
                                                             relay: CapturingRelay) -> None:
    body = "CREATE evil pw\n" + "".join(f"SET ADDRESS victim{i}@innocent.example\n"
                                        for i in range(1500))
    await _send(judge, make_mail(body, sender=STRANGER, subject="hi"))
    assert await _settled(judge, 1) == ["held"]
    await _quiet(judge, relay)
    assert [m.rcpt_tos for m in relay.handler.messages] == [[STRANGER]]
    token = token_in_subject(str(relay.handler.messages[0].message["Subject"]))
    assert token
    # the stranger confirms by replying: the held mail is handled; one victim, one mail
    await _send(judge, make_mail(f"CONFIRM {token}\n> quoted\n", sender=STRANGER,
                                 subject=f"Re: confirm {token}"))
    await _settled(judge, 2)
    await _quiet(judge, relay)
    outside = [r for m in relay.handler.messages for r in m.rcpt_tos if r != STRANGER]
    assert outside == ["victim0@innocent.example"]
    assert len(relay.handler.messages) == 4  # confirmation, "confirmed", reply, one victim


@BOTH
async def test_automatic_mail_gets_no_answer(judge: RunningJudge, relay: CapturingRelay) -> None:
    headers = ["X-Autoreply: yes\r\n", "List-Id: <club.lists.example>\r\n",
               "List-Unsubscribe: <mailto:x@lists.example>\r\n", "Precedence: list\r\n",
               "Auto-Submitted: auto-replied\r\n"]
    for extra in headers:
        await _send(judge, make_mail("HELP\n", sender=STRANGER, extra_headers=extra))
    await _settled(judge, len(headers))
    await _send(judge, make_mail("HELP\n", sender="human@example.org"), "human@example.org")
    [reply] = await asyncio.to_thread(relay.wait_for, 1)
    assert reply.rcpt_tos == ["human@example.org"]
    await _quiet(judge, relay, 0.5)
    assert len(relay.handler.messages) == 1


@BOTH
async def test_an_encoded_subject_cannot_add_header_lines(judge: RunningJudge,
                                                          relay: CapturingRelay) -> None:
    subject = "=?utf-8?q?hi=0D=0ABcc:_x@evil.example=0D=0A=0D=0Atop_text?="
    await _send(judge, make_mail("HELP\n", sender=STRANGER, subject=subject))
    [reply] = await asyncio.to_thread(relay.wait_for, 1)
    assert reply.rcpt_tos == [STRANGER]
    head, _, body = reply.raw.partition(b"\r\n\r\n")
    names = [line.split(b":")[0].lower() for line in head.split(b"\r\n")
             if line and not line[:1].isspace()]
    assert b"bcc" not in names and names.count(b"subject") == 1
    assert b"auto-submitted" in names and b"message-id" in names
    assert not body.startswith(b"top") and b"Bcc:" not in body
