"""The hostile-mail corpus over real LMTP to a running judge, on SQLite and PostgreSQL:
every stored mail is answered or dropped with a reason, none is left failed; a bounce to a
VERP return path reaches the GM; a bounded hypothesis fuzz of the decoder."""

from __future__ import annotations

import asyncio
import email.utils
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from sqlalchemy import select

from judge.mail.decoding import decode
from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Database
from judge.storage.mailrepo import enqueue_outbound
from judge.storage.models import Game, InboundMail, MailTrouble, OutboundMail
from tests.service.games import new_game, player

from .conftest import RunningJudge
from .hostile import corpus
from .peers import CapturingRelay, deliver

BOTH = pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)


async def settled(db: Database, count: int) -> list[InboundMail]:
    for _ in range(600):
        with db.session() as s:
            rows = list(s.scalars(select(InboundMail).order_by(InboundMail.id)))
        if len(rows) >= count and all(r.status in ("done", "failed") for r in rows):
            return rows
        await asyncio.sleep(0.05)
    raise AssertionError(f"inbox did not settle: {[(r.id, r.status) for r in rows]}")


@BOTH
async def test_every_hostile_mail_is_answered_or_dropped(judge: RunningJudge,
                                                         relay: CapturingRelay) -> None:
    mails = corpus()
    for _name, raw in mails:
        assert await asyncio.to_thread(deliver, judge.lmtp_port, raw,
                                       "stranger@example.net") == 250
    rows = await settled(judge.db, len(mails))
    assert len(rows) == len(mails)
    with judge.db.session() as s:
        replies = {r.inbound_id: r for r in s.scalars(select(OutboundMail))}
    for row in rows:
        assert row.status == "done", (row.id, row.error)
        # (a stranger has a small daily budget of answers: past it, "reply dropped", issue 25)
        assert row.id in replies or (row.note or "").startswith(
            ("no reply", "dropped", "reply dropped")), row.id
    # never more than one outgoing mail per stranger's mail
    assert len(replies) <= len(mails)
    # a reply either leaves clean or, if it cannot be built (a header with a line break),
    # is dead-lettered at its first try: never retried, never sent with an injected header
    for _ in range(200):
        with judge.db.session() as s:
            out = list(s.scalars(select(OutboundMail)))
        if all(r.status in ("sent", "dead") for r in out):
            break
        await asyncio.sleep(0.05)
    assert all(r.status == "sent" or (r.status, r.tries) == ("dead", 1) for r in out)
    got = await asyncio.to_thread(relay.wait_for, sum(r.status == "sent" for r in out))
    assert len(got) == sum(r.status == "sent" for r in out)
    assert all(m.message.get_all("Bcc") is None for m in got)


def _dsn(to_verp: str, failed: str, message_id: str) -> bytes:
    return (
        f"From: Mail Delivery System <MAILER-DAEMON@mx.players.test>\r\n"
        f"To: {to_verp}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: <dsn-{message_id.strip('<>')}>\r\nAuto-Submitted: auto-replied\r\n"
        f"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status;"
        f" boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nThe mail could not "
        f"be delivered.\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\n"
        f"Reporting-MTA: dns; mx.players.test\r\n\r\nFinal-Recipient: rfc822; {failed}\r\n"
        f"Original-Recipient: rfc822; {failed}\r\nAction: failed\r\nStatus: 5.1.1\r\n"
        f"Diagnostic-Code: smtp; 550 5.1.1 user unknown\r\n\r\n--b--\r\n").encode()


@BOTH
async def test_bounce_to_a_verp_path_tells_the_gm_once(judge: RunningJudge,
                                                       relay: CapturingRelay) -> None:
    db = judge.db
    game_id = await asyncio.to_thread(new_game, db)
    with db.session() as s:
        game = s.get(Game, game_id)
        for n in range(2):
            enqueue_outbound(s, outbound_row(judge.ctx.settings, datetime.now(UTC),
                                             to=player("ITALY"), subject=f"alpha: {n}",
                                             body="x\n", kind="bulletin", game=game))
    judge.ctx.wake_outbox()
    sent = await asyncio.to_thread(relay.wait_for, 2)
    paths = [m.mail_from for m in sent]
    assert all(p.startswith("judge+bounce-") for p in paths)
    # both bulletins bounce; then one forged bounce with a wrong token
    forged = paths[0].rsplit("-", 1)[0] + "-000000000000@example.org"
    for path, m in zip([*paths, forged], [*sent, sent[0]], strict=True):
        raw = _dsn(path, player("ITALY"), m.message["Message-ID"] + path)
        assert await asyncio.to_thread(deliver, judge.lmtp_port, raw, "", path) == 250
    rows = await settled(db, 3)
    notes = [r.note or "" for r in rows]
    assert notes[0].startswith("bounce for outbound") and "1 GM notice" in notes[0]
    assert notes[1].startswith("bounce for outbound") and "0 GM notice" in notes[1]
    assert notes[2].startswith("dropped: bounce to an unknown return path")
    with db.session() as s:
        troubles = list(s.scalars(select(MailTrouble)))
    assert [(t.power, t.kind) for t in troubles] == [("ITALY", "bounce")]
    got = await asyncio.to_thread(relay.wait_for, 3)
    [notice] = [m for m in got if m.rcpt_tos == ["gm@players.test"]]
    assert "ITALY" in notice.message["Subject"]
    assert len(got) == 3  # no reply to any bounce


@pytest.mark.parametrize("codec", ["rot13", "zlib_codec", "base64", "hex", "uu", "bz2"])
def test_non_text_codec_is_an_unknown_charset(codec: str) -> None:
    raw = (f"From: a@example.net\r\nContent-Type: text/plain; charset={codec}\r\n\r\n"
           "A PAR - BUR\r\n").encode()
    mail = decode(raw, "", len(raw), False, Settings())
    assert mail.lines == ("A PAR - BUR",)
    assert mail.note_codes[0][0] == "unknown_charset"


def test_nul_bytes_are_removed_and_orders_kept() -> None:
    raw = b"From: a@example.net\r\nSubject: x\x00y\r\n\r\nA PAR\x00 - BUR\r\nF BRE - MAO\r\n"
    mail = decode(raw, "", len(raw), False, Settings())
    assert mail.lines == ("A PAR - BUR", "F BRE - MAO")
    assert "\x00" not in mail.subject


def test_deep_nesting_is_read_for_headers_only() -> None:
    [(_, raw)] = [m for m in corpus() if m[0] == "nested-1000"]
    mail = decode(raw, "", len(raw), False, Settings())
    assert mail.from_addr == "stranger@example.net"
    assert mail.lines == () or mail.lines == ("HELP",)


ADDRESS = st.from_regex(r"[a-z]{1,8}@[a-z]{1,8}\.(org|net)", fullmatch=True)
HEADER = st.sampled_from(["Subject", "From", "To", "Cc", "Content-Type",
                          "Content-Disposition", "Content-Transfer-Encoding", "Reply-To",
                          "Message-ID", "MIME-Version", "X-Anything"])


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(headers=st.lists(st.tuples(HEADER, st.binary(max_size=60)), max_size=8),
       body=st.binary(max_size=400), sender=ADDRESS)
def test_decoder_never_raises(headers: list[tuple[str, bytes]], body: bytes,
                              sender: str) -> None:
    raw = b"".join(name.encode() + b": " + value + b"\r\n" for name, value in headers)
    raw += b"\r\n" + body
    mail = decode(raw, sender, len(raw), False, Settings())
    assert "\x00" not in mail.text and all("\x00" not in line for line in mail.lines)
    assert mail.from_addr == "" or email.utils.parseaddr(mail.from_addr)[1] == mail.from_addr


@hsettings(max_examples=150, deadline=None)
@given(ctype=st.sampled_from(["text/plain", "text/html", "multipart/mixed",
                              "multipart/alternative", "message/rfc822", "multipart/report"]),
       charset=st.text(max_size=12), boundary=st.text(min_size=1, max_size=10),
       parts=st.lists(st.binary(max_size=80), max_size=5))
def test_decoder_never_raises_on_mime_shapes(ctype: str, charset: str, boundary: str,
                                             parts: list[bytes]) -> None:
    b = boundary.encode("utf-8", "replace")
    raw = (b"From: p@example.org\r\nContent-Type: " + ctype.encode() + b"; charset=\""
           + charset.encode("utf-8", "replace") + b"\"; boundary=\"" + b + b"\"\r\n\r\n")
    raw += b"".join(b"--" + b + b"\r\n" + p + b"\r\n" for p in parts) + b"--" + b + b"--\r\n"
    decode(raw, "", len(raw), False, Settings())
