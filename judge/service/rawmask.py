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
