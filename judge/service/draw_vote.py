"""A seat's secret draw vote, the use case a player's DRAW / NODRAW and a computer power's vote
take alike.

Part of the use-case API (``judge.service.usecases`` re-exports it); kept apart because the
computer powers vote from inside turn processing (``judge.service.computer_phase``), which the use
cases' ``process_phase`` calls: the two stay one-way.
"""

from __future__ import annotations

from datetime import datetime

from judge.service.answers import CommandRefusal
from judge.service.caller import Denied
from judge.storage import Session, playrepo
from judge.storage.models import Game, Seat, Vote


def vote_draw(session: Session, game: Game, seat: Seat, now: datetime, draw: bool) -> None:
    """The seat's secret draw vote: cast (``draw``) or withdrawn; one vote per seat."""
    if game.status != "active":
        raise Denied(CommandRefusal.GAME_NOT_ACTIVE, game, game=game.name)
    playrepo.delete_votes(session, game.id, None, "draw", seat.power)
    if draw:
        session.add(Vote(game_id=game.id, phase=game.phase, kind="draw",
                         voter_power=seat.power, target_power=None, payload={}, created=now))
        session.flush()
