"""Mail that must never be answered, because answering could start a mail loop (RFC 3834).

Besides ``Auto-Submitted`` (RFC 3834) the de-facto markers of automatic mail are honoured:
``X-Autoreply`` / ``X-Autorespond`` (vacation programs), ``X-Auto-Response-Suppress``
(Exchange), ``List-Id`` / ``List-Unsubscribe`` / ``List-Post`` (a mailing list relayed it:
answering would write to every member, or to the list's owner) and ``Precedence`` bulk, junk,
list or auto_reply.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

ROBOT_SENDERS = re.compile(
    r"^(mailer-daemon|postmaster|no-?reply|do-?not-?reply|bounces?|mail-?daemon)([+\-.].*)?@",
    re.IGNORECASE,
)


# present at all (whatever their value): the mail was sent by a program or relayed by a list
AUTOMATIC_HEADERS = ("x-autoreply", "x-autorespond", "x-autoresponder", "list-id",
                     "list-unsubscribe", "list-post", "x-mailing-list", "feedback-type")


def loop_reason(
    headers: Mapping[str, str], from_addr: str, own_address: str, content_type: str = ""
) -> str | None:
    """Why this mail gets no reply, or None when it may be answered."""
    auto = headers.get("auto-submitted", "").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}"
    precedence = headers.get("precedence", "").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply", "auto-reply"):
        return f"Precedence: {precedence}"
    for name in AUTOMATIC_HEADERS:
        if name in headers:
            return f"automatic mail ({name})"
    suppress = headers.get("x-auto-response-suppress", "").lower()
    if any(word in suppress for word in ("all", "oof", "autoreply")):
        return f"X-Auto-Response-Suppress: {suppress}"
    if headers.get("x-loop", "").strip().lower() == own_address.lower():
        return "X-Loop names this judge"
    if "x-failed-recipients" in headers or content_type.lower() == "multipart/report":
        return "delivery status notification"
    if headers.get("return-path", "").strip() == "<>":
        return "null return path (bounce)"
    if from_addr and ROBOT_SENDERS.match(from_addr):
        return f"robot sender {from_addr}"
    if from_addr and from_addr.lower() == own_address.lower():
        return "mail from the judge itself"
    return None
