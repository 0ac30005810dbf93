"""The hostile-mail corpus: mails that once left the judge failing, stuck or silent.

Used by tests/mail/test_hostile.py (over real LMTP, on SQLite and PostgreSQL) and by
benchmarks/abuse.py (against a running ``judge serve``). Each entry is (name, raw bytes);
every one must end answered or dropped with a logged reason, never failed.
"""

from __future__ import annotations

import base64

NON_TEXT_CODECS = ("rot13", "zlib_codec", "base64", "hex", "uu", "bz2", "quopri_codec")


def _mail(name: str, body: bytes, headers: bytes = b"", sender: str = "stranger@example.net",
          content_type: bytes = b"Content-Type: text/plain; charset=utf-8\r\n") -> bytes:
    return (b"From: Someone <" + sender.encode() + b">\r\nTo: judge@example.org\r\n"
            b"Subject: " + name.encode() + b"\r\nMessage-ID: <hostile-" + name.encode()
            + b"@example.net>\r\nDate: Mon, 2 Mar 2026 10:00:00 +0000\r\n" + headers
            + content_type + b"\r\n" + body)


def _nested(depth: int) -> bytes:
    head = [f"Content-Type: multipart/mixed; boundary=\"b{n}\"\r\n\r\n--b{n}\r\n".encode()
            for n in range(depth)]
    tail = [f"\r\n--b{n}--\r\n".encode() for n in reversed(range(depth))]
    return b"".join(head) + b"Content-Type: text/plain\r\n\r\nHELP\r\n" + b"".join(tail)


def corpus() -> list[tuple[str, bytes]]:
    mails: list[tuple[str, bytes]] = []
    for codec in NON_TEXT_CODECS:
        mails.append((f"charset-{codec}", _mail(
            f"charset-{codec}", b"HELP\r\n",
            content_type=f"Content-Type: text/plain; charset={codec}\r\n".encode())))
    nested = _nested(1000)
    mails.append(("nested-1000", _mail("nested-1000", nested.split(b"\r\n\r\n", 1)[1],
                                       content_type=nested.split(b"\r\n\r\n", 1)[0]
                                       + b"\r\n")))
    mails.append(("history-dots", _mail("history-dots", b"HISTORY g1 ..\r\n")))
    mails.append(("history-dots-3", _mail("history-dots-3", b"HISTORY g1 ...\r\n")))
    disposition = (b"--x\r\nContent-Type: text/plain\r\n\r\nHELP\r\n--x\r\n"
                   b"Content-Type: application/octet-stream\r\nContent-Disposition: "
                   b"attachment; filename=\"\xe9t\xff\xfe.txt\"\r\n\r\nabc\r\n--x--\r\n")
    mails.append(("8bit-disposition", _mail(
        "8bit-disposition", disposition,
        content_type=b"Content-Type: multipart/mixed; boundary=\"x\"\r\n")))
    disposition_2231 = (b"--x\r\nContent-Type: text/plain\r\n\r\nHELP\r\n--x\r\n"
                        b"Content-Type: text/plain\r\nContent-Disposition: attachment; "
                        b"filename*=rot13''\xe9abc\r\n\r\nabc\r\n--x--\r\n")
    mails.append(("rfc2231-rot13", _mail(
        "rfc2231-rot13", disposition_2231,
        content_type=b"Content-Type: multipart/mixed; boundary=\"x\"\r\n")))
    mails.append(("nul-in-orders", _mail("nul-in-orders", b"HELP\x00\r\nA PAR - BUR\x00\r\n")))
    mails.append(("nul-in-headers", _mail("nul-in-headers", b"HELP\r\n",
                                          headers=b"X-Note: a\x00b\r\n")))
    crlf = base64.b64encode(b"hi\r\nBcc: victim@example.com").decode()
    mails.append(("subject-crlf", _mail("subject-crlf", b"HELP\r\n",
                                        headers=f"Subject: =?utf-8?b?{crlf}?=\r\n".encode())))
    mails.append(("encoded-from", (
        b"From: =?utf-8?b?" + base64.b64encode(b'"Evil <admin@example.org>"')
        + b"?= <real@example.net>\r\nTo: judge@example.org\r\nSubject: x\r\n"
        b"Message-ID: <hostile-encoded-from@example.net>\r\n\r\nHELP\r\n")))
    mails.append(("header-charset-rot13", _mail(
        "header-charset-rot13", b"HELP\r\n",
        headers=b"Subject: =?rot13?q?uryyb?=\r\n")))
    mails.append(("garbage", b"\xff\xfe\x00\x01 not a mail at all\r\n\r\n\x00\x00"))
    mails.append(("empty-body", _mail("empty-body", b"")))
    mails.append(("bad-base64", _mail(
        "bad-base64", b"!!!not base64***\r\n",
        content_type=b"Content-Type: text/plain; charset=utf-8\r\n"
                     b"Content-Transfer-Encoding: base64\r\n")))
    mails.append(("ending-bad-dates", _mail(
        "ending-bad-dates", b"SET g1 ENDING 2025-02-30\r\nSET g1 ENDING 0000-00-00\r\n")))
    mails.append(("report-not-bounce", _mail(
        "report-not-bounce", b"--r\r\nContent-Type: text/plain\r\n\r\nhello\r\n--r--\r\n",
        content_type=b"Content-Type: multipart/report; report-type=delivery-status; "
                     b"boundary=\"r\"\r\n")))
    return mails
