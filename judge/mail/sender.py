"""Outgoing messages built from outbox rows (the bytes the transport hands to the relay).

The sending itself is ``judge.mail.outbox`` (policy) over ``judge.mail.transport`` (SMTP).
"""

from __future__ import annotations

import base64
import logging
import os
from collections.abc import Mapping, MutableMapping, Sequence
from email.charset import QP, Charset
from email.header import Header
from email.message import EmailMessage, Message
from email.mime.text import MIMEText
from email.policy import SMTP as SMTP_POLICY
from email.utils import format_datetime
from typing import Any

import aiosmtplib

from judge.settings import Settings
from judge.storage.models import OutboundMail

log = logging.getLogger(__name__)

# connection-level trouble: the relay never judged the message, so always retry
TRANSIENT = (
    aiosmtplib.SMTPConnectError,
    aiosmtplib.SMTPServerDisconnected,
    aiosmtplib.SMTPTimeoutError,
    aiosmtplib.SMTPHeloError,
    OSError,
)


def attachment_bytes(att: Mapping[str, Any], blobs: Mapping[str, bytes] | None) -> bytes:
    """An attachment's bytes: a stored blob by its sha256 (one copy shared by every message
    that carries it, issue 16), or inline base64 (rows queued before blobs existed)."""
    if "blob" in att:
        if blobs is None or att["blob"] not in blobs:
            raise LookupError(f"blob {att['blob']} is not stored")
        return blobs[att["blob"]]
    return base64.b64decode(att["data_b64"])


def blob_refs(rows: Sequence[Any]) -> set[str]:
    """The blobs a batch of outbox rows references."""
    return {str(att["blob"]) for row in rows for att in (row.attachments or [])
            if isinstance(att, Mapping) and "blob" in att}


def build_message(row: OutboundMail, settings: Settings, eight_bit: bool = True,
                  blobs: Mapping[str, bytes] | None = None) -> Message:
    """The message for an outbox row; plain text goes the cheap compat32 way.

    Non-ASCII text goes as 8bit (readable and greppable in the raw mail) when the relay
    takes 8BITMIME, else as quoted-printable. ``blobs``: the bytes of the blobs the row's
    attachments reference (``blob_refs``), read with the row.
    """
    msg: Message
    if row.attachments:
        rich = EmailMessage()
        rich.set_content(row.body or "")
        for att in row.attachments:
            maintype, _, subtype = str(att.get("mime", "application/octet-stream")).partition("/")
            rich.add_attachment(attachment_bytes(att, blobs), maintype=maintype,
                                subtype=subtype or "octet-stream", filename=att.get("filename"))
        msg = rich
    else:
        # EmailMessage's header objects cost more CPU than everything else in sending
        body = row.body or ""
        charset = Charset("utf-8")
        # typeshed types body_encoding as int and MIMEText's charset as str; the email package
        # takes None (no transfer encoding: 8bit) and a Charset object
        charset.body_encoding = None if eight_bit else QP  # type: ignore[assignment]
        msg = MIMEText(body, "plain", "us-ascii" if body.isascii() else charset)  # type: ignore[arg-type]
    # EmailMessage encodes non-ASCII headers itself and refuses Header objects
    subject = row.subject if isinstance(msg, EmailMessage) else _header(row.subject)
    headers = header_pairs(row, settings, subject)
    for name, value in headers:
        if value and name not in msg:
            msg[name] = value
    return msg


def header_pairs(row: OutboundMail, settings: Settings, subject: object) -> list[tuple[str, Any]]:
    """Every header an outgoing message carries, in order; empty values are skipped by callers."""
    return [
        ("From", settings.address),
        ("To", row.to_addr),
        ("Subject", subject),
        ("Date", format_datetime(row.created)),
        ("Message-ID", row.message_id),
        ("In-Reply-To", row.in_reply_to),
        ("References", row.references),
        ("List-Id", row.list_id),
        ("X-Loop", settings.address),
        *(row.headers or {}).items(),
    ]


def _header(value: str) -> str | Header:
    return value if value.isascii() else Header(value, "utf-8")


# a header line longer than this is folded by the email package: leave those to it
FAST_HEADER_MAX = 78


def fast_message_bytes(row: OutboundMail, settings: Settings, eight_bit: bool = True
                       ) -> bytes | None:
    """``message_bytes(build_message(...))`` for the common case, without the email package.

    Only for a plain-text row without attachments whose headers are short ASCII lines and
    whose body is ASCII (or UTF-8 going 8bit); returns None for anything else, which then
    takes the email package's way. The bytes are the same as that way's.
    """
    if row.attachments:
        return None
    body = row.body or ""
    if body.isascii():
        head = b'Content-Type: text/plain; charset="us-ascii"\nMIME-Version: 1.0\n' \
               b"Content-Transfer-Encoding: 7bit\n"
    elif eight_bit:
        head = b'Content-Type: text/plain; charset="utf-8"\nMIME-Version: 1.0\n' \
               b"Content-Transfer-Encoding: 8bit\n"
    else:
        return None
    lines = _fast_headers(row, settings, "\n")
    if lines is None:
        return None
    try:
        return (head.decode() + "".join(lines) + "\n").encode("ascii") + body.encode("utf-8")
    except UnicodeError:
        return None


def _fast_headers(row: OutboundMail, settings: Settings, eol: str) -> list[str] | None:
    """The row's header lines as the email package writes them, when each is a short ASCII
    line it would write unchanged; None otherwise."""
    lines: list[str] = []
    seen = {"content-type", "mime-version", "content-transfer-encoding"}
    for name, value in header_pairs(row, settings, row.subject):
        if not value or name.lower() in seen:
            continue
        value = str(value)
        if (len(name) + 2 + len(value) > FAST_HEADER_MAX or not value.isascii()
                or "\n" in value or "\r" in value or value != value.strip()):
            return None
        seen.add(name.lower())
        lines.append(f"{name}: {value}{eol}")
    return lines


# MIME bodies with attachments kept by ``shared_message_bytes`` (a phase's map and results:
# one per game being sent at the moment)
PARTS_KEPT = 32
# attachments larger than this are base64-encoded in one call (see shared_message_bytes)
_SWAP_ABOVE = 4096
Parts = MutableMapping[tuple[Any, ...], tuple[bytes, bytes]]


def shared_message_bytes(row: OutboundMail, settings: Settings,
                         blobs: Mapping[str, bytes] | None, parts: Parts) -> bytes | None:
    """``message_bytes(build_message(...))`` for a row with attachments, the MIME body built
    once for every row carrying the same text and attachments (a phase's results and map go
    to every player: building and base64-encoding the map was most of sending's CPU).

    The body is the email package's own bytes, serialised once (so one MIME boundary is shared
    by those messages); only the recipient's header lines are written per row, by the rules of
    ``fast_message_bytes``. None when a header needs the email package (long, non-ASCII).
    """
    if not row.attachments:
        return None
    lines = _fast_headers(row, settings, "\r\n")
    if lines is None:
        return None
    key = (row.body or "", *(tuple(sorted((str(k), str(v)) for k, v in att.items()))
                             for att in row.attachments))
    shared = parts.get(key)
    if shared is None:
        rich = EmailMessage()
        rich.set_content(row.body or "")
        # a large attachment goes through the email package as a one-line stand-in, its
        # base64 put in its place afterwards: the package's own line-by-line encoding and
        # writing of a phase's map cost more than the rest of the message together. The
        # lines are the same (57 bytes a line, as the package encodes base64).
        swaps: list[tuple[bytes, bytes]] = []
        for att in row.attachments:
            maintype, _, subtype = str(att.get("mime", "application/octet-stream")).partition("/")
            data = attachment_bytes(att, blobs)
            if len(data) > _SWAP_ABOVE:
                stand_in = os.urandom(57)  # one base64 line, found nowhere else
                swaps.append((base64.b64encode(stand_in) + b"\r\n",
                              base64.encodebytes(data).replace(b"\n", b"\r\n")))
                data = stand_in
            rich.add_attachment(data, maintype=maintype, subtype=subtype or "octet-stream",
                                filename=att.get("filename"))
        whole = rich.as_bytes(policy=SMTP_POLICY)
        for stand_in_line, encoded in swaps:
            whole = whole.replace(stand_in_line, encoded, 1)
        # the multipart's own headers (Content-Type with its boundary, MIME-Version), then the
        # body: the recipient's headers go between, where build_message adds them
        head, _, rest = whole.partition(b"\r\n\r\n")
        shared = (head + b"\r\n", b"\r\n" + rest)
        while len(parts) >= PARTS_KEPT:
            del parts[next(iter(parts))]  # the oldest (dicts keep insertion order)
        parts[key] = shared
    return shared[0] + "".join(lines).encode("ascii") + shared[1]


def message_bytes(msg: Message) -> bytes:
    if isinstance(msg, EmailMessage):
        return msg.as_bytes(policy=SMTP_POLICY)
    return msg.as_bytes()
