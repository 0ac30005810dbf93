"""Raw bytes -> IncomingMail, with the standard library only.

Never raises on bad input: whatever cannot be read is guessed and the guess is noted, so the
reply can tell the sender (unknown charset, attachment ignored, HTML read as text). A mail
the email package cannot take apart at all (nesting past Python's recursion limit, a
structure it chokes on) is read for its headers only and answered "could not be read".
Charsets naming a codec that is not a text encoding (rot13, base64, zlib...) are unknown
charsets; NUL characters are removed (PostgreSQL refuses them in text); the MIME tree is
walked without recursion and only so far (``MAX_PARTS``).
"""

from __future__ import annotations

import codecs
import email
import email.message
import email.utils
import logging
import re
from collections.abc import Sequence
from email.header import decode_header, make_header
from email.parser import BytesHeaderParser

from flufl.bounce import all_failures

from judge.mail.cleanup import command_lines, html_to_text
from judge.mail.loopguard import loop_reason
from judge.service.header_safety import addr_spec, one_line
from judge.service.uow import IncomingMail, note_text
from judge.settings import Settings

log = logging.getLogger(__name__)

# MIME parts looked at per mail; a deeper or wider tree is cut there
MAX_PARTS = 200

# charsets whose declared name is commonly wrong: Windows clients label cp1252 as latin-1
CHARSET_ALIASES = {"iso-8859-1": "cp1252", "latin-1": "cp1252", "latin1": "cp1252",
                   "us-ascii": "utf-8", "ascii": "utf-8", "": "utf-8"}


def header_text(value: object) -> str:
    """A header as text, RFC 2047 words decoded; unreadable words are kept as sent."""
    if value is None:
        return ""
    if isinstance(value, str) and "=?" not in value:
        # no encoded words: what make_header(decode_header()) gives back
        return value.strip().replace("\x00", "")
    try:
        raw = str(value)
    except Exception:  # a Header object of undecodable 8-bit bytes
        return ""
    try:
        text = str(make_header(decode_header(raw))).strip()
    except Exception:  # LookupError, UnicodeError, HeaderParseError, non-text codecs...
        text = " ".join(raw.split())
    return text.replace("\x00", "")


Code = tuple[str, tuple[tuple[str, str], ...]]


def decode_text(payload: bytes, charset: str | None) -> tuple[str, Code | None]:
    """Text from bytes in a declared charset; returns (text, note code or None)."""
    declared = (charset or "").strip().strip('"').lower()
    name = CHARSET_ALIASES.get(declared, declared)
    try:
        # rot13, base64, zlib, hex, uu, bz2 are codecs too, but not text encodings
        known = codecs.lookup(name)._is_text_encoding
    except (LookupError, ValueError, TypeError):
        known = False
    if not known:
        text, used = _guess(payload)
        return text, ("unknown_charset", (("charset", declared[:40]), ("used", used)))
    try:
        return payload.decode(name), None
    except (UnicodeDecodeError, LookupError, ValueError, TypeError):
        if name == "cp1252":
            return payload.decode("latin-1"), None
        text, used = _guess(payload)
        return text, ("bad_charset", (("charset", declared), ("used", used)))


def _guess(payload: bytes) -> tuple[str, str]:
    try:
        return payload.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return payload.decode("cp1252"), "windows-1252"
    except UnicodeDecodeError:
        return payload.decode("latin-1"), "latin-1"


def _filename(part: email.message.Message) -> str:
    try:
        return header_text(part.get_filename() or "")
    except Exception:  # undecodable RFC 2231 parameters, 8-bit bytes
        return "(attachment)"


def _part_name(part: email.message.Message) -> str:
    return _filename(part) or f"({part.get_content_type()})"


def _walk(msg: email.message.Message, plain: list[email.message.Message],
          html: list[email.message.Message], ignored: list[str]) -> None:
    """Sort the leaves of the MIME tree, depth first, without recursion, at most
    ``MAX_PARTS`` parts."""
    stack = [msg]
    seen = 0
    while stack:
        part = stack.pop()
        seen += 1
        if seen > MAX_PARTS:
            ignored.append(f"({len(stack) + 1} more parts)")
            return
        if part.is_multipart():
            if part.get_content_type() == "message/rfc822":
                ignored.append(_part_name(part))
                continue
            subs = part.get_payload()
            stack.extend(sub for sub in reversed(subs if isinstance(subs, list) else [])
                         if isinstance(sub, email.message.Message))
            continue
        ctype = part.get_content_type()
        disposition = header_text(part.get("Content-Disposition")).split(";")[0].strip().lower()
        if disposition == "attachment" or _filename(part):
            ignored.append(_part_name(part))
        elif ctype == "text/plain":
            plain.append(part)
        elif ctype == "text/html":
            html.append(part)
        else:
            ignored.append(_part_name(part))


def _payload(part: email.message.Message) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except Exception:  # malformed transfer encodings: fall back to the raw text
        data = None
    if isinstance(data, bytes):
        return data
    raw = part.get_payload()
    return raw.encode("latin-1", "replace") if isinstance(raw, str) else b""


def _addresses(values: Sequence[object]) -> tuple[str, ...]:
    try:
        texts = [str(v) for v in values]
        return tuple(addr.replace("\x00", "") for _name, addr in email.utils.getaddresses(texts)
                     if addr)
    except Exception:  # undecodable 8-bit header
        return ()


def _charset(part: email.message.Message) -> str | None:
    try:
        return part.get_content_charset()
    except Exception:  # an undecodable parameter
        return None


def _failures(msg: email.message.Message) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(permanent, temporary) failed recipients of a delivery report, by flufl.bounce."""
    try:
        temporary, permanent = all_failures(msg)
    except Exception:  # a detector choking on a malformed report: not a readable bounce
        return (), ()

    def text(found: frozenset[bytes]) -> tuple[str, ...]:
        return tuple(sorted({a.decode("utf-8", "replace") if isinstance(a, bytes) else str(a)
                             for a in found}))

    return text(permanent), text(temporary)


def sender_of(raw_from: object, envelope_from: str) -> tuple[str, str]:
    """(display name, addr-spec) of a From header, read BEFORE its encoded words are decoded:
    an address written inside an encoded display name (``=?utf-8?b?...?= <real@x>`` where the
    word decodes to ``"Evil <admin@judge>"``) is text, never the sender. A From naming several
    addresses, or none that is plain, falls back to the envelope sender."""
    found = email.utils.getaddresses([str(raw_from or "")])
    addresses = [(name, addr) for name, addr in found if addr]
    if len(addresses) == 1 and addr_spec(addresses[0][1]):
        name, addr = addresses[0]
        return one_line(header_text(name)), addr
    plain = addr_spec(envelope_from or "")
    return "", plain or ""


def decode(
    raw: bytes, envelope_from: str, size: int, oversized: bool, settings: Settings
) -> IncomingMail:
    try:
        return _decode(raw, envelope_from, size, oversized, settings)
    except Exception as exc:  # RecursionError, MemoryError, a bug of the email package
        # the email package could not take it apart: answer from the headers alone
        log.warning("mail from %r could not be decoded (%r): headers only", envelope_from, exc)
        return _headers_only(raw, envelope_from, size, settings)


def _headers_only(raw: bytes, envelope_from: str, size: int, settings: Settings
                  ) -> IncomingMail:
    raw_from: object = ""
    try:
        msg = BytesHeaderParser().parsebytes(raw)
        headers = {key.lower(): header_text(value) for key, value in msg.items()}
        raw_from = msg.get("From", "")
    except Exception:
        headers = {}
    from_addr = _from_address(raw_from, envelope_from)[1]
    code: Code = ("unreadable", ())
    return IncomingMail(
        from_addr=from_addr,
        subject=headers.get("subject", ""),
        message_id=headers.get("message-id", "").strip(),
        size=size,
        notes=(note_text(*code),),
        note_codes=(code,),
        loop_reason=loop_reason(headers, from_addr, settings.address,
                                _content_type(headers.get("content-type", ""))),
    )


def _content_type(value: str) -> str:
    return value.split(";")[0].strip().lower()


# a usable bare address: no white space or control characters, one @
BARE_ADDRESS = re.compile(r"[^\s@<>()\[\],;:\\\"\x00-\x1f\x7f]+@[^\s@<>()\[\],;:\\\"\x00-\x1f\x7f]+")


def _from_address(raw_from: object, envelope_from: str) -> tuple[str, str]:
    from_name, from_addr = sender_of(raw_from, envelope_from)
    if BARE_ADDRESS.fullmatch(from_addr) is None:
        from_name, from_addr = "", ""
    if from_addr:
        local, _, domain = from_addr.rpartition("@")
        from_addr = f"{local}@{domain.lower()}"
    return from_name, from_addr


def _decode(
    raw: bytes, envelope_from: str, size: int, oversized: bool, settings: Settings
) -> IncomingMail:
    msg = email.message_from_bytes(raw)
    headers = {key.lower(): header_text(value) for key, value in msg.items()}
    from_name, from_addr = _from_address(msg.get("From", ""), envelope_from)
    _, reply_to = email.utils.parseaddr(str(msg.get("Reply-To", "")))
    codes: list[Code] = []
    plain: list[email.message.Message] = []
    html: list[email.message.Message] = []
    ignored: list[str] = []
    text = ""
    if not oversized:
        _walk(msg, plain, html, ignored)
        chosen = plain[0] if plain else html[0] if html else None
        if chosen is not None:
            text, code = decode_text(_payload(chosen), _charset(chosen))
            text = text.replace("\x00", "")
            if code:
                codes.append(code)
            if not plain:
                text = html_to_text(text)
                codes.append(("html_read", ()))
        elif not msg.is_multipart():
            ignored.append(_part_name(msg))
    failed: tuple[str, ...] = ()
    delayed: tuple[str, ...] = ()
    if msg.get_content_type() == "multipart/report" or "x-failed-recipients" in headers:
        failed, delayed = _failures(msg)
    return IncomingMail(
        from_addr=from_addr,
        from_name=from_name,
        to=_addresses(msg.get_all("To", [])),
        cc=_addresses(msg.get_all("Cc", [])),
        reply_to=reply_to if "@" in reply_to else "",
        subject=headers.get("subject", ""),
        message_id=headers.get("message-id", "").strip(),
        # In-Reply-To too: some clients name the parent there alone
        references=tuple(dict.fromkeys((*headers.get("references", "").split(),
                                        *headers.get("in-reply-to", "").split()))),
        text=text,
        lines=tuple(command_lines(text)),
        ignored_attachments=tuple(ignored),
        oversized=oversized,
        size=size,
        notes=tuple(note_text(*code) for code in codes),
        note_codes=tuple(codes),
        loop_reason=loop_reason(headers, from_addr, settings.address, msg.get_content_type()),
        failed_recipients=failed,
        delayed_recipients=delayed,
    )
