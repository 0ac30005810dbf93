"""Sign-on lockout: repeated wrong passwords for one seat lock it for a while, the GM told once.

The lock stops strangers guessing; the seat's own registered address still signs on, so a
stranger's wrong guesses never lock a player out before a deadline. Each request counts at
most one failure per seat (``Caller.counted``), however many times it repeats the guess.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from judge.service import games
from judge.service.answers import Done
from judge.service.caller import Caller
from judge.storage import guardrepo
from judge.storage.models import Game

log = logging.getLogger(__name__)

Session = Any  # a judge.storage session (SQLAlchemy stays inside judge.storage)


def locked(session: Session, caller: Caller, game: Game, power: str) -> bool:
    row = guardrepo.signon_lock(session, game.id, power)
    return row is not None and row.locked_until is not None and row.locked_until > caller.now


def failed(session: Session, caller: Caller, game: Game, power: str) -> None:
    """Count a wrong password for the seat; at the limit lock it and tell the GM once."""
    settings, now = caller.settings, caller.now
    row = guardrepo.signon_lock_for_update(session, game.id, power)
    window = timedelta(hours=settings.signon_lock_hours)
    if row.first_failure_at is None or row.first_failure_at <= now - window:
        row.first_failure_at = now
        row.failures = 0
        row.gm_told = False
    row.failures += 1
    if row.failures < settings.signon_failures_before_lock:
        return
    row.locked_until = now + window
    log.warning("game %s, %s: sign-on locked after %d wrong passwords", game.name, power,
                row.failures)
    if not row.gm_told:
        row.gm_told = True
        caller.tell(games.gm_address(session, game), game, Done.SEAT_LOCKED, game=game.name,
                    power=power, count=row.failures,
                    until=games.local_time(game, row.locked_until))


def succeeded(session: Session, game: Game, power: str) -> None:
    row = guardrepo.signon_lock(session, game.id, power)
    if row is not None and row.failures:
        row.failures = 0
        row.first_failure_at = None
        row.locked_until = None
        row.gm_told = False
