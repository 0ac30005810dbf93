"""The game events the server log records at INFO: one line each, naming the game and its
phase, so that the log tells what happened to a game (issue 28) and not only that the
scheduler woke up.

What a line holds is chosen here, never passed through: the game's name, its phase, the
event, and a few words or powers. Never a password, never an address (a blind game's players
are secret, and the log needs no one's address to tell a game's story).
"""

from __future__ import annotations

import logging

from judge.storage.models import Game

log = logging.getLogger("judge.events")


def event(game: Game, what: str, phase: str | None = None, **detail: str | int | None) -> None:
    """``game <name> <phase>: <what> (key=value ...)``; ``phase`` defaults to the game's
    current one; a None detail is left out."""
    shown = " ".join(f"{k}={v}" for k, v in sorted(detail.items()) if v is not None)
    log.info("game %s %s: %s%s", game.name, phase or game.phase, what,
             f" ({shown})" if shown else "")
