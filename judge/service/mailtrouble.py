"""Dead letters and bounces reach a person: the GM of each seat concerned is told, once.

A seat's trouble is recorded per (game, power, address) in the same transaction that makes
the outbox row dead or that handles the bounce, and only a new record queues a notice, so
the GM gets one notice per seat (again only if the player's address changes). Bounces count
only when they come back to a VERP return path whose token matches the row
(``judge.service.verp``): a stranger cannot make a seat look dead with a forged report.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from judge.service.announce import broadcast, gm_address
from judge.service.verp import verp_row, verp_token
from judge.settings import Settings
from judge.storage import Session
from judge.storage.mailrepo import add_mail_trouble, outbound_by_id, seats_at_address

log = logging.getLogger(__name__)

EVENT = "mail_trouble"


def report(session: Session, settings: Settings, now: datetime, *, address: str,
           game_id: int | None, kind: str, outbound_id: int | None, detail: str) -> int:
    """Record trouble with mail to ``address`` and tell the GM of every seat it newly
    concerns (within ``game_id`` when the mail was a game's). Returns the notices queued."""
    told = 0
    for game, seat in seats_at_address(session, address, game_id):
        gm = gm_address(session, game)
        if gm is None or gm.lower() == address.lower():
            continue  # nobody else to tell (the GM's own mail is the one failing)
        if not add_mail_trouble(session, game_id=game.id, power=seat.power, address=address,
                                kind=kind, outbound_id=outbound_id, detail=detail, now=now):
            continue
        broadcast(session, settings, now, game, EVENT,
                  {"game": game.name, "power": seat.power, "address": address, "kind": kind,
                   "detail": " ".join(detail.split())[:300]},
                  addresses=[gm])
        log.warning("game %s: mail to %s (%s) is %s; GM told", game.name, seat.power,
                    address, "bouncing" if kind == "bounce" else "dead")
        told += 1
    return told


def dead_letter_hook(settings: Settings, now: Callable[[], datetime]
                     ) -> Callable[[Session, Any, str], None]:
    """For the outbox runner: called in the transaction that makes ``row`` dead."""

    def on_dead(session: Session, row: Any, error: str) -> None:
        report(session, settings, now(), address=row.to_addr, game_id=row.game_id,
               kind="dead", outbound_id=row.id, detail=error)

    return on_dead


def handle_bounce(session: Session, settings: Settings, now: datetime,
                  envelope_to: Sequence[str], failed: Sequence[str],
                  temporary: Sequence[str]) -> str | None:
    """A mail sent to one of the judge's VERP return paths; returns the note for the log
    (None when it is not addressed to a return path: an ordinary mail)."""
    for rcpt in envelope_to:
        found = verp_row(settings.address, rcpt)
        if found is None:
            continue
        row_id, token = found
        row = outbound_by_id(session, row_id)
        if row is None or verp_token(row.message_id) != token:
            return f"dropped: bounce to an unknown return path {rcpt!r}"
        if not failed:
            if temporary:
                return f"dropped: delay notice for outbound {row_id} ({', '.join(temporary)})"
            # vacation and other auto-replies go to the return path too (RFC 3834)
            return f"dropped: no failure found in a mail to the return path of {row_id}"
        told = report(session, settings, now, address=row.to_addr, game_id=row.game_id,
                      kind="bounce", outbound_id=row.id,
                      detail="bounced: " + ", ".join(sorted(failed)))
        return f"bounce for outbound {row_id} to {row.to_addr}; {told} GM notice(s)"
    return None
