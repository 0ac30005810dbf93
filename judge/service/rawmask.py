"""No password at rest: the stored raw copy of a handled mail has its passwords masked.

The raw bytes are kept after handling for the record (and emptied after
``raw_mail_retention_days``), but a password in them would sit in clear in the database. Once
the mail is handled, every word that was a password in it is replaced by ``****`` in the
raw bytes; when the body is encoded (base64, quoted-printable, a charset) and a password
still shows after decoding the masked copy, only the header block is kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

MASK = b"****"
BODY_REMOVED = b"[body removed after handling: it carried a password]\r\n"


def _header_end(raw: bytes) -> int:
    for sep in (b"\r\n\r\n", b"\n\n"):
        at = raw.find(sep)
        if at >= 0:
            return at + len(sep)
    return len(raw)


def mask_raw(raw: bytes, secrets: Iterable[str],
             still_shows: Callable[[bytes], bool] | None = None) -> bytes:
    """``raw`` with each secret, as a whole word of the body, replaced by ``****``.

    ``still_shows(masked)`` tells whether a secret can still be read in the masked bytes
    (the decoder's view); if so the body is dropped."""
    words = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not words:
        return raw
    start = _header_end(raw)
    body = raw[start:]
    pattern = re.compile(rb"(?<!\S)(?:" + b"|".join(re.escape(w.encode("utf-8"))
                                                     for w in words) + rb")(?!\S)")
    masked = raw[:start] + pattern.sub(MASK, body)
    if still_shows is not None and still_shows(masked):
        return raw[:start] + BODY_REMOVED
    return masked


# A held mail (issue 25) is stored until its sender (or a seat's registered address) answers a
# confirmation, and then handled as if just received. Its passwords are replaced at once by
# placeholders, one per password, so the handling finds each where it was; what it needs of
# them (a fresh hash, whether a sign-on matched) travels with the confirmation instead.
PLACEHOLDER = "****"


def placeholders(secrets: Iterable[str]) -> dict[str, str]:
    """A placeholder word for each password (longest first, so a password inside another is
    not replaced first)."""
    words = sorted({s for s in secrets if s}, key=lambda w: (-len(w), w))
    return {word: f"{PLACEHOLDER}{index}" for index, word in enumerate(words, start=1)}


def is_placeholder(word: str | None) -> bool:
    return bool(word) and word.startswith(PLACEHOLDER)  # type: ignore[union-attr]


def _plain_headers(head: bytes) -> bytes:
    """The header block without its MIME lines (the body is rewritten as plain UTF-8)."""
    kept: list[bytes] = []
    skipping = False
    for line in head.splitlines(keepends=True):
        if line[:1] in (b" ", b"\t"):
            if not skipping:
                kept.append(line)
            continue
        name = line.split(b":", 1)[0].strip().lower()
        skipping = name in (b"content-type", b"content-transfer-encoding", b"mime-version")
        if not skipping and line.strip():
            kept.append(line)
    return b"".join(kept)


def mask_held(raw: bytes, mapping: dict[str, str], text: str,
              still_shows: Callable[[bytes], bool]) -> bytes:
    """``raw`` with each password (a whole word of the body) replaced by its placeholder.

    When the body is encoded so that a password still shows after decoding, the mail is
    rewritten as plain UTF-8 text: its headers (MIME lines left out) and ``text`` (its decoded
    text) with the placeholders; attachments are not kept (they are never read)."""
    if not mapping:
        return raw
    start = _header_end(raw)
    words = sorted(mapping, key=len, reverse=True)
    in_bytes = re.compile(rb"(?<!\S)(?:" + b"|".join(re.escape(w.encode("utf-8"))
                                                     for w in words) + rb")(?!\S)")
    masked = raw[:start] + in_bytes.sub(
        lambda m: mapping[m.group(0).decode("utf-8")].encode("ascii"), raw[start:])
    if not still_shows(masked):
        return masked
    in_text = re.compile(r"(?<!\S)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\S)")
    body = in_text.sub(lambda m: mapping[m.group(0)], text)
    head = _plain_headers(raw[:start]).rstrip(b"\r\n")
    return (head + b"\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Content-Transfer-Encoding: 8bit\r\n\r\n"
            + body.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8"))
