"""VERP return paths: the envelope sender of each outgoing message names its outbox row.

A bounce comes back to ``judge+bounce-<row id>-<token>@domain``, which ties it to the row,
hence to the recipient and the game, without trusting anything the bounce says. The token
is cut from a hash of the row's Message-ID, which only the judge and the recipient's
mailers know, so a stranger cannot forge a bounce for someone else's seat.
"""

from __future__ import annotations

import hashlib
import re

TOKEN_LENGTH = 12
TAG = "bounce"


def verp_token(message_id: str) -> str:
    return hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:TOKEN_LENGTH]


def verp_address(address: str, row_id: int, message_id: str) -> str:
    """The envelope sender for outbox row ``row_id`` of a judge whose address is ``address``."""
    local, _, domain = address.rpartition("@")
    return f"{local}+{TAG}-{row_id}-{verp_token(message_id)}@{domain}"


def verp_row(address: str, recipient: str) -> tuple[int, str] | None:
    """(row id, token) when ``recipient`` is one of this judge's VERP addresses, else None.

    The token still has to be checked against the row's Message-ID (``verp_token``)."""
    local, _, domain = address.rpartition("@")
    pattern = (re.escape(local) + rf"\+{TAG}-(\d{{1,18}})-([0-9a-f]{{{TOKEN_LENGTH}}})@"
               + re.escape(domain))
    found = re.fullmatch(pattern, recipient.strip().strip("<>"), re.IGNORECASE)
    if found is None:
        return None
    return int(found.group(1)), found.group(2).lower()
