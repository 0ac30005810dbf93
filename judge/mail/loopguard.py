"""Mail that must never be answered, because answering could start a mail loop."""

from __future__ import annotations

import re
from collections.abc import Mapping

ROBOT_SENDERS = re.compile(
    r"^(mailer-daemon|postmaster|no-?reply|do-?not-?reply|bounces?|mail-?daemon)([+\-.].*)?@",
    re.IGNORECASE,
)


def loop_reason(
    headers: Mapping[str, str], from_addr: str, own_address: str, content_type: str = ""
) -> str | None:
    """Why this mail gets no reply, or None when it may be answered."""
    auto = headers.get("auto-submitted", "").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}"
    precedence = headers.get("precedence", "").strip().lower()
    if precedence in ("bulk", "junk", "list"):
        return f"Precedence: {precedence}"
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
