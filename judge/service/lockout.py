"""Sign-on lockout: repeated wrong passwords for one seat lock it for a while; the GM and the
seat's player are told once.

Every wrong password counts, whatever the From says (a From proves nothing: issue 25 saw
guesses forged from the seat's own address go uncounted). While the seat is locked no password
is checked for it; a mail that signs on to it is held, and handled only once a confirmation
mailed to the seat's registered address is answered (``judge.service.commands.guard``), so
the real player is never locked out of his seat and a guesser who cannot read that mailbox
learns nothing. Each request counts at most one failure per seat (``Caller.counted``), however
many times it repeats the guess.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from judge.parsing.commands import GM
from judge.service import games
from judge.service.answers import Done
from judge.service.caller import Caller
from judge.storage import Session, guardrepo, playrepo
from judge.storage.models import Game

log = logging.getLogger(__name__)


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
    if not row.gm_told:  # once per lock: the GM and the seat's player
        row.gm_told = True
        params = {"game": game.name, "power": power, "count": row.failures,
                  "until": games.local_time(game, row.locked_until)}
        gm = games.gm_address(session, game)
        caller.tell(gm, game, Done.SEAT_LOCKED, **params)
        player = registered_address(session, game, power)
        if player and (gm is None or player.lower() != gm.lower()):
            caller.tell(player, game, Done.SEAT_LOCKED, **params)


def registered_address(session: Session, game: Game, power: str) -> str | None:
    """Where the seat's player (or, for ``GM``, the GM) is written to."""
    if power == GM:
        return games.gm_address(session, game)
    seat = playrepo.seat_by_power(session, game.id, power)
    if seat is None or seat.account_id is None:
        return None
    return games.address_of_account(session, seat.account_id)


def succeeded(session: Session, game: Game, power: str) -> None:
    row = guardrepo.signon_lock(session, game.id, power)
    if row is not None and row.failures:
        row.failures = 0
        row.first_failure_at = None
        row.locked_until = None
        row.gm_told = False
