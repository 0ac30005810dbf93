"""Raw bytes -> IncomingMail, with the standard library only.

Never raises on bad input: whatever cannot be read is guessed and the guess is noted, so the
reply can tell the sender (unknown charset, attachment ignored, HTML read as text).
"""

from __future__ import annotations

import codecs
import email
import email.message
import email.utils
from email.header import decode_header, make_header

from judge.mail.cleanup import command_lines, html_to_text
from judge.mail.loopguard import loop_reason
from judge.service.uow import IncomingMail, note_text
from judge.settings import Settings

# charsets whose declared name is commonly wrong: Windows clients label cp1252 as latin-1
CHARSET_ALIASES = {"iso-8859-1": "cp1252", "latin-1": "cp1252", "latin1": "cp1252",
                   "us-ascii": "utf-8", "ascii": "utf-8", "": "utf-8"}


def header_text(value: object) -> str:
    """A header as text, RFC 2047 words decoded; unreadable words are kept as sent."""
    if value is None:
        return ""
    if isinstance(value, str) and "=?" not in value:
        return value.strip()  # no encoded words: what make_header(decode_header()) gives back
    raw = str(value)
    try:
        return str(make_header(decode_header(raw))).strip()
    except (LookupError, UnicodeDecodeError, ValueError, email.errors.HeaderParseError):
        return " ".join(raw.split())


Code = tuple[str, tuple[tuple[str, str], ...]]


def decode_text(payload: bytes, charset: str | None) -> tuple[str, Code | None]:
    """Text from bytes in a declared charset; returns (text, note code or None)."""
    declared = (charset or "").strip().strip('"').lower()
    name = CHARSET_ALIASES.get(declared, declared)
    try:
        codecs.lookup(name)
    except LookupError:
        text, used = _guess(payload)
        return text, ("unknown_charset", (("charset", declared), ("used", used)))
    try:
        return payload.decode(name), None
    except UnicodeDecodeError:
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


def _part_name(part: email.message.Message) -> str:
    name = part.get_filename()
    if name:
        return header_text(name)
    return f"({part.get_content_type()})"


def _walk(msg: email.message.Message, plain: list[email.message.Message],
          html: list[email.message.Message], ignored: list[str]) -> None:
    if msg.is_multipart():
        if msg.get_content_type() == "message/rfc822":
            ignored.append(_part_name(msg))
            return
        for sub in msg.get_payload():
            if isinstance(sub, email.message.Message):
                _walk(sub, plain, html, ignored)
        return
    ctype = msg.get_content_type()
    disposition = (msg.get("Content-Disposition") or "").split(";")[0].strip().lower()
    if disposition == "attachment" or msg.get_filename():
        ignored.append(_part_name(msg))
    elif ctype == "text/plain":
        plain.append(msg)
    elif ctype == "text/html":
        html.append(msg)
    else:
        ignored.append(_part_name(msg))


def _payload(part: email.message.Message) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except Exception:  # malformed transfer encodings: fall back to the raw text
        data = None
    if isinstance(data, bytes):
        return data
    raw = part.get_payload()
    return raw.encode("latin-1", "replace") if isinstance(raw, str) else b""


def _addresses(values: list[str]) -> tuple[str, ...]:
    return tuple(addr for _name, addr in email.utils.getaddresses(values) if addr)


def decode(
    raw: bytes, envelope_from: str, size: int, oversized: bool, settings: Settings
) -> IncomingMail:
    msg = email.message_from_bytes(raw)
    headers = {key.lower(): header_text(value) for key, value in msg.items()}
    from_name, from_addr = email.utils.parseaddr(headers.get("from", ""))
    if "@" not in from_addr:
        from_name, from_addr = "", envelope_from if "@" in envelope_from else ""
    if "@" in from_addr:
        local, _, domain = from_addr.rpartition("@")
        from_addr = f"{local}@{domain.lower()}"
    _, reply_to = email.utils.parseaddr(headers.get("reply-to", ""))
    codes: list[Code] = []
    plain: list[email.message.Message] = []
    html: list[email.message.Message] = []
    ignored: list[str] = []
    text = ""
    if not oversized:
        _walk(msg, plain, html, ignored)
        chosen = plain[0] if plain else html[0] if html else None
        if chosen is not None:
            text, code = decode_text(_payload(chosen), chosen.get_content_charset())
            if code:
                codes.append(code)
            if not plain:
                text = html_to_text(text)
                codes.append(("html_read", ()))
        elif not msg.is_multipart():
            ignored.append(_part_name(msg))
    return IncomingMail(
        from_addr=from_addr,
        from_name=from_name,
        to=_addresses(msg.get_all("To", [])),
        cc=_addresses(msg.get_all("Cc", [])),
        reply_to=reply_to if "@" in reply_to else "",
        subject=headers.get("subject", ""),
        message_id=headers.get("message-id", "").strip(),
        references=tuple(headers.get("references", "").split()),
        text=text,
        lines=tuple(command_lines(text)),
        ignored_attachments=tuple(ignored),
        oversized=oversized,
        size=size,
        notes=tuple(note_text(*code) for code in codes),
        note_codes=tuple(codes),
        loop_reason=loop_reason(headers, from_addr, settings.address, msg.get_content_type()),
    )
