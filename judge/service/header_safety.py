"""What may reach an outgoing header: one line, no control character, a plain addr-spec.

Every value a mail header is built from (the subject of a reply, an address, a Message-ID a
sender gave) passes through here before it is stored in the outbox, so nothing an attacker
wrote can add a header line or a recipient. Hand-written because the standard library only
parses leniently (``email.utils.parseaddr`` accepts what a display name smuggles in); the rules
below are the strict subset of RFC 5322 the judge needs.
"""

from __future__ import annotations

import re
import unicodedata

# a subject longer than this is cut: the RFC's limit is 998 octets per line, folded or not
SUBJECT_CHARS = 200

# dot-atom local part and a domain of labels: the addr-spec forms a judge ever writes to
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
ADDR_SPEC = re.compile(
    rf"^{_ATOM}(?:\.{_ATOM})*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{{0,61}}[A-Za-z0-9])?\.)*"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$"
)
MESSAGE_ID = re.compile(r"^<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>$")  # printable, no < > inside
MAX_ADDRESS = 254


def one_line(text: str, limit: int = SUBJECT_CHARS) -> str:
    """``text`` as one header line: control and format characters (CR, LF, NUL, TAB, bidi
    overrides...) become spaces, runs of spaces one space, cut to ``limit`` characters."""
    cleaned = "".join(" " if unicodedata.category(ch)[0] == "C" or ch in "\u2028\u2029"
                      else ch for ch in text)
    return " ".join(cleaned.split())[:limit]


def addr_spec(value: str) -> str | None:
    """``value`` if it is exactly one plain address (``local@domain``), else None."""
    value = value.strip()
    if value.startswith("<") and value.endswith(">"):
        value = value[1:-1]
    if len(value) > MAX_ADDRESS or not ADDR_SPEC.match(value):
        return None
    return value


def message_id(value: str) -> str | None:
    """A Message-ID fit to be repeated in In-Reply-To / References, else None."""
    value = value.strip()
    return value if MESSAGE_ID.match(value) else None


def references(values: list[str] | tuple[str, ...], keep: int = 10) -> str | None:
    """The valid Message-IDs of a References chain (the last ``keep``), space-separated."""
    ids = [v for v in (message_id(x) for x in values) if v]
    return " ".join(ids[-keep:]) or None
