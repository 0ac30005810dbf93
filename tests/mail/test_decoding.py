"""Message decoding, body cleanup and the loop guard, on hand-made raw mail."""

from __future__ import annotations

import base64
import quopri

from judge.mail.cleanup import command_lines, html_to_text
from judge.mail.decoding import decode
from judge.settings import Settings

SETTINGS = Settings(address="judge@example.org")


def _decode(raw: bytes, oversized: bool = False):
    return decode(raw, "env@example.org", len(raw), oversized, SETTINGS)


def _mail(headers: str, body: bytes) -> bytes:
    return headers.replace("\n", "\r\n").encode() + b"\r\n" + body


def test_plain_utf8() -> None:
    mail = _decode(_mail("From: Ann <Ann@Example.ORG>\nSubject: =?utf-8?q?Ordini_=C3=A0?=\n"
                         "Message-ID: <m1@x>\nContent-Type: text/plain; charset=utf-8\n",
                         "HELP\r\nperché\r\n".encode()))
    assert mail.from_addr == "Ann@example.org"
    assert mail.subject == "Ordini à"
    assert mail.message_id == "<m1@x>"
    assert mail.lines == ("HELP", "perché")
    assert mail.notes == () and mail.loop_reason is None


def test_multipart_prefers_plain_and_lists_attachments() -> None:
    body = (
        "--b\r\nContent-Type: text/html\r\n\r\n<p>HTML ONLY</p>\r\n"
        "--b\r\nContent-Type: text/plain; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
        + quopri.encodestring("HELP\r\nVenezia \xe8 bella\r\n".encode("latin-1")).decode()
        + "\r\n--b\r\nContent-Type: application/pdf\r\n"
        "Content-Disposition: attachment; filename=\"map.pdf\"\r\n"
        "Content-Transfer-Encoding: base64\r\n\r\nJVBERi0=\r\n--b--\r\n"
    )
    mail = _decode(_mail("From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n",
                         body.encode()))
    assert mail.lines == ("HELP", "Venezia è bella")
    assert mail.ignored_attachments == ("map.pdf",)


def test_html_only_is_read_as_text() -> None:
    html = b"<html><head><style>p{}</style></head><body><p>HELP</p><div>LIST&nbsp;x</div>" \
           b"<blockquote>old text</blockquote></body></html>"
    mail = _decode(_mail("From: a@example.org\nContent-Type: text/html; charset=utf-8\n", html))
    assert [line for line in mail.lines if line] == ["HELP", "LIST x"]
    assert any("HTML" in note for note in mail.notes)


def test_base64_windows_1252_and_unknown_charset() -> None:
    payload = base64.b64encode("HELP \u201cquoted\u201d\r\n".encode("cp1252")).decode()
    mail = _decode(_mail("From: a@example.org\nContent-Type: text/plain; charset=windows-1252\n"
                         "Content-Transfer-Encoding: base64\n", payload.encode()))
    assert mail.lines == ("HELP \u201cquoted\u201d",)
    odd = _decode(_mail("From: a@example.org\nContent-Type: text/plain; charset=x-klingon\n",
                        "HELP caf\xe9\r\n".encode("latin-1")))
    assert odd.lines == ("HELP café",)
    assert "x-klingon" in odd.notes[0]


def test_malformed_headers_do_not_raise() -> None:
    raw = (b"From: =?bogus?Q?x?= <a@example.org>\r\nSubject: =?utf-8?B?####?=\r\n"
           b"this line is not a header\r\nContent-Type: text/plain; charset=\"\r\n\r\nHELP\r\n")
    mail = _decode(raw)
    assert mail.from_addr == "a@example.org"
    assert isinstance(mail.subject, str)


def test_missing_from_falls_back_to_envelope() -> None:
    mail = _decode(b"Subject: x\r\n\r\nHELP\r\n")
    assert mail.from_addr == "env@example.org"


def test_oversized_mail_is_not_read() -> None:
    mail = _decode(_mail("From: a@example.org\n", b"HELP\r\n"), oversized=True)
    assert mail.oversized and mail.lines == ()


def test_cleanup_quotes_attribution_and_signature() -> None:
    for attribution in ("On Mon, 2 Mar 2026, Bob <b@x> wrote:",
                        "Il giorno lun 2 mar 2026 alle 10:00 Bob <b@x> ha scritto:",
                        "Le lun. 2 mars 2026 à 10:00, Bob <b@x> a écrit :"):
        text = f"HELP\n> quoted HELP\n\n{attribution}\n> LIST\nmore old text\n"
        assert command_lines(text) == ["HELP"]
    assert command_lines("HELP\n-- \nAnn\nLIST\n") == ["HELP"]
    assert command_lines("HELP\nOn Mon, 2 Mar 2026 at 10:00, Bob\n<b@x> wrote:\n> x\n") == ["HELP"]
    assert command_lines("-----Original Message-----\nHELP\n") == []


def test_html_to_text_blocks() -> None:
    assert html_to_text("<p>A</p><p>B<br>C</p>") == "A\n\nB\nC\n"


def test_loop_guard() -> None:
    cases = {
        "Auto-Submitted: auto-replied\n": "Auto-Submitted",
        "Precedence: bulk\n": "Precedence",
        "Precedence: list\n": "Precedence",
        "X-Failed-Recipients: x@y\n": "delivery status",
        "Return-Path: <>\n": "bounce",
    }
    for header, reason in cases.items():
        mail = _decode(_mail(f"From: a@example.org\n{header}", b"HELP\r\n"))
        assert mail.loop_reason and reason in mail.loop_reason
    for sender in ("MAILER-DAEMON@example.org", "postmaster@example.org",
                   "no-reply@example.org", "noreply@example.org", "judge@example.org"):
        assert _decode(_mail(f"From: {sender}\n", b"HELP\r\n")).loop_reason
    assert _decode(_mail("From: a@example.org\nAuto-Submitted: no\n", b"HELP\r\n")
                   ).loop_reason is None


def test_a_reply_names_its_parent_in_references_or_in_reply_to() -> None:
    both = _decode(_mail("From: a@example.org\nReferences: <r1@x> <r2@x>\n"
                         "In-Reply-To: <r2@x>\n", b"hi\r\n"))
    assert both.references == ("<r1@x>", "<r2@x>")
    alone = _decode(_mail("From: a@example.org\nIn-Reply-To: <p@x>\n", b"hi\r\n"))
    assert alone.references == ("<p@x>",)
