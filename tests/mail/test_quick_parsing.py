"""The listener's fast paths (plain ``<a@b>`` paths, plain ASCII Message-ID headers) give
exactly what aiosmtpd's parser and the email package give."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from email.parser import BytesHeaderParser

import pytest
from aiosmtpd.smtp import SMTP

from judge.mail.listener import QuickSMTP, message_id_of, quick_message_id


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[SMTP, QuickSMTP]]:
    loop = asyncio.new_event_loop()
    try:
        yield SMTP(None, loop=loop), QuickSMTP(None, loop=loop)
    finally:
        loop.close()


PATHS = [
    # (argument after "FROM:" / "TO:", the fast path must take it)
    ("<a@b>", True),
    ("<player@example.org>", True),
    ("<first.last+tag@mail.example.co.uk>", True),
    ("<a_b=c-d@x-y.example>", True),
    ("  <a@b>", True),
    ("<a@b> SIZE=1000 BODY=8BITMIME", True),
    ("<a@b>\tSIZE=10", True),
    ("<a@b>   ", True),
    ("<A.B@EXAMPLE.ORG>", True),
    ("<a@-b>", True),
    ("<a@b>(comment) SIZE=1", False),
    ("<a@b> (comment) SIZE=1", False),
    ('<"john doe"@example.org>', False),
    ('<"a@b"@example.org>', False),
    ('<"quoted\\"inner"@x.org>', False),
    ("<a..b@x.org>", False),
    ("<.a@x.org>", False),
    ("<a.@x.org>", False),
    ("<a@x.org.>", False),
    ("<a@[127.0.0.1]>", False),
    ("<@relay.org:a@b.org>", False),
    ("<>", False),
    ("a@b", False),
    ("a@b SIZE=1", False),
    ("<a@b", False),
    ("<a b@c>", False),
    ("<a@b c>", False),
    ("<jos\u00e9@example.org>", False),
    ("<a@\u00e9xample.org>", False),
    ("<a!#$%&'*/?^`{|}~@b.org>", False),
    ("<" + "l" * 64 + "@b.org>", True),
    ("<" + "l" * 65 + "@b.org>", True),  # over the local part limit: refused by both
    ("", False),
    ("Player <a@b>", False),
    # white space other than space and tab: aiosmtpd refuses it in front of the path
    ("\x0b<a@b>", False),
    ("\f<a@b>", False),
    ("\u00a0<a@b>", False),
    ("\u2003<a@b>", False),
    (" \f<a@b>", False),
    ("<a@b>\f SIZE=1", True),
    ("<a@b>\u00a0", True),
]


@pytest.mark.parametrize("arg,fast", PATHS)
def test_quick_path_matches_aiosmtpd(servers: tuple[SMTP, QuickSMTP], arg: str,
                                     fast: bool) -> None:
    slow_server, quick_server = servers
    expected = slow_server._getaddr(arg)
    calls: list[str] = []
    original = SMTP._getaddr

    def spy(self: SMTP, value: str) -> tuple[str | None, str | None]:
        calls.append(value)
        return original(self, value)

    SMTP._getaddr = spy  # type: ignore[method-assign]
    try:
        got = quick_server._getaddr(arg)
    finally:
        SMTP._getaddr = original  # type: ignore[method-assign]
    assert got == expected
    assert (not calls) == fast, "fast path taken" if calls == [] else "slow path taken"


def test_local_part_limit_is_kept(servers: tuple[SMTP, QuickSMTP]) -> None:
    slow_server, quick_server = servers
    assert quick_server.local_part_limit == slow_server.local_part_limit
    quick_server.local_part_limit = 64
    slow_server.local_part_limit = 64
    try:
        arg = "<" + "l" * 65 + "@b.org>"
        assert quick_server._getaddr(arg) == slow_server._getaddr(arg) == (None, None)
    finally:
        quick_server.local_part_limit = slow_server.local_part_limit = 0


def slow_message_id(raw: bytes) -> str:
    value = BytesHeaderParser().parsebytes(raw).get("Message-ID", "")
    return " ".join(str(value).split())


H = b"From: Player <p@example.org>\r\nSubject: orders\r\n"

MESSAGE_IDS = [
    # (raw, the fast path must read it)
    (H + b"Message-ID: <a@b>\r\n\r\nHELP\r\n", True),
    (b"Message-ID: <a@b>\r\n" + H + b"\r\nHELP\r\n", True),
    (H + b"message-id:   <a@b>  \r\n\r\nbody\r\n", True),
    (H + b"MESSAGE-ID:<a@b>\r\n\r\n", True),
    (H + b"Message-Id: <a@b> (comment)\r\n\r\n", True),
    (H + b"Message-ID:\r\n <folded@b>\r\n\r\nbody", True),
    (H + b"Message-ID: <a\r\n\t@b>\r\nX: y\r\n\r\n", True),
    (H + b"Message-ID: <first@b>\r\nMessage-ID: <second@b>\r\n\r\n", True),
    (H + b"Message-ID:\r\n\r\nbody", True),
    (H + b"\r\nbody", True),  # no Message-ID at all
    (H + b"X-Message-ID: <not@this>\r\n\r\n", True),
    (H + b"Resent-Message-ID: <not@this>\r\nMessage-ID: <this@one>\r\n\r\n", True),
    (b"From: \"Jos\xc3\xa9\" <p@example.org>\r\nMessage-ID: <a@b>\r\n\r\n", False),
    (b"From: =?utf-8?q?Jos=C3=A9?= <p@example.org>\r\nMessage-ID: <a@b>\r\n\r\n", True),
    (b"Subject: caf\xe9\r\nMessage-ID: <latin@b>\r\n\r\n", False),
    (H + b"Message-ID: <\xc3\xa9@b>\r\n\r\n", False),
    (H + b"Message-ID: <a@b>\n\nbare newlines\n", False),
    (H + b"Message-ID: <a@b>\r\nnot a header\r\n\r\n", False),
    (H + b"not a header\r\nMessage-ID: <a@b>\r\n\r\n", False),
    (b" continuation first\r\nMessage-ID: <a@b>\r\n\r\n", False),
    (b"From nobody Mon Mar  2 10:00:00 2026\r\nMessage-ID: <a@b>\r\n\r\n", False),
    (H + b"Message-ID : <a@b>\r\n\r\n", False),
    (H + b":odd\r\nMessage-ID: <a@b>\r\n\r\n", False),
    (b"\r\n\r\nMessage-ID: <in@body>\r\n", False),
    (H + b"Message-ID: <a@b>\r\nX: a\rb\r\n\r\n", False),
    (H + b"Message-ID: <a@b>", False),  # no end of the header block
    (b"", False),
]


@pytest.mark.parametrize("raw,fast", MESSAGE_IDS)
def test_quick_message_id_matches_the_email_package(raw: bytes, fast: bool) -> None:
    assert message_id_of(raw) == slow_message_id(raw)
    quick = quick_message_id(raw)
    assert (quick is not None) == fast
    if quick is not None:
        assert quick == slow_message_id(raw)


class _Accept:
    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        return "250 OK"


@pytest.mark.parametrize("path", ["<a@b.example>", '<"john doe"@example.org>'])
def test_aiosmtpd_still_reads_mail_and_rcpt_paths_through_getaddr(
        path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The override only works while aiosmtpd's MAIL and RCPT read their path through the
    private ``_getaddr``: a real session over a socket, which fails when a release of
    aiosmtpd (pinned below 1.5 for this) reads paths another way."""
    import smtplib

    from aiosmtpd.controller import Controller

    from tests.mail.peers import free_port

    seen: list[str] = []
    original = QuickSMTP._getaddr

    def spy(self: QuickSMTP, arg: str) -> tuple[str | None, str | None]:
        seen.append(arg)
        return original(self, arg)

    monkeypatch.setattr(QuickSMTP, "_getaddr", spy)

    class Quick(Controller):
        def factory(self) -> QuickSMTP:
            return QuickSMTP(self.handler)

    port = free_port()
    controller = Quick(_Accept(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            code, _ = client.ehlo("client.example")
            assert code == 250
            assert client.docmd("MAIL", f"FROM:{path}")[0] == 250
            assert client.docmd("RCPT", f"TO:{path}")[0] == 250
            client.rset()
    finally:
        controller.stop()
    assert [arg.strip() for arg in seen] == [path, path]
